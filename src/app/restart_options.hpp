// A restart's options: what the command line asked for, settled against the restart file. The
// parser (app/cli) reads no file; this reads the restart point (io/restart.hpp) and writes nothing.
#pragma once

#include "app/cli.hpp"

#include <optional>
#include <string>

namespace awave {

// With options.restart_file set: takes the run's parameters from the file, refusing flags that
// contradict it, sets the start step and snapshot, and makes -nsteps count the steps still to run
// (default: up to the file's end step). A one-line error when it cannot.
std::optional<std::string> apply_restart(Options& options);

}  // namespace awave
