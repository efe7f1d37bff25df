// What both Kokkos forms' kernels read and write: the three time levels as LayoutRight Views
// (k contiguous, padded by one ghost layer, as the CPU reference stores them), the per-depth
// c^2 and per-column damping, and the update of one interior point (i, j, k) through the shared
// formula (core/wave_update.hpp). A kernel functor derives from it and adds only how it maps
// points to work items (idiomatic_step.hpp, tuned_step.hpp).
#pragma once

#include "core/optional_capabilities.hpp"  // StepRegion

#include "core/sponge.hpp"
#include "core/wave_update.hpp"

#include <Kokkos_Core.hpp>

namespace awave {

template <class MemSpace>
struct StepFields {
  using Field = Kokkos::View<double***, Kokkos::LayoutRight, MemSpace>;
  using ConstField = Kokkos::View<const double***, Kokkos::LayoutRight, MemSpace>;

  Field u_next;
  ConstField u_now, u_prev;
  Kokkos::View<const double*, MemSpace> cs2_k;
  Kokkos::View<const double**, Kokkos::LayoutRight, MemSpace> damp_ij;
  double f, dt;
  int nx, ny, nz;

  // The neighbours of interior point (i, j, k), at padded (i+1, j+1, k+1).
  KOKKOS_INLINE_FUNCTION Stencil7 stencil(int i, int j, int k) const {
    const int pi = i + 1, pj = j + 1, pk = k + 1;
    return {u_now(pi, pj, pk),     u_now(pi - 1, pj, pk), u_now(pi + 1, pj, pk), u_now(pi, pj - 1, pk),
            u_now(pi, pj + 1, pk), u_now(pi, pj, pk - 1), u_now(pi, pj, pk + 1)};
  }
  KOKKOS_INLINE_FUNCTION void undamped_update(int i, int j, int k) const {
    u_next(i + 1, j + 1, k + 1) = undamped_next(stencil(i, j, k), u_prev(i + 1, j + 1, k + 1), cs2_k(k), f);
  }
  KOKKOS_INLINE_FUNCTION void damped_update(int i, int j, int k) const {
    u_next(i + 1, j + 1, k + 1) =
        next_value(stencil(i, j, k), u_prev(i + 1, j + 1, k + 1), cs2_k(k), damp_ij(i, j), f, dt);
  }
  // Any point: damped in a sponge layer, undamped elsewhere (the reference's arithmetic).
  KOKKOS_INLINE_FUNCTION void update(int i, int j, int k) const {
    if (sponge::damped(i, j, nx, ny))
      damped_update(i, j, k);
    else
      undamped_update(i, j, k);
  }
};

}  // namespace awave
