// The bench's CUDA programs (awave-devbench, the studies' executables): a failed CUDA call ends the program with
// one line naming the program and the call.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

inline void cuda_check(cudaError_t e, const char* program, const char* what, int status = 1) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s: %s\n", program, what, cudaGetErrorString(e));
    std::exit(status);
  }
}
