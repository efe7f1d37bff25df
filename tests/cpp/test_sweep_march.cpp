// The GPU sweep's march (core/sweep_march.hpp), which hand CUDA, Kokkos-CUDA and both OpenMP
// offload codes run, checked on the host so that CI sees its bits without a GPU: a team's
// SweepTile::kThreads columns as as many threads sharing a barrier and the team's scratch, team
// after team (the teams of one sweep are independent), three steps against the CPU reference's.
#include "app/registry.hpp"
#include "core/approx_equal.hpp"
#include "core/slab.hpp"
#include "core/sweep_march.hpp"
#include "core/wave_problem.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace awave;

namespace {

// A reusable barrier for n threads (C++17 has no std::barrier).
class TeamBarrier {
 public:
  explicit TeamBarrier(int n) : n_(n) {}
  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    const long generation = generation_;
    if (++arrived_ == n_) {
      arrived_ = 0;
      ++generation_;
      all_arrived_.notify_all();
    } else {
      all_arrived_.wait(lock, [&] { return generation_ != generation; });
    }
  }

 private:
  std::mutex mutex_;
  std::condition_variable all_arrived_;
  const int n_;
  int arrived_ = 0;
  long generation_ = 0;
};

// One sweep of the problem's grid from its start state: u(t+2) and u(t+3) (padded, ghost points
// as the start's u(t), as the implementations keep them).
struct Swept {
  std::vector<double> u2, u3;
};
// plant: the speed at the middle depth one ulp off (the check must see it). BulkPlanes: the march's
// form (with the bulk planes, as hand CUDA and hand offload run it; without, as Kokkos does).
template <bool BulkPlanes>
Swept host_sweep(const WaveProblem& problem, bool plant) {
  using T = SweepTile;
  const PaddedGeometry g = problem.geometry();
  std::vector<double> now(g.size()), prev(g.size());
  problem.fill_start_state(now.data(), prev.data());
  std::vector<double> cs2_k = problem.cs2_k();
  if (plant) cs2_k[g.nz / 2] = std::nextafter(cs2_k[g.nz / 2], 0.0);
  Swept out{now, now};
  const SweepFields a = sweep_fields(problem, out.u2.data(), out.u3.data(), now.data(), prev.data(), cs2_k.data(),
                                     problem.damp_ij().data(), long(g.stride_i()), long(g.stride_j()));
  std::vector<double> scratch(T::kScratchBytes / sizeof(double));
  for (int segment = 0; segment < T::teams_i(g.nx); ++segment)
    for (int tile_j = 0; tile_j < T::teams_j(g.ny); ++tile_j)
      for (int tile_k = 0; tile_k < T::teams_k(g.nz); ++tile_k) {
        TeamBarrier barrier(T::kThreads);
        std::vector<std::thread> columns;
        for (int r = 0; r < T::kThreads; ++r)
          columns.emplace_back([&, r] {
            sweep_march<SweepFields, BulkPlanes>(a, tile_k, tile_j, segment, r % T::kColumnsK, r / T::kColumnsK,
                                                 scratch.data(), [&] { barrier.wait(); });
          });
        for (std::thread& c : columns) c.join();
      }
  return out;
}

template <bool BulkPlanes>
std::size_t sweep_differences(const std::array<int, 3>& shape, bool plant = false) {
  WaveParams params;
  params.shape = shape;
  const WaveProblem problem(params);
  const std::size_t n = problem.geometry().size();
  auto cpu = make_implementation(*find_implementation("cpu"), problem);
  cpu->run(SweepTile::kSteps);
  std::vector<double> now(n), prev(n);
  cpu->copy_u_to_host(now.data(), prev.data());
  const Swept swept = host_sweep<BulkPlanes>(problem, plant);
  return compare_fields(now.data(), swept.u3.data(), n).bitwise_differences +
         compare_fields(prev.data(), swept.u2.data(), n).bitwise_differences;
}

}  // namespace

// Partial tiles and segments in every direction, the sponge's x and y layers and the bulk (at
// 20 x 36, a tile clear of the y layers: the march's bulk planes), one
// whole tile (26 x 14), and the thinnest grids the sweep takes (nx and ny >= 8, two sponge
// layers: core/wave_params.cpp; nz >= 3: core/step_plan.hpp).
TEST(SweepMarchOnTheHost, ThreeStepsGiveTheReferenceBits) {
  for (const auto shape : {std::array<int, 3>{70, 17, 29}, {20, 36, 9}, {9, 14, 26}, {8, 8, 3}, {8, 9, 4}}) {
    SCOPED_TRACE(std::to_string(shape[0]) + "x" + std::to_string(shape[1]) + "x" + std::to_string(shape[2]));
    EXPECT_EQ(sweep_differences<true>(shape), 0u);
    EXPECT_EQ(sweep_differences<false>(shape), 0u);
  }
}

TEST(SweepMarchOnTheHost, APlantedOneUlpDifferenceIsSeen) {
  EXPECT_GT(sweep_differences<true>({20, 36, 9}, true), 0u);
  EXPECT_GT(sweep_differences<false>({9, 14, 26}, true), 0u);
}

// Over MPI a slab sweeps its own planes and the neighbours' it recomputes (halos of 3): its own
// planes after the sweep are the whole grid's, both forms (the bulk planes' x-layer test reads the
// slab's planes, not the grid's). The start's pulse is at plane 30 of 60, so that a slab's edge
// cuts it: the first and last of two slabs, the two middle ones of four.
TEST(SweepMarchOnTheHost, SlabsGiveTheWholeGridsBits) {
  WaveParams params;
  params.shape = {60, 36, 9};
  const WaveProblem whole(params);
  const PaddedGeometry gw = whole.geometry();
  auto cpu = make_implementation(*find_implementation("cpu"), whole);
  cpu->run(SweepTile::kSteps);
  std::vector<double> now(gw.size()), prev(gw.size());
  cpu->copy_u_to_host(now.data(), prev.data());
  for (const auto& [rank, size] : {std::pair{0, 2}, {1, 2}, {1, 4}, {2, 4}}) {
    const Slab slab = with_halo(slab_of(params.nx(), rank, size), SweepTile::kSteps);
    const WaveProblem part(params, std::nullopt, slab);
    const PaddedGeometry gs = part.geometry();
    for (const bool bulk : {true, false}) {
      const Swept swept = bulk ? host_sweep<true>(part, false) : host_sweep<false>(part, false);
      std::size_t differences = 0;
      for (int i = 0; i < slab.nx; ++i)  // the slab's own planes
        for (int j = 0; j < gs.ny + 2; ++j)
          for (int k = 0; k < gs.nz + 2; ++k) {
            const std::size_t q = gs.index(slab.own_padded_plane0() + i, j, k), g = gw.index(1 + slab.offset + i, j, k);
            differences += (swept.u3[q] != now[g]) + (swept.u2[q] != prev[g]);
          }
      EXPECT_EQ(differences, 0u) << "rank " << rank << " of " << size << (bulk ? ", bulk planes" : ", general march");
    }
  }
}
