#include "parallel/halo_exchange.hpp"

#include <chrono>
#include <exception>
#include <thread>

namespace awave {

HaloExchange::HaloExchange(WaveImpl& impl, const WaveProblem& problem, ProcessGroup& group)
    : impl_(impl), group_(group), slab_(problem.slab()), plane_(problem.geometry().stride_i()) {
  if (!group.distributed()) return;
  if (!slab_.first()) {
    send_lo_ = impl.halo_buffer(plane_);
    recv_lo_ = impl.halo_buffer(plane_);
  }
  if (!slab_.last()) {
    send_hi_ = impl.halo_buffer(plane_);
    recv_hi_ = impl.halo_buffer(plane_);
  }
}

namespace {
// Runs work() and adds its duration to `seconds`.
template <class Work>
void timed(double& seconds, Work work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

// Padded planes 1..nx are the slab's own; 0 and nx+1 are its ghosts.
void HaloExchange::copy_out() {
  timed(copy_seconds_, [&] {
    if (send_lo_) impl_.copy_now_plane_to_host(1, send_lo_.get());
    if (send_hi_) impl_.copy_now_plane_to_host(slab_.nx, send_hi_.get());
  });
}

void HaloExchange::copy_in() {
  timed(copy_seconds_, [&] {
    if (recv_lo_) impl_.copy_host_to_now_plane(0, recv_lo_.get());
    if (recv_hi_) impl_.copy_host_to_now_plane(slab_.nx + 1, recv_hi_.get());
  });
}

void HaloExchange::run(int steps) {
  if (!group_.distributed()) {
    impl_.run(steps);  // whole chunks: an implementation's own batching (CUDA graphs) stays
    return;
  }
  for (int s = 0; s < steps; ++s) step();
}

void HaloExchange::step() {
  copy_out();
  timed(mpi_seconds_,
        [&] { group_.start_exchange(send_lo_.get(), send_hi_.get(), recv_lo_.get(), recv_hi_.get(), plane_); });
  if (!impl_.can_split_step()) {
    timed(mpi_seconds_, [&] { group_.finish_exchange(); });
    copy_in();
    timed(step_seconds_, [&] { impl_.run(1); });
    return;
  }
  if (group_.threads_ok()) {
    // MPI waits on a second thread while this one queues the bulk: that overlaps the exchange
    // with the bulk also where the implementation computes synchronously (OpenMP offload's
    // target regions, host Kokkos); a GPU implementation's queueing returns at once.
    std::exception_ptr failure;
    std::thread mpi([this, &failure] {
      try {
        group_.finish_exchange();
      } catch (...) {
        failure = std::current_exception();
      }
    });
    timed(step_seconds_, [&] { impl_.queue_step_part(WaveImpl::StepPart::bulk); });
    timed(mpi_seconds_, [&] { mpi.join(); });  // what the exchange added beyond the bulk
    if (failure) std::rethrow_exception(failure);
  } else {
    timed(step_seconds_, [&] { impl_.queue_step_part(WaveImpl::StepPart::bulk); });  // at once on a GPU
    timed(mpi_seconds_, [&] { group_.finish_exchange(); });                          // while the bulk computes
  }
  timed(step_seconds_, [&] { impl_.wait_for_step_parts(); });  // the rest of the bulk: step, not copy
  copy_in();
  timed(step_seconds_, [&] {
    impl_.queue_step_part(WaveImpl::StepPart::edges);
    impl_.finish_step();
  });
}

}  // namespace awave
