// The bulk-copy march (issue 79): hand CUDA's three-step sweep (core/sweep_march.hpp) with its planes brought
// into shared memory by Hopper's copy engine. Written once for the study's CUDA kernels (cuda_bulk_copy.cu) and
// for the Kokkos team that calls it as a CUDA island (kokkos_island.cpp); both pass a team's column, its
// shared memory and its barrier, as the product's march takes them.
//
// A team keeps the product's columns (32 x 20, a halo of S), its march (a thread a column marching i, each
// level's last two planes in registers) and its arithmetic (the shared formula: undamped_next where damp is 0,
// next_value elsewhere), so the bits are the product's. What changes is how a plane arrives:
// - Loader: u(t) at plane m (and u(t-1) at plane m - 1 where `kPrevStaged`) are copied by the copy engine
//   (`cp.async.bulk.tensor`) into a ring of D stages in shared memory, completing on the stage's mbarrier
//   (expect-tx of the stage's bytes); no thread issues a load of u(t), computes its address or holds a plane
//   ahead in registers, and level 0 is read from the stage instead of being stored to shared memory.
//   `tile`: one 3-D box (32 x rows x 1) a field a plane, out-of-grid points zero-filled by the engine; the
//   tensor map needs row strides of a multiple of 16 B (nz even). `rows`: a 1-D map over the whole field, one
//   256-B row a copy, any nz (what lies beyond a padded row is read but never used: only in-grid
//   columns compute). Without `kPrevStaged` each thread loads its u(t-1) before the plane's barrier (the
//   stages then fit Kokkos' 48 KB of team scratch).
// - D: stages; the copies run D - 2 planes ahead (D - 1 with a producer warp).
// - Sync: `bar`: one barrier a plane (levels 1..S-1 of the previous plane handed through shared memory in two
//   buffers); `split`: an mbarrier a buffer instead, arrived once a warp after its stores and waited only
//   before level 2, so level 1 (which reads the stages alone) overlaps the other warps' arrival.
// - Producer: `none`: a lane of warp 0 issues the copies once a stage is free (after the plane's
//   barrier); `warp`: a 20th warp does nothing else, refilling a stage as soon as the 19 computing warps
//   (32 x 19 columns) have released it (an `empty` mbarrier a stage); they meet at a named barrier.
// The tensor maps live in global memory (TensorMaps), where a Kokkos functor can point to them.
#pragma once

#include "core/sponge.hpp"
#include "core/sweep_march.hpp"
#include "core/wave_update.hpp"

#include <cuda.h>  // CUtensorMap and its enums; the encoder comes from the driver at run time (no -lcuda)
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

namespace bulk_copy {

using awave::SweepFields;

enum class Loader { tile, rows };
enum class Sync { bar, split };
enum class Producer { none, warp };

// The product's team is 32 x 20 columns, a warp a row. With a producer warp the computing warps keep 19 rows,
// so the block stays at 640 threads: at 672 ptxas capped a thread at 40 registers for two blocks an SM and
// spilled 40-52 B (an SM's four register files each hold whole warps).
constexpr int kColumnsK = 32;
__host__ __device__ constexpr int columns_j(Producer p) {
  return p == Producer::warp ? 19 : 20;
}
// Shared memory a team needs: the ring, the level buffers, the mbarriers (the caller aligns it to 128 B).
__host__ __device__ constexpr std::size_t shared_bytes(int S, int D, Producer p, bool prev_staged) {
  const std::size_t plane = std::size_t(kColumnsK) * columns_j(p);
  return (std::size_t(D) * (prev_staged ? 2 : 1) * plane + std::size_t(2) * (S - 1) * plane) * sizeof(double) +
         (2 * std::size_t(D) + 2) * sizeof(std::uint64_t);
}

__device__ inline unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
// One lane of the (converged) warp, as CUTLASS elects the thread that issues its copies.
__device__ inline bool elect_one() {
  unsigned elected = 0;
  asm volatile("{ .reg .pred p; elect.sync _|p, 0xffffffff; selp.u32 %0, 1, 0, p; }" : "=r"(elected));
  return elected != 0;
}
// The mbarrier and copy instructions on 32-bit shared-memory addresses, computed once a team (converting a
// generic pointer a plane read the CTA's window again each time: S2R and vector arithmetic in the march).
__device__ inline void mbarrier_init(unsigned bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ inline void mbarrier_arrive(unsigned bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
__device__ inline void mbarrier_arrive_expect_tx(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ inline void mbarrier_wait(unsigned bar, unsigned parity) {
  unsigned done = 0;
  do {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(bar), "r"(parity)
                 : "memory");
  } while (!done);
}
__device__ inline void bulk_copy_3d(unsigned to, const CUtensorMap* map, unsigned bar, int c0, int c1, int c2) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], "
      "[%5];" ::"r"(to),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(c0), "r"(c1), "r"(c2), "r"(bar)
      : "memory");
}
__device__ inline void bulk_copy_1d(unsigned to, const CUtensorMap* map, unsigned bar, int c0) {
  asm volatile(
      "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];" ::"r"(
          to),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(c0), "r"(bar)
      : "memory");
}

// One thread's part of a team's bulk-copy sweep of S steps: the team's tile (tile_k, tile_j) and segment (its
// index, of `planes` planes), the thread's column (kk, jj): kk its lane, jj its warp; `shared` 128-B aligned,
// shared_bytes of it; `barrier` the team's (every thread of it). kPlant: the point (nx/2, ny/2, nz/2) of level S
// one ulp up (the check's planted twin). The fields by value, as the product's march takes them.
template <int S, int D, Loader L, Sync Y, Producer P, bool kPrevStaged, bool kPlant, class Barrier>
__device__ inline void bulk_march(SweepFields a, const CUtensorMap* now_map, const CUtensorMap* prev_map, int tile_k,
                                  int tile_j, int segment, int planes, int kk, int jj, unsigned char* shared,
                                  const Barrier& barrier) {
  static_assert(D >= 3 && S >= 2, "a stage for the plane in use, the one before, and one in flight");
  static_assert(P == Producer::none || kPrevStaged, "the producer warp copies both fields");
  constexpr int HK = kColumnsK, HJ = columns_j(P), TK = HK - 2 * S, TJ = HJ - 2 * S, kPlane = HK * HJ;
  constexpr int kComputingWarps = HJ, kFields = kPrevStaged ? 2 : 1;
  constexpr unsigned kStageBytes = kFields * kPlane * sizeof(double);
  double* const ring = reinterpret_cast<double*>(shared);  // [D][u(t), u(t-1) if staged][HJ][HK]
  double* const levels = ring + D * kFields * kPlane;      // [2][S - 1][HJ][HK]: levels 1..S-1
  // then the mbarriers: full[D] (a stage's copies landed), empty[D] (the producer warp's: a stage released by
  // every computing warp), handed[2] (Sync::split: a level buffer's stores arrived)
  // A stage's fields (stage in [0, D)); its mbarriers' and its planes' shared addresses.
  auto stage_now = [&](unsigned stage) { return ring + stage * kFields * kPlane; };
  auto stage_prev = [&](unsigned stage) { return ring + stage * kFields * kPlane + kPlane; };
  // (one base address held; the rest are constant offsets from it)
  constexpr unsigned kFull = (D * kFields + 2 * (S - 1)) * kPlane * sizeof(double), kEmpty = kFull + 8 * D;
  constexpr unsigned kHanded = kEmpty + 8 * D;
  const unsigned ring0 = shared_address(shared), full0 = ring0 + kFull, empty0 = ring0 + kEmpty;
  const unsigned handed0 = ring0 + kHanded;
  auto level_plane = [&](int buffer, int s) { return levels + (buffer * (S - 1) + s - 1) * kPlane; };

  const int i0 = segment * planes, i1 = min(i0 + planes, a.nx);
  const int m_begin = i0 - S, steps = i1 + S - m_begin;  // step n marches plane m = m_begin + n
  const int k_first = tile_k * TK - S, j_first = tile_j * TJ - S;
  const int lane = kk;
  if (kk == 0 && jj == 0) {
    for (int d = 0; d < D; ++d) {
      mbarrier_init(full0 + 8 * d, 1);
      mbarrier_init(empty0 + 8 * d, kComputingWarps);
    }
    mbarrier_init(handed0, kComputingWarps);
    mbarrier_init(handed0 + 8, kComputingWarps);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  barrier();

  // Step n's inputs (u(t) at plane m; u(t-1) at m - 1 where staged) into its stage: called by a whole warp,
  // converged; one lane elected by `elect.sync` issues every copy (a copy issued under `lane == 0`, or by
  // 20 lanes a row each, raised "illegal instruction" in the kernels with a stack frame:
  // bench/results/h200-2026-12-01/bulk-copy-e46f671).
  auto issue = [&](int n, unsigned stage) {  // (stage: n % D)
    if (!elect_one()) return;
    const int m = m_begin + n;
    const unsigned bar = full0 + 8 * stage, now_to = ring0 + stage * kStageBytes;
    const unsigned prev_to = now_to + kPlane * sizeof(double);
    mbarrier_arrive_expect_tx(bar, kStageBytes);
    if constexpr (L == Loader::rows) {
      const long row0 = long(j_first + 1) * a.sj + (k_first + 1);
#pragma unroll 1
      for (int r = 0; r < HJ; ++r) {
        bulk_copy_1d(now_to + r * HK * 8, now_map, bar, int((m + 1) * a.si + row0 + r * a.sj));
        if constexpr (kPrevStaged) bulk_copy_1d(prev_to + r * HK * 8, prev_map, bar, int(m * a.si + row0 + r * a.sj));
      }
    } else {
      bulk_copy_3d(now_to, now_map, bar, k_first + 1, j_first + 1, m + 1);
      if constexpr (kPrevStaged) bulk_copy_3d(prev_to, prev_map, bar, k_first + 1, j_first + 1, m);
    }
  };

  if constexpr (P == Producer::warp) {
    if (jj == HJ) {
      for (int n = 0; n < steps; ++n) {
        if (n >= D) mbarrier_wait(empty0 + 8 * (unsigned(n) % D), (unsigned(n) / D - 1) & 1);
        issue(n, unsigned(n) % D);
      }
      return;
    }
  } else if (jj == 0) {
    for (int n = 0; n < D - 2 && n < steps; ++n) issue(n, n);
  }
  // The copies D - 2 planes ahead, into the stage step n - 2 used: free once every warp is past step n - 1.
  auto refill = [&](int n, unsigned stage) {
    if constexpr (P == Producer::none)
      if (jj == 0 && n + D - 2 < steps) issue(n + D - 2, stage >= 2 ? stage - 2 : stage + D - 2);
  };

  const int me = jj * HK + kk, k = k_first + kk, j = j_first + jj;
  const bool interior = k >= 0 && k < a.nz && j >= 0 && j < a.ny;
  const int out_k = max(S - kk, kk - (HK - 1 - S)), out_j = max(S - jj, jj - (HJ - 1 - S));
  const int ring_out = interior ? max(out_k, out_j) : S + 1;  // level s is computed at ring_out <= S - s
  const long c0 = a.si + (j + 1) * a.sj + (k + 1);
  const double cs2 = interior ? a.cs2_k[k] : 0.0;
  const long planted = (a.nx / 2 + 1) * a.si + (a.ny / 2 + 1) * a.sj + (a.nz / 2 + 1);
  auto live = [&](int s, int p) { return p >= i0 - (S - s) && p < i1 + (S - s) && p >= 0 && p < a.nx; };
  // Bulk planes, as the product's: the block clear of the y layers, every level live and written by
  // this segment, no level's plane in an x layer.
  const bool clear_of_y_layers = j_first >= awave::sponge::kLayers && j_first + HJ <= a.ny - awave::sponge::kLayers;
  const int bulk_begin = max(i0 + S, awave::sponge::kLayers + S);
  const int bulk_end = min(i1 + S - 1, a.nx - awave::sponge::kLayers + 1);

  double w[S][2];  // level s at planes m - 1 - s and m - 2 - s
#pragma unroll
  for (int s = 0; s < S; ++s) w[s][0] = w[s][1] = 0.0;
  auto plane = [&](int n, auto bulk) {
    constexpr bool kBulk = decltype(bulk)::value;
    const int m = m_begin + n, buffer = n & 1;
    const unsigned stage = unsigned(n) % D, phase = (unsigned(n) / D) & 1;  // (n >= 0: unsigned is cheaper)
    const unsigned previous = unsigned(n + D - 1) % D;                      // step n - 1's
    double prev_p = 0.0;  // u(t-1) at plane m - 1, where level 1 is computed
    if constexpr (!kPrevStaged)
      if (ring_out <= S - 1 && (kBulk || live(1, m - 1))) prev_p = a.prev[c0 + (m - 1) * a.si];
#pragma unroll
    for (int s = 1; s < S; ++s) level_plane(buffer, s)[me] = w[s][0];
    if constexpr (Y == Sync::bar) {
      if constexpr (P == Producer::warp)
        asm volatile("bar.sync 1, %0;" ::"n"(32 * kComputingWarps) : "memory");
      else
        barrier();  // (two buffers: the next plane's stores cannot meet this plane's reads)
      refill(n, stage);
    } else {
      __syncwarp();
      if (lane == 0) mbarrier_arrive(handed0 + 8 * buffer);
    }
    mbarrier_wait(full0 + 8 * stage, phase);
    double level[S + 1];
    level[0] = stage_now(stage)[me];
    if constexpr (kPrevStaged) prev_p = stage_prev(stage)[me];
#pragma unroll
    for (int s = 1; s <= S; ++s) {
      if (Y == Sync::split && s == 2) {
        mbarrier_wait(handed0 + 8 * buffer, (n >> 1) & 1);
        refill(n, stage);
      }
      const int p = m - s;  // level s at plane p, from level s - 1
      level[s] = 0.0;
      if (ring_out <= S - s && (kBulk || live(s, p))) {
        const double* Lp = s == 1 ? stage_now(previous) : level_plane(buffer, s - 1);
        const awave::Stencil7 st{
            w[s - 1][0],          w[s - 1][1],         level[s - 1], Lp[(jj - 1) * HK + kk], Lp[(jj + 1) * HK + kk],
            Lp[jj * HK + kk - 1], Lp[jj * HK + kk + 1]};
        const double prev = s == 1 ? prev_p : w[s < 2 ? 0 : s - 2][1];
        double value;
        if (kBulk) {
          value = awave::undamped_next(st, prev, cs2, a.f);
        } else {
          namespace sponge = awave::sponge;
          const double d = sponge::damp_at(a.damp_ij, a.ny, sponge::in_layer(p, a.nx) ? p : sponge::kLayers, j);
          value = d == 0.0 ? awave::undamped_next(st, prev, cs2, a.f) : awave::next_value(st, prev, cs2, d, a.f, a.dt);
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
        if (lane == 0) mbarrier_arrive(empty0 + 8 * previous);
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
    if (clear_of_y_layers && m >= bulk_begin && m < bulk_end)  // (team-uniform)
      plane(n, std::true_type{});
    else
      plane(n, std::false_type{});
  }
}

// The tensor maps the copies read, in global memory: one a field a shape and loader, encoded on the host the
// first time a field is swept and kept (the sweeps rotate four fields).
class TensorMaps {
 public:
  TensorMaps() = default;
  ~TensorMaps() { cudaFree(device_); }
  TensorMaps(const TensorMaps&) = delete;
  TensorMaps& operator=(const TensorMaps&) = delete;
  // The device copy of `field`'s map: Loader::tile a 3-D box of 32 x rows x 1 over the padded grid of f;
  // Loader::rows a 1-D row of 32 over the whole field.
  const CUtensorMap* map(const double* field, const SweepFields& f, Loader loader, int rows) {
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      const Key& k = keys_[i];
      if (k.field == field && k.nx == f.nx && k.ny == f.ny && k.nz == f.nz && k.loader == int(loader) && k.rows == rows)
        return device_ + i;
    }
    if (!device_ && cudaMalloc(&device_, kSlots * sizeof(CUtensorMap)) != cudaSuccess) fail("cudaMalloc");
    if (keys_.size() == kSlots) keys_.clear();  // (the copy below waits for the sweeps that read the old ones)
    const CUtensorMap host = encode(field, f, loader, rows);
    if (cudaMemcpy(device_ + keys_.size(), &host, sizeof host, cudaMemcpyHostToDevice) != cudaSuccess)
      fail("copying a tensor map");
    keys_.push_back({field, f.nx, f.ny, f.nz, int(loader), rows});
    return device_ + keys_.size() - 1;
  }

 private:
  [[noreturn]] static void fail(const char* what) {
    std::fprintf(stderr, "bulk-copy: %s failed\n", what);
    std::exit(3);
  }
  using EncodeTiled = decltype(&cuTensorMapEncodeTiled);
  static EncodeTiled encoder() {
    static const EncodeTiled encode = [] {
      void* f = nullptr;
      cudaDriverEntryPointQueryResult found{};
      if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &found) !=
              cudaSuccess ||
          found != cudaDriverEntryPointSuccess || !f)
        fail("finding the driver's cuTensorMapEncodeTiled");
      return reinterpret_cast<EncodeTiled>(f);
    }();
    return encode;
  }
  static CUtensorMap encode(const double* field, const SweepFields& f, Loader loader, int rows) {
    CUtensorMap map{};
    const cuuint64_t nk = cuuint64_t(f.nz) + 2, nj = cuuint64_t(f.ny) + 2, ni = cuuint64_t(f.nx) + 2;
    CUresult r;
    if (loader == Loader::tile) {
      const cuuint64_t dims[3] = {nk, nj, ni}, strides[2] = {cuuint64_t(f.sj) * 8, cuuint64_t(f.si) * 8};
      const cuuint32_t box[3] = {kColumnsK, cuuint32_t(rows), 1}, element_strides[3] = {1, 1, 1};
      r = encoder()(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 3, const_cast<double*>(field), dims, strides, box,
                    element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                    CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    } else {
      const cuuint64_t dims[1] = {cuuint64_t(f.si) * ni}, strides[1] = {8};
      const cuuint32_t box[1] = {kColumnsK}, element_strides[1] = {1};
      r = encoder()(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 1, const_cast<double*>(field), dims, strides, box,
                    element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                    CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    }
    if (r != CUDA_SUCCESS) fail("cuTensorMapEncodeTiled");
    return map;
  }

  struct Key {
    const double* field;
    int nx, ny, nz, loader, rows;
  };
  static constexpr int kSlots = 16;
  CUtensorMap* device_ = nullptr;
  std::vector<Key> keys_;
};

}  // namespace bulk_copy
