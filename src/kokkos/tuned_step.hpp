// The tuned Kokkos form: hand-scheduled work inside Kokkos, as hand CUDA and hand OpenMP
// offload schedule theirs. On the GPU backends a step is one flat RangePolicy kernel (32-bit
// index) whose work items each march i over a segment of planes at one (j, k), keeping `now` at
// i-1, i, i+1 in registers, the sponge handled inside (over MPI: the bulk's planes, then the x
// layers). On the host backends RangePolicy kernels over (i, j) columns run the contiguous k
// loop (vectorisable): the undamped interior, the x layers (corners included), the y layers.
// Small grids: one kernel per step (core/step_plan.hpp), on the GPUs the idiomatic form's.
// The per-backend choices are TunedPolicy's (kokkos_policy.hpp).
#pragma once

#include "core/march_tiles.hpp"
#include "core/register_march.hpp"
#include "kokkos/idiomatic_step.hpp"
#include "kokkos/kokkos_policy.hpp"
#include "kokkos/step_fields.hpp"

#include <limits>
#include <stdexcept>

namespace awave {

namespace tuned_regions {
struct Marched {};         // flat work items marching i over planes [march_begin, march_end)
struct MarchedXLayers {};  // the two x layers, one march of nbl planes per work item
struct Columns {};         // (i, j) columns of the undamped interior
struct XLayerColumns {};   // columns of the x layers, every j
struct YLayerColumns {};   // columns of the y layers, bulk i
struct AllColumns {};      // every column (small grids)
}  // namespace tuned_regions

template <class ExecSpace, class Iteration = TunedPolicy<ExecSpace>>
struct TunedStep : StepFields<typename ExecSpace::memory_space> {
  using execution_space = ExecSpace;
  static constexpr bool may_sweep = true;  // takes the sweep where the backend has it (sweep_step.hpp)
  using Fields = StepFields<typename ExecSpace::memory_space>;
  using Fields::nx, Fields::ny, Fields::nz, Fields::damped_update;
  using Fields::u_next, Fields::u_now, Fields::u_prev, Fields::cs2_k, Fields::damp_ij, Fields::f, Fields::dt;

  int segment = 1;                     // planes a work item marches
  int march_begin = 0, march_end = 0;  // the planes of a Marched kernel
  MarchTiles tiles;                    // its work items' (k, j) tiles

  // The levels through one offset and now's strides: the time ring's Views share one layout
  // (one_layout, below).
  struct Pointers {
    double* next;
    const double *now, *prev;
    long si, sj;
  };
  // The levels through the Views, (padded i, j, k) a point.
  struct ViewLevels {
    struct Index {
      int i, j, k;
    };
    const TunedStep& s;
    KOKKOS_INLINE_FUNCTION double now(Index p, int di, int dj, int dk) const {
      return s.u_now(p.i + di, p.j + dj, p.k + dk);
    }
    KOKKOS_INLINE_FUNCTION double prev(Index p) const { return s.u_prev(p.i, p.j, p.k); }
    KOKKOS_INLINE_FUNCTION void store(Index p, double value) const { s.u_next(p.i, p.j, p.k) = value; }
    KOKKOS_INLINE_FUNCTION void next_plane(Index& p) const { ++p.i; }
  };

  // March i over [i_begin, i_end) at (j, k) (core/register_march.hpp). Where
  // Iteration::sponge_test_per_march, a march meeting no layer takes the undamped form. Re-time any
  // change: forms with the same loads and registers ran 9-11% slower on Kokkos-CUDA (H100,
  // bench/results/h100-2026-11-25/march-once).
  KOKKOS_INLINE_FUNCTION void march(int i_begin, int i_end, int j, int k) const {
    const int pj = j + 1, pk = k + 1;
    const bool y_layer = sponge::in_layer(j, ny);
    if (Iteration::sponge_test_per_march && !y_layer && i_begin >= sponge::kLayers && i_end <= sponge::bulk_end(nx))
      return register_march(FlatLevels<Pointers>{pointers()}, offset(i_begin + 1, pj, pk), i_begin, i_end, cs2_k(k), f,
                            Undamped{});
    const ColumnSponge column = ColumnSponge::at(j, nx, ny, damp_ij.data(), long(damp_ij.stride(0)), dt);
    if constexpr (Iteration::march_one_offset)
      register_march(FlatLevels<Pointers>{pointers()}, offset(i_begin + 1, pj, pk), i_begin, i_end, cs2_k(k), f,
                     column);
    else
      register_march(ViewLevels{*this}, {i_begin + 1, pj, pk}, i_begin, i_end, cs2_k(k), f, column);
  }
  KOKKOS_INLINE_FUNCTION Pointers pointers() const {
    return {u_next.data(), u_now.data(), u_prev.data(), long(u_now.stride(0)), long(u_now.stride(1))};
  }
  KOKKOS_INLINE_FUNCTION long offset(int pi, int pj, int pk) const {
    return pi * long(u_now.stride(0)) + pj * long(u_now.stride(1)) + pk;
  }

  // One flat 32-bit work index over (k, j) tiles, k fastest (core/march_tiles.hpp).
  KOKKOS_INLINE_FUNCTION void operator()(tuned_regions::Marched, int t) const {
    int s, j, k;
    if (!tiles.decode(t, ny, nz, s, j, k)) return;
    const int i0 = march_begin + s * segment;
    march(i0, i0 + segment < march_end ? i0 + segment : march_end, j, k);
  }

  KOKKOS_INLINE_FUNCTION void operator()(tuned_regions::MarchedXLayers, int t) const {
    const int k = t % nz, rest = t / nz, j = rest % ny;
    if (rest / ny == 0)
      march(0, sponge::kLayers, j, k);
    else
      march(sponge::bulk_end(nx), nx, j, k);
  }

  // Column c of the interior's (i, j) plane, j fastest: the k loop runs along contiguous memory
  // with unit-stride loads the compiler can vectorise.
  KOKKOS_INLINE_FUNCTION void operator()(tuned_regions::Columns, int c) const {
    const int columns_y = sponge::bulk_points(ny);
    interior_column(sponge::kLayers + c / columns_y, sponge::kLayers + c % columns_y);
  }

  KOKKOS_INLINE_FUNCTION void interior_column(int i, int j) const {
    const int pi = i + 1, pj = j + 1;
    const double* centre = &u_now(pi, pj, 0);
    const double *xm = &u_now(pi - 1, pj, 0), *xp = &u_now(pi + 1, pj, 0);
    const double *ym = &u_now(pi, pj - 1, 0), *yp = &u_now(pi, pj + 1, 0);
    const double* prev = &u_prev(pi, pj, 0);
    double* next = &u_next(pi, pj, 0);
    for (int pk = 1; pk <= nz; ++pk) {
      const Stencil7 st{centre[pk], xm[pk], xp[pk], ym[pk], yp[pk], centre[pk - 1], centre[pk + 1]};
      next[pk] = undamped_next(st, prev[pk], cs2_k(pk - 1), f);
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(tuned_regions::XLayerColumns, int c) const {
    const int i = sponge::layer_index(c / ny, nx), j = c % ny;
    for (int k = 0; k < nz; ++k) damped_update(i, j, k);
  }

  KOKKOS_INLINE_FUNCTION void operator()(tuned_regions::YLayerColumns, int c) const {
    const int layers = 2 * sponge::kLayers;
    const int i = sponge::kLayers + c / layers, j = sponge::layer_index(c % layers, ny);
    for (int k = 0; k < nz; ++k) damped_update(i, j, k);
  }

  KOKKOS_INLINE_FUNCTION void operator()(tuned_regions::AllColumns, int c) const {
    const int i = c / ny, j = c % ny;
    if (!sponge::damped(i, j, nx, ny)) return interior_column(i, j);
    for (int k = 0; k < nz; ++k) damped_update(i, j, k);
  }

  static KokkosLaunch resolve_launch(std::size_t plane_bytes) {
    return KokkosLaunch::tuned<IdiomaticPolicy<ExecSpace>, Iteration>(plane_bytes);
  }

  // Queues the kernels of one step (or of its MPI part) on exec.
  void launch(const ExecSpace& exec, StepRegion scope, bool fused, const KokkosLaunch& settings) const {
    const int nbl = sponge::kLayers, bulk_i = sponge::bulk_points(nx), bulk_j = sponge::bulk_points(ny);
    if constexpr (Iteration::k_columns) {
      if (fused) {
        Kokkos::parallel_for("wave::all_points",
                             Kokkos::RangePolicy<ExecSpace, tuned_regions::AllColumns>(exec, 0, nx * ny), *this);
        return;
      }
      if (scope != StepRegion::edges)
        Kokkos::parallel_for(
            "wave::interior",
            Kokkos::RangePolicy<ExecSpace, tuned_regions::Columns>(exec, 0, bulk_i * bulk_j), *this);
      if (scope != StepRegion::bulk)
        Kokkos::parallel_for("wave::x_layers",
                             Kokkos::RangePolicy<ExecSpace, tuned_regions::XLayerColumns>(exec, 0, 2 * nbl * ny),
                             *this);
      if (scope != StepRegion::edges)
        Kokkos::parallel_for(
            "wave::y_layers",
            Kokkos::RangePolicy<ExecSpace, tuned_regions::YLayerColumns>(exec, 0, bulk_i * 2 * nbl), *this);
    } else {
      if (fused) {  // launch-bound: the march gains nothing there
        IdiomaticStep<ExecSpace>{static_cast<const Fields&>(*this)}.launch(exec, StepRegion::all, true, settings);
        return;
      }
      using Int = Kokkos::IndexType<int>;
      if (scope == StepRegion::edges) {
        Kokkos::parallel_for("wave::x_layers",
                             Kokkos::RangePolicy<ExecSpace, tuned_regions::MarchedXLayers, Int>(exec, 0, 2 * ny * nz),
                             *this);
        return;
      }
      TunedStep marched = *this;
      marched.segment = settings.segment;
      marched.march_begin = scope == StepRegion::all ? 0 : nbl;
      marched.march_end = scope == StepRegion::all ? nx : sponge::bulk_end(nx);
      const int segments = (marched.march_end - marched.march_begin + marched.segment - 1) / marched.segment;
      marched.tiles = MarchTiles::make(ny, nz, segments, settings.march_rows);
      const long items = marched.tiles.items();
      if (items > std::numeric_limits<int>::max())
        throw std::runtime_error("Kokkos: grid too large for 32-bit work indices (raise AWAVE_KOKKOS_SEGMENT)");
      Kokkos::parallel_for(scope == StepRegion::all ? "wave::step" : "wave::bulk",
                           Kokkos::RangePolicy<ExecSpace, tuned_regions::Marched, Int>(exec, 0, int(items)), marched);
    }
  }
};

// The marches index next, now and prev through one offset and now's strides: the three levels
// need one layout, k contiguous. The time ring makes them so; this checks it.
template <class View3>
bool one_layout(const View3& a, const View3& b, const View3& c) {
  for (const View3* u : {&b, &c})
    for (int r = 0; r < 3; ++r)
      if (u->extent(r) != a.extent(r) || u->stride(r) != a.stride(r)) return false;
  return a.stride(2) == 1;
}

}  // namespace awave
