// Three steps in one sweep of the grid the portable way: a TeamPolicy team a tile, its planes in
// team scratch memory. On Kokkos::Cuda and OpenMPTarget (SweepStep), the GPU's
// sweep (core/sweep_march.hpp): team_barrier() the plane's barrier; team rank r is column
// (r % kColumnsK, r / kColumnsK), so a warp is a row of columns (team ranks are threadIdx.y
// there). On the host backends (CacheSweepStep) the CPU's (core/cache_sweep.hpp): teams of one
// thread, each tile's level buffer its team's level-1 scratch.
#pragma once

#include "core/cache_sweep.hpp"
#include "core/step_plan.hpp"
#include "core/sweep_march.hpp"

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace awave {

template <class ExecSpace>
inline constexpr bool kokkos_cache_sweeps = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
template <class ExecSpace>
inline constexpr bool kokkos_team_sweeps = false;  // the GPU's sweep (SweepStep)
#if defined(KOKKOS_ENABLE_CUDA)
template <>
inline constexpr bool kokkos_team_sweeps<Kokkos::Cuda> = true;
#endif
// On OpenMPTarget where team_scratch(0) points into the team's own block: from Kokkos 3.6, or 3.4.01
// with the project's patch (cmake/patches/kokkos-3.4.01/0004, upstream 17950d1c6). Without it the
// sweep hit an illegal memory access at 1000^3 and on every grid of fewer than 260 teams
// (bench/results/h100-2026-11-25/offload-sweep-b7d26f3).
#if defined(KOKKOS_ENABLE_OPENMPTARGET) && (KOKKOS_VERSION >= 30600 || defined(AWAVE_KOKKOS_PATCHED_OMPT_TEAM_SCRATCH))
template <>
inline constexpr bool kokkos_team_sweeps<Kokkos::Experimental::OpenMPTarget> = true;
#endif
template <class ExecSpace>
inline constexpr bool kokkos_sweeps = kokkos_cache_sweeps<ExecSpace> || kokkos_team_sweeps<ExecSpace>;
// Which sweep, for the grids it sweeps by default (core/step_plan.hpp, sweep_min_points).
template <class ExecSpace>
inline constexpr SweepForm kokkos_sweep_form =
    kokkos_cache_sweeps<ExecSpace> ? SweepForm::cache_tiles : SweepForm::gpu_teams;
#if defined(KOKKOS_ENABLE_OPENMPTARGET)
template <>
inline constexpr SweepForm kokkos_sweep_form<Kokkos::Experimental::OpenMPTarget> = SweepForm::offload_teams;
#endif

// Whether Kokkos' team sweep can take the march's bulk planes (core/sweep_march.hpp; the plan decides
// where: core/step_plan.hpp, sweep_bulk_planes): on CUDA, with the functor in constant memory (below).
template <class ExecSpace>
inline constexpr bool kokkos_bulk_planes = false;
#if defined(KOKKOS_ENABLE_CUDA)
template <>
inline constexpr bool kokkos_bulk_planes<Kokkos::Cuda> = true;
#endif

// BulkPlanes: the march's bulk planes, launched with Kokkos' HintHeavyWeight property, which puts the
// functor in constant memory instead of a kernel argument the kernel copies to local memory. On the
// H200 that ran Kokkos-CUDA's sweep at 1.14 / 1.15 x its general march at 512^3 / 1000^3 (0.91 /
// 0.93 of hand CUDA's, Kokkos 3.4.01 and 4.6.01 alike), where the bulk planes alone ran 0.92 x and
// the constant memory alone 0.85 x; on the H100 0.95 x, so the plan keeps them off there
// (bench/results/h200-2026-11-27/kokkos-heavy-780cca0, h100-2026-11-27/kokkos-heavy-780cca0).
template <class ExecSpace, bool BulkPlanes = false>
struct SweepStep {
  // Two teams an SM, as hand CUDA's blocks (48 registers).
  using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<SweepTile::kThreads, SweepTile::kTeamsAnSm>>;
  SweepFields fields;
  // The league: a power of two of teams a segment (the tiles, padded; a padding team returns at
  // once), so a team's segment is its rank's high bits and its tile the low ones, with no division.
  // On the H100 at 512^3 that and the fields by value ran the sweep at 0.955 of hand CUDA's, the
  // divisions and a reference 0.85 (48 registers both; 8 and 24 B spilled): the segment is then
  // team-uniform arithmetic nvcc keeps off the registers (bench/results/h100-2026-11-26/kokkos-sweep-fa89705).
  int tile_bits = 0;

  explicit SweepStep(const SweepFields& sweep) : fields(sweep) {
    const int tiles = SweepTile::teams_k(fields.nz) * SweepTile::teams_j(fields.ny);
    while ((1 << tile_bits) < tiles) ++tile_bits;
  }

  // Under Kokkos 3.x OpenMPTarget's TeamPolicy(instance, ...) does not compile (its constructors
  // take the instance by non-const reference): there, the default instance, its only one.
  static Policy policy(const ExecSpace& exec, int league) {
#if defined(KOKKOS_ENABLE_OPENMPTARGET) && KOKKOS_VERSION < 40000
    if constexpr (std::is_same_v<ExecSpace, Kokkos::Experimental::OpenMPTarget>)
      return Policy(league, SweepTile::kThreads);
    else
#endif
      return Policy(exec, league, SweepTile::kThreads);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const typename Policy::member_type& team) const {
#if defined(KOKKOS_ENABLE_OPENMPTARGET)
    // OpenMPTarget may give a team fewer threads than asked; a column without its thread would
    // be left unswept (CUDA's teams have the size asked or fail to launch).
    if (team.team_size() != SweepTile::kThreads) Kokkos::abort("wave::sweep: a team without a thread a column");
#endif
    const unsigned t = team.league_rank(), r = team.team_rank(), teams_k = SweepTile::teams_k(fields.nz);
    const unsigned tile = t & ((1u << tile_bits) - 1u), segment = t >> tile_bits;
    if (tile >= teams_k * unsigned(SweepTile::teams_j(fields.ny))) return;  // padding
    // (a temporary: get_shmem takes a reference, which device code cannot bind to a static member)
    double* scratch = static_cast<double*>(team.team_scratch(0).get_shmem(std::size_t(SweepTile::kScratchBytes)));
    sweep_march<SweepFields, BulkPlanes>(fields, tile % teams_k, tile / teams_k, segment, r % SweepTile::kColumnsK,
                                         r / SweepTile::kColumnsK, scratch, [&] { team.team_barrier(); });
  }

  // The sweep's league with its scratch, before any launch property.
  Policy teams(const ExecSpace& exec) const {
    const int league = (1 << tile_bits) * SweepTile::teams_i(fields.nx);
    return policy(exec, league).set_scratch_size(0, Kokkos::PerTeam(SweepTile::kScratchBytes));
  }

  // That league with the functor in constant memory (HintHeavyWeight; BulkPlanes above says why).
  auto heavy_teams(const ExecSpace& exec) const {
    return Kokkos::Experimental::require(teams(exec), Kokkos::Experimental::WorkItemProperty::HintHeavyWeight);
  }

  void launch(const ExecSpace& exec) const {
    if constexpr (BulkPlanes)
      Kokkos::parallel_for("wave::sweep", heavy_teams(exec), *this);
    else
      Kokkos::parallel_for("wave::sweep", teams(exec), *this);
  }
};

template <class ExecSpace>
struct CacheSweepStep {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  SweepFields fields;
  CacheSweep shape;

  void operator()(const typename Policy::member_type& team) const {
    const std::size_t bytes = shape.buffer_doubles(fields.nz) * sizeof(double);
    double* buffer = static_cast<double*>(team.team_scratch(1).get_shmem(bytes));
    const int t = team.league_rank();
    cache_sweep_tile(fields, shape, t % shape.tiles_j, t / shape.tiles_j, buffer);
  }

  void launch(const ExecSpace& exec) const {
    const std::size_t bytes = shape.buffer_doubles(fields.nz) * sizeof(double);
    Kokkos::parallel_for("wave::cache_sweep",
                         Policy(exec, shape.tiles(), 1).set_scratch_size(1, Kokkos::PerTeam(bytes)), *this);
  }
};

}  // namespace awave
