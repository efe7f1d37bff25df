#include "io/integrity.hpp"

#include "io/vtkhdf.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>

namespace awave {

std::uint32_t plane_checksum(const double* padded, const PaddedGeometry& g, int pi) {
  uLong crc = crc32(0L, Z_NULL, 0);
  for (int j = 1; j <= g.ny; ++j)
    crc = crc32(crc, reinterpret_cast<const Bytef*>(padded + g.index(pi, j, 1)), uInt(g.nz * sizeof(double)));
  return std::uint32_t(crc);
}

std::vector<std::uint32_t> plane_checksums(const double* padded, const PaddedGeometry& g, int pi0, int n) {
  std::vector<std::uint32_t> sums(std::size_t(std::max(n, 0)));
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) sums[std::size_t(i)] = plane_checksum(padded, g, pi0 + i);
  return sums;
}

std::uint32_t snapshot_record(int64_t time, int64_t slot_u, int64_t slot_u_prev, const WaveParams& p,
                              int boundary_layers) {
  // Fixed-size fields in a fixed order; the values as the file stores them.
  const int64_t ints[] = {time,         slot_u,         slot_u_prev, p.nx(), p.ny(), p.nz(), int64_t(p.end_step()),
                          p.out_period, boundary_layers};
  const double reals[] = {p.dx, p.dt};
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(ints), sizeof ints);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(reals), sizeof reals);
  return std::uint32_t(crc);
}

std::optional<int64_t> IntegrityReport::newest_intact() const {
  for (int64_t n = int64_t(damage.size()) - 1; n >= 0; --n)
    if (!damage[std::size_t(n)]) return n;
  return std::nullopt;
}

namespace {

// Planes per read: about 64 MiB of values.
int batch_planes(const WaveParams& p) {
  const std::size_t plane = std::size_t(p.ny()) * std::size_t(p.nz()) * sizeof(double);
  return int(std::max<std::size_t>(1, std::min<std::size_t>(std::size_t(p.nx()), (std::size_t(64) << 20) / plane)));
}

// The first x-plane of array `name` at slot t whose checksum differs from sums[0..nx), or nothing.
std::optional<int> first_bad_plane(const std::string& path, const std::string& name, int64_t t, const WaveParams& p,
                                   const std::uint32_t* sums) {
  const int batch = batch_planes(p);
  const PaddedGeometry g{batch, p.ny(), p.nz()};  // planes as [i][j][k] rows: read back unpadded
  for (int i0 = 0; i0 < p.nx(); i0 += batch) {
    const int ni = std::min(batch, p.nx() - i0);
    const std::vector<double> planes = read_vtkhdf_planes(path, name, t, i0, ni);
    for (int i = 0; i < ni; ++i) {
      // An unpadded plane is rows of nz values: checksum it as the writer did its padded rows.
      uLong crc = crc32(0L, Z_NULL, 0);
      crc = crc32(crc, reinterpret_cast<const Bytef*>(planes.data() + std::size_t(i) * g.ny * g.nz),
                  uInt(std::size_t(g.ny) * g.nz * sizeof(double)));
      if (std::uint32_t(crc) != sums[i0 + i]) return i0 + i;
    }
  }
  return std::nullopt;
}

}  // namespace

IntegrityReport check_integrity(const std::string& path, bool newest_only) {
  IntegrityReport r;
  const VtkHdfContents c = read_vtkhdf_contents(path);
  r.snapshots = c.committed_snapshots();
  r.damage.assign(std::size_t(r.snapshots), std::nullopt);
  const std::optional<VtkHdfChecksums> sums = read_vtkhdf_checksums(path);
  if (!sums) return r;
  r.has_checksums = true;
  const WaveParams& p = c.params;
  const int64_t nx = p.nx(), slots = c.dims.at("u")[0];
  if (int64_t(sums->planes.size()) != slots * 2 * nx || int64_t(sums->records.size()) != slots ||
      int64_t(sums->static_planes.size()) != 2 * nx)
    throw std::runtime_error("its checksum arrays do not match its shape (damaged)");
  for (int64_t s = r.snapshots - 1; s >= 0; --s) {
    auto& why = r.damage[std::size_t(s)];
    const int64_t slot_u = c.offsets.at("u")[std::size_t(s)], slot_prev = c.offsets.at("u_prev")[std::size_t(s)];
    const int64_t time = c.step_values[std::size_t(s)];
    if (slot_u < 0 || slot_u >= slots || slot_prev != slot_u ||
        sums->records[std::size_t(s)] != snapshot_record(time, slot_u, slot_prev, p, c.n_boundary_layers)) {
      why = fmt::format("its record (time {}, slot {}, parameters) does not match its checksum", time, slot_u);
    } else {
      for (int a = 0; a < 2 && !why; ++a) {
        const char* name = a == 0 ? "u" : "u_prev";
        try {
          if (auto bad = first_bad_plane(path, name, slot_u, p, &sums->planes[std::size_t((slot_u * 2 + a) * nx)]))
            why = fmt::format("{} x-plane {} does not match its checksum", name, *bad);
        } catch (const std::exception& e) {
          why = fmt::format("{} cannot be read ({})", name, e.what());
        }
      }
    }
    if (newest_only && !why) break;  // the older ones are not needed
  }
  if (!newest_only) {
    for (int a = 0; a < 2 && !r.static_damage; ++a) {
      const char* name = a == 0 ? "sos" : "damp";
      try {
        if (auto bad = first_bad_plane(path, name, 0, p, &sums->static_planes[std::size_t(a * nx)]))
          r.static_damage = fmt::format("{} x-plane {} does not match its checksum", name, *bad);
      } catch (const std::exception& e) {
        r.static_damage = fmt::format("{} cannot be read ({})", name, e.what());
      }
    }
  }
  return r;
}

}  // namespace awave
