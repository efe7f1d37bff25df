// Hand OpenMP offload's march over padded fields, for its target regions (omp/wave_omp.cpp) and the
// kernel-shape study that chose them (bench/studies/omp-stencil-shapes), which includes it instead
// of a copy. Passed to a region by value (firstprivate): device pointers and sizes.
#pragma once

#include "core/pointer_fields.hpp"
#include "core/sponge.hpp"
#include "core/wave_update.hpp"

namespace awave {

struct OmpMarch : PointerFields {
  // March i over [i_begin, i_end) at (j, k), keeping `now` at i-1, i, i+1 in registers; damped
  // where (i, j) is in a sponge layer. Its own loop, not core/register_march.hpp's: through the
  // template clang allocates 84-87 registers against 71-76 here and the step ran 4% slower at
  // 1000^3 (H100, bench/results/h100-2026-11-25/march-once).
  void march(int i_begin, int i_end, int j, int k) const {
    const double cs2 = cs2_k[k];
    const bool y_sponge = sponge::in_layer(j, ny);
    long c = at(i_begin, j, k);
    double xm = now[c - si], centre = now[c];
    for (int i = i_begin; i < i_end; ++i, c += si) {
      const double xp = now[c + si];
      const Stencil7 s{centre, xm, xp, now[c - sj], now[c + sj], now[c - 1], now[c + 1]};
      if (y_sponge || sponge::in_layer(i, nx))
        next[c] = next_value(s, prev[c], cs2, damp(i, j), f, dt);
      else
        next[c] = undamped_next(s, prev[c], cs2, f);
      xm = centre;
      centre = xp;
    }
  }
};

}  // namespace awave
