// The registry of this build's implementations and its accelerator, from the backends the build
// lists (core/backend.hpp), and the GPU checks made before any of them starts.
#pragma once

#include "core/device_traits.hpp"
#include "core/wave_impl.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace awave {

// The implementations compiled into this build, in the order the driver runs them; the
// CPU reference ("cpu") is always first.
const std::vector<ImplEntry>& implementations();
const ImplEntry* find_implementation(const std::string& id);
// Plans how the implementation takes its steps on this process's slab of the grid `global`
// (core/step_plan.hpp, plan_steps: the only place that decides). The reference of a checked run
// takes single steps, as the spec writes them (cpu-openmp can sweep).
StepPlan plan_implementation(const ImplEntry& entry, const WaveParams& global, const Slab& slab,
                             bool as_reference = false);
// Makes it with `plan` on `problem`, whose slab must recompute the plan's halo
// (with_halo(slab, plan.recomputed_halo)); throws std::invalid_argument where it does not.
std::unique_ptr<WaveImpl> make_implementation(const ImplEntry& entry, const WaveProblem& problem, const StepPlan& plan);
// Both, where the problem is the whole grid or a slab of single steps (the tests).
std::unique_ptr<WaveImpl> make_implementation(const ImplEntry& entry, const WaveProblem& problem,
                                              bool as_reference = false);

// Why this build's accelerator cannot be used (no GPU, no driver), or nothing when it can
// or the build has none. Checked before any device implementation or Kokkos starts, so a
// GPU build never quietly runs on the host.
std::optional<std::string> accelerator_problem();
// What this build's tuning keys may apply to (core/tuning.hpp, TuningKey::used_by).
std::vector<std::string> tuning_scopes_in_build();
// The accelerator in words ("NVIDIA H100 80GB HBM3, 79.1 GiB"), or "none".
std::string accelerator_description();
// What the accelerator is, as the plan reads it (core/device_traits.hpp): DeviceTraits{} (no
// accelerator) where the build has none or it cannot be used.
DeviceTraits accelerator_traits();
// Over MPI, gives each process of a node its own GPU (local_rank modulo the GPUs), before any
// device code or Kokkos starts; returns the GPU's id, or nothing where nothing was chosen.
std::optional<std::string> select_accelerator(int local_rank, int local_size);
// Total memory of the accelerator, where the build can ask (CUDA; OpenMP offload on an NVIDIA
// GPU); nothing otherwise.
std::optional<std::size_t> accelerator_memory_bytes();
// The PCI bus id of the accelerator this process runs on, where the build can ask; nothing otherwise.
std::optional<std::string> accelerator_pci_bus_id();

}  // namespace awave
