// Run parameters of the awave model and their validation (docs/model.md, "The program").
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace awave {

inline constexpr int kBoundaryLayers = 4;         // nbl: sponge layers at each x/y face
inline constexpr double kMaxSoundSpeed = 1541.0;  // c_max: largest speed in the table

struct WaveParams {
  std::array<int, 3> shape{32, 32, 32};  // interior points (nx, ny, nz)
  double dx = 10.0;                      // grid spacing [m]
  double dt = 0.002;                     // time step [s]
  int nsteps = 100;                      // steps this run advances
  int out_period = 10;                   // snapshots at time counters that are multiples of it, and at the end
  long start_step = 0;                   // the time counter the run starts from (non-zero for a restart)

  long end_step() const { return start_step + nsteps; }

  int nx() const { return shape[0]; }
  int ny() const { return shape[1]; }
  int nz() const { return shape[2]; }
  std::size_t interior_points() const { return std::size_t(shape[0]) * std::size_t(shape[1]) * std::size_t(shape[2]); }
};

// Courant number c_max*dt*sqrt(3)/dx: the explicit scheme is stable while it is <= 1.
double courant_number(double dx, double dt);
// The largest dt for which courant_number(dx, dt) <= 1.
double largest_stable_dt(double dx);

// The chunks of a run, in steps: each ends at a time counter that is a multiple of out_period,
// or at the run's end. A run restarted from any of its snapshots therefore takes the same
// chunks, and writes the same snapshots, as the run that was not interrupted.
std::vector<int> chunk_lengths(const WaveParams& params);

// A one-line description of what is wrong with the parameters, or nothing if they are valid.
std::optional<std::string> validate(const WaveParams& params);

}  // namespace awave
