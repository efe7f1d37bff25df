// Per-backend iteration choices for the Kokkos kernels, in one place. The kernel source is
// the same for every backend; only the policy (k columns, a rank-3 MDRange, or one flat
// RangePolicy per step marching i), the order in which MDRangePolicy walks (i, j, k), its tile
// sizes, and the length of the i segment a work item marches along change here.
//
// Fields are LayoutRight (k contiguous) on every backend, like the CPU reference.
// - Host backends: a RangePolicy over (i, j) columns; each work item runs the k loop over
//   contiguous memory, so each thread streams along k and the compiler can vectorise.
// - Kokkos 3.4's OpenMPTarget MDRange ignores tiles: it is one collapse(3) loop over the
//   policy axes, so (i, j, k) puts consecutive k on consecutive GPU threads. Marching i over a
//   segment (the value of `now` at i-1, i, i+1 kept in registers) loads each value once.
// - Kokkos 3.4's CUDA MDRange maps the policy's first index to threadIdx.x, so the policy
//   runs over (k, j, i): a warp then reads consecutive k, coalesced (TOOLCHAIN.md measured
//   the default (i, j, k) order 13x slower at 512^3).
#pragma once

#include <Kokkos_Core.hpp>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>

namespace awave {

template <class ExecSpace>
struct KokkosIteration {
  // Host backends: a RangePolicy over (i, j) columns, each work item running the contiguous k
  // loop (vectorisable), instead of a rank-3 MDRange (whose tile loop cost Kokkos-Serial
  // 20-50% against the CPU reference on the 2-core build machine).
  static constexpr bool k_columns = true;
  // GPU backends: where a plane of constant i (core/step_plan.hpp, plane_bytes) exceeds
  // march_plane_bytes, a whole step is one flat RangePolicy (32-bit index) whose work items
  // march i over march_segment planes with the sponge handled inside (wave_kokkos.hpp,
  // kokkos_regions::Marched) instead of three MDRange kernels. 0: always; max: never.
  static constexpr std::size_t march_plane_bytes = std::numeric_limits<std::size_t>::max();
  static constexpr int march_segment = 16;
  // Planes of at most short_march_plane_bytes march short_march_segment planes instead (0: never).
  static constexpr std::size_t short_march_plane_bytes = 0;
  static constexpr int short_march_segment = 16;
  // Rows j per (k, j) tile of the marching kernel's work items (core/march_tiles.hpp).
  static constexpr int march_rows = 1;
  // A march tests for the sponge once (true: a march meeting no layer takes a loop with no
  // branch and no damp read) or at every point (false): which compiles faster differs.
  static constexpr bool sponge_test_per_march = true;
  // The march with sponge layers indexes the three levels through one offset (true), as
  // undamped_march always does, or through each View (false): which compiles faster differs.
  static constexpr bool march_one_offset = false;
  // The MDRange choices below apply where k_columns is false (the GPU backends).
  static constexpr bool k_first = false;  // policy axes (i, j, k)
  static constexpr Kokkos::Iterate iterate = Kokkos::Iterate::Right;
  static constexpr std::array<int, 3> tile{0, 0, 0};  // 0: Kokkos' default
  // No other tile for grids with large i planes (the CUDA backend has one).
  static constexpr std::array<int, 3> tile_large_planes = tile;
  static constexpr std::size_t large_plane_bytes = std::numeric_limits<std::size_t>::max();
  static constexpr int interior_segment = 1;
};

#if defined(KOKKOS_ENABLE_OPENMPTARGET)
template <>
struct KokkosIteration<Kokkos::Experimental::OpenMPTarget> {
  static constexpr bool k_columns = false;
  // Kokkos 3.4's OpenMPTarget MDRange is one collapse(3) loop whose 64-bit index arithmetic
  // and three synchronous target regions per step cost (the hand-written offload's shapes,
  // bench/omp_stencil_shapes.cpp): one flat 32-bit RangePolicy per step instead.
  static constexpr std::size_t march_plane_bytes = 0;
  // 512^3, H100 (MDRange interior march, bench/results/h100-tuning-2026-11-22): segment 1 gave
  // 5.0e10 SU/s, 4 gave 6.7e10, 8 7.3e10, 16 7.5e10, 32 7.3e10.
  static constexpr int march_segment = 16;
  static constexpr std::size_t short_march_plane_bytes = 0;
  static constexpr int short_march_segment = 16;
  // Rows of k, no (k, j) tiles: Kokkos 3.4's RangePolicy region has no num_teams, so clang 19's
  // runtime caps it at 3200 teams and each thread loops over several work items; so laid out,
  // tiles of 32 x 4 were slower (H100, bench/results/h100-2026-11-24/march-tiles-c82a63d: 512^3
  // 7.55e10, 7.74e10 against 7.73e10, 7.96e10 with rows of k; sweep-68fdb71: 1000^3 7.80e10
  // against 8.37e10 before tiles). The build now lifts the cap (kokkos/offload_team_cap.cpp);
  // with it, tiles of 4 rows were level with rows of k (H100,
  // bench/results/h100-2026-11-24/kokkos-ompt-cap-8aee5b1, AWAVE_KOKKOS_MARCH_ROWS=4: 1000^3
  // 8.60e10, 8.62e10 against 8.62e10, 8.68e10; 512^3 8.31e10, 7.65e10 against 8.22e10, 8.15e10).
  static constexpr int march_rows = 1;
  // Testing once per march made clang's offload code slower: the hand-written shapes
  // (bench/omp_stencil_shapes.cpp, "split" against "one-region", H200 512^3, 128 threads,
  // segment 16, bench/results/h200-2026-11-23/kernel-shapes) 8.22e10 SU/s against 1.03e11, and
  // Kokkos-OMPT went from 9.29e10 (sweep) to 7.59e10 with it.
  static constexpr bool sponge_test_per_march = false;
  // One offset: ptxas 85 registers against 89 for the step region; H100 (bench/results/
  // h100-2026-11-24/kokkos-ompt-offset-a407c5b, best of two interleaved) +1-8% to 512^3, level at
  // 1000^3; H200 (h200-2026-11-24/kokkos-ompt-offset-852e267) 0 to +5%.
  static constexpr bool march_one_offset = true;
  static constexpr bool k_first = false;  // policy axes (i segment, j, k), k fastest
  static constexpr Kokkos::Iterate iterate = Kokkos::Iterate::Right;
  static constexpr std::array<int, 3> tile{0, 0, 0};  // ignored by this backend
  static constexpr std::array<int, 3> tile_large_planes = tile;
  static constexpr std::size_t large_plane_bytes = std::numeric_limits<std::size_t>::max();
  static constexpr int interior_segment = 16;  // (the MDRange interior: only where the env selects it)
};
#endif

#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct KokkosIteration<Kokkos::Cuda> {
  static constexpr bool k_columns = false;
  // The flat marching kernel on every grid that is not fused, 16 planes a work item (below). H200
  // (bench/results/h200-2026-11-23/kernel-shapes, best chunk SU/s): MDRange against the march
  // of 8, 16, 32 planes: 512^3 1.227e11 / 1.372e11, 1.381e11, 1.382e11; 768^3 1.237e11 /
  // 1.330e11, 1.364e11, 1.375e11; 1000^3 1.047e11 / 1.323e11, 1.354e11, 1.371e11 (hand CUDA
  // 1.474e11 and 1.433e11 there). The MDRange choices below remain for comparison
  // (AWAVE_KOKKOS_MARCH_PLANE_BYTES=18446744073709551615).
  static constexpr std::size_t march_plane_bytes = 0;
  // Since the branch-free march indexes through one offset (6f9c835), 16 planes: 32 lose on the
  // H100, 16 gave 1.097e11 against 9.76e10 at 1000^3, 1.085e11 against 1.002e11 at 768^3
  // (bench/results/h100-2026-11-24/kokkos-segment-6f9c835); on the H200 16 cost under 1%,
  // 1.396e11 against 1.407e11 at 1000^3 (bench/results/h200-2026-11-24/kokkos-segment-e6f9f03).
  static constexpr int march_segment = 16;
  // Planes of at most 4 MiB (512^3 and below) march 8 planes. H100, both rounds alike
  // (bench/results/h100-2026-11-24/kokkos-segment-68fdb71, AWAVE_KOKKOS_SEGMENT 32/16/8/4, best
  // chunk): 256^3 9.76e10 / 1.02e11 / 1.06e11 / 1.06e11, 512^3 1.07e11 / 1.08e11 / 1.09e11 /
  // 1.09e11, 1000^3 1.08e11 / 1.08e11 / 1.05e11 / 9.77e10 (hand CUDA 1.08e11, 1.15e11, 1.10e11).
  // H200 512^3 (h200-2026-11-23/kernel-shapes): 8 planes 1.372e11 against 32 planes 1.382e11.
  static constexpr std::size_t short_march_plane_bytes = std::size_t(4) << 20;
  static constexpr int short_march_segment = 8;
  static constexpr int march_rows = 4;
  static constexpr bool sponge_test_per_march = true;  // as measured above
  // Views: with one offset Kokkos-CUDA was 5-9% slower from 256^3 in a whole sweep (H200, 1.304e11
  // against 1.398e11 SU/s at 1000^3, bench/results/h200-2026-11-24/sweep-4130739), at 48 registers.
  static constexpr bool march_one_offset = false;
  static constexpr bool k_first = true;  // policy axes (k, j, i), k on threadIdx.x
  static constexpr Kokkos::Iterate iterate = Kokkos::Iterate::Left;
  // H100, 512^3, 30 steps (bench/device/gpu-checks.sh): tiles (k, j, i) of 32x8x1, 64x4x1,
  // 128x2x1 and 256x1x1 all gave 1.060e11 to 1.067e11 SU/s, 32x4x2 1.050e11, 16x8x2 1.027e11,
  // 32x4x4 0.966e11: a full warp along k and no i extent. 32x8x1 wastes least on thin grids.
  static constexpr std::array<int, 3> tile{32, 8, 1};
  // Planes (core/step_plan.hpp, plane_bytes) above large_plane_bytes: two i per block. H100
  // (bench/results/h100-2026-11-22/limits): at 1000^3 (8 MB planes) 32x8x2 gave 8.65e10 SU/s,
  // 32x8x1 8.05e10, 64x4x1 8.13e10; at 512^3 (2.1 MB) 32x8x2 lost (1.02e11 against 1.06e11),
  // and so did 768^3 (4.7 MB: 0.90e11 against 1.06e11 in a sweep), hence 6 MiB.
  static constexpr std::array<int, 3> tile_large_planes{32, 8, 2};
  static constexpr std::size_t large_plane_bytes = std::size_t(6) << 20;
  // The segment march, written with Views, measured slower here: 0.79e11 SU/s at segment 4,
  // 0.83e11 at 8, against 1.06e11 for one point per thread (512^3, bench/device/tune.sh).
  static constexpr int interior_segment = 1;
};
#endif

// The tile sizes to use: KokkosIteration's (for the grid's plane size), unless
// AWAVE_KOKKOS_TILE="a,b,c" overrides them (in policy-axis order) for a tuning sweep
// (bench/device/limits.sh).
template <class Iteration>
std::array<int, 3> kokkos_tile(bool large_planes) {
  static const std::optional<std::array<int, 3>> tuned = []() -> std::optional<std::array<int, 3>> {
    std::array<int, 3> e{};
    const char* env = std::getenv("AWAVE_KOKKOS_TILE");
    if (env && std::sscanf(env, "%d,%d,%d", &e[0], &e[1], &e[2]) == 3) return e;
    return std::nullopt;
  }();
  return tuned ? *tuned : large_planes ? Iteration::tile_large_planes : Iteration::tile;
}

// The compiled march segment for planes of plane_bytes (core/step_plan.hpp, plane_bytes).
template <class Iteration>
int march_segment_for(std::size_t plane_bytes) {
  return plane_bytes <= Iteration::short_march_plane_bytes ? Iteration::short_march_segment : Iteration::march_segment;
}

// A segment length: the compiled one (KokkosIteration's interior_segment or march_segment),
// unless AWAVE_KOKKOS_SEGMENT overrides it for a tuning sweep (an MDRange interior segment of 1
// compiles to the one-point body, and stays 1).
inline int kokkos_segment(int compiled) {
  static const int tuned = [] {
    const char* env = std::getenv("AWAVE_KOKKOS_SEGMENT");
    return env ? std::atoi(env) : 0;
  }();
  return compiled > 1 && tuned > 0 ? tuned : compiled;
}

// Rows j per tile of a Marched kernel: the compiled choice, unless AWAVE_KOKKOS_MARCH_ROWS
// overrides it for a tuning sweep.
inline int kokkos_march_rows(int compiled) {
  static const int tuned = [] {
    const char* env = std::getenv("AWAVE_KOKKOS_MARCH_ROWS");
    return env ? std::atoi(env) : 0;
  }();
  return tuned > 0 ? tuned : compiled;
}

// Whether a step of this grid is one Marched kernel: planes above Iteration::march_plane_bytes,
// or above AWAVE_KOKKOS_MARCH_PLANE_BYTES where set (a tuning sweep) on a GPU backend.
template <class Iteration>
bool kokkos_marches(std::size_t plane_bytes) {
  if (Iteration::k_columns) return false;
  static const std::size_t threshold = [] {
    const char* env = std::getenv("AWAVE_KOKKOS_MARCH_PLANE_BYTES");
    return env && *env ? std::size_t(std::strtoull(env, nullptr, 10)) : Iteration::march_plane_bytes;
  }();
  return plane_bytes > threshold;
}

}  // namespace awave
