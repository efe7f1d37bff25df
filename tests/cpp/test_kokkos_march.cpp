// The Kokkos kernels' GPU code paths, run on the host backends so CI checks them against the
// CPU reference without a GPU: the tuned form's flat kernel per step marching every plane with
// the sponge inside (what CUDA and OpenMPTarget run), here 3 planes a work item (3 divides none
// of these interiors), with the sponge tested once per march (CUDA) and at every point
// (OpenMPTarget), indexed through the Views or one offset, in rows or (k, j) tiles; and the
// idiomatic form with CUDA's axis order (k first). The registered forms (host: k columns, and
// MDRange in (i, j, k) order) run in test_equivalence.cpp. Each also as the split step of an MPI
// run (bulk, then x layers). ctest runs these twice: as they are (small grids take the fused
// step) and with AWAVE_FUSED_STEP_POINTS=0.
#include "app/registry.hpp"
#include "core/approx_equal.hpp"
#include "kokkos/kokkos_backends.hpp"
#include "kokkos/wave_kokkos.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace awave;

namespace {
template <class ExecSpace>
struct MarchThree : TunedPolicy<ExecSpace> {
  static constexpr bool k_columns = false;
  static constexpr int march_segment = 3;
  static constexpr std::size_t short_march_plane_bytes = 0;
  static constexpr bool sponge_test_per_march = true;
  static constexpr bool march_one_offset = false;
  static constexpr int march_rows = 1;
};

template <class ExecSpace>
struct MarchThreeTestEveryPoint : MarchThree<ExecSpace> {
  static constexpr bool sponge_test_per_march = false;
};

// The march with sponge layers indexed through one offset (what OpenMPTarget runs).
template <class ExecSpace>
struct MarchThreeTestEveryPointOneOffset : MarchThreeTestEveryPoint<ExecSpace> {
  static constexpr bool march_one_offset = true;
};

// Work items in (k, j) tiles of 32 x 4 (core/march_tiles.hpp): the shapes below have partial
// tiles in k and j (nz 9 or 64, ny 17, 30) and whole ones.
template <class ExecSpace>
struct MarchThreeTiles : MarchThree<ExecSpace> {
  static constexpr int march_rows = 4;
};

// The idiomatic form in CUDA's axis order: (k, j, i), tiles of Kokkos' choosing.
template <class ExecSpace>
struct KFirstAxes {
  static constexpr bool k_first = true;
  static constexpr Kokkos::Iterate iterate = Kokkos::Iterate::Left;
  static constexpr std::array<int, 3> tile{0, 0, 0};
};

template <class Step>
void expect_matches_reference(const std::string& id) {
  for (const auto shape : {std::array<int, 3>{8, 8, 1}, {33, 17, 9}, {40, 24, 64}, {9, 30, 2}}) {
    SCOPED_TRACE(id + " " + std::to_string(shape[0]) + "x" + std::to_string(shape[1]) + "x" + std::to_string(shape[2]));
    WaveParams params;
    params.shape = shape;
    const WaveProblem problem(params);
    auto cpu = make_implementation(*find_implementation("cpu"), problem);
    WaveKokkos<Step> marching(problem,
                              plan_steps(params, whole_grid(params.nx()), WaveKokkos<Step>::kCan, DeviceTraits{}), id);
    for (int len : {5, 5, 2}) {
      cpu->run(len);
      marching.run(len);
    }
    if (SplitStep* split = marching.split_step())  // two steps split as over MPI (one process: no halo to wait for)
      for (int n = 0; n < 2; ++n) {
        cpu->run(1);
        split->queue_step_part(StepRegion::bulk);
        split->queue_step_part(StepRegion::edges);
        split->finish_step();
      }
    const std::size_t n = problem.geometry().size();
    std::vector<double> ref_now(n), ref_prev(n), now(n), prev(n);
    cpu->copy_u_to_host(ref_now.data(), ref_prev.data());
    marching.copy_u_to_host(now.data(), prev.data());
    EXPECT_EQ(compare_fields(ref_now.data(), now.data(), n).bitwise_differences, 0u);
    EXPECT_EQ(compare_fields(ref_prev.data(), prev.data(), n).bitwise_differences, 0u);
  }
}
}  // namespace

TEST(KokkosGpuCodePaths, MatchCpuReferenceOnEveryHostBackend) {
  int backends = 0;
  for_each_kokkos_backend([&backends](auto backend, const char* id) {
    using Backend = decltype(backend);
    if constexpr (Backend::on_host) {
      using Space = typename Backend::type;
      const std::string name = id;
      expect_matches_reference<TunedStep<Space, MarchThree<Space>>>(name + "-march3");
      expect_matches_reference<TunedStep<Space, MarchThreeTestEveryPoint<Space>>>(name + "-march3-every-point");
      expect_matches_reference<TunedStep<Space, MarchThreeTiles<Space>>>(name + "-march3-tiles");
      expect_matches_reference<TunedStep<Space, MarchThreeTestEveryPointOneOffset<Space>>>(
          name + "-march3-every-point-one-offset");
      expect_matches_reference<IdiomaticStep<Space, KFirstAxes<Space>>>(name + "-mdrange-k-first");
      ++backends;
    }
  });
  EXPECT_GE(backends, 1) << "a build always has at least one host Kokkos backend";
}

// The marches may index the three time levels through one offset: one_layout must refuse levels of
// another shape, or with k not contiguous, and accept the ring's.
TEST(KokkosGpuCodePaths, OneLayoutRefusesLevelsThatDiffer) {
  using Field = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  Field a("a", 4, 5, 6), b("b", 4, 5, 6), c("c", 4, 5, 6), other("other", 4, 6, 5);
  EXPECT_TRUE(one_layout(a, b, c));
  EXPECT_FALSE(one_layout(a, b, other));
  EXPECT_FALSE(one_layout(a, other, c));
  using Strided = Kokkos::View<double***, Kokkos::LayoutStride, Kokkos::HostSpace>;
  Kokkos::View<double***, Kokkos::LayoutLeft, Kokkos::HostSpace> left("left", 4, 5, 6);
  const Strided sa(a), sleft(left);
  EXPECT_FALSE(one_layout(sleft, sleft, sleft)) << "k is not contiguous in LayoutLeft";
  EXPECT_FALSE(one_layout(sa, sleft, sa));
  EXPECT_TRUE(one_layout(sa, sa, sa));
}

#if defined(KOKKOS_ENABLE_OPENMPTARGET)
// Kokkos' OpenMPTarget regions name no num_teams: the build lifts clang's 3200-team cap from a
// shared library's constructor before the offload runtime starts (src/kokkos/offload_team_cap.cpp).
TEST(KokkosOffloadRuntime, TeamCapLiftedBeforeTheRuntimeStarts) {
  const char* reuse = std::getenv("LIBOMPTARGET_REUSE_BLOCKS_FOR_HIGH_TRIP_COUNT");
  ASSERT_NE(reuse, nullptr) << "libawave_offload_team_cap's constructor did not run";
  EXPECT_STREQ(reuse, "0");
}
#endif
