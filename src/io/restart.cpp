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
  if (!c.arrays_have_params_shape())
    throw refuse(
        fmt::format("is corrupt: its u arrays are not of the shape {},{},{} in /wave_params", p.nx(), p.ny(), p.nz()));
  if (c.n_boundary_layers != kBoundaryLayers)
    throw refuse(fmt::format("has {} sponge layers; this awave uses {}", c.n_boundary_layers, kBoundaryLayers));
  if (c.spacing != std::array<double, 3>{p.dx, p.dx, p.dx}) throw refuse("is corrupt: Spacing is not dx");

  // What a restart starts from (io/output_layout.hpp): the checkpoints where the file keeps them
  // apart from its snapshots, else the snapshots, which then hold u and u_prev in double.
  const bool separate = c.checkpoints.has_value();
  if (!separate && !c.snapshots_restart())
    throw refuse("has no checkpoints, and its snapshots lack u_prev or double precision: it cannot be restarted");
  const char* kind = separate ? "checkpoint" : "snapshot";
  const std::vector<int64_t> steps =
      separate ? c.checkpoints->steps
               : std::vector<int64_t>(c.step_values.begin(), c.step_values.begin() + c.committed_snapshots());
  const int64_t n = int64_t(steps.size());
  if (n < 1)
    throw refuse(separate ? "holds no complete checkpoint (the run ended before its first; its snapshots are not "
                            "enough to restart from)"
                          : "holds no complete snapshot (the run ended before its first output)");
  // The newest restart point that verifies.
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
      if (steps[s] <= steps[s - 1]) throw refuse("is corrupt: its time values do not increase");
    notice = fmt::format("restart file '{}' was written before awave kept checksums: its snapshots cannot be verified",
                         path);
  } else {
    const SeriesReport& points = integrity.restart_points();
    const std::optional<int64_t> intact = points.newest_intact();
    if (!intact)
      throw refuse(fmt::format("holds no intact {} ({} {} at step {}: {})", kind, kind, n - 1, steps[n - 1],
                               *points.damage[std::size_t(n - 1)]));
    if (*intact != n - 1) {
      skipped = true;
      // (the newest entry's time may be the damage itself: then its step says nothing of what is lost)
      const int64_t lost = steps[n - 1] - steps[std::size_t(*intact)];
      const std::string loses = lost > 0 ? fmt::format("{} steps", lost)
                                         : fmt::format("{} later {}{} (the newest one's time is damaged)",
                                                       n - 1 - *intact, kind, n - 1 - *intact == 1 ? "" : "s");
      notice = fmt::format("restart file '{}': {} {} (step {}) is damaged ({}); continuing from {} {} (step {}), which "
                           "loses {}",
                           path, kind, n - 1, steps[n - 1], *points.damage[std::size_t(n - 1)], kind, *intact,
                           steps[std::size_t(*intact)], loses);
    }
    start = *intact;
    if (integrity.reader_damage) {  // the state to restart from verifies; what a reader takes does not
      skipped = true;
      notice += fmt::format("{}restart file '{}': {}: a reader would take it so; the restart does not read it",
                            notice.empty() ? "" : "; ", path, *integrity.reader_damage);
    }
    if (integrity.count_damage) {  // the entries every count agrees on are what it restarts from
      skipped = true;
      notice += fmt::format("{}restart file '{}': {}: continuing from the newest {} they all count", notice.empty() ? "" : "; ",
                            path, *integrity.count_damage, kind);
    }
  }
  int64_t slot = start;
  if (!separate) {
    slot = c.offsets.at("u")[std::size_t(start)];
    if (slot != c.offsets.at("u_prev")[std::size_t(start)] || slot < 0 || slot >= u_dims[0])
      throw refuse(fmt::format("is corrupt: snapshot {} points at slot {} of {}", start, slot, u_dims[0]));
  }
  const long time = long(steps[std::size_t(start)]);
  if (time < 0) throw refuse("is corrupt: a negative time counter");

  p.start_step = time;
  p.nsteps = 1;  // placeholder, to validate the rest; apply_restart sets it
  if (auto problem = validate(p)) throw refuse(fmt::format("has invalid parameters: {}", *problem));
  const std::string group = separate ? kCheckpointGroup : kSnapshotArrays;
  StartSnapshot snapshot{path, slot, kind,
                         [group](const StartSnapshot& s, const WaveParams& global, int gi0, int ni,
                                 const PaddedGeometry& geometry, int pi0, double* now, double* prev) {
                           read_vtkhdf_state(s.file, group, s.slot, global, gi0, ni, geometry, pi0, now, prev);
                         }};
  return RestartPoint{p, long(c.params.nsteps), c.complete, std::move(snapshot), notice, skipped};
}

}  // namespace awave
