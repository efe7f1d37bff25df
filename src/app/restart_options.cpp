#include "app/restart_options.hpp"

#include "io/restart.hpp"

#include <fmt/format.h>

namespace awave {

std::optional<std::string> apply_restart(Options& o) {
  if (o.restart_file.empty()) return std::nullopt;
  RestartPoint r;
  try {
    r = read_restart_point(o.restart_file);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  if (r.skipped_damaged && o.restart_strict) return r.notice + " (refused: -restart_strict)";
  o.restart_notice = r.notice;
  const WaveParams& f = r.params;
  const WaveParams& given = o.params;
  auto contradiction = [&](const char* flag, const std::string& asked, const std::string& file) {
    return fmt::format("-{} {} contradicts the restart file '{}' ({} there)", flag, asked, o.restart_file, file);
  };
  if (o.given.shape && given.shape != f.shape)
    return contradiction("shape", fmt::format("{},{},{}", given.nx(), given.ny(), given.nz()),
                         fmt::format("{},{},{}", f.nx(), f.ny(), f.nz()));
  if (o.given.dx && given.dx != f.dx) return contradiction("dx", fmt::format("{}", given.dx), fmt::format("{}", f.dx));
  if (o.given.dt && given.dt != f.dt) return contradiction("dt", fmt::format("{}", given.dt), fmt::format("{}", f.dt));
  if (o.given.out_period && given.out_period != f.out_period)
    return contradiction("out_period", fmt::format("{}", given.out_period), fmt::format("{}", f.out_period));
  WaveParams p = f;
  if (o.given.nsteps) {
    p.nsteps = given.nsteps;
  } else {
    if (r.file_end_step <= f.start_step)
      return fmt::format("the run in '{}' is complete (step {}); give -nsteps N to run N more steps", o.restart_file,
                         f.start_step);
    p.nsteps = int(r.file_end_step - f.start_step);
  }
  if (auto problem = validate(p)) return *problem;
  if (auto problem = settle_output_layout(o.output, p)) return *problem;
  o.params = p;
  o.start = r.snapshot;
  return std::nullopt;
}

}  // namespace awave
