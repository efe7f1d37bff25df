// VTKHDF (version 2.3, ImageData, transient) output of awave runs, and a reader for tests and
// restarts. Layout (docs/model.md, "Output"): /VTKHDF with the image attributes; PointData arrays
// sos and damp as [1][nz][ny][nx] written once, u and u_prev as [t][nz][ny][nx] appended per
// output; /VTKHDF/Steps with NSteps, Values and one PointDataOffsets entry per array; and
// /wave_params. Arrays hold interior points only, x fastest.
#pragma once

#include "core/wave_problem.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace awave {

// Writes one run's file (over MPI: every process its slab of one file, collectively) so that a crash or kill -9 at any
// moment leaves every snapshot completed before it readable (h5py, VTK 9.3): file space is allocated at creation, and
// each snapshot is committed by one flush of a few small object headers (append_u). /wave_params `complete` is 0 until
// close(true): a reader can tell a finished run's file from an interrupted one. Not covered: power loss (nothing is
// fsync'ed).
class VtkHdfWriter {
 public:
  // Creates `path` (truncating it) with room for `slots` snapshots, writes the static parts
  // (attributes, sos, damp, /wave_params) and flushes.
  VtkHdfWriter(const std::string& path, const WaveProblem& problem, int64_t slots);
  ~VtkHdfWriter();
  VtkHdfWriter(const VtkHdfWriter&) = delete;
  VtkHdfWriter& operator=(const VtkHdfWriter&) = delete;

  // Appends one snapshot from padded fields (PaddedGeometry layout); time is the step
  // counter. When it returns the snapshot is in the file (handed to the OS).
  void append_u(long time, const double* padded_now, const double* padded_prev);
  long steps_written() const { return steps_; }
  // Time in the commit flushes of append_u: the window in which a crash can leave NSteps
  // and the Steps arrays disagreeing (total, and the longest one).
  double flush_seconds() const { return flush_seconds_; }
  double longest_flush_seconds() const { return longest_flush_seconds_; }
  // Closes the file, marking it complete first if `complete`; reports errors, unlike the
  // destructor (which closes without marking).
  void close(bool complete);

 private:
  void release() noexcept;
  void release_checked();
  WaveParams params_;        // the whole grid's
  PaddedGeometry geometry_;  // this process's padded fields
  int i0_ = 0, ni_ = 0;      // its planes of the file
  bool root_ = true;
  long dxpl_ = -1;
  int64_t slots_;
  long file_ = -1, steps_group_ = -1, wave_params_ = -1;
  long u_[2] = {-1, -1}, values_ = -1, offsets_[4] = {-1, -1, -1, -1};
  long plane_sums_ = -1, records_ = -1;  // /awave_integrity (io/integrity.hpp)
  long steps_ = 0;
  double flush_seconds_ = 0.0, longest_flush_seconds_ = 0.0;
};

// awave reports HDF5 failures itself, in one line: turns HDF5's error printing off for the
// calling thread (HDF5's error stacks are per thread; the main thread's is off from the start).
void quiet_hdf5_errors_in_this_thread();

// Reads time slot `slot` of u and u_prev into the interior points of two padded fields
// (ghost points untouched): the state a restart starts from.
void read_vtkhdf_state(const std::string& path, int64_t slot, const PaddedGeometry& geometry, double* padded_now,
                       double* padded_prev);
// The same for part of a grid: global interior planes [gi0, gi0 + ni) of the file into the
// padded planes pi0.. of a slab's fields (restart over MPI, with any number of processes).
void read_vtkhdf_state(const std::string& path, int64_t slot, const WaveParams& global, int gi0, int ni,
                       const PaddedGeometry& geometry, int pi0, double* padded_now, double* padded_prev);

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
  std::map<std::string, std::array<int64_t, 4>> dims;   // PointData array dimensions
  WaveParams params;                                    // /wave_params (nsteps: the end step)
  int n_boundary_layers = 0;
  bool complete = false;  // /wave_params complete: the run that wrote it ended well

  // The snapshots every part of the file agrees on: NSteps and the length of each Steps
  // array. They differ only in a file whose writer was killed inside a snapshot's commit
  // flush (VtkHdfWriter::append_u); every reader of snapshots goes by this count.
  int64_t committed_snapshots() const;
};

VtkHdfContents read_vtkhdf_contents(const std::string& path);

// Global x-planes [gi0, gi0 + ni) of PointData array `name` at time slot t, as [ni][ny][nz]
// values (k fastest: the order in which io/integrity.hpp checksums a plane).
std::vector<double> read_vtkhdf_planes(const std::string& path, const std::string& name, int64_t t, int gi0, int ni);

// The checksums a file carries (io/integrity.hpp), or nothing for a file written before them.
struct VtkHdfChecksums {
  std::vector<std::uint32_t> planes;         // [slot][2: u, u_prev][nx]
  std::vector<std::uint32_t> records;        // [slot]
  std::vector<std::uint32_t> static_planes;  // [2: sos, damp][nx]
};
std::optional<VtkHdfChecksums> read_vtkhdf_checksums(const std::string& path);
// PointData array `name` at time slot t, as nz*ny*nx values, x fastest.
std::vector<double> read_vtkhdf_array(const std::string& path, const std::string& name, int64_t t);

}  // namespace awave
