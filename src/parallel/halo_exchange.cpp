#include "parallel/halo_exchange.hpp"

#include "core/tuning.hpp"

#include "parallel/nccl_link.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <thread>

namespace awave {

namespace {
// nccl.order=host: the host orders the NCCL exchange also where the implementation's stream
// could, to compare the two.
bool gpu_ordering_enabled() {
  return tuning_word("nccl.order").value_or("gpu") == "gpu";
}
}  // namespace

HaloExchange::HaloExchange(WaveImpl& impl, const WaveProblem& problem, ProcessGroup& group,
                           const HaloSettings& settings)
    : impl_(impl), group_(group), slab_(problem.slab()), plane_(problem.geometry().stride_i()), settings_(settings) {
  if (!group.distributed()) return;
  description_ = "through host memory and MPI";
  // Only implementations whose fields are in CUDA device memory can send GPU to GPU.
  if (const double* fields = impl.now_plane_on_device(0); fields && settings.path != HaloPath::mpi) {
    std::optional<std::string> why = nccl_link::unavailable(group);
    if (!why) {
      try {
        nccl_link::open(group, fields, settings.timeout_seconds);
        gpu_to_gpu_ = true;
        gpu_ordered_ = impl.cuda_stream().has_value() && impl.can_split_step() && gpu_ordering_enabled();
        description_ = "GPU to GPU through " + nccl_link::version() +
                       (gpu_ordered_ ? ", ordered on the GPU" : ", ordered by the host");
        return;
      } catch (const std::exception& e) {  // the same words on every process
        why = e.what();
      }
    }
    if (settings.path == HaloPath::nccl) throw std::runtime_error("-halo nccl: " + *why);
    description_ += " (not NCCL: " + *why + ")";
  }
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

// The GPU-ordered exchange's host work (queueing, waiting for queued steps), timed as the step's,
// except where the edges waited on the GPU for the planes beyond the bulk: the exchange's.
template <class Work>
void timed_gpu_ordered(double& step_seconds, double& exchange_seconds, Work work) {
  const double waited_before = nccl_link::exposed_seconds();
  timed(step_seconds, work);
  const double waited = nccl_link::exposed_seconds() - waited_before;
  exchange_seconds += waited;
  step_seconds -= waited;
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
  if (gpu_ordered_)  // run() is blocking: the last queued steps complete
    timed_gpu_ordered(step_seconds_, mpi_seconds_, [&] { nccl_link::wait_for_queued_steps(); });
}

// A planted fault for the tests (AWAVE_TEST_FAULT_STALL_HALO=RANK): that process stops before its
// second exchange, as a hung or stopped process would, and its neighbours must time out.
void HaloExchange::planted_stall() {
  static const std::optional<std::string> stalled = test_fault("STALL_HALO");
  if (stalled && std::atoi(stalled->c_str()) == group_.rank() && exchanges_ == 1)
    std::this_thread::sleep_for(std::chrono::duration<double>(10 * settings_.timeout_seconds + 10));
}

// The planes GPU to GPU. Where the implementation queues its step on a CUDA stream, the order
// is kept on the GPU: the planes leave once the stream has finished the previous step, the bulk
// computes while they travel, the edges wait for their arrival, and the host only queues (one
// step ahead: it waits for the step before). Elsewhere the host keeps the order: the planes are
// queued while the previous step is complete (finish_step waited for it), so they are final,
// and the edges are queued once they have arrived.
void HaloExchange::step_gpu_to_gpu() {
  const auto plane = [&](int pi) { return impl_.now_plane_on_device(pi); };
  double* const send_lo = slab_.first() ? nullptr : plane(1);
  double* const send_hi = slab_.last() ? nullptr : plane(slab_.nx);
  double* const recv_lo = slab_.first() ? nullptr : plane(0);
  double* const recv_hi = slab_.last() ? nullptr : plane(slab_.nx + 1);
  if (gpu_ordered_) {
    void* const stream = *impl_.cuda_stream();
    timed_gpu_ordered(step_seconds_, mpi_seconds_, [&] {
      nccl_link::queue_exchange(stream, send_lo, send_hi, recv_lo, recv_hi, plane_);
      impl_.queue_step_part(WaveImpl::StepPart::bulk);
      nccl_link::queue_wait_for_planes(stream);
      impl_.queue_step_part(WaveImpl::StepPart::edges);
      impl_.advance_queued_step();
      nccl_link::queue_step_end(stream);  // waits for the step before
    });
    return;
  }
  timed(mpi_seconds_, [&] { nccl_link::start(send_lo, send_hi, recv_lo, recv_hi, plane_); });
  if (!impl_.can_split_step()) {
    timed(mpi_seconds_, [&] { nccl_link::finish(); });
    timed(step_seconds_, [&] { impl_.run(1); });
    return;
  }
  timed(step_seconds_, [&] { impl_.queue_step_part(WaveImpl::StepPart::bulk); });  // at once on a GPU stream
  timed(mpi_seconds_, [&] { nccl_link::finish(); });  // what the exchange added beyond queueing the bulk
  timed(step_seconds_, [&] {
    impl_.queue_step_part(WaveImpl::StepPart::edges);
    impl_.finish_step();
  });
}

void HaloExchange::step() {
  planted_stall();
  ++exchanges_;
  if (gpu_to_gpu_) return step_gpu_to_gpu();
  copy_out();
  timed(mpi_seconds_,
        [&] { group_.start_exchange(send_lo_.get(), send_hi_.get(), recv_lo_.get(), recv_hi_.get(), plane_); });
  if (!impl_.can_split_step()) {
    timed(mpi_seconds_, [&] { group_.finish_exchange(settings_.timeout_seconds); });
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
        group_.finish_exchange(settings_.timeout_seconds);
      } catch (...) {
        failure = std::current_exception();
      }
    });
    timed(step_seconds_, [&] { impl_.queue_step_part(WaveImpl::StepPart::bulk); });
    timed(mpi_seconds_, [&] { mpi.join(); });  // what the exchange added beyond the bulk
    if (failure) std::rethrow_exception(failure);
  } else {
    timed(step_seconds_, [&] { impl_.queue_step_part(WaveImpl::StepPart::bulk); });   // at once on a GPU
    timed(mpi_seconds_, [&] { group_.finish_exchange(settings_.timeout_seconds); });  // while the bulk computes
  }
  timed(step_seconds_, [&] { impl_.wait_for_step_parts(); });  // the rest of the bulk: step, not copy
  copy_in();
  timed(step_seconds_, [&] {
    impl_.queue_step_part(WaveImpl::StepPart::edges);
    impl_.finish_step();
  });
}

}  // namespace awave
