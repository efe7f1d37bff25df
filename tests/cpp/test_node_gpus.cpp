// The GPU list each process of a node chooses its GPU from (parallel/process_group.hpp).
#include "parallel/process_group.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace awave;

// Read once, from CUDA_VISIBLE_DEVICES where it is set, and kept: choosing a process's GPU
// narrows that variable afterwards, and NCCL's check (GPUs per process) reads the list after
// the choice. Counting through CUDA instead started CUDA before the choice and left every
// process of a node on the first GPU (measured on 2 H200s: NCCL's "Duplicate GPU detected").
// (The first call of the process must be this test's: ctest runs each test on its own.)
TEST(NodeGpus, ReadOnceBeforeTheChoiceNarrowsThem) {
  setenv("CUDA_VISIBLE_DEVICES", "3,GPU-5e1f,,7", 1);
  const std::vector<std::string> first = node_gpus();
  EXPECT_EQ(first, (std::vector<std::string>{"3", "GPU-5e1f", "7"}));
  setenv("CUDA_VISIBLE_DEVICES", "7", 1);  // what select_accelerator does for local rank 2
  EXPECT_EQ(node_gpus(), first);
  unsetenv("CUDA_VISIBLE_DEVICES");
}
