#include "io/output_layout.hpp"

#include <fmt/format.h>

namespace awave {

namespace {
std::string bytes_text(double bytes) {  // 3 significant digits in the unit that fits
  if (bytes >= 1e9) return fmt::format("{:.3g} GB", bytes / 1e9);
  if (bytes >= 1e6) return fmt::format("{:.3g} MB", bytes / 1e6);
  return fmt::format("{:.3g} kB", bytes / 1e3);
}

long period_of(const OutputLayout& layout, const WaveParams& p) {  // unsettled (0): every snapshot
  return layout.checkpoint_period > 0 ? layout.checkpoint_period : p.out_period;
}
}  // namespace

bool OutputLayout::is_checkpoint(const WaveParams& p, long time) const {
  return time > p.start_step && (time % period_of(*this, p) == 0 || time == p.end_step());
}

int64_t OutputLayout::checkpoints(const WaveParams& p) const {
  if (snapshots_are_checkpoints()) return 0;
  const long end = p.end_step(), period = period_of(*this, p);
  return end / period - p.start_step / period + (end % period != 0 ? 1 : 0);
}

double OutputLayout::snapshot_bytes(const WaveParams& p) const {
  return double(p.interior_points()) * double(snapshot_fields()) * double(snapshot_value_bytes());
}

double OutputLayout::checkpoint_bytes(const WaveParams& p) const {
  return snapshots_are_checkpoints() ? 0.0 : double(p.interior_points()) * 2.0 * sizeof(double);
}

double OutputLayout::run_bytes(const WaveParams& p) const {
  const double snapshots = double(chunk_lengths(p).size() + 1);
  const double statics = double(p.interior_points()) * 2.0 * sizeof(double);  // sos, damp
  return snapshots * snapshot_bytes(p) + double(checkpoints(p)) * checkpoint_bytes(p) + statics;
}

std::string OutputLayout::describe(const WaveParams& p) const {
  const std::string fields = with_u_prev ? "u, u_prev" : "u";
  const std::string precision = single_precision ? "single" : "double";
  const std::string snapshots = fmt::format("snapshots of {} in {} precision every {} steps ({} each)", fields,
                                            precision, p.out_period, bytes_text(snapshot_bytes(p)));
  if (snapshots_are_checkpoints())
    return fmt::format("{}, each a checkpoint; {} in all", snapshots, bytes_text(run_bytes(p)));
  return fmt::format("{}; checkpoints (u, u_prev, double) every {} steps and at the end ({} each); {} in all",
                     snapshots, checkpoint_period, bytes_text(checkpoint_bytes(p)), bytes_text(run_bytes(p)));
}

std::optional<std::string> settle_output_layout(OutputLayout& layout, const WaveParams& p) {
  if (layout.checkpoint_period == 0) layout.checkpoint_period = p.out_period;
  if (layout.checkpoint_period < 0 || layout.checkpoint_period % p.out_period != 0)
    return fmt::format("-checkpoint_period {} must be a positive multiple of -out_period {}", layout.checkpoint_period,
                       p.out_period);
  if (layout.snapshots_are_checkpoints() && layout.checkpoint_period != p.out_period)
    return fmt::format(
        "-checkpoint_period {}: snapshots of u and u_prev in double are checkpoints already (every {} steps); give "
        "-snapshot_precision single or -snapshot_fields u for checkpoints apart from the snapshots",
        layout.checkpoint_period, p.out_period);
  return std::nullopt;
}

}  // namespace awave
