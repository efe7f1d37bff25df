// The idiomatic Kokkos form, as the kokkos-tutorials' heat-conduction exercise writes a
// stencil: one point per work item, one labelled MDRangePolicy<Rank<3>> kernel per region (the
// undamped interior, the x sponge layers, the y sponge layers), Views indexed u(i, j, k). The
// same source for every backend; the only per-backend choices are the policy's axis order and
// tile (kokkos_policy.hpp, IdiomaticPolicy). Small grids take one kernel over every point
// (core/step_plan.hpp).
#pragma once

#include "kokkos/kokkos_launch.hpp"
#include "kokkos/kokkos_policy.hpp"
#include "kokkos/step_fields.hpp"

#include <array>
#include <utility>

namespace awave {

namespace idiomatic_regions {
struct Interior {};   // bulk i and j: damp is 0, the undamped update
struct XLayers {};    // the 2*nbl x layers, every j (corners included)
struct YLayers {};    // the 2*nbl y layers, bulk i
struct AllPoints {};  // every point (small grids)
}  // namespace idiomatic_regions

template <class ExecSpace, class Policy = IdiomaticPolicy<ExecSpace>>
struct IdiomaticStep : StepFields<typename ExecSpace::memory_space> {
  using execution_space = ExecSpace;
  static constexpr bool may_sweep = false;  // the tutorial's form: single steps everywhere
  using Fields = StepFields<typename ExecSpace::memory_space>;
  using Fields::damped_update, Fields::undamped_update, Fields::update, Fields::nx, Fields::ny, Fields::nz;

  bool k_fast = Policy::k_first;           // policy axes (k, j, i) instead of (i, j, k)
  std::array<int, 3> tile = Policy::tile;  // in the policy's axis order

  KOKKOS_INLINE_FUNCTION void to_ijk(int a0, int a1, int a2, int& i, int& j, int& k) const {
    i = k_fast ? a2 : a0;
    j = a1;
    k = k_fast ? a0 : a2;
  }

  KOKKOS_INLINE_FUNCTION void operator()(idiomatic_regions::Interior, int a0, int a1, int a2) const {
    int i, j, k;
    to_ijk(a0, a1, a2, i, j, k);
    undamped_update(i, j, k);
  }
  KOKKOS_INLINE_FUNCTION void operator()(idiomatic_regions::XLayers, int a0, int a1, int a2) const {
    int layer, j, k;  // layer 0..2*nbl-1, the low face's first
    to_ijk(a0, a1, a2, layer, j, k);
    damped_update(sponge::layer_index(layer, nx), j, k);
  }
  KOKKOS_INLINE_FUNCTION void operator()(idiomatic_regions::YLayers, int a0, int a1, int a2) const {
    int i, layer, k;
    to_ijk(a0, a1, a2, i, layer, k);
    damped_update(i, sponge::layer_index(layer, ny), k);
  }
  KOKKOS_INLINE_FUNCTION void operator()(idiomatic_regions::AllPoints, int a0, int a1, int a2) const {
    int i, j, k;
    to_ijk(a0, a1, a2, i, j, k);
    update(i, j, k);
  }

  static KokkosLaunch resolve_launch(std::size_t /*plane_bytes*/) { return KokkosLaunch::idiomatic<Policy>(); }

  // Queues the kernels of one step (or of its MPI part) on exec.
  void launch(const ExecSpace& exec, StepRegion scope, bool fused, const KokkosLaunch& settings) const {
    IdiomaticStep step = *this;
    step.k_fast = settings.k_first;
    step.tile = settings.tile;
    const int nbl = sponge::kLayers, bulk_i = sponge::bulk_end(nx), bulk_j = sponge::bulk_end(ny);
    if (fused) {
      Kokkos::parallel_for("wave::all_points",
                           step.template region<idiomatic_regions::AllPoints>(exec, {0, 0, 0}, {nx, ny, nz}), step);
      return;
    }
    if (scope != StepRegion::edges)
      Kokkos::parallel_for(
          "wave::interior",
          step.template region<idiomatic_regions::Interior>(exec, {nbl, nbl, 0}, {bulk_i, bulk_j, nz}), step);
    if (scope != StepRegion::bulk)
      Kokkos::parallel_for("wave::x_layers",
                           step.template region<idiomatic_regions::XLayers>(exec, {0, 0, 0}, {2 * nbl, ny, nz}), step);
    if (scope != StepRegion::edges)
      Kokkos::parallel_for("wave::y_layers",
                           step.template region<idiomatic_regions::YLayers>(exec, {nbl, 0, 0}, {bulk_i, 2 * nbl, nz}),
                           step);
  }

  // The region [lo, hi) given as (i, j, k), in the policy's axis order, with the policy's tile.
  template <class Region>
  Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Policy::iterate, Policy::iterate>, Region> region(
      const ExecSpace& exec, std::array<int, 3> lo, std::array<int, 3> hi) const {
    if (k_fast) {
      std::swap(lo[0], lo[2]);
      std::swap(hi[0], hi[2]);
    }
    return {exec, {lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}, {tile[0], tile[1], tile[2]}};
  }
};

}  // namespace awave
