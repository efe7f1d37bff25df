#include "halo_exchange.hpp"

#include <chrono>

namespace awave {

HaloExchange::HaloExchange(WaveImpl& impl, const WaveProblem& problem, const ProcessGroup& group)
    : impl_(impl), group_(group), slab_(problem.slab()), plane_(problem.geometry().stride_i()) {
  if (!slab_.first()) {
    send_lo_ = impl.halo_buffer(plane_);
    recv_lo_ = impl.halo_buffer(plane_);
  }
  if (!slab_.last()) {
    send_hi_ = impl.halo_buffer(plane_);
    recv_hi_ = impl.halo_buffer(plane_);
  }
}

void HaloExchange::exchange() {
  if (!group_.distributed()) return;
  using clock = std::chrono::steady_clock;
  auto seconds = [](clock::time_point a, clock::time_point b) { return std::chrono::duration<double>(b - a).count(); };
  const int nx = slab_.nx;  // padded planes: 1..nx are the slab's, 0 and nx+1 its ghosts
  const auto t0 = clock::now();
  if (send_lo_) impl_.copy_now_plane_to_host(1, send_lo_.get());
  if (send_hi_) impl_.copy_now_plane_to_host(nx, send_hi_.get());
  const auto t1 = clock::now();
  group_.exchange_planes(send_lo_.get(), send_hi_.get(), recv_lo_.get(), recv_hi_.get(), plane_);
  const auto t2 = clock::now();
  if (recv_lo_) impl_.copy_host_to_now_plane(0, recv_lo_.get());
  if (recv_hi_) impl_.copy_host_to_now_plane(nx + 1, recv_hi_.get());
  const auto t3 = clock::now();
  copy_seconds_ += seconds(t0, t1) + seconds(t2, t3);
  mpi_seconds_ += seconds(t1, t2);
}

}  // namespace awave
