// Hand OpenMP offload's point arithmetic over padded fields, for its target regions (omp/wave_omp.cpp)
// and the kernel-shape study that chose them (bench/studies/omp-stencil-shapes), which includes
// it instead of a copy. Passed to a region by value (firstprivate): device pointers and sizes.
#pragma once

#include "core/step_plan.hpp"  // in_sponge
#include "core/wave_params.hpp"
#include "core/wave_update.hpp"

namespace awave {

struct OmpMarch {
  double* next;
  const double *now, *prev, *cs2_k, *damp_ij;
  double f, dt;
  int nx, ny, nz;
  long si, sj;  // padded strides of i and j

  long at(int i, int j, int k) const { return (long(i + 1) * (ny + 2) + (j + 1)) * long(nz + 2) + (k + 1); }
  Stencil7 stencil(long c) const { return gather_stencil(now, c, si, sj); }
  // A sponge-layer point.
  void damped(int i, int j, int k) const {
    const long c = at(i, j, k);
    next[c] = next_value(stencil(c), prev[c], cs2_k[k], damp_ij[long(i) * ny + j], f, dt);
  }
  // Any point (fused steps).
  void any_point(int i, int j, int k) const {
    if (in_sponge(i, j, nx, ny)) return damped(i, j, k);
    const long c = at(i, j, k);
    next[c] = undamped_next(stencil(c), prev[c], cs2_k[k], f);
  }
  // March i over [i_begin, i_end) at (j, k), keeping `now` at i-1, i, i+1 in registers; damped
  // where (i, j) is in a sponge layer. Its own loop, not core/register_march.hpp's: through the
  // template clang allocates 84-87 registers against 71-76 here and the step ran 4% slower at
  // 1000^3 (H100, bench/results/h100-2026-11-25/march-once).
  void march(int i_begin, int i_end, int j, int k) const {
    const double cs2 = cs2_k[k];
    const bool y_sponge = j < kBoundaryLayers || j >= ny - kBoundaryLayers;
    long c = at(i_begin, j, k);
    double xm = now[c - si], centre = now[c];
    for (int i = i_begin; i < i_end; ++i, c += si) {
      const double xp = now[c + si];
      const Stencil7 s{centre, xm, xp, now[c - sj], now[c + sj], now[c - 1], now[c + 1]};
      if (y_sponge || i < kBoundaryLayers || i >= nx - kBoundaryLayers)
        next[c] = next_value(s, prev[c], cs2, damp_ij[long(i) * ny + j], f, dt);
      else
        next[c] = undamped_next(s, prev[c], cs2, f);
      xm = centre;
      centre = xp;
    }
  }
};

}  // namespace awave
