// The registry of implementations compiled into this build: it walks the backends the build lists
// (generated/backends.inc, from src/CMakeLists.txt's AWAVE_BACKEND_FOLDERS; core/backend.hpp), the
// CPU reference's first, and knows none of them by name.
#include "app/registry.hpp"

#include "core/backend.hpp"
#include "parallel/nccl_link.hpp"
#include "parallel/process_group.hpp"

#include <algorithm>
#include <stdexcept>

namespace awave {

#define AWAVE_BACKEND(folder) extern const Backend folder##_backend;
#include "backends.inc"
#undef AWAVE_BACKEND

namespace {

// The backends this build compiles, in src/CMakeLists.txt's order (the CPU reference's first).
const std::vector<const Backend*>& backends() {
  static const std::vector<const Backend*> list = [] {
    const std::vector<const Backend*> b = {
#define AWAVE_BACKEND(folder) &folder##_backend,
#include "backends.inc"
#undef AWAVE_BACKEND
    };
    if (std::count_if(b.begin(), b.end(), [](const Backend* x) { return x->accelerator != nullptr; }) > 1)
      throw std::logic_error("two backends of this build bring an accelerator");
    return b;
  }();
  return list;
}

// This build's accelerator, or null.
const Accelerator* accelerator() {
  for (const Backend* b : backends())
    if (b->accelerator) return b->accelerator;
  return nullptr;
}
}  // namespace

const std::vector<ImplEntry>& implementations() {
  static const std::vector<ImplEntry> impls = [] {
    std::vector<ImplEntry> v;
    for (const Backend* b : backends()) b->add_implementations(v);
    if (v.empty() || v.front().id != "cpu")
      throw std::logic_error("the CPU reference must be the first implementation");
    return v;
  }();
  return impls;
}

StepPlan plan_implementation(const ImplEntry& entry, const WaveParams& global, const Slab& slab, bool as_reference) {
  Capabilities can = entry.can;
  if (as_reference) can.sweep = false;
  return plan_steps(global, slab, can, entry.on_device ? accelerator_traits() : DeviceTraits{});
}

std::unique_ptr<WaveImpl> make_implementation(const ImplEntry& entry, const WaveProblem& problem,
                                              const StepPlan& plan) {
  const Slab& s = problem.slab();
  const Slab wanted = with_halo(s, plan.recomputed_halo);
  if (s.halo_lo != wanted.halo_lo || s.halo_hi != wanted.halo_hi)
    throw std::invalid_argument("make_implementation: the problem's slab does not recompute the plan's halo");
  return entry.make(problem, plan);
}

std::unique_ptr<WaveImpl> make_implementation(const ImplEntry& entry, const WaveProblem& problem, bool as_reference) {
  return make_implementation(entry, problem,
                             plan_implementation(entry, problem.global_params(), problem.slab(), as_reference));
}

const ImplEntry* find_implementation(const std::string& id) {
  for (const ImplEntry& e : implementations())
    if (e.id == id) return &e;
  return nullptr;
}

std::vector<std::string> tuning_scopes_in_build() {
  std::vector<std::string> scopes;
  for (const Backend* b : backends())
    for (const std::string& scope : b->tuning_scopes)
      if (std::find(scopes.begin(), scopes.end(), scope) == scopes.end()) scopes.push_back(scope);
  if (nccl_link::in_build()) scopes.push_back("nccl");
#if defined(AWAVE_HAVE_MPI)
  scopes.push_back("mpi");
#endif
  return scopes;
}

std::optional<std::string> accelerator_problem() {
  const Accelerator* a = accelerator();
  return a ? a->problem() : std::nullopt;
}

std::optional<std::string> select_accelerator(int local_rank, int local_size) {
  const Accelerator* a = accelerator();
  // Before anything touches the GPU, through the backend that brings it (core/backend.hpp); a backend
  // that cannot choose (no select) has chosen nothing.
  if (!a || !a->select || local_size <= 1) return std::nullopt;
  const std::vector<std::string>& gpus = node_gpus();
  if (gpus.empty()) return std::nullopt;
  const std::string chosen = gpus[std::size_t(local_rank) % gpus.size()];
  a->select(local_rank, chosen);
  return chosen;
}

std::optional<std::string> accelerator_pci_bus_id() {
  const Accelerator* a = accelerator();
  return a && a->pci_bus_id && !a->problem() ? a->pci_bus_id() : std::nullopt;
}

std::optional<std::size_t> accelerator_memory_bytes() {
  const Accelerator* a = accelerator();
  return a && !a->problem() ? a->memory_bytes() : std::nullopt;
}

std::string accelerator_description() {
  const Accelerator* a = accelerator();
  return a && !a->problem() ? a->description() : "none";
}

DeviceTraits accelerator_traits() {
  const Accelerator* a = accelerator();
  if (!a || a->problem()) return DeviceTraits{};
  DeviceTraits t = a->traits ? a->traits() : DeviceTraits{};
  t.accelerator = true;
  t.name = a->description();
  t.memory_bytes = a->memory_bytes();
  return t;
}

}  // namespace awave
