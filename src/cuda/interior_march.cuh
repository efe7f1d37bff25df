// Hand CUDA's interior march, one source for the product's interior kernel (wave_cuda.cu) and the
// kernel shapes benchmark (bench/cuda_stencil_shapes.cu, its "march"): a thread marches i over
// [i_begin, i_end) at one (j, k) column from padded index c, keeping `now` at i-1, i, i+1 in
// registers; no damping (the interior region). Args has next, now, prev (restrict), f, si, sj.
// adjust(i, value) returns what is stored at plane i: the product stores the value, the benchmark
// plants an error with it.
#pragma once

#include "core/wave_update.hpp"

namespace awave {

template <class Args, class Adjust>
__device__ inline void interior_march(const Args& a, double cs2, long c, int i_begin, int i_end, Adjust adjust) {
  double xm = a.now[c - a.si], centre = a.now[c];
#pragma unroll 4
  for (int i = i_begin; i < i_end; ++i, c += a.si) {
    const double xp = a.now[c + a.si];
    const Stencil7 s{centre, xm, xp, a.now[c - a.sj], a.now[c + a.sj], a.now[c - 1], a.now[c + 1]};
    a.next[c] = adjust(i, undamped_next(s, a.prev[c], cs2, a.f));
    xm = centre;
    centre = xp;
  }
}

struct StoreAsComputed {
  __device__ double operator()(int, double value) const { return value; }
};

}  // namespace awave
