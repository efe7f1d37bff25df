#include "io/integrity.hpp"

#include "io/vtkhdf.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace awave {

template <class Stored, class Field>
std::uint32_t plane_checksum(const Field* padded, const PaddedGeometry& g, int pi) {
  uLong crc = crc32(0L, Z_NULL, 0);
  std::vector<Stored> row;  // a row converted to the stored type, where it differs
  if constexpr (!std::is_same_v<Stored, Field>) row.resize(std::size_t(g.nz));
  for (int j = 1; j <= g.ny; ++j) {
    const Field* values = padded + g.index(pi, j, 1);
    const Stored* stored;
    if constexpr (std::is_same_v<Stored, Field>) {
      stored = values;
    } else {
      for (int k = 0; k < g.nz; ++k) row[std::size_t(k)] = Stored(values[k]);
      stored = row.data();
    }
    crc = crc32(crc, reinterpret_cast<const Bytef*>(stored), uInt(g.nz * sizeof(Stored)));
  }
  return std::uint32_t(crc);
}

template <class Stored, class Field>
std::vector<std::uint32_t> plane_checksums(const Field* padded, const PaddedGeometry& g, int pi0, int n) {
  std::vector<std::uint32_t> sums(std::size_t(std::max(n, 0)));
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) sums[std::size_t(i)] = plane_checksum<Stored>(padded, g, pi0 + i);
  return sums;
}

template std::uint32_t plane_checksum<double>(const double*, const PaddedGeometry&, int);
template std::uint32_t plane_checksum<float>(const float*, const PaddedGeometry&, int);
template std::uint32_t plane_checksum<float>(const double*, const PaddedGeometry&, int);
template std::vector<std::uint32_t> plane_checksums<double>(const double*, const PaddedGeometry&, int, int);
template std::vector<std::uint32_t> plane_checksums<float>(const float*, const PaddedGeometry&, int, int);
template std::vector<std::uint32_t> plane_checksums<float>(const double*, const PaddedGeometry&, int, int);

namespace {
// A field's digest from its interior planes' checksums, in plane order.
std::uint32_t digest_of_planes(const std::vector<std::uint32_t>& sums) {
  return std::uint32_t(crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(sums.data()),
                             uInt(sums.size() * sizeof(std::uint32_t))));
}
}  // namespace

std::uint32_t field_digest(const double* padded, const PaddedGeometry& g) {
  return digest_of_planes(plane_checksums<double>(padded, g, 1, g.nx));
}

std::uint32_t field_digest(WaveImpl& impl, const PaddedGeometry& g, std::size_t slab_bytes) {
  const int slab = int(std::clamp<std::size_t>(slab_bytes / (g.stride_i() * sizeof(double)), 1, std::size_t(g.nx)));
  const WaveImpl::HostBuffer buffer = impl.host_buffer(std::size_t(slab) * g.stride_i());
  std::vector<std::uint32_t> sums;
  sums.reserve(std::size_t(g.nx));
  for (int pi = 1; pi <= g.nx; pi += slab) {
    const int n = std::min(slab, g.nx + 1 - pi);
    const std::size_t values = std::size_t(n) * g.stride_i();
    impl.copy_planes_to_host(TimeLevel::now, pi, n, buffer.data.get());
    if (first_non_finite_value(buffer.data.get(), values) != values) return field_digest(impl.now_on_host().data(), g);
    // The slab's planes as planes 0 .. n-1 of the geometry (plane_checksum indexes by the strides).
    const std::vector<std::uint32_t> slab_sums = plane_checksums<double>(buffer.data.get(), g, 0, n);
    sums.insert(sums.end(), slab_sums.begin(), slab_sums.end());
  }
  return digest_of_planes(sums);
}

std::uint32_t plane_binding(int scheme, ChecksumSeries series, int field, int64_t slot, int plane,
                            std::size_t plane_bytes) {
  if (scheme < 2) return 0;
  const int64_t what[] = {scheme, int64_t(series), field, slot, plane};
  const uLong head = crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(what), sizeof what);
  return std::uint32_t(crc32_combine(head, 0, z_off_t(plane_bytes)));
}

std::uint32_t snapshot_record(int scheme, ChecksumSeries series, int64_t entry, int64_t time, int64_t slot_u,
                              int64_t slot_u_prev, const WaveParams& p, int boundary_layers) {
  // Fixed-size fields in a fixed order; the values as the file stores them.
  const int64_t ints[] = {time,         slot_u,         slot_u_prev, p.nx(), p.ny(), p.nz(), int64_t(p.end_step()),
                          p.out_period, boundary_layers};
  const double reals[] = {p.dx, p.dt};
  uLong crc = crc32(0L, Z_NULL, 0);
  if (scheme >= 2) {
    const int64_t what[] = {scheme, int64_t(series), entry};
    crc = crc32(crc, reinterpret_cast<const Bytef*>(what), sizeof what);
  }
  crc = crc32(crc, reinterpret_cast<const Bytef*>(ints), sizeof ints);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(reals), sizeof reals);
  return std::uint32_t(crc);
}

std::uint32_t committed_record(int64_t snapshots, int64_t checkpoints, int complete, int checkpoint_period) {
  const int64_t what[] = {kChecksumScheme, snapshots, checkpoints, complete, checkpoint_period};
  return std::uint32_t(crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(what), sizeof what));
}

std::optional<int64_t> SeriesReport::newest_intact() const {
  for (int64_t n = int64_t(damage.size()) - 1; n >= 0; --n)
    if (!damage[std::size_t(n)]) return n;
  return std::nullopt;
}

namespace {

// Continues each row (i, j)'s CRC over the k values of a slab as stored ([nk][ny][nx], x fastest).
// A row's k values lie a plane apart, so a thread takes the rows of one cache line of i at a time and
// reads each line once, where a row at a time re-read every line for each of its i (the CRC's
// transpose then set -verify's time on a 64-core host: results/h100x4-2026-11-27).
template <class Stored>
void continue_row_crcs(const Stored* values, int nx, int ny, int nk, std::vector<uLong>& rows) {
  constexpr int kLine = 64 / int(sizeof(Stored));  // the i values of a cache line
  const std::size_t plane = std::size_t(nx) * std::size_t(ny);
  const int lines = (nx + kLine - 1) / kLine;
  // Threads only for a slab worth them: a team per slot of a tiny grid spent 64% of -verify of 8,001 snapshots of
  // 8x8x1 waiting in libgomp (perf), 2.1 s in all.
  const bool threads = plane * std::size_t(nk) >= (std::size_t(1) << 16);
#pragma omp parallel if (threads)
  {
    std::vector<Stored> block(std::size_t(kLine) * std::size_t(nk));  // [i - i0][k]
#pragma omp for schedule(static)
    for (int b = 0; b < lines; ++b) {
      const int i0 = b * kLine, ni = std::min(kLine, nx - i0);
      for (int j = 0; j < ny; ++j) {
        for (int k = 0; k < nk; ++k) {
          const Stored* line = values + std::size_t(k) * plane + std::size_t(j) * nx + i0;
          for (int ii = 0; ii < ni; ++ii) block[std::size_t(ii) * nk + k] = line[ii];
        }
        for (int ii = 0; ii < ni; ++ii) {
          uLong& crc = rows[std::size_t(i0 + ii) * ny + j];
          crc = crc32(crc, reinterpret_cast<const Bytef*>(&block[std::size_t(ii) * nk]), uInt(nk * sizeof(Stored)));
        }
      }
    }
  }
}

// The first x-plane of time-series dataset `dataset` at slot t whose checksum differs from
// sums[0..nx), or nothing. Values are checksummed in the type the file stores (value_bytes). The
// slot is read once, whole k-planes at a time (contiguous in the file): each row (i, j) of an
// x-plane is checksummed as its k values arrive (CRC-32 continues across reads), and the rows of
// a plane are joined with crc32_combine. (Batches of x-planes read a few values of every row of
// every chunk: 134 s to verify a 512^3 file on the build machine.)
std::optional<int> first_bad_plane(VtkHdfSlabReader& file, const std::string& dataset, int64_t t, int value_bytes,
                                   const std::uint32_t* sums, int scheme, ChecksumSeries series, int field) {
  int nx = 0, ny = 0, nz = 0;
  std::vector<uLong> rows;  // [i][j]: the CRC of row (i, j) so far
  file.read_kslabs(dataset, t, nx, ny, nz, [&](const KSlab& slab) {
    if (slab.value_bytes != value_bytes)
      throw std::runtime_error(
          fmt::format("stored in {}-byte values, checksummed in {}", slab.value_bytes, value_bytes));
    if (rows.empty()) rows.assign(std::size_t(nx) * std::size_t(ny), crc32(0L, Z_NULL, 0));
    if (value_bytes == 4)
      continue_row_crcs(static_cast<const float*>(slab.values), nx, ny, slab.nk, rows);
    else
      continue_row_crcs(static_cast<const double*>(slab.values), nx, ny, slab.nk, rows);
  });
  const uLong join = crc32_combine_gen(z_off_t(nz) * value_bytes);  // appends one whole row
  for (int i = 0; i < nx; ++i) {
    uLong crc = rows[std::size_t(i) * ny];
    for (int j = 1; j < ny; ++j) crc = crc32_combine_op(crc, rows[std::size_t(i) * ny + j], join);
    const std::size_t plane_bytes = std::size_t(ny) * std::size_t(nz) * std::size_t(value_bytes);
    if ((std::uint32_t(crc) ^ plane_binding(scheme, series, field, t, i, plane_bytes)) != sums[i]) return i;
  }
  return std::nullopt;
}

// One time series: every entry (or, with newest_only, back to the newest that verifies). Entry n
// holds `steps[n]` in slot slots[n] of the datasets group/u (and group/u_prev where stored).
// prev_slots: u_prev's slot of each entry, where the file says it apart from u's (PointDataOffsets).
// fields: how many arrays the series holds (u, u_prev: 2), which its checksums must cover.
SeriesReport check_series(const std::string& path, const std::string& group, ChecksumSeries series,
                          const std::vector<int64_t>& steps, const std::vector<int64_t>& slots,
                          const std::vector<int64_t>& prev_slots, int64_t slot_count, int fields, int value_bytes,
                          const SeriesChecksums& sums, int scheme, const VtkHdfContents& c, bool newest_only) {
  SeriesReport r;
  r.count = int64_t(steps.size());
  r.steps = steps;
  r.damage.assign(steps.size(), std::nullopt);
  const WaveParams& p = c.params;
  const int64_t nx = p.nx();
  if (sums.fields != fields || int64_t(sums.planes.size()) != slot_count * fields * nx ||
      int64_t(sums.records.size()) != slot_count)
    throw std::runtime_error(fmt::format("the checksum arrays of {} do not match its shape (damaged)", group));
  // Whether each entry's record (its time, slot and the parameters) matches its checksum: read no values.
  // nearest_match[e]: the latest entry before e whose record matches (-1: none).
  std::vector<char> record_ok(steps.size());
  std::vector<int64_t> nearest_match(steps.size(), -1);
  for (int64_t e = 0, last = -1; e < r.count; ++e) {
    const int64_t slot = slots[std::size_t(e)], slot_prev = fields == 2 ? slot : -1;
    record_ok[std::size_t(e)] = (prev_slots.empty() || prev_slots[std::size_t(e)] == slot_prev) && slot >= 0 &&
                                slot < slot_count &&
                                sums.records[std::size_t(slot)] ==
                                    snapshot_record(scheme, series, e, steps[std::size_t(e)], slot, slot_prev, p,
                                                    c.n_boundary_layers);
    nearest_match[std::size_t(e)] = last;
    if (record_ok[std::size_t(e)]) last = e;
  }
  VtkHdfSlabReader file(path);
  for (int64_t s = r.count - 1; s >= 0; --s) {
    auto& why = r.damage[std::size_t(s)];
    const int64_t slot = slots[std::size_t(s)], time = steps[std::size_t(s)];
    // Each record verifies alone; one whose time does not follow the nearest earlier record that
    // matches is damaged all the same (zeroed Steps arrays make every entry slot 0 at time 0, whose
    // record matches). An earlier record that does not match is no measure: its time is damaged.
    const int64_t before = nearest_match[std::size_t(s)];
    if (before >= 0 && time <= steps[std::size_t(before)]) {
      why = fmt::format("its time counter {} does not follow the one before ({})", time, steps[std::size_t(before)]);
    } else if (!record_ok[std::size_t(s)]) {
      why = fmt::format("its record (time {}, slot {}, parameters) does not match its checksum", time, slot);
    } else {
      for (int a = 0; a < fields && !why; ++a) {
        const char* name = a == 0 ? "u" : "u_prev";
        try {
          if (auto bad = first_bad_plane(file, group + "/" + name, slot, value_bytes,
                                         &sums.planes[std::size_t((slot * fields + a) * nx)], scheme, series, a))
            why = fmt::format("{} x-plane {} does not match its checksum", name, *bad);
        } catch (const std::exception& e) {
          why = fmt::format("{} cannot be read ({})", name, e.what());
        }
      }
    }
    if (newest_only && !why) break;  // the older ones are not needed
  }
  return r;
}

// Scheme 2: NSteps, every Steps array's length and the checkpoints' steps against the checksummed counts; what
// disagrees, or nothing. (A reader such as ParaView takes NSteps: a count that shrank loses snapshots unsaid.)
std::optional<std::string> count_damage(const VtkHdfContents& c, const VtkHdfChecksums& sums) {
  if (!sums.committed) return "its checksummed count (/awave_integrity committed) is missing";
  const auto& [snapshots, checkpoints, crc] = *sums.committed;
  const int period = c.checkpoints ? c.checkpoints->period : 0;
  auto matches = [&](bool complete) {
    return crc >= 0 && crc <= 0xffffffffLL &&
           std::uint32_t(crc) == committed_record(snapshots, checkpoints, complete ? 1 : 0, period);
  };
  if (!matches(c.complete)) {
    if (matches(!c.complete))
      return fmt::format("/wave_params complete reads {}, where its checksummed record says {}", c.complete ? 1 : 0,
                         c.complete ? 0 : 1);
    return "its checksummed record (/awave_integrity committed: counts, complete, checkpoint period) does not match "
           "its checksum";
  }
  std::vector<std::string> off;
  if (c.nsteps != snapshots) off.push_back(fmt::format("NSteps {}", c.nsteps));
  if (int64_t(c.step_values.size()) != snapshots) off.push_back(fmt::format("Steps/Values {}", c.step_values.size()));
  for (const auto& [name, array] : c.offsets)
    if (int64_t(array.size()) != snapshots)
      off.push_back(fmt::format("PointDataOffsets/{} {}", name, array.size()));
  const int64_t kept = c.checkpoints ? int64_t(c.checkpoints->steps.size()) : 0;
  if (kept != checkpoints) off.push_back(fmt::format("{} checkpoints", kept));
  if (off.empty()) return std::nullopt;
  return fmt::format("its counts disagree with the checksummed ones ({} snapshots, {} checkpoints): {}", snapshots,
                     checkpoints, fmt::join(off, ", "));
}

// What the grid and the parameters imply for VTKHDF's attributes and the static arrays' offsets, which a reader uses
// and no checksum covers; the first that differs, or nothing.
std::optional<std::string> reader_damage(const VtkHdfContents& c) {
  const WaveParams& p = c.params;
  if (c.version != std::array<int64_t, 2>{2, 3})
    return fmt::format("VTKHDF Version reads {}.{}, not the 2.3 awave writes", c.version[0], c.version[1]);
  if (c.type != "ImageData") return fmt::format("VTKHDF Type reads '{}', not ImageData", c.type);
  if (c.origin != std::array<double, 3>{0, 0, 0})
    return fmt::format("VTKHDF Origin reads {}, {}, {}, not 0, 0, 0", c.origin[0], c.origin[1], c.origin[2]);
  if (c.spacing != std::array<double, 3>{p.dx, p.dx, p.dx})
    return fmt::format("VTKHDF Spacing reads {}, {}, {}, not dx {}", c.spacing[0], c.spacing[1], c.spacing[2], p.dx);
  if (c.direction != std::array<double, 9>{1, 0, 0, 0, 1, 0, 0, 0, 1}) return "VTKHDF Direction is not the identity";
  if (c.whole_extent != std::array<int64_t, 6>{0, p.nx() - 1, 0, p.ny() - 1, 0, p.nz() - 1})
    return "VTKHDF WholeExtent is not the grid's in /wave_params";
  const int64_t n = c.committed_snapshots();
  for (const char* name : {"sos", "damp"}) {
    const auto& offsets = c.offsets.at(name);
    for (int64_t e = 0; e < n; ++e)
      if (offsets[std::size_t(e)] != 0)
        return fmt::format("PointDataOffsets/{} of snapshot {} reads {}, not its one slot 0", name, e,
                           offsets[std::size_t(e)]);
  }
  return std::nullopt;
}

}  // namespace

IntegrityReport check_integrity(const std::string& path, bool newest_only) {
  IntegrityReport r;
  const VtkHdfContents c = read_vtkhdf_contents(path);
  // The checksums are indexed by /wave_params' shape, and the arrays read by theirs.
  if (!c.arrays_have_params_shape()) throw std::runtime_error("its arrays are not of the shape in /wave_params");
  const int64_t n = c.committed_snapshots();
  const std::vector<int64_t> values(c.step_values.begin(), c.step_values.begin() + n);
  const std::vector<int64_t> slots(c.offsets.at("u").begin(), c.offsets.at("u").begin() + n);
  r.snapshots.count = n;
  r.snapshots.steps = values;
  r.snapshots.damage.assign(std::size_t(n), std::nullopt);
  if (c.checkpoints) {
    r.checkpoints.emplace();
    r.checkpoints->count = int64_t(c.checkpoints->steps.size());
    r.checkpoints->steps = c.checkpoints->steps;
    r.checkpoints->damage.assign(c.checkpoints->steps.size(), std::nullopt);
  }
  const std::optional<VtkHdfChecksums> sums = read_vtkhdf_checksums(path);
  if (!sums) return r;
  r.has_checksums = true;
  r.scheme = sums->scheme;
  if (r.scheme != 1 && r.scheme != kChecksumScheme)
    throw std::runtime_error(fmt::format("its checksum scheme {} is not one this awave knows (1, {})", r.scheme,
                                         kChecksumScheme));
  if (r.scheme >= 2) r.count_damage = count_damage(c, *sums);
  r.reader_damage = reader_damage(c);
  if (r.scheme >= 2 && !r.reader_damage) {  // the descriptions too: a reader may show them
    if (sums->scheme_text != integrity_scheme_text(c.value_bytes.at("u") == 4))
      r.reader_damage = "/awave_integrity scheme is not the description awave writes";
    else if (c.checkpoints && sums->checkpoint_scheme_text != checkpoint_scheme_text())
      r.reader_damage = "/awave_checkpoints scheme is not the description awave writes";
  }
  const WaveParams& p = c.params;
  if (int64_t(sums->static_planes.size()) != 2 * p.nx())
    throw std::runtime_error("its checksum arrays do not match its shape (damaged)");
  std::vector<int64_t> prev_slots;
  if (c.offsets.count("u_prev")) prev_slots.assign(c.offsets.at("u_prev").begin(), c.offsets.at("u_prev").begin() + n);
  if (!newest_only || !c.checkpoints)
    r.snapshots = check_series(path, kSnapshotArrays, ChecksumSeries::snapshots, values, slots, prev_slots,
                               c.dims.at("u")[0], c.dims.count("u_prev") ? 2 : 1, c.value_bytes.at("u"),
                               sums->snapshots, r.scheme, c, newest_only);
  if (c.checkpoints) {
    if (!sums->checkpoints) throw std::runtime_error("its checkpoints have no checksums (damaged)");
    std::vector<int64_t> cslots(c.checkpoints->steps.size());
    for (std::size_t s = 0; s < cslots.size(); ++s) cslots[s] = int64_t(s);
    r.checkpoints = check_series(path, kCheckpointGroup, ChecksumSeries::checkpoints, c.checkpoints->steps, cslots, {},
                                 c.checkpoints->slots, 2, 8, *sums->checkpoints, r.scheme, c, newest_only);
  }
  if (!newest_only) {
    VtkHdfSlabReader statics(path);
    for (int a = 0; a < 2 && !r.static_damage; ++a) {
      const char* name = a == 0 ? "sos" : "damp";
      try {
        if (auto bad = first_bad_plane(statics, std::string(kSnapshotArrays) + "/" + name, 0, 8,
                                       &sums->static_planes[std::size_t(a * p.nx())], r.scheme,
                                       ChecksumSeries::statics, a))
          r.static_damage = fmt::format("{} x-plane {} does not match its checksum", name, *bad);
      } catch (const std::exception& e) {
        r.static_damage = fmt::format("{} cannot be read ({})", name, e.what());
      }
    }
  }
  return r;
}

}  // namespace awave
