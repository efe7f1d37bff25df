// One step's fields and sizes as plain pointers (device pointers where the code runs on a GPU),
// the one bundle of the hand-written GPU codes: hand CUDA's kernels take it by value, hand OpenMP
// offload's target regions as firstprivate. Padded fields, k contiguous (docs/model.md, "Storage").
#pragma once

#include "core/sponge.hpp"
#include "core/wave_update.hpp"

// nvcc reads the fields through the read-only path where they cannot alias `next`; clang's
// offload build keeps them plain (its march was measured so: omp/omp_march.hpp).
#if defined(__CUDACC__)
#define AWAVE_CUDA_RESTRICT __restrict__
#else
#define AWAVE_CUDA_RESTRICT
#endif

namespace awave {

struct PointerFields {
  double* AWAVE_CUDA_RESTRICT next;
  const double* AWAVE_CUDA_RESTRICT now;
  const double* AWAVE_CUDA_RESTRICT prev;
  const double* AWAVE_CUDA_RESTRICT cs2_k;
  const double* AWAVE_CUDA_RESTRICT damp_ij;
  double f, dt;
  int nx, ny, nz;
  long si, sj;  // padded strides of i and j

  // The padded index of interior point (i, j, k).
  AWAVE_HOST_DEVICE long at(int i, int j, int k) const {
    return (long(i + 1) * (ny + 2) + (j + 1)) * long(nz + 2) + (k + 1);
  }
  AWAVE_HOST_DEVICE Stencil7 stencil(long c) const { return gather_stencil(now, c, si, sj); }
  AWAVE_HOST_DEVICE double damp(int i, int j) const { return sponge::damp_at(damp_ij, ny, i, j); }
  // A point of a sponge layer.
  AWAVE_HOST_DEVICE void damped_update(int i, int j, int k) const {
    const long c = at(i, j, k);
    next[c] = next_value(stencil(c), prev[c], cs2_k[k], damp(i, j), f, dt);
  }
  // Any point (fused steps): damped in a layer, undamped elsewhere.
  AWAVE_HOST_DEVICE void any_update(int i, int j, int k) const {
    if (sponge::damped(i, j, nx, ny)) return damped_update(i, j, k);
    const long c = at(i, j, k);
    next[c] = undamped_next(stencil(c), prev[c], cs2_k[k], f);
  }
};

}  // namespace awave
