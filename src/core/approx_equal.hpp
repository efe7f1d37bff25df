// The point-by-point check of an implementation against the CPU reference (docs/model.md).
#pragma once

#include <cstddef>

namespace awave {

inline constexpr double kCheckTolerance = 1e-8;

// approxEq(a, b, tol): exact equality passes; near zero (either is 0, or |a|+|b| below the
// smallest normal double) pass when |a-b| < tol * smallest_normal; otherwise pass when the
// relative difference |a-b| / min(|a|+|b|, DBL_MAX) < tol. NaN never passes.
bool approx_equal(double a, double b, double tol = kCheckTolerance);

// Number of points i in [0, n) where approx_equal(a[i], b[i], tol) fails.
std::size_t count_differences(const double* a, const double* b, std::size_t n, double tol = kCheckTolerance);

// The whole comparison of a field with the reference's: bitwise first (the promise: every
// implementation computes the reference's operations in its order), then the spec's rule.
struct FieldComparison {
  std::size_t points = 0;
  std::size_t bitwise_differences = 0;   // points whose bits differ (0.0 and -0.0 differ; NaN too)
  std::size_t differences = 0;           // points failing approx_equal (the spec's PASS/FAIL)
  double max_relative_difference = 0.0;  // max |a-b| / min(|a|+|b|, DBL_MAX); +inf where NaN meets a number
  bool bitwise() const { return bitwise_differences == 0; }
  // Sums the counts and takes the larger maximum: the comparison of the two parts together.
  FieldComparison& operator+=(const FieldComparison& other);
};
FieldComparison compare_fields(const double* a, const double* b, std::size_t n, double tol = kCheckTolerance);

}  // namespace awave
