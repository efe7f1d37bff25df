// The best time of `reps` runs of body() after 2 warm-up runs, by OpenMP's wall clock: how the
// host and OpenMP-offload awave-devbench time copy and triad (STREAM takes the best too).
#pragma once

#include <omp.h>

#include <algorithm>

template <class Body>
double best_seconds(int reps, Body body) {
  double best = 1e30;
  for (int r = 0; r < reps + 2; ++r) {
    const double t0 = omp_get_wtime();
    body();
    const double t = omp_get_wtime() - t0;
    if (r >= 2) best = std::min(best, t);
  }
  return best;
}
