// The distributed checker, under mpirun -np 3: each process compares the planes it owns, the
// counts are summed. A fault planted in one process's slab is counted once, by all; the
// point count is the single-process one.
#include "app/driver.hpp"
#include "app/registry.hpp"
#include "parallel/process_group.hpp"

#include <gtest/gtest.h>

#include <sstream>

using namespace awave;

namespace {

// The CPU reference with one value of its `now` changed, on one process only.
class PlantedFault final : public WaveImpl {
 public:
  PlantedFault(const WaveProblem& problem, int on_rank)
      : WaveImpl(problem, StepPlan{}),
        inner_(make_implementation(*find_implementation("cpu"), problem)),
        on_rank_(on_rank) {}
  std::string id() const override { return "planted-fault"; }
  void run(int n) override { inner_->run(n); }
  long time_step() const override { return inner_->time_step(); }
  void copy_u_to_host(double* h_now, double* h_prev) override {
    inner_->copy_u_to_host(h_now, h_prev);
    if (ProcessGroup::world().rank() == on_rank_) h_now[problem_.geometry().index(1, 5, 3)] += 1e-3;
  }
  void copy_planes_to_host(TimeLevel level, int pi, int count, double* host) override {
    inner_->copy_planes_to_host(level, pi, count, host);
  }
  void copy_host_to_planes(TimeLevel level, int pi, int count, const double* host) override {
    inner_->copy_host_to_planes(level, pi, count, host);
  }

 private:
  std::unique_ptr<WaveImpl> inner_;
  int on_rank_;
};

RunReport run_with_fault_on(int rank) {
  Options o;
  o.params.shape = {13, 11, 7};
  o.params.nsteps = 5;
  o.params.out_period = 2;
  o.write_output = false;
  const ImplEntry faulty{"planted-fault", "planted fault", false, false, [rank](const WaveProblem& p, const StepPlan&) {
                           return std::make_unique<PlantedFault>(p, rank);
                         }};
  std::ostringstream log;
  return run_comparison(o, {find_implementation("cpu"), &faulty}, log);
}

}  // namespace

TEST(DistributedChecker, CountsAFaultInOneSlabOnceOnEveryProcess) {
  ASSERT_EQ(ProcessGroup::world().size(), 3) << "run under mpirun -np 3";
  const std::size_t padded_points = 15 * 13 * 9;
  const RunReport clean = run_with_fault_on(-1);
  EXPECT_EQ(clean.results[1].differences, 0u);
  EXPECT_EQ(clean.results[1].points_compared, padded_points);
  for (int rank : {0, 1, 2}) {
    const RunReport faulty = run_with_fault_on(rank);
    EXPECT_EQ(faulty.results[1].differences, 1u) << "fault on process " << rank;
    EXPECT_FALSE(faulty.all_passed());
  }
}

int main(int argc, char** argv) {
  ProcessGroup::init(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (ProcessGroup::world().rank() != 0) {  // one process prints
    ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int status = RUN_ALL_TESTS();
  ProcessGroup::finalize();
  return status;
}
