#include "io/restart.hpp"

#include "io/vtkhdf.hpp"

#include <fmt/format.h>
#include <hdf5.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace awave {

RestartPoint read_restart_point(const std::string& path) {
  auto refuse = [&path](const std::string& why) {
    return std::invalid_argument(fmt::format("restart file '{}' {}", path, why));
  };
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw refuse("does not exist or is not a file");
  if (H5Fis_hdf5(path.c_str()) <= 0) throw refuse("is not an HDF5 file");
  VtkHdfContents c;
  try {
    c = read_vtkhdf_contents(path);
  } catch (const std::exception& e) {
    throw refuse(fmt::format("is not a readable awave output file ({})", e.what()));
  }
  if (c.type != "ImageData" || c.version[0] != 2) throw refuse("is not an awave VTKHDF ImageData file");

  WaveParams p = c.params;
  const auto u_dims = c.dims.at("u");
  if (c.dims.at("u_prev") != u_dims || u_dims[1] != p.nz() || u_dims[2] != p.ny() || u_dims[3] != p.nx())
    throw refuse(
        fmt::format("is corrupt: its u arrays are not of the shape {},{},{} in /wave_params", p.nx(), p.ny(), p.nz()));
  if (c.n_boundary_layers != kBoundaryLayers)
    throw refuse(fmt::format("has {} sponge layers; this awave uses {}", c.n_boundary_layers, kBoundaryLayers));
  if (c.spacing != std::array<double, 3>{p.dx, p.dx, p.dx}) throw refuse("is corrupt: Spacing is not dx");

  // The snapshots every part of the file agrees on.
  int64_t n = c.nsteps;
  n = std::min<int64_t>(n, int64_t(c.step_values.size()));
  for (const auto& [name, offsets] : c.offsets) n = std::min<int64_t>(n, int64_t(offsets.size()));
  if (n < 1) throw refuse("holds no complete snapshot (the run ended before its first output)");
  const int64_t slot = c.offsets.at("u")[n - 1];
  if (slot != c.offsets.at("u_prev")[n - 1] || slot < 0 || slot >= u_dims[0])
    throw refuse(fmt::format("is corrupt: snapshot {} points at slot {} of {}", n - 1, slot, u_dims[0]));
  for (int64_t s = 1; s < n; ++s)
    if (c.step_values[s] <= c.step_values[s - 1]) throw refuse("is corrupt: its time values do not increase");
  const long time = long(c.step_values[n - 1]);
  if (time < 0) throw refuse("is corrupt: a negative time counter");

  p.start_step = time;
  p.nsteps = 1;  // placeholder, to validate the rest; apply_restart sets it
  if (auto problem = validate(p)) throw refuse(fmt::format("has invalid parameters: {}", *problem));
  StartSnapshot snapshot{
      path, slot,
      [](const StartSnapshot& s, const WaveParams& global, int gi0, int ni, const PaddedGeometry& geometry, int pi0,
         double* now, double* prev) { read_vtkhdf_state(s.file, s.slot, global, gi0, ni, geometry, pi0, now, prev); }};
  return RestartPoint{p, long(c.params.nsteps), c.complete, std::move(snapshot)};
}

}  // namespace awave
