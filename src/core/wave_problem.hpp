// The model set-up shared by every implementation (docs/model.md: grid, initial condition, speed
// of sound, damping): padded-field geometry,
// speed of sound (depth only), sponge damping (x and y only) and the initial condition.
// Coefficients are kept compressed, cs2 as a function of k and damp as a function of (i, j),
// which is all they depend on; the CPU reference expands them to full (nx, ny, nz) fields.
#pragma once

#include "slab.hpp"
#include "wave_params.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace awave {

// The parameters of a slab of slab_nx x-planes of the grid `global` (what one process steps).
inline WaveParams slab_params(const WaveParams& global, int slab_nx) {
  WaveParams p = global;
  p.shape[0] = slab_nx;
  return p;
}

// Speed of sound [m/s] at a depth [m]: piecewise-linear in SPEC's table.
double sound_speed_at_depth(double depth);

// ramp[r], r = 0..nbl-1: damping rate of the r-th layer from a face.
std::vector<double> damping_ramp(double dx);

// Index arithmetic of a field padded by one ghost layer, k contiguous.
struct PaddedGeometry {
  int nx, ny, nz;  // interior points

  std::size_t size() const { return std::size_t(nx + 2) * std::size_t(ny + 2) * std::size_t(nz + 2); }
  std::size_t stride_i() const { return std::size_t(ny + 2) * std::size_t(nz + 2); }
  std::size_t stride_j() const { return std::size_t(nz + 2); }
  // Index of padded point (pi, pj, pk); interior point (i, j, k) is padded (i+1, j+1, k+1).
  std::size_t index(int pi, int pj, int pk) const {
    return (std::size_t(pi) * std::size_t(ny + 2) + std::size_t(pj)) * std::size_t(nz + 2) + std::size_t(pk);
  }
};

// Where a restarted run's state comes from: a time slot of an awave output file. The I/O layer
// finds and validates it and supplies the reader (io/restart.hpp), so the model needs no I/O.
struct StartSnapshot {
  std::string file;
  int64_t slot = 0;
  std::string kind = "snapshot";  // or "checkpoint" (io/output_layout.hpp): what the slot is of
  // Reads the file's global interior planes [gi0, gi0 + ni) of u and u_prev into the padded
  // planes pi0.. of two padded fields of `geometry` (ghost points untouched).
  std::function<void(const StartSnapshot&, const WaveParams& global, int gi0, int ni, const PaddedGeometry& geometry,
                     int pi0, double* now, double* prev)>
      read_planes;
};

class WaveProblem {
 public:
  // A run from the initial condition, or, with `start`, from a snapshot (params.start_step is
  // then the snapshot's time counter); over the whole grid, or over one process's slab of it.
  // Every coefficient is computed from global indices, so a slab's values are the whole
  // grid's, bit for bit.
  explicit WaveProblem(const WaveParams& params, std::optional<StartSnapshot> start = std::nullopt,
                       std::optional<Slab> slab = std::nullopt);

  // The parameters of what this process computes: the slab's computed planes as nx (its own,
  // and where it sweeps over MPI the neighbours' it recomputes: Slab::computed_nx).
  const WaveParams& params() const { return params_; }
  const WaveParams& global_params() const { return global_params_; }
  const Slab& slab() const { return slab_; }
  PaddedGeometry geometry() const { return {params_.nx(), params_.ny(), params_.nz()}; }
  double f() const { return params_.dt * params_.dt / (params_.dx * params_.dx); }  // dt^2/dx^2

  // Per-depth coefficients, length nz.
  const std::vector<double>& sos_k() const { return sos_k_; }
  const std::vector<double>& cs2_k() const { return cs2_k_; }
  // Damping of column (i, j), stored at i*ny + j, length nx*ny.
  const std::vector<double>& damp_ij() const { return damp_ij_; }
  double damp(int i, int j) const { return damp_ij_[std::size_t(i) * params_.ny() + j]; }

  // Writes the initial condition into a padded field of geometry().size() values: zero except
  // 50 at the (global) padded centre and -50/6 at its six face neighbours; a slab gets its
  // part, ghost planes included (they hold the neighbours' first values). For nz <= 2 some of those
  // neighbours are z ghosts; they are set as the reference sets them and never written again.
  void fill_initial_u(double* padded) const;

  // The state a run starts from, in two padded fields: the initial condition in both, or a
  // restart snapshot's u and u_prev. Ghost points are never written by a step, so they hold
  // the initial condition's values at every time, and the file's interior is all that a
  // restart needs. Every implementation sets its levels up from this (prev = prev, now and
  // next = now) and starts its time counter at params().start_step.
  void fill_start_state(double* now, double* prev) const;

 private:
  WaveParams params_, global_params_;
  Slab slab_;
  std::optional<StartSnapshot> start_;
  std::vector<double> sos_k_, cs2_k_, damp_ij_;
};

}  // namespace awave
