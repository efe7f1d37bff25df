#include "parallel/halo_exchange.hpp"

#include "core/tuning.hpp"

#include "parallel/nccl_link.hpp"

#include <chrono>
#include <cstdlib>
#include <optional>
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
  DeviceFields* const device = impl.device_fields();
  if (const double* fields = device ? device->now_plane_on_device(0) : nullptr; fields && settings.path != HaloPath::mpi) {
    std::optional<std::string> why = nccl_link::unavailable(group);
    if (!why) {
      try {
        nccl_link::open(group, fields, settings.timeout_seconds);
        gpu_to_gpu_ = true;
        StreamOrderedSteps* const stream = impl.stream_ordered_steps();
        gpu_ordered_ = stream && stream->cuda_stream().has_value() && impl.split_step() && gpu_ordering_enabled();
        waited_on_gpu_at_open_ = nccl_link::exposed_seconds();
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
    send_lo_ = impl.host_buffer(plane_).data;
    recv_lo_ = impl.host_buffer(plane_).data;
  }
  if (!slab_.last()) {
    send_hi_ = impl.host_buffer(plane_).data;
    recv_hi_ = impl.host_buffer(plane_).data;
  }
}

// Padded planes 1..nx are the slab's own; 0 and nx+1 are its ghosts.
void HaloExchange::copy_out() {
  add_time(copy_seconds_, [&] {
    if (send_lo_) impl_.copy_now_plane_to_host(1, send_lo_.get());
    if (send_hi_) impl_.copy_now_plane_to_host(slab_.nx, send_hi_.get());
  });
}

void HaloExchange::copy_in() {
  add_time(copy_seconds_, [&] {
    if (recv_lo_) impl_.copy_host_to_now_plane(0, recv_lo_.get());
    if (recv_hi_) impl_.copy_host_to_now_plane(slab_.nx + 1, recv_hi_.get());
  });
}

// A planted fault for the tests (AWAVE_TEST_FAULT_STALL_HALO=RANK): that process stops before its
// second exchange, as a hung or stopped process would, and its neighbours must time out.
void HaloExchange::planted_stall() {
  static const std::optional<std::string> stalled = test_fault("STALL_HALO");
  if (stalled && std::atoi(stalled->c_str()) == group_.rank() && exchanges_ == 1)
    std::this_thread::sleep_for(std::chrono::duration<double>(10 * settings_.timeout_seconds + 10));
  ++exchanges_;
}

HaloExchange::DevicePlanes HaloExchange::device_planes() const {
  DeviceFields& device = *impl_.device_fields();  // (gpu_to_gpu_: it has them)
  const auto plane = [&](int pi) { return device.now_plane_on_device(pi); };
  return {slab_.first() ? nullptr : plane(1), slab_.last() ? nullptr : plane(slab_.nx),
          slab_.first() ? nullptr : plane(0), slab_.last() ? nullptr : plane(slab_.nx + 1)};
}

void HaloExchange::send() {
  planted_stall();
  if (gpu_to_gpu_) {
    const DevicePlanes p = device_planes();
    add_time(mpi_seconds_, [&] { nccl_link::start(p.send_lo, p.send_hi, p.recv_lo, p.recv_hi, plane_); });
    return;
  }
  copy_out();
  add_time(mpi_seconds_,
           [&] { group_.start_exchange(send_lo_.get(), send_hi_.get(), recv_lo_.get(), recv_hi_.get(), plane_); });
}

void HaloExchange::receive() {
  if (gpu_to_gpu_)
    add_time(mpi_seconds_, [&] { nccl_link::finish(); });
  else
    add_time(mpi_seconds_, [&] { group_.finish_exchange(settings_.timeout_seconds); });
}

// MPI waits on a second thread where the library allows it: that overlaps the exchange with the
// bulk also where the implementation computes synchronously (OpenMP offload's target regions,
// host Kokkos). NCCL's wait needs no thread: its GPU implementations queue the bulk at once.
bool HaloExchange::receive_on_thread() const {
  return !gpu_to_gpu_ && group_.threads_ok();
}

void HaloExchange::queue_send_receive(void* stream) {
  planted_stall();
  const DevicePlanes p = device_planes();
  nccl_link::queue_exchange(stream, p.send_lo, p.send_hi, p.recv_lo, p.recv_hi, plane_);
}
void HaloExchange::queue_wait_for_planes(void* stream) {
  nccl_link::queue_wait_for_planes(stream);
}
void HaloExchange::queue_step_end(void* stream) {
  nccl_link::queue_step_end(stream);
}
void HaloExchange::wait_for_queued_steps() {
  nccl_link::wait_for_queued_steps();
}
double HaloExchange::waited_on_gpu_seconds() const {
  return gpu_ordered_ ? nccl_link::exposed_seconds() - waited_on_gpu_at_open_ : 0.0;
}

}  // namespace awave
