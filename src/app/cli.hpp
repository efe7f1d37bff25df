// The awave command line: the original single-dash interface plus selection, JSON and help.
#pragma once

#include "core/wave_params.hpp"
#include "core/wave_problem.hpp"
#include "io/output_layout.hpp"
#include "parallel/halo_exchange.hpp"

#include <optional>
#include <string>
#include <vector>

namespace awave {

struct Options {
  WaveParams params;
  std::string output_base = "test";  // files are <stem>.<impl>.vtkhdf
  std::vector<std::string> impls;    // implementations to run besides the reference; empty: default set
  std::string reference = "cpu";     // what the others are checked against: cpu or cpu-openmp
  std::string json_path;             // machine-readable results, if set
  bool write_output = true;          // -no_output: skip VTKHDF files (benchmarks)
  OutputLayout output;               // -snapshot_precision, -snapshot_fields, -checkpoint_period
  bool check = true;                 // -no_check: skip the CPU reference and the comparison
  bool digest = false;               // -digest: each implementation's final u digested (io/integrity.hpp)
  bool progress = true;              // -quiet: no progress lines on stderr
  HaloSettings halo;                 // -halo, -halo_timeout: over MPI, how the planes travel
  std::string tune;                  // -tune key=value,...: tuning values (core/tuning.hpp)
  bool tune_help = false;            // -tune help: list the keys
  bool help = false;
  bool list = false;
  std::string restart_file;                // -restart: continue the run saved in this file
  bool restart_strict = false;             // -restart_strict: refuse where the last snapshot is damaged
  std::string restart_notice;              // set by apply_restart: one line to show (damage skipped, unverifiable)
  std::string verify_file;                 // -verify: check this file's checksums and exit
  std::vector<std::string> compare_files;  // -compare A B: compare two files and exit (empty: not asked)
  std::optional<StartSnapshot> start;      // set from restart_file by apply_restart
  struct {
    bool shape = false, dx = false, dt = false, nsteps = false, out_period = false;
  } given;  // flags on the command line, which a restart file must not contradict
};

// The implementations that can be the reference: the serial CPU reference and the same on threads.
inline bool is_cpu_reference(const std::string& id) {
  return id == "cpu" || id == "cpu-openmp";
}

struct ParsedCommandLine {
  Options options;
  std::optional<std::string> error;  // one line, for bad input
};

// Parses and validates argv (no files are touched). Arguments starting with --kokkos- are
// left to Kokkos.
ParsedCommandLine parse_command_line(int argc, const char* const* argv);
std::string usage();

// "<dir>/<name>" without the extension of <name>: the stem of output_base.
std::string output_stem(const std::string& output_base);
std::string output_path(const std::string& output_base, const std::string& impl_id);
// Checks that output files can be created where asked, without creating anything.
std::optional<std::string> check_output_locations(const Options& options, const std::vector<std::string>& impl_ids);

}  // namespace awave
