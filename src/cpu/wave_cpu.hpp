// The serial CPU reference: the original program's loop nest and data layout, kept simple and
// exact. Full (nx, ny, nz) coefficient fields, three padded u fields, every point takes the
// general (branching) update. Every other implementation is checked against this one.
#pragma once

#include "core/time_ring.hpp"
#include "core/wave_impl.hpp"

#include <vector>

namespace awave {

class WaveCpu final : public WaveImpl {
 public:
  explicit WaveCpu(const WaveProblem& problem);
  std::string id() const override { return "cpu"; }
  void run(int nsteps) override;
  long time_step() const override { return ring_.time(); }
  void copy_u_to_host(double* h_now, double* h_prev) override;

 private:
  void step();
  std::vector<double> cs2_, damp_;  // unpadded, (i*ny + j)*nz + k
  std::vector<double> u_[3];        // padded fields
  TimeRing<std::vector<double>*> ring_;
};

}  // namespace awave
