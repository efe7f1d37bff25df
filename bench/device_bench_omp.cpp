// awave-devbench (openmptarget build): the CUDA version's measurements with OpenMP offload: copy and triad over 3
// device arrays, and the cost of an empty target region (what each offloaded loop pays a launch). Prints JSON.
#include "best_of.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  const long n = argc > 1 ? std::atol(argv[1]) : (1L << 28);
  const int reps = 20, dev = omp_get_default_device();
  if (omp_get_num_devices() < 1) {
    std::fprintf(stderr, "awave-devbench: no OpenMP offload device\n");
    return 1;
  }
  auto* a = static_cast<double*>(omp_target_alloc(n * sizeof(double), dev));
  auto* b = static_cast<double*>(omp_target_alloc(n * sizeof(double), dev));
  auto* c = static_cast<double*>(omp_target_alloc(n * sizeof(double), dev));
  if (!a || !b || !c) {
    std::fprintf(stderr, "awave-devbench: omp_target_alloc failed\n");
    return 1;
  }
#pragma omp target teams distribute parallel for is_device_ptr(a, b, c)
  for (long i = 0; i < n; ++i) {
    a[i] = 1.0;
    b[i] = 2.0;
    c[i] = 0.5;
  }
  const double copy_s = best_seconds(reps, [&] {
#pragma omp target teams distribute parallel for is_device_ptr(a, b)
    for (long i = 0; i < n; ++i) b[i] = a[i];
  });
  const double triad_s = best_seconds(reps, [&] {
#pragma omp target teams distribute parallel for is_device_ptr(a, b, c)
    for (long i = 0; i < n; ++i) a[i] = b[i] + 3.0 * c[i];
  });
  double check = 0;
#pragma omp target is_device_ptr(a) map(from : check)
  check = a[0];
  if (check != 1.0 + 3.0 * 0.5) {
    std::fprintf(stderr, "awave-devbench: triad result %g is wrong\n", check);
    return 1;
  }
  const int launches = 10000;
  for (int i = 0; i < 100; ++i) {
#pragma omp target
    {}
  }
  const double t0 = omp_get_wtime();
  for (int i = 0; i < launches; ++i) {
#pragma omp target
    {}
  }
  const double launch_s = (omp_get_wtime() - t0) / launches;
  std::printf(
      "{\n  \"schema\": \"awave-devbench/1\",\n  \"model\": \"openmp-offload\",\n  \"array_elements\": %ld,\n"
      "  \"repetitions\": %d,\n  \"copy_best_seconds\": %.9g,\n  \"copy_bandwidth_gb_s\": %.6g,\n"
      "  \"triad_best_seconds\": %.9g,\n  \"triad_bandwidth_gb_s\": %.6g,\n  \"launch_overhead_seconds\": %.6g\n}\n",
      n, reps, copy_s, 16.0 * n / copy_s / 1e9, triad_s, 24.0 * n / triad_s / 1e9, launch_s);
  omp_target_free(a, dev);
  omp_target_free(b, dev);
  omp_target_free(c, dev);
  return 0;
}
