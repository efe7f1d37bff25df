#include "wave_impl.hpp"

#include "tuning.hpp"

#include <algorithm>
#include <cmath>

namespace awave {

namespace {

// Index of the first value that is not finite, or n; on host threads (the writer thread scans
// every snapshot, and a GPU run leaves the host's cores idle).
template <class T>
std::size_t first_non_finite_of(const T* values, std::size_t n) {
  std::size_t first = n;
#pragma omp parallel for reduction(min : first) schedule(static)
  for (std::size_t p = 0; p < n; ++p)
    if (!std::isfinite(values[p]) && p < first) first = p;
  return first;
}

template <class T>
std::optional<NonFinite> non_finite_at(const PaddedGeometry& g, long step, const char* field, const T* values) {
  const std::size_t p = first_non_finite_of(values, g.size());
  if (p == g.size()) return std::nullopt;
  return NonFinite{step,
                   field,
                   int(p / g.stride_i()),
                   int(p % g.stride_i() / g.stride_j()),
                   int(p % g.stride_j()),
                   double(values[p])};
}

}  // namespace

std::size_t first_non_finite_value(const double* values, std::size_t n) { return first_non_finite_of(values, n); }

std::optional<NonFinite> find_non_finite(const PaddedGeometry& g, long step, const double* now, const double* prev) {
  if (auto bad = non_finite_at(g, step, "u", now)) return bad;
  return prev ? non_finite_at(g, step, "u_prev", prev) : std::nullopt;
}

std::optional<NonFinite> find_non_finite(const PaddedGeometry& g, long step, const float* now) {
  return non_finite_at(g, step, "u", now);
}

void WaveImpl::copy_now_to_host_single(float* h_now) {
  const std::size_t n = problem_.geometry().size();
  h_now_.resize(n);
  copy_u_to_host(h_now_.data(), nullptr);
#pragma omp parallel for schedule(static)
  for (std::size_t p = 0; p < n; ++p) h_now[p] = float(h_now_[p]);
}

void WaveImpl::copy_back() {
  const std::size_t n = problem_.geometry().size();
  h_now_.resize(n);
  h_prev_.resize(n);
  copy_u_to_host(h_now_.data(), h_prev_.data());
  if (!non_finite_) non_finite_ = find_non_finite(problem_.geometry(), time_step(), h_now_.data(), h_prev_.data());
}

WaveImpl::HostBuffer WaveImpl::host_buffer(std::size_t n) {
  auto* memory = dynamic_cast<PinnedHostMemory*>(this);
  if (memory && !test_fault("NO_PINNED_MEMORY"))  // the tests' stand-in for a host whose pinned memory ran out
    if (std::shared_ptr<double> pinned = memory->pinned_buffer(n)) return {pinned, true};
  return {std::shared_ptr<double>(new double[n], std::default_delete<double[]>()), false};
}

const HostField& WaveImpl::now_on_host() {
  copy_back();
  return h_now_;
}

}  // namespace awave
