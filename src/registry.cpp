// The registry of implementations compiled into this build: the CPU reference always, the
// hand-written GPU versions where the build has their toolchain, and one Kokkos version per
// enabled Kokkos backend. This is the only place that knows which exist.
#include "core/wave_impl.hpp"
#include "cpu/wave_cpu.hpp"
#include "kokkos/register_kokkos.hpp"

namespace awave {

const std::vector<ImplEntry>& implementations() {
  static const std::vector<ImplEntry> impls = [] {
    std::vector<ImplEntry> v;
    v.push_back({"cpu", "serial CPU reference", false,
                 [](const WaveProblem& problem) { return std::make_unique<WaveCpu>(problem); }});
    add_kokkos_implementations(v);
    return v;
  }();
  return impls;
}

const ImplEntry* find_implementation(const std::string& id) {
  for (const ImplEntry& e : implementations())
    if (e.id == id) return &e;
  return nullptr;
}

}  // namespace awave
