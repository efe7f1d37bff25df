// The awave driver: run the CPU reference, then each selected implementation from the same
// initial (or restart) state, in chunks ending at multiples of out_period (compute-only timing;
// output after each chunk, written by a thread while the next chunk computes),
// check each final `now` field against the reference point by point, and report.
#pragma once

#include "app/cli.hpp"
#include "app/gpu_energy.hpp"
#include "core/step_plan.hpp"

#include <array>
#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

namespace awave {

struct SampleStats {
  double min, max, mean, stddev;  // stddev: sample standard deviation, NaN for one sample
};
SampleStats sample_stats(const std::vector<double>& samples);

struct ImplResult {
  std::string id;
  std::string description;
  StepPlan plan;  // how it took its steps (core/step_plan.hpp): the plan it was made with
  std::vector<int> chunk_steps;
  std::vector<double> chunk_seconds;
  bool is_reference = false;
  bool checked = false;                 // compared with the CPU reference
  std::size_t differences = 0;          // points failing approx_equal, when checked (PASS/FAIL)
  std::size_t bitwise_differences = 0;  // points whose bits differ from the reference's
  double max_relative_difference = 0;   // over the points that differ (core/approx_equal.hpp)
  std::size_t points_compared = 0;
  std::optional<std::uint32_t> digest;  // -digest: the final u's (io/integrity.hpp, field_digest)
  bool bitwise() const { return checked && bitwise_differences == 0; }
  std::string output_file;     // empty when no output was written
  std::string non_finite;      // the first NaN/Inf seen in u on the host (output, check), if any
  struct {                     // with output: where the run's time went
    double wall_seconds = 0;   // creating the file to committing it: chunks and output
    double copy_seconds = 0;   // copying snapshots back to host buffers (between chunks)
    double copy_bytes = 0;     // what those copies moved (every process)
    bool pinned = true;        // every process's snapshot buffers were pinned
    double wait_seconds = 0;   // waiting for the writer (it fell a chunk behind, or the last write)
    double write_seconds = 0;  // the writer thread's busy time (creating, writing): overlaps the chunks
    // Its parts: the NaN/Inf scan, the transposes into the file's order, the checksums, HDF5's
    // writes (to the page cache: nothing is fsync'ed) and the commit flushes (the crash window).
    double scan_seconds = 0, transpose_seconds = 0, checksum_seconds = 0, hdf5_write_seconds = 0;
    double flush_seconds = 0, longest_flush_seconds = 0;
    double snapshot_bytes = 0, checkpoint_bytes = 0;  // u and u_prev values written (every process)
    long snapshots = 0;
    double copy_gb_per_s() const { return copy_seconds > 0 ? copy_bytes / copy_seconds / 1e9 : 0.0; }
  } io;
  struct {  // over MPI: where a step's time went (the slowest process's sums over the run)
    int processes = 1;
    bool gpu_to_gpu = false;  // the halo planes went through NCCL (-halo)
    std::string halo_path;    // the path in words, as the log shows it
    double step_seconds = 0, halo_copy_seconds = 0, mpi_seconds = 0;  // MPI: or NCCL, the wait for the planes
    std::vector<std::array<double, 3>> chunks;  // the same per chunk: step, halo copies, MPI
  } distributed;

  struct {  // what a run costs beyond its timed chunks (issue 58 item 4: a 1000^3 study round's fixed cost)
    double set_up = 0;  // making the implementation (fields filled, copied to the device) and its step loop
    double finish = 0;  // after the chunks: the check against the reference, or -digest's copy back and CRC
  } outside_chunks_seconds;
  using Energy = RunEnergy;  // app/gpu_energy.hpp: every process's GPU
  std::optional<Energy> energy;  // none off the GPU, or where NVML is not there
  std::vector<double> chunk_su_per_s(std::size_t interior_points) const;
  // Joules a site update over the timed chunks, where the energy is known.
  std::optional<double> joules_per_site_update(std::size_t interior_points) const;
  bool passed() const { return non_finite.empty() && (!checked || differences == 0); }
};

struct RunReport {
  Options options;
  std::vector<ImplResult> results;
  bool all_passed() const;
};

struct ImplEntry;

// Runs everything the options ask for; throws std::runtime_error on I/O or device failures.
RunReport run_comparison(const Options& options, std::ostream& log);
// The same with an explicit list of implementations (the reference, if checking, first).
RunReport run_comparison(const Options& options, const std::vector<const ImplEntry*>& impls, std::ostream& log);

// The run's last line and exit status: PASS (0; naming the implementations that are not the
// reference's bits, where the spec's tolerance passes them), FAIL (2), or, under -no_check,
// UNCHECKED (0) unless a value was not finite (FAIL, 2).
struct Verdict {
  std::string line;
  int status = 0;
};
Verdict final_verdict(const RunReport& report);
// Each implementation's chunk statistics, its check, and its output's times.
void print_summary(const RunReport& report, std::ostream& out);
// One table for the whole run, side by side: each implementation's best and median chunk SU/s,
// its share of the best (the fastest implementation of the run) and its check.
void print_run_table(const RunReport& report, std::ostream& out);
void write_json(const RunReport& report, const std::string& path);

// The implementation ids the options select, reference first; throws on unknown ids.
std::vector<std::string> selected_implementations(const Options& options);

}  // namespace awave
