// Three steps in one sweep of the grid (core/sweep_march.hpp) the portable way: a TeamPolicy team
// a tile, its planes in team scratch memory, team_barrier() the plane's barrier; team rank r is
// column (r % kColumnsK, r / kColumnsK), so a warp is a row of columns on CUDA (team ranks are
// threadIdx.y there). Taken by the tuned form on Kokkos::Cuda, where the study measured it; other
// backends keep single steps (their teams are not the 640 threads a tile has).
#pragma once

#include "core/sweep_march.hpp"

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace awave {

#if defined(KOKKOS_ENABLE_CUDA)
template <class ExecSpace>
inline constexpr bool kokkos_sweeps = std::is_same_v<ExecSpace, Kokkos::Cuda>;
#else
template <class ExecSpace>
inline constexpr bool kokkos_sweeps = false;
#endif

template <class ExecSpace>
struct SweepStep {
  // Two teams an SM, as hand CUDA's blocks (48 registers).
  using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<SweepTile::kThreads, 2>>;
  SweepFields fields;

  KOKKOS_INLINE_FUNCTION void operator()(const typename Policy::member_type& team) const {
    const int teams_k = SweepTile::teams_k(fields.nz), teams_j = SweepTile::teams_j(fields.ny);
    const int t = team.league_rank(), r = team.team_rank();
    // (a temporary: get_shmem takes a reference, which device code cannot bind to a static member)
    double* scratch = static_cast<double*>(team.team_scratch(0).get_shmem(std::size_t(SweepTile::kScratchBytes)));
    sweep_march(fields, t % teams_k, (t / teams_k) % teams_j, t / (teams_k * teams_j), r % SweepTile::kColumnsK,
                r / SweepTile::kColumnsK, scratch, [&] { team.team_barrier(); });
  }

  void launch(const ExecSpace& exec) const {
    const int league = SweepTile::teams_k(fields.nz) * SweepTile::teams_j(fields.ny) * SweepTile::teams_i(fields.nx);
    Kokkos::parallel_for(
        "wave::sweep",
        Policy(exec, league, SweepTile::kThreads).set_scratch_size(0, Kokkos::PerTeam(SweepTile::kScratchBytes)),
        *this);
  }
};

}  // namespace awave
