// What one backend folder (src/cpu, src/cuda, src/omp, src/kokkos) tells the rest of awave about
// itself, once, in its backend.cpp: its implementations, the tuning keys its code reads, and its
// accelerator where it brings one. The build lists the folders it compiles (src/CMakeLists.txt,
// AWAVE_BACKEND_FOLDERS: a backend is its folder and its name there); the registry walks that list
// (app/registry.cpp). The study's tools read the same folder's backend.json (bench/backends.py).
#pragma once

#include "core/wave_impl.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace awave {

// A GPU (at most one backend of a build brings one). Checked before any implementation starts.
struct Accelerator {
  std::optional<std::string> (*problem)();       // why it cannot be used (no device, no driver), or nothing
  std::string (*description)();                  // "NVIDIA H100 80GB HBM3, 79.1 GiB"
  std::optional<std::size_t> (*memory_bytes)();  // total memory, where it can be asked
  void (*select)(int local_rank);                // over MPI, after CUDA_VISIBLE_DEVICES is narrowed; may be null
  std::optional<std::string> (*pci_bus_id)();    // the GPU this process runs on, as NVML finds it (app/gpu_energy.hpp)
};

struct Backend {
  void (*add_implementations)(std::vector<ImplEntry>&);  // in the order the driver runs them
  std::vector<std::string> tuning_scopes;                // TuningKey::used_by values its code reads
  const Accelerator* accelerator = nullptr;
};

}  // namespace awave
