// The CPU reference: the original program's loop nest and data layout, kept simple and exact.
// Serial ("cpu") it is the spec every other implementation is checked against: full (nx, ny, nz)
// coefficient fields, three padded u fields, every point takes the general (branching) update.
// With threads ("cpu-openmp", the hand-written family's CPU code) a step is tuned as the Kokkos
// forms are: speed by depth and damping by column, threads on (i, j) columns, k vectorised; each
// point's arithmetic is the spec's, so the result is bitwise the serial one (tested), and checking
// a 1000^3 GPU run takes minutes instead of hours. Threaded, on large grids it takes three steps a
// sweep (core/cache_sweep.hpp), where its plan says so; the reference of a checked run never does
// (app/registry.hpp).
#pragma once

#include "core/cache_sweep.hpp"
#include "core/time_ring.hpp"
#include "core/wave_impl.hpp"

#include <vector>

namespace awave {

class WaveCpu final : public WaveImpl {
 public:
  WaveCpu(const WaveProblem& problem, const StepPlan& plan, bool threaded);
  std::string id() const override { return threaded_ ? "cpu-openmp" : "cpu"; }
  // Threads a threaded reference uses (1 in a build without OpenMP).
  static int max_threads();
  void run(int nsteps) override;
  long time_step() const override { return ring_.time(); }
  void copy_u_to_host(double* h_now, double* h_prev) override;
  void copy_planes_to_host(TimeLevel level, int pi, int count, double* host) override;
  void copy_host_to_planes(TimeLevel level, int pi, int count, const double* host) override;

 private:
  void step();
  void reference_step();
  void threaded_step();
  void sweep();
  bool threaded_;
  HostField cs2_, damp_;  // the serial reference's, unpadded, (i*ny + j)*nz + k
  HostField u_[4];        // padded fields (the fourth: the sweep's)
  TimeRing<HostField*> ring_;
  HostField* spare_ = &u_[3];
  CacheSweep sweep_shape_;
  std::vector<std::vector<double>> sweep_buffers_;  // one a thread, made by that thread
};

}  // namespace awave
