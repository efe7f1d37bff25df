#include "wave_impl.hpp"

#include "tuning.hpp"

#include <algorithm>
#include <cmath>

namespace awave {

std::optional<NonFinite> find_non_finite(const PaddedGeometry& g, long step, const double* now, const double* prev) {
  const std::size_t n = g.size();
  for (const auto& [field, values] : {std::pair{"u", now}, std::pair{"u_prev", prev}}) {
    const double* bad = std::find_if(values, values + n, [](double x) { return !std::isfinite(x); });
    if (bad == values + n) continue;
    const std::size_t p = std::size_t(bad - values);
    return NonFinite{step, field, int(p / g.stride_i()), int(p % g.stride_i() / g.stride_j()), int(p % g.stride_j()),
                     *bad};
  }
  return std::nullopt;
}

void WaveImpl::copy_back() {
  const std::size_t n = problem_.geometry().size();
  h_now_.resize(n);
  h_prev_.resize(n);
  copy_u_to_host(h_now_.data(), h_prev_.data());
  if (!non_finite_) non_finite_ = find_non_finite(problem_.geometry(), time_step(), h_now_.data(), h_prev_.data());
}

WaveImpl::HostBuffer WaveImpl::host_buffer(std::size_t n) {
  if (!test_fault("NO_PINNED_MEMORY"))  // the tests' stand-in for a host whose pinned memory ran out
    if (std::shared_ptr<double> pinned = pinned_buffer(n)) return {pinned, true};
  return {std::shared_ptr<double>(new double[n], std::default_delete<double[]>()), false};
}

const std::vector<double>& WaveImpl::now_on_host() {
  copy_back();
  return h_now_;
}

}  // namespace awave
