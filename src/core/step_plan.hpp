// How an implementation's time steps are taken, decided once per run (plan_steps). Small grids
// are launch-bound: at 32^3 a step of three kernels (interior, x layers, y layers) took 11 us in
// CUDA and 140 us in OpenMP offload (H100), almost all of it launch cost; up to
// fused_step_max_points() interior points a step is therefore one kernel over every point.
#pragma once

#include "sweep_march.hpp"
#include "tuning.hpp"
#include "wave_params.hpp"
#include "wave_problem.hpp"
#include "wave_update.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace awave {

// The largest grid (interior points) whose steps are fused: 128^3, where a fused step took 21.5 us
// against 28.1 for three kernels (hand CUDA; OpenMP offload 83 against 151) on the H100 and the
// three-kernel march wins at 512^3 (results/h100-2026-11-22/tuning); tuning key fused_step_points.
inline std::size_t fused_step_max_points() {
  return std::size_t(tuning_integer("fused_step_points").value_or(128L * 128 * 128));
}

// The temporal-blocking sweep (core/sweep_march.hpp) from 200^3 points on the GPUs: there both
// hand CUDA and Kokkos-CUDA gain on the H100 (Kokkos-CUDA 1.02 x at 200^3, 0.96 x at 192^3, where
// the sweep's teams are a wave and a fraction of the GPU's; bench/results/h100-2026-11-25/temporal-23f8678).
inline constexpr std::size_t kSweepMinPoints = std::size_t(200) * 200 * 200;
// The CPU's sweep (core/cache_sweep.hpp) from 128^3 points: 1.6-3.1 x the single steps there,
// 1.5-2.1 x at 256^3 and 512^3 (16-core Xeon, bench/results/h100-2026-11-25/cpu-sweep-efcf452).
inline constexpr std::size_t kCacheSweepMinPoints = std::size_t(128) * 128 * 128;
// OpenMP offload's sweeps (hand omp, and Kokkos-OMPT from Kokkos 4) from 512^3, the smallest grid
// measured: on the H100 hand omp 1.32 / 1.30 x its single steps at 512^3 / 1000^3
// (bench/results/h100-2026-11-25/omp-sweep-copy-0232966), Kokkos-OMPT 1.30 x at both
// (offload-sweep-c93b2d0-k46); issue 44's rule: 1.15 x.
inline constexpr std::size_t kOffloadSweepMinPoints = std::size_t(512) * 512 * 512;

// What an implementation can do besides one fused kernel a step, declared once, in its registry
// entry.
struct Capabilities {
  bool three_kernel_step = false;                  // interior, x layers, y layers (and so a step split in two over MPI)
  bool sweep = false;                              // the temporal-blocking sweep
  std::size_t sweep_min_points = kSweepMinPoints;  // the grids it sweeps by default: its platform's
};

// How an implementation takes its steps in one run, decided by plan_steps alone: the driver makes
// each implementation with its plan, the memory estimate counts from the same function, and
// -json records the plan the implementation was given.
struct StepPlan {
  // One kernel a step over every point (damped update in the sponge layers, undamped elsewhere):
  // the same per-point arithmetic as the three-kernel step, so the bits are the same.
  bool fused_step = true;
  // 1, or SweepTile::kSteps: three steps a sweep of the grid (a chunk's remainder of 1 or 2 steps
  // as single steps).
  int steps_per_sweep = 1;
  // Why single steps where the implementation could sweep this grid (over MPI), or empty.
  std::string single_steps_reason;
  // The smallest grid (interior points) the implementation sweeps by default, or 0 (it cannot).
  std::size_t sweep_min_points = 0;
  int fields() const { return steps_per_sweep > 1 ? 4 : 3; }  // the sweep's fourth field
};

// global: the whole grid; slab: the part this process steps (the whole grid without MPI).
// Fused steps up to fused_step_max_points() and where a slab has fewer x-planes than two sponge
// layers (the x-layer kernels assume both fit). The sweep where the grid has the implementation's
// sweep_min_points (tuning key steps_per_sweep forces 1 or 3), never on an MPI slab (its halo exchange is per step:
// a sweep would need 3 halo planes a side) nor where nz <= 2 (the start has values on z ghosts
// there, which the sweep's computed levels lack).
inline StepPlan plan_steps(const WaveParams& global, const WaveParams& slab, const Capabilities& can) {
  StepPlan plan;
  plan.fused_step =
      !can.three_kernel_step || slab.interior_points() <= fused_step_max_points() || slab.nx() < 2 * kBoundaryLayers;
  if (!can.sweep || slab.nz() < 3) return plan;
  plan.sweep_min_points = can.sweep_min_points;
  const std::optional<std::string> set = tuning_word("steps_per_sweep");
  const bool wanted = set ? *set == "3" : global.interior_points() >= can.sweep_min_points;
  if (wanted && slab.nx() == global.nx())
    plan.steps_per_sweep = SweepTile::kSteps;
  else if (wanted)
    plan.single_steps_reason = "single steps over MPI: the halo exchange is per step (a sweep of " +
                               std::to_string(SweepTile::kSteps) + " would need " + std::to_string(SweepTile::kSteps) +
                               " halo planes a side)";
  return plan;
}

// Bytes of a plane of constant i (the (j, k) extent of a padded field). Where planes are large,
// the x-neighbour planes a GPU thread block needs stop staying in L2 between blocks, and the
// GPU kernels do better covering more i per block; each backend's threshold and measurements
// are with its launch choices (src/cuda/wave_cuda.cu, src/kokkos/kokkos_policy.hpp).
inline std::size_t plane_bytes(const PaddedGeometry& g) {
  return g.stride_i() * sizeof(double);
}

// In a sponge layer (damp may be nonzero): i or j within nbl of an x or y face.
AWAVE_HOST_DEVICE inline bool in_sponge(int i, int j, int nx, int ny) {
  return i < kBoundaryLayers || i >= nx - kBoundaryLayers || j < kBoundaryLayers || j >= ny - kBoundaryLayers;
}

}  // namespace awave
