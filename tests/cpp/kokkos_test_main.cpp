// GoogleTest main for suites that run implementations: Kokkos is initialised in a test
// Environment, i.e. only when tests run, so listing tests (ctest discovery) works anywhere.
// In a GPU build without a usable GPU no test runs (Kokkos cannot even start there): the main
// says why in one line and exits 77, ctest's skip code (tests/skip_properties.cmake). A skip
// from the Environment would print no "[  SKIPPED ]" marker and exit 0: a pass that ran nothing.
#include "app/registry.hpp"
#include "kokkos/register_kokkos.hpp"
#include "test_expectation.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <memory>

namespace {
class KokkosEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { kokkos_ = std::make_unique<awave::KokkosRuntime>(); }
  void TearDown() override { kokkos_.reset(); }

 private:
  std::unique_ptr<awave::KokkosRuntime> kokkos_;
};
}  // namespace

namespace awave_test {
const std::string& expected_plan() {
  static std::string plan;
  return plan;
}
}  // namespace awave_test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // --expect=PLAN (three_kernel_step or sweep), left in argv by gtest: see expected_plan().
  for (int a = 1; a < argc; ++a)
    if (std::string(argv[a]).rfind("--expect=", 0) == 0)
      const_cast<std::string&>(awave_test::expected_plan()) = std::string(argv[a]).substr(9);
  if (!::testing::GTEST_FLAG(list_tests))
    if (auto problem = awave::accelerator_problem()) {
      std::cout << "SKIPPED, every test of this executable: " << *problem << "\n";
      return 77;
    }
  ::testing::AddGlobalTestEnvironment(new KokkosEnvironment);
  return RUN_ALL_TESTS();
}
