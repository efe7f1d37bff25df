#include "app/driver.hpp"
#include "app/gpu_energy.hpp"

#include "app/progress.hpp"
#include "app/registry.hpp"
#include "build_info.hpp"
#include "core/approx_equal.hpp"
#include "core/host_field.hpp"
#include "core/step_plan.hpp"
#include "core/tuning.hpp"
#include "git_commit.hpp"
#include "io/integrity.hpp"
#include "io/snapshot_writer.hpp"
#include "io/vtkhdf.hpp"
#include "parallel/step_loop.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fcntl.h>   // open: the -json file created exclusively
#include <unistd.h>  // environ
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <ostream>
#include <stdexcept>

namespace awave {

SampleStats sample_stats(const std::vector<double>& v) {
  if (v.empty()) throw std::invalid_argument("sample_stats of no samples");
  const double n = double(v.size());
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / n;
  double sum_sq = 0.0;
  for (double x : v) sum_sq += (x - mean) * (x - mean);
  const double stddev = v.size() > 1 ? std::sqrt(sum_sq / (n - 1.0)) : std::numeric_limits<double>::quiet_NaN();
  return {*std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()), mean, stddev};
}

std::vector<double> ImplResult::chunk_su_per_s(std::size_t interior_points) const {
  std::vector<double> su(chunk_seconds.size());
  for (std::size_t c = 0; c < su.size(); ++c) su[c] = double(interior_points) * chunk_steps[c] / chunk_seconds[c];
  return su;
}

std::optional<double> ImplResult::joules_per_site_update(std::size_t interior_points) const {
  const double updates = double(interior_points) * std::accumulate(chunk_steps.begin(), chunk_steps.end(), 0.0);
  if (!energy || updates <= 0) return std::nullopt;
  return energy->joules / updates;
}

bool RunReport::all_passed() const {
  return std::all_of(results.begin(), results.end(), [](const ImplResult& r) { return r.passed(); });
}

std::vector<std::string> selected_implementations(const Options& options) {
  std::vector<std::string> ids;
  if (options.check) ids.push_back(options.reference);
  if (options.impls.empty()) {
    // A GPU build runs its GPU implementations by default: its host Kokkos backend (and the
    // threaded CPU reference) run only when asked for, so a benchmark spends its time on the GPU.
    const bool gpu_build =
        std::any_of(implementations().begin(), implementations().end(), [](const ImplEntry& e) { return e.on_device; });
    for (const ImplEntry& e : implementations())
      if (e.id != "cpu" && e.id != options.reference && (e.on_device || !gpu_build)) ids.push_back(e.id);
  } else {
    for (const std::string& id : options.impls) {
      if (!find_implementation(id)) {
        std::string known;
        for (const ImplEntry& e : implementations()) known += (known.empty() ? "" : ", ") + e.id;
        throw std::invalid_argument(fmt::format("unknown implementation '{}' (this build has: {})", id, known));
      }
      if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
    }
  }
  return ids;
}

namespace {

// Bytes a site update must move through memory at the least: read `now` and `prev`, write
// `next` (the coefficients are per-depth and per-column, negligible). A sweep of S steps reads two
// levels and writes two: 32 / S bytes a site update (core/sweep_march.hpp).
constexpr double kBytesPerSiteModel = 24.0;
double bytes_per_site_update(int steps_per_sweep) {
  return steps_per_sweep > 1 ? 32.0 / steps_per_sweep : kBytesPerSiteModel;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// A NaN or Inf in u, wherever the fields came to the host, fails the implementation: the
// earliest one seen by the check or by the output writer.
// Over MPI: the first process (by rank) that saw one reports it, with global coordinates.
void report_non_finite(std::optional<NonFinite> a, std::optional<NonFinite> b, const WaveProblem& problem,
                       ImplResult& result) {
  const ProcessGroup& group = ProcessGroup::world();
  if (!a || (b && b->step < a->step)) a = b;
  std::string text;
  if (a)
    text = fmt::format("{} = {} at padded point ({}, {}, {}) after step {}", a->field, a->value,
                       a->pi + problem.slab().computed_offset(), a->pj, a->pk, a->step);
  const long first = group.min(a ? long(group.rank()) : long(group.size()));
  if (first < group.size()) result.non_finite = group.broadcast(text, int(first));
}

namespace {

// The timed chunks, each followed by its snapshot when there is output (copied back outside the
// timed region, written by the writer thread while the next chunk computes). Returns the first
// NaN or Inf the writer met.
std::optional<NonFinite> run_chunks(WaveImpl& impl, StepLoop& steps, const WaveProblem& problem, const Options& options,
                                    bool on_device, ImplResult& result) {
  using clock = std::chrono::steady_clock;
  const WaveParams& p = problem.global_params();  // (the rate is the whole grid's)
  const ProcessGroup& group = ProcessGroup::world();
  const std::vector<int> chunks = chunk_lengths(p);
  std::unique_ptr<SnapshotWriter> out;
  const auto wall_start = clock::now();
  auto snapshot = [&] {
    const SnapshotWriter::Buffers buffers = out->acquire(impl.time_step());
    const auto start = clock::now();
    if (buffers.now_single)
      impl.copy_now_to_host_single(buffers.now_single);
    else
      impl.copy_u_to_host(buffers.now, buffers.prev);
    result.io.copy_seconds += std::chrono::duration<double>(clock::now() - start).count();
    result.io.copy_bytes += double(buffers.bytes);
    out->submit();
  };
  if (options.write_output) {
    result.output_file = output_path(options.output_base, result.id);
    out = std::make_unique<SnapshotWriter>(result.output_file, problem, options.output, int64_t(chunks.size()) + 1,
                                           [&impl](std::size_t n) { return impl.host_buffer(n); });
  }
  // Live progress on stderr (the first process only; -quiet silences it).
  ProgressReporter progress(result.id, std::accumulate(chunks.begin(), chunks.end(), 0L), double(p.interior_points()),
                            options.progress && group.rank() == 0);
  long steps_done = 0;
  double compute_done = 0;
  EnergyTally energy(on_device ? GpuEnergyCounter::of_gpu(accelerator_pci_bus_id()) : GpuEnergyCounter());
  try {
    if (out) snapshot();
    for (const int len : chunks) {
      energy.begin();
      // Over MPI every process starts its chunk together, after its energy read: else one process's NVML
      // read delays its first exchange and its peers' timed chunks wait for it (4 H200s: hand CUDA's
      // sweep scaled 0.83 / 0.78 without, 0.91 / 0.94 with; bench/results/h200x4-2026-11-27/chunk-barrier-625ab1d).
      // No test catches its removal, rightly: it changes timing only, and that A/B is its evidence.
      group.barrier();
      const auto start = clock::now();
      steps.run(len);  // blocking: the chunk is complete on return
      const auto stop = clock::now();
      result.chunk_steps.push_back(len);
      result.chunk_seconds.push_back(std::chrono::duration<double>(stop - start).count());
      energy.end(result.chunk_seconds.back());
      steps_done += len;
      compute_done += result.chunk_seconds.back();
      progress.update(steps_done, compute_done);
      if (group.distributed())  // where each chunk's time went (the first includes MPI's warm-up)
        result.distributed.chunks.push_back(
            {steps.step_seconds(), steps.halo().copy_seconds(), steps.halo().mpi_seconds()});
      if (out) snapshot();
    }
    if (out) out->commit();
  } catch (const std::exception& e) {
    if (!out) throw;
    // The restart hint only where there is a snapshot to restart from.
    const std::string line =
        out->created() && out->written() > 0
            ? fmt::format("{} (-restart {} continues the run from its last snapshot)", e.what(), out->partial_path())
            : fmt::format("{} (no snapshot was committed: nothing to restart from)", e.what());
    // Over MPI, stop every process now: unwinding would wait for the writer thread, which may be
    // in a collective write with a process that stopped. The file keeps its committed snapshots.
    if (group.distributed()) group.abort_with_error(line, 3);
    throw std::runtime_error(line);
  }
  result.energy = every_process_energy(energy, group);
  if (out) {  // over MPI: the slowest process's
    result.io.wall_seconds = group.max(std::chrono::duration<double>(clock::now() - wall_start).count());
    result.io.copy_seconds = group.max(result.io.copy_seconds);
    result.io.copy_bytes = double(group.sum(std::size_t(result.io.copy_bytes)));
    result.io.pinned = group.min(out->buffers_pinned() ? 1L : 0L) == 1;
    result.io.write_seconds = group.max(out->write_seconds());
    result.io.wait_seconds = group.max(out->wait_seconds());
    result.io.scan_seconds = group.max(out->scan_seconds());
    const VtkHdfWriter::Parts parts = out->file_parts();
    result.io.transpose_seconds = group.max(parts.transpose);
    result.io.checksum_seconds = group.max(parts.checksum);
    result.io.hdf5_write_seconds = group.max(parts.hdf5_write);
    result.io.flush_seconds = group.max(parts.flush);
    result.io.longest_flush_seconds = group.max(parts.longest_flush);
    result.io.snapshot_bytes = double(group.sum(std::size_t(parts.snapshot_bytes)));
    result.io.checkpoint_bytes = double(group.sum(std::size_t(parts.checkpoint_bytes)));
    result.io.snapshots = out->snapshots_written();
  }
  return out ? out->first_non_finite() : std::nullopt;
}

// A chunk takes as long as its slowest process; over MPI, so do its parts.
void slowest_process_times(const StepLoop& steps, ImplResult& result) {
  ProcessGroup& group = ProcessGroup::world();
  for (double& seconds : result.chunk_seconds) seconds = group.max(seconds);
  if (!group.distributed()) return;
  result.distributed.processes = group.size();
  result.distributed.step_seconds = group.max(steps.step_seconds());
  result.distributed.halo_copy_seconds = group.max(steps.halo().copy_seconds());
  result.distributed.mpi_seconds = group.max(steps.halo().mpi_seconds());
  std::array<double, 3> before{0, 0, 0};  // the running sums, per chunk, slowest process
  for (auto& c : result.distributed.chunks) {
    const std::array<double, 3> sums = c;
    for (int a = 0; a < 3; ++a) c[a] = group.max(sums[a] - before[a]);
    before = sums;
  }
}

// The final `now` (copied back once: now_on_host) against the reference's, every point (or, for
// the reference, kept). The reference's slab has no recomputed halo (it takes single steps); the
// implementation's own planes start halo_lo planes further into its field.
void check(const HostField& now, const WaveProblem& problem, HostField* reference_now, ImplResult& result) {
  if (result.is_reference) {
    reference_now->resize(now.size());
    copy_in_parallel(now.data(), now.size(), reference_now->data());
    return;
  }
  // Each process compares the planes it owns (and the grid's ghost planes at the x faces, on the
  // first and last process): the sums are the single-process counts.
  ProcessGroup& group = ProcessGroup::world();
  const Slab& slab = problem.slab();
  const std::size_t plane = problem.geometry().stride_i();
  const std::size_t first = slab.first() ? 0 : 1, last = slab.last() ? slab.nx + 1 : slab.nx;
  const std::size_t n = (last - first + 1) * plane, shift = std::size_t(slab.halo_lo) * plane;
  result.checked = true;
  const FieldComparison c =
      compare_fields(reference_now->data() + first * plane, now.data() + shift + first * plane, n);
  result.points_compared = group.sum(c.points);
  result.differences = group.sum(c.differences);
  result.bitwise_differences = group.sum(c.bitwise_differences);
  result.max_relative_difference = group.max(c.max_relative_difference);
}

}  // namespace

// This process's problems: its slab, and where an implementation sweeps over MPI, the slab with the
// neighbours' planes it recomputes (made on first use).
class SlabProblems {
 public:
  SlabProblems(const Options& options, const Slab& slab)
      : options_(options), single_(options.params, options.start, slab) {}
  const WaveProblem& single_steps() const { return single_; }
  const WaveProblem& for_plan(const StepPlan& plan) {
    if (!plan.recomputed_halo) return single_;
    if (!swept_) swept_.emplace(options_.params, options_.start, with_halo(single_.slab(), plan.recomputed_halo));
    return *swept_;
  }

 private:
  const Options& options_;
  WaveProblem single_;
  std::optional<WaveProblem> swept_;
};

// One implementation: set up, the timed chunks with their output, the check.
ImplResult run_one(const ImplEntry& entry, SlabProblems& problems, const Options& options, HostField* reference_now,
                   std::ostream& log) {
  ImplResult result;
  result.id = entry.id;
  result.description = entry.description;
  result.is_reference = entry.id == options.reference && options.check;
  using clock = std::chrono::steady_clock;
  const auto set_up_start = clock::now();
  log << fmt::format("[{}] {}: setting up\n", entry.id, entry.description) << std::flush;
  const StepPlan plan = plan_implementation(entry, options.params, problems.single_steps().slab(), result.is_reference);
  const WaveProblem& problem = problems.for_plan(plan);
  std::unique_ptr<WaveImpl> impl = make_implementation(entry, problem, plan);
  result.plan = impl->plan();
  if (result.plan.steps_per_sweep > 1)
    log << fmt::format("[{}] {} steps a sweep (temporal blocking); a chunk's remainder as single steps{}\n", entry.id,
                       result.plan.steps_per_sweep,
                       result.plan.recomputed_halo ? fmt::format("; halos of {} planes a side, exchanged once a sweep",
                                                                 result.plan.recomputed_halo)
                                                   : "")
        << std::flush;
  else if (!result.plan.single_steps_reason.empty())
    log << fmt::format("[{}] {}\n", entry.id, result.plan.single_steps_reason) << std::flush;
  StepLoop steps(*impl, problem, ProcessGroup::world(), options.halo);
  if (ProcessGroup::world().distributed()) {
    result.distributed.gpu_to_gpu = steps.halo().gpu_to_gpu();
    result.distributed.halo_path = steps.halo().path_description();
    log << fmt::format("[{}] halo exchange: {}\n", entry.id, steps.halo().path_description()) << std::flush;
  }
  result.outside_chunks_seconds.set_up = std::chrono::duration<double>(clock::now() - set_up_start).count();
  const std::optional<NonFinite> written_non_finite = run_chunks(*impl, steps, problem, options, entry.on_device, result);
  const auto finish_start = clock::now();
  if (entry.on_device && !result.output_file.empty() && !result.io.pinned)
    log << fmt::format("[{}] snapshot buffers: pageable, pinned memory was refused (the copies back run slower)\n",
                       entry.id)
        << std::flush;
  slowest_process_times(steps, result);
  const bool digest = options.digest && !ProcessGroup::world().distributed();
  if (options.check) {
    const HostField& now = impl->now_on_host();
    check(now, problem, reference_now, result);
    if (digest) result.digest = field_digest(now.data(), problem.geometry());
  } else if (digest) {
    result.digest = field_digest(*impl, problem.geometry());
  }
  result.outside_chunks_seconds.finish = std::chrono::duration<double>(clock::now() - finish_start).count();
  report_non_finite(impl->first_non_finite(), written_non_finite, problem, result);
  return result;
}

// Bitwise first (the promise), then the spec's rule (PASS/FAIL).
std::string check_line(const ImplResult& r) {
  if (r.bitwise())
    return fmt::format("  check: bitwise identical to the reference ({} points): PASS", r.points_compared);
  return fmt::format(
      "  check: NOT BITWISE: {} of {} points differ, largest relative difference {:.3g}; {} differences beyond the "
      "spec's tolerance: {}",
      r.bitwise_differences, r.points_compared, r.max_relative_difference, r.differences,
      r.differences == 0 ? "PASS" : "FAIL");
}

std::string format_stat(double x) {
  return std::isnan(x) ? std::string("-") : fmt::format("{:.3e}", x);
}

}  // namespace

RunReport run_comparison(const Options& options, std::ostream& log) {
  std::vector<const ImplEntry*> impls;
  for (const std::string& id : selected_implementations(options)) impls.push_back(find_implementation(id));
  return run_comparison(options, impls, log);
}

RunReport run_comparison(const Options& options, const std::vector<const ImplEntry*>& impls, std::ostream& log) {
  RunReport report;
  report.options = options;
  const WaveParams& p = options.params;
  const ProcessGroup& group = ProcessGroup::world();
  SlabProblems problems(options, slab_of(p.nx(), group.rank(), group.size()));
  log << fmt::format("awave: shape {}x{}x{}, dx {}, dt {}, nsteps {}, out_period {}, Courant number {:.4f}\n", p.nx(),
                     p.ny(), p.nz(), p.dx, p.dt, p.nsteps, p.out_period, courant_number(p.dx, p.dt));
  if (options.write_output) log << "awave: output: " << options.output.describe(p) << "\n";
  if (const auto tuning = tuning_values(); !tuning.empty()) {
    std::string set;
    for (const auto& [key, v] : tuning)
      set += fmt::format("{}{}={} ({})", set.empty() ? "" : ", ", key, v.value, v.source);
    log << "awave: tuning: " << set << "\n";
  }
  if (group.distributed())
    log << fmt::format("awave: {} MPI processes, slabs of {} to {} x-planes\n", group.size(),
                       smallest_slab_nx(p.nx(), group.size()), largest_slab_nx(p.nx(), group.size()));
  if (!group.binding_warning().empty())  // (one process under mpirun's binding too)
    log << fmt::format(
        "awave: warning: {}: give each process its own cores (mpirun --map-by slot:PE=T --bind-to "
        "core) or unset OMP_PROC_BIND and OMP_PLACES (docs/mpi.md, \"Binding several processes of a "
        "node\")\n",
        group.binding_warning());
  if (group.distributed() && options.write_output) {
    const ProcessGroup::MpiIoLayer& io = ProcessGroup::mpi_io_layer();
    log << fmt::format("awave: MPI-IO: OMPI_MCA_io={} (set by {}{})\n", io.setting.empty() ? "(unset)" : io.setting,
                       io.chosen_by,
                       io.chosen_by == "awave" ? ": Open MPI's OMPIO is not safe beside the exchange" : "");
    log << fmt::format(
        "awave: MPI-IO: {}; file syncs at each commit {}\n",
        tuning_word("mpi_io.aggregators").value_or("all") == "all"
            ? "every process gathers collective writes (cb_nodes " + std::to_string(group.size()) +
                  ", cb_config_list *:*)"
            : std::string("ROMIO's own aggregators (-tune mpi_io.aggregators=romio)"),
        io.file_sync ? "on (HDF5_DO_MPI_FILE_SYNC)" : "off, as HDF5 1.13.2+ (HDF5_DO_MPI_FILE_SYNC=1 turns them on)");
  }
  if (group.distributed() && options.digest)
    log << "awave: -digest is for one process (each process holds a slab of u): no digest over MPI\n";
  if (options.start)
    log << fmt::format("awave: restarting from {} at step {} (its {} slot {}); running to step {}\n",
                       options.start->file, p.start_step, options.start->kind, options.start->slot, p.end_step());
  HostField reference_now;
  for (const ImplEntry* entry : impls) {
    if (!entry) throw std::invalid_argument("run_comparison: an implementation is missing from this build");
    const ImplResult& r = report.results.emplace_back(run_one(*entry, problems, options, &reference_now, log));
    print_summary(RunReport{options, {r}}, log);
  }
  return report;
}

void print_run_table(const RunReport& report, std::ostream& out) {
  const std::size_t points = report.options.params.interior_points();
  double fastest = 0;
  for (const ImplResult& r : report.results) {
    const std::vector<double> su = r.chunk_su_per_s(points);
    fastest = std::max(fastest, *std::max_element(su.begin(), su.end()));
  }
  out << fmt::format("\n{:<28} {:>10} {:>10} {:>8}  {}\n", "implementation", "best SU/s", "median", "of best", "check");
  for (const ImplResult& r : report.results) {
    const std::vector<double> su = r.chunk_su_per_s(points);
    const double best = *std::max_element(su.begin(), su.end());
    std::string check = r.is_reference ? "reference" : !r.checked ? "not checked" : r.differences ? "FAIL" : "PASS";
    if (r.checked && !r.is_reference)
      check += r.bitwise() ? ", bitwise" : fmt::format(", {} points not bitwise", r.bitwise_differences);
    if (!r.non_finite.empty()) check = "FAIL (NaN/Inf)";
    out << fmt::format("{:<28} {:>10.3e} {:>10.3e} {:>7.0f}%  {}\n", r.id, best, median(su), 100 * best / fastest,
                       check);
  }
}

void print_summary(const RunReport& report, std::ostream& out) {
  const std::size_t points = report.options.params.interior_points();
  for (const ImplResult& r : report.results) {
    const SampleStats t = sample_stats(r.chunk_seconds);
    const SampleStats su = sample_stats(r.chunk_su_per_s(points));
    out << fmt::format("[{}] {} chunks, {} steps\n", r.id, r.chunk_seconds.size(),
                       std::accumulate(r.chunk_steps.begin(), r.chunk_steps.end(), 0));
    out << fmt::format("  chunk time [s]  min {:>10} max {:>10} mean {:>10} sd {:>10}\n", format_stat(t.min),
                       format_stat(t.max), format_stat(t.mean), format_stat(t.stddev));
    out << fmt::format("  SU/s            min {:>10} max {:>10} mean {:>10} sd {:>10}\n", format_stat(su.min),
                       format_stat(su.max), format_stat(su.mean), format_stat(su.stddev));
    if (r.is_reference)
      out << "  check: this is the reference\n";
    else if (r.checked)
      out << check_line(r) << "\n";
    else
      out << "  check: not checked (-no_check)\n";
    if (r.digest) out << fmt::format("  digest of the final u: {:08x}\n", *r.digest);
    if (const std::optional<double> j = r.joules_per_site_update(points))
      out << fmt::format("  energy (NVML, the GPU{}): {:.1f} J over {:.2f} s of chunks, {:.3g} J a site update{}\n",
                         r.distributed.processes > 1 ? "s" : "", r.energy->joules, r.energy->seconds, *j,
                         r.energy->seconds < 1.0 ? " (under 1 s: too short for NVML's counter, not a figure to quote)"
                                                 : "");
    if (!r.non_finite.empty()) out << fmt::format("  non-finite value: {}: FAIL\n", r.non_finite);
    if (r.distributed.processes > 1)
      out << fmt::format("  over {} MPI processes (slowest each): steps {:.3f} s, halo copies {:.3f} s, MPI {:.3f} s\n",
                         r.distributed.processes, r.distributed.step_seconds, r.distributed.halo_copy_seconds,
                         r.distributed.mpi_seconds);
    if (!r.output_file.empty()) {
      const double compute = std::accumulate(r.chunk_seconds.begin(), r.chunk_seconds.end(), 0.0);
      out << fmt::format("  output: {}\n", r.output_file);
      out << fmt::format(
          "  time [s]: wall {:.3f} = compute {:.3f} + copy back {:.3f} + waiting for the writer {:.3f}; the "
          "writer (creating and writing the file) was busy {:.3f}, overlapping the compute\n",
          r.io.wall_seconds, compute, r.io.copy_seconds, r.io.wait_seconds, r.io.write_seconds);
      out << fmt::format("  copy back: {:.2f} GB at {:.1f} GB/s into {} host buffers\n", r.io.copy_bytes / 1e9,
                         r.io.copy_gb_per_s(), r.io.pinned ? "pinned" : "pageable");
      const double written = r.io.snapshot_bytes + r.io.checkpoint_bytes;
      out << fmt::format(
          "  written: {:.2f} GB ({} snapshots {:.2f} GB, checkpoints {:.2f} GB) at {:.2f} GB/s of wall; the writer's "
          "parts [s]: scan {:.3f}, transpose {:.3f}, checksums {:.3f}, HDF5 writes {:.3f}, commit flushes {:.3f}\n",
          written / 1e9, r.io.snapshots, r.io.snapshot_bytes / 1e9, r.io.checkpoint_bytes / 1e9,
          r.io.wall_seconds > 0 ? written / r.io.wall_seconds / 1e9 : 0.0, r.io.scan_seconds, r.io.transpose_seconds,
          r.io.checksum_seconds, r.io.hdf5_write_seconds, r.io.flush_seconds);
    }
  }
}

Verdict final_verdict(const RunReport& report) {
  if (!report.options.check)
    return report.all_passed() ? Verdict{"UNCHECKED: -no_check ran no CPU reference", 0}
                               : Verdict{"FAIL: a non-finite value (NaN or Inf) in u", 2};
  if (!report.all_passed()) return {"FAIL: an implementation differs from the CPU reference (or gave NaN/Inf)", 2};
  std::string not_bitwise;  // called out even where the spec's tolerance passes them
  for (const ImplResult& r : report.results)
    if (r.checked && !r.bitwise()) not_bitwise += (not_bitwise.empty() ? "" : ", ") + r.id;
  if (not_bitwise.empty()) return {"PASS: every implementation matches the CPU reference, bit for bit", 0};
  return {"PASS: every implementation matches the CPU reference (NOT bitwise: " + not_bitwise + ")", 0};
}

// The environment variables that change what a run does: awave's tuning overrides (AWAVE_*) and
// the settings of the OpenMP, offload, Kokkos, CUDA and NCCL runtimes, as the process sees them
// (the openmptarget build sets LIBOMPTARGET_REUSE_BLOCKS_FOR_HIGH_TRIP_COUNT itself,
// src/kokkos/offload_team_cap.cpp).
static nlohmann::json runtime_environment() {
  static const char* const prefixes[] = {"AWAVE_", "OMP_", "LIBOMPTARGET_", "KOKKOS_", "CUDA_", "NCCL_", "OMPI_MCA_"};
  nlohmann::json env = nlohmann::json::object();
  for (char** e = environ; e && *e; ++e) {
    const std::string kv = *e;
    const std::size_t eq = kv.find('=');
    if (eq == std::string::npos) continue;
    for (const char* prefix : prefixes)
      if (kv.rfind(prefix, 0) == 0) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return env;
}

// The accelerator's properties the plan read (core/step_plan.hpp, high_bandwidth_gpu), null where
// the build has none; a property the toolchain could not ask is null.
static nlohmann::json device_traits_json(const DeviceTraits& d) {
  if (!d.accelerator) return nullptr;
  auto known = [](const auto& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  return {{"compute_capability",
           d.cc_major && d.cc_minor ? nlohmann::json(fmt::format("{}.{}", *d.cc_major, *d.cc_minor)) : nullptr},
          {"multiprocessors", known(d.multiprocessors)},
          {"l2_bytes", known(d.l2_bytes)},
          {"memory_bytes", known(d.memory_bytes)},
          {"peak_bandwidth_bytes_per_s", known(d.peak_bandwidth)}};
}

// The keys a reader may rely on, and their types, are declared once in run_record.schema.json beside this file
// (the harness validates every run file against it; tests/harness/test_run_files.py holds this output to it).
void write_json(const RunReport& report, const std::string& path) {
  const WaveParams& p = report.options.params;
  const std::size_t points = p.interior_points();
  nlohmann::json j;
  j["schema"] = "awave-run/1";
  const std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  j["date"] = date;
  j["bytes_per_site_model"] = kBytesPerSiteModel;
  j["build"] = {{"name", kBuildName},
                {"compiler", kCompiler},
                {"kokkos_version", kKokkosVersion},
                {"kokkos_package", kKokkosPackage},
                {"git_commit", kGitCommit},
                {"build_type", kBuildType},
                {"exact_fp", kExactFp},
                {"kokkos", kKokkosConfiguration},
                {"accelerator", accelerator_description()},
                {"accelerator_traits", device_traits_json(accelerator_traits())}};
  j["environment"] = runtime_environment();
  j["tuning"] = nlohmann::json::object();
  for (const auto& [key, v] : tuning_values()) j["tuning"][key] = {{"value", v.value}, {"source", v.source}};
  j["params"] = {{"shape", {p.nx(), p.ny(), p.nz()}},
                 {"dx", p.dx},
                 {"dt", p.dt},
                 {"nsteps", p.nsteps},
                 {"out_period", p.out_period},
                 {"start_step", p.start_step}};
  if (!ProcessGroup::world().binding_warning().empty())  // (ProcessGroup::binding_warning)
    j["binding_warning"] = ProcessGroup::world().binding_warning();
  if (ProcessGroup::world().distributed()) {  // Open MPI's MPI-IO layer (ProcessGroup::mpi_io_layer)
    const ProcessGroup::MpiIoLayer& io = ProcessGroup::mpi_io_layer();
    const ProcessGroup::FileSyncs syncs = ProcessGroup::file_syncs();
    j["mpi_io"] = {{"OMPI_MCA_io", io.setting},
                   {"chosen_by", io.chosen_by},
                   {"may_be_ompio", io.may_be_ompio},
                   {"aggregators", tuning_word("mpi_io.aggregators").value_or("all")},
                   {"hints_in_effect", mpi_io_hints_in_effect()},
                   {"file_sync", io.file_sync},
                   {"file_syncs", {{"calls", syncs.calls}, {"made", syncs.made}}}};
  }
  if (report.options.start) j["restart_file"] = report.options.start->file;
  j["checked_against_cpu"] = report.options.check;
  j["reference"] = report.options.check ? report.options.reference : "";
  j["implementations"] = nlohmann::json::array();
  for (const ImplResult& r : report.results) {
    const std::vector<double> su = r.chunk_su_per_s(points);
    const double best = *std::max_element(su.begin(), su.end());
    const ImplEntry* entry = find_implementation(r.id);
    nlohmann::json ji = {{"id", r.id},
                         {"description", r.description},
                         {"on_device", entry && entry->on_device},
                         {"uses_kokkos", entry && entry->uses_kokkos},
                         {"form", entry ? entry->form : ""},
                         {"steps_per_sweep", r.plan.steps_per_sweep},
                         {"fused_step", r.plan.fused_step},
                         {"sweep_min_points", r.plan.sweep_min_points},
                         {"bulk_planes", r.plan.bulk_planes},
                         {"recomputed_halo", r.plan.recomputed_halo},
                         {"chunk_steps", r.chunk_steps},
                         {"chunk_seconds", r.chunk_seconds},
                         {"best_su_per_s", best},
                         {"median_su_per_s", median(su)},
                         {"bytes_per_site_model", bytes_per_site_update(r.plan.steps_per_sweep)},
                         {"effective_bandwidth_gb_s", best * bytes_per_site_update(r.plan.steps_per_sweep) / 1e9},
                         {"is_reference", r.is_reference},
                         {"checked", r.checked},
                         {"outside_chunks_seconds",
                          {{"set_up", r.outside_chunks_seconds.set_up}, {"finish", r.outside_chunks_seconds.finish}}}};
    if (r.digest) ji["digest"] = fmt::format("{:08x}", *r.digest);
    if (const std::optional<double> j = r.joules_per_site_update(points))
      ji["energy"] = {{"source", "NVML total energy"},
                      {"joules", r.energy->joules},
                      {"seconds", r.energy->seconds},
                      {"joules_per_site_update", *j}};
    if (r.checked) {
      ji["differences"] = r.differences;
      ji["bitwise"] = r.bitwise();
      ji["bitwise_differences"] = r.bitwise_differences;
      if (std::isfinite(r.max_relative_difference))  // JSON has no infinity: absent where NaN met a number
        ji["max_relative_difference"] = r.max_relative_difference;
    }
    if (r.distributed.processes > 1) {
      ji["mpi"] = {{"processes", r.distributed.processes},
                   {"halo", r.distributed.gpu_to_gpu ? "nccl" : "mpi"},
                   {"halo_path", r.distributed.halo_path},
                   {"step_seconds", r.distributed.step_seconds},
                   {"halo_copy_seconds", r.distributed.halo_copy_seconds},
                   {"mpi_seconds", r.distributed.mpi_seconds},
                   {"chunks", nlohmann::json::array()}};
      for (const auto& c : r.distributed.chunks)
        ji["mpi"]["chunks"].push_back({{"step_seconds", c[0]}, {"halo_copy_seconds", c[1]}, {"mpi_seconds", c[2]}});
    }
    if (!r.output_file.empty()) {
      ji["output_file"] = r.output_file;
      ji["io"] = {{"wall_seconds", r.io.wall_seconds},
                  {"compute_seconds", std::accumulate(r.chunk_seconds.begin(), r.chunk_seconds.end(), 0.0)},
                  {"copy_seconds", r.io.copy_seconds},
                  {"copy_bytes", r.io.copy_bytes},
                  {"copy_gb_per_s", r.io.copy_gb_per_s()},
                  {"pinned_buffers", r.io.pinned},
                  {"wait_seconds", r.io.wait_seconds},
                  {"write_seconds", r.io.write_seconds},
                  {"scan_seconds", r.io.scan_seconds},
                  {"transpose_seconds", r.io.transpose_seconds},
                  {"checksum_seconds", r.io.checksum_seconds},
                  {"hdf5_write_seconds", r.io.hdf5_write_seconds},
                  {"commit_flush_seconds", r.io.flush_seconds},
                  {"longest_commit_flush_seconds", r.io.longest_flush_seconds},
                  {"snapshots", r.io.snapshots},
                  {"snapshot_bytes", r.io.snapshot_bytes},
                  {"checkpoint_bytes", r.io.checkpoint_bytes},
                  {"snapshot_precision", report.options.output.single_precision ? "single" : "double"},
                  {"snapshot_fields", report.options.output.with_u_prev ? "u,u_prev" : "u"},
                  {"checkpoint_period", report.options.output.checkpoint_period}};
    }
    if (!r.non_finite.empty()) ji["non_finite"] = r.non_finite;
    ji["passed"] = r.passed();
    j["implementations"].push_back(ji);
  }
  j["passed"] = report.all_passed();
  // Written under another name, created exclusively (a leftover removed, the link itself where one
  // appeared during the run: nothing is written through it), then renamed over `path`.
  const std::string partial = path + ".partial";
  std::error_code ignored;
  std::filesystem::remove(partial, ignored);
  const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);  // (less the umask)
  if (fd < 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  const std::string text = j.dump(2) + "\n";
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
    }
    done += std::size_t(n);
  }
  if (::close(fd) != 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  std::filesystem::rename(partial, path);
}

}  // namespace awave
