// What the bench's CUDA programs (awave-devbench, the studies' executables) share: a checked CUDA call, and a
// bitwise comparison of two fields on the GPU.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>

// A failed CUDA call ends the program with one line naming the program and the call.
inline void cuda_check(cudaError_t e, const char* program, const char* what, int status = 1) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s: %s\n", program, what, cudaGetErrorString(e));
    std::exit(status);
  }
}

namespace {

// Differing doubles (bit patterns) between two fields, added to *count.
__global__ void count_differences(const double* __restrict__ a, const double* __restrict__ b, std::size_t n,
                                  unsigned long long* count) {
  unsigned long long local = 0;
  for (std::size_t p = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; p < n;
       p += std::size_t(gridDim.x) * blockDim.x)
    local += __double_as_longlong(a[p]) != __double_as_longlong(b[p]);
  if (local) atomicAdd(count, local);
}

}  // namespace
