// Every implementation of the build against the CPU reference, point by point (padded fields,
// ghosts included) on cubic, non-cubic and thin grids, in uneven chunks. Compiled twice: for
// the host implementations, and (AWAVE_TEST_ON_DEVICE=1, label gpu) for the accelerator ones;
// both also run a long one. ctest runs them again with AWAVE_STEPS_PER_SWEEP=3 (the
// temporal-blocking sweep, core/step_plan.hpp, on every grid it applies to).
#include "app/gpu_energy.hpp"
#include "app/registry.hpp"
#include "core/approx_equal.hpp"
#include "core/step_plan.hpp"
#include "io/integrity.hpp"
#include "test_expectation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>

#ifndef AWAVE_TEST_ON_DEVICE
#define AWAVE_TEST_ON_DEVICE 0
#endif

using namespace awave;

namespace {

struct Case {
  std::string impl;
  std::array<int, 3> shape;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.impl << " " << c.shape[0] << "x" << c.shape[1] << "x" << c.shape[2];
}

std::vector<Case> cases() {
  // (8 x 21 x 3 and 13 x 8 x 5: the thinnest grids the sweep takes)
  const std::array<int, 3> shapes[] = {{8, 8, 1},  {33, 17, 9}, {40, 24, 64}, {64, 64, 64},
                                       {9, 30, 2}, {8, 21, 3},  {13, 8, 5}};
  std::vector<Case> out;
  for (const ImplEntry& e : implementations())
    if (e.id != "cpu" && e.on_device == bool(AWAVE_TEST_ON_DEVICE))
      for (const auto& s : shapes) out.push_back({e.id, s});
  return out;
}

// An implementation id as gtest takes it in a test's name.
std::string name_of(std::string id) {
  for (char& c : id)
    if (c == '-') c = '_';
  return id;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return name_of(info.param.impl) + "_" + std::to_string(info.param.shape[0]) + "x" +
         std::to_string(info.param.shape[1]) + "x" + std::to_string(info.param.shape[2]);
}

struct Fields {
  std::vector<double> now, prev;
  long time;
};

// Runs `impl` in chunks: by default 12 steps in chunks of 5, 4, 3 (a sweep of three steps and a
// remainder of 2, of 1, of none).
Fields run_chunks(WaveImpl& impl, std::size_t size, std::initializer_list<int> chunks = {5, 4, 3}) {
  for (int len : chunks) impl.run(len);
  Fields f{std::vector<double>(size), std::vector<double>(size), impl.time_step()};
  impl.copy_u_to_host(f.now.data(), f.prev.data());
  return f;
}

const Fields& reference(const WaveProblem& problem) {
  static std::map<std::array<int, 3>, Fields> cache;
  const auto shape = problem.params().shape;
  auto it = cache.find(shape);
  if (it == cache.end()) {
    auto cpu = make_implementation(*find_implementation("cpu"), problem);
    it = cache.emplace(shape, run_chunks(*cpu, problem.geometry().size())).first;
  }
  return it->second;
}

class MatchesCpuReference : public ::testing::TestWithParam<Case> {};

}  // namespace

TEST_P(MatchesCpuReference, EveryPointOfNowAndPrev) {
  WaveParams params;
  params.shape = GetParam().shape;
  const WaveProblem problem(params);
  const Fields& ref = reference(problem);
  const ImplEntry& entry = *find_implementation(GetParam().impl);
  auto impl = make_implementation(entry, problem);
  // The plan the implementation was made with, against the one the ctest entry's environment
  // must give (tests/CMakeLists.txt).
  const StepPlan& plan = impl->plan();
  const std::string& expected = awave_test::expected_plan();
  if (expected == "sweep" && entry.can.sweep && params.nz() >= 3)
    EXPECT_EQ(plan.steps_per_sweep, 3) << "the sweep's run must sweep";
  else
    EXPECT_EQ(plan.steps_per_sweep, 1) << "only the sweep's run sweeps these small grids";
  if (expected == "three_kernel_step" && entry.can.three_kernel_step && params.nx() >= 2 * kBoundaryLayers)
    EXPECT_FALSE(plan.fused_step) << "the three-kernel run must take three kernels";
  else
    EXPECT_TRUE(plan.fused_step) << "these small grids take fused steps by default";
  const Fields got = run_chunks(*impl, problem.geometry().size());
  EXPECT_EQ(got.time, 12);
  EXPECT_EQ(compare_fields(ref.now.data(), got.now.data(), ref.now.size()).bitwise_differences, 0u);
  EXPECT_EQ(compare_fields(ref.prev.data(), got.prev.data(), ref.prev.size()).bitwise_differences, 0u);
  // The wave has moved: a comparison of two untouched initial states would prove nothing.
  std::vector<double> initial(problem.geometry().size());
  problem.fill_initial_u(initial.data());
  EXPECT_GT(count_differences(initial.data(), got.now.data(), initial.size()), 0u);
}

INSTANTIATE_TEST_SUITE_P(Implementations, MatchesCpuReference, ::testing::ValuesIn(cases()), case_name);

// A long run, 301 steps in chunks of 100, 100 and 101 (sweeps with remainders of 1 and 2 steps
// where the sweep runs) on a grid of several tiles and segments with partial ones in every
// direction (97 = 64 + 33 planes; 61 = 4 x 14 + 5 rows; 33 = 26 + 7 depths; core/sweep_march.hpp).
class LongRun : public ::testing::TestWithParam<std::string> {};
TEST_P(LongRun, EndsWithTheReferenceBits) {
  WaveParams params;
  params.shape = {97, 61, 33};
  const WaveProblem problem(params);
  const std::size_t size = problem.geometry().size();
  static const Fields ref = run_chunks(*make_implementation(*find_implementation("cpu"), problem), size, {100, 100, 101});
  const Fields got = run_chunks(*make_implementation(*find_implementation(GetParam()), problem), size, {100, 100, 101});
  EXPECT_EQ(got.time, 301);
  EXPECT_EQ(compare_fields(ref.now.data(), got.now.data(), size).bitwise_differences, 0u);
  EXPECT_EQ(compare_fields(ref.prev.data(), got.prev.data(), size).bitwise_differences, 0u);
}
std::vector<std::string> tested_implementations() {  // this executable's: host or device ones
  std::vector<std::string> ids;
  for (const ImplEntry& e : implementations())
    if (e.id != "cpu" && e.on_device == bool(AWAVE_TEST_ON_DEVICE)) ids.push_back(e.id);
  return ids;
}
INSTANTIATE_TEST_SUITE_P(Implementations, LongRun, ::testing::ValuesIn(tested_implementations()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return name_of(info.param); });

// awave -digest without -check (io/integrity.hpp): the digest from slabs of `now` copied back (1
// plane, 4 planes, which do not divide 97, every plane) is the whole field's; a value changed in
// the last, partial slab changes it; a NaN there takes the whole copy back, whose scan names it.
class SlabDigest : public ::testing::TestWithParam<std::string> {};
TEST_P(SlabDigest, IsTheWholeFieldsDigest) {
  WaveParams params;
  params.shape = {97, 61, 33};
  const WaveProblem problem(params);
  const PaddedGeometry g = problem.geometry();
  auto impl = make_implementation(*find_implementation(GetParam()), problem);
  impl->run(7);
  const auto slab = [&](int planes) {
    return field_digest(*impl, g, std::size_t(planes) * g.stride_i() * sizeof(double));
  };
  const std::uint32_t whole = field_digest(impl->now_on_host().data(), g);
  for (int planes : {1, 4, 97}) EXPECT_EQ(slab(planes), whole) << planes << " planes a slab";
  std::vector<double> plane(g.stride_i());
  impl->copy_planes_to_host(TimeLevel::now, 97, 1, plane.data());
  plane[g.index(0, 30, 10)] = std::nextafter(plane[g.index(0, 30, 10)], 1.0);
  impl->copy_host_to_planes(TimeLevel::now, 97, 1, plane.data());
  const std::uint32_t changed = slab(4);
  EXPECT_NE(changed, whole);
  EXPECT_EQ(changed, field_digest(impl->now_on_host().data(), g));
  ASSERT_FALSE(impl->first_non_finite());
  plane[g.index(0, 30, 10)] = std::numeric_limits<double>::quiet_NaN();
  impl->copy_host_to_planes(TimeLevel::now, 97, 1, plane.data());
  slab(4);
  ASSERT_TRUE(impl->first_non_finite()) << "the slab's scan must hand the NaN to the whole copy's";
  EXPECT_EQ(impl->first_non_finite()->pi, 97);
  EXPECT_EQ(impl->first_non_finite()->pj, 30);
}
INSTANTIATE_TEST_SUITE_P(Implementations, SlabDigest, ::testing::ValuesIn(tested_implementations()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return name_of(info.param); });

#if AWAVE_TEST_ON_DEVICE
// On a GPU machine the accelerator names its PCI bus id, NVML's energy counter of that GPU is found
// and read (app/gpu_energy.hpp: -json's energy of the GPU codes), and it does not go back over steps.
TEST(GpuEnergy, TheGpusCounterIsRead) {
  ASSERT_TRUE(accelerator_pci_bus_id()) << "the accelerator gives no PCI bus id";
  const GpuEnergyCounter counter = GpuEnergyCounter::of_gpu(accelerator_pci_bus_id());
  const std::optional<std::uint64_t> before = counter.millijoules();
  ASSERT_TRUE(before) << "no NVML energy counter for the GPU at " << *accelerator_pci_bus_id();
  WaveParams params;
  params.shape = {128, 128, 128};
  const WaveProblem problem(params);
  for (const std::string& id : tested_implementations()) make_implementation(*find_implementation(id), problem)->run(20);
  const std::optional<std::uint64_t> after = counter.millijoules();
  ASSERT_TRUE(after);
  EXPECT_GE(*after, *before);
}

// Hand OpenMP offload's step region takes one work item per thread and has no loop for a runtime
// that runs fewer teams or threads than it asks for; such steps must never leave the device. ctest
// runs this with AWAVE_OMP_TEAMS=3 (3 teams where a 64^3 grid needs 128) and the marching step.
TEST(OmpStepRegion, RefusesAFieldFromFewerTeamsThanItAskedFor) {
  const char* teams = std::getenv("AWAVE_OMP_TEAMS");
  const ImplEntry* omp = find_implementation("omp");
  // Registered only as ctest's omp_few_teams_refused entry, which sets both (tests/CMakeLists.txt).
  ASSERT_TRUE(omp) << "a build without hand OpenMP offload";
  ASSERT_TRUE(teams && std::atoi(teams) > 0 && !std::getenv("AWAVE_OMP_LOOP"))
      << "needs AWAVE_OMP_TEAMS=N and no AWAVE_OMP_LOOP (ctest's omp_few_teams_refused run)";
  WaveParams params;
  params.shape = {64, 64, 64};
  const WaveProblem problem(params);
  auto impl = make_implementation(*omp, problem);
  impl->run(2);
  std::vector<double> now(problem.geometry().size()), prev(now.size());
  try {
    impl->copy_u_to_host(now.data(), prev.data());
    FAIL() << "a field from incomplete steps left the device";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("fewer teams or threads"), std::string::npos) << e.what();
  }
}
#endif
