#include "approx_equal.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace awave {

bool approx_equal(double a, double b, double tol) {
  if (a == b) return true;
  const double smallest_normal = std::numeric_limits<double>::min();
  const double diff = std::fabs(a - b);
  const double norm = std::fabs(a) + std::fabs(b);
  if (a == 0.0 || b == 0.0 || norm < smallest_normal) return diff < tol * smallest_normal;
  return diff / std::min(norm, std::numeric_limits<double>::max()) < tol;
}

std::size_t count_differences(const double* a, const double* b, std::size_t n, double tol) {
  std::size_t differing = 0;
  for (std::size_t i = 0; i < n; ++i) differing += approx_equal(a[i], b[i], tol) ? 0 : 1;
  return differing;
}

}  // namespace awave
