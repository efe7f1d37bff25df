// The per-backend choices of the two Kokkos forms, in one place. Fields are LayoutRight (k
// contiguous) on every backend, as the CPU reference stores them.
// - IdiomaticPolicy (idiomatic_step.hpp): the MDRange axis order and tile, nothing else.
// - TunedPolicy (tuned_step.hpp): how the hand-scheduled kernels cut the work.
// The measurements behind each value: the results named beside it, and the report's effort
// ladder and appendix A (bench/report/report.md). A run's tuning keys override them
// (kokkos_launch.hpp).
#pragma once

#include <Kokkos_Core.hpp>

#include <array>
#include <cstddef>

namespace awave {

template <class ExecSpace>
struct IdiomaticPolicy {
  static constexpr bool k_first = false;  // axes (i, j, k): k, contiguous, varies fastest
  static constexpr Kokkos::Iterate iterate = Kokkos::Iterate::Right;
  static constexpr std::array<int, 3> tile{0, 0, 0};  // 0: Kokkos' default
};

template <class ExecSpace>
struct TunedPolicy {
  // Host: (i, j) columns, the contiguous k loop inside: 1.89 x the MDRange form at 512^3 on 16
  // cores (results/h100-2026-11-25/study-a4ec059).
  static constexpr bool k_columns = true;
  static constexpr int march_segment = 16;  // (GPU backends only, below)
  static constexpr std::size_t short_march_plane_bytes = 0;
  static constexpr int short_march_segment = 16;
  static constexpr int march_rows = 1;
  static constexpr bool sponge_test_per_march = true;
  static constexpr bool march_one_offset = false;
};

#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct IdiomaticPolicy<Kokkos::Cuda> {
  // Kokkos' CUDA MDRange puts the first axis on threadIdx.x: k first makes a warp's loads
  // contiguous (the order (i, j, k) ran 13x slower at 512^3 on the H100, docs/toolchain.md, "Kokkos").
  static constexpr bool k_first = true;
  static constexpr Kokkos::Iterate iterate = Kokkos::Iterate::Left;
  // A warp along k, 8 rows of j: +3% against Kokkos' default at 256^3 and 512^3, -6% at 1000^3
  // (H100, results/h100-2026-11-25/study-a4ec059, effort ladder).
  static constexpr std::array<int, 3> tile{32, 8, 1};
};

template <>
struct TunedPolicy<Kokkos::Cuda> {
  static constexpr bool k_columns = false;
  // 16 planes a work item above 4 MiB planes, 8 below: best or within 1% on both GPUs
  // (results/h100-2026-11-24/kokkos-segment-68fdb71 and -6f9c835, h200-2026-11-24/kokkos-segment-e6f9f03).
  static constexpr int march_segment = 16;
  static constexpr std::size_t short_march_plane_bytes = std::size_t(4) << 20;
  static constexpr int short_march_segment = 8;
  static constexpr int march_rows = 4;  // (k, j) tiles of 32 x 4 work items, as hand CUDA's blocks
  static constexpr bool sponge_test_per_march = true;
  // Views, not one offset, in the march that meets a layer: one offset lost 5-9% from 256^3 (H200,
  // results/h200-2026-11-24/sweep-4130739).
  static constexpr bool march_one_offset = false;
};
#endif

#if defined(KOKKOS_ENABLE_OPENMPTARGET)
// Kokkos 3.4's OpenMPTarget MDRange is one collapse(3) loop over the axes: it ignores tiles.
template <>
struct IdiomaticPolicy<Kokkos::Experimental::OpenMPTarget> : IdiomaticPolicy<void> {};

// 16 planes (best of 1-32 at 512^3, results/h100-tuning-2026-11-22) in rows of k (tiles of 4 rows
// level, results/h100-2026-11-24/kokkos-ompt-cap-8aee5b1): the defaults above.
template <>
struct TunedPolicy<Kokkos::Experimental::OpenMPTarget> : TunedPolicy<void> {
  static constexpr bool k_columns = false;
  // A test per point: clang's code for the per-march test was slower (results/h200-2026-11-23/kernel-shapes).
  static constexpr bool sponge_test_per_march = false;
  // One offset: 85 registers against 89, +0-8% (results/h100-2026-11-24/kokkos-ompt-offset-a407c5b).
  static constexpr bool march_one_offset = true;
};
#endif

}  // namespace awave
