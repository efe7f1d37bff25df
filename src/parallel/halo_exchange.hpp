// The halo exchange of a run over MPI, once for every implementation: before each step, a
// slab's first and last planes of `now` go to its neighbours, whose planes come into its
// ghost planes; before each sweep of S steps (core/step_plan.hpp), its first and last S planes
// of u(t) and S - 1 of u(t-1), into the neighbours' planes it recomputes (Slab::halo_lo, halo_hi):
// level s of the sweep is then right S - s planes beyond its own, and level S on its own. Two paths:
//  - GPU to GPU through NCCL (parallel/nccl_link.hpp), where the build has NCCL and the
//    implementation's fields are in CUDA device memory: the implementation only says where a
//    plane of `now` is;
//  - through host buffers and MPI (Debian's OpenMPI is not CUDA-aware), pinned where the
//    implementation can pin them: the implementation only copies planes.
// Every wait for a neighbour is bounded by a time-out: a stopped process ends the run with one
// line, never a hang. The step loop (step_loop.hpp) owns the steps; this class, their exchange.
#pragma once

#include "core/wave_impl.hpp"
#include "parallel/nccl_link.hpp"
#include "parallel/process_group.hpp"

#include <array>
#include <chrono>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace awave {

enum class HaloPath { fastest, mpi, nccl };  // -halo: fastest is NCCL where it can carry the planes
struct HaloSettings {
  HaloPath path = HaloPath::fastest;
  double timeout_seconds = 120;  // -halo_timeout: the longest wait for a neighbour's planes
};

// The planes a side one exchange carries, of u(t) and of u(t-1).
struct HaloDepth {
  int now_planes = 1, prev_planes = 0;
  static HaloDepth step() { return {1, 0}; }
  static HaloDepth sweep(int steps) { return {steps, steps - 1}; }
  int planes() const { return now_planes + prev_planes; }
  // The blocks in the order they travel: each level's planes.
  std::array<std::pair<TimeLevel, int>, 2> blocks() const {
    return {{{TimeLevel::now, now_planes}, {TimeLevel::prev, prev_planes}}};
  }
};

// The exchange of one step's planes; the step loop (step_loop.hpp) places its parts around
// the step's kernels. Times are this process's, in seconds.
class HaloExchange {
 public:
  // Chooses the path (collective: every process constructs it for the same implementation).
  // Throws (one line) where -halo nccl was asked for and NCCL cannot carry the planes.
  HaloExchange(WaveImpl& impl, const WaveProblem& problem, ProcessGroup& group, const HaloSettings& settings = {});

  bool gpu_to_gpu() const { return gpu_to_gpu_; }  // through NCCL
  // NCCL's planes ordered with the kernels on the implementation's CUDA stream, not by the host.
  bool ordered_on_gpu() const { return gpu_ordered_; }
  // The path in words, for the log ("GPU to GPU through NCCL 2.28.3", or why host buffers).
  const std::string& path_description() const { return description_; }

  // The planes of the current levels leave (through host buffers: copied out first): a step's
  // (the default), or a sweep's.
  void send(HaloDepth depth = HaloDepth::step());
  // Waits for the neighbours' planes (bounded by the time-out); where MPI may wait on a second
  // thread, it does so while `work` runs on this one (the bulk of a step computed synchronously).
  template <class Work>
  void receive_while(Work work);
  void receive();
  // Through host buffers: the received planes into the ghost (or recomputed) planes.
  void copy_in();

  // Ordered on the GPU: queues on `stream` the planes' sends and receives, the wait for them
  // (before the edges), and the end of the step (which waits for the step before).
  void queue_send_receive(void* stream);
  void queue_wait_for_planes(void* stream);
  void queue_step_end(void* stream);
  void wait_for_queued_steps();  // the last queued steps complete
  // Host time spent in the queueing calls waiting on the GPU for planes beyond the bulk: the
  // step loop counts it as the exchange's, not the step's.
  double waited_on_gpu_seconds() const;

  double copy_seconds() const { return copy_seconds_; }  // device <-> host buffers
  // MPI or NCCL, waiting for the neighbours included (ordered on the GPU: the time the edges
  // waited there for the planes after the bulk had ended)
  double mpi_seconds() const { return mpi_seconds_ + waited_on_gpu_seconds(); }

 private:
  // The blocks of the current levels, on the device: null at a grid face.
  std::vector<nccl_link::PlaneBlock> device_blocks() const;
  // The first padded plane of a block of `planes` planes: sent to / received from each side.
  struct BlockPlanes {
    int send_lo, send_hi, recv_lo, recv_hi;
  };
  BlockPlanes block_planes(int planes) const;
  template <class Visit>
  void for_each_block(Visit visit) const;
  void copy_out();
  void planted_stall();
  bool receive_on_thread() const;
  WaveImpl& impl_;
  ProcessGroup& group_;
  Slab slab_;
  int own0_;  // the padded plane of the slab's first own plane
  std::size_t plane_;
  HaloDepth depth_;  // of the exchange under way
  HaloSettings settings_;
  bool gpu_to_gpu_ = false;
  bool gpu_ordered_ = false;
  double waited_on_gpu_at_open_ = 0.0;
  std::string description_;
  long exchanges_ = 0;
  std::shared_ptr<double> send_lo_, send_hi_, recv_lo_, recv_hi_;
  double copy_seconds_ = 0.0, mpi_seconds_ = 0.0;
};

// Runs work() and adds its duration to `seconds`.
template <class Work>
void add_time(double& seconds, Work work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template <class Work>
void HaloExchange::receive_while(Work work) {
  if (!receive_on_thread()) {
    work();
    return receive();
  }
  std::exception_ptr failure;
  std::thread waiter([this, &failure] {
    try {
      group_.finish_exchange(settings_.timeout_seconds);
    } catch (...) {
      failure = std::current_exception();
    }
  });
  work();
  add_time(mpi_seconds_, [&] { waiter.join(); });  // what the exchange added beyond the work
  if (failure) std::rethrow_exception(failure);
}

}  // namespace awave
