#include "io/compare.hpp"

#include "io/vtkhdf.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <vector>

// How it reads (the design): verification has to read every value of both files once (a
// checksum proves nothing unread), so check_integrity runs first, one pass over each file. The
// stored per-x-plane checksums then decide: they cover one global x-plane each, whatever process
// wrote it, so equal checksums of verified files are equal bits (up to CRC-32 collisions, as
// for -verify) and nothing more is read. Only the x-planes whose checksums differ are read
// again, from both files, a block of planes at a time, for the first differing point and the
// count. A single pass that verified and compared at once would have to read the two files in
// step, which the reader's callbacks (read_vtkhdf_kslabs) cannot without threads, and parallel
// HDF5 is not thread-safe. The cost of that: on the build machine (300x300x200, float32) one
// differing plane takes 0.2 s a file, what a whole slot's pass takes; a slot differing in every
// plane takes 1.6 s a file (read_vtkhdf_planes' gather), against 0.2 s for one pass.

namespace awave {
namespace {

// Why the two files cannot be compared: raised anywhere below, answered once by compare_files.
struct Incomparable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const char* const kFieldNames[] = {"u", "u_prev"};

// One of a file's fields at one stored state, in both files: where it lives and its checksums.
struct FieldPair {
  std::string where;    // "snapshot at step 9", "checkpoint at step 18", "the static arrays"
  std::string field;    // u, u_prev, sos, damp
  std::string dataset;  // the same path in both files
  int64_t slot_a = 0, slot_b = 0;
  std::vector<std::uint32_t> sums_a, sums_b;  // the nx planes' checksums of their values alone (unbound)
  int value_bytes = 8;
  std::vector<int> differing_planes;  // where the checksums differ
};

struct File {
  std::string path;
  VtkHdfContents contents;
  VtkHdfChecksums sums;
  std::vector<int64_t> snapshot_steps;  // the committed snapshots'
};

File read_file_metadata(const std::string& path) {
  File f;
  f.path = path;
  std::optional<VtkHdfChecksums> sums;
  try {
    if (!std::filesystem::is_regular_file(path)) throw std::runtime_error("it does not exist or is not a file");
    f.contents = read_vtkhdf_contents(path);
    sums = read_vtkhdf_checksums(path);
  } catch (const std::exception& e) {
    throw Incomparable(fmt::format("{} cannot be read as an awave file: {}", path, e.what()));
  }
  if (!sums) throw Incomparable(path + " was written before awave kept checksums: it cannot be verified");
  f.sums = std::move(*sums);
  const int64_t n = f.contents.committed_snapshots();
  f.snapshot_steps.assign(f.contents.step_values.begin(), f.contents.step_values.begin() + n);
  return f;
}

// The grid and the parameters that decide the values: any difference makes the two
// incomparable. (out_period and the end step only decide which steps are stored: the steps
// both hold are compared.)
void require_same_parameters(const File& a, const File& b) {
  const WaveParams &pa = a.contents.params, &pb = b.contents.params;
  auto refuse = [&](const std::string& what, const std::string& in_a, const std::string& in_b) {
    throw Incomparable(fmt::format("their {} differ ({} in {}, {} in {})", what, in_a, a.path, in_b, b.path));
  };
  if (pa.shape != pb.shape)
    refuse("grids", fmt::format("{}x{}x{}", pa.nx(), pa.ny(), pa.nz()),
           fmt::format("{}x{}x{}", pb.nx(), pb.ny(), pb.nz()));
  if (pa.dx != pb.dx) refuse("dx", fmt::format("{}", pa.dx), fmt::format("{}", pb.dx));
  if (pa.dt != pb.dt) refuse("dt", fmt::format("{}", pa.dt), fmt::format("{}", pb.dt));
  if (a.contents.n_boundary_layers != b.contents.n_boundary_layers)
    refuse("sponge layers", std::to_string(a.contents.n_boundary_layers), std::to_string(b.contents.n_boundary_layers));
  const int bytes_a = a.contents.value_bytes.at("u"), bytes_b = b.contents.value_bytes.at("u");
  if (bytes_a != bytes_b)
    refuse("snapshot precisions", bytes_a == 4 ? "float32" : "float64", bytes_b == 4 ? "float32" : "float64");
  if (a.sums.snapshots.fields != b.sums.snapshots.fields)
    refuse("snapshot fields", a.sums.snapshots.fields == 2 ? "u and u_prev" : "u",
           b.sums.snapshots.fields == 2 ? "u and u_prev" : "u");
}

// Both files verified, each read once (io/integrity.hpp); the first damage makes them incomparable.
void require_intact(const File& f) {
  IntegrityReport report;
  try {
    report = check_integrity(f.path, false);
  } catch (const std::exception& e) {
    throw Incomparable(fmt::format("{} cannot be verified: {}", f.path, e.what()));
  }
  if (auto damage = first_damage(report)) throw Incomparable(f.path + ": " + *damage);
}

// "0, 9, 18", or "0, 9, ..., 180 (21 steps)" for a long list.
std::string steps_text(const std::vector<int64_t>& steps) {
  if (steps.size() <= 4) return fmt::format("{}", fmt::join(steps, ", "));
  return fmt::format("{}, {}, ..., {} ({} steps)", steps[0], steps[1], steps.back(), steps.size());
}

std::vector<int64_t> only_in(const std::vector<int64_t>& these, const std::vector<int64_t>& those) {
  std::vector<int64_t> only;
  for (int64_t s : these)
    if (std::find(those.begin(), those.end(), s) == those.end()) only.push_back(s);
  return only;
}

// What the two files hold in common, in the order a difference is reported: sos and damp, the
// snapshots by step (u, then u_prev), the checkpoints by step.
struct Common {
  std::vector<FieldPair> pairs;
  std::vector<int64_t> snapshot_steps, checkpoint_steps;
};

// The nx checksums at `sums` of the values alone: each plane's binding to what it is taken off (io/integrity.hpp),
// so that files of other schemes or slots compare by their values.
std::vector<std::uint32_t> unbound(const std::uint32_t* sums, const File& f, ChecksumSeries series, int field,
                                   int64_t slot, int value_bytes) {
  const WaveParams& p = f.contents.params;
  const std::size_t plane_bytes = std::size_t(p.ny()) * std::size_t(p.nz()) * std::size_t(value_bytes);
  std::vector<std::uint32_t> values(sums, sums + p.nx());
  for (int i = 0; i < p.nx(); ++i) values[std::size_t(i)] ^= plane_binding(f.sums.scheme, series, field, slot, i, plane_bytes);
  return values;
}

Common common_fields(const File& a, const File& b) {
  Common common;
  const int nx = a.contents.params.nx();
  for (int s = 0; s < 2; ++s) {
    const char* name = s == 0 ? "sos" : "damp";
    common.pairs.push_back({"the static arrays",
                            name,
                            std::string(kSnapshotArrays) + "/" + name,
                            0,
                            0,
                            unbound(&a.sums.static_planes[std::size_t(s) * nx], a, ChecksumSeries::statics, s, 0, 8),
                            unbound(&b.sums.static_planes[std::size_t(s) * nx], b, ChecksumSeries::statics, s, 0, 8),
                            8,
                            {}});
  }
  // One series (snapshots or checkpoints): entries at the same step, their slots from slot_of.
  auto add_series = [&](const char* kind, const char* group, ChecksumSeries series, const std::vector<int64_t>& steps_a,
                        const std::vector<int64_t>& steps_b, auto slot_a_of, auto slot_b_of,
                        const SeriesChecksums& sums_a, const SeriesChecksums& sums_b, int value_bytes,
                        std::vector<int64_t>& compared) {
    for (std::size_t n = 0; n < steps_a.size(); ++n) {
      const auto in_b = std::find(steps_b.begin(), steps_b.end(), steps_a[n]);
      if (in_b == steps_b.end()) continue;
      compared.push_back(steps_a[n]);
      const int64_t slot_a = slot_a_of(n), slot_b = slot_b_of(std::size_t(in_b - steps_b.begin()));
      for (int f = 0; f < sums_a.fields; ++f)
        common.pairs.push_back({fmt::format("{} at step {}", kind, steps_a[n]),
                                kFieldNames[f],
                                std::string(group) + "/" + kFieldNames[f],
                                slot_a,
                                slot_b,
                                unbound(&sums_a.planes[std::size_t((slot_a * sums_a.fields + f) * nx)], a, series,
                                        f, slot_a, value_bytes),
                                unbound(&sums_b.planes[std::size_t((slot_b * sums_b.fields + f) * nx)], b, series,
                                        f, slot_b, value_bytes),
                                value_bytes,
                                {}});
    }
  };
  add_series(
      "snapshot", kSnapshotArrays, ChecksumSeries::snapshots, a.snapshot_steps, b.snapshot_steps,
      [&](std::size_t n) { return a.contents.offsets.at("u")[n]; },
      [&](std::size_t n) { return b.contents.offsets.at("u")[n]; }, a.sums.snapshots, b.sums.snapshots,
      a.contents.value_bytes.at("u"), common.snapshot_steps);
  if (a.contents.checkpoints && b.contents.checkpoints) {   // both or neither: the same precision and fields
    auto index = [](std::size_t n) { return int64_t(n); };  // checkpoint n is in slot n
    add_series("checkpoint", kCheckpointGroup, ChecksumSeries::checkpoints, a.contents.checkpoints->steps,
               b.contents.checkpoints->steps, index,
               index, *a.sums.checkpoints, *b.sums.checkpoints, 8, common.checkpoint_steps);
  }
  return common;
}

struct Difference {
  const FieldPair* pair = nullptr;
  int i = 0, j = 0, k = 0;
  double a = 0, b = 0;
};

// Reads the x-planes whose checksums differ, from both files, a block of planes (about 64 MiB of
// each file) at a time, and compares them value by value, bitwise. Sets `first` at the first
// differing point (in the pairs' order, then i, j, k) and returns how many points differ.
int64_t count_differences(const File& a, const File& b, const std::vector<FieldPair>& pairs,
                          std::optional<Difference>& first) {
  const WaveParams& p = a.contents.params;
  const std::size_t plane = std::size_t(p.ny()) * std::size_t(p.nz());
  const int block = int(std::clamp<std::size_t>((std::size_t(64) << 20) / (plane * sizeof(double)), 1, p.nx()));
  int64_t count = 0;
  for (const FieldPair& pair : pairs) {
    const std::vector<int>& planes = pair.differing_planes;
    for (std::size_t d = 0; d < planes.size();) {
      const int gi0 = planes[d], ni = std::min(block, p.nx() - gi0);
      const std::vector<double> in_a = read_vtkhdf_planes(a.path, pair.dataset, pair.slot_a, gi0, ni);
      const std::vector<double> in_b = read_vtkhdf_planes(b.path, pair.dataset, pair.slot_b, gi0, ni);
      for (; d < planes.size() && planes[d] < gi0 + ni; ++d) {
        const std::size_t at = std::size_t(planes[d] - gi0) * plane;
        for (std::size_t n = at; n < at + plane; ++n) {
          if (std::memcmp(&in_a[n], &in_b[n], sizeof(double)) == 0) continue;
          if (!first)
            first =
                Difference{&pair,   planes[d], int((n - at) / std::size_t(p.nz())), int((n - at) % std::size_t(p.nz())),
                           in_a[n], in_b[n]};
          ++count;
        }
      }
    }
  }
  return count;
}

// A value as the file stores it (float32 values were widened exactly).
std::string stored_value(double v, int value_bytes) {
  return value_bytes == 4 ? fmt::format("{}", float(v)) : fmt::format("{}", v);
}

Comparison compare(const std::string& path_a, const std::string& path_b) {
  const File a = read_file_metadata(path_a), b = read_file_metadata(path_b);
  require_same_parameters(a, b);
  // Verified before their checksum arrays are indexed: check_integrity holds those arrays to the
  // file's shape (a damaged planes array of three fields read past kFieldNames' two).
  require_intact(a);
  require_intact(b);
  Common common = common_fields(a, b);
  if (common.snapshot_steps.empty())
    throw Incomparable(fmt::format("they hold no snapshot of the same step ({}: {}; {}: {})", a.path,
                                   steps_text(a.snapshot_steps), b.path, steps_text(b.snapshot_steps)));

  std::size_t differing_planes = 0;
  for (FieldPair& pair : common.pairs) {
    for (int i = 0; i < a.contents.params.nx(); ++i)
      if (pair.sums_a[i] != pair.sums_b[i]) pair.differing_planes.push_back(i);
    differing_planes += pair.differing_planes.size();
  }

  const WaveParams& p = a.contents.params;
  const int fields = a.sums.snapshots.fields;
  std::string compared = fmt::format("{} snapshot{} ({} at step{} {}), ", common.snapshot_steps.size(),
                                     common.snapshot_steps.size() == 1 ? "" : "s", fields == 2 ? "u and u_prev" : "u",
                                     common.snapshot_steps.size() == 1 ? "" : "s", steps_text(common.snapshot_steps));
  if (!common.checkpoint_steps.empty())
    compared += fmt::format("{} checkpoint{} (step{} {}), ", common.checkpoint_steps.size(),
                            common.checkpoint_steps.size() == 1 ? "" : "s",
                            common.checkpoint_steps.size() == 1 ? "" : "s", steps_text(common.checkpoint_steps));
  compared += fmt::format("sos and damp; {} fields of {} points ({}x{}x{})", common.pairs.size(), p.interior_points(),
                          p.nx(), p.ny(), p.nz());
  // A file that holds steps the other does not: said, as it is not compared.
  for (const auto& [mine, other] : {std::pair{&a, &b}, std::pair{&b, &a}})
    if (const auto only = only_in(mine->snapshot_steps, other->snapshot_steps); !only.empty())
      compared += fmt::format("; only {} holds a snapshot at step{} {}", mine->path, only.size() == 1 ? "" : "s",
                              steps_text(only));

  Comparison result;
  if (differing_planes == 0) {
    result.outcome = Comparison::Outcome::identical;
    result.line = fmt::format("{} and {} are identical: {}; both verified, every x-plane checksum equal", a.path,
                              b.path, compared);
    return result;
  }
  std::optional<Difference> first;
  const int64_t count = count_differences(a, b, common.pairs, first);
  result.outcome = Comparison::Outcome::differ;
  if (!first) {  // bytes that differ yet read back equal: float32 NaNs whose payloads differ
    const auto pair = std::find_if(common.pairs.begin(), common.pairs.end(),
                                   [](const FieldPair& f) { return !f.differing_planes.empty(); });
    result.line = fmt::format(
        "{} and {} DIFFER: {} {} x-plane {}: its stored bytes differ, yet its values read back "
        "equal (NaNs of different payloads); compared: {}",
        a.path, b.path, pair->where, pair->field, pair->differing_planes[0], compared);
    return result;
  }
  const FieldPair& pair = *first->pair;
  result.line = fmt::format(
      "{} and {} DIFFER: first in {}, {} at point (i,j,k) = ({},{},{}): {} in {}, {} in {}; {} point{} differ{} in "
      "all; compared: {}",
      a.path, b.path, pair.where, pair.field, first->i, first->j, first->k, stored_value(first->a, pair.value_bytes),
      a.path, stored_value(first->b, pair.value_bytes), b.path, count, count == 1 ? "" : "s", count == 1 ? "s" : "",
      compared);
  return result;
}

}  // namespace

Comparison compare_files(const std::string& path_a, const std::string& path_b) {
  const auto one_line = [](const std::exception& e) {
    std::string why = e.what();
    std::replace(why.begin(), why.end(), '\n', ' ');
    return why;
  };
  Comparison result;
  try {
    return compare(path_a, path_b);
  } catch (const Incomparable& e) {  // a file not awave's, damaged or unverifiable, or two that differ in kind
    result.line = fmt::format("{} and {} cannot be compared: {}", path_a, path_b, one_line(e));
  } catch (const std::exception& e) {  // a read or an allocation that failed: a run-time failure
    result.outcome = Comparison::Outcome::failed;
    result.line = fmt::format("comparing {} and {} failed: {}", path_a, path_b, one_line(e));
  }
  return result;
}

std::optional<std::string> first_damage(const IntegrityReport& r) {
  for (const auto& [series, kind] :
       {std::pair{&r.snapshots, "snapshot"}, std::pair{r.checkpoints ? &*r.checkpoints : nullptr, "checkpoint"}}) {
    if (!series) continue;
    for (std::size_t n = 0; n < series->damage.size(); ++n)
      if (series->damage[n])
        return fmt::format("{} {} of {} is DAMAGED: {} (step {})", kind, n, series->count, *series->damage[n],
                           series->steps[n]);
  }
  if (r.count_damage) return "DAMAGED: " + *r.count_damage;
  if (r.reader_damage) return "DAMAGED: " + *r.reader_damage;
  if (r.static_damage) return "DAMAGED: " + *r.static_damage;
  return std::nullopt;
}

}  // namespace awave
