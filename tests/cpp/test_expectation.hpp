// The plan a ctest entry's environment must give its tests ("three_kernel_step", "sweep"; empty:
// none), from the --expect=PLAN argument tests/CMakeLists.txt passes (kokkos_test_main.cpp reads
// it). Checked against the plan the run takes, so a lost environment fails instead of quietly
// testing the default plan again.
#pragma once

#include <string>

namespace awave_test {
const std::string& expected_plan();
}  // namespace awave_test
