// What guarantees bitwise results (cmake/AwaveExactFP.cmake), shown on the host: the reference's
// loop compiled for an FMA-capable CPU (-mfma, as -march=native gives on x86-64) stays the
// reference's bits under the project's flags, and the same loop with contraction allowed
// (-ffp-contract=fast: gcc's default outside ISO modes, what nvcc and clang do for GPUs) does
// not, and the bitwise check says so (the planted error).
#include "app/registry.hpp"
#include "core/approx_equal.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace probe_exact {
std::vector<double> run_reference_loop(const awave::WaveProblem& problem, int steps);
}
namespace probe_contracted {
std::vector<double> run_reference_loop(const awave::WaveProblem& problem, int steps);
}

using namespace awave;

namespace {

// The serial CPU reference's padded `now` after `steps` steps (its own, exact build).
std::vector<double> reference_now(const WaveProblem& problem, int steps) {
  auto cpu = make_implementation(*find_implementation("cpu"), problem);
  cpu->run(steps);
  std::vector<double> now(problem.geometry().size()), prev(now.size());
  cpu->copy_u_to_host(now.data(), prev.data());
  return now;
}

void require_fma() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (!__builtin_cpu_supports("fma")) GTEST_SKIP() << "this CPU has no FMA: nothing to contract into";
#else
  GTEST_SKIP() << "the probe is built for x86-64 with -mfma only";
#endif
}

WaveParams probe_params() {
  WaveParams p;
  p.shape = {61, 23, 19};  // the shape at which GPU contraction was first measured
  return p;
}

}  // namespace

TEST(ExactFp, AnFmaBuildOfTheReferenceLoopKeepsTheReferencesBits) {
  require_fma();
  const WaveProblem problem(probe_params());
  const std::vector<double> ref = reference_now(problem, 13);
  const std::vector<double> got = probe_exact::run_reference_loop(problem, 13);
  const FieldComparison c = compare_fields(ref.data(), got.data(), ref.size());
  EXPECT_TRUE(c.bitwise()) << c.bitwise_differences << " points differ";
}

TEST(ExactFp, ContractionChangesTheBitsAndTheCheckSeesIt) {
  require_fma();
  const WaveProblem problem(probe_params());
  const std::vector<double> ref = reference_now(problem, 13);
  const std::vector<double> got = probe_contracted::run_reference_loop(problem, 13);
  const FieldComparison c = compare_fields(ref.data(), got.data(), ref.size());
  EXPECT_GT(c.bitwise_differences, 100u) << "contraction should change the last bits of many points";
  EXPECT_GT(c.max_relative_difference, 0.0);
  EXPECT_LT(c.max_relative_difference, 1e-10) << "last bits only, as measured on the GPUs";
}
