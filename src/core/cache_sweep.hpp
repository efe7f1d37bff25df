// The temporal-blocking sweep for CPU caches: the GPUs' three steps a sweep (sweep_march.hpp,
// the same levels, fields and arithmetic), in the shape a CPU core wants. A GPU team keeps a
// column a thread and passes neighbours through scratch behind a barrier; a CPU thread is one
// core with a large cache, so here a thread owns a tile of rows j x planes i, marches i, and keeps
// the tile's computed levels 1 and 2 for the last three planes in a buffer of its own (about
// 1 MB at 32 rows of 512 points: with the rows it reads, it stays in L2). Each row of k is one
// vectorised loop (`omp simd`; IEEE operations lane by lane, no contraction: the reference's bits).
//
// Level s (u(t+s)) is computed on rows [j0 - (S - s), j1 + (S - s)) and planes
// [i0 - (S - s), i1 + (S - s)) of the tile, within the grid; level 2 and 3 are stored on the tile.
// Computed levels are 0 on ghost points, as on the GPUs (nz >= 3: core/step_plan.hpp).
#pragma once

#include "core/sponge.hpp"
#include "core/sweep_march.hpp"  // SweepFields, SweepTile::kSteps
#include "core/tuning.hpp"
#include "core/wave_params.hpp"
#include "core/wave_update.hpp"

#include <unistd.h>  // sysconf

#include <algorithm>
#include <cstddef>

#if defined(_OPENMP)
#define AWAVE_SIMD _Pragma("omp simd")
#else
#define AWAVE_SIMD
#endif
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__) && defined(__x86_64__)
#define AWAVE_CPU_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define AWAVE_CPU_CLONES
#endif

namespace awave {

struct CacheSweep {
  static constexpr int kSteps = SweepTile::kSteps;
  static constexpr int kRing = 3;  // planes of a level kept: p - 1, p, p + 1 of the next level's plane p

  int rows = 32;   // rows j a tile owns
  int planes = 0;  // planes i a tile owns
  int tiles_j = 1, tiles_i = 1;

  // Tiles of `rows` rows; planes cut into segments (of at least kMinPlanes) only as far as needed
  // for about two tiles a thread. planes_wanted > 0 sets the segment.
  static constexpr int kMinPlanes = 32;  // the recomputed halo planes cost (3P + 6) / 3P: 3% at 64
  static CacheSweep make(int nx, int ny, int rows, int planes_wanted, int threads) {
    CacheSweep t;
    t.rows = std::min(rows, ny);
    t.tiles_j = (ny + t.rows - 1) / t.rows;
    int segments = 1;
    if (planes_wanted > 0)
      segments = (nx + planes_wanted - 1) / planes_wanted;
    else if (t.tiles_j < 2 * threads)
      segments = std::max(1, std::min((2 * threads + t.tiles_j - 1) / t.tiles_j, nx / kMinPlanes));
    t.planes = (nx + segments - 1) / segments;
    t.tiles_i = (nx + t.planes - 1) / t.planes;
    return t;
  }
  // Rows a tile owns by default: the most (a multiple of 8, at most 32) whose working set fits in
  // one core's L2: the buffer's 6 planes of rows + 2S rows and the 4 the row loop reads (now at
  // p - 1, p, p + 1, and prev). With 2 MB: 32 at nz = 512 (0.95-1.00 of the limit against 0.93-0.95
  // for 16, results/h100-2026-11-25/cpu-sweep-b7d26f3), 16 at nz = 1000 (faster than 32 in 3 of 4
  // paired rounds, the fourth a tie: results/h100-2026-11-25/cpu-sweep-0232966/1000-rows).
  static int default_rows(int nz, std::size_t l2_bytes) {
    for (int rows = 32; rows > 8; rows -= 8)
      if (std::size_t(10) * std::size_t(rows + 2 * kSteps) * std::size_t(nz + 2) * sizeof(double) <= l2_bytes)
        return rows;
    return 8;
  }
  // This CPU's L2 a core, where the C library reports it; else 2 MiB (the Xeons measured).
  static std::size_t l2_bytes() {
#if defined(_SC_LEVEL2_CACHE_SIZE)
    const long reported = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (reported > 0) return std::size_t(reported);
#endif
    return std::size_t(2) << 20;
  }
  // The shape for this run: tuning keys cache_sweep.rows and cache_sweep.planes (read once, when
  // the implementation is made), else default_rows and the planes make() chooses.
  static CacheSweep from_tuning(int nx, int ny, int nz, int threads) {
    return make(nx, ny, int(tuning_integer("cache_sweep.rows").value_or(default_rows(nz, l2_bytes()))),
                int(tuning_integer("cache_sweep.planes").value_or(0)), threads);
  }
  int tiles() const { return tiles_j * tiles_i; }
  // Doubles of one thread's buffer: levels 1 .. S-1, kRing planes each, rows + 2S rows of nz + 2
  // (S: the sweep's steps; the product's kSteps, deeper ones in bench/studies/cpu-sweep-depth).
  std::size_t buffer_doubles(int nz, int steps = kSteps) const {
    return std::size_t(steps - 1) * kRing * std::size_t(rows + 2 * steps) * std::size_t(nz + 2);
  }
};

namespace cache_sweep_detail {

// One row of k: out[k] (and out2[k] where given) for k in [1, nz], padded row pointers.
template <bool kDamped>
AWAVE_CPU_CLONES inline void row(double* __restrict__ out, double* __restrict__ out2, const double* __restrict__ c,
                                 const double* __restrict__ xm, const double* __restrict__ xp,
                                 const double* __restrict__ ym, const double* __restrict__ yp,
                                 const double* __restrict__ prev, const double* __restrict__ cs2, double damp, double f,
                                 double dt, int nz) {
  if (out2) {
    AWAVE_SIMD
    for (int k = 1; k <= nz; ++k) {
      const Stencil7 st{c[k], xm[k], xp[k], ym[k], yp[k], c[k - 1], c[k + 1]};
      const double v = kDamped ? next_value(st, prev[k], cs2[k], damp, f, dt) : undamped_next(st, prev[k], cs2[k], f);
      out[k] = v;
      out2[k] = v;
    }
  } else {
    AWAVE_SIMD
    for (int k = 1; k <= nz; ++k) {
      const Stencil7 st{c[k], xm[k], xp[k], ym[k], yp[k], c[k - 1], c[k + 1]};
      out[k] = kDamped ? next_value(st, prev[k], cs2[k], damp, f, dt) : undamped_next(st, prev[k], cs2[k], f);
    }
  }
}

}  // namespace cache_sweep_detail

// Tile (tile_j, tile_i) of one sweep of S steps, with `buffer` (CacheSweep::buffer_doubles(nz, S))
// the calling thread's own. a.u2 and a.u3 get u(t+S-1) and u(t+S) on the tile (S = 3 in the product:
// u(t+2), u(t+3); deeper sweeps are bench/studies/cpu-sweep-depth's).
template <int S = CacheSweep::kSteps>
inline void cache_sweep_tile(const SweepFields& a, const CacheSweep& shape, int tile_j, int tile_i, double* buffer) {
  static_assert(S >= 2, "a sweep keeps levels 1 .. S-1 in its buffer");
  constexpr int ring = CacheSweep::kRing;
  const int j0 = tile_j * shape.rows, j1 = std::min(j0 + shape.rows, a.ny);
  const int i0 = tile_i * shape.planes, i1 = std::min(i0 + shape.planes, a.nx);
  const int buffer_rows = shape.rows + 2 * S, row_len = a.nz + 2;
  const std::size_t plane_len = std::size_t(buffer_rows) * row_len;
  std::fill(buffer, buffer + shape.buffer_doubles(a.nz, S), 0.0);  // ghost rows, planes and k of computed levels
  // Padded row pointers (k = 0 is the ghost): level 0 and the fields at plane p, row j.
  auto field_row = [&](auto* u, int p, int j) { return u + (p + 1) * a.si + (j + 1) * a.sj; };
  auto level_row = [&](int s, int p, int j) -> double* {  // s in 1 .. S-1, p >= -S
    const int slot = (p + ring * S) % ring;
    return buffer + (std::size_t(s - 1) * ring + slot) * plane_len + std::size_t(j - (j0 - S)) * row_len;
  };
  auto source_row = [&](int s, int p, int j) -> const double* {  // level s, any s in 0 .. S-1
    return s == 0 ? field_row(a.now, p, j) : level_row(s, p, j);
  };
  const double* cs2 = a.cs2_k - 1;  // cs2[k] for padded k
  for (int m = i0 - (S - 1); m < i1 + (S - 1); ++m) {
    for (int s = 1; s <= S; ++s) {  // level s at plane p from level s - 1 at p - 1, p, p + 1
      const int p = m - (s - 1);
      if (p < i0 - (S - s) || p >= i1 + (S - s)) continue;
      if (p < 0 || p >= a.nx) {  // a ghost plane: 0 where the next level reads it
        if (s < S) std::fill(level_row(s, p, j0 - S), level_row(s, p, j0 - S) + plane_len, 0.0);
        continue;
      }
      const int jb = std::max(0, j0 - (S - s)), je = std::min(a.ny, j1 + (S - s));
      const bool x_layer = sponge::in_layer(p, a.nx);
      for (int j = jb; j < je; ++j) {
        // (level S is computed on the tile alone: its rows and planes are the ones stored)
        const bool on_tile = j >= j0 && j < j1 && p >= i0 && p < i1;
        double* out = s < S ? level_row(s, p, j) : field_row(a.u3, p, j);
        double* out2 = s == S - 1 && on_tile ? field_row(a.u2, p, j) : nullptr;
        const double* prev = s == 1 ? field_row(a.prev, p, j) : source_row(s - 2, p, j);
        const double damp = sponge::damp_at(a.damp_ij, a.ny, p, j);
        const bool damped = x_layer || sponge::in_layer(j, a.ny);
        const double *c = source_row(s - 1, p, j), *xm = source_row(s - 1, p - 1, j), *xp = source_row(s - 1, p + 1, j),
                     *ym = source_row(s - 1, p, j - 1), *yp = source_row(s - 1, p, j + 1);
        if (damped)
          cache_sweep_detail::row<true>(out, out2, c, xm, xp, ym, yp, prev, cs2, damp, a.f, a.dt, a.nz);
        else
          cache_sweep_detail::row<false>(out, out2, c, xm, xp, ym, yp, prev, cs2, damp, a.f, a.dt, a.nz);
      }
    }
  }
}

}  // namespace awave
