// The point-by-point check of an implementation against the CPU reference (SPEC.md).
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

}  // namespace awave
