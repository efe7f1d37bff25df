#include "wave_problem.hpp"

#include "host_field.hpp"
#include "sponge.hpp"

#include <algorithm>
#include <array>
#include <iterator>

namespace awave {
namespace {

struct SoundSpeedPoint {
  double depth, speed;
};
constexpr std::array<SoundSpeedPoint, 26> kSoundSpeedTable{{
    {0, 1540.4},    {10, 1540.5},   {20, 1540.7},   {30, 1534.4},   {50, 1523.3},   {75, 1519.6},   {100, 1518.5},
    {125, 1517.9},  {150, 1517.3},  {200, 1516.6},  {250, 1516.5},  {300, 1516.2},  {400, 1516.4},  {500, 1517.2},
    {600, 1518.2},  {700, 1519.5},  {800, 1521.0},  {900, 1522.6},  {1000, 1524.1}, {1100, 1525.7}, {1200, 1527.3},
    {1300, 1529.0}, {1400, 1530.7}, {1500, 1532.4}, {1750, 1536.7}, {2000, 1541.0},
}};

}  // namespace

double sound_speed_at_depth(double depth) {
  const auto hi = std::find_if(kSoundSpeedTable.begin(), kSoundSpeedTable.end(),
                               [depth](const SoundSpeedPoint& p) { return p.depth > depth; });
  if (hi == kSoundSpeedTable.end()) return kSoundSpeedTable.back().speed;
  if (hi == kSoundSpeedTable.begin()) return hi->speed;
  const auto lo = std::prev(hi);
  const double t = (depth - lo->depth) / (hi->depth - lo->depth);
  // std::lerp's value for t in [0, 1) and positive end points (C++17 has no std::lerp).
  return lo->speed + t * (hi->speed - lo->speed);
}

std::vector<double> damping_ramp(double dx) {
  const int nbl = kBoundaryLayers;
  std::vector<double> ramp(nbl);
  for (int r = 0; r < nbl; ++r)
    ramp[r] = 9.0 * kMaxSoundSpeed * double((nbl - r) * (nbl - r)) / (2.0 * double(nbl * nbl * nbl) * dx);
  return ramp;
}

WaveProblem::WaveProblem(const WaveParams& params, std::optional<StartSnapshot> start, std::optional<Slab> slab)
    : params_(params), global_params_(params), slab_(slab ? *slab : whole_grid(params.nx())), start_(std::move(start)) {
  params_ = slab_params(params, slab_.computed_nx());
  const int nx = params.nx(), ny = params.ny(), nz = params.nz();  // global
  sos_k_.resize(nz);
  cs2_k_.resize(nz);
  for (int k = 0; k < nz; ++k) {
    sos_k_[k] = sound_speed_at_depth(k * params.dx);
    cs2_k_[k] = sos_k_[k] * sos_k_[k];
  }
  // rx(i) / ry(j): the ramp of the x (y) layer a column sits in; corners take the product.
  const std::vector<double> ramp = damping_ramp(params.dx);
  auto layer_ramp = [&ramp](int i, int n) { return ramp[sponge::depth_in_layer(i, n)]; };
  const int i0 = slab_.computed_offset();
  damp_ij_.assign(std::size_t(params_.nx()) * ny, 0.0);
  for (int i = i0; i < i0 + params_.nx(); ++i)
    for (int j = 0; j < ny; ++j) {
      const bool in_x = sponge::in_layer(i, nx), in_y = sponge::in_layer(j, ny);
      double d = 0.0;
      if (in_x && in_y)
        d = layer_ramp(i, nx) * layer_ramp(j, ny);
      else if (in_x)
        d = layer_ramp(i, nx);
      else if (in_y)
        d = layer_ramp(j, ny);
      damp_ij_[std::size_t(i - i0) * ny + j] = d;
    }
}

void WaveProblem::fill_initial_u(double* padded) const {
  const PaddedGeometry g = geometry();
  fill_in_parallel(padded, g.size(), 0.0);
  const int gnx = global_params_.nx();
  const int hx = (gnx + 2) / 2, hy = (g.ny + 2) / 2, hz = (g.nz + 2) / 2;  // global padded centre
  auto set = [&](int gi, int pj, int pk, double value) {  // global padded plane gi, if this slab has it
    const int pi = gi - slab_.computed_offset();
    if (pi >= 0 && pi <= g.nx + 1) padded[g.index(pi, pj, pk)] = value;
  };
  set(hx, hy, hz, 50.0);
  const double side = -50.0 / 6.0;
  set(hx - 1, hy, hz, side);
  set(hx + 1, hy, hz, side);
  set(hx, hy - 1, hz, side);
  set(hx, hy + 1, hz, side);
  set(hx, hy, hz - 1, side);
  set(hx, hy, hz + 1, side);
}

void WaveProblem::fill_start_state(double* now, double* prev) const {
  fill_initial_u(now);
  fill_initial_u(prev);
  if (!start_) return;
  // The computed planes and the ghost planes beyond (the neighbours' planes; at the grid's x faces
  // the ghosts keep the initial condition's zeros).
  const int i0 = slab_.computed_offset();
  const int first = std::max(i0 - 1, 0), last = std::min(i0 + params_.nx() + 1, global_params_.nx());
  start_->read_planes(*start_, global_params_, first, last - first, geometry(), first - i0 + 1, now, prev);
}

}  // namespace awave
