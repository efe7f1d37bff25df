// VTKHDF (version 2.3, ImageData, transient) output of awave runs, and a reader for tests and
// restarts. Layout (SPEC.md, "Output"): /VTKHDF with the image attributes; PointData arrays
// sos and damp as [1][nz][ny][nx] written once, u and u_prev as [t][nz][ny][nx] appended per
// output; /VTKHDF/Steps with NSteps, Values and one PointDataOffsets entry per array; and
// /wave_params. Arrays hold interior points only, x fastest.
#pragma once

#include "wave_problem.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace awave {

class VtkHdfWriter {
 public:
  // Creates `path` (truncating it) and writes the static parts: attributes, sos, damp.
  VtkHdfWriter(const std::string& path, const WaveProblem& problem);
  ~VtkHdfWriter();
  VtkHdfWriter(const VtkHdfWriter&) = delete;
  VtkHdfWriter& operator=(const VtkHdfWriter&) = delete;

  // Appends one time step from padded fields (PaddedGeometry layout); time is the step counter.
  void append_u(long time, const double* padded_now, const double* padded_prev);
  long steps_written() const { return steps_; }
  // Flushes and closes the file; the destructor closes too, but cannot report errors.
  void close();

 private:
  void write_field(long file_id_dataset, long step, const double* padded);
  WaveParams params_;
  long file_ = -1;
  long steps_ = 0;
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
  std::map<std::string, std::array<int64_t, 4>> dims;   // PointData array dimensions
  WaveParams params;                                    // /wave_params
  int n_boundary_layers = 0;
};

VtkHdfContents read_vtkhdf_contents(const std::string& path);
// PointData array `name` at time slot t, as nz*ny*nx values, x fastest.
std::vector<double> read_vtkhdf_array(const std::string& path, const std::string& name, int64_t t);

}  // namespace awave
