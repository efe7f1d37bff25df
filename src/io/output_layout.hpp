// What an output file holds (docs/model.md, "Snapshots and checkpoints"): snapshots, for looking
// (u at every out_period, in double or single precision, with or without u_prev), and
// checkpoints, for restarting (u and u_prev in double, bitwise, every checkpoint_period steps and
// at the end). The default, double u and u_prev, makes every snapshot a checkpoint: the file is
// the spec's, unchanged. Otherwise checkpoints are stored beside the VTKHDF arrays in
// /awave_checkpoints, which VTK ignores.
#pragma once

#include "core/wave_params.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace awave {

struct OutputLayout {
  bool single_precision = false;  // -snapshot_precision single: snapshots' arrays as float32
  bool with_u_prev = true;        // -snapshot_fields u,u_prev (default) or u
  int checkpoint_period = 0;      // -checkpoint_period: steps, a multiple of out_period; 0: out_period

  // Every snapshot holds what a restart needs (u and u_prev in double): no separate checkpoints.
  bool snapshots_are_checkpoints() const { return !single_precision && with_u_prev; }
  int snapshot_fields() const { return with_u_prev ? 2 : 1; }
  std::size_t snapshot_value_bytes() const { return single_precision ? 4 : 8; }
  // Whether the state at time counter `time` is stored as a checkpoint (separate checkpoints only):
  // every checkpoint_period steps after the run's start, and its end. The start itself is not (the
  // run can be started again from where it started).
  bool is_checkpoint(const WaveParams& p, long time) const;
  // Checkpoints a run of `p` stores (separate checkpoints only).
  int64_t checkpoints(const WaveParams& p) const;
  // Bytes of one snapshot and one checkpoint of the whole grid, and of the run (every snapshot
  // and checkpoint, the static arrays sos and damp included).
  double snapshot_bytes(const WaveParams& p) const;
  double checkpoint_bytes(const WaveParams& p) const;
  double run_bytes(const WaveParams& p) const;
  // One line for the run's header: what is stored and how many bytes it comes to.
  std::string describe(const WaveParams& p) const;
};

// The layout's problem with the run's parameters, in one line, or nothing; sets the default
// checkpoint_period (out_period).
std::optional<std::string> settle_output_layout(OutputLayout& layout, const WaveParams& p);

}  // namespace awave
