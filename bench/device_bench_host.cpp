// awave-devbench (host builds): the CPU's attainable bandwidth, which the CPU's efficiencies divide by: STREAM's
// copy and triad over 3 arrays on every OpenMP thread (each first touched by the threads that use it), best of 20.
// Prints one JSON object.
#include "best_of.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>

int main(int argc, char** argv) {
  const long n = argc > 1 ? std::atol(argv[1]) : (1L << 26);  // 512 MiB an array: far past any cache
  if (n < 1) {
    std::fprintf(stderr, "awave-devbench: the array length must be a positive integer\n");
    return 1;
  }
  const int reps = 20;
  std::unique_ptr<double[]> a(new double[n]), b(new double[n]), c(new double[n]);
  double *pa = a.get(), *pb = b.get(), *pc = c.get();
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) {
    pa[i] = 1.0;
    pb[i] = 2.0;
    pc[i] = 0.5;
  }
  const double copy_s = best_seconds(reps, [&] {
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) pb[i] = pa[i];
  });
  const double triad_s = best_seconds(reps, [&] {
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) pa[i] = pb[i] + 3.0 * pc[i];
  });
  if (pa[n / 2] != 1.0 + 3.0 * 0.5) {
    std::fprintf(stderr, "awave-devbench: triad result %g is wrong\n", pa[n / 2]);
    return 1;
  }
  std::printf(
      "{\n  \"schema\": \"awave-devbench/1\",\n  \"model\": \"host-openmp\",\n  \"threads\": %d,\n"
      "  \"array_elements\": %ld,\n  \"repetitions\": %d,\n  \"copy_best_seconds\": %.9g,\n"
      "  \"copy_bandwidth_gb_s\": %.6g,\n  \"triad_best_seconds\": %.9g,\n  \"triad_bandwidth_gb_s\": %.6g\n}\n",
      omp_get_max_threads(), n, reps, copy_s, 16.0 * n / copy_s / 1e9, triad_s, 24.0 * n / triad_s / 1e9);
  return 0;
}
