#include "wave_params.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace awave {

double courant_number(double dx, double dt) {
  return kMaxSoundSpeed * dt * std::sqrt(3.0) / dx;
}

double largest_stable_dt(double dx) {
  // Round down to the largest double that still passes the check, so the printed limit works.
  double dt = dx / (kMaxSoundSpeed * std::sqrt(3.0));
  while (courant_number(dx, dt) > 1.0) dt = std::nextafter(dt, 0.0);
  return dt;
}

std::vector<int> chunk_lengths(const WaveParams& p) {
  std::vector<int> lengths;
  for (long t = p.start_step; t < p.end_step();) {
    const long next = std::min((t / p.out_period + 1) * long(p.out_period), p.end_step());
    lengths.push_back(int(next - t));
    t = next;
  }
  return lengths;
}

std::optional<std::string> validate(const WaveParams& p) {
  const int min_xy = 2 * kBoundaryLayers;
  if (p.nx() < min_xy || p.ny() < min_xy)
    return fmt::format("shape {},{},{}: nx and ny must be at least {} (two sponge layers of {})", p.nx(), p.ny(),
                       p.nz(), min_xy, kBoundaryLayers);
  if (p.nz() < 1) return fmt::format("shape {},{},{}: nz must be at least 1", p.nx(), p.ny(), p.nz());
  if (!(std::isfinite(p.dx) && p.dx > 0)) return fmt::format("dx must be a positive finite number, got {}", p.dx);
  if (!(std::isfinite(p.dt) && p.dt > 0)) return fmt::format("dt must be a positive finite number, got {}", p.dt);
  if (p.nsteps < 1) return fmt::format("nsteps must be at least 1, got {}", p.nsteps);
  if (p.out_period < 1) return fmt::format("out_period must be at least 1, got {}", p.out_period);
  if (p.start_step < 0) return fmt::format("the start step must not be negative, got {}", p.start_step);
  // (the file's steps attribute is a 32-bit integer: a later end was written truncated, and the run's own
  // file then read as damaged)
  if (p.end_step() > std::numeric_limits<int32_t>::max())
    return fmt::format("the run would end at step {}, past {}, the last step an awave file records", p.end_step(),
                       std::numeric_limits<int32_t>::max());
  const double courant = courant_number(p.dx, p.dt);
  if (courant > 1.0)
    return fmt::format("dt {} is unstable for dx {} (Courant number {:.4g} > 1); the largest stable dt is {:.10g}",
                       p.dt, p.dx, courant, largest_stable_dt(p.dx));
  return std::nullopt;
}

}  // namespace awave
