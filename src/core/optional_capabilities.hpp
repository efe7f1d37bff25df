// What some implementations can do beyond WaveImpl's calls: each an interface the implementation
// derives from, which WaveImpl hands out (null where it lacks one). The parallel layer asks for
// the first three (parallel/step_loop.cpp, halo_exchange.cpp), the host buffers of halos and
// snapshots for the last (WaveImpl::host_buffer).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>

namespace awave {

// The two time levels a halo exchange carries: u(t), and where a slab sweeps, u(t-1) as well.
enum class TimeLevel { now, prev };

// Which points a launch updates: a whole step, or over MPI its bulk (everything but the x
// layers, whose planes the neighbours send) and its edges (the x layers).
enum class StepRegion { all, bulk, edges };

// A step in two parts over MPI, so that the halo exchange overlaps the first: StepRegion::bulk
// (the planes [nbl, nx - nbl), which read no ghost plane) and StepRegion::edges (the x layers). Both are
// queued without waiting where the device allows; finish_step() waits and advances the time
// counter. Handed out only where the plan takes three kernels a step (core/step_plan.hpp).
class SplitStep {
 public:
  virtual void queue_step_part(StepRegion part) = 0;  // bulk or edges
  virtual void wait_for_step_parts() = 0;             // what is queued has run
  virtual void finish_step() = 0;

 protected:
  ~SplitStep() = default;
};

// A sweep in two parts over MPI (core/sweep_march.hpp, sweep_segments), so that the halo exchange
// overlaps the first: SweepPart::interior (the segments that read no recomputed neighbour plane)
// and SweepPart::outer (the rest). Queued without waiting where the device allows;
// finish_sweep() waits and advances the time counter by the sweep's steps. Handed out where the
// plan sweeps a slab with a recomputed halo (hand CUDA has it; Kokkos' sweep in parts ran slower
// than its whole sweep, src/kokkos/wave_kokkos.hpp).
enum class SweepPart { interior, outer };
class SplitSweep {
 public:
  virtual void queue_sweep_part(SweepPart part) = 0;
  virtual void wait_for_sweep_parts() = 0;  // what is queued has run
  virtual void finish_sweep() = 0;

 protected:
  ~SplitSweep() = default;
};

// Fields in CUDA device memory, for the GPU-to-GPU exchange (NCCL): where padded plane `pi` of
// the level is (geometry().stride_i() contiguous values, the next planes after it), or null where
// the fields are not one such block. All NCCL needs besides: a step's queued work is complete when
// finish_step() or run() returns.
class DeviceFields {
 public:
  virtual double* plane_on_device(TimeLevel level, int pi) = 0;

 protected:
  ~DeviceFields() = default;
};

// Steps queued in order on a device queue: the NCCL exchange then orders the planes with the
// kernels on the GPU, through events, and the host stays a step ahead instead of waiting for each.
class StreamOrderedSteps {
 public:
  // The implementation's in-order device queue as its toolchain spells it (a cudaStream_t on CUDA,
  // where null is the legacy default stream), or nothing where this instance has none (then the
  // host orders the steps).
  virtual std::optional<void*> device_queue() = 0;
  // Advances the time counter over a step whose parts are queued, without waiting for them (the
  // caller waits on the stream's events).
  virtual void advance_queued_step() = 0;

 protected:
  ~StreamOrderedSteps() = default;
};

// Pinned host memory for the device's copies (DMA at the bus's speed; pageable memory goes
// through a bounce buffer).
class PinnedHostMemory {
 public:
  // n values, or null where none can be pinned (none left, or this backend cannot).
  virtual std::shared_ptr<double> pinned_buffer(std::size_t n) = 0;

 protected:
  ~PinnedHostMemory() = default;
};

}  // namespace awave
