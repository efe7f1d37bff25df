// The one update formula of awave (docs/model.md, "Update"), shared by the CPU
// reference and every parallel implementation (CUDA, OpenMP offload, Kokkos on any backend).
// Backends differ in how they map points to threads, never in this arithmetic.
#pragma once

#if defined(__CUDACC__) || defined(__HIPCC__)
#define AWAVE_HOST_DEVICE __host__ __device__
#else
#define AWAVE_HOST_DEVICE
#endif

namespace awave {

// The centre value of `now` and its six face neighbours, in the reference's summation order.
struct Stencil7 {
  double centre;
  double xm, xp, ym, yp, zm, zp;
};

// The seven values around padded index c of a field whose i and j strides are si and sj (k
// contiguous): what every implementation that reads the field directly gathers (the register
// marches keep some of them in registers instead).
AWAVE_HOST_DEVICE inline Stencil7 gather_stencil(const double* __restrict__ now, long c, long si, long sj) {
  return {now[c], now[c - si], now[c + si], now[c - sj], now[c + sj], now[c - 1], now[c + 1]};
}

// f * cs2 * (7-point Laplacian numerator), with f = dt^2/dx^2.
AWAVE_HOST_DEVICE inline double stencil_value(const Stencil7& s, double cs2, double f) {
  return f * cs2 * (s.xm + s.xp + s.ym + s.yp + s.zm + s.zp - 6.0 * s.centre);
}

// Next value where damp == 0 (the whole interior region: no damp read, no branch).
AWAVE_HOST_DEVICE inline double undamped_next(const Stencil7& s, double prev, double cs2, double f) {
  return 2.0 * s.centre - prev + stencil_value(s, cs2, f);
}

// Next value for any point, as the reference computes it: the damped form where damp != 0.
AWAVE_HOST_DEVICE inline double next_value(const Stencil7& s, double prev, double cs2, double damp, double f,
                                           double dt) {
  const double value = stencil_value(s, cs2, f);
  if (damp == 0.0) return 2.0 * s.centre - prev + value;
  const double inv = 1.0 / (1.0 + damp * dt);
  const double num = 1.0 - damp * dt;
  return 2.0 * inv * s.centre - num * inv * prev + value * inv;
}

}  // namespace awave
