// GoogleTest main for suites that create Kokkos implementations: Kokkos is initialised in a
// test Environment, i.e. only when tests run, so listing tests (ctest discovery) works on a
// machine without the build's accelerator.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

namespace {
class KokkosEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { Kokkos::initialize(); }
  void TearDown() override { Kokkos::finalize(); }
};
}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new KokkosEnvironment);
  return RUN_ALL_TESTS();
}
