#include "approx_equal.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
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

namespace {
std::uint64_t bits_of(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
}  // namespace

FieldComparison& FieldComparison::operator+=(const FieldComparison& other) {
  points += other.points;
  bitwise_differences += other.bitwise_differences;
  differences += other.differences;
  max_relative_difference = std::max(max_relative_difference, other.max_relative_difference);
  return *this;
}

FieldComparison compare_fields(const double* a, const double* b, std::size_t n, double tol) {
  FieldComparison c;
  c.points = n;
  for (std::size_t i = 0; i < n; ++i) {
    if (bits_of(a[i]) == bits_of(b[i])) continue;
    ++c.bitwise_differences;
    c.differences += approx_equal(a[i], b[i], tol) ? 0 : 1;
    const double diff = std::fabs(a[i] - b[i]);
    const double norm = std::min(std::fabs(a[i]) + std::fabs(b[i]), std::numeric_limits<double>::max());
    const double rel = std::isnan(diff) ? std::numeric_limits<double>::infinity() : norm > 0 ? diff / norm : 0.0;
    c.max_relative_difference = std::max(c.max_relative_difference, rel);
  }
  return c;
}

}  // namespace awave
