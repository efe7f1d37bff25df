// Planted outcomes for tests/tools/check_skips.sh: each test's name says what ctest must report.
#include <gtest/gtest.h>

TEST(Planted, FailsThenSkipsIsFailed) {
  EXPECT_EQ(1 + 1, 3) << "the planted failure";
  GTEST_SKIP() << "a skip after a failure";
}
TEST(Planted, SkipsIsSkipped) { GTEST_SKIP() << "no device"; }
TEST(Planted, PassesIsPassed) { EXPECT_EQ(1 + 1, 2); }
TEST(Planted, FailsIsFailed) { FAIL() << "Skipped is only a word here"; }
