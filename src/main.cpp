// awave: 3D acoustic wave solver, CPU reference vs the parallel implementations in this build.
// Exit status: 0 all checks pass, 1 bad input, 2 an implementation differs from the reference
// or produced a NaN/Inf, 3 a run-time failure (I/O, device).
#include "core/cli.hpp"
#include "core/driver.hpp"
#include "core/memory_estimate.hpp"
#include "core/restart.hpp"
#include "core/wave_impl.hpp"
#include "kokkos/register_kokkos.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>

int main(int argc, char* argv[]) {
  using namespace awave;
  const ParsedCommandLine parsed = parse_command_line(argc, argv);
  if (parsed.error) {
    std::cerr << "awave: error: " << *parsed.error << "\n" << usage();
    return 1;
  }
  Options options = parsed.options;
  if (options.help) {
    std::cout << usage();
    return 0;
  }
  if (auto problem = apply_restart(options)) {  // reads and checks the file; writes nothing
    std::cerr << "awave: error: " << *problem << "\n";
    return 1;
  }
  std::vector<std::string> ids;
  try {
    ids = selected_implementations(options);
  } catch (const std::exception& e) {
    std::cerr << "awave: error: " << e.what() << "\n" << usage();
    return 1;
  }
  if (options.list) {
    for (const ImplEntry& e : implementations()) std::cout << fmt::format("{:<22} {}\n", e.id, e.description);
    return 0;
  }
  if (auto problem = check_output_locations(options, ids)) {
    std::cerr << "awave: error: " << *problem << "\n" << usage();
    return 1;
  }

  auto any = [&ids](bool ImplEntry::*flag) {
    return std::any_of(ids.begin(), ids.end(),
                       [flag](const std::string& id) { return find_implementation(id)->*flag; });
  };
  if (any(&ImplEntry::on_device) || any(&ImplEntry::uses_kokkos)) {  // Kokkos of a GPU build needs the GPU
    if (auto problem = accelerator_problem()) {
      std::cerr << "awave: error: " << *problem << " (this build's GPU implementations cannot run here)\n";
      return 3;
    }
  }
  // Refuse, before allocating anything, a run that cannot fit.
  {
    std::vector<const ImplEntry*> entries;
    for (const std::string& id : ids) entries.push_back(find_implementation(id));
    const MemoryNeed need = estimate_memory(options.params, entries, options.check, options.write_output);
    const bool on_device = any(&ImplEntry::on_device);
    if (auto problem =
            memory_problem(need, host_available_bytes(), on_device ? accelerator_memory_bytes() : std::nullopt)) {
      std::cerr << "awave: error: " << *problem << "\n";
      return 1;
    }
  }
  // Kokkos starts only for runs that use it, and is finalised after every View is gone.
  std::unique_ptr<KokkosRuntime> kokkos;
  if (any(&ImplEntry::uses_kokkos)) kokkos = std::make_unique<KokkosRuntime>(argc, argv);
  try {
    const RunReport report = run_comparison(options, std::cout);
    if (!options.json_path.empty()) write_json(report, options.json_path);
    if (!report.all_passed() && !options.check) {
      std::cout << "FAIL: a non-finite value (NaN or Inf) in u\n";
      return 2;
    }
    if (!options.check) {
      std::cout << "UNCHECKED: -no_check ran no CPU reference\n";
      return 0;
    }
    std::cout << (report.all_passed() ? "PASS: every implementation matches the CPU reference\n"
                                      : "FAIL: an implementation differs from the CPU reference (or gave NaN/Inf)\n");
    return report.all_passed() ? 0 : 2;
  } catch (const std::exception& e) {  // one line, whatever the library wrote (Kokkos' allocation errors span several)
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    while (!what.empty() && what.back() == ' ') what.pop_back();
    std::cerr << "awave: error: " << what << "\n";
    return 3;
  }
}
