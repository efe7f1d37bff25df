// GoogleTest main for suites that run implementations: Kokkos is initialised in a test
// Environment, i.e. only when tests run, so listing tests (ctest discovery) works anywhere.
// In a GPU build without a usable GPU every test is skipped: Kokkos cannot even start there.
#include "app/registry.hpp"
#include "kokkos/register_kokkos.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace {
class KokkosEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    if (auto problem = awave::accelerator_problem()) GTEST_SKIP() << *problem;
    kokkos_ = std::make_unique<awave::KokkosRuntime>();
  }
  void TearDown() override { kokkos_.reset(); }

 private:
  std::unique_ptr<awave::KokkosRuntime> kokkos_;
};
}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new KokkosEnvironment);
  return RUN_ALL_TESTS();
}
