// Kokkos 3.4's OpenMPTarget RangePolicy region names no num_teams, and clang 19's offload runtime
// then caps it at 3200 teams, each thread looping over several work items (hand omp names its
// teams). LIBOMPTARGET_REUSE_BLOCKS_FOR_HIGH_TRIP_COUNT=0 lifts the cap: 1.06 x at 1000^3 on the
// H100 (bench/results/h100-2026-11-24/kokkos-ompt-offset-a407c5b).
//
// The runtime reads the variable when it creates its devices, from the offload registration that
// clang puts in the executable's constructors at priority 1: a constructor of awave's own runs
// too late, and .preinit_array runs before the C library sets up the environment (a setenv there
// is lost). A shared library's constructors run after the C library's and before any of the
// executable's, so this file is one (src/CMakeLists.txt). A value in the environment is kept.
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace {
constexpr const char* kReuseBlocks = "LIBOMPTARGET_REUSE_BLOCKS_FOR_HIGH_TRIP_COUNT";
struct LiftOffloadTeamCap {
  LiftOffloadTeamCap() { setenv(kReuseBlocks, "0", /*overwrite=*/0); }
} lift_offload_team_cap;
}  // namespace

// Whether the cap is lifted for this process (a user may have set the variable otherwise).
extern "C" bool awave_offload_team_cap_lifted() {
  const char* v = std::getenv(kReuseBlocks);
  if (!v) return false;
  for (const char* off : {"0", "false", "False", "FALSE", "off", "OFF"})  // what the runtime reads as false
    if (std::strcmp(v, off) == 0) return true;
  return false;
}
