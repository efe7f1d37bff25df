// VTKHDF (version 2.3, ImageData, transient) output of awave runs, and a reader for tests and
// restarts. Layout (docs/model.md, "Output"): /VTKHDF with the image attributes; PointData arrays
// sos and damp as [1][nz][ny][nx] written once, u and u_prev as [t][nz][ny][nx] appended per
// output; /VTKHDF/Steps with NSteps, Values and one PointDataOffsets entry per array; and
// /wave_params. Arrays hold interior points only, x fastest.
#pragma once

#include "core/wave_problem.hpp"
#include "io/output_layout.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace awave {

// Writes one run's file (over MPI: every process its slab of one file, collectively) so that a crash or kill -9 at any
// moment leaves every snapshot and checkpoint completed before it readable (h5py, VTK 9.3): file space is allocated at
// creation, and each snapshot is committed by one flush of a few small object headers (append). /wave_params
// `complete` is 0 until close(true): a reader can tell a finished run's file from an interrupted one. Not covered:
// power loss (nothing is fsync'ed).
class VtkHdfWriter {
 public:
  // Creates `path` (truncating it) with room for `slots` snapshots and, where the layout keeps
  // checkpoints apart (io/output_layout.hpp), layout.checkpoints() of them; writes the static
  // parts (attributes, sos, damp, /wave_params) and flushes.
  VtkHdfWriter(const std::string& path, const WaveProblem& problem, const OutputLayout& layout, int64_t slots);
  ~VtkHdfWriter();
  VtkHdfWriter(const VtkHdfWriter&) = delete;
  VtkHdfWriter& operator=(const VtkHdfWriter&) = delete;

  // One state, as padded fields (PaddedGeometry layout) on the host: `now` and `prev` in double
  // (prev may be null where neither the snapshot nor a checkpoint needs it), or `now_single`, the
  // same values rounded to float (converted where the fields live), with now null.
  struct State {
    const double* now = nullptr;
    const double* prev = nullptr;
    const float* now_single = nullptr;
  };
  // Appends the snapshot at time counter `time`, and the checkpoint where `checkpoint` (separate
  // checkpoints only; it needs now and prev). When it returns both are in the file (handed to
  // the OS).
  void append(long time, const State& state, bool checkpoint);
  long steps_written() const { return steps_; }
  long checkpoints_written() const { return checkpoints_; }

  // Where the writer's time goes (seconds), and what it wrote (bytes of u and u_prev).
  struct Parts {
    double transpose = 0, checksum = 0, hdf5_write = 0;
    double flush = 0, longest_flush = 0;  // the commit flushes: the window in which a crash can leave
                                          // NSteps and the Steps arrays disagreeing
    double snapshot_bytes = 0, checkpoint_bytes = 0;
  };
  const Parts& parts() const { return parts_; }
  // Closes the file, marking it complete first if `complete`; reports errors, unlike the
  // destructor (which closes without marking).
  void close(bool complete);

  // A time series of fields stored as [slot][nz][ny][nx] with its checksums (io/integrity.hpp):
  // the snapshots (/VTKHDF/PointData, /awave_integrity) or the checkpoints (/awave_checkpoints).
  struct Series {
    long data[2] = {-1, -1};  // u, u_prev (u_prev -1 where not stored)
    long sums = -1, records = -1, steps = -1;
    bool single = false;
  };

 private:
  void write_slot(const Series& series, long time, int64_t slot, const State& state);
  std::vector<long*> datasets();  // every dataset handle, for closing
  void release() noexcept;
  void release_checked();
  void write_committed(int64_t snapshots, int64_t checkpoints, int complete);
  WaveParams params_;        // the whole grid's
  PaddedGeometry geometry_;  // this process's padded fields
  OutputLayout layout_;
  int i0_ = 0, ni_ = 0;  // its planes of the file
  int pi0_ = 1;          // the padded plane of the first in this process's fields
  bool root_ = true;
  long dxpl_ = -1;
  int64_t slots_, checkpoint_slots_ = 0;
  int checkpoint_period_ = 0;  // 0: no checkpoints apart from the snapshots
  long file_ = -1, steps_group_ = -1, wave_params_ = -1;
  long offsets_[4] = {-1, -1, -1, -1};  // PointDataOffsets: sos, damp, u, u_prev
  Series snapshots_, checkpoints_series_;
  long steps_ = 0, checkpoints_ = 0;
  Parts parts_;
};

// awave reports HDF5 failures itself, in one line: turns HDF5's error printing off for the
// calling thread (HDF5's error stacks are per thread; the main thread's is off from the start).
void quiet_hdf5_errors_in_this_thread();

// Where a file's time series live: the snapshots' arrays, and the separate checkpoints' group.
inline constexpr const char* kSnapshotArrays = "/VTKHDF/PointData";
inline constexpr const char* kCheckpointGroup = "/awave_checkpoints";

// Reads time slot `slot` of u and u_prev (in `group`: kSnapshotArrays or kCheckpointGroup) into
// the interior points of two padded fields (ghost points untouched): the state a restart starts
// from.
void read_vtkhdf_state(const std::string& path, const std::string& group, int64_t slot, const PaddedGeometry& geometry,
                       double* padded_now, double* padded_prev);
// The same for part of a grid: global interior planes [gi0, gi0 + ni) of the file into the
// padded planes pi0.. of a slab's fields (restart over MPI, with any number of processes).
void read_vtkhdf_state(const std::string& path, const std::string& group, int64_t slot, const WaveParams& global,
                       int gi0, int ni, const PaddedGeometry& geometry, int pi0, double* padded_now,
                       double* padded_prev);

// A file's separate checkpoints (/awave_checkpoints), where it has them.
struct CheckpointIndex {
  int period = 0;
  int64_t slots = 0;
  std::vector<int64_t> steps;  // the time counter of each committed checkpoint
};

// Everything a VTKHDF file from awave holds, as read back through HDF5.
struct VtkHdfContents {
  std::array<int64_t, 2> version{};
  std::string type;
  std::array<double, 3> origin{}, spacing{};
  std::array<int64_t, 6> whole_extent{};
  std::array<double, 9> direction{};
  int64_t nsteps = 0;                                   // /VTKHDF/Steps NSteps attribute
  std::vector<int64_t> step_values;                     // /VTKHDF/Steps/Values
  std::map<std::string, std::vector<int64_t>> offsets;  // PointDataOffsets, per array
  std::map<std::string, std::array<int64_t, 4>> dims;   // PointData array dimensions (u_prev may be absent)
  std::map<std::string, int> value_bytes;               // per PointData array: 8 (float64) or 4 (float32)
  WaveParams params;                                    // /wave_params (nsteps: the end step)
  int n_boundary_layers = 0;
  bool complete = false;  // /wave_params complete: the run that wrote it ended well
  std::optional<CheckpointIndex> checkpoints;

  // The snapshots every part of the file agrees on: NSteps and the length of each Steps
  // array. They differ only in a file whose writer was killed inside a snapshot's commit
  // flush (VtkHdfWriter::append); every reader of snapshots goes by this count.
  int64_t committed_snapshots() const;
  // Whether /wave_params' shape is the arrays' grid (a damaged one is not).
  bool arrays_have_params_shape() const;
  // Whether the snapshots hold what a restart needs (u and u_prev in double).
  bool snapshots_restart() const;
};

VtkHdfContents read_vtkhdf_contents(const std::string& path);

// Global x-planes [gi0, gi0 + ni) of the time-series dataset `dataset` (a path: "/VTKHDF/PointData/u",
// "/awave_checkpoints/u_prev", ...) at time slot t, as [ni][ny][nz] values (k fastest: the order in
// which io/integrity.hpp checksums a plane), as stored (float32 values widened exactly).
std::vector<double> read_vtkhdf_planes(const std::string& path, const std::string& dataset, int64_t t, int gi0, int ni);

// k-planes of a slot as the file stores them: nk planes [nk][ny][nx], x fastest, of `value_bytes`
// (4: float32, 8: float64) each.
struct KSlab {
  int k0 = 0, nk = 0, value_bytes = 8;
  const void* values = nullptr;
};

// Slot t of the time-series dataset `dataset`, whole k-planes at a time, in the order they are
// stored (one contiguous read each), in the stored type: HDF5's float32 -> double conversion ran 8x
// slower than the read on the build machine (-compare 14.30 -> 13.89 s on a 64-core host:
// bench/results/h100x4-2026-11-27/README.md). nx, ny, nz are set before the first visit.
void read_vtkhdf_kslabs(const std::string& path, const std::string& dataset, int64_t t, int& nx, int& ny, int& nz,
                        const std::function<void(const KSlab& slab)>& visit);

// The same reads of many slots through one open file, each dataset opened and checked once: a check of every slot
// opened the file and the dataset per slot, 16,002 times for 8,001 snapshots (most of -verify's 2 s there).
class VtkHdfSlabReader {
 public:
  explicit VtkHdfSlabReader(const std::string& path);
  ~VtkHdfSlabReader();
  void read_kslabs(const std::string& dataset, int64_t t, int& nx, int& ny, int& nz,
                   const std::function<void(const KSlab& slab)>& visit);

 private:
  struct Open;
  std::unique_ptr<Open> open_;
};

// The checksums of a time series (io/integrity.hpp): the snapshots' or the checkpoints'.
struct SeriesChecksums {
  int fields = 2;                      // u, u_prev (1: u only)
  std::vector<std::uint32_t> planes;   // [slot][fields][nx]
  std::vector<std::uint32_t> records;  // [slot]
};
// The checksums a file carries, or nothing for a file written before them.
struct VtkHdfChecksums {
  int scheme = 1;  // /wave_params "checksums" (io/integrity.hpp, kChecksumScheme)
  // Scheme 2: /awave_integrity "committed": the snapshots and checkpoints committed, and their CRC-32
  // (committed_record); nothing where the attribute is missing.
  std::optional<std::array<int64_t, 3>> committed;
  std::string scheme_text, checkpoint_scheme_text;  // the groups' "scheme" descriptions, as stored
  SeriesChecksums snapshots;
  std::optional<SeriesChecksums> checkpoints;
  std::vector<std::uint32_t> static_planes;  // [2: sos, damp][nx]
};
std::optional<VtkHdfChecksums> read_vtkhdf_checksums(const std::string& path);
// The "scheme" descriptions the writer stores on /awave_integrity and /awave_checkpoints (checksum scheme 2).
std::string integrity_scheme_text(bool single_precision);
std::string checkpoint_scheme_text();
// PointData array `name` at time slot t, as nz*ny*nx values, x fastest.
std::vector<double> read_vtkhdf_array(const std::string& path, const std::string& name, int64_t t);

// Over MPI: the collective-buffering hints ROMIO applied to the last output file this process created
// (cb_nodes, cb_config_list, cb_buffer_size, romio_cb_write, romio_ds_write, as MPI_File_get_info gives
// them; empty on one process). -json records them (docs/mpi.md, "Output over MPI at the disk's speed").
const std::map<std::string, std::string>& mpi_io_hints_in_effect();

}  // namespace awave
