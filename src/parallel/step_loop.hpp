// The step loop of a run, once for every implementation: `steps` time steps, each with its halo
// exchange where the run is spread over processes (halo_exchange.hpp). The ghost planes of `now`
// are brought up to date at the start of each step; where the implementation can split its step,
// the planes travel while it computes the bulk, which reads no ghost plane, and the edges (the x
// layers) follow. Where its plan sweeps, a sweep's planes (S of u(t), S - 1 of u(t-1)) are
// exchanged once before each sweep, and a chunk's remainder of 1 or 2 steps exchanges per step.
#pragma once

#include "core/wave_impl.hpp"
#include "parallel/halo_exchange.hpp"

namespace awave {

class StepLoop {
 public:
  StepLoop(WaveImpl& impl, const WaveProblem& problem, ProcessGroup& group, const HaloSettings& settings = {});
  // Blocking: the steps are complete on return. A single process runs whole chunks, so an
  // implementation's own batching (CUDA graphs) stays.
  void run(int steps);

  const HaloExchange& halo() const { return halo_; }
  // The step's kernels beyond what the exchange overlapped, in seconds (this process).
  double step_seconds() const { return step_seconds_ - halo_.waited_on_gpu_seconds(); }

 private:
  void step_with_exchange();
  void sweep_with_exchange();
  void step_ordered_on_gpu();
  WaveImpl& impl_;
  ProcessGroup& group_;
  HaloExchange halo_;
  double step_seconds_ = 0.0;
};

}  // namespace awave
