// The driver end to end: chunking, output, and a checker that catches planted faults.
#include "app/driver.hpp"
#include "app/gpu_energy.hpp"
#include "app/registry.hpp"
#include "io/vtkhdf.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

using namespace awave;
namespace fs = std::filesystem;

namespace {

// A Kokkos implementation that runs on the host (the build's first: Serial, OpenMP or
// Threads, whichever the installed Kokkos has).
const ImplEntry& host_kokkos_impl() {
  for (const ImplEntry& e : implementations())
    if (e.uses_kokkos && !e.on_device) return e;
  throw std::logic_error("this build has no host Kokkos implementation");
}

// Value for PlantedFault meaning "the true value moved by one ulp" (what one FMA does).
constexpr double kUlpFault = -1234.5;

// Wraps a real implementation and damages one point of the field it hands back.
class PlantedFault final : public WaveImpl {
 public:
  PlantedFault(const WaveProblem& problem, std::size_t point, double value)
      : WaveImpl(problem, StepPlan{}),
        inner_(make_implementation(host_kokkos_impl(), problem)),
        point_(point),
        value_(value) {}
  std::string id() const override { return "planted-fault"; }
  void run(int n) override { inner_->run(n); }
  long time_step() const override { return inner_->time_step(); }
  void copy_u_to_host(double* h_now, double* h_prev) override {
    inner_->copy_u_to_host(h_now, h_prev);
    h_now[point_] = value_ == kUlpFault ? std::nextafter(h_now[point_], INFINITY) : value_;
  }
  void copy_planes_to_host(TimeLevel level, int pi, int count, double* host) override {
    inner_->copy_planes_to_host(level, pi, count, host);
  }
  void copy_host_to_planes(TimeLevel level, int pi, int count, const double* host) override {
    inner_->copy_host_to_planes(level, pi, count, host);
  }

 private:
  std::unique_ptr<WaveImpl> inner_;
  std::size_t point_;
  double value_;
};

Options small_options(std::array<int, 3> shape) {
  Options o;
  o.params.shape = shape;
  o.params.nsteps = 6;
  o.params.out_period = 4;
  o.write_output = false;
  return o;
}

RunReport run_with_fault(const Options& o, std::size_t point, double value) {
  const ImplEntry faulty{"planted-fault", "planted fault", false, true,
                         [point, value](const WaveProblem& p, const StepPlan&) {
                           return std::make_unique<PlantedFault>(p, point, value);
                         }};
  std::ostringstream log;
  return run_comparison(o, {find_implementation("cpu"), &faulty}, log);
}

}  // namespace

TEST(Checker, PassesAnUndamagedImplementation) {
  const Options o = small_options({12, 10, 6});
  std::ostringstream log;
  const RunReport r = run_comparison(o, {find_implementation("cpu"), &host_kokkos_impl()}, log);
  ASSERT_EQ(r.results.size(), 2u);
  EXPECT_TRUE(r.results[1].checked);
  EXPECT_EQ(r.results[1].differences, 0u);
  EXPECT_TRUE(r.results[1].bitwise());
  const PaddedGeometry g{12, 10, 6};
  EXPECT_EQ(r.results[1].points_compared, g.size()) << "every padded point, ghosts too";
  EXPECT_TRUE(r.all_passed());
  std::ostringstream summary;
  print_summary(r, summary);
  EXPECT_NE(summary.str().find("bitwise identical to the reference"), std::string::npos) << summary.str();
}

// -digest: an unchecked run is held to a checked one through the digests of their final u; one
// planted ulp changes it.
TEST(Checker, DigestsHoldUncheckedRunsToCheckedOnes) {
  Options o = small_options({12, 10, 6});
  o.digest = true;
  std::ostringstream log;
  const RunReport checked = run_comparison(o, {find_implementation("cpu"), &host_kokkos_impl()}, log);
  ASSERT_TRUE(checked.results[0].digest && checked.results[1].digest);
  EXPECT_EQ(*checked.results[0].digest, *checked.results[1].digest);
  o.check = false;
  const RunReport unchecked = run_comparison(o, {&host_kokkos_impl()}, log);
  ASSERT_TRUE(unchecked.results[0].digest);
  EXPECT_EQ(*unchecked.results[0].digest, *checked.results[0].digest);
  o.check = true;
  const RunReport faulty = run_with_fault(o, PaddedGeometry{12, 10, 6}.index(12, 10, 6), kUlpFault);
  ASSERT_TRUE(faulty.results[1].digest);
  EXPECT_NE(*faulty.results[1].digest, *faulty.results[0].digest);
  std::ostringstream summary;
  print_summary(checked, summary);
  EXPECT_NE(summary.str().find("digest of the final u: "), std::string::npos) << summary.str();
}

TEST(Checker, CallsOutALastBitDifferenceThatStillPasses) {
  // One ulp at one point: within the spec's tolerance (PASS), but not the reference's bits.
  const Options o = small_options({12, 10, 6});
  const PaddedGeometry g{12, 10, 6};
  const RunReport r = run_with_fault(o, g.index(6, 5, 3), kUlpFault);
  EXPECT_EQ(r.results[1].differences, 0u);
  EXPECT_EQ(r.results[1].bitwise_differences, 1u);
  EXPECT_FALSE(r.results[1].bitwise());
  EXPECT_GT(r.results[1].max_relative_difference, 0.0);
  EXPECT_TRUE(r.all_passed());
  std::ostringstream summary;
  print_summary(r, summary);
  EXPECT_NE(summary.str().find("NOT BITWISE: 1 of " + std::to_string(g.size()) +
                               " points differ, largest relative difference "),
            std::string::npos)
      << summary.str();
  EXPECT_NE(summary.str().find("0 differences beyond the spec's tolerance: PASS"), std::string::npos) << summary.str();
  const Verdict v = final_verdict(r);
  EXPECT_EQ(v.line, "PASS: every implementation matches the CPU reference (NOT bitwise: planted-fault)");
  EXPECT_EQ(v.status, 0);
}

// The run's last line and status for each outcome (main prints them).
TEST(Checker, FinalVerdictForEachOutcome) {
  Options o = small_options({12, 10, 6});
  const PaddedGeometry g{12, 10, 6};
  std::ostringstream log;
  const RunReport clean = run_comparison(o, {find_implementation("cpu"), &host_kokkos_impl()}, log);
  EXPECT_EQ(final_verdict(clean).line, "PASS: every implementation matches the CPU reference, bit for bit");
  EXPECT_EQ(final_verdict(clean).status, 0);
  const RunReport wrong = run_with_fault(o, g.index(6, 5, 3), 1e-3);
  EXPECT_EQ(final_verdict(wrong).line.rfind("FAIL: an implementation differs", 0), 0u);
  EXPECT_EQ(final_verdict(wrong).status, 2);
  o.check = false;
  const RunReport unchecked = run_comparison(o, {&host_kokkos_impl()}, log);
  EXPECT_EQ(final_verdict(unchecked).line, "UNCHECKED: -no_check ran no CPU reference");
  EXPECT_EQ(final_verdict(unchecked).status, 0);
}

TEST(Checker, CatchesAPlantedDifferenceAtTheLastPointOfANonCubicGrid) {
  // k runs far past nx + 2 here: the original checker's loop bound would never reach it.
  const Options o = small_options({8, 9, 40});
  const PaddedGeometry g{8, 9, 40};
  const std::size_t last = g.index(8, 9, 40);
  const RunReport r = run_with_fault(o, last, 1e-3);
  EXPECT_EQ(r.results[1].differences, 1u);
  EXPECT_FALSE(r.all_passed());
  std::ostringstream summary;
  print_summary(r, summary);
  EXPECT_NE(summary.str().find("1 differences beyond the spec's tolerance"), std::string::npos) << summary.str();
  EXPECT_NE(summary.str().find("FAIL"), std::string::npos);
}

TEST(Checker, CatchesAPlantedNanAndAGhostWrite) {
  const Options o = small_options({10, 10, 10});
  const PaddedGeometry g{10, 10, 10};
  EXPECT_EQ(run_with_fault(o, g.index(5, 5, 5), std::nan("")).results[1].differences, 1u);
  EXPECT_EQ(run_with_fault(o, g.index(0, 3, 3), 1.0).results[1].differences, 1u);  // ghosts must stay 0
}

TEST(Checker, ReportsANonFiniteValueWithItsPlaceAndStep) {
  const Options o = small_options({10, 10, 10});
  const PaddedGeometry g{10, 10, 10};
  const RunReport nan = run_with_fault(o, g.index(5, 4, 3), std::nan(""));
  EXPECT_EQ(nan.results[1].non_finite, "u = nan at padded point (5, 4, 3) after step 6");
  EXPECT_FALSE(nan.results[1].passed());
  EXPECT_TRUE(nan.results[0].non_finite.empty());
  // Without the check, the output path still looks: the fault is there from the initial state.
  Options unchecked = o;
  unchecked.check = false;
  unchecked.write_output = true;
  const fs::path dir = fs::temp_directory_path() / ("awave-nonfinite-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  unchecked.output_base = (dir / "run").string();
  const RunReport inf = run_with_fault(unchecked, g.index(1, 1, 1), HUGE_VAL);
  ASSERT_EQ(inf.results.size(), 2u);
  EXPECT_EQ(inf.results[1].non_finite, "u = inf at padded point (1, 1, 1) after step 0");
  EXPECT_FALSE(inf.all_passed());
  std::ostringstream summary;
  print_summary(inf, summary);
  EXPECT_NE(summary.str().find("non-finite value: u = inf"), std::string::npos) << summary.str();
  fs::remove_all(dir);
}

TEST(Driver, ChunksOutputAndTimeCounter) {
  Options o = small_options({12, 9, 5});
  o.params.nsteps = 50;
  o.params.out_period = 7;
  o.write_output = true;
  const fs::path dir = fs::temp_directory_path() / ("awave-driver-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  o.output_base = (dir / "run").string();
  std::ostringstream log;
  const RunReport r = run_comparison(o, {find_implementation("cpu"), &host_kokkos_impl()}, log);
  for (const ImplResult& res : r.results) {
    EXPECT_EQ(res.chunk_steps, (std::vector<int>{7, 7, 7, 7, 7, 7, 7, 1}));
    EXPECT_EQ(res.chunk_seconds.size(), 8u);
    EXPECT_GT(res.outside_chunks_seconds.set_up, 0.0);  // time beyond the chunks, counted (-json)
    if (res.checked) EXPECT_GT(res.outside_chunks_seconds.finish, 0.0);
    const VtkHdfContents c = read_vtkhdf_contents(res.output_file);
    EXPECT_EQ(c.nsteps, 9);
    EXPECT_EQ(c.step_values, (std::vector<int64_t>{0, 7, 14, 21, 28, 35, 42, 49, 50}));
  }
  EXPECT_TRUE(r.all_passed());
  fs::remove_all(dir);
}

namespace {

// A counter that gives these readings (millijoules; none: a failed read), one a call.
GpuEnergyCounter planted(std::vector<std::optional<std::uint64_t>> readings) {
  auto left = std::make_shared<std::vector<std::optional<std::uint64_t>>>(std::move(readings));
  auto next = std::make_shared<std::size_t>(0);
  return GpuEnergyCounter([left, next] { return left->at((*next)++); });
}

// A tally over one window for each two readings, each window of `seconds`.
EnergyTally tallied(std::vector<std::optional<std::uint64_t>> readings, double seconds) {
  const std::size_t windows = readings.size() / 2;
  EnergyTally tally(planted(std::move(readings)));
  for (std::size_t w = 0; w < windows; ++w) {
    tally.begin();
    tally.end(seconds);
  }
  return tally;
}

}  // namespace

// The energy over the timed chunks (app/gpu_energy.hpp), from a planted counter: the windows'
// differences summed, a counter that did not move a window of 0 mJ; a failed read or a counter
// that went backwards (driver reloaded) leaves it unknown, not a wrong number.
TEST(GpuEnergy, TallySumsTheWindowsAndRefusesABadReading) {
  const EnergyTally good = tallied({1000, 4500, 5000, 5250}, 0.375);  // two windows: 3.5 J and 0.25 J
  EXPECT_TRUE(good.known());
  EXPECT_EQ(good.millijoules(), 3750u);
  EXPECT_DOUBLE_EQ(good.seconds(), 0.75);

  // NVML's coarse counter reads the same around a short chunk: that window counts, as 0 mJ.
  const EnergyTally still = tallied({5000, 5000, 5000, 5600}, 0.05);
  EXPECT_TRUE(still.known()) << "two equal readings taken as a counter gone backwards";
  EXPECT_EQ(still.millijoules(), 600u);
  EXPECT_DOUBLE_EQ(still.seconds(), 0.1);

  EXPECT_FALSE(tallied({1000, std::nullopt, 5000, 6000}, 0.5).known());
  EXPECT_FALSE(tallied({5000, 4000}, 0.5).known()) << "a counter gone backwards";

  EnergyTally none{GpuEnergyCounter()};  // off the GPU, or no NVML
  none.begin();
  none.end(0.5);
  EXPECT_FALSE(none.known());
}

namespace {

// A group of several processes, one thread each, with ProcessGroup's reductions: each returns,
// on every process, the reduction of the values all of them gave.
class ThreadGroup {
 public:
  explicit ThreadGroup(int size) : size_(size), given_(std::size_t(size)) {}

  class Member {
   public:
    Member(ThreadGroup& g, int rank) : g_(g), rank_(rank) {}
    long min(long x) const {
      return g_.reduce(rank_, x, [](long a, long b) { return std::min(a, b); });
    }
    std::size_t sum(std::size_t x) const { return g_.reduce(rank_, x, std::plus<std::size_t>()); }
    double max(double x) const {
      return g_.reduce(rank_, x, [](double a, double b) { return std::max(a, b); });
    }

   private:
    ThreadGroup& g_;
    int rank_;
  };

  // body(member, rank) on each process; their results, by rank.
  template <class Body>
  auto run(Body body) {
    using Result = decltype(body(std::declval<const Member&>(), 0));
    std::vector<Result> results(static_cast<std::size_t>(size_));
    std::vector<std::thread> threads;
    for (int r = 0; r < size_; ++r)
      threads.emplace_back([&, r] { results[std::size_t(r)] = body(Member(*this, r), r); });
    for (std::thread& t : threads) t.join();
    return results;
  }

 private:
  template <class T, class Op>
  T reduce(int rank, T x, Op op) {
    std::unique_lock<std::mutex> lock(mutex_);
    given_[std::size_t(rank)] = double(x);
    const long round = round_;
    if (++arrived_ < size_) {
      done_.wait(lock, [&] { return round_ != round; });
    } else {  // the last to arrive reduces; no one gives the next round's values before all have read this one
      T r = T(given_[0]);
      for (std::size_t p = 1; p < given_.size(); ++p) r = op(r, T(given_[p]));
      result_ = double(r);
      arrived_ = 0;
      ++round_;
      done_.notify_all();
    }
    return T(result_);
  }

  int size_;
  std::vector<double> given_;  // this round's values (the tests' are exact in a double)
  double result_ = 0;
  int arrived_ = 0;
  long round_ = 0;
  std::mutex mutex_;
  std::condition_variable done_;
};

}  // namespace

// Over MPI a run's energy is every process's GPU, or none (app/gpu_energy.hpp): with one process's
// read failed, no energy, not the others' sum passed off as the run's; with every read, the sum of
// the energies over the slowest process's seconds, on every process.
TEST(GpuEnergy, EveryProcessesGpuOrNone) {
  ThreadGroup group(3);
  const auto one_failed = group.run([](const ThreadGroup::Member& m, int rank) {
    const EnergyTally tally = rank == 2 ? tallied({1000, 1500, 2000, std::nullopt}, 0.5)
                                        : tallied({1000, 3000 + 1000 * std::uint64_t(rank)}, 0.5);
    return every_process_energy(tally, m);
  });
  for (int r = 0; r < 3; ++r) EXPECT_FALSE(one_failed[std::size_t(r)].has_value()) << "process " << r;

  const auto all_read = group.run([](const ThreadGroup::Member& m, int rank) {
    return every_process_energy(tallied({1000, 3000 + 1000 * std::uint64_t(rank)}, 0.25 * (rank + 1)), m);
  });
  for (int r = 0; r < 3; ++r) {
    ASSERT_TRUE(all_read[std::size_t(r)].has_value()) << "process " << r;
    EXPECT_DOUBLE_EQ(all_read[std::size_t(r)]->joules, 2.0 + 3.0 + 4.0) << "process " << r;
    EXPECT_DOUBLE_EQ(all_read[std::size_t(r)]->seconds, 0.75) << "process " << r;
  }
}

TEST(GpuEnergy, JoulesASiteUpdate) {
  ImplResult r;
  r.chunk_steps = {3, 5};
  r.chunk_seconds = {0.1, 0.2};
  EXPECT_FALSE(r.joules_per_site_update(1000).has_value());  // no energy: none
  r.energy = ImplResult::Energy{16.0, 0.3};
  EXPECT_DOUBLE_EQ(*r.joules_per_site_update(1000), 16.0 / (8.0 * 1000.0));
}

// Off the GPU a run records no energy, and with no NVML (CI) the GPU's counter is empty.
TEST(GpuEnergy, NoneOffTheGpu) {
  Options o = small_options({12, 9, 5});
  std::ostringstream log;
  const RunReport r = run_comparison(o, {find_implementation("cpu"), &host_kokkos_impl()}, log);
  for (const ImplResult& res : r.results) EXPECT_FALSE(res.energy.has_value()) << res.id;
}
