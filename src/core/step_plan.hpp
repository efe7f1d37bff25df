// How a time step is launched, decided once for every implementation. Small grids are
// launch-bound: at 32^3 a step of three kernels (interior, x layers, y layers) took 11 us in
// CUDA and 140 us in OpenMP offload (H100), almost all of it launch cost. Up to
// fused_step_max_points() interior points a step is therefore one kernel over every point,
// which takes the damped update in the sponge layers and the undamped one elsewhere: the
// same per-point arithmetic as the three-kernel step, so the results are bitwise the same.
#pragma once

#include "sweep_march.hpp"
#include "tuning.hpp"
#include "wave_params.hpp"
#include "wave_problem.hpp"
#include "wave_update.hpp"

#include <cstddef>

namespace awave {

// The largest grid (interior points) whose steps are fused: 128^3, where a fused step took 21.5 us
// against 28.1 for three kernels (hand CUDA; OpenMP offload 83 against 151) on the H100 and the
// three-kernel march wins at 512^3 (results/h100-2026-11-22/tuning); tuning key fused_step_points.
inline std::size_t fused_step_max_points() {
  return std::size_t(tuning_integer("fused_step_points").value_or(128L * 128 * 128));
}

// Also where a process's slab of an MPI run has fewer x-planes than two sponge layers: the
// x-layer kernels assume both layers fit.
inline bool fused_step(const WaveParams& params) {
  return params.interior_points() <= fused_step_max_points() || params.nx() < 2 * kBoundaryLayers;
}

// Time steps a sweep of the grid for an implementation that has the temporal-blocking sweep
// (core/sweep_march.hpp; hand CUDA and Kokkos on CUDA): 3 from 200^3 points, where both gain on
// the H100 (Kokkos-CUDA 1.02 x at 200^3, 1.2-1.3 x from 224^3; hand CUDA 1.2-1.49 x). Below, the
// sweep's few teams are a wave and a fraction of the GPU's (192^3: 336 teams, 264 at a time):
// Kokkos-CUDA lost at 192^3 (0.96 x), both at 128^3 (0.77 x) (bench/results/h100-2026-11-25/
// temporal-dc054f9, temporal-23f8678). Tuning key
// steps_per_sweep. Always 1 for a process's slab of an MPI run (its halo exchange is per step: a
// sweep would need 3 halo planes a side) and where nz <= 2 (the start has values on z ghosts
// there, which the sweep's computed levels lack).
inline constexpr std::size_t kSweepMinPoints = std::size_t(200) * 200 * 200;
inline int steps_per_sweep(const WaveParams& params, bool whole_grid) {
  if (!whole_grid || params.nz() < 3) return 1;
  if (const auto set = tuning_word("steps_per_sweep")) return *set == "3" ? SweepTile::kSteps : 1;
  return params.interior_points() >= kSweepMinPoints ? SweepTile::kSteps : 1;
}
inline int steps_per_sweep(const WaveProblem& problem) {
  return steps_per_sweep(problem.params(), problem.slab().first() && problem.slab().last());
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
