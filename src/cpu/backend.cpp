// The CPU folder's backend: the serial reference and the same loop on OpenMP threads (wave_cpu.hpp).
#include "core/backend.hpp"
#include "cpu/wave_cpu.hpp"

#include <memory>
#include <string>

namespace awave {
namespace {

void add_cpu_implementations(std::vector<ImplEntry>& v) {
  v.push_back(entry_of<WaveCpu>("cpu", "serial CPU reference", false, false, "reference", Capabilities{},
                                [](const WaveProblem& problem, const StepPlan& plan) {
                                  return std::make_unique<WaveCpu>(problem, plan, false);
                                }));
  v.push_back(entry_of<WaveCpu>(
      "cpu-openmp",
      "CPU reference on " + std::to_string(WaveCpu::max_threads()) +
          " OpenMP threads; three steps a sweep on large grids (tiles in cache)",
      false, false, "hand-written", Capabilities{false, true, SweepForm::cache_tiles},
      [](const WaveProblem& problem, const StepPlan& plan) { return std::make_unique<WaveCpu>(problem, plan, true); }));
}

}  // namespace

extern const Backend cpu_backend = {add_cpu_implementations, {}};

}  // namespace awave
