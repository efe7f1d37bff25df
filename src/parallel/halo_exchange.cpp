#include "parallel/halo_exchange.hpp"

#include "core/tuning.hpp"

#include "parallel/nccl_link.hpp"

#include <chrono>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>

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
    : impl_(impl),
      group_(group),
      slab_(problem.slab()),
      own0_(problem.slab().own_padded_plane0()),
      plane_(problem.geometry().stride_i()),
      settings_(settings) {
  if (!group.distributed()) return;
  description_ = "through host memory and MPI";
  const bool sweeps = impl.plan().steps_per_sweep > 1;
  // Only implementations whose fields are in CUDA device memory can send GPU to GPU.
  DeviceFields* const device = impl.device_fields();
  if (const double* fields = device ? device->plane_on_device(TimeLevel::now, 0) : nullptr;
      fields && settings.path != HaloPath::mpi) {
    std::optional<std::string> why = nccl_link::unavailable(group);
    if (!why) {
      try {
        nccl_link::open(group, fields, settings.timeout_seconds);
        gpu_to_gpu_ = true;
        StreamOrderedSteps* const stream = impl.stream_ordered_steps();
        // (A sweep's exchange is ordered by the host: its steps are not split.)
        gpu_ordered_ =
            stream && stream->device_queue().has_value() && impl.split_step() && !sweeps && gpu_ordering_enabled();
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
  const std::size_t values =
      plane_ * (sweeps ? HaloDepth::sweep(impl.plan().steps_per_sweep) : HaloDepth::step()).planes();
  if (!slab_.first()) {
    send_lo_ = impl.host_buffer(values).data;
    recv_lo_ = impl.host_buffer(values).data;
  }
  if (!slab_.last()) {
    send_hi_ = impl.host_buffer(values).data;
    recv_hi_ = impl.host_buffer(values).data;
  }
}

// Own planes [own0, own0 + nx): a block leaves from each end and comes in just beyond it (the
// ghost plane, or the neighbour's planes the slab recomputes).
HaloExchange::BlockPlanes HaloExchange::block_planes(int planes) const {
  return {own0_, own0_ + slab_.nx - planes, own0_ - planes, own0_ + slab_.nx};
}

// Each level's block of the exchange under way, in the order they travel: its level, planes, first
// padded planes, and where its values start in a host buffer (u(t) then u(t-1): one message a side).
template <class Visit>
void HaloExchange::for_each_block(Visit visit) const {
  std::size_t at = 0;
  for (const auto& [level, planes] : depth_.blocks()) {
    if (!planes) continue;
    visit(level, planes, block_planes(planes), at);
    at += planes * plane_;
  }
}

void HaloExchange::copy_out() {
  add_time(copy_seconds_, [&] {
    for_each_block([&](TimeLevel level, int planes, const BlockPlanes& b, std::size_t at) {
      if (send_lo_) impl_.copy_planes_to_host(level, b.send_lo, planes, send_lo_.get() + at);
      if (send_hi_) impl_.copy_planes_to_host(level, b.send_hi, planes, send_hi_.get() + at);
    });
  });
}

void HaloExchange::copy_in() {
  add_time(copy_seconds_, [&] {
    for_each_block([&](TimeLevel level, int planes, const BlockPlanes& b, std::size_t at) {
      if (recv_lo_) impl_.copy_host_to_planes(level, b.recv_lo, planes, recv_lo_.get() + at);
      if (recv_hi_) impl_.copy_host_to_planes(level, b.recv_hi, planes, recv_hi_.get() + at);
    });
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

std::vector<nccl_link::PlaneBlock> HaloExchange::device_blocks() const {
  DeviceFields& device = *impl_.device_fields();  // (gpu_to_gpu_: it has them)
  std::vector<nccl_link::PlaneBlock> blocks;
  for_each_block([&](TimeLevel level, int planes, const BlockPlanes& b, std::size_t) {
    const auto at = [&](bool face, int pi) { return face ? nullptr : device.plane_on_device(level, pi); };
    blocks.push_back({at(slab_.first(), b.send_lo), at(slab_.last(), b.send_hi), at(slab_.first(), b.recv_lo),
                      at(slab_.last(), b.recv_hi), planes * plane_});
  });
  return blocks;
}

void HaloExchange::send(HaloDepth depth) {
  planted_stall();
  depth_ = depth;
  if (gpu_to_gpu_) {
    const std::vector<nccl_link::PlaneBlock> blocks = device_blocks();
    add_time(mpi_seconds_, [&] { nccl_link::start(blocks); });
    return;
  }
  copy_out();
  add_time(mpi_seconds_, [&] {
    group_.start_exchange(send_lo_.get(), send_hi_.get(), recv_lo_.get(), recv_hi_.get(), depth.planes() * plane_);
  });
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
  depth_ = HaloDepth::step();
  nccl_link::queue_exchange(stream, device_blocks());
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
