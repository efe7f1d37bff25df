// What the sweep studies' programs share (awave-cuda-bigtiles, awave-cuda-bulkcopy): a variant of hand CUDA's
// three-step sweep timed and checked against the product's sweep (core/sweep_march.hpp, launched as
// src/cuda/wave_cuda.cu launches it) in the same process. A study supplies its kernels as Variants and calls
// sweep_variants_main; the commands:
//
//   PROGRAM check [VARIANT,...]
//       every variant bitwise against the product's sweep on odd grids with their sponge layers
//       (the study's grids, segments of 64 and 13 planes, 12 steps), and each variant's planted twin
//       (one point of its last level one ulp up) seen to differ. A variant that cannot run a grid (its
//       runs_on) is listed as skipped there. Exit 0: all held; 2: a check failed; 77: no GPU (ctest's skip).
//   PROGRAM N ROUNDS [VARIANT,...] [STEPS] [SEGMENT]
//       an N^3 grid: the product's sweep and the variants, ROUNDS rounds interleaved (product,
//       variants, product, ...), STEPS steps a run (a multiple of 12: three- and four-step sweeps
//       alike). One JSON line a variant and round: SU/s of the best 12-step chunk and of the run,
//       bitwise (the run's u(t) and u(t-1) against the product's first run, every padded point)
//       and the points differing, ptxas' registers and spills, shared memory, blocks an SM.
// Bad input: exit 1 with one line; no GPU or a CUDA failure: exit 3 (timing) or 77 (check).
// around_run (optional): runs the command once the GPU is known to be there (a library's lifetime around it).
#pragma once

#include "core/step_plan.hpp"
#include "core/sweep_march.hpp"
#include "core/wave_params.hpp"
#include "core/wave_problem.hpp"
#include "cuda/cuda_device_traits.hpp"
#include "cuda_bench.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace sweep_variants {

using awave::SweepFields;
using awave::SweepTile;

inline const char* program_name = "sweep-variants";

inline void check(cudaError_t e, const char* what) {
  cuda_check(e, program_name, what, 3);
}

// The product's sweep kernel, as src/cuda/wave_cuda.cu declares it (fields by value, two teams an SM).
template <bool BulkPlanes>
__global__ void __launch_bounds__(SweepTile::kThreads, SweepTile::kTeamsAnSm) product_sweep(SweepFields a) {
  extern __shared__ double scratch[];
  awave::sweep_march<SweepFields, BulkPlanes>(a, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, scratch,
                                              [] { __syncthreads(); });
}

struct Variant {
  std::string name;
  const void* kernel;   // its kernel, for ptxas' numbers and the occupancy (nullptr: a library's launch)
  const void* planted;  // the planted twin's (one point of the last level one ulp up; nullptr: none)
  int steps;            // a sweep
  int ck, cj;           // the block's columns (halo included): the tile kept is (ck - 2 steps) x (cj - 2 steps)
  dim3 block;
  std::size_t shared_bytes;
  // Queues one sweep of f on the default stream over `grid` (tiles x segments of `segment` planes).
  std::function<void(const SweepFields& f, dim3 grid, int segment, bool planted)> launch;
  bool has_planted_twin = true;  // false: a library's own sweep (its bits are the product's gpu tests' to check)
  std::function<bool(int nx, int ny, int nz)> runs_on = {};  // empty: every grid
};

inline std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> v;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    if (end > start) v.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return v;
}

inline double* device_copy(const std::vector<double>& h) {
  double* d = nullptr;
  check(cudaMalloc(&d, h.size() * sizeof(double)), "cudaMalloc");
  check(cudaMemcpy(d, h.data(), h.size() * sizeof(double), cudaMemcpyHostToDevice), "copy in");
  return d;
}

// One grid on the device: four fields (the sweep's), the reference's end state, the coefficients,
// and the start state as the non-zero points of the model's (a memset and a scatter a run).
class Bench {
 public:
  Bench(int nx, int ny, int nz, int segment) : segment_(segment), shape_{nx, ny, nz} {
    awave::WaveParams p;
    p.shape = {nx, ny, nz};
    problem_ = std::make_unique<awave::WaveProblem>(p);
    const awave::PaddedGeometry g = problem_->geometry();
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
  Bench(const Bench&) = delete;
  Bench& operator=(const Bench&) = delete;
  double points() const { return double(problem_->params().interior_points()); }
  const std::array<int, 3>& shape() const { return shape_; }

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
        launch(awave::sweep_fields(*problem_, u2, u3, now, prev, cs2_, damp_, long(problem_->geometry().stride_i()),
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
    const awave::PaddedGeometry g = problem_->geometry();
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
    const awave::PaddedGeometry g = problem_->geometry();
    const int tile_k = v.ck - 2 * v.steps, tile_j = v.cj - 2 * v.steps;
    const dim3 grid((g.nz + tile_k - 1) / tile_k, (g.ny + tile_j - 1) / tile_j, (g.nx + segment_ - 1) / segment_);
    if (const void* kernel = planted ? v.planted : v.kernel)
      check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(v.shared_bytes)),
            "opt-in shared memory");
    return run(steps, v.steps, [&](const SweepFields& f) { v.launch(f, grid, segment_, planted); });
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
  std::array<int, 3> shape_;
  std::unique_ptr<awave::WaveProblem> problem_;
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

inline std::string gpu_name() {
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "device properties");
  return prop.name;
}

inline int blocks_an_sm(const Variant& v) {
  if (!v.kernel) return -1;
  int blocks = 0;
  check(cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(v.shared_bytes)),
        "opt-in shared memory");
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, v.kernel, int(v.block.x * v.block.y), v.shared_bytes),
        "occupancy");
  return blocks;
}

inline bool runs_on(const Variant& v, const std::array<int, 3>& s) {
  return !v.runs_on || v.runs_on(s[0], s[1], s[2]);
}

// The bitwise check (see the top): every variant and its planted twin on the study's odd grids.
inline int run_check(const std::vector<const Variant*>& variants, const std::vector<std::array<int, 3>>& grids) {
  const bool bulk = awave::sweep_bulk_planes(awave::cuda_device_traits());
  bool ok = true;
  for (const auto& shape : grids)
    for (const int segment : {64, 13}) {
      Bench bench(shape[0], shape[1], shape[2], segment);
      bench.run_product(12, bulk);
      bench.keep_as_reference();
      for (const Variant* v : variants) {
        if (!runs_on(*v, shape)) {
          std::printf("{\"check\": \"%dx%dx%d\", \"segment\": %d, \"variant\": \"%s\", \"skipped\": true}\n", shape[0],
                      shape[1], shape[2], segment, v->name.c_str());
          continue;
        }
        for (const bool planted : {false, true}) {
          if (planted && !v->has_planted_twin) continue;
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
    }
  std::fflush(stdout);
  if (!ok)
    std::fprintf(stderr, "%s: FAIL: a variant differs from the product's sweep, or a planted ulp was not seen\n",
                 program_name);
  return ok ? 0 : 2;
}

inline int run_timing(int n, int rounds, const std::vector<const Variant*>& variants, int steps, int segment) {
  const std::string gpu = gpu_name();
  const bool bulk = awave::sweep_bulk_planes(awave::cuda_device_traits());
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
      if (!runs_on(*v, bench.shape())) continue;
      const Bench::Timing t = bench.run_variant(steps, *v, false);
      const unsigned long long differing = bench.differing_points();
      cudaFuncAttributes attributes{};  // (-1: a library's kernel, not known here)
      attributes.numRegs = -1;
      attributes.localSizeBytes = std::size_t(-1);
      if (v->kernel) check(cudaFuncGetAttributes(&attributes, v->kernel), "kernel attributes");
      std::printf(
          "{\"gpu\": \"%s\", \"n\": %d, \"round\": %d, \"steps\": %d, \"variant\": \"%s\", \"segment\": %d, "
          "\"su_per_s\": %.4e, \"su_per_s_run\": %.4e, \"bitwise\": %s, \"differing_points\": %llu, "
          "\"registers\": %d, \"spill_bytes\": %lld, \"shared_bytes\": %zu, \"threads\": %u, "
          "\"blocks_an_sm\": %d, \"steps_per_sweep\": %d}\n",
          gpu.c_str(), n, round, steps, v->name.c_str(), segment, points * 12 / t.best_chunk_s,
          points * steps / t.run_s, differing == 0 ? "true" : "false", differing, attributes.numRegs,
          v->kernel ? (long long)attributes.localSizeBytes : -1LL, v->shared_bytes,
          v->block.x * v->block.y * v->block.z, blocks_an_sm(*v), v->steps);
      std::fflush(stdout);
      ok &= differing == 0;
    }
  }
  if (!ok) std::fprintf(stderr, "%s: FAIL: a run differs from the product's sweep\n", program_name);
  return ok ? 0 : 2;
}

inline int bad_input(const std::string& why) {
  std::fprintf(stderr, "%s: %s\n", program_name, why.c_str());
  return 1;
}

// The program's main (the commands at the top). default_variants: the timed default, a comma list.
inline int sweep_variants_main(int argc, char** argv, const char* program, const std::vector<Variant>& all,
                               const char* default_variants, const std::vector<std::array<int, 3>>& check_grids,
                               const std::function<int(const std::function<int()>&)>& around_run = {}) {
  program_name = program;
  const std::string usage = std::string("usage: ") + program + " check [VARIANT,...] | " + program +
                            " N ROUNDS [VARIANT,...] [STEPS] [SEGMENT]";
  if (argc < 2) return bad_input(usage);
  const bool checking = std::string(argv[1]) == "check";
  const int list_arg = checking ? 2 : 3;
  std::vector<const Variant*> variants;
  for (const std::string& name : split(argc > list_arg ? argv[list_arg] : default_variants)) {
    const auto found = std::find_if(all.begin(), all.end(), [&](const Variant& v) { return v.name == name; });
    if (found == all.end()) return bad_input("no variant '" + name + "'");
    variants.push_back(&*found);
  }
  if (variants.empty()) return bad_input("no variant named");
  int n = 0, rounds = 0, steps = 60, segment = SweepTile::kSegment;
  if (!checking) {
    if (argc < 3) return bad_input(usage);
    n = std::atoi(argv[1]);
    rounds = std::atoi(argv[2]);
    if (argc > 4) steps = std::atoi(argv[4]);
    if (argc > 5) segment = std::atoi(argv[5]);
    if (n < 2 * awave::kBoundaryLayers || rounds < 1 || steps < 12 || steps % 12 || segment < 1)
      return bad_input("N >= 8, ROUNDS >= 1, STEPS a positive multiple of 12, SEGMENT >= 1");
  }
  int count = 0;
  if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess || count == 0) {
    std::fprintf(stderr, "%s: no usable CUDA GPU (%s)\n", program,
                 e != cudaSuccess ? cudaGetErrorString(e) : "none found");
    return checking ? 77 : 3;
  }
  auto run = [&] {
    return checking ? run_check(variants, check_grids) : run_timing(n, rounds, variants, steps, segment);
  };
  return around_run ? around_run(run) : run();
}

}  // namespace sweep_variants
