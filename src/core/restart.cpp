#include "restart.hpp"

#include "vtkhdf.hpp"

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
  return RestartPoint{p, long(c.params.nsteps), c.complete, StartSnapshot{path, slot}};
}

std::optional<std::string> apply_restart(Options& o) {
  if (o.restart_file.empty()) return std::nullopt;
  RestartPoint r;
  try {
    r = read_restart_point(o.restart_file);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  const WaveParams& f = r.params;
  const WaveParams& given = o.params;
  auto contradiction = [&](const char* flag, const std::string& asked, const std::string& file) {
    return fmt::format("-{} {} contradicts the restart file '{}' ({} there)", flag, asked, o.restart_file, file);
  };
  if (o.given.shape && given.shape != f.shape)
    return contradiction("shape", fmt::format("{},{},{}", given.nx(), given.ny(), given.nz()),
                         fmt::format("{},{},{}", f.nx(), f.ny(), f.nz()));
  if (o.given.dx && given.dx != f.dx) return contradiction("dx", fmt::format("{}", given.dx), fmt::format("{}", f.dx));
  if (o.given.dt && given.dt != f.dt) return contradiction("dt", fmt::format("{}", given.dt), fmt::format("{}", f.dt));
  if (o.given.out_period && given.out_period != f.out_period)
    return contradiction("out_period", fmt::format("{}", given.out_period), fmt::format("{}", f.out_period));
  WaveParams p = f;
  if (o.given.nsteps) {
    p.nsteps = given.nsteps;
  } else {
    if (r.file_end_step <= f.start_step)
      return fmt::format("the run in '{}' is complete (step {}); give -nsteps N to run N more steps", o.restart_file,
                         f.start_step);
    p.nsteps = int(r.file_end_step - f.start_step);
  }
  if (auto problem = validate(p)) return *problem;
  o.params = p;
  o.start = r.snapshot;
  return std::nullopt;
}

}  // namespace awave
