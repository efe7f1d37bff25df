// Snapshots that prove their integrity. Every awave file carries, beside the VTKHDF arrays,
// /awave_integrity: a CRC-32 of every x-plane of every stored field (the interior values of
// plane i, rows j in order, each row's k values as stored in memory) and, per snapshot, a CRC-32
// of what locates it (its time counter, its slots, the run's parameters). Per x-plane, so that
// every process of an MPI run checksums the planes it owns, and any process count can verify
// them; CRC-32 (zlib) rather than HDF5's Fletcher32 filter, which needs chunks rewritten per
// snapshot and so breaks the preallocated, crash-safe layout (io/vtkhdf.hpp). A restart reads
// only snapshots whose every checksum verifies; `awave -verify FILE` checks a whole file.
#pragma once

#include "core/wave_params.hpp"
#include "core/wave_problem.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace awave {

// CRC-32 of padded plane pi of a padded field: rows j = 1..ny, each the nz interior values.
std::uint32_t plane_checksum(const double* padded, const PaddedGeometry& g, int pi);
// The same for padded planes [pi0, pi0 + n), on host threads.
std::vector<std::uint32_t> plane_checksums(const double* padded, const PaddedGeometry& g, int pi0, int n);

// The CRC-32 of what locates snapshot n: its time counter, its slots in u and u_prev, and the
// run's parameters as stored in /wave_params (shape, dx, dt, end step, out_period, layers).
std::uint32_t snapshot_record(int64_t time, int64_t slot_u, int64_t slot_u_prev, const WaveParams& params,
                              int boundary_layers);

// How a file stands, snapshot by snapshot.
struct IntegrityReport {
  bool has_checksums = false;                      // false: written before checksums (nothing can be verified)
  int64_t snapshots = 0;                           // what the Steps arrays agree on
  std::vector<std::optional<std::string>> damage;  // per snapshot: why it does not verify, or nothing
  std::optional<std::string> static_damage;        // sos / damp
  std::optional<int64_t> newest_intact() const;
};

// Checks the file's snapshots (all of them, or only the newest one that verifies, walking back
// from the last, with `newest_only`) and, unless newest_only, the static arrays. Reads one
// batch of x-planes at a time. Throws std::runtime_error where the file cannot be read at all.
IntegrityReport check_integrity(const std::string& path, bool newest_only);

}  // namespace awave
