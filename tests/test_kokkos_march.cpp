// The Kokkos interior kernel's segment march (each work item walks i over a segment with the
// i-neighbours in registers) is what the OpenMPTarget backend runs; here the same kernel code
// runs on Kokkos-Serial, marching 3 points (3 divides none of these interiors), so CI checks it
// against the CPU reference without a GPU.
#include "core/approx_equal.hpp"
#include "core/wave_impl.hpp"
#include "kokkos/wave_kokkos.hpp"

#include <gtest/gtest.h>

using namespace awave;

namespace {
struct MarchOnHost : KokkosIteration<Kokkos::Serial> {
  static constexpr int interior_segment = 3;
};
}  // namespace

TEST(KokkosSegmentMarch, MatchesCpuReference) {
  for (const auto shape : {std::array<int, 3>{8, 8, 1}, {33, 17, 9}, {40, 24, 64}, {9, 30, 2}}) {
    WaveParams params;
    params.shape = shape;
    const WaveProblem problem(params);
    auto cpu = find_implementation("cpu")->make(problem);
    WaveKokkos<Kokkos::Serial, MarchOnHost> marching(problem, "kokkos-serial-march3");
    for (int len : {5, 5, 2}) {
      cpu->run(len);
      marching.run(len);
    }
    const std::size_t n = problem.geometry().size();
    std::vector<double> ref_now(n), ref_prev(n), now(n), prev(n);
    cpu->copy_u_to_host(ref_now.data(), ref_prev.data());
    marching.copy_u_to_host(now.data(), prev.data());
    EXPECT_EQ(count_differences(ref_now.data(), now.data(), n), 0u) << shape[0] << "x" << shape[1] << "x" << shape[2];
    EXPECT_EQ(count_differences(ref_prev.data(), prev.data(), n), 0u);
  }
}
