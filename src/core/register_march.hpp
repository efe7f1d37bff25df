// The register-window march, written once for the GPU implementations (hand CUDA and the tuned
// Kokkos; hand OpenMP offload keeps its own, see omp/wave_omp.cpp): a work item updates i in
// [i_begin, i_end) at one (j, k) column, keeping `now` at i-1, i, i+1 in registers, so each
// value of `now` is loaded once per step. The arithmetic is the shared formula (wave_update.hpp);
// the caller says how the three time levels are addressed (Levels) and whether the column may
// meet a sponge layer (Sponge).
#pragma once

#include "core/sponge.hpp"
#include "core/wave_update.hpp"

namespace awave {

// The three levels through one padded offset (they share one layout, k contiguous). Args has
// next, now, prev and the padded strides si, sj; restrict where the caller declares them so.
template <class Args>
struct FlatLevels {
  using Index = long;
  const Args& a;
  AWAVE_HOST_DEVICE double now(long c, int di, int dj, int dk) const { return a.now[c + di * a.si + dj * a.sj + dk]; }
  AWAVE_HOST_DEVICE double prev(long c) const { return a.prev[c]; }
  AWAVE_HOST_DEVICE void store(long c, double value) const { a.next[c] = value; }
  AWAVE_HOST_DEVICE void next_plane(long& c) const { c += a.si; }
};

// A column in no sponge layer: the undamped update everywhere, no damp read, no branch.
struct Undamped {
  static constexpr bool may_damp = false;
};

// A column that may meet a layer: damped where (i, j) is in one, as the reference computes it.
struct ColumnSponge {
  static constexpr bool may_damp = true;
  bool y_layer;          // j is in a y layer: every point of the column is damped
  int nx;
  const double* damp_j;  // damp at (i, j): damp_j[i * damp_si]
  long damp_si;
  double dt;
  // The column at j of a grid nx x ny whose damp (i, j) is damp_ij[i * damp_si + j].
  AWAVE_HOST_DEVICE static ColumnSponge at(int j, int nx, int ny, const double* damp_ij, long damp_si, double dt) {
    return {sponge::in_layer(j, ny), nx, damp_ij + j, damp_si, dt};
  }
  AWAVE_HOST_DEVICE bool damped(int i) const { return y_layer || sponge::in_layer(i, nx); }
  AWAVE_HOST_DEVICE double damp(int i) const { return damp_j[i * damp_si]; }
};

// What is stored is what was computed (a benchmark passes its own to plant an error).
struct StoreAsComputed {
  AWAVE_HOST_DEVICE double operator()(int, double value) const { return value; }
};

// March i over [i_begin, i_end) from c, the point (i_begin, j, k); cs2 is c^2 at depth k.
// No unroll pragma: nvcc unrolls by 4 itself (hand CUDA's PTX as with the `unroll 4` it had),
// and the pragma cost Kokkos-CUDA 8 registers (bench/results/h100-2026-11-25/march-once).
template <class Levels, class Sponge, class Store = StoreAsComputed>
AWAVE_HOST_DEVICE inline void register_march(const Levels& u, typename Levels::Index c, int i_begin, int i_end,
                                             double cs2, double f, const Sponge& sponge, Store store = {}) {
  double xm = u.now(c, -1, 0, 0), centre = u.now(c, 0, 0, 0);
  for (int i = i_begin; i < i_end; ++i, u.next_plane(c)) {
    const double xp = u.now(c, 1, 0, 0);
    const Stencil7 s{centre, xm, xp, u.now(c, 0, -1, 0), u.now(c, 0, 1, 0), u.now(c, 0, 0, -1), u.now(c, 0, 0, 1)};
    if constexpr (Sponge::may_damp) {
      if (sponge.damped(i))
        u.store(c, store(i, next_value(s, u.prev(c), cs2, sponge.damp(i), f, sponge.dt)));
      else
        u.store(c, store(i, undamped_next(s, u.prev(c), cs2, f)));
    } else {
      u.store(c, store(i, undamped_next(s, u.prev(c), cs2, f)));
    }
    xm = centre;
    centre = xp;
  }
}

}  // namespace awave
