// How an implementation's time steps are taken, decided once per run (plan_steps). Small grids
// are launch-bound: at 32^3 a step of three kernels (interior, x layers, y layers) took 11 us in
// CUDA and 140 us in OpenMP offload (H100), almost all of it launch cost; up to
// fused_step_max_points() interior points a step is therefore one kernel over every point.
#pragma once

#include "device_traits.hpp"
#include "sponge.hpp"
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

// Which sweep an implementation has: its measured thresholds (sweep_min_points) follow from it.
enum class SweepForm {
  gpu_teams,      // hand CUDA, Kokkos-CUDA: core/sweep_march.hpp in thread blocks / teams
  offload_teams,  // hand omp, Kokkos-OMPT (Kokkos 4): the same, in OpenMP offload teams
  cache_tiles,    // cpu-openmp, Kokkos' host backends: core/cache_sweep.hpp
};

// Which of the two GPUs measured a device takes its plan's choices from, by peak memory bandwidth
// (core/device_traits.hpp). The H100 SXM 80 GB (3.35e12 B/s, 50 MiB L2) and the H200 (4.81e12 B/s,
// 60 MiB L2, as both toolchains read them: bench/results/h200-2026-12-02/plan-traits-3cde185) share cc 9.0 and
// 132 SMs; which of bandwidth and L2 made the H200's choices below was not measured apart, and
// bandwidth decides as the stencil is memory-bound (single steps at 0.84-0.96 of the triad, README).
// The boundary is the midpoint, so a GPU not measured takes the choice of the one nearer in
// bandwidth (an H100 NVL's 3.9e12 the H100's, a B200's 8e12 the H200's); an accelerator whose
// bandwidth cannot be asked takes the H100's, as every GPU not measured did when the plan went by
// the GPU's name.
inline constexpr double kHighBandwidthFrom = (3.35e12 + 4.81e12) / 2;  // bytes/s
inline bool high_bandwidth_gpu(const DeviceTraits& device) {
  return device.accelerator && device.peak_bandwidth && *device.peak_bandwidth >= kHighBandwidthFrom;
}

// The smallest grid (interior points) a sweep form sweeps by default on a device: the smallest
// size measured where no implementation of the form is slower than its single steps beyond the
// runs' spread (medians of five; tables in bench/results/h200-2026-11-26/README.md).
inline std::size_t sweep_min_points(SweepForm form, const DeviceTraits& device) {
  switch (form) {
    case SweepForm::gpu_teams:
      // H100: Kokkos-CUDA 1.02 x at 200^3, 0.96 x at 192^3 (h100-2026-11-25/temporal-23f8678).
      // H200: 0.96 / 0.79 x (hand / Kokkos) at 192^3, 1.09 / 1.00 x at 256^3.
      return high_bandwidth_gpu(device) ? std::size_t(256) * 256 * 256 : std::size_t(200) * 200 * 200;
    case SweepForm::offload_teams:
      // Both GPUs from 128^3, the smallest measured: there hand omp 2.07 / 1.97 x (H100 / H200),
      // Kokkos-OMPT 1.76 / 1.78 x, and more than 1.13 x at every size up to 1000^3.
      return std::size_t(128) * 128 * 128;
    case SweepForm::cache_tiles:
      // The CPUs of both GPU machines (one Xeon model): 1.6-3.1 x at 128^3, 1.5-2.5 x up to 1000^3
      // (h100-2026-11-25/cpu-sweep-efcf452, h200-2026-11-26/cpu-h200).
      return std::size_t(128) * 128 * 128;
  }
  return 0;
}

// Whether a march that can take its bulk planes (core/sweep_march.hpp; Capabilities::bulk_planes)
// does by default on a device: where they were faster beyond the runs' spread at 512^3 and
// 1000^3. The H200: hand CUDA 1.13 x, hand omp 1.05-1.07 x, Kokkos-CUDA 1.14-1.15 x (with its functor
// in constant memory); the H100: hand CUDA 0.95-0.98 x, Kokkos-CUDA 0.95 x, so off there and on GPUs
// nearer the H100 in bandwidth (bench/results/h200-2026-11-26/march-ab-51e52dc,
// h100-2026-11-26/march-ab-51e52dc, h200-2026-11-27/kokkos-heavy-780cca0,
// h100-2026-11-27/kokkos-heavy-780cca0).
inline bool sweep_bulk_planes(const DeviceTraits& device) {
  return high_bandwidth_gpu(device);
}

// What an implementation can do besides one fused kernel a step, declared once, in its registry
// entry.
struct Capabilities {
  bool three_kernel_step = false;               // interior, x layers, y layers (and so a step split in two over MPI)
  bool sweep = false;                           // the temporal-blocking sweep
  SweepForm sweep_form = SweepForm::gpu_teams;  // and which, for its thresholds
  bool bulk_planes = false;                     // its march can take the bulk planes' path (hand codes, Kokkos-CUDA)
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
  // The sweep's march takes its bulk planes' path (sweep_bulk_planes; tuning key sweep.bulk_planes).
  bool bulk_planes = false;
  // Over MPI, the planes of each neighbour a sweeping slab recomputes (Slab::halo_lo, halo_hi):
  // steps_per_sweep, exchanged once a sweep; 0 where the exchange is per step (its ghost plane).
  int recomputed_halo = 0;
  int fields() const { return steps_per_sweep > 1 ? 4 : 3; }  // the sweep's fourth field
};

// global: the whole grid; slab: the part this process owns (the whole grid without MPI);
// device: what the implementation runs on (DeviceTraits{} for the host). Fused steps up to
// fused_step_max_points() and where a slab has fewer x-planes than two sponge layers (the x-layer
// kernels assume both fit). The sweep where the grid has its form's sweep_min_points on this device
// (tuning key steps_per_sweep forces 1 or 3), not where nz <= 2 (the start has values on z ghosts
// there, which the sweep's computed levels lack). Over MPI a sweeping slab recomputes
// steps_per_sweep planes of each neighbour, exchanged once a sweep (parallel/halo_exchange.hpp), so
// every slab must own that many; the answer depends only on the grid and the process count, the
// same on every process.
inline StepPlan plan_steps(const WaveParams& global, const Slab& slab, const Capabilities& can,
                           const DeviceTraits& device) {
  StepPlan plan;
  const WaveParams own = slab_params(global, slab.nx);
  plan.fused_step =
      !can.three_kernel_step || own.interior_points() <= fused_step_max_points() || own.nx() < 2 * sponge::kLayers;
  if (!can.sweep || global.nz() < 3) return plan;
  plan.sweep_min_points = sweep_min_points(can.sweep_form, device);
  const std::optional<std::string> set = tuning_word("steps_per_sweep");
  const bool wanted = set ? *set == "3" : global.interior_points() >= plan.sweep_min_points;
  if (!wanted) return plan;
  const int thinnest = smallest_slab_nx(global.nx(), slab.size);
  if (slab.size > 1 && thinnest < SweepTile::kSteps) {
    plan.single_steps_reason = "single steps over MPI: slabs of " + std::to_string(thinnest) +
                               " planes are thinner than the sweep's halo of " + std::to_string(SweepTile::kSteps);
    return plan;
  }
  plan.steps_per_sweep = SweepTile::kSteps;
  plan.recomputed_halo = slab.size > 1 ? SweepTile::kSteps : 0;
  const std::optional<std::string> bulk = tuning_word("sweep.bulk_planes");
  plan.bulk_planes = can.bulk_planes && (bulk ? *bulk == "1" : sweep_bulk_planes(device));
  return plan;
}

// Bytes of a plane of constant i (the (j, k) extent of a padded field). Where planes are large,
// the x-neighbour planes a GPU thread block needs stop staying in L2 between blocks, and the
// GPU kernels do better covering more i per block; each backend's threshold and measurements
// are with its launch choices (src/cuda/wave_cuda.cu, src/kokkos/kokkos_policy.hpp).
inline std::size_t plane_bytes(const PaddedGeometry& g) {
  return g.stride_i() * sizeof(double);
}

}  // namespace awave
