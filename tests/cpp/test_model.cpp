// The model pieces of docs/model.md, against values computed by hand.
#include "app/driver.hpp"
#include "app/memory_estimate.hpp"
#include "app/registry.hpp"
#include "core/approx_equal.hpp"
#include "core/cache_sweep.hpp"
#include "core/host_field.hpp"
#include "core/sponge.hpp"
#include "core/step_plan.hpp"
#include "core/time_ring.hpp"
#include "core/tuning.hpp"
#include "core/wave_params.hpp"
#include "core/wave_problem.hpp"
#include "core/wave_update.hpp"
#include "cpu/wave_cpu.hpp"
#include "parallel/process_group.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <string>

using namespace awave;

TEST(SoundSpeed, AtTablePoints) {
  EXPECT_DOUBLE_EQ(sound_speed_at_depth(0.0), 1540.4);
  EXPECT_DOUBLE_EQ(sound_speed_at_depth(10.0), 1540.5);
  EXPECT_DOUBLE_EQ(sound_speed_at_depth(30.0), 1534.4);
  EXPECT_DOUBLE_EQ(sound_speed_at_depth(1750.0), 1536.7);
}

TEST(SoundSpeed, BetweenTablePointsIsLinear) {
  EXPECT_DOUBLE_EQ(sound_speed_at_depth(5.0), 1540.45);
  EXPECT_DOUBLE_EQ(sound_speed_at_depth(40.0), 1534.4 + 0.5 * (1523.3 - 1534.4));
  EXPECT_DOUBLE_EQ(sound_speed_at_depth(1875.0), 1536.7 + 0.5 * (1541.0 - 1536.7));
}

TEST(SoundSpeed, BeyondTheEndsIsClamped) {
  EXPECT_DOUBLE_EQ(sound_speed_at_depth(-5.0), 1540.4);
  EXPECT_DOUBLE_EQ(sound_speed_at_depth(2000.0), 1541.0);
  EXPECT_DOUBLE_EQ(sound_speed_at_depth(1e6), 1541.0);
}

TEST(SoundSpeed, ProblemUsesDepthOfLayerK) {
  WaveParams p;
  p.shape = {8, 8, 12};
  p.dx = 5.0;
  const WaveProblem problem(p);
  for (int k = 0; k < 12; ++k) {
    EXPECT_DOUBLE_EQ(problem.sos_k()[k], sound_speed_at_depth(5.0 * k));
    EXPECT_DOUBLE_EQ(problem.cs2_k()[k], problem.sos_k()[k] * problem.sos_k()[k]);
  }
}

TEST(Damping, RampByHand) {
  // 9 * 1541 * (4 - r)^2 / (2 * 64 * 10)
  const std::vector<double> ramp = damping_ramp(10.0);
  ASSERT_EQ(ramp.size(), 4u);
  EXPECT_DOUBLE_EQ(ramp[0], 173.3625);
  EXPECT_DOUBLE_EQ(ramp[1], 97.51640625);
  EXPECT_DOUBLE_EQ(ramp[2], 43.340625);
  EXPECT_DOUBLE_EQ(ramp[3], 10.83515625);
}

// The sponge's geometry (core/sponge.hpp), against the spec's words on every axis length from
// the smallest valid one: layers are the nbl points at each face, the layer index walks them low
// face first, the bulk is what is left, the ramp's index is the distance from the face.
TEST(Sponge, GeometryByHand) {
  for (int n = 2 * kBoundaryLayers; n <= 2 * kBoundaryLayers + 5; ++n) {
    std::vector<int> layer_points;
    for (int i = 0; i < n; ++i) {
      const bool low = i < kBoundaryLayers, high = n - 1 - i < kBoundaryLayers;
      EXPECT_EQ(sponge::in_layer(i, n), low || high) << n << " " << i;
      if (low || high) {
        layer_points.push_back(i);
        EXPECT_EQ(sponge::depth_in_layer(i, n), low ? i : n - 1 - i) << n << " " << i;
      }
    }
    ASSERT_EQ(int(layer_points.size()), 2 * kBoundaryLayers) << n;
    for (int r = 0; r < 2 * kBoundaryLayers; ++r) EXPECT_EQ(sponge::layer_index(r, n), layer_points[r]) << n;
    EXPECT_EQ(sponge::bulk_points(n), n - 2 * kBoundaryLayers);
    EXPECT_EQ(sponge::bulk_end(n) - kBoundaryLayers, sponge::bulk_points(n));
  }
  EXPECT_TRUE(sponge::damped(0, 20, 30, 40)) << "an x layer";
  EXPECT_TRUE(sponge::damped(15, 39, 30, 40)) << "a y layer";
  EXPECT_FALSE(sponge::damped(4, 4, 30, 40)) << "the first bulk column";
  EXPECT_FALSE(sponge::damped(25, 35, 30, 40)) << "the last bulk column";
  WaveParams p;
  p.shape = {20, 12, 3};
  const WaveProblem problem(p);
  for (int i = 0; i < 20; ++i)
    for (int j = 0; j < 12; ++j) {
      EXPECT_EQ(sponge::damp_at(problem.damp_ij().data(), 12, i, j), problem.damp(i, j));
      EXPECT_EQ(problem.damp(i, j) != 0.0, sponge::damped(i, j, 20, 12)) << i << " " << j;
    }
}

TEST(Damping, BulkLayersAndCorners) {
  WaveParams p;
  p.shape = {32, 20, 3};
  const WaveProblem problem(p);
  const std::vector<double> r = damping_ramp(p.dx);
  EXPECT_EQ(problem.damp(10, 10), 0.0);         // bulk
  EXPECT_EQ(problem.damp(4, 4), 0.0);           // first bulk column
  EXPECT_EQ(problem.damp(27, 15), 0.0);         // last bulk column
  EXPECT_DOUBLE_EQ(problem.damp(0, 10), r[0]);  // x layers, both faces
  EXPECT_DOUBLE_EQ(problem.damp(31, 10), r[0]);
  EXPECT_DOUBLE_EQ(problem.damp(3, 10), r[3]);
  EXPECT_DOUBLE_EQ(problem.damp(28, 10), r[3]);
  EXPECT_DOUBLE_EQ(problem.damp(10, 1), r[1]);  // y layers, both faces
  EXPECT_DOUBLE_EQ(problem.damp(10, 18), r[1]);
  EXPECT_DOUBLE_EQ(problem.damp(0, 0), r[0] * r[0]);  // corners: the product
  EXPECT_DOUBLE_EQ(problem.damp(2, 19), r[2] * r[0]);
  EXPECT_DOUBLE_EQ(problem.damp(30, 17), r[1] * r[2]);
}

TEST(InitialCondition, PulseAtPaddedCentre) {
  WaveParams p;
  p.shape = {32, 20, 9};
  const WaveProblem problem(p);
  const PaddedGeometry g = problem.geometry();
  std::vector<double> u(g.size(), 123.0);
  problem.fill_initial_u(u.data());
  const int hx = 17, hy = 11, hz = 5;  // (n + 2) / 2
  EXPECT_EQ(u[g.index(hx, hy, hz)], 50.0);
  for (auto [di, dj, dk] : {std::array{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}})
    EXPECT_EQ(u[g.index(hx + di, hy + dj, hz + dk)], -50.0 / 6.0);
  EXPECT_EQ(std::count_if(u.begin(), u.end(), [](double x) { return x != 0.0; }), 7);
}

// HostField skips only the zero fill: explicit values and copies are kept, and the parallel fill
// and copy reach every element (odd sizes, fewer elements than threads).
TEST(HostField, FillsAndCopiesEveryElement) {
  for (const std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(100003)}) {
    HostField a(n);
    fill_in_parallel(a.data(), n, 2.5);
    EXPECT_EQ(std::count(a.begin(), a.end(), 2.5), std::ptrdiff_t(n));
    a[n / 2] = -1.0;
    HostField b(n, 9.0);
    copy_in_parallel(a.data(), n, b.data());
    EXPECT_EQ(b, a);
    const HostField c = a;
    EXPECT_EQ(c, a);
  }
}

TEST(InitialCondition, ThinGridSetsZGhostsLikeTheReference) {
  WaveParams p;
  p.shape = {8, 8, 1};
  const WaveProblem problem(p);
  const PaddedGeometry g = problem.geometry();
  std::vector<double> u(g.size());
  problem.fill_initial_u(u.data());
  EXPECT_EQ(u[g.index(5, 5, 1)], 50.0);
  EXPECT_EQ(u[g.index(5, 5, 0)], -50.0 / 6.0);  // z ghosts of a one-layer grid
  EXPECT_EQ(u[g.index(5, 5, 2)], -50.0 / 6.0);
}

TEST(TimeRing, RotatesWithoutCopiesAndCounts) {
  TimeRing<int> ring(0, 1, 2);
  EXPECT_EQ(ring.prev(), 0);
  EXPECT_EQ(ring.now(), 1);
  EXPECT_EQ(ring.next(), 2);
  EXPECT_EQ(ring.time(), 0);
  ring.rotate();  // prev <- now <- next
  EXPECT_EQ(ring.prev(), 1);
  EXPECT_EQ(ring.now(), 2);
  EXPECT_EQ(ring.next(), 0);
  EXPECT_EQ(ring.time(), 1);
  ring.rotate();
  ring.rotate();
  EXPECT_EQ(ring.now(), 1);
  EXPECT_EQ(ring.time(), 3);
  ring.next() = 7;  // levels are handles held in place
  ring.rotate();
  EXPECT_EQ(ring.now(), 7);
}

TEST(UpdateFormula, UndampedByHand) {
  const Stencil7 s{1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  // value = 0.01 * 4 * (0 - 6) = -0.24; next = 2 - 0.5 - 0.24
  EXPECT_DOUBLE_EQ(undamped_next(s, 0.5, 4.0, 0.01), 1.26);
  EXPECT_EQ(next_value(s, 0.5, 4.0, 0.0, 0.01, 0.1), undamped_next(s, 0.5, 4.0, 0.01));
  const Stencil7 t{2.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0};  // sum 21 - 12 = 9
  EXPECT_DOUBLE_EQ(undamped_next(t, 1.0, 2.0, 0.5), 4.0 - 1.0 + 9.0);
}

TEST(UpdateFormula, DampedByHand) {
  const Stencil7 s{1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  // d = 10, dt = 0.01: inv = 1/1.1, num = 0.9; next = (2 - 0.9*0.5 - 0.24) / 1.1
  EXPECT_NEAR(next_value(s, 0.5, 4.0, 10.0, 0.01, 0.01), 1.31 / 1.1, 1e-15);
}

TEST(UpdateFormula, SumsNeighboursInReferenceOrder) {
  // With B = 2^53, B + 1 rounds to B: summing -x, +x, -y, +y, ... in that order gives
  // ((B + 1) - B) + 1 = 1, where pairing the big terms first would give 2.
  const double B = 9007199254740992.0;
  const Stencil7 s{0.0, B, 1.0, -B, 1.0, 0.0, 0.0};
  EXPECT_EQ(stencil_value(s, 1.0, 1.0), 1.0);
  const Stencil7 t{0.0, 1.0, B, -B, 0.0, 0.0, 0.0};  // (1 + B) - B = 0, not 1
  EXPECT_EQ(stencil_value(t, 1.0, 1.0), 0.0);
}

TEST(ApproxEqual, EdgeCases) {
  const double tiny = std::numeric_limits<double>::min();
  EXPECT_TRUE(approx_equal(1.0, 1.0));
  EXPECT_TRUE(approx_equal(0.0, -0.0));
  EXPECT_TRUE(approx_equal(1.0, 1.0 + 1e-9));
  EXPECT_FALSE(approx_equal(1.0, 1.0 + 1e-7));
  EXPECT_FALSE(approx_equal(1.0, -1.0));
  EXPECT_TRUE(approx_equal(0.0, 1e-320));                              // within 1e-8 * smallest normal
  EXPECT_FALSE(approx_equal(0.0, 1e-300));                             // zero against a normal number
  EXPECT_TRUE(approx_equal(tiny / 4, std::nextafter(tiny / 4, 1.0)));  // subnormals one ulp apart
  EXPECT_FALSE(approx_equal(tiny / 4, tiny / 2));                      // near zero the tolerance is absolute
  EXPECT_FALSE(approx_equal(std::nan(""), std::nan("")));
  EXPECT_FALSE(approx_equal(std::nan(""), 1.0));
  EXPECT_TRUE(approx_equal(INFINITY, INFINITY));
  EXPECT_FALSE(approx_equal(INFINITY, DBL_MAX));
  EXPECT_TRUE(approx_equal(DBL_MAX, DBL_MAX * (1 - 1e-12)));  // |a|+|b| overflows
  // |a|+|b| overflows to infinity; without the min(., DBL_MAX) any two huge numbers would pass.
  EXPECT_FALSE(approx_equal(DBL_MAX, DBL_MAX / 2));
  EXPECT_FALSE(approx_equal(-DBL_MAX, -DBL_MAX / 2));
}

// The tolerance is relative to the sum |a|+|b| (the spec), not to the larger of the two: for
// a = 1 the boundary is b = 1 + 2e-8 (sum) against 1 + 1e-8 (max).
TEST(ApproxEqual, TheBoundaryIsRelativeToTheSum) {
  EXPECT_TRUE(approx_equal(1.0, 1.0 + 1.5e-8));
  EXPECT_TRUE(approx_equal(1.0 + 1.5e-8, 1.0));
  EXPECT_FALSE(approx_equal(1.0, 1.0 + 2.5e-8));
  EXPECT_TRUE(approx_equal(-1e10, -1e10 * (1 + 1.5e-8)));
  EXPECT_FALSE(approx_equal(-1e10, -1e10 * (1 + 2.5e-8)));
  const double tiny = std::numeric_limits<double>::min();  // absolute below the smallest normal
  EXPECT_TRUE(approx_equal(0.0, 0.5e-8 * tiny));
  EXPECT_FALSE(approx_equal(0.0, 2e-8 * tiny));
}

TEST(ApproxEqual, CountsPlantedDifferences) {
  std::vector<double> a(1000), b;
  std::iota(a.begin(), a.end(), 1.0);
  b = a;
  EXPECT_EQ(count_differences(a.data(), b.data(), a.size()), 0u);
  b[0] *= 1 + 1e-6;
  b[999] = std::nan("");
  b[500] = 0.0;
  EXPECT_EQ(count_differences(a.data(), b.data(), a.size()), 3u);
}

TEST(FieldComparison, SeesOneUlpThatTheSpecsToleranceForgives) {
  std::vector<double> a(1000), b;
  std::iota(a.begin(), a.end(), 1.0);
  b = a;
  FieldComparison same = compare_fields(a.data(), b.data(), a.size());
  EXPECT_TRUE(same.bitwise());
  EXPECT_EQ(same.points, 1000u);
  EXPECT_EQ(same.max_relative_difference, 0.0);
  b[10] = std::nextafter(b[10], 0.0);  // what one FMA does to a point: the last bit
  b[20] = -0.0 * 0;                    // +0 -> -0 where a[20] = 21: a real difference
  a[30] = 0.0;
  b[30] = -0.0;  // signed zeros differ in their bits
  const FieldComparison c = compare_fields(a.data(), b.data(), a.size());
  EXPECT_FALSE(c.bitwise());
  EXPECT_EQ(c.bitwise_differences, 3u);
  EXPECT_EQ(c.differences, 1u) << "the ulp and the signed zero pass the spec's rule; 21 vs 0 does not";
  EXPECT_EQ(c.max_relative_difference, 1.0);
  FieldComparison ulp_only = compare_fields(a.data() + 5, b.data() + 5, 10);
  EXPECT_EQ(ulp_only.bitwise_differences, 1u);
  EXPECT_EQ(ulp_only.differences, 0u);
  EXPECT_GT(ulp_only.max_relative_difference, 0.0);
  EXPECT_LT(ulp_only.max_relative_difference, 1e-15);
  b[40] = std::nan("");
  EXPECT_TRUE(std::isinf(compare_fields(a.data(), b.data(), a.size()).max_relative_difference));
  FieldComparison sum = ulp_only;
  sum += c;
  EXPECT_EQ(sum.points, 1010u);
  EXPECT_EQ(sum.bitwise_differences, 4u);
  EXPECT_EQ(sum.max_relative_difference, 1.0);
}

TEST(Stability, CourantLimit) {
  EXPECT_NEAR(courant_number(10.0, 0.002), 1541.0 * 0.002 * std::sqrt(3.0) / 10.0, 1e-15);
  WaveParams p;
  EXPECT_FALSE(validate(p));
  p.dt = largest_stable_dt(p.dx);
  EXPECT_FALSE(validate(p)) << "the largest stable dt must itself be accepted";
  p.dt = std::nextafter(p.dt, 1.0);
  ASSERT_TRUE(validate(p));
  EXPECT_NE(validate(p)->find("largest stable dt"), std::string::npos);
}

// A run whose end step does not fit the file's 32-bit steps attribute is refused, not written truncated.
TEST(Validate, EndStepPast32Bits) {
  WaveParams p;
  p.start_step = std::numeric_limits<int32_t>::max() - 10;
  p.nsteps = 10;
  EXPECT_FALSE(validate(p)) << "ending exactly at 2^31 - 1 fits";
  p.nsteps = 11;
  ASSERT_TRUE(validate(p));
  EXPECT_NE(validate(p)->find("past 2147483647"), std::string::npos) << *validate(p);
}

TEST(Stats, SampleStatistics) {
  const SampleStats s = sample_stats({1.0, 2.0, 3.0, 4.0});
  EXPECT_EQ(s.min, 1.0);
  EXPECT_EQ(s.max, 4.0);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(5.0 / 3.0));  // sample (n - 1) deviation
  EXPECT_TRUE(std::isnan(sample_stats({2.0}).stddev));
}

TEST(Selection, DefaultRunsTheGpuImplementationsOfAGpuBuildAndEverythingOfAHostBuild) {
  const auto& all = implementations();
  const bool gpu_build = std::any_of(all.begin(), all.end(), [](const ImplEntry& e) { return e.on_device; });
  Options o;
  const std::vector<std::string> ids = selected_implementations(o);
  ASSERT_FALSE(ids.empty());
  EXPECT_EQ(ids[0], "cpu");
  for (const ImplEntry& e : all) {
    if (e.id == "cpu") continue;
    const bool selected = std::find(ids.begin(), ids.end(), e.id) != ids.end();
    EXPECT_EQ(selected, gpu_build ? e.on_device : true) << e.id;
  }
  o.reference = "cpu-openmp";
  const std::vector<std::string> threaded = selected_implementations(o);
  EXPECT_EQ(threaded[0], "cpu-openmp");
  EXPECT_EQ(std::count(threaded.begin(), threaded.end(), "cpu-openmp"), 1);
  EXPECT_EQ(std::count(threaded.begin(), threaded.end(), "cpu"), 0);
  o.check = false;
  for (const std::string& id : selected_implementations(o))
    EXPECT_NE(id, "cpu-openmp") << "no reference without a check";
}

// The two GPUs measured and some that were not, as their toolchains describe them (core/device_traits.hpp):
// name, compute capability, SMs, L2, memory and peak bandwidth (memory clock in kHz x bus width in bits).
// The H200's as cudaDeviceGetAttribute gave them on the device machine (2026-12-02), the others' from
// their data sheets.
namespace {
DeviceTraits device_of(const std::string& name, int cc_major, int cc_minor, int sms, double l2_mib, double memory_gib,
                       std::optional<double> bandwidth) {
  DeviceTraits d;
  d.accelerator = true;
  d.name = name;
  d.cc_major = cc_major;
  d.cc_minor = cc_minor;
  d.multiprocessors = sms;
  d.l2_bytes = std::size_t(l2_mib * (1 << 20));
  d.memory_bytes = std::size_t(memory_gib * (1 << 30));
  d.peak_bandwidth = bandwidth;
  return d;
}
const DeviceTraits h100 =
    device_of("NVIDIA H100 80GB HBM3, 79.2 GiB", 9, 0, 132, 50, 79.2, peak_bandwidth_of(2619000, 5120));
const DeviceTraits h200 = device_of("NVIDIA H200, 139.8 GiB", 9, 0, 132, 60, 139.8, peak_bandwidth_of(3134000, 6144));
const DeviceTraits a100 =
    device_of("NVIDIA A100-SXM4-80GB, 79.2 GiB", 8, 0, 108, 40, 79.2, peak_bandwidth_of(1593000, 5120));
const DeviceTraits h100_nvl = device_of("NVIDIA H100 NVL, 93.1 GiB", 9, 0, 132, 50, 93.1, 3.9e12);
const DeviceTraits b200 = device_of("NVIDIA B200, 178.4 GiB", 10, 0, 148, 126, 178.4, 8.0e12);
const DeviceTraits none{};
}  // namespace

// Peak bandwidth from the memory clock and bus width as deviceQuery reckons it (double data rate);
// unknown where the driver gives no clock or width, or 0.
TEST(DeviceTraits, PeakBandwidthFromClockAndBus) {
  EXPECT_NEAR(*peak_bandwidth_of(2619000, 5120), 3.352e12, 1e9) << "the H100 SXM's 2619 MHz x 5120 bits";
  EXPECT_NEAR(*peak_bandwidth_of(3134000, 6144), 4.814e12, 1e9) << "the H200's 3134 MHz x 6144 bits";
  EXPECT_FALSE(peak_bandwidth_of(std::nullopt, 5120));
  EXPECT_FALSE(peak_bandwidth_of(2619000, std::nullopt));
  EXPECT_FALSE(peak_bandwidth_of(0, 5120)) << "a driver that reports no clock";
  EXPECT_FALSE(none.accelerator) << "DeviceTraits{} is the host";
}

// The temporal-blocking sweep (core/step_plan.hpp): three steps a sweep from the form's
// threshold on the device (the GPU teams' from 200^3 on an H100), not where nz <= 2, nor for an
// implementation without it; steps_per_sweep forces either plan where it applies. Over MPI a
// sweeping slab recomputes 3 planes of each neighbour, and every slab must own 3 planes.
TEST(StepPlan, SweepsWhereTheyApply) {
  configure_tuning("", {});
  const Capabilities sweeps{true, true}, single{true, false};
  auto plan = [&](const WaveParams& p, const Capabilities& can, int rank = 0, int processes = 1) {
    return plan_steps(p, slab_of(p.nx(), rank, processes), can, h100);
  };
  auto steps = [&](const WaveParams& p, const Capabilities& can) { return plan(p, can).steps_per_sweep; };
  WaveParams p;
  p.shape = {200, 200, 200};
  EXPECT_EQ(steps(p, sweeps), 3);
  EXPECT_EQ(plan(p, sweeps).recomputed_halo, 0) << "one process: no halo";
  EXPECT_EQ(steps(p, single), 1) << "no sweep in that implementation";
  EXPECT_EQ(plan(p, sweeps).fields(), 4);
  for (int rank = 0; rank < 2; ++rank) {
    EXPECT_EQ(plan(p, sweeps, rank, 2).steps_per_sweep, 3) << "an MPI slab sweeps";
    EXPECT_EQ(plan(p, sweeps, rank, 2).recomputed_halo, 3);
  }
  p.shape = {200, 200, 199};
  EXPECT_EQ(steps(p, sweeps), 1) << "below 200^3 points";
  EXPECT_EQ(plan(p, sweeps).single_steps_reason, "") << "nothing to say where it would not sweep anyway";
  configure_tuning("steps_per_sweep=3", {"cuda"});
  EXPECT_EQ(steps(p, sweeps), 3);
  p.shape = {11, 16, 16};  // four slabs of 3, 3, 3 and 2 planes: every process takes single steps
  for (int rank = 0; rank < 4; ++rank) {
    EXPECT_EQ(plan(p, sweeps, rank, 4).steps_per_sweep, 1) << rank;
    EXPECT_EQ(plan(p, sweeps, rank, 4).single_steps_reason,
              "single steps over MPI: slabs of 2 planes are thinner than the sweep's halo of 3");
  }
  p.shape = {12, 16, 16};  // slabs of 3: sweeps
  EXPECT_EQ(plan(p, sweeps, 3, 4).steps_per_sweep, 3);
  p.shape = {64, 64, 2};
  EXPECT_EQ(steps(p, sweeps), 1) << "values on z ghosts";
  p.shape = {200, 160, 100};
  configure_tuning("steps_per_sweep=1", {"cuda"});
  EXPECT_EQ(steps(p, sweeps), 1);
  configure_tuning("", {});
}

// Every integer tuning key's bounds as -tune help states them (core/tuning.cpp): the bound itself
// taken, one past it refused; an integer with characters after it refused; a key given twice in
// -tune refused (the environment's value may be overridden once).
TEST(Tuning, IntegerBoundsTrailingCharactersAndRepeats) {
  struct Bounds {
    const char* key;
    long min, max;
  };
  const Bounds keys[] = {{"fused_step_points", 0, 1L << 40}, {"cache_sweep.rows", 1, 4096},
                         {"cache_sweep.planes", 0, 1 << 20}, {"kokkos.segment", 1, 1 << 20},
                         {"kokkos.march_rows", 1, 32},       {"cuda.graphs", 0, 1},
                         {"omp.segment", 1, 1 << 20},        {"omp.threads", 1, 1024},
                         {"omp.tile_rows", 1, 32},           {"omp.teams", 1, 1L << 31}};
  auto takes = [](const std::string& spec) {
    try {
      configure_tuning(spec, {});
      return true;
    } catch (const std::invalid_argument&) {
      return false;
    }
  };
  for (const Bounds& b : keys) {
    const std::string k = std::string(b.key) + "=";
    EXPECT_TRUE(takes(k + std::to_string(b.min))) << b.key;
    EXPECT_TRUE(takes(k + std::to_string(b.max))) << b.key;
    EXPECT_FALSE(takes(k + std::to_string(b.min - 1))) << b.key;
    EXPECT_FALSE(takes(k + std::to_string(b.max + 1))) << b.key;
    EXPECT_FALSE(takes(k + std::to_string(b.max) + "x")) << b.key << ": trailing characters";
    EXPECT_FALSE(takes(k + " " + std::to_string(b.max))) << b.key << ": leading blank";
  }
  EXPECT_FALSE(takes("cuda.block=32x8x4q")) << "a triple's trailing characters";
  EXPECT_FALSE(takes("steps_per_sweep=3,steps_per_sweep=1")) << "a key given twice";
  EXPECT_TRUE(takes("steps_per_sweep=3,fused_step_points=0"));
  configure_tuning("", {});
}

// A -tune value overrides the same key's AWAVE_ variable (core/tuning.hpp: the command line wins),
// and the key records -tune as its source; without it the variable's value holds.
TEST(Tuning, TuneOverridesTheEnvironment) {
  const char* const env = "AWAVE_CACHE_SWEEP_ROWS";
  const char* before = std::getenv(env);
  const std::string kept = before ? before : "";
  setenv(env, "5", 1);
  configure_tuning("", {});
  ASSERT_EQ(tuning_integer("cache_sweep.rows"), 5);
  EXPECT_EQ(tuning_values().at("cache_sweep.rows").source, env);
  EXPECT_NO_THROW(configure_tuning("cache_sweep.rows=7", {})) << "the variable's value refused an override";
  EXPECT_EQ(tuning_integer("cache_sweep.rows"), 7);
  EXPECT_EQ(tuning_values().at("cache_sweep.rows").source, "-tune");
  if (before)
    setenv(env, kept.c_str(), 1);
  else
    unsetenv(env);
  configure_tuning("", {});
}

// Which OMPI_MCA_io values let Open MPI write through OMPIO (parallel/process_group.hpp): awave
// refuses those for output over MPI (docs/mpi.md, "Output over MPI and OMPIO").
TEST(MpiIoLayer, SettingsThatLetOmpioIn) {
  for (const char* in : {"", "ompio", "romio321,ompio", "^romio321", "^romio321,ufs"})
    EXPECT_TRUE(ProcessGroup::setting_allows_ompio(in)) << in;
  for (const char* out : {"^ompio", "romio321", "^romio321,ompio", "romio341", "^ompio2,ompio"})
    EXPECT_FALSE(ProcessGroup::setting_allows_ompio(out)) << out;
}

// Capabilities are declared once, in the entry, and the class must agree (core/wave_impl.hpp,
// entry_of): three-kernel steps need a step in two parts (SplitStep), and a class with one must
// say so; either mismatch is refused at registration.
namespace {
struct SplitsItsSteps : WaveImpl, SplitStep {};  // (never made: its type is what is checked)
}  // namespace
TEST(Capabilities, DeclaredOnceAndCheckedAgainstTheClass) {
  auto make = [](const WaveProblem&, const StepPlan&) -> std::unique_ptr<WaveImpl> { return nullptr; };
  EXPECT_THROW(entry_of<WaveCpu>("x", "", false, false, "", Capabilities{true, false}, make), std::logic_error);
  EXPECT_THROW(entry_of<SplitsItsSteps>("y", "", false, false, "", Capabilities{false, false}, make), std::logic_error);
  EXPECT_NO_THROW(entry_of<SplitsItsSteps>("z", "", false, false, "", Capabilities{true, false}, make));
  EXPECT_NO_THROW(implementations());  // this build's entries
}

// A slab's halo (core/slab.hpp): the planes it computes are its own and `depth` of each
// neighbour's, none beyond a grid face.
TEST(Slab, HaloOfNeighbourPlanes) {
  const Slab first = with_halo(slab_of(20, 0, 3), 3), middle = with_halo(slab_of(20, 1, 3), 3),
             last = with_halo(slab_of(20, 2, 3), 3);
  EXPECT_EQ(first.computed_offset(), 0);
  EXPECT_EQ(first.computed_nx(), 7 + 3);
  EXPECT_EQ(first.own_padded_plane0(), 1);
  EXPECT_EQ(middle.offset, 7);
  EXPECT_EQ(middle.computed_offset(), 4);
  EXPECT_EQ(middle.computed_nx(), 3 + 7 + 3);
  EXPECT_EQ(middle.own_padded_plane0(), 4);
  EXPECT_EQ(last.computed_offset() + last.computed_nx(), 20);
  EXPECT_EQ(with_halo(whole_grid(20), 3).computed_nx(), 20) << "one process: no neighbours";
}

// A slab's sweep in two parts (core/sweep_march.hpp): the interior segments read no recomputed
// plane (a segment reads 3 planes beyond its own), the rest cover the others, once.
TEST(SweepSegments, InteriorReadsNoRecomputedPlane) {
  // Every remainder of nx around a segment's end, so that each bound of the interior test is met
  // with equality (a segment started one plane too early would read a plane still in flight).
  std::vector<std::array<int, 3>> shapes{{70, 3, 3}, {600, 0, 0}};
  for (int nx = 7 * SweepTile::kSegment - 8; nx <= 8 * SweepTile::kSegment + 8; ++nx)
    for (const auto& [lo, hi] : {std::pair{3, 3}, {0, 3}, {3, 0}}) shapes.push_back({nx, lo, hi});
  for (const auto& [nx, lo, hi] : shapes) {
    const SweepSegments s = sweep_segments(nx, lo, hi);
    EXPECT_EQ(s.count, (nx + SweepTile::kSegment - 1) / SweepTile::kSegment);
    EXPECT_LE(s.interior_begin, s.interior_end);
    for (int seg = 0; seg < s.count; ++seg) {
      const int i0 = seg * SweepTile::kSegment, i1 = std::min(i0 + SweepTile::kSegment, nx);
      const bool reads_halo = (lo && i0 - SweepTile::kSteps < lo) || (hi && i1 + SweepTile::kSteps > nx - hi);
      EXPECT_EQ(seg >= s.interior_begin && seg < s.interior_end, !reads_halo)
          << nx << " " << lo << " " << hi << " " << seg;
    }
  }
  EXPECT_EQ(sweep_segments(518, 3, 3).interior_begin, 1) << "segment 0 reads planes 0-2";
  EXPECT_EQ(sweep_segments(518, 3, 3).interior_end, 8) << "segment 8 (planes 512-517) has recomputed ones";
  EXPECT_EQ(sweep_segments(515, 0, 3).interior_begin, 0) << "a grid face's ghost is no neighbour's plane";
  EXPECT_EQ(sweep_segments(70, 3, 3).interior_end - sweep_segments(70, 3, 3).interior_begin, 0) << "no interior";
}

// A slab's problem (core/wave_problem.hpp) holds the whole grid's values at every plane it
// computes: coefficients and start state, the recomputed neighbours' planes included.
TEST(WaveProblem, SlabWithHaloHoldsTheGridsValues) {
  WaveParams p;
  p.shape = {20, 12, 10};
  const WaveProblem whole(p), middle(p, std::nullopt, with_halo(slab_of(20, 1, 3), 3));
  ASSERT_EQ(middle.params().nx(), 13);
  const PaddedGeometry gw = whole.geometry(), gm = middle.geometry();
  std::vector<double> uw(gw.size()), um(gm.size());
  whole.fill_initial_u(uw.data());
  middle.fill_initial_u(um.data());
  for (int i = 0; i < 13; ++i)  // computed plane i is global plane 4 + i
    for (int j = 0; j < 12; ++j) {
      EXPECT_EQ(middle.damp(i, j), whole.damp(4 + i, j)) << i << " " << j;
      for (int k = 0; k < 12; ++k) ASSERT_EQ(um[gm.index(i + 1, j, k)], uw[gw.index(4 + i + 1, j, k)]);
    }
}

// Each form's threshold, per device, recorded in the plan: the GPU teams from 256^3 on an H200
// (200^3 on the H100), OpenMP offload's and the CPU's from 128^3.
TEST(StepPlan, ThresholdsPerFormAndDevice) {
  configure_tuning("", {});
  const Capabilities gpu_teams{true, true, SweepForm::gpu_teams}, offload{true, true, SweepForm::offload_teams},
      cpu{false, true, SweepForm::cache_tiles}, single{true, false};
  auto steps = [](int n, const Capabilities& can, const DeviceTraits& device) {
    WaveParams p;
    p.shape = {n, n, n};
    return plan_steps(p, whole_grid(n), can, device).steps_per_sweep;
  };
  EXPECT_EQ(steps(224, gpu_teams, h100), 3);
  EXPECT_EQ(steps(224, gpu_teams, h200), 1) << "the H200's GPU-team threshold is 256^3";
  EXPECT_EQ(steps(256, gpu_teams, h200), 3);
  for (const DeviceTraits& d : {h100, h200}) {
    EXPECT_EQ(steps(128, offload, d), 3) << d.name;
    EXPECT_EQ(steps(127, offload, d), 1) << d.name;
  }
  EXPECT_EQ(steps(128, cpu, none), 3);
  EXPECT_EQ(steps(127, cpu, none), 1);
  WaveParams p;
  p.shape = {128, 128, 128};
  EXPECT_EQ(plan_steps(p, whole_grid(p.nx()), cpu, none).sweep_min_points, std::size_t(128) * 128 * 128);
  EXPECT_EQ(plan_steps(p, whole_grid(p.nx()), gpu_teams, h200).sweep_min_points, std::size_t(256) * 256 * 256);
  EXPECT_EQ(plan_steps(p, whole_grid(p.nx()), single, h200).sweep_min_points, 0u) << "no sweep: nothing to record";
}

// The march's bulk planes where they were measured faster (core/step_plan.hpp,
// sweep_bulk_planes): on an H200, for the forms whose march can take them; the tuning key
// overrides; never where the implementation cannot, nor without a sweep.
TEST(StepPlan, BulkPlanesPerDevice) {
  const Capabilities hand{true, true, SweepForm::gpu_teams, true}, cannot{true, true, SweepForm::gpu_teams},
      offload{true, true, SweepForm::offload_teams, true};
  WaveParams p;
  p.shape = {512, 512, 512};
  auto bulk = [&](const Capabilities& can, const DeviceTraits& device) {
    return plan_steps(p, whole_grid(p.nx()), can, device).bulk_planes;
  };
  configure_tuning("", {});
  EXPECT_TRUE(bulk(hand, h200));
  EXPECT_TRUE(bulk(offload, h200));
  EXPECT_FALSE(bulk(hand, h100));
  EXPECT_FALSE(bulk(cannot, h200)) << "a march that cannot take them";
  configure_tuning("sweep.bulk_planes=1", {});
  EXPECT_TRUE(bulk(hand, h100));
  EXPECT_FALSE(bulk(cannot, h100));
  configure_tuning("sweep.bulk_planes=0", {});
  EXPECT_FALSE(bulk(hand, h200));
  configure_tuning("sweep.bulk_planes=1,steps_per_sweep=1", {});
  EXPECT_FALSE(bulk(hand, h200)) << "no sweep, no bulk planes";
  EXPECT_THROW(configure_tuning("sweep.bulk_planes=2", {}), std::invalid_argument);
  configure_tuning("", {});
}

// GPUs not measured take the choices of the measured GPU nearer in peak bandwidth (core/step_plan.hpp,
// high_bandwidth_gpu): an A100 (2.04e12 B/s) and an H100 NVL (3.9e12) the H100's, a B200 (8e12, cc 10.0)
// the H200's; an accelerator whose bandwidth cannot be asked the H100's.
TEST(StepPlan, UnmeasuredGpusTakeTheNearerMeasuredBandwidth) {
  configure_tuning("", {});
  const Capabilities hand{true, true, SweepForm::gpu_teams, true};
  auto plan = [&](int n, const DeviceTraits& device) {
    WaveParams p;
    p.shape = {n, n, n};
    return plan_steps(p, whole_grid(n), hand, device);
  };
  DeviceTraits unknown = h200;
  unknown.peak_bandwidth.reset();
  for (const DeviceTraits& d : {a100, h100_nvl, unknown}) {
    EXPECT_EQ(plan(224, d).steps_per_sweep, 3) << d.name;
    EXPECT_EQ(plan(224, d).sweep_min_points, plan(224, h100).sweep_min_points) << d.name;
    EXPECT_FALSE(plan(512, d).bulk_planes) << d.name;
  }
  EXPECT_EQ(plan(224, b200).steps_per_sweep, 1) << "the H200's threshold, 256^3";
  EXPECT_EQ(plan(224, b200).sweep_min_points, plan(224, h200).sweep_min_points);
  EXPECT_TRUE(plan(512, b200).bulk_planes);
  DeviceTraits host = h200;  // the H200's numbers, but no accelerator: the plan's host choices
  host.accelerator = false;
  EXPECT_FALSE(plan(512, host).bulk_planes);
}

// The device's name decides nothing: an H200's name with an H100's properties gets the H100's plan,
// and the reverse the H200's.
TEST(StepPlan, TheNameDecidesNothing) {
  configure_tuning("", {});
  const Capabilities hand{true, true, SweepForm::gpu_teams, true};
  DeviceTraits named_h200 = h100, named_h100 = h200;
  named_h200.name = h200.name;
  named_h100.name = h100.name;
  for (const int n : {224, 512}) {
    WaveParams p;
    p.shape = {n, n, n};
    const StepPlan as_h100 = plan_steps(p, whole_grid(n), hand, h100),
                   as_h200 = plan_steps(p, whole_grid(n), hand, h200);
    const StepPlan a = plan_steps(p, whole_grid(n), hand, named_h200),
                   b = plan_steps(p, whole_grid(n), hand, named_h100);
    EXPECT_EQ(a.steps_per_sweep, as_h100.steps_per_sweep) << n;
    EXPECT_EQ(a.sweep_min_points, as_h100.sweep_min_points) << n;
    EXPECT_EQ(a.bulk_planes, as_h100.bulk_planes) << n;
    EXPECT_EQ(b.steps_per_sweep, as_h200.steps_per_sweep) << n;
    EXPECT_EQ(b.sweep_min_points, as_h200.sweep_min_points) << n;
    EXPECT_EQ(b.bulk_planes, as_h200.bulk_planes) << n;
  }
}

// Which registered codes can take the bulk planes: the hand-written GPU codes and Kokkos' team sweep
// on CUDA (with its functor in constant memory, kokkos/sweep_step.hpp); Kokkos on OpenMPTarget and
// the host backends march without them.
TEST(StepPlan, BulkPlanesAreDeclaredByTheCodesThatTakeThem) {
  for (const ImplEntry& e : implementations()) {
    const bool takes = e.id == "cuda" || e.id == "omp" || e.id == "kokkos-cuda";
    EXPECT_EQ(e.can.bulk_planes, takes) << e.id;
  }
}

// The CPU sweep's tiles (core/cache_sweep.hpp) cover the grid once, and cut planes only where
// there are fewer than about two tiles a thread.
TEST(CacheSweep, TilesCoverTheGrid) {
  for (const auto& [nx, ny, rows, planes, threads] : std::vector<std::array<int, 5>>{
           {512, 512, 16, 0, 16}, {97, 61, 5, 7, 2}, {128, 20, 16, 0, 16}, {8, 8, 16, 0, 64}}) {
    const CacheSweep t = CacheSweep::make(nx, ny, rows, planes, threads);
    EXPECT_GE(t.tiles_j * t.rows, ny);
    EXPECT_LT((t.tiles_j - 1) * t.rows, ny);
    EXPECT_GE(t.tiles_i * t.planes, nx);
    EXPECT_LT((t.tiles_i - 1) * t.planes, nx);
    if (planes) EXPECT_EQ(t.planes, planes);
  }
  EXPECT_EQ(CacheSweep::make(512, 512, 16, 0, 16).tiles_i, 1) << "32 tiles of rows for 16 threads";
  EXPECT_EQ(CacheSweep::make(128, 20, 16, 0, 16).tiles_i, 4) << "2 tiles of rows: planes cut (32 each at least)";
  EXPECT_EQ(CacheSweep::make(8, 8, 16, 0, 64).rows, 8) << "no more rows than the grid";
}

// The default rows keep a tile's working set (10 planes of rows + 6 rows of nz + 2) in the L2:
// the two shapes measured with 2 MB, a smaller cache, and a tuning key over the default.
TEST(CacheSweep, DefaultRowsFitTheL2) {
  const std::size_t mb2 = std::size_t(2) << 20;
  EXPECT_EQ(CacheSweep::default_rows(512, mb2), 32);
  EXPECT_EQ(CacheSweep::default_rows(1000, mb2), 16);
  EXPECT_EQ(CacheSweep::default_rows(512, mb2 / 2), 16);
  EXPECT_EQ(CacheSweep::default_rows(100000, mb2), 8) << "never fewer than 8";
  for (const int nz : {3, 64, 512, 1000, 4000}) {
    const int rows = CacheSweep::default_rows(nz, mb2);
    if (rows > 8) EXPECT_LE(10u * (rows + 6) * (nz + 2) * sizeof(double), mb2) << nz;
    if (rows < 32) EXPECT_GT(10u * (rows + 8 + 6) * (nz + 2) * sizeof(double), mb2) << nz;
  }
  configure_tuning("cache_sweep.rows=24", {});
  EXPECT_EQ(CacheSweep::from_tuning(64, 64, 1000, 4).rows, 24);
  configure_tuning("", {});
  EXPECT_EQ(CacheSweep::from_tuning(64, 64, 64, 4).rows, CacheSweep::default_rows(64, CacheSweep::l2_bytes()));
}

// Fused steps up to fused_step_points interior points (and on slabs thinner than two sponge
// layers), three kernels above, for implementations that have three kernels.
TEST(StepPlan, FusedStepsOnSmallGridsAndThinSlabs) {
  configure_tuning("", {});
  const Capabilities three{true, false}, one{false, false};
  WaveParams p;
  p.shape = {128, 128, 128};
  EXPECT_TRUE(plan_steps(p, whole_grid(p.nx()), three, none).fused_step);
  p.shape = {129, 128, 128};
  EXPECT_FALSE(plan_steps(p, whole_grid(p.nx()), three, none).fused_step);
  EXPECT_TRUE(plan_steps(p, whole_grid(p.nx()), one, none).fused_step) << "no three-kernel step in that implementation";
  EXPECT_TRUE(plan_steps(p, slab_of(p.nx(), 17, 18), three, none).fused_step) << "a thin slab (7 planes)";
  configure_tuning("fused_step_points=0", {});
  p.shape = {9, 9, 1};
  EXPECT_FALSE(plan_steps(p, whole_grid(p.nx()), three, none).fused_step);
  configure_tuning("", {});
}

// The sweep's levels after three steps are no rotation of the ring's: its last two levels (in
// `next` and the spare) become prev and now, the old prev the next `next`, the old now the spare.
TEST(TimeRing, AdvancesBySweepThroughASpareLevel) {
  TimeRing<int> ring(0, 1, 2, 10);
  ring.rotate();  // prev 1, now 2, next 0
  int spare = 3;
  ring.advance_by_sweep(spare, 3);
  EXPECT_EQ(ring.prev(), 0);
  EXPECT_EQ(ring.now(), 3);
  EXPECT_EQ(ring.next(), 1);
  EXPECT_EQ(spare, 2);
  EXPECT_EQ(ring.time(), 14);
}

TEST(MemoryEstimate, CountsFieldsPerImplementationAndRefusesWhatDoesNotFit) {
  WaveParams p;
  p.shape = {10, 10, 10};
  const std::size_t padded = 12 * 12 * 12 * 8, interior = 1000 * 8, coefficients = (10 + 100) * 8;
  const ImplEntry cpu{"cpu", "", false, false, nullptr};
  const ImplEntry host_kokkos{"kokkos-x", "", false, true, nullptr};
  const ImplEntry gpu{"gpu-x", "", true, false, nullptr};
  // Checked with output: two pairs of snapshot buffers (4 padded) + the reference's `now`
  // (1 padded) on top of the fields; the check's own pair is used after the output's.
  const MemoryNeed checked = estimate_memory(p, 1, {&cpu, &host_kokkos, &gpu}, true, true);
  EXPECT_EQ(checked.host_bytes, 4 * padded + 3 * padded + 2 * interior + padded);
  const MemoryNeed checked_no_output = estimate_memory(p, 1, {&cpu}, true, false);
  EXPECT_EQ(checked_no_output.host_bytes, 2 * padded + 3 * padded + 2 * interior + padded);
  EXPECT_EQ(checked.host_peak_by, "cpu");
  EXPECT_EQ(checked.device_bytes, 3 * padded + coefficients);
  // Unchecked, no output: only the fields themselves.
  const MemoryNeed bare = estimate_memory(p, 1, {&host_kokkos}, false, false);
  EXPECT_EQ(bare.host_bytes, 3 * padded + coefficients);
  EXPECT_EQ(bare.device_bytes, 0u);
  // Snapshots of single-precision u alone: the device converts them in half a padded field.
  OutputLayout single;
  single.single_precision = true;
  single.with_u_prev = false;
  EXPECT_EQ(estimate_memory(p, 1, {&gpu}, false, true, single).device_bytes, 3 * padded + coefficients + padded / 2);
  EXPECT_EQ(estimate_memory(p, 1, {&gpu}, false, false, single).device_bytes, 3 * padded + coefficients)
      << "no output, no conversion";
  EXPECT_EQ(estimate_memory(p, 1, {&gpu}, false, true, single).host_bytes, 4 * padded + padded)
      << "the floats use the snapshot buffers";
  EXPECT_EQ(estimate_memory(p, 1, {&host_kokkos}, false, true, single).host_bytes,
            4 * padded + 3 * padded + coefficients + padded)
      << "a host implementation converts from a staged copy of the doubles";

  EXPECT_FALSE(memory_problem(checked, checked.host_bytes, checked.device_bytes));
  EXPECT_FALSE(memory_problem(checked, std::nullopt, std::nullopt)) << "nothing known, nothing refused";
  const auto host = memory_problem(checked, checked.host_bytes - 1, std::nullopt);
  ASSERT_TRUE(host);
  EXPECT_NE(host->find("GiB of host memory (peak while cpu runs)"), std::string::npos) << *host;
  const auto device = memory_problem(checked, std::nullopt, checked.device_bytes - 1);
  ASSERT_TRUE(device);
  EXPECT_NE(device->find("GiB of GPU memory"), std::string::npos) << *device;
  ASSERT_TRUE(host_available_bytes().has_value()) << "the memory query failed (Linux has /proc/meminfo)";
  EXPECT_GT(*host_available_bytes(), 0u);

  // An implementation with the temporal-blocking sweep holds a fourth field where it sweeps.
  ImplEntry sweeping = gpu;
  sweeping.can.sweep = true;
  configure_tuning("steps_per_sweep=3", {"cuda"});
  EXPECT_EQ(estimate_memory(p, 1, {&sweeping}, false, false).device_bytes, 4 * padded + coefficients);
  EXPECT_EQ(estimate_memory(p, 1, {&gpu}, false, false).device_bytes, 3 * padded + coefficients);
  // Over MPI a sweeping slab also holds the neighbours' planes it recomputes: 3 a side.
  WaveParams wider = p;
  wider.shape[0] = 30;  // three processes' slabs of 10 planes: the middle one computes 16
  const std::size_t padded16 = 18 * 12 * 12 * 8, coefficients16 = (10 + 160) * 8;
  EXPECT_EQ(estimate_memory(wider, 3, {&sweeping}, false, false).device_bytes, 4 * padded16 + coefficients16);
  wider.shape[0] = 20;  // two: each computes 13
  EXPECT_EQ(estimate_memory(wider, 2, {&sweeping}, false, false).device_bytes, 4 * (15 * 12 * 12 * 8) + (10 + 130) * 8);
  wider.shape[0] = 8;  // four slabs of 2 planes: too thin to sweep, single steps
  EXPECT_EQ(estimate_memory(wider, 4, {&sweeping}, false, false).device_bytes, 3 * (4 * 12 * 12 * 8) + (10 + 20) * 8);
  configure_tuning("", {});
}
