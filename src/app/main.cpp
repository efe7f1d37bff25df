// awave: 3D acoustic wave solver, CPU reference vs the parallel implementations in this build.
// Exit status: 0 all checks pass, 1 bad input, 2 an implementation differs from the reference
// or produced a NaN/Inf, 3 a run-time failure (I/O, device).
#include "app/cli.hpp"
#include "app/contained_read.hpp"
#include "app/driver.hpp"
#include "app/memory_estimate.hpp"
#include "app/registry.hpp"
#include "app/restart_options.hpp"
#include "core/tuning.hpp"
#include "io/compare.hpp"
#include "io/integrity.hpp"
#include "io/restart.hpp"
#include "kokkos/register_kokkos.hpp"
#include "parallel/nccl_link.hpp"
#include "parallel/process_group.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <streambuf>
#include <string>
#include <thread>

namespace {

// Output that only the first process writes (every process reaches the same decisions).
struct NullBuffer : std::streambuf {
  int overflow(int c) override { return c; }
};
NullBuffer null_buffer;
std::ostream null_stream(&null_buffer);

// awave -verify FILE: every snapshot's checksums, and the static arrays'; 0 intact, 1 not.
int verify_file(const std::string& path, std::ostream& out, std::ostream& err) {
  using namespace awave;
  IntegrityReport r;
  try {
    if (!std::filesystem::is_regular_file(path)) throw std::runtime_error("does not exist or is not a file");
    r = check_integrity(path, false);
  } catch (const std::exception& e) {
    err << "awave: error: " << path << " cannot be verified: " << e.what() << "\n";
    return 1;
  }
  if (!r.has_checksums) {
    err << "awave: error: " << path << " was written before awave kept checksums: it cannot be verified\n";
    return 1;
  }
  if (auto damage = first_damage(r)) {
    err << fmt::format("awave: {}: {}\n", path, *damage);
    return 1;
  }
  if (r.checkpoints)
    out << fmt::format("awave: {}: {} snapshots and {} checkpoints, every checksum verifies\n", path, r.snapshots.count,
                       r.checkpoints->count);
  else
    out << fmt::format("awave: {}: {} snapshots, every checksum verifies\n", path, r.snapshots.count);
  return 0;
}

// awave -compare A B: 0 identical, 2 they differ, 1 they cannot be compared, 3 a run-time failure
// (io/compare.hpp).
int compare_two_files(const std::string& a, const std::string& b, std::ostream& out, std::ostream& err) {
  const awave::Comparison c = awave::compare_files(a, b);
  switch (c.outcome) {
    case awave::Comparison::Outcome::identical:
      out << "awave: " << c.line << "\n";
      return 0;
    case awave::Comparison::Outcome::differ:
      out << "awave: " << c.line << "\n";
      return 2;
    case awave::Comparison::Outcome::incomparable:
      break;
    case awave::Comparison::Outcome::failed:
      err << "awave: error: " << c.line << "\n";
      return 3;
  }
  err << "awave: error: " << c.line << "\n";
  return 1;
}

// The end of the one line a bad option gets (its usage is 46 lines: awave -h prints it).
constexpr const char* kTryHelp = "; try 'awave -h'\n";

// Why a run cannot go ahead, found before anything is allocated or written: output that cannot
// be created, an MPI that cannot write, a grid too thin for its processes, -halo nccl where NCCL
// cannot carry the planes, no GPU (status 3), too little memory.
struct Refusal {
  std::string line;
  int status = 1;
  bool with_usage = false;
};

std::optional<Refusal> refuse_before_running(const awave::Options& options, const std::vector<std::string>& ids,
                                             const awave::ProcessGroup& group) {
  using namespace awave;
  if (auto problem = check_output_locations(options, ids)) return Refusal{*problem, 1, true};
  if (group.distributed() && !group.threads_ok() && options.write_output)
    return Refusal{
        "this MPI does not provide MPI_THREAD_MULTIPLE, which output over MPI needs (its writer thread "
        "writes collectively); run with -no_output"};
  if (group.distributed() && options.write_output && ProcessGroup::mpi_io_layer().may_be_ompio && !test_fault("OMPIO"))
    return Refusal{fmt::format(
        "OMPI_MCA_io={} lets Open MPI write through OMPIO, which corrupts the heap when the writer thread "
        "writes while the halos travel (docs/mpi.md); unset it (awave then writes through ROMIO) or run with "
        "-no_output",
        ProcessGroup::mpi_io_layer().setting)};
  if (options.params.nx() < group.size())
    return Refusal{fmt::format("nx = {} planes cannot be shared by {} MPI processes: each needs at least one",
                               options.params.nx(), group.size())};
  auto any = [&ids](bool ImplEntry::*flag) {
    return std::any_of(ids.begin(), ids.end(),
                       [flag](const std::string& id) { return find_implementation(id)->*flag; });
  };
  // -halo nccl where it cannot carry the planes (a run of host implementations only, in a build
  // with NCCL, sends through MPI as -h says).
  if (options.halo.path == HaloPath::nccl && group.distributed() &&
      (any(&ImplEntry::on_device) || !nccl_link::in_build()))
    if (auto why = nccl_link::unavailable(group))
      return Refusal{"-halo nccl: " + *why + " (-halo mpi sends the planes through host memory)"};
  if (any(&ImplEntry::on_device) || any(&ImplEntry::uses_kokkos)) {  // Kokkos of a GPU build needs the GPU
    select_accelerator(group.local_rank(), group.local_size());      // one GPU per process of a node
    if (auto problem = accelerator_problem())
      return Refusal{*problem + " (this build's GPU implementations cannot run here)", 3};
  }
  std::vector<const ImplEntry*> entries;
  for (const std::string& id : ids) entries.push_back(find_implementation(id));
  const MemoryNeed need =
      estimate_memory(options.params, group.size(), entries, options.check, options.write_output, options.output);
  auto host = host_available_bytes();  // shared by the processes of a node
  if (host) *host /= std::size_t(group.local_size());
  if (auto problem = memory_problem(need, host, any(&ImplEntry::on_device) ? accelerator_memory_bytes() : std::nullopt))
    return Refusal{*problem};
  return std::nullopt;
}

int run(int argc, char* argv[]) {
  using namespace awave;
  const ProcessGroup& group = ProcessGroup::world();
  std::ostream& out = group.rank() == 0 ? std::cout : null_stream;
  std::ostream& err = group.rank() == 0 ? std::cerr : null_stream;
  if (const auto copies = ProcessGroup::launched_as_copies()) {  // before anything is read or written
    // Every copy says it (one line each): a launcher may kill the others as soon as one exits.
    std::cerr << fmt::format(
        "awave: error: started as {} processes by an MPI launcher, but this build has no MPI (its copies would "
        "race for the same files); build a *-mpi preset (host-mpi, cuda-mpi, openmptarget-mpi) to run over MPI\n",
        *copies);
    return 1;
  }
  const bool child = contained_child(argc, argv);  // (its parent says what follows, once)
  for (const std::string& fault : child ? std::vector<std::string>{} : test_faults_set())  // a test's first line
    err << "awave: TEST FAULT PLANTED: " << fault << " (for the test suite; results of this run are not valid)\n";
  const ParsedCommandLine parsed = parse_command_line(argc, argv);
  if (parsed.error) {
    err << "awave: error: " << *parsed.error << kTryHelp;
    return 1;
  }
  Options options = parsed.options;
  if (options.help) {
    out << usage();
    return 0;
  }
  if (options.tune_help) {
    out << tuning_help();
    return 0;
  }
  std::vector<std::string> tuning_notes;
  try {  // every tuning value, from -tune and the environment, before anything runs
    configure_tuning(options.tune, tuning_scopes_in_build(), &tuning_notes);
  } catch (const std::invalid_argument& e) {
    err << "awave: error: " << e.what() << "\n";
    return 1;
  }
  if (!child)
    for (const std::string& note : tuning_notes) err << "awave: note: " << note << "\n";
  // Files awave did not write in this run are read first by a child (app/contained_read.hpp says why).
  if (child && test_fault("READ_CRASH")) std::raise(SIGSEGV);  // (planted: a read that crashes, or hangs)
  if (child && test_fault("READ_HANG")) std::this_thread::sleep_for(std::chrono::hours(1));
  auto relay = [&](const ContainedRead& c) {
    if (c.contained_failure) {
      err << "awave: error: " << c.line << "\n";
      return 1;
    }
    out << c.out;
    err << c.err;
    return c.status;
  };
  if (!options.verify_file.empty())
    return child ? verify_file(options.verify_file, out, err)
                 : relay(read_in_child(argv[0], {"-verify", options.verify_file}, {options.verify_file}));
  if (!options.compare_files.empty())
    return child ? compare_two_files(options.compare_files[0], options.compare_files[1], out, err)
                 : relay(read_in_child(argv[0], {"-compare", options.compare_files[0], options.compare_files[1]},
                                       options.compare_files));
  // A restart's child makes the restart's own reads (apply_restart: the file checked, the chosen state read),
  // so the parent's are the same reads, made only after a child survived them (its verdict is the parent's to
  // give: it reads the same).
  if (child && !options.restart_file.empty()) {
    if (auto problem = apply_restart(options)) {
      err << "awave: error: " << *problem << "\n";
      return 1;
    }
    return 0;
  }
  if (!options.restart_file.empty()) {  // one child for the run (the first process's)
    std::string failure;
    std::error_code ec;  // (a path that cannot be looked at is apply_restart's to refuse, in one line)
    if (group.rank() == 0 && std::filesystem::is_regular_file(options.restart_file, ec)) {
      const ContainedRead c =
          read_in_child(argv[0], std::vector<std::string>(argv + 1, argv + argc), {options.restart_file});
      if (c.contained_failure) failure = c.line;
    }
    failure = group.broadcast(failure, 0);
    if (!failure.empty()) {
      err << "awave: error: restart file " << failure << "\n";
      return 1;
    }
  }
  if (auto problem = apply_restart(options)) {  // reads and checks the file; writes nothing
    err << "awave: error: " << *problem << "\n";
    return 1;
  }
  if (!options.restart_notice.empty()) err << "awave: warning: " << options.restart_notice << "\n";
  std::vector<std::string> ids;
  try {
    ids = selected_implementations(options);
  } catch (const std::exception& e) {
    err << "awave: error: " << e.what() << kTryHelp;
    return 1;
  }
  if (options.list) {
    for (const ImplEntry& e : implementations()) out << fmt::format("{:<22} {}\n", e.id, e.description);
    return 0;
  }
  if (const auto refusal = refuse_before_running(options, ids, group)) {
    err << "awave: error: " << refusal->line << (refusal->with_usage ? kTryHelp : "\n");
    return refusal->status;
  }
  auto any = [&ids](bool ImplEntry::*flag) {
    return std::any_of(ids.begin(), ids.end(),
                       [flag](const std::string& id) { return find_implementation(id)->*flag; });
  };
  // Kokkos starts only for runs that use it, and is finalised after every View is gone.
  std::unique_ptr<KokkosRuntime> kokkos;
  if (any(&ImplEntry::uses_kokkos)) {
    if (const std::string advice = KokkosRuntime::proc_bind_advice(); !advice.empty())
      err << "awave: note: " << advice << "\n";
    kokkos = std::make_unique<KokkosRuntime>(argc, argv);
  }
  try {
    const RunReport report = run_comparison(options, out);
    print_run_table(report, out);
    if (!options.json_path.empty() && group.rank() == 0) write_json(report, options.json_path);
    const Verdict verdict = final_verdict(report);
    out << verdict.line << "\n";
    return verdict.status;
  } catch (const std::exception& e) {  // one line, whatever the library wrote (Kokkos' allocation errors span several)
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    while (!what.empty() && what.back() == ' ') what.pop_back();
    if (group.distributed()) group.abort_with_error(what, 3);  // the others may wait in a collective call
    err << "awave: error: " << what << "\n";
    return 3;
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  if (awave::contained_child(argc, argv)) return run(argc, argv);  // (a file's reader: no MPI, contained_read.hpp)
  awave::ProcessGroup::init(argc, argv);
  const int status = run(argc, argv);
  awave::ProcessGroup::finalize();
  return status;
}
