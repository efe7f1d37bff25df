// The awave executable (AWAVE_EXE) run as a user runs it, in a fresh directory per test:
// exit status, messages and the files it leaves.
#pragma once

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace awave_test {

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

struct Outcome {
  int status;
  std::string out, err;
};

class AwaveProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("awave-" + std::string(test->test_suite_name()) + "-" + std::to_string(::getpid()) + "-" + test->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(work());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path work() const { return dir_ / "work"; }

  // Runs awave in work(); stdout and stderr are kept outside it so that the work directory
  // shows exactly the files awave created.
  Outcome run(const std::string& args) const { return run_with_env("", args); }
  // The same with extra environment variables ("A=1 B=2") and a launcher before the executable.
  Outcome run_with_env(const std::string& env, const std::string& args, const std::string& launcher = "") const {
    const std::string cmd = "cd '" + work().string() + "' && " + env + " OMP_NUM_THREADS=2 OMP_PROC_BIND=false " +
                            launcher + " '" AWAVE_EXE "' " + args + " >'" + (dir_ / "out").string() + "' 2>'" +
                            (dir_ / "err").string() + "'";
    const int raw = std::system(cmd.c_str());
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(dir_ / "out"), slurp(dir_ / "err")};
  }
  std::vector<std::string> files_in_work() const {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(work())) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  std::filesystem::path dir_;
};

}  // namespace awave_test
