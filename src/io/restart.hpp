// Restarting a run from an awave output file (-restart FILE): which snapshot or checkpoint
// (io/output_layout.hpp), with which parameters, checked before anything is allocated or written.
#pragma once

#include "core/wave_problem.hpp"

#include <optional>
#include <string>

namespace awave {

struct RestartPoint {
  WaveParams params;       // shape, dx, dt, out_period from /wave_params; start_step: the snapshot's time
  long file_end_step = 0;  // the time counter the file's run was to end at (/wave_params nsteps)
  bool file_complete = false;
  StartSnapshot snapshot;  // the newest restart point the file holds completely and verifies
  // One line for the user where the start is not the file's last snapshot, or where the file
  // carries no checksums (written before them); empty otherwise.
  std::string notice;
  bool skipped_damaged = false;  // the last snapshot(s) did not verify: an earlier one is the start
};

// Reads and checks `path`: an HDF5 file written by awave, with at least one complete restart
// point (a checkpoint where the file keeps them apart, else a snapshot) whose arrays match its
// /wave_params. The last snapshot is the one NSteps and every Steps array agree on (a run killed
// inside a snapshot's final flush may leave them one apart). The start is the newest restart
// point whose checksums all verify (io/integrity.hpp).
// Throws std::invalid_argument with a one-line message otherwise (no intact snapshot included).
RestartPoint read_restart_point(const std::string& path);

}  // namespace awave
