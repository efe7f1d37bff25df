// awave-cuda-bulkcopy (cuda build): hand CUDA's three-step sweep with its planes fed by Hopper's bulk copy
// engine (issue 79), against the product's sweep (core/sweep_march.hpp, launched as src/cuda/wave_cuda.cu
// launches it) in the same process. The commands (check, timing) and their output:
// bench/cuda_sweep_variants.cuh, shared with the big-tile study.
//
// A variant bulk_sweep<S, D, Loader, Sync, Producer> keeps the product's team (32 x 20 columns, a halo of S,
// two blocks an SM under the 48-register cap), its march (a thread a column marching i, each level's last
// two planes in registers) and its arithmetic (the shared formula, undamped_next where damp is 0,
// next_value elsewhere), so the bits are the product's. What changes is how a plane arrives:
// - Loader: u(t) at plane m and u(t-1) at plane m - 1 (step m's inputs) are copied by the copy engine
//   (`cp.async.bulk.tensor`) into a ring of D stages in shared memory, completing on the stage's mbarrier
//   (expect-tx of the stage's bytes); no thread issues a global load, computes an address or holds a
//   plane ahead in registers, and level 0 is read from the stage instead of being stored to shared memory.
//   `tile`: one 3-D box (32 x 20 x 1) a field a plane, out-of-grid points zero-filled by the engine; the
//   tensor map needs row strides of a multiple of 16 B (nz even). `rows`: a 1-D map over the whole field,
//   one 256-B row a lane of one warp (20 copies a field a plane), any nz (what lies beyond the padded
//   row is read but never used: only in-grid columns compute).
// - D: stages; the loads run D - 2 planes ahead (D - 1 with a producer warp).
// - Sync: `bar`: the product's one barrier a plane (the levels 1..S-1 of the previous plane handed through
//   shared memory in two buffers); `split`: an mbarrier a buffer instead, arrived once a warp after its
//   stores and waited only before level 2, so level 1 (which reads the stages alone) overlaps the other
//   warps' arrival.
// - Producer: `none`: warp 0 (tile: its lane 0) issues the copies once a stage is free (after the
//   plane's barrier); `warp`: a 20th warp does nothing else, refilling a stage as soon as the 19 computing
//   warps (32 x 19 columns) have released it (an `empty` mbarrier a stage); they meet at a named barrier.
// setmaxnreg is not tried: it moves registers between warpgroups (four warps), and a lone producer warp
// beside 19 computing warps is not one (the cap of 48 is the two blocks an SM's, not the producer's).
#include "../../cuda_sweep_variants.cuh"
#include "core/sponge.hpp"
#include "core/sweep_march.hpp"
#include "core/wave_update.hpp"

#include <cuda.h>  // CUtensorMap and its enums; the encoder comes from the driver at run time (no -lcuda)
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace awave;
using sweep_variants::Variant;

namespace {

enum class Loader { tile, rows };
enum class Sync { bar, split };
enum class Producer { none, warp };

struct Maps {
  CUtensorMap now, prev;  // u(t), u(t-1) of this sweep
};

__device__ inline unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ inline void mbarrier_init(std::uint64_t* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)), "r"(count) : "memory");
}
__device__ inline void mbarrier_arrive(std::uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(bar)) : "memory");
}
__device__ inline void mbarrier_arrive_expect_tx(std::uint64_t* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)), "r"(bytes)
               : "memory");
}
__device__ inline void mbarrier_wait(std::uint64_t* bar, unsigned parity) {
  unsigned done = 0;
  do {
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(shared_address(bar)), "r"(parity)
        : "memory");
  } while (!done);
}
__device__ inline void bulk_copy_3d(void* to, const CUtensorMap* map, std::uint64_t* bar, int c0, int c1, int c2) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], "
      "[%5];" ::"r"(shared_address(to)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(c0), "r"(c1), "r"(c2), "r"(shared_address(bar))
      : "memory");
}
__device__ inline void bulk_copy_1d(void* to, const CUtensorMap* map, std::uint64_t* bar, int c0) {
  asm volatile(
      "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];" ::"r"(
          shared_address(to)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(c0), "r"(shared_address(bar))
      : "memory");
}

// The product's team is 32 x 20 columns, a warp a row. With a producer warp the computing warps keep 19 rows,
// so the block stays at 640 threads: at 672 ptxas caps a thread at 40 registers for two blocks an SM and
// spills 40-52 B (an SM's four register files each hold whole warps: 11 of 42 warps at 48 registers overflow one).
constexpr int kColumnsK = 32;
__host__ __device__ constexpr int columns_j(Producer p) { return p == Producer::warp ? 19 : 20; }

constexpr std::size_t shared_bytes(int S, int D, int HJ) {
  const std::size_t plane = std::size_t(kColumnsK) * HJ;
  return (std::size_t(D) * 2 * plane + std::size_t(2) * (S - 1) * plane) * sizeof(double) +
         (2 * std::size_t(D) + 2) * sizeof(std::uint64_t);
}

// A bulk-copy sweep of S steps (see the top). kPlant: the point (nx/2, ny/2, nz/2) of level S one ulp up.
template <int S, int D, Loader L, Sync Y, Producer P, bool kPlant>
__global__ void __launch_bounds__(640, 2) bulk_sweep(SweepFields a, int segment, const __grid_constant__ Maps maps) {
  static_assert(D >= 3 && S >= 2, "a stage for the plane in use, the one before, and one in flight");
  constexpr int HK = kColumnsK, HJ = columns_j(P), TK = HK - 2 * S, TJ = HJ - 2 * S, kPlane = HK * HJ;
  constexpr int kComputingWarps = HJ;
  constexpr unsigned kStageBytes = 2 * kPlane * sizeof(double);
  extern __shared__ __align__(128) unsigned char shared[];
  double* const ring = reinterpret_cast<double*>(shared);  // [D][u(t), u(t-1)][HJ][HK]
  double* const levels = ring + D * 2 * kPlane;            // [2][S - 1][HJ][HK]: levels 1..S-1
  std::uint64_t* const full = reinterpret_cast<std::uint64_t*>(levels + 2 * (S - 1) * kPlane);
  std::uint64_t* const empty = full + D;        // the producer warp's: a stage released by every computing warp
  std::uint64_t* const handed = empty + D;      // Sync::split: a level buffer's stores arrived
  auto stage_now = [&](int n) { return ring + (n % D) * 2 * kPlane; };
  auto stage_prev = [&](int n) { return ring + (n % D) * 2 * kPlane + kPlane; };
  auto level_plane = [&](int buffer, int s) { return levels + (buffer * (S - 1) + s - 1) * kPlane; };

  const int i0 = blockIdx.z * segment, i1 = min(i0 + segment, a.nx);
  const int m_begin = i0 - S, steps = i1 + S - m_begin;  // step n marches plane m = m_begin + n
  const int k_first = blockIdx.x * TK - S, j_first = blockIdx.y * TJ - S;
  const int lane = threadIdx.x;
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    for (int d = 0; d < D; ++d) {
      mbarrier_init(&full[d], 1);
      mbarrier_init(&empty[d], kComputingWarps);
    }
    mbarrier_init(&handed[0], kComputingWarps);
    mbarrier_init(&handed[1], kComputingWarps);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  __syncthreads();

  // Step n's inputs (u(t) at plane m, u(t-1) at m - 1) into its stage, by one warp.
  auto issue = [&](int n) {
    const int m = m_begin + n;
    std::uint64_t* bar = &full[n % D];
    if (lane == 0) mbarrier_arrive_expect_tx(bar, kStageBytes);
    if constexpr (L == Loader::rows) {
      if (lane < HJ) {
        const long row = long(j_first + 1 + lane) * a.sj + (k_first + 1);
        bulk_copy_1d(stage_now(n) + lane * HK, &maps.now, bar, int((m + 1) * a.si + row));
        bulk_copy_1d(stage_prev(n) + lane * HK, &maps.prev, bar, int(m * a.si + row));
      }
    } else if (lane == 0) {
      bulk_copy_3d(stage_now(n), &maps.now, bar, k_first + 1, j_first + 1, m + 1);
      bulk_copy_3d(stage_prev(n), &maps.prev, bar, k_first + 1, j_first + 1, m);
    }
  };

  if constexpr (P == Producer::warp) {
    if (threadIdx.y == HJ) {
      for (int n = 0; n < steps; ++n) {
        if (n >= D) mbarrier_wait(&empty[n % D], ((n / D) - 1) & 1);
        issue(n);
      }
      return;
    }
  } else if (threadIdx.y == 0) {
    for (int n = 0; n < D - 2 && n < steps; ++n) issue(n);
  }
  // The loads D - 2 planes ahead, into the stage step n - 2 used: free once every warp is past step n - 1.
  auto refill = [&](int n) {
    if constexpr (P == Producer::none)
      if (threadIdx.y == 0 && n + D - 2 < steps) issue(n + D - 2);
  };

  const int kk = threadIdx.x, jj = threadIdx.y, me = jj * HK + kk;
  const int k = k_first + kk, j = j_first + jj;
  const bool interior = k >= 0 && k < a.nz && j >= 0 && j < a.ny;
  const int out_k = max(S - kk, kk - (HK - 1 - S)), out_j = max(S - jj, jj - (HJ - 1 - S));
  const int ring_out = interior ? max(out_k, out_j) : S + 1;  // level s is computed at ring_out <= S - s
  const long c0 = a.si + (j + 1) * a.sj + (k + 1);
  const double cs2 = interior ? a.cs2_k[k] : 0.0;
  const long planted = (a.nx / 2 + 1) * a.si + (a.ny / 2 + 1) * a.sj + (a.nz / 2 + 1);
  auto live = [&](int s, int p) { return p >= i0 - (S - s) && p < i1 + (S - s) && p >= 0 && p < a.nx; };
  // Bulk planes, as the product's: the block clear of the y layers, every level live and written by
  // this segment, no level's plane in an x layer.
  const bool clear_of_y_layers = j_first >= sponge::kLayers && j_first + HJ <= a.ny - sponge::kLayers;
  const int bulk_begin = max(i0 + S, sponge::kLayers + S), bulk_end = min(i1 + S - 1, a.nx - sponge::kLayers + 1);

  double w[S][2];  // level s at planes m - 1 - s and m - 2 - s
#pragma unroll
  for (int s = 0; s < S; ++s) w[s][0] = w[s][1] = 0.0;
  auto plane = [&](int n, auto bulk) {
    constexpr bool kBulk = decltype(bulk)::value;
    const int m = m_begin + n, buffer = n & 1;
#pragma unroll
    for (int s = 1; s < S; ++s) level_plane(buffer, s)[me] = w[s][0];
    if constexpr (Y == Sync::bar) {
      if constexpr (P == Producer::warp)
        asm volatile("bar.sync 1, %0;" ::"n"(32 * kComputingWarps) : "memory");
      else
        __syncthreads();  // (two buffers: the next plane's stores cannot meet this plane's reads)
      refill(n);
    } else {
      __syncwarp();
      if (lane == 0) mbarrier_arrive(&handed[buffer]);
    }
    mbarrier_wait(&full[n % D], (n / D) & 1);
    double level[S + 1];
    level[0] = stage_now(n)[me];
    const double prev_p = stage_prev(n)[me];
#pragma unroll
    for (int s = 1; s <= S; ++s) {
      if (Y == Sync::split && s == 2) {
        mbarrier_wait(&handed[buffer], (n >> 1) & 1);
        refill(n);
      }
      const int p = m - s;  // level s at plane p, from level s - 1
      level[s] = 0.0;
      if (ring_out <= S - s && (kBulk || live(s, p))) {
        const double* Lp = s == 1 ? stage_now(n + D - 1) : level_plane(buffer, s - 1);  // (n + D - 1: step n - 1's)
        const Stencil7 st{w[s - 1][0],           w[s - 1][1],         level[s - 1],       Lp[(jj - 1) * HK + kk],
                          Lp[(jj + 1) * HK + kk], Lp[jj * HK + kk - 1], Lp[jj * HK + kk + 1]};
        const double prev = s == 1 ? prev_p : w[s < 2 ? 0 : s - 2][1];
        double value;
        if (kBulk) {
          value = undamped_next(st, prev, cs2, a.f);
        } else {
          const double d = sponge::damp_at(a.damp_ij, a.ny, sponge::in_layer(p, a.nx) ? p : sponge::kLayers, j);
          value = d == 0.0 ? undamped_next(st, prev, cs2, a.f) : next_value(st, prev, cs2, d, a.f, a.dt);
        }
        const long at = c0 + p * a.si;
        if (kPlant && s == S && at == planted) value = nextafter(value, 1e300);
        level[s] = value;
        if (s >= S - 1 && ring_out <= 0 && (kBulk || (p >= i0 && p < i1))) (s == S ? a.u3 : a.u2)[at] = value;
      }
    }
    if constexpr (P == Producer::warp) {
      if (n >= 1) {  // step n - 1's stage: its last reader was this step's level 1
        __syncwarp();
        if (lane == 0) mbarrier_arrive(&empty[(n - 1) % D]);
      }
    }
#pragma unroll
    for (int s = 0; s < S; ++s) {
      w[s][1] = w[s][0];
      w[s][0] = level[s];
    }
  };
  for (int n = 0; n < steps; ++n) {
    const int m = m_begin + n;
    if (clear_of_y_layers && m >= bulk_begin && m < bulk_end)  // (block-uniform)
      plane(n, std::true_type{});
    else
      plane(n, std::false_type{});
  }
}

using EncodeTiled = decltype(&cuTensorMapEncodeTiled);

EncodeTiled tensor_map_encoder() {
  static EncodeTiled encode = [] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult found{};
    sweep_variants::check(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault,
                                                           &found),
                          "the driver's cuTensorMapEncodeTiled");
    if (found != cudaDriverEntryPointSuccess || !f) sweep_variants::check(cudaErrorNotSupported, "cuTensorMapEncodeTiled");
    return reinterpret_cast<EncodeTiled>(f);
  }();
  return encode;
}

// The tensor map of one field: Loader::tile a 3-D box of 32 x rows x 1 over the padded grid; Loader::rows a
// 1-D row of 32 over the whole field.
CUtensorMap tensor_map(const double* field, const SweepFields& f, Loader loader, int rows) {
  CUtensorMap map{};
  const cuuint64_t nk = cuuint64_t(f.nz) + 2, nj = cuuint64_t(f.ny) + 2, ni = cuuint64_t(f.nx) + 2;
  CUresult r;
  if (loader == Loader::tile) {
    const cuuint64_t dims[3] = {nk, nj, ni}, strides[2] = {cuuint64_t(f.sj) * 8, cuuint64_t(f.si) * 8};
    const cuuint32_t box[3] = {kColumnsK, cuuint32_t(rows), 1}, element_strides[3] = {1, 1, 1};
    r = tensor_map_encoder()(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 3, const_cast<double*>(field), dims, strides, box,
                             element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                             CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  } else {
    const cuuint64_t dims[1] = {cuuint64_t(f.si) * ni}, strides[1] = {8};
    const cuuint32_t box[1] = {kColumnsK}, element_strides[1] = {1};
    r = tensor_map_encoder()(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 1, const_cast<double*>(field), dims, strides, box,
                             element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                             CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  }
  if (r != CUDA_SUCCESS) sweep_variants::check(cudaErrorInvalidValue, "cuTensorMapEncodeTiled");
  return map;
}

template <int S, int D, Loader L, Sync Y, Producer P>
Variant variant(const char* name) {
  constexpr int HJ = columns_j(P);
  const dim3 block(kColumnsK, HJ + (P == Producer::warp));
  constexpr std::size_t shared = shared_bytes(S, D, HJ);
  Variant v{name,
            reinterpret_cast<const void*>(bulk_sweep<S, D, L, Y, P, false>),
            reinterpret_cast<const void*>(bulk_sweep<S, D, L, Y, P, true>),
            S,
            kColumnsK,
            HJ,
            block,
            shared,
            [block, shared](const SweepFields& f, dim3 grid, int segment, bool planted) {
              const Maps maps{tensor_map(f.now, f, L, HJ), tensor_map(f.prev, f, L, HJ)};
              (planted ? bulk_sweep<S, D, L, Y, P, true> : bulk_sweep<S, D, L, Y, P, false>)<<<grid, block, shared>>>(
                  f, segment, maps);
            }};
  if (L == Loader::tile) v.runs_on = [](int, int, int nz) { return nz % 2 == 0; };  // rows of 16-B multiples
  // The 1-D map's coordinates are 32-bit: fields of up to 2^31 doubles (1000^3 is 1.006e9).
  if (L == Loader::rows) v.runs_on = [](int nx, int ny, int nz) { return (nx + 2.0) * (ny + 2.0) * (nz + 2.0) < 2e9; };
  return v;
}

// Every variant this program knows: S steps, D stages, the loader, the sync, the producer (top of file).
const std::vector<Variant> kVariants = {
    variant<3, 3, Loader::tile, Sync::bar, Producer::none>("tile-d3"),
    variant<3, 4, Loader::tile, Sync::bar, Producer::none>("tile-d4"),
    variant<3, 5, Loader::tile, Sync::bar, Producer::none>("tile-d5"),
    variant<3, 4, Loader::rows, Sync::bar, Producer::none>("rows-d4"),
    variant<3, 4, Loader::tile, Sync::split, Producer::none>("tile-d4-split"),
    variant<3, 4, Loader::tile, Sync::bar, Producer::warp>("tile-d4-warp"),
    variant<3, 4, Loader::tile, Sync::split, Producer::warp>("tile-d4-split-warp"),
    variant<4, 4, Loader::tile, Sync::bar, Producer::none>("s4-tile-d4"),
    variant<4, 4, Loader::tile, Sync::split, Producer::warp>("s4-tile-d4-split-warp"),
};
const char* kDefaultVariants =
    "tile-d3,tile-d4,tile-d5,rows-d4,tile-d4-split,tile-d4-warp,tile-d4-split-warp,s4-tile-d4,s4-tile-d4-split-warp";

}  // namespace

int main(int argc, char** argv) {
  // Odd grids as the big-tile study's, and with nz even, where the 3-D tensor map can describe the rows.
  return sweep_variants::sweep_variants_main(argc, argv, "awave-cuda-bulkcopy", kVariants, kDefaultVariants,
                                             {{61, 47, 39}, {97, 61, 33}, {61, 47, 40}, {97, 61, 34}});
}
