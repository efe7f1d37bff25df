// Temporal blocking: three time steps in one sweep of the grid, written once for the GPU
// implementations that take it (hand CUDA: a thread block; Kokkos: a TeamPolicy team with scratch
// memory). A single step reads `now` and `prev` and writes `next`, 24 B a point; a sweep of three
// reads u(t-1) and u(t) and writes u(t+2) and u(t+3), 32 B for three. The study that chose this
// form and tile (report section 4; bench/studies/cuda-temporal-blocking/cuda_temporal_blocking.cu, shape
// reg3p-26x14-table) ran it at 1.52 x and 1.60 x hand CUDA's single steps at 512^3 and 1000^3 on the H100
// (the study's calls: bench/results/h100-2026-11-25/README.md).
//
// A team owns a (k, j) tile of kTileK x kTileJ points and marches i over kSegment planes. Its
// threads are the tile's columns with a halo of S = 3 (kColumnsK x kColumnsJ = 32 x 20): level
// s = 0..3 is u(t+s); level 0 is loaded on every column, level s is computed on a halo of S - s,
// and levels 2 and 3 are written on the tile. Each thread keeps its column's levels at the last
// two planes in registers, so only the (j, k) neighbours pass through scratch memory: one plane a
// level, in two buffers, one barrier a plane. The next plane's loads are issued before the
// barrier, so their latency overlaps this plane's work. The arithmetic is the shared formula
// (wave_update.hpp), bit for bit. Computed levels are 0 on ghost points, which needs a grid whose
// start has no value there: nz >= 3 (core/step_plan.hpp, plan_steps). The level loops have
// constant trip counts: the compilers unroll them, so their arrays live in registers.
#pragma once

#include "core/sponge.hpp"
#include "core/wave_problem.hpp"
#include "core/wave_update.hpp"

#include <cstddef>
#include <type_traits>

namespace awave {

struct SweepTile {
  static constexpr int kSteps = 3;
  static constexpr int kTileK = 26, kTileJ = 14;  // 32 x 20 threads: one warp a row of columns
  static constexpr int kSegment = 64;             // planes a team marches: 1-6% over 128 or 256 (study)
  static constexpr int kColumnsK = kTileK + 2 * kSteps, kColumnsJ = kTileJ + 2 * kSteps;
  static constexpr int kThreads = kColumnsK * kColumnsJ;
  // Teams (thread blocks) an SM, every model's launch bounds: 2 caps a thread at 48 registers.
  static constexpr int kTeamsAnSm = 2;
  static constexpr std::size_t kScratchBytes = std::size_t(2) * kSteps * kColumnsJ * kColumnsK * sizeof(double);
  // Teams along k, j and i for a grid of nx x ny x nz interior points.
  AWAVE_HOST_DEVICE static int teams_k(int nz) { return (nz + kTileK - 1) / kTileK; }
  AWAVE_HOST_DEVICE static int teams_j(int ny) { return (ny + kTileJ - 1) / kTileJ; }
  AWAVE_HOST_DEVICE static int teams_i(int nx) { return (nx + kSegment - 1) / kSegment; }
};

// Over MPI hand CUDA launches the sweep of a slab in two parts (parallel/step_loop.cpp): the
// interior segments, whose marches read no recomputed neighbour plane, while the halo travels, then
// the others. A segment marching [i0, i1) reads planes [i0 - kSteps, i1 + kSteps); halo_lo and
// halo_hi are the recomputed planes at each end of the nx computed ones (0 at a grid face, whose
// ghost plane holds no neighbour's values). The interior is [interior_begin, interior_end).
struct SweepSegments {
  int count = 0, interior_begin = 0, interior_end = 0;
};
inline SweepSegments sweep_segments(int nx, int halo_lo, int halo_hi) {
  using T = SweepTile;
  SweepSegments s;
  s.count = T::teams_i(nx);
  auto interior = [&](int segment) {
    const int i0 = segment * T::kSegment, i1 = i0 + T::kSegment < nx ? i0 + T::kSegment : nx;
    return (halo_lo == 0 || i0 - T::kSteps >= halo_lo) && (halo_hi == 0 || i1 + T::kSteps <= nx - halo_hi);
  };
  s.interior_begin = 0;
  while (s.interior_begin < s.count && !interior(s.interior_begin)) ++s.interior_begin;
  s.interior_end = s.interior_begin;
  while (s.interior_end < s.count && interior(s.interior_end)) ++s.interior_end;
  return s;
}

// The fields of one sweep: u(t-1) and u(t) are read, u(t+2) and u(t+3) written (four distinct
// fields: a team must not overwrite what a neighbour team still reads).
struct SweepFields {
  double* __restrict__ u2;          // u(t+2)
  double* __restrict__ u3;          // u(t+3)
  const double* __restrict__ now;   // u(t)
  const double* __restrict__ prev;  // u(t-1)
  const double* __restrict__ cs2_k;
  const double* __restrict__ damp_ij;  // damp at (i, j): damp_ij[i * ny + j]
  double f, dt;
  int nx, ny, nz;  // interior points
  long si, sj;     // padded strides of i and j
};

// The type a march's fields are passed as, written out by its caller (not deduced from the argument).
template <class Fields>
struct SweepFieldsAs {
  using type = Fields;
};

// A sweep of `problem`'s grid (its slab) from `now` and `prev` into u2 and u3, with the
// coefficients where the implementation keeps them and its levels' padded strides.
inline SweepFields sweep_fields(const WaveProblem& problem, double* u2, double* u3, const double* now,
                                const double* prev, const double* cs2_k, const double* damp_ij, long si, long sj) {
  const WaveParams& p = problem.params();
  return {u2, u3, now, prev, cs2_k, damp_ij, problem.f(), p.dt, p.nx(), p.ny(), p.nz(), si, sj};
}

// One thread's part of a team's sweep: the team's tile (tile_k, tile_j) and segment, the thread's
// column (kk, jj) in [0, kColumnsK) x [0, kColumnsJ), the team's scratch (kScratchBytes) and its
// barrier. damp(i, j) depends on i only in the x layers (docs/model.md, "Damping"): there it is
// read per plane, elsewhere it is the column's value.
// kBulkPlanes: whether the march takes its bulk planes' shorter path (below): hand CUDA, hand
// offload and Kokkos-CUDA where their plan says so (core/step_plan.hpp, sweep_bulk_planes).
// Fields: how the march holds the fields, the caller's choice. Hand CUDA passes SweepFields by
// value: nvcc then keeps the block-uniform arithmetic on the uniform datapath, 1.18 x the sweep at
// 512^3 on the H200 (as the study's kernel). Kokkos-CUDA does too since its segment comes without
// a division (kokkos/sweep_step.hpp); with divisions by value lost 0.81 x
// (bench/results/h200-2026-11-26/by-value).
template <class Fields = const SweepFields&, bool kBulkPlanes = true, class Barrier>
AWAVE_HOST_DEVICE inline void sweep_march(typename SweepFieldsAs<Fields>::type a, int tile_k, int tile_j, int segment,
                                          int kk, int jj, double* scratch, const Barrier& barrier) {
  using T = SweepTile;
  constexpr int S = T::kSteps, HK = T::kColumnsK, HJ = T::kColumnsJ;
  const int k = tile_k * T::kTileK + kk - S, j = tile_j * T::kTileJ + jj - S;
  const int i0 = segment * T::kSegment, i1 = i0 + T::kSegment < a.nx ? i0 + T::kSegment : a.nx;
  const bool interior = k >= 0 && k < a.nz && j >= 0 && j < a.ny;
  const bool in_padded = k >= -1 && k <= a.nz && j >= -1 && j <= a.ny;
  // How far the column is outside the tile (<= 0 inside it); level s is computed at ring <= S - s.
  const int out_k = S - kk > kk - (HK - 1 - S) ? S - kk : kk - (HK - 1 - S);
  const int out_j = S - jj > jj - (HJ - 1 - S) ? S - jj : jj - (HJ - 1 - S);
  const int ring = interior ? (out_k > out_j ? out_k : out_j) : S + 1;
  const long c0 = a.si + (j + 1) * a.sj + (k + 1);  // padded index of (0, j, k); plane i is c0 + i * si
  const double cs2 = interior ? a.cs2_k[k] : 0.0;
  // Outside the x layers damp(i, j) is the column's value, damp(kLayers, j). With the bulk planes it
  // is read where needed (a register held for it made nvcc spill); without them, where the general
  // path runs every plane, it is held (read every plane: 0.78 x,
  // bench/results/h200-2026-11-26/march-ab-ef1b3ed).
  double damp_column = 0.0;
  if constexpr (!kBulkPlanes) damp_column = interior ? sponge::damp_at(a.damp_ij, a.ny, sponge::kLayers, j) : 0.0;
  auto damp = [&](int i) {
    const bool x_layer = sponge::in_layer(i, a.nx);
    if constexpr (!kBulkPlanes) return x_layer ? sponge::damp_at(a.damp_ij, a.ny, i, j) : damp_column;
    return sponge::damp_at(a.damp_ij, a.ny, x_layer ? i : sponge::kLayers, j);
  };
  auto live = [&](int s, int p) { return p >= i0 - (S - s) && p < i1 + (S - s) && p >= 0 && p < a.nx; };
  auto level_plane = [&](int buffer, int s) { return scratch + (buffer * S + s) * HJ * HK; };  // [HJ][HK]
  // w[s][0], w[s][1]: level s at the planes of steps m - 1 and m - 2 (level s at step m is at plane m - s).
  double w[S][2];
  for (int s = 0; s < S; ++s) w[s][0] = w[s][1] = 0.0;
  // Step m's loads: u(t) at plane m, u(t-1) at plane m - 1 (where level 1 is computed).
  double now_next = 0.0, prev_next = 0.0;
  auto load = [&](int m) {
    now_next = in_padded && m >= -1 && m <= a.nx ? a.now[c0 + m * a.si] : 0.0;
    prev_next = ring <= S - 1 && live(1, m - 1) ? a.prev[c0 + (m - 1) * a.si] : 0.0;
  };
  load(i0 - S);
  // A plane of the march. Bulk planes (`bulk`: a std::true_type) are those of a tile clear of the y
  // layers where every level is live and no level's plane is in an x layer: there the live tests,
  // the damping and the store's plane test are known true or zero, and the code says so (most of a
  // 512^3 sweep: hand CUDA's 144 -> 100 issue slots a site update, bench/results/h200-2026-11-26/
  // README.md; where that pays, core/step_plan.hpp's sweep_bulk_planes says).
  auto plane = [&](int m, int buffer, auto bulk) {
    constexpr bool kBulk = decltype(bulk)::value;
    double level[S + 1];
    level[0] = now_next;
    const double prev_p = prev_next;
    for (int s = 0; s < S; ++s) level_plane(buffer, s)[jj * HK + kk] = w[s][0];
    if (kBulk) {  // (the next plane is inside the segment and the grid)
      now_next = in_padded ? a.now[c0 + (m + 1) * a.si] : 0.0;
      prev_next = ring <= S - 1 ? a.prev[c0 + m * a.si] : 0.0;
    } else if (m + 1 < i1 + S) {
      load(m + 1);
    }
    barrier();  // (two buffers: the next plane's stores cannot meet this plane's reads)
    for (int s = 1; s <= S; ++s) {
      const int p = m - s;  // level s at plane p, from level s - 1
      level[s] = 0.0;
      if (ring <= S - s && (kBulk || live(s, p))) {
        const double* L = level_plane(buffer, s - 1);
        const Stencil7 st{w[s - 1][0],           w[s - 1][1],         level[s - 1],       L[(jj - 1) * HK + kk],
                          L[(jj + 1) * HK + kk], L[jj * HK + kk - 1], L[jj * HK + kk + 1]};
        const double prev = s == 1 ? prev_p : w[s < 2 ? 0 : s - 2][1];
        double value;
        if (kBulk) {
          value = undamped_next(st, prev, cs2, a.f);
        } else {
          // (next_value's arithmetic either way; next_value alone made nvcc spill: 1.46e11 against 1.54e11
          // SU/s at 512^3 on the H100, bench/results/h100-2026-11-25/temporal-46ea31a and temporal-dc054f9)
          const double d = damp(p);
          value = d == 0.0 ? undamped_next(st, prev, cs2, a.f) : next_value(st, prev, cs2, d, a.f, a.dt);
        }
        level[s] = value;
        if (s >= S - 1 && ring <= 0 && (kBulk || (p >= i0 && p < i1))) (s == S ? a.u3 : a.u2)[c0 + p * a.si] = value;
      }
    }
    for (int s = 0; s < S; ++s) {
      w[s][1] = w[s][0];
      w[s][0] = level[s];
    }
  };
  // The bulk planes [bulk_begin, bulk_end): every level live (m >= i0 + S), the next plane inside
  // the segment (m + 1 < i1), no level's plane p = m - s (s = 1..S) in an x layer; none where a
  // column of the tile (its halo included) is in a y layer.
  const int row0 = tile_j * T::kTileJ - S;
  const bool clear_of_y_layers = row0 >= sponge::kLayers && row0 + HJ <= a.ny - sponge::kLayers;
  int bulk_begin = i0 + S > sponge::kLayers + S ? i0 + S : sponge::kLayers + S;
  int bulk_end = i1 - 1 < a.nx - sponge::kLayers + 1 ? i1 - 1 : a.nx - sponge::kLayers + 1;
  if (!kBulkPlanes || !clear_of_y_layers || bulk_begin >= bulk_end) bulk_begin = bulk_end = i1 + S;
  int buffer = 0;
  for (int m = i0 - S; m < i1 + S; ++m, buffer ^= 1) {
    if (m >= bulk_begin && m < bulk_end)  // (team-uniform)
      plane(m, buffer, std::true_type{});
    else
      plane(m, buffer, std::false_type{});
  }
}

}  // namespace awave
