#include "wave_impl.hpp"

#include "vtkhdf.hpp"

#include <algorithm>
#include <cmath>

namespace awave {

void WaveImpl::copy_back() {
  const std::size_t n = problem_.geometry().size();
  h_now_.resize(n);
  h_prev_.resize(n);
  copy_u_to_host(h_now_.data(), h_prev_.data());
  if (non_finite_) return;  // the first one is what is reported
  for (const auto& [field, values] : {std::pair{"u", &h_now_}, std::pair{"u_prev", &h_prev_}}) {
    const auto bad = std::find_if(values->begin(), values->end(), [](double x) { return !std::isfinite(x); });
    if (bad == values->end()) continue;
    const PaddedGeometry g = problem_.geometry();
    const std::size_t p = std::size_t(bad - values->begin());
    non_finite_ = NonFinite{time_step(),           field, int(p / g.stride_i()), int(p % g.stride_i() / g.stride_j()),
                            int(p % g.stride_j()), *bad};
    return;
  }
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
