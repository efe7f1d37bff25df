// Snapshots and checkpoints that prove their integrity. Every awave file carries, beside the
// VTKHDF arrays, /awave_integrity: a CRC-32 of every x-plane of every stored field (the interior
// values of plane i, rows j in order, each row's k values in the type the file stores: float64,
// or float32 for single-precision snapshots) and, per snapshot, a CRC-32 of what locates it (its
// time counter, its slots, the run's parameters); separate checkpoints carry the same in
// /awave_checkpoints. Per x-plane, so that
// every process of an MPI run checksums the planes it owns, and any process count can verify
// them; CRC-32 (zlib) rather than HDF5's Fletcher32 filter, which needs chunks rewritten per
// snapshot and so breaks the preallocated, crash-safe layout (io/vtkhdf.hpp). A restart reads
// only snapshots whose every checksum verifies; `awave -verify FILE` checks a whole file.
#pragma once

#include "core/wave_impl.hpp"
#include "core/wave_params.hpp"
#include "core/wave_problem.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace awave {

// CRC-32 of padded plane pi of a padded field: rows j = 1..ny, each the nz interior values as
// `Stored` (a double field stored as float: the floats the file holds). Instantiated for
// <double, double>, <float, float> and <float, double>.
template <class Stored, class Field>
std::uint32_t plane_checksum(const Field* padded, const PaddedGeometry& g, int pi);
// The same for padded planes [pi0, pi0 + n), on host threads.
template <class Stored, class Field>
std::vector<std::uint32_t> plane_checksums(const Field* padded, const PaddedGeometry& g, int pi0, int n);

// The digest of a field's interior: the CRC-32 of its interior planes' checksums (plane_checksum,
// doubles), in plane order. Equal digests: the same bits (up to CRC collisions), so an unchecked
// run can be held to a checked one of the same steps (awave -digest).
std::uint32_t field_digest(const double* padded, const PaddedGeometry& g);
// The same digest of an implementation's `now`, its planes copied back a slab of about
// `slab_bytes` at a time through its host buffer (pinned where it can) and checksummed as they
// come: no whole-field copy. The whole copy back (u and u_prev into fresh host memory, 16 GB at
// 1000^3) took 11.4 s a code on the H200 machine (results/h200-2026-11-26/process-1000-9295f57).
// A slab holding a NaN or Inf takes the whole copy instead, whose scan records it (first_non_finite).
std::uint32_t field_digest(WaveImpl& impl, const PaddedGeometry& g, std::size_t slab_bytes = std::size_t(64) << 20);

// The checksum schemes, as /wave_params "checksums" names them. 1: a plane's CRC-32 covers its values alone, a
// record its time, slots and the parameters. 2 (issue 81): a plane's CRC-32 covers what it is (its series, field,
// slot and plane) and then its values, so that a plane moved to another slot or field no longer verifies; a record
// also names the scheme, its series and its entry; and /awave_integrity "committed" holds the committed counts with
// their CRC, so that a count that shrinks is seen. A file read under the other scheme verifies nothing, so a damaged
// "checksums" cannot pass a file off as the scheme without these checks.
constexpr int kChecksumScheme = 2;
enum class ChecksumSeries : int { snapshots = 0, checkpoints = 1, statics = 2 };

// What turns a plane's CRC-32 of its values into its stored checksum (XOR): under scheme 2, crc32(what || values) =
// crc32(what) shifted past the values, XOR crc32(values) (CRC-32 is linear: zlib's crc32_combine); 0 under scheme 1.
// field: u 0, u_prev 1 (statics: sos 0, damp 1); slot: the time slot (statics 0); plane: the global x-plane;
// plane_bytes: its stored values' bytes.
std::uint32_t plane_binding(int scheme, ChecksumSeries series, int field, int64_t slot, int plane,
                            std::size_t plane_bytes);

// The CRC-32 of what locates entry `entry` of a series: its time counter, its slots in u and u_prev (-1 where
// u_prev is not stored), and the run's parameters as stored in /wave_params (shape, dx, dt, end step, out_period,
// layers); under scheme 2 also the scheme, the series and the entry.
std::uint32_t snapshot_record(int scheme, ChecksumSeries series, int64_t entry, int64_t time, int64_t slot_u,
                              int64_t slot_u_prev, const WaveParams& params, int boundary_layers);

// Scheme 2's committed record: the CRC-32 of the scheme, the counts of snapshots and checkpoints, whether the file is
// complete and its checkpoint period (0: none apart), which the writer updates with NSteps in each commit's flush and
// when it marks the file complete.
std::uint32_t committed_record(int64_t snapshots, int64_t checkpoints, int complete, int checkpoint_period);

// How one time series of a file stands (the snapshots, or the separate checkpoints).
struct SeriesReport {
  int64_t count = 0;                               // committed (snapshots: what the Steps arrays agree on)
  std::vector<int64_t> steps;                      // the time counter of each
  std::vector<std::optional<std::string>> damage;  // per entry: why it does not verify, or nothing
  std::optional<int64_t> newest_intact() const;
};

// How a file stands.
struct IntegrityReport {
  bool has_checksums = false;  // false: written before checksums (nothing can be verified)
  int scheme = 0;              // the checksum scheme (kChecksumScheme's comment), where it has checksums
  // Scheme 2: how the counts of NSteps, the Steps arrays and the checkpoints' steps stand against the checksummed
  // count, where they do not all equal it (a kill inside a commit's flush, or damage); nothing where they do.
  std::optional<std::string> count_damage;
  // What a reader such as ParaView takes from the file and no checksum covers, against what the grid and the
  // parameters imply (VTKHDF Version, Type, Origin, Spacing, Direction, WholeExtent, the static arrays' offsets;
  // the groups' scheme descriptions): the first that differs, or nothing.
  std::optional<std::string> reader_damage;
  SeriesReport snapshots;
  std::optional<SeriesReport> checkpoints;   // where the file keeps them apart (io/output_layout.hpp)
  std::optional<std::string> static_damage;  // sos / damp
  // What a restart starts from: the separate checkpoints where there are, else the snapshots.
  const SeriesReport& restart_points() const { return checkpoints ? *checkpoints : snapshots; }
};

// Checks the file's snapshots and checkpoints (all of them, or, with `newest_only`, only the
// restart points, walking back from the last to the newest that verifies) and, unless
// newest_only, the static arrays. Reads one batch of x-planes at a time. Throws
// std::runtime_error where the file cannot be read at all.
IntegrityReport check_integrity(const std::string& path, bool newest_only);

}  // namespace awave
