// The halo exchange of a run over MPI, once for every implementation: after each step, a
// slab's first and last planes of `now` go to its neighbours, whose planes come into its
// ghost planes. Two paths:
//  - GPU to GPU through NCCL (parallel/nccl_link.hpp), where the build has NCCL and the
//    implementation's fields are in CUDA device memory: the implementation only says where a
//    plane of `now` is;
//  - through host buffers and MPI (Debian's OpenMPI is not CUDA-aware), pinned where the
//    implementation can pin them: the implementation only copies planes.
// Every wait for a neighbour is bounded by a time-out: a stopped process ends the run with one
// line, never a hang.
#pragma once

#include "core/wave_impl.hpp"
#include "parallel/process_group.hpp"

#include <memory>
#include <string>

namespace awave {

enum class HaloPath { fastest, mpi, nccl };  // -halo: fastest is NCCL where it can carry the planes
struct HaloSettings {
  HaloPath path = HaloPath::fastest;
  double timeout_seconds = 120;  // -halo_timeout: the longest wait for a neighbour's planes
};

class HaloExchange {
 public:
  // Chooses the path (collective: every process constructs it for the same implementation).
  // Throws (one line) where -halo nccl was asked for and NCCL cannot carry the planes.
  HaloExchange(WaveImpl& impl, const WaveProblem& problem, ProcessGroup& group, const HaloSettings& settings = {});
  // `steps` time steps, each with its exchange. The ghost planes of `now` are brought up to
  // date at the start of each step (the first step's come from the start state); where the
  // implementation can split its step, the planes travel while it computes the bulk, which
  // reads no ghost plane, and the edges follow. A single process just runs the steps.
  void run(int steps);

  // Where the exchange's time went on this process, in seconds.
  double copy_seconds() const { return copy_seconds_; }  // device <-> host buffers
  // MPI or NCCL, waiting for the neighbours included (NCCL ordered on the GPU: the time the edges
  // waited there for the planes after the bulk had ended)
  double mpi_seconds() const { return mpi_seconds_; }
  double step_seconds() const { return step_seconds_; }  // the step's kernels, beyond what MPI overlapped

  bool gpu_to_gpu() const { return gpu_to_gpu_; }  // through NCCL
  // The path in words, for the log ("GPU to GPU through NCCL 2.28.3", or why host buffers).
  const std::string& path_description() const { return description_; }

 private:
  void step();
  void step_gpu_to_gpu();
  void copy_out();
  void copy_in();
  void planted_stall();
  WaveImpl& impl_;
  ProcessGroup& group_;
  Slab slab_;
  std::size_t plane_;
  HaloSettings settings_;
  bool gpu_to_gpu_ = false;
  bool gpu_ordered_ = false;  // NCCL's planes ordered with the kernels on the GPU (events), not by the host
  std::string description_;
  long exchanges_ = 0;
  std::shared_ptr<double> send_lo_, send_hi_, recv_lo_, recv_hi_;
  double copy_seconds_ = 0.0, mpi_seconds_ = 0.0, step_seconds_ = 0.0;
};

}  // namespace awave
