#include "wave_cpu.hpp"

#include "core/sponge.hpp"
#include "core/wave_update.hpp"

#include <algorithm>
#include <stdexcept>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace awave {

int WaveCpu::max_threads() {
#if defined(_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}

WaveCpu::WaveCpu(const WaveProblem& problem, const StepPlan& plan, bool threaded)
    : WaveImpl(problem, plan), threaded_(threaded) {
  const PaddedGeometry g = problem.geometry();
  if (!threaded_) {  // the spec's full coefficient fields, for the serial reference alone
    const std::size_t n = problem.params().interior_points();
    cs2_.resize(n);
    damp_.resize(n);
    for (int i = 0; i < g.nx; ++i)
      for (int j = 0; j < g.ny; ++j)
        for (int k = 0; k < g.nz; ++k) {
          const std::size_t p = (std::size_t(i) * g.ny + j) * g.nz + k;
          cs2_[p] = problem.cs2_k()[k];
          damp_[p] = problem.damp(i, j);
        }
  }
  for (int l = 0; l < 3; ++l) u_[l].resize(g.size());
  problem.fill_start_state(u_[1].data(), u_[0].data());
  copy_in_parallel(u_[1].data(), g.size(), u_[2].data());  // next's ghost points must hold the start state's
  ring_ = TimeRing<HostField*>(&u_[0], &u_[1], &u_[2], problem.params().start_step);
  if (plan.steps_per_sweep > 1) {
    if (!threaded_) throw std::logic_error("cpu: the serial reference takes single steps");
    u_[3].resize(g.size());  // the sweep's fourth field, its ghost points as now's
    copy_in_parallel(u_[1].data(), g.size(), u_[3].data());
    sweep_shape_ = CacheSweep::from_tuning(g.nx, g.ny, g.nz, max_threads());
    sweep_buffers_.resize(std::size_t(max_threads()));
  }
}

void WaveCpu::sweep() {
  const PaddedGeometry g = problem_.geometry();
  const SweepFields f =
      sweep_fields(problem_, ring_.next()->data(), spare_->data(), ring_.now()->data(), ring_.prev()->data(),
                   problem_.cs2_k().data(), problem_.damp_ij().data(), long(g.stride_i()), long(g.stride_j()));
  const CacheSweep shape = sweep_shape_;
  const std::size_t buffer = shape.buffer_doubles(g.nz);
#pragma omp parallel
  {
#if defined(_OPENMP)
    std::vector<double>& mine = sweep_buffers_[std::size_t(omp_get_thread_num())];
#else
    std::vector<double>& mine = sweep_buffers_[0];
#endif
    if (mine.size() != buffer) mine.assign(buffer, 0.0);  // first touched by its thread
#pragma omp for schedule(static)
    for (int t = 0; t < shape.tiles(); ++t)
      cache_sweep_tile(f, shape, t % shape.tiles_j, t / shape.tiles_j, mine.data());
  }
  ring_.advance_by_sweep(spare_, CacheSweep::kSteps);
}

void WaveCpu::step() {
  if (threaded_)
    threaded_step();
  else
    reference_step();
  ring_.rotate();
}

// The spec's loop: every point reads its own speed and damping and takes the general update.
void WaveCpu::reference_step() {
  const PaddedGeometry g = problem_.geometry();
  const double f = problem_.f(), dt = problem_.params().dt;
  const std::size_t si = g.stride_i(), sj = g.stride_j();
  const double* now = ring_.now()->data();
  const double* prev = ring_.prev()->data();
  double* next = ring_.next()->data();
  for (int i = 0; i < g.nx; ++i)
    for (int j = 0; j < g.ny; ++j)
      for (int k = 0; k < g.nz; ++k) {
        const std::size_t c = g.index(i + 1, j + 1, k + 1);
        const std::size_t p = (std::size_t(i) * g.ny + j) * g.nz + k;
        next[c] = next_value(gather_stencil(now, long(c), long(si), long(sj)), prev[c], cs2_[p], damp_[p], f, dt);
      }
}

// The same arithmetic on the data every tuned code reads (speed by depth, damping by column: 24 B
// a site update against the spec's 40), threads on (i, j) columns, k innermost and vectorised, the
// undamped form where the column's damping is 0 (next_value's arithmetic there, bit for bit).
void WaveCpu::threaded_step() {
  const PaddedGeometry g = problem_.geometry();
  const double f = problem_.f(), dt = problem_.params().dt;
  const long si = long(g.stride_i()), sj = long(g.stride_j());
  const double* __restrict__ now = ring_.now()->data();
  const double* __restrict__ prev = ring_.prev()->data();
  double* __restrict__ next = ring_.next()->data();
  const double* __restrict__ cs2_k = problem_.cs2_k().data();
  const double* __restrict__ damp_ij = problem_.damp_ij().data();
  const int nx = g.nx, ny = g.ny, nz = g.nz;
#pragma omp parallel for collapse(2) schedule(static)
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) {
      const long c0 = long(g.index(i + 1, j + 1, 1));
      const double d = sponge::damp_at(damp_ij, ny, i, j);
      if (d == 0.0) {
#pragma omp simd
        for (int k = 0; k < nz; ++k)
          next[c0 + k] = undamped_next(gather_stencil(now, c0 + k, si, sj), prev[c0 + k], cs2_k[k], f);
      } else {
#pragma omp simd
        for (int k = 0; k < nz; ++k)
          next[c0 + k] = next_value(gather_stencil(now, c0 + k, si, sj), prev[c0 + k], cs2_k[k], d, f, dt);
      }
    }
}

void WaveCpu::run(int nsteps) {
  int n = 0;
  for (const int s = plan_.steps_per_sweep; s > 1 && n + s <= nsteps; n += s) sweep();
  for (; n < nsteps; ++n) step();
}

void WaveCpu::copy_u_to_host(double* h_now, double* h_prev) {
  std::copy(ring_.now()->begin(), ring_.now()->end(), h_now);
  if (h_prev) std::copy(ring_.prev()->begin(), ring_.prev()->end(), h_prev);
}

void WaveCpu::copy_planes_to_host(TimeLevel level, int pi, int count, double* host) {
  const std::size_t n = problem_.geometry().stride_i();
  const double* field = (level == TimeLevel::now ? ring_.now() : ring_.prev())->data();
  std::copy_n(field + std::size_t(pi) * n, std::size_t(count) * n, host);
}

void WaveCpu::copy_host_to_planes(TimeLevel level, int pi, int count, const double* host) {
  const std::size_t n = problem_.geometry().stride_i();
  double* field = (level == TimeLevel::now ? ring_.now() : ring_.prev())->data();
  std::copy_n(host, std::size_t(count) * n, field + std::size_t(pi) * n);
}

}  // namespace awave
