#include "io/restart.hpp"

#include "io/integrity.hpp"
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

  const int64_t n = c.committed_snapshots();
  if (n < 1) throw refuse("holds no complete snapshot (the run ended before its first output)");
  // The newest snapshot that verifies.
  IntegrityReport integrity;
  try {
    integrity = check_integrity(path, true);
  } catch (const std::exception& e) {
    throw refuse(fmt::format("cannot be verified: {}", e.what()));
  }
  int64_t start = n - 1;
  std::string notice;
  bool skipped = false;
  if (!integrity.has_checksums) {  // only what the file's structure shows can be checked
    for (int64_t s = 1; s < n; ++s)
      if (c.step_values[s] <= c.step_values[s - 1]) throw refuse("is corrupt: its time values do not increase");
    notice = fmt::format("restart file '{}' was written before awave kept checksums: its snapshots cannot be verified",
                         path);
  } else {
    const std::optional<int64_t> intact = integrity.newest_intact();
    if (!intact)
      throw refuse(fmt::format("holds no intact snapshot (snapshot {} at step {}: {})", n - 1, c.step_values[n - 1],
                               *integrity.damage[std::size_t(n - 1)]));
    if (*intact != n - 1) {
      skipped = true;
      notice = fmt::format(
          "restart file '{}': snapshot {} (step {}) is damaged ({}); continuing from snapshot {} (step {}), which "
          "loses {} steps",
          path, n - 1, c.step_values[n - 1], *integrity.damage[std::size_t(n - 1)], *intact,
          c.step_values[std::size_t(*intact)], c.step_values[n - 1] - c.step_values[std::size_t(*intact)]);
    }
    start = *intact;
  }
  const int64_t slot = c.offsets.at("u")[std::size_t(start)];
  if (slot != c.offsets.at("u_prev")[std::size_t(start)] || slot < 0 || slot >= u_dims[0])
    throw refuse(fmt::format("is corrupt: snapshot {} points at slot {} of {}", start, slot, u_dims[0]));
  const long time = long(c.step_values[std::size_t(start)]);
  if (time < 0) throw refuse("is corrupt: a negative time counter");

  p.start_step = time;
  p.nsteps = 1;  // placeholder, to validate the rest; apply_restart sets it
  if (auto problem = validate(p)) throw refuse(fmt::format("has invalid parameters: {}", *problem));
  StartSnapshot snapshot{
      path, slot,
      [](const StartSnapshot& s, const WaveParams& global, int gi0, int ni, const PaddedGeometry& geometry, int pi0,
         double* now, double* prev) { read_vtkhdf_state(s.file, s.slot, global, gi0, ni, geometry, pi0, now, prev); }};
  return RestartPoint{p, long(c.params.nsteps), c.complete, std::move(snapshot), notice, skipped};
}

}  // namespace awave
