// awave-cuda-bigtiles (cuda build): big-tile sweeps at low occupancy (issue 73, item 1), in the
// EBISU / PERKS style, against the product's three-step sweep (core/sweep_march.hpp, launched as
// src/cuda/wave_cuda.cu launches it) in the same process.
//
// A variant big<S, AK, CJ, R, P> is one thread block an SM (launch bounds 1) holding its planes
// in the opt-in shared memory beyond 48 KB: the block's columns are a tile of CK = 32 * AK by CJ
// points (halo of S included); its 32 x CJ / R threads own AK * R columns each (k: x + 32 a,
// j: y * R + r, so a warp stays one contiguous k row and the j neighbours of a thread's inner rows
// are its own registers). It marches i in batches of P planes: at batch m level 0 (u(t)) is loaded
// at planes m..m+P-1 and level s = 1..S computed at planes m - sP .. m - sP + P - 1 (each level lags
// the one below by P planes, so the batch's (j, k) neighbours are all the previous batch's, in
// shared memory, and one barrier a batch suffices: the product's march is P = 1). The arithmetic
// is the shared formula (core/wave_update.hpp) as the product's march applies it (undamped_next
// where damp is 0, next_value elsewhere), so the bits are the product's. Batches of a block clear
// of the y layers, away from the x layers and inside the segment take a shorter path (no live
// tests, no damping), as the product's bulk planes.
//
//   awave-cuda-bigtiles check [VARIANT,...]
//       every variant bitwise against the product's sweep on odd grids with their sponge layers
//       (61x47x39 and 97x61x33, segments of 64 and 13 planes, 12 steps), and each variant's planted
//       twin (one point of its last level one ulp up) seen to differ. Exit 0: all held; 2: a check
//       failed; 77: no GPU (named on stderr: ctest's skip).
//   awave-cuda-bigtiles N ROUNDS [VARIANT,...] [STEPS] [SEGMENT]
//       an N^3 grid: the product's sweep and the variants, ROUNDS rounds interleaved (product,
//       variants, product, ...), STEPS steps a run (a multiple of 12: three- and four-step sweeps
//       alike). One JSON line a variant and round: SU/s of the best 12-step chunk and of the run,
//       bitwise (the run's u(t) and u(t-1) against the product's first run, every padded point)
//       and the points differing, ptxas' registers and spills, shared memory, blocks an SM.
// Bad input: exit 1 with one line; no GPU or a CUDA failure: exit 3 (timing) or 77 (check).
#include "../../cuda_bench.hpp"
#include "core/step_plan.hpp"
#include "core/sweep_march.hpp"
#include "core/wave_params.hpp"
#include "core/wave_problem.hpp"
#include "core/wave_update.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

using namespace awave;

namespace {

void check(cudaError_t e, const char* what) {
  cuda_check(e, "awave-cuda-bigtiles", what, 3);
}

// The product's sweep kernel, as src/cuda/wave_cuda.cu declares it (fields by value, two teams an SM).
template <bool BulkPlanes>
__global__ void __launch_bounds__(SweepTile::kThreads, SweepTile::kTeamsAnSm) product_sweep(SweepFields a) {
  extern __shared__ double scratch[];
  sweep_march<SweepFields, BulkPlanes>(a, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, scratch,
                                       [] { __syncthreads(); });
}

// A big-tile sweep of S steps (see the top). kPlant: the point (nx/2, ny/2, nz/2) of level S one ulp up.
template <int S, int AK, int CJ, int R, int P, bool kPlant>
__global__ void __launch_bounds__(32 * (CJ / R), 1) big_sweep(SweepFields a, int segment) {
  constexpr int CK = 32 * AK, C = AK * R, kPlane = CJ * CK;
  static_assert(CJ % R == 0 && P >= 1 && P <= 2, "rows split evenly; the bulk batches' loads assume P <= 2");
  extern __shared__ double shared[];  // [2][S][P][CJ][CK]
  auto slot = [&](int buffer, int s, int e) { return shared + ((buffer * S + s) * P + e) * kPlane; };
  const int i0 = blockIdx.z * segment, i1 = min(i0 + segment, a.nx);
  const int k_first = blockIdx.x * (CK - 2 * S) - S, j_first = blockIdx.y * (CJ - 2 * S) - S;
  int ring[C];  // how far the column is outside the tile (<= 0 inside); S + 1 off the grid
  bool in_padded[C];
  double cs2[AK];  // (cs2 depends on k alone; 0 off the grid, where no level is computed)
  // Padded index of the thread's first column at plane 0; column c is `offset(c)` further (one base
  // held, not one a column: the registers go to the march). threadIdx is unsigned: uncast, a first
  // row or column below -1 wrapped past 2^32 and its threads read 2^32 sj (or 2^32) values off.
  const long base = a.si + (j_first + int(threadIdx.y) * R + 1) * a.sj + (k_first + int(threadIdx.x) + 1);
  auto offset = [&](int c) { return (c % R) * a.sj + 32 * (c / R); };
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const int kk = threadIdx.x + 32 * (c / R), jj = threadIdx.y * R + c % R, k = k_first + kk, j = j_first + jj;
    const bool interior = k >= 0 && k < a.nz && j >= 0 && j < a.ny;
    in_padded[c] = k >= -1 && k <= a.nz && j >= -1 && j <= a.ny;
    const int out_k = max(S - kk, kk - (CK - 1 - S)), out_j = max(S - jj, jj - (CJ - 1 - S));
    ring[c] = interior ? max(out_k, out_j) : S + 1;
    if (c % R == 0) cs2[c / R] = k >= 0 && k < a.nz ? a.cs2_k[k] : 0.0;
  }
  const long planted = (a.nx / 2 + 1) * a.si + (a.ny / 2 + 1) * a.sj + (a.nz / 2 + 1);
  auto live = [&](int s, int p) { return p >= i0 - (S - s) && p < i1 + (S - s) && p >= 0 && p < a.nx; };
  // A[s], B[s]: level s at the previous batch's planes and the one before (the march's registers).
  double A[S][C][P], B[S][C][P];
#pragma unroll
  for (int s = 0; s < S; ++s)
#pragma unroll
    for (int c = 0; c < C; ++c)
#pragma unroll
      for (int e = 0; e < P; ++e) A[s][c][e] = B[s][c][e] = 0.0;
  // The next batch's loads, issued before this batch's barrier: u(t) at m + e, u(t-1) at m - P + e.
  double now_next[C][P], prev_next[C][P];
  auto load = [&](int m, auto bulk) {
#pragma unroll
    for (int c = 0; c < C; ++c)
#pragma unroll
      for (int e = 0; e < P; ++e) {
        const int q = m + e, pm = m - P + e;
        if (decltype(bulk)::value) {  // (planes inside the grid and live: P <= 2 <= the layers' 4)
          now_next[c][e] = in_padded[c] ? a.now[base + offset(c) + q * a.si] : 0.0;
          prev_next[c][e] = ring[c] <= S - 1 ? a.prev[base + offset(c) + pm * a.si] : 0.0;
        } else {
          now_next[c][e] = in_padded[c] && q >= -1 && q <= a.nx ? a.now[base + offset(c) + q * a.si] : 0.0;
          prev_next[c][e] = ring[c] <= S - 1 && live(1, pm) ? a.prev[base + offset(c) + pm * a.si] : 0.0;
        }
      }
  };
  const int m_begin = i0 - S;
  auto last_batch = [&](int m) { return m + P - S * P > i1 - 1; };
  load(m_begin, std::false_type{});
  auto batch = [&](int m, int buffer, auto bulk) {
    constexpr bool kBulk = decltype(bulk)::value;
    double cur[S + 1][C][P], prev_p[C][P];
#pragma unroll
    for (int c = 0; c < C; ++c) {
      const int kk = threadIdx.x + 32 * (c / R), jj = threadIdx.y * R + c % R;
#pragma unroll
      for (int e = 0; e < P; ++e) {
        cur[0][c][e] = now_next[c][e];
        prev_p[c][e] = prev_next[c][e];
#pragma unroll
        for (int s = 0; s < S; ++s) slot(buffer, s, e)[jj * CK + kk] = A[s][c][e];
      }
    }
    if (!last_batch(m)) load(m + P, bulk);
    __syncthreads();  // (two buffers: the next batch's stores cannot meet this batch's reads)
#pragma unroll
    for (int s = 1; s <= S; ++s)
#pragma unroll
      for (int c = 0; c < C; ++c) {
        const int kk = threadIdx.x + 32 * (c / R), r = c % R, jj = threadIdx.y * R + r;
#pragma unroll
        for (int e = 0; e < P; ++e) {
          const int p = m - s * P + e;  // level s at plane p, from level s - 1
          double value = 0.0;
          if (ring[c] <= S - s && (kBulk || live(s, p))) {
            const double* L = slot(buffer, s - 1, e);
            const double xm = e > 0 ? A[s - 1][c][e - 1] : B[s - 1][c][P - 1];
            const double xp = e < P - 1 ? A[s - 1][c][e + 1] : cur[s - 1][c][0];
            const double ym = r > 0 ? A[s - 1][c - 1][e] : L[(jj - 1) * CK + kk];
            const double yp = r < R - 1 ? A[s - 1][c + 1][e] : L[(jj + 1) * CK + kk];
            const Stencil7 st{A[s - 1][c][e], xm, xp, ym, yp, L[jj * CK + kk - 1], L[jj * CK + kk + 1]};
            const double prev = s == 1 ? prev_p[c][e] : B[s < 2 ? 0 : s - 2][c][e];
            if (kBulk) {
              value = undamped_next(st, prev, cs2[c / R], a.f);
            } else {
              const int j = j_first + jj;
              const double d = sponge::damp_at(a.damp_ij, a.ny, sponge::in_layer(p, a.nx) ? p : sponge::kLayers, j);
              value =
                  d == 0.0 ? undamped_next(st, prev, cs2[c / R], a.f) : next_value(st, prev, cs2[c / R], d, a.f, a.dt);
            }
            const long at = base + offset(c) + p * a.si;
            if (kPlant && s == S && at == planted) value = nextafter(value, 1e300);
            if (s >= S - 1 && ring[c] <= 0 && (kBulk || (p >= i0 && p < i1))) (s == S ? a.u3 : a.u2)[at] = value;
          }
          cur[s][c][e] = value;
        }
      }
#pragma unroll
    for (int s = 0; s < S; ++s)
#pragma unroll
      for (int c = 0; c < C; ++c)
#pragma unroll
        for (int e = 0; e < P; ++e) {
          B[s][c][e] = A[s][c][e];
          A[s][c][e] = cur[s][c][e];
        }
  };
  // Bulk batches: the block clear of the y layers, every level's planes [m - SP, m - 1] live, written
  // by this segment and outside the x layers (block-uniform).
  const bool clear_of_y_layers = j_first >= sponge::kLayers && j_first + CJ <= a.ny - sponge::kLayers;
  const int lowest = max(i0, sponge::kLayers), highest = min(i1, a.nx - sponge::kLayers);
  int buffer = 0;
  for (int m = m_begin;; m += P, buffer ^= 1) {
    if (clear_of_y_layers && m - S * P >= lowest && m - 1 < highest)
      batch(m, buffer, std::true_type{});
    else
      batch(m, buffer, std::false_type{});
    if (last_batch(m)) break;
  }
}

using Kernel = void (*)(SweepFields, int);

struct Variant {
  std::string name;
  Kernel kernel, planted;
  int steps;   // a sweep
  int ck, cj;  // the block's columns (halo included)
  dim3 block;
  std::size_t shared_bytes;
};

template <int S, int AK, int CJ, int R, int P>
Variant variant(const char* name) {
  return {name,
          big_sweep<S, AK, CJ, R, P, false>,
          big_sweep<S, AK, CJ, R, P, true>,
          S,
          32 * AK,
          CJ,
          dim3(32, CJ / R),
          std::size_t(2) * S * P * CJ * 32 * AK * sizeof(double)};
}

// Every variant this program knows (name: steps, columns k x j, rows a thread, planes a batch; AK > 1
// gives a thread AK columns along k as well). Their ptxas numbers: this folder's README.
const std::vector<Variant> kVariants = {
    variant<3, 1, 64, 2, 1>("b3-k32j64-r2"),    variant<3, 1, 64, 4, 1>("b3-k32j64-r4"),
    variant<3, 2, 32, 2, 1>("b3-k64j32-a2r2"),  variant<3, 1, 60, 3, 1>("b3-k32j60-r3"),
    variant<3, 1, 32, 1, 2>("b3-k32j32-r1-p2"), variant<3, 1, 32, 2, 2>("b3-k32j32-r2-p2"),
    variant<3, 2, 32, 4, 1>("b3-k64j32-a2r4"),  variant<4, 1, 48, 2, 1>("b4-k32j48-r2"),
    variant<4, 1, 32, 2, 1>("b4-k32j32-r2"),    variant<4, 2, 32, 2, 1>("b4-k64j32-a2r2"),
    variant<4, 1, 64, 4, 1>("b4-k32j64-r4"),
};
// The timed default: the variants ptxas gives no spill (CUDA 13, sm_90; README).
const char* kDefaultVariants = "b3-k32j64-r4,b3-k64j32-a2r2,b3-k32j32-r2-p2,b3-k64j32-a2r4,b4-k32j32-r2";

const Variant* find_variant(const std::string& name) {
  for (const Variant& v : kVariants)
    if (v.name == name) return &v;
  return nullptr;
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> v;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    if (end > start) v.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return v;
}

double* device_copy(const std::vector<double>& h) {
  double* d = nullptr;
  check(cudaMalloc(&d, h.size() * sizeof(double)), "cudaMalloc");
  check(cudaMemcpy(d, h.data(), h.size() * sizeof(double), cudaMemcpyHostToDevice), "copy in");
  return d;
}

// One grid on the device: four fields (the sweep's), the reference's end state, the coefficients,
// and the start state as the non-zero points of the model's (a memset and a scatter a run).
class Bench {
 public:
  Bench(int nx, int ny, int nz, int segment) : segment_(segment) {
    WaveParams p;
    p.shape = {nx, ny, nz};
    problem_ = std::make_unique<WaveProblem>(p);
    const PaddedGeometry g = problem_->geometry();
    n_ = g.size();
    std::vector<double> now(n_), prev(n_);
    problem_->fill_start_state(now.data(), prev.data());
    for (std::size_t i = 0; i < n_; ++i) {
      if (now[i] != 0.0) start_now_.emplace_back(i, now[i]);
      if (prev[i] != 0.0) start_prev_.emplace_back(i, prev[i]);
    }
    cs2_ = device_copy(problem_->cs2_k());
    damp_ = device_copy(problem_->damp_ij());
    for (double*& f : fields_) check(cudaMalloc(&f, n_ * sizeof(double)), "cudaMalloc");
    for (double*& f : reference_) check(cudaMalloc(&f, n_ * sizeof(double)), "cudaMalloc");
    check(cudaMalloc(&count_, sizeof *count_), "cudaMalloc");
    check(cudaEventCreate(&start_), "event");
  }
  ~Bench() {
    for (double* f : fields_) cudaFree(f);
    for (double* f : reference_) cudaFree(f);
    for (cudaEvent_t e : chunk_ends_) cudaEventDestroy(e);
    cudaFree(cs2_);
    cudaFree(damp_);
    cudaFree(count_);
    cudaEventDestroy(start_);
  }
  double points() const { return double(problem_->params().interior_points()); }

  struct Timing {
    double run_s = 0, best_chunk_s = 1e30;  // best 12-step chunk
  };

  // `steps` steps from the start state in sweeps of `per_sweep` steps (launch(fields) queues one);
  // returns its timing, the end state in end_.
  template <class Launch>
  Timing run(int steps, int per_sweep, Launch launch) {
    for (int l = 0; l < 4; ++l) {
      check(cudaMemset(fields_[l], 0, n_ * sizeof(double)), "reset");
      for (const auto& [index, value] : l == 0 ? start_prev_ : start_now_)
        check(cudaMemcpy(fields_[l] + index, &value, sizeof value, cudaMemcpyHostToDevice), "reset");
    }
    const int chunks = steps / 12;
    while (int(chunk_ends_.size()) < chunks) {
      cudaEvent_t e;
      check(cudaEventCreate(&e), "event");
      chunk_ends_.push_back(e);
    }
    double *prev = fields_[0], *now = fields_[1], *u2 = fields_[2], *u3 = fields_[3];
    check(cudaEventRecord(start_), "event");
    for (int chunk = 0; chunk < chunks; ++chunk) {
      for (int t = 0; t < 12; t += per_sweep) {
        launch(sweep_fields(*problem_, u2, u3, now, prev, cs2_, damp_, long(problem_->geometry().stride_i()),
                            long(problem_->geometry().stride_j())));
        std::swap(prev, u2);  // u(t+S-1), u(t+S) are the next sweep's u(t-1), u(t)
        std::swap(now, u3);
      }
      check(cudaEventRecord(chunk_ends_[chunk]), "event");
    }
    check(cudaEventSynchronize(chunk_ends_[chunks - 1]), "sweeps");
    check(cudaGetLastError(), "launch");
    Timing t;
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start_, chunk_ends_[chunks - 1]), "event time");
    t.run_s = ms / 1e3;
    for (int chunk = 0; chunk < chunks; ++chunk) {
      check(cudaEventElapsedTime(&ms, chunk ? chunk_ends_[chunk - 1] : start_, chunk_ends_[chunk]), "event time");
      t.best_chunk_s = std::min(t.best_chunk_s, ms / 1e3);
    }
    end_ = {now, prev};
    return t;
  }

  // The product's sweep (its plan's bulk planes on this GPU), as wave_cuda.cu launches it.
  Timing run_product(int steps, bool bulk_planes) {
    const PaddedGeometry g = problem_->geometry();
    using T = SweepTile;
    const dim3 grid(T::teams_k(g.nz), T::teams_j(g.ny), T::teams_i(g.nx)), block(T::kColumnsK, T::kColumnsJ);
    return run(steps, T::kSteps, [&](const SweepFields& f) {
      if (bulk_planes)
        product_sweep<true><<<grid, block, T::kScratchBytes>>>(f);
      else
        product_sweep<false><<<grid, block, T::kScratchBytes>>>(f);
    });
  }

  Timing run_variant(int steps, const Variant& v, bool planted) {
    const PaddedGeometry g = problem_->geometry();
    const int tile_k = v.ck - 2 * v.steps, tile_j = v.cj - 2 * v.steps;
    const dim3 grid((g.nz + tile_k - 1) / tile_k, (g.ny + tile_j - 1) / tile_j, (g.nx + segment_ - 1) / segment_);
    const Kernel kernel = planted ? v.planted : v.kernel;
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(v.shared_bytes)),
          "opt-in shared memory");
    return run(steps, v.steps, [&](const SweepFields& f) { kernel<<<grid, v.block, v.shared_bytes>>>(f, segment_); });
  }

  void keep_as_reference() {
    check(cudaMemcpy(reference_[0], end_.first, n_ * sizeof(double), cudaMemcpyDeviceToDevice), "copy");
    check(cudaMemcpy(reference_[1], end_.second, n_ * sizeof(double), cudaMemcpyDeviceToDevice), "copy");
  }
  // Padded points of the last run's u(t) and u(t-1) whose bits differ from the reference's.
  unsigned long long differing_points() {
    check(cudaMemset(count_, 0, sizeof *count_), "memset");
    count_differences<<<1024, 256>>>(end_.first, reference_[0], n_, count_);
    count_differences<<<1024, 256>>>(end_.second, reference_[1], n_, count_);
    unsigned long long count = 0;
    check(cudaMemcpy(&count, count_, sizeof count, cudaMemcpyDeviceToHost), "compare");
    return count;
  }

 private:
  int segment_;
  std::unique_ptr<WaveProblem> problem_;
  std::size_t n_ = 0;
  std::vector<std::pair<std::size_t, double>> start_now_, start_prev_;
  double *cs2_ = nullptr, *damp_ = nullptr;
  double* fields_[4] = {};
  double* reference_[2] = {};
  std::pair<double*, double*> end_;
  unsigned long long* count_ = nullptr;
  cudaEvent_t start_ = nullptr;
  std::vector<cudaEvent_t> chunk_ends_;
};

std::string gpu_name() {
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "device properties");
  return prop.name;
}

int blocks_an_sm(const Variant& v) {
  int blocks = 0;
  check(cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(v.shared_bytes)),
        "opt-in shared memory");
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, v.kernel, int(v.block.x * v.block.y), v.shared_bytes),
        "occupancy");
  return blocks;
}

// The bitwise check (see the top): every variant and its planted twin on the odd grids.
int run_check(const std::vector<const Variant*>& variants) {
  const bool bulk = sweep_bulk_planes(gpu_name());
  bool ok = true;
  const int grids[][3] = {{61, 47, 39}, {97, 61, 33}};
  for (const auto& shape : grids)
    for (const int segment : {64, 13}) {
      Bench bench(shape[0], shape[1], shape[2], segment);
      bench.run_product(12, bulk);
      bench.keep_as_reference();
      for (const Variant* v : variants)
        for (const bool planted : {false, true}) {
          bench.run_variant(12, *v, planted);
          const unsigned long long differing = bench.differing_points();
          const bool right = planted ? differing > 0 : differing == 0;
          std::printf(
              "{\"check\": \"%dx%dx%d\", \"segment\": %d, \"variant\": \"%s%s\", \"bitwise\": %s, "
              "\"differing_points\": %llu, \"as_expected\": %s}\n",
              shape[0], shape[1], shape[2], segment, planted ? "planted-" : "", v->name.c_str(),
              differing == 0 ? "true" : "false", differing, right ? "true" : "false");
          ok &= right;
        }
    }
  std::fflush(stdout);
  if (!ok)
    std::fprintf(
        stderr,
        "awave-cuda-bigtiles: FAIL: a variant differs from the product's sweep, or a planted ulp was not seen\n");
  return ok ? 0 : 2;
}

int run_timing(int n, int rounds, const std::vector<const Variant*>& variants, int steps, int segment) {
  const std::string gpu = gpu_name();
  const bool bulk = sweep_bulk_planes(gpu);
  Bench bench(n, n, n, segment);
  const double points = bench.points();
  bool ok = true;
  for (int round = 0; round < rounds; ++round) {
    const Bench::Timing product = bench.run_product(steps, bulk);
    if (round == 0) bench.keep_as_reference();
    const unsigned long long product_differing = bench.differing_points();
    std::printf(
        "{\"gpu\": \"%s\", \"n\": %d, \"round\": %d, \"steps\": %d, \"variant\": \"product\", \"bulk_planes\": %s, "
        "\"su_per_s\": %.4e, \"su_per_s_run\": %.4e, \"bitwise\": %s, \"differing_points\": %llu}\n",
        gpu.c_str(), n, round, steps, bulk ? "true" : "false", points * 12 / product.best_chunk_s,
        points * steps / product.run_s, product_differing == 0 ? "true" : "false", product_differing);
    ok &= product_differing == 0;
    for (const Variant* v : variants) {
      const Bench::Timing t = bench.run_variant(steps, *v, false);
      const unsigned long long differing = bench.differing_points();
      cudaFuncAttributes attributes{};
      check(cudaFuncGetAttributes(&attributes, v->kernel), "kernel attributes");
      std::printf(
          "{\"gpu\": \"%s\", \"n\": %d, \"round\": %d, \"steps\": %d, \"variant\": \"%s\", \"segment\": %d, "
          "\"su_per_s\": %.4e, \"su_per_s_run\": %.4e, \"bitwise\": %s, \"differing_points\": %llu, "
          "\"registers\": %d, \"spill_bytes\": %zu, \"shared_bytes\": %zu, \"threads\": %u, "
          "\"blocks_an_sm\": %d, \"steps_per_sweep\": %d}\n",
          gpu.c_str(), n, round, steps, v->name.c_str(), segment, points * 12 / t.best_chunk_s,
          points * steps / t.run_s, differing == 0 ? "true" : "false", differing, attributes.numRegs,
          attributes.localSizeBytes, v->shared_bytes, v->block.x * v->block.y, blocks_an_sm(*v), v->steps);
      std::fflush(stdout);
      ok &= differing == 0;
    }
  }
  if (!ok) std::fprintf(stderr, "awave-cuda-bigtiles: FAIL: a run differs from the product's sweep\n");
  return ok ? 0 : 2;
}

int bad_input(const char* why) {
  std::fprintf(stderr, "awave-cuda-bigtiles: %s\n", why);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const char* usage =
      "usage: awave-cuda-bigtiles check [VARIANT,...] | awave-cuda-bigtiles N ROUNDS [VARIANT,...] [STEPS] [SEGMENT]";
  if (argc < 2) return bad_input(usage);
  const bool checking = std::string(argv[1]) == "check";
  const int list_arg = checking ? 2 : 3;
  std::vector<const Variant*> variants;
  for (const std::string& name : split(argc > list_arg ? argv[list_arg] : kDefaultVariants)) {
    const Variant* v = find_variant(name);
    if (!v) return bad_input(("no variant '" + name + "'").c_str());
    variants.push_back(v);
  }
  if (variants.empty()) return bad_input("no variant named");
  int n = 0, rounds = 0, steps = 60, segment = SweepTile::kSegment;
  if (!checking) {
    if (argc < 3) return bad_input(usage);
    n = std::atoi(argv[1]);
    rounds = std::atoi(argv[2]);
    if (argc > 4) steps = std::atoi(argv[4]);
    if (argc > 5) segment = std::atoi(argv[5]);
    if (n < 2 * kBoundaryLayers || rounds < 1 || steps < 12 || steps % 12 || segment < 1)
      return bad_input("N >= 8, ROUNDS >= 1, STEPS a positive multiple of 12, SEGMENT >= 1");
  }
  int count = 0;
  if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess || count == 0) {
    std::fprintf(stderr, "awave-cuda-bigtiles: no usable CUDA GPU (%s)\n",
                 e != cudaSuccess ? cudaGetErrorString(e) : "none found");
    return checking ? 77 : 3;
  }
  return checking ? run_check(variants) : run_timing(n, rounds, variants, steps, segment);
}
