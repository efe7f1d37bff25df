// awave-omp-shapes (openmptarget build): the OpenMP-offload kernel shapes of a whole awave step
// (interior, y layers, x layers), timed on the GPU with the project's offload flags, each
// checked bitwise against the first. Explores what the hand-written offload code should be:
//   three-region  the layout before: collapse(3) loops (64-bit index), interior marching i over
//                 segments, then the y and x sponge layers as two more target regions;
//   flat          the same three regions over one flat 32-bit index (i, j, k by hand);
//   one-region    one target region per step: flat 32-bit index over (i segment, j, k) across
//                 the whole x extent, the sponge handled inside (damped where a column is in one),
//                 the sponge test made at every point;
//   split         one-region, the sponge test made once per work item: a work item whose
//                 column or segment touches a layer takes the per-point march, every other one
//                 a loop with no branch and no damp read;
//   unrolled      split, the undamped loop of a whole segment unrolled (segment a compile-time
//                 constant: every load of the segment can be in flight at once);
//   pairs         split, each work item marching two neighbouring rows j, j+1 (the centre of
//                 one is a y neighbour of the other: two loads fewer per point pair, twice the
//                 independent work per thread);
//   restrict      split, the undamped march a function of __restrict__ pointers (clang uses
//                 restrict only on parameters, not on struct members: without it no load of
//                 the next point may move above the store of this one);
//   batched       split, the undamped march loading the operands of 4 points before storing
//                 any (what restrict would allow the compiler to do, written out);
//   global        one-region through pointers cast to the GPU's global address space: clang
//                 emits generic loads and stores (ld.f64, st.f64) for every other shape, since
//                 nothing tells it the fields are global memory; nvcc's are ld.global.
//   tiled         one-region over (k, j) tiles of 32 x threads/32 (core/march_tiles.hpp) with
//                 one work item per thread (num_teams given: clang 19's runtime otherwise caps
//                 a region at 3200 teams and each thread loops over several work items);
//   tiled-local   tiled, each work item copying the region's firstprivate struct into a local
//                 one first: clang passes the struct through global memory, and without the
//                 copy a store to `next` may alias it, so its members are loaded again;
//   bare          tiled-local as an ompx_bare region (LLVM's extension: a kernel launched as
//                 CUDA launches one, block and thread ids by hand, no worksharing loop code);
//   bare-3        three ompx_bare regions shaped as hand CUDA's kernels: the undamped interior
//                 march (no branch, no damp read), then the y and the x layers;
//   teams-parallel  tiled-local in standard OpenMP without a worksharing loop: `target teams`
//                 holding only a `parallel` (clang runs it SPMD), each thread's work item from
//                 omp_get_team_num() and omp_get_thread_num(), a loop striding by the threads
//                 the runtime gave (one item each when it gave what num_teams asked for);
//   teams-inline  teams-parallel, the one-item path and the strided loop both inline (no call);
//   teams-flag    teams-parallel, one item per thread and no fallback: a device flag raised
//                 where the runtime gave fewer teams or threads than asked (reported);
//   teams-nowait  teams-flag queued with nowait, each step's region depending on the one before
//                 (depend(inout) on one host variable), the host waiting once after the last
//                 step (taskwait): the synchronous region's launch cost hidden, if the runtime
//                 keeps the order (checked bitwise in every run, as every shape is);
//   teams-once    teams-parallel with no loop in the common path: where the teams and threads
//                 given cover every item, each thread marches its one item; otherwise each
//                 thread's items are marched by a function out of line (its fields passed one
//                 by one: an aggregate passed through memory put a byte-wise copy of the
//                 region's struct on every thread's stack, halving the rate, 9a0971c).
// (restrict and batched had one kernel between them until 2026-11-23, whose 164 registers
// limited both; each has its own now.)
// Each at team sizes 128 and 256 and segments 8, 16, 32. Prints one JSON object per line.
//   awave-omp-shapes N [STEPS] [SHAPE,...]   (padded N^3 grid of N-2 interior points a side;
//                                            default every shape)
#include "core/march_tiles.hpp"
#include "core/step_plan.hpp"
#include "core/wave_problem.hpp"
#include "core/wave_update.hpp"
#include "omp/omp_march.hpp"

#include <omp.h>
#include <ompx.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace awave;

namespace {

// The product's march (omp/omp_march.hpp and core/pointer_fields.hpp: at, damped_update, march), with the study's variants beside it.
struct Grid : OmpMarch {
  // Whether a march over [i_begin, i_end) at row j meets a sponge layer.
  bool touches_sponge(int i_begin, int i_end, int j) const {
    return j < kBoundaryLayers || j >= ny - kBoundaryLayers || i_begin < kBoundaryLayers ||
           i_end > nx - kBoundaryLayers;
  }
  // The march where no point is in a sponge layer: no branch, no damp read.
  void march_undamped(int i_begin, int i_end, int j, int k) const {
    const double cs2 = cs2_k[k];
    long c = at(i_begin, j, k);
    double xm = now[c - si], centre = now[c];
    for (int i = i_begin; i < i_end; ++i, c += si) {
      const double xp = now[c + si];
      next[c] = undamped_next({centre, xm, xp, now[c - sj], now[c + sj], now[c - 1], now[c + 1]}, prev[c], cs2, f);
      xm = centre;
      centre = xp;
    }
  }
  template <int Segment>
  void march_undamped_unrolled(int i_begin, int j, int k) const {
    const double cs2 = cs2_k[k];
    const long c0 = at(i_begin, j, k);
    double xm = now[c0 - si], centre = now[c0];
#pragma unroll
    for (int m = 0; m < Segment; ++m) {
      const long c = c0 + m * si;
      const double xp = now[c + si];
      next[c] = undamped_next({centre, xm, xp, now[c - sj], now[c + sj], now[c - 1], now[c + 1]}, prev[c], cs2, f);
      xm = centre;
      centre = xp;
    }
  }
  // Batches of 4 points: every load of a batch before its stores (the leftover one by one).
  void march_undamped_batched(int i_begin, int i_end, int j, int k) const {
    constexpr int B = 4;
    const double cs2 = cs2_k[k];
    long c = at(i_begin, j, k);
    double xm = now[c - si], centre = now[c];
    int i = i_begin;
    for (; i + B <= i_end; i += B, c += B * si) {
      double xp[B], ym[B], yp[B], zm[B], zp[B], pv[B];
#pragma unroll
      for (int m = 0; m < B; ++m) {
        const long cm = c + m * si;
        xp[m] = now[cm + si];
        ym[m] = now[cm - sj];
        yp[m] = now[cm + sj];
        zm[m] = now[cm - 1];
        zp[m] = now[cm + 1];
        pv[m] = prev[cm];
      }
#pragma unroll
      for (int m = 0; m < B; ++m) {
        next[c + m * si] = undamped_next({centre, xm, xp[m], ym[m], yp[m], zm[m], zp[m]}, pv[m], cs2, f);
        xm = centre;
        centre = xp[m];
      }
    }
    for (; i < i_end; ++i, c += si) {
      const double xp = now[c + si];
      next[c] = undamped_next({centre, xm, xp, now[c - sj], now[c + sj], now[c - 1], now[c + 1]}, prev[c], cs2, f);
      xm = centre;
      centre = xp;
    }
  }
  // Rows j and j+1 together (neither in a sponge layer).
  void march_undamped_pair(int i_begin, int i_end, int j, int k) const {
    const double cs2 = cs2_k[k];
    long c = at(i_begin, j, k);
    double xm0 = now[c - si], centre0 = now[c], xm1 = now[c + sj - si], centre1 = now[c + sj];
    for (int i = i_begin; i < i_end; ++i, c += si) {
      const long d = c + sj;
      const double xp0 = now[c + si], xp1 = now[d + si];
      next[c] = undamped_next({centre0, xm0, xp0, now[c - sj], centre1, now[c - 1], now[c + 1]}, prev[c], cs2, f);
      next[d] = undamped_next({centre1, xm1, xp1, centre0, now[d + sj], now[d - 1], now[d + 1]}, prev[d], cs2, f);
      xm0 = centre0;
      centre0 = xp0;
      xm1 = centre1;
      centre1 = xp1;
    }
  }
};

// Device code sees a field through a pointer in the global address space (NVPTX's 1): loads
// and stores compile to ld.global / st.global instead of generic ones.
#if defined(__NVPTX__)
#define AWAVE_GLOBAL_SPACE __attribute__((address_space(1)))
#else
#define AWAVE_GLOBAL_SPACE
#endif
using GlobalField = double AWAVE_GLOBAL_SPACE*;
using ConstGlobalField = const double AWAVE_GLOBAL_SPACE*;

// Grid::march (the sponge tested at every point) through global-space pointers.
void march_global(const Grid& g, int i_begin, int i_end, int j, int k) {
  const GlobalField next = (GlobalField)g.next;
  const ConstGlobalField now = (ConstGlobalField)g.now, prev = (ConstGlobalField)g.prev;
  const ConstGlobalField damp_ij = (ConstGlobalField)g.damp_ij;
  const double cs2 = ((ConstGlobalField)g.cs2_k)[k];
  const bool y_sponge = j < kBoundaryLayers || j >= g.ny - kBoundaryLayers;
  const long si = g.si, sj = g.sj;
  long c = g.at(i_begin, j, k);
  double xm = now[c - si], centre = now[c];
  for (int i = i_begin; i < i_end; ++i, c += si) {
    const double xp = now[c + si];
    const Stencil7 s{centre, xm, xp, now[c - sj], now[c + sj], now[c - 1], now[c + 1]};
    if (y_sponge || i < kBoundaryLayers || i >= g.nx - kBoundaryLayers)
      next[c] = next_value(s, prev[c], cs2, damp_ij[long(i) * g.ny + j], g.f, g.dt);
    else
      next[c] = undamped_next(s, prev[c], cs2, g.f);
    xm = centre;
    centre = xp;
  }
}

// The undamped march over [i_begin, i_end) from c (the first point's index), restrict-qualified.
void march_undamped_restrict(double* __restrict__ next, const double* __restrict__ now, const double* __restrict__ prev,
                             double cs2, double f, long c, long si, long sj, int count) {
  double xm = now[c - si], centre = now[c];
#pragma unroll 4
  for (int m = 0; m < count; ++m, c += si) {
    const double xp = now[c + si];
    next[c] = undamped_next({centre, xm, xp, now[c - sj], now[c + sj], now[c - 1], now[c + 1]}, prev[c], cs2, f);
    xm = centre;
    centre = xp;
  }
}

enum class Shape {
  three_region,
  flat,
  one_region,
  split,
  unrolled,
  pairs,
  restrict_args,
  batched,
  global,
  tiled,
  tiled_local,
  bare,
  bare3,
  teams_parallel,
  teams_once,
  teams_inline,
  teams_flag,
  teams_nowait
};
constexpr Shape kShapes[] = {Shape::three_region, Shape::flat,           Shape::one_region,    Shape::split,
                             Shape::unrolled,     Shape::pairs,          Shape::restrict_args, Shape::batched,
                             Shape::global,       Shape::tiled,          Shape::tiled_local,   Shape::bare,
                             Shape::bare3,        Shape::teams_parallel, Shape::teams_once,    Shape::teams_inline,
                             Shape::teams_flag,   Shape::teams_nowait};
const char* name(Shape s) {
  switch (s) {
    case Shape::three_region:
      return "three-region";
    case Shape::flat:
      return "flat";
    case Shape::one_region:
      return "one-region";
    case Shape::split:
      return "split";
    case Shape::unrolled:
      return "unrolled";
    case Shape::pairs:
      return "pairs";
    case Shape::restrict_args:
      return "restrict";
    case Shape::batched:
      return "batched";
    case Shape::global:
      return "global";
    case Shape::tiled:
      return "tiled";
    case Shape::tiled_local:
      return "tiled-local";
    case Shape::bare:
      return "bare";
    case Shape::bare3:
      return "bare-3";
    case Shape::teams_parallel:
      return "teams-parallel";
    case Shape::teams_once:
      return "teams-once";
    case Shape::teams_inline:
      return "teams-inline";
    case Shape::teams_flag:
      return "teams-flag";
    case Shape::teams_nowait:
      return "teams-nowait";
  }
  return "?";
}

template <int Segment>
void step_unrolled(const Grid& g, int threads) {
  const int nx = g.nx, ny = g.ny, nz = g.nz, n = (nx + Segment - 1) / Segment * ny * nz;
#pragma omp target teams distribute parallel for thread_limit(threads) firstprivate(g)
  for (int t = 0; t < n; ++t) {
    const int k = t % nz, rest = t / nz, j = rest % ny, i0 = rest / ny * Segment;
    const int i1 = i0 + Segment < nx ? i0 + Segment : nx;
    if (g.touches_sponge(i0, i1, j))
      g.march(i0, i1, j, k);
    else if (i1 - i0 == Segment)
      g.march_undamped_unrolled<Segment>(i0, j, k);
    else
      g.march_undamped(i0, i1, j, k);
  }
}

// Work items t, t + stride, ... < n of a tiled step; out of line, so that the registers of this
// rarely taken loop do not count in the region's common path, and taking the fields one by one:
// an aggregate passed by address (or by value: NVPTX passes those through memory) puts the
// region's copy of it on the stack, and every thread then copies it there byte by byte (which
// halved the rate: 4.3e10 SU/s against 9.1e10, H100 512^3).
[[gnu::noinline]] void march_items_from(double* next, const double* now, const double* prev, const double* cs2_k,
                                        const double* damp_ij, double f, double dt, int nx, int ny, int nz, long si,
                                        long sj, int rows_shift, int k_tiles, int j_tiles, int segments, int t,
                                        int stride, int n, int seg) {
  const Grid g{{{next, now, prev, cs2_k, damp_ij, f, dt, nx, ny, nz, si, sj}}};
  MarchTiles tiles;
  tiles.rows_shift = rows_shift, tiles.k_tiles = k_tiles, tiles.j_tiles = j_tiles, tiles.segments = segments;
  for (; t < n; t += stride) {
    int s, j, k;
    if (tiles.decode(t, g.ny, g.nz, s, j, k)) g.march(s * seg, s * seg + seg < g.nx ? s * seg + seg : g.nx, j, k);
  }
}

// teams-flag's device flag, raised where the runtime gave fewer teams or threads than asked (the
// region then leaves items undone; each line of output reports it).
int* under_provisioned_flag() {
  static int* flag = [] {
    auto* f = static_cast<int*>(omp_target_alloc(sizeof(int), omp_get_default_device()));
    const int zero = 0;
    omp_target_memcpy(f, &zero, sizeof(int), 0, 0, omp_get_default_device(), omp_get_initial_device());
    return f;
  }();
  return flag;
}

// teams-flag's region body, which teams-nowait shares (a macro, so both regions compile to the same
// code as when each spelled it out).
#define AWAVE_TEAMS_FLAG_BODY                                                \
  _Pragma("omp parallel") {                                                  \
    const Grid local = g;                                                    \
    const MarchTiles my_tiles = tiles;                                       \
    const int nt = omp_get_num_threads(), stride = omp_get_num_teams() * nt; \
    const int t = omp_get_team_num() * nt + omp_get_thread_num();            \
    int s, j, k;                                                             \
    if (stride < n) {                                                        \
      _Pragma("omp atomic write") flag[0] = 1;                               \
    } else if (t < n && my_tiles.decode(t, ny, nz, s, j, k)) {               \
      local.march(s* seg, s* seg + seg < nx ? s * seg + seg : nx, j, k);     \
    }                                                                        \
  }

// The tiled shapes: one region over every plane, work items in (k, j) tiles of 32 x
// threads/32, one per thread.
void step_tiled(Shape shape, const Grid& g, int threads, int seg) {
  const int nx = g.nx, ny = g.ny, nz = g.nz;
  const MarchTiles tiles = MarchTiles::make(ny, nz, (nx + seg - 1) / seg, threads / 32);
  const int n = int(tiles.items()), teams = n / threads;
  if (shape == Shape::tiled) {
#pragma omp target teams distribute parallel for num_teams(teams) thread_limit(threads) firstprivate(g, tiles)
    for (int t = 0; t < n; ++t) {
      int s, j, k;
      if (!tiles.decode(t, ny, nz, s, j, k)) continue;
      g.march(s * seg, s * seg + seg < nx ? s * seg + seg : nx, j, k);
    }
  } else if (shape == Shape::tiled_local) {
#pragma omp target teams distribute parallel for num_teams(teams) thread_limit(threads) firstprivate(g, tiles)
    for (int t = 0; t < n; ++t) {
      const Grid local = g;
      int s, j, k;
      if (!tiles.decode(t, ny, nz, s, j, k)) continue;
      local.march(s * seg, s * seg + seg < nx ? s * seg + seg : nx, j, k);
    }
  } else if (shape == Shape::teams_parallel) {
#pragma omp target teams num_teams(teams) thread_limit(threads) firstprivate(g, tiles)
#pragma omp parallel
    {
      const Grid local = g;
      const MarchTiles my_tiles = tiles;
      const int nt = omp_get_num_threads(), stride = omp_get_num_teams() * nt;
      for (int t = omp_get_team_num() * nt + omp_get_thread_num(); t < n; t += stride) {
        int s, j, k;
        if (my_tiles.decode(t, ny, nz, s, j, k)) local.march(s * seg, s * seg + seg < nx ? s * seg + seg : nx, j, k);
      }
    }
  } else if (shape == Shape::teams_once) {
#pragma omp target teams num_teams(teams) thread_limit(threads) firstprivate(g, tiles)
#pragma omp parallel
    {
      const Grid local = g;
      const MarchTiles my_tiles = tiles;
      const int nt = omp_get_num_threads(), stride = omp_get_num_teams() * nt;
      const int t = omp_get_team_num() * nt + omp_get_thread_num();
      int s, j, k;
      if (stride < n)  // fewer threads than asked: every item of this thread out of line
        march_items_from(local.next, local.now, local.prev, local.cs2_k, local.damp_ij, local.f, local.dt, nx, ny, nz,
                         local.si, local.sj, my_tiles.rows_shift, my_tiles.k_tiles, my_tiles.j_tiles, my_tiles.segments,
                         t, stride, n, seg);
      else if (t < n && my_tiles.decode(t, ny, nz, s, j, k))
        local.march(s * seg, s * seg + seg < nx ? s * seg + seg : nx, j, k);
    }
  } else if (shape == Shape::teams_inline) {
#pragma omp target teams num_teams(teams) thread_limit(threads) firstprivate(g, tiles)
#pragma omp parallel
    {
      const Grid local = g;
      const MarchTiles my_tiles = tiles;
      const int nt = omp_get_num_threads(), stride = omp_get_num_teams() * nt;
      int t = omp_get_team_num() * nt + omp_get_thread_num();
      int s, j, k;
      if (stride >= n) {
        if (t < n && my_tiles.decode(t, ny, nz, s, j, k))
          local.march(s * seg, s * seg + seg < nx ? s * seg + seg : nx, j, k);
      } else {
        for (; t < n; t += stride)
          if (my_tiles.decode(t, ny, nz, s, j, k)) local.march(s * seg, s * seg + seg < nx ? s * seg + seg : nx, j, k);
      }
    }
  } else if (shape == Shape::teams_flag) {
    int* flag = under_provisioned_flag();
#pragma omp target teams num_teams(teams) thread_limit(threads) firstprivate(g, tiles) is_device_ptr(flag)
    AWAVE_TEAMS_FLAG_BODY
  } else if (shape == Shape::teams_nowait) {
    int* flag = under_provisioned_flag();
    static char step_order;  // the dependence that keeps the queued steps in order

    // clang-format off
#pragma omp target teams num_teams(teams) thread_limit(threads) firstprivate(g, tiles) is_device_ptr(flag) \
    nowait depend(inout: step_order)
    // clang-format on
    AWAVE_TEAMS_FLAG_BODY
  } else {  // bare
#pragma omp target teams ompx_bare num_teams(teams) thread_limit(threads) firstprivate(g, tiles)
    {
      const Grid local = g;
      const int t = ompx_block_id_x() * ompx_block_dim_x() + ompx_thread_id_x();
      int s, j, k;
      if (tiles.decode(t, ny, nz, s, j, k)) local.march(s * seg, s * seg + seg < nx ? s * seg + seg : nx, j, k);
    }
  }
}

// Hand CUDA's three kernels as ompx_bare regions: the interior (i in [nbl, nx-nbl) in
// segments, j in [nbl, ny-nbl), k; blocks of 32 x threads/32 (k, j)), then the y layers and the
// x layers, one point per thread.
void step_bare3(const Grid& g, int threads, int seg) {
  const int nbl = kBoundaryLayers, nx = g.nx, ny = g.ny, nz = g.nz;
  const MarchTiles interior = MarchTiles::make(ny - 2 * nbl, nz, (nx - 2 * nbl + seg - 1) / seg, threads / 32);
  const int n = int(interior.items());
#pragma omp target teams ompx_bare num_teams(n / threads) thread_limit(threads) firstprivate(g, interior)
  {
    const Grid local = g;
    const int t = ompx_block_id_x() * ompx_block_dim_x() + ompx_thread_id_x();
    int s, j, k;
    if (interior.decode(t, local.ny - 2 * nbl, local.nz, s, j, k)) {
      const int i0 = nbl + s * seg;
      local.march_undamped(i0, i0 + seg < local.nx - nbl ? i0 + seg : local.nx - nbl, j + nbl, k);
    }
  }
  const int n_y = (nx - 2 * nbl) * 2 * nbl * nz, n_x = 2 * nbl * ny * nz;
#pragma omp target teams ompx_bare num_teams((n_y + threads - 1) / threads) thread_limit(threads) firstprivate(g)
  {
    const Grid local = g;
    const int t = ompx_block_id_x() * ompx_block_dim_x() + ompx_thread_id_x();
    if (t < n_y) {
      const int k = t % local.nz, rest = t / local.nz, r = rest % (2 * nbl), i = nbl + rest / (2 * nbl);
      local.damped_update(i, r < nbl ? r : local.ny - 2 * nbl + r, k);
    }
  }
#pragma omp target teams ompx_bare num_teams((n_x + threads - 1) / threads) thread_limit(threads) firstprivate(g)
  {
    const Grid local = g;
    const int t = ompx_block_id_x() * ompx_block_dim_x() + ompx_thread_id_x();
    if (t < n_x) {
      const int k = t % local.nz, rest = t / local.nz, j = rest % local.ny, r = rest / local.ny;
      local.damped_update(r < nbl ? r : local.nx - 2 * nbl + r, j, k);
    }
  }
}

void step(Shape shape, const Grid& g, int threads, int seg) {
  const int nbl = kBoundaryLayers, nx = g.nx, ny = g.ny, nz = g.nz;
  if (shape == Shape::tiled || shape == Shape::tiled_local || shape == Shape::bare || shape == Shape::teams_parallel ||
      shape == Shape::teams_once || shape == Shape::teams_inline || shape == Shape::teams_flag ||
      shape == Shape::teams_nowait) {
    step_tiled(shape, g, threads, seg);
  } else if (shape == Shape::bare3) {
    step_bare3(g, threads, seg);
  } else if (shape == Shape::three_region) {
    const int segs = (nx - 2 * nbl + seg - 1) / seg;
#pragma omp target teams distribute parallel for collapse(3) thread_limit(threads) firstprivate(g)
    for (int s = 0; s < segs; ++s)
      for (int j = nbl; j < ny - nbl; ++j)
        for (int k = 0; k < nz; ++k) {
          const int i0 = nbl + s * seg;
          g.march(i0, i0 + seg < nx - nbl ? i0 + seg : nx - nbl, j, k);
        }
#pragma omp target teams distribute parallel for collapse(3) thread_limit(threads) firstprivate(g)
    for (int i = nbl; i < nx - nbl; ++i)
      for (int r = 0; r < 2 * nbl; ++r)
        for (int k = 0; k < nz; ++k) g.damped_update(i, r < nbl ? r : ny - 2 * nbl + r, k);
#pragma omp target teams distribute parallel for collapse(3) thread_limit(threads) firstprivate(g)
    for (int r = 0; r < 2 * nbl; ++r)
      for (int j = 0; j < ny; ++j)
        for (int k = 0; k < nz; ++k) g.damped_update(r < nbl ? r : nx - 2 * nbl + r, j, k);
  } else if (shape == Shape::flat) {
    const int segs = (nx - 2 * nbl + seg - 1) / seg, bj = ny - 2 * nbl;
    const int n_interior = segs * bj * nz, n_y = (nx - 2 * nbl) * 2 * nbl * nz, n_x = 2 * nbl * ny * nz;
#pragma omp target teams distribute parallel for thread_limit(threads) firstprivate(g)
    for (int t = 0; t < n_interior; ++t) {
      const int k = t % nz, rest = t / nz, j = nbl + rest % bj, s = rest / bj;
      const int i0 = nbl + s * seg;
      g.march(i0, i0 + seg < nx - nbl ? i0 + seg : nx - nbl, j, k);
    }
#pragma omp target teams distribute parallel for thread_limit(threads) firstprivate(g)
    for (int t = 0; t < n_y; ++t) {
      const int k = t % nz, rest = t / nz, r = rest % (2 * nbl), i = nbl + rest / (2 * nbl);
      g.damped_update(i, r < nbl ? r : ny - 2 * nbl + r, k);
    }
#pragma omp target teams distribute parallel for thread_limit(threads) firstprivate(g)
    for (int t = 0; t < n_x; ++t) {
      const int k = t % nz, rest = t / nz, j = rest % ny, r = rest / ny;
      g.damped_update(r < nbl ? r : nx - 2 * nbl + r, j, k);
    }
  } else if (shape == Shape::one_region) {
    const int segs = (nx + seg - 1) / seg, n = segs * ny * nz;
#pragma omp target teams distribute parallel for thread_limit(threads) firstprivate(g)
    for (int t = 0; t < n; ++t) {
      const int k = t % nz, rest = t / nz, j = rest % ny, s = rest / ny;
      const int i0 = s * seg;
      g.march(i0, i0 + seg < nx ? i0 + seg : nx, j, k);
    }
  } else if (shape == Shape::split) {
    const int segs = (nx + seg - 1) / seg, n = segs * ny * nz;
#pragma omp target teams distribute parallel for thread_limit(threads) firstprivate(g)
    for (int t = 0; t < n; ++t) {
      const int k = t % nz, rest = t / nz, j = rest % ny, i0 = rest / ny * seg;
      const int i1 = i0 + seg < nx ? i0 + seg : nx;
      if (g.touches_sponge(i0, i1, j))
        g.march(i0, i1, j, k);
      else
        g.march_undamped(i0, i1, j, k);
    }
  } else if (shape == Shape::unrolled) {
    if (seg == 8)
      step_unrolled<8>(g, threads);
    else if (seg == 16)
      step_unrolled<16>(g, threads);
    else
      step_unrolled<32>(g, threads);
  } else if (shape == Shape::restrict_args) {
    const int segs = (nx + seg - 1) / seg, n = segs * ny * nz;
#pragma omp target teams distribute parallel for thread_limit(threads) firstprivate(g)
    for (int t = 0; t < n; ++t) {
      const int k = t % nz, rest = t / nz, j = rest % ny, i0 = rest / ny * seg;
      const int i1 = i0 + seg < nx ? i0 + seg : nx;
      if (g.touches_sponge(i0, i1, j))
        g.march(i0, i1, j, k);
      else
        march_undamped_restrict(g.next, g.now, g.prev, g.cs2_k[k], g.f, g.at(i0, j, k), g.si, g.sj, i1 - i0);
    }
  } else if (shape == Shape::batched) {
    const int segs = (nx + seg - 1) / seg, n = segs * ny * nz;
#pragma omp target teams distribute parallel for thread_limit(threads) firstprivate(g)
    for (int t = 0; t < n; ++t) {
      const int k = t % nz, rest = t / nz, j = rest % ny, i0 = rest / ny * seg;
      const int i1 = i0 + seg < nx ? i0 + seg : nx;
      if (g.touches_sponge(i0, i1, j))
        g.march(i0, i1, j, k);
      else
        g.march_undamped_batched(i0, i1, j, k);
    }
  } else if (shape == Shape::global) {
    const int segs = (nx + seg - 1) / seg, n = segs * ny * nz;
#pragma omp target teams distribute parallel for thread_limit(threads) firstprivate(g)
    for (int t = 0; t < n; ++t) {
      const int k = t % nz, rest = t / nz, j = rest % ny, i0 = rest / ny * seg;
      march_global(g, i0, i0 + seg < nx ? i0 + seg : nx, j, k);
    }
  } else {  // pairs: rows (2p, 2p+1), the last row alone where ny is odd
    const int segs = (nx + seg - 1) / seg, pairs = (ny + 1) / 2, n = segs * pairs * nz;
#pragma omp target teams distribute parallel for thread_limit(threads) firstprivate(g)
    for (int t = 0; t < n; ++t) {
      const int k = t % nz, rest = t / nz, j = rest % pairs * 2, i0 = rest / pairs * seg;
      const int i1 = i0 + seg < nx ? i0 + seg : nx;
      if (j + 1 < ny && !g.touches_sponge(i0, i1, j) && !g.touches_sponge(i0, i1, j + 1)) {
        g.march_undamped_pair(i0, i1, j, k);
      } else {
        g.march(i0, i1, j, k);
        if (j + 1 < ny) g.march(i0, i1, j + 1, k);
      }
    }
  }
}

}  // namespace

// What the runtime gives a `target teams num_teams(T) thread_limit(L)` region holding one
// `parallel`: the teams, the threads a team's parallel has, how many threads ran its body.
int probe_teams(int asked_teams, int asked_threads) {
  int seen[4] = {0, 0, 0, 0};  // threads that ran the body, max num_threads, max num_teams, max thread_num + 1
#pragma omp target teams num_teams(asked_teams) thread_limit(asked_threads) map(tofrom : seen[:4])
#pragma omp parallel
  {
    const int nt = omp_get_num_threads(), teams = omp_get_num_teams(), tid = omp_get_thread_num();
#pragma omp atomic
    seen[0] += 1;
#pragma omp atomic compare
    if (seen[1] < nt) seen[1] = nt;
#pragma omp atomic compare
    if (seen[2] < teams) seen[2] = teams;
#pragma omp atomic compare
    if (seen[3] < tid + 1) seen[3] = tid + 1;
  }
  std::printf(
      "{\"probe\": \"teams-parallel\", \"asked_teams\": %d, \"asked_threads\": %d, \"bodies_run\": %d, "
      "\"num_threads\": %d, \"num_teams\": %d, \"thread_num_max\": %d}\n",
      asked_teams, asked_threads, seen[0], seen[1], seen[2], seen[3] - 1);
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "probe") {  // awave-omp-shapes probe [TEAMS [THREADS]]
    return probe_teams(argc > 2 ? std::atoi(argv[2]) : 1000, argc > 3 ? std::atoi(argv[3]) : 128);
  }
  const int n = argc > 1 ? std::atoi(argv[1]) : 514;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 30;
  std::vector<Shape> shapes;
  for (Shape shape : kShapes)
    if (argc <= 3 ||
        std::strstr((std::string(",") + argv[3] + ",").c_str(), (std::string(",") + name(shape) + ",").c_str()))
      shapes.push_back(shape);
  if (shapes.empty()) {
    std::fprintf(stderr, "awave-omp-shapes: no known shape in '%s'\n", argv[3]);
    return 2;
  }
  if (omp_get_num_devices() < 1) {
    std::fprintf(stderr, "awave-omp-shapes: no OpenMP offload device\n");
    return 1;
  }
  WaveParams p;
  p.shape = {n - 2, n - 2, n - 2};
  const WaveProblem problem(p);
  const PaddedGeometry geo = problem.geometry();
  if (long(geo.size()) > INT_MAX) std::fprintf(stderr, "awave-omp-shapes: grid too large for 32-bit work indices\n");
  const int dev = omp_get_default_device(), host = omp_get_initial_device();
  std::vector<double> h_now(geo.size()), h_prev(geo.size()), reference(geo.size()), result(geo.size());
  problem.fill_start_state(h_now.data(), h_prev.data());
  auto upload = [&](const double* h, std::size_t count) {
    auto* d = static_cast<double*>(omp_target_alloc(count * sizeof(double), dev));
    omp_target_memcpy(d, h, count * sizeof(double), 0, 0, dev, host);
    return d;
  };
  double* d_u[3] = {upload(h_prev.data(), geo.size()), upload(h_now.data(), geo.size()),
                    upload(h_now.data(), geo.size())};
  const double* d_cs2 = upload(problem.cs2_k().data(), problem.cs2_k().size());
  const double* d_damp = upload(problem.damp_ij().data(), problem.damp_ij().size());
  auto reset = [&] {
    omp_target_memcpy(d_u[0], h_prev.data(), geo.size() * sizeof(double), 0, 0, dev, host);
    omp_target_memcpy(d_u[1], h_now.data(), geo.size() * sizeof(double), 0, 0, dev, host);
    omp_target_memcpy(d_u[2], h_now.data(), geo.size() * sizeof(double), 0, 0, dev, host);
  };
  // Runs `count` steps of a shape from the start state; returns seconds, leaves `now` in out.
  auto run = [&](Shape shape, int threads, int seg, int count, std::vector<double>* out) {
    reset();
    double *prev = d_u[0], *now = d_u[1], *next = d_u[2];
    const double t0 = omp_get_wtime();
    for (int s = 0; s < count; ++s) {
      const Grid g{{next, now, prev, d_cs2, d_damp, problem.f(), p.dt, geo.nx, geo.ny, geo.nz, long(geo.stride_i()),
                    long(geo.stride_j())}};
      step(shape, g, threads, seg);
      double* old_prev = prev;
      prev = now;
      now = next;
      next = old_prev;
    }
#pragma omp taskwait
    const double t = omp_get_wtime() - t0;  // every region above has completed (teams-nowait's at the taskwait)
    if (out) omp_target_memcpy(out->data(), now, geo.size() * sizeof(double), 0, 0, host, dev);
    return t;
  };
  run(Shape::three_region, 128, 16, steps, &reference);
  for (Shape shape : shapes)
    for (int threads : {128, 256})
      for (int seg : {8, 16, 32}) {
        run(shape, threads, seg, 3, nullptr);  // warm-up
        double best = 1e30;
        bool bitwise = true;  // in every run, not only the last
        for (int rep = 0; rep < 3; ++rep) {
          best = std::min(best, run(shape, threads, seg, steps, &result));
          bitwise = bitwise && std::memcmp(result.data(), reference.data(), result.size() * sizeof(double)) == 0;
        }
        // The teams shapes' device flag (raised and kept where any run got fewer teams or threads).
        int under_provisioned = 0;
        omp_target_memcpy(&under_provisioned, under_provisioned_flag(), sizeof(int), 0, 0, host, dev);
        std::printf(
            "{\"shape\": \"%s\", \"threads\": %d, \"segment\": %d, \"n\": %d, \"steps\": %d, \"su_per_s\": %.4e, "
            "\"bitwise_with_three_region\": %s, \"under_provisioned\": %s}\n",
            name(shape), threads, seg, n - 2, steps, double(geo.nx) * geo.ny * geo.nz * steps / best,
            bitwise ? "true" : "false", under_provisioned ? "true" : "false");
        std::fflush(stdout);
      }
  for (double* d : d_u) omp_target_free(d, dev);
  return 0;
}
