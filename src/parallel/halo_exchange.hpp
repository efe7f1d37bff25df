// The halo exchange of a run over MPI, once for every implementation: after each step, a
// slab's first and last planes of `now` go to its neighbours, whose planes come into its
// ghost planes. The planes travel through host buffers (Debian's OpenMPI is not CUDA-aware),
// pinned where the implementation can pin them; the implementation only copies planes.
#pragma once

#include "core/wave_impl.hpp"
#include "parallel/process_group.hpp"

#include <memory>

namespace awave {

class HaloExchange {
 public:
  HaloExchange(WaveImpl& impl, const WaveProblem& problem, ProcessGroup& group);
  // `steps` time steps, each with its exchange. The ghost planes of `now` are brought up to
  // date at the start of each step (the first step's come from the start state); where the
  // implementation can split its step, the planes travel while it computes the bulk, which
  // reads no ghost plane, and the edges follow. A single process just runs the steps.
  void run(int steps);

  // Where the exchange's time went on this process, in seconds.
  double copy_seconds() const { return copy_seconds_; }  // device <-> host buffers
  double mpi_seconds() const { return mpi_seconds_; }    // MPI, waiting for the neighbours included
  double step_seconds() const { return step_seconds_; }  // the step's kernels, beyond what MPI overlapped

 private:
  void step();
  void copy_out();
  void copy_in();
  WaveImpl& impl_;
  ProcessGroup& group_;
  Slab slab_;
  std::size_t plane_;
  std::shared_ptr<double> send_lo_, send_hi_, recv_lo_, recv_hi_;
  double copy_seconds_ = 0.0, mpi_seconds_ = 0.0, step_seconds_ = 0.0;
};

}  // namespace awave
