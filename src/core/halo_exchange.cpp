#include "halo_exchange.hpp"

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
using clock = std::chrono::steady_clock;
double since(clock::time_point start) {
  return std::chrono::duration<double>(clock::now() - start).count();
}
}  // namespace

// Padded planes 1..nx are the slab's own; 0 and nx+1 are its ghosts.
void HaloExchange::copy_out() {
  const auto start = clock::now();
  if (send_lo_) impl_.copy_now_plane_to_host(1, send_lo_.get());
  if (send_hi_) impl_.copy_now_plane_to_host(slab_.nx, send_hi_.get());
  copy_seconds_ += since(start);
}

void HaloExchange::copy_in() {
  const auto start = clock::now();
  if (recv_lo_) impl_.copy_host_to_now_plane(0, recv_lo_.get());
  if (recv_hi_) impl_.copy_host_to_now_plane(slab_.nx + 1, recv_hi_.get());
  copy_seconds_ += since(start);
}

void HaloExchange::step() {
  if (!group_.distributed()) {
    impl_.run(1);
    return;
  }
  copy_out();
  auto start = clock::now();
  group_.start_exchange(send_lo_.get(), send_hi_.get(), recv_lo_.get(), recv_hi_.get(), plane_);
  mpi_seconds_ += since(start);
  if (!impl_.can_split_step()) {
    start = clock::now();
    group_.finish_exchange();
    mpi_seconds_ += since(start);
    copy_in();
    start = clock::now();
    impl_.run(1);
    step_seconds_ += since(start);
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
    start = clock::now();
    impl_.queue_step_part(WaveImpl::StepPart::bulk);
    step_seconds_ += since(start);
    start = clock::now();
    mpi.join();
    mpi_seconds_ += since(start);  // what the exchange added beyond the bulk
    if (failure) std::rethrow_exception(failure);
  } else {
    start = clock::now();
    impl_.queue_step_part(WaveImpl::StepPart::bulk);  // returns at once on a GPU
    step_seconds_ += since(start);
    start = clock::now();
    group_.finish_exchange();  // while the bulk computes
    mpi_seconds_ += since(start);
  }
  start = clock::now();
  impl_.wait_for_step_parts();  // the rest of the bulk (timed as the step, not as a copy)
  step_seconds_ += since(start);
  copy_in();
  start = clock::now();
  impl_.queue_step_part(WaveImpl::StepPart::edges);
  impl_.finish_step();
  step_seconds_ += since(start);
}

}  // namespace awave
