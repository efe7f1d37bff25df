#include "wave_impl.hpp"

#include "vtkhdf.hpp"

namespace awave {

void WaveImpl::copy_back() {
  const std::size_t n = problem_.geometry().size();
  h_now_.resize(n);
  h_prev_.resize(n);
  copy_u_to_host(h_now_.data(), h_prev_.data());
}

void WaveImpl::append_u_fields(VtkHdfWriter& out) {
  copy_back();
  out.append_u(time_step(), h_now_.data(), h_prev_.data());
}

const std::vector<double>& WaveImpl::now_on_host() {
  copy_back();
  return h_now_;
}

}  // namespace awave
