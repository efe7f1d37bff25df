// The registry of implementations compiled into this build: the CPU reference always, the
// hand-written GPU version where the build has its toolchain (AWAVE_HAVE_CUDA,
// AWAVE_HAVE_OMP_OFFLOAD), and one Kokkos version per enabled Kokkos backend. This is the only
// place that knows which exist.
#include "app/registry.hpp"

#include <cstdlib>
#include <stdexcept>

#include "cpu/wave_cpu.hpp"
#include "kokkos/register_kokkos.hpp"
#include "parallel/nccl_link.hpp"
#include "parallel/process_group.hpp"
#if defined(AWAVE_HAVE_CUDA)
#include "cuda/wave_cuda.hpp"
#endif
#if defined(AWAVE_HAVE_OMP_OFFLOAD)
#include "omp/wave_omp.hpp"
#endif

namespace awave {

const std::vector<ImplEntry>& implementations() {
  static const std::vector<ImplEntry> impls = [] {
    std::vector<ImplEntry> v;
    v.push_back(entry_of<WaveCpu>("cpu", "serial CPU reference", false, false, "reference", Capabilities{},
                                  [](const WaveProblem& problem, const StepPlan& plan) {
                                    return std::make_unique<WaveCpu>(problem, plan, false);
                                  }));
    v.push_back(entry_of<WaveCpu>("cpu-openmp",
                                  "CPU reference on " + std::to_string(WaveCpu::max_threads()) +
                                      " OpenMP threads; three steps a sweep on large grids (tiles in cache)",
                                  false, false, "hand-written", Capabilities{false, true, SweepForm::cache_tiles},
                                  [](const WaveProblem& problem, const StepPlan& plan) {
                                    return std::make_unique<WaveCpu>(problem, plan, true);
                                  }));
#if defined(AWAVE_HAVE_CUDA)
    add_cuda_implementations(v);
#endif
#if defined(AWAVE_HAVE_OMP_OFFLOAD)
    add_omp_implementations(v);
#endif
    add_kokkos_implementations(v);
    return v;
  }();
  return impls;
}

StepPlan plan_implementation(const ImplEntry& entry, const WaveParams& global, const Slab& slab, bool as_reference) {
  Capabilities can = entry.can;
  if (as_reference) can.sweep = false;
  return plan_steps(global, slab, can, entry.on_device ? accelerator_description() : "none");
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
  std::vector<std::string> scopes{"kokkos"};
#if defined(AWAVE_HAVE_CUDA)
  scopes.insert(scopes.end(), {"cuda", "kokkos-gpu"});
#endif
#if defined(AWAVE_HAVE_OMP_OFFLOAD)
  scopes.insert(scopes.end(), {"omp", "kokkos-gpu"});
#endif
  if (nccl_link::in_build()) scopes.push_back("nccl");
  return scopes;
}

std::optional<std::string> accelerator_problem() {
#if defined(AWAVE_HAVE_CUDA)
  return cuda_device_problem();
#elif defined(AWAVE_HAVE_OMP_OFFLOAD)
  return omp_device_problem();
#else
  return std::nullopt;
#endif
}

std::optional<std::string> select_accelerator(int local_rank, int local_size) {
#if defined(AWAVE_HAVE_CUDA) || defined(AWAVE_HAVE_OMP_OFFLOAD)
  if (local_size <= 1) return std::nullopt;
  // Through CUDA_VISIBLE_DEVICES, before anything touches the GPU: the process then sees its
  // GPU as device 0, and the CUDA runtime, Kokkos and libomptarget's CUDA plugin all take it.
  const std::vector<std::string>& gpus = node_gpus();
  if (gpus.empty()) return std::nullopt;
  const std::string chosen = gpus[std::size_t(local_rank) % gpus.size()];
  setenv("CUDA_VISIBLE_DEVICES", chosen.c_str(), 1);
#if defined(AWAVE_HAVE_OMP_OFFLOAD)
  // libomptarget has enumerated the GPUs before main (measured: with CUDA_VISIBLE_DEVICES
  // alone, two processes shared GPU 0 at half speed each): choose its default device too.
  omp_select_device(local_rank);
#endif
  return chosen;
#else
  (void)local_rank, (void)local_size;
  return std::nullopt;
#endif
}

std::optional<std::size_t> accelerator_memory_bytes() {
#if defined(AWAVE_HAVE_CUDA)
  return cuda_device_problem() ? std::nullopt : cuda_memory_bytes();
#elif defined(AWAVE_HAVE_OMP_OFFLOAD)
  return omp_device_problem() ? std::nullopt : omp_device_memory_bytes();
#else
  return std::nullopt;
#endif
}

std::string accelerator_description() {
#if defined(AWAVE_HAVE_CUDA)
  return cuda_device_problem() ? "none" : cuda_device_description();
#elif defined(AWAVE_HAVE_OMP_OFFLOAD)
  return omp_device_problem() ? "none" : omp_device_description();
#else
  return "none";
#endif
}

}  // namespace awave
