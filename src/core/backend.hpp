// What one backend folder (src/cpu, src/cuda, src/omp, src/kokkos) tells the rest of awave about
// itself, once, in its backend.cpp: its implementations, the tuning keys its code reads, and its
// accelerator where it brings one. The build lists the folders it compiles (src/CMakeLists.txt,
// AWAVE_BACKEND_FOLDERS: a backend is its folder and its name there); the registry walks that list
// (app/registry.cpp). The study's tools read the same folder's backend.json (bench/awave_bench/catalog/backends.py).
#pragma once

#include "core/device_traits.hpp"
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
  // Over MPI, before anything touches a device: makes `device` (this node's device local_rank
  // modulo their count, as parallel/process_group.hpp's node_gpus lists them) the process's own,
  // the toolchain's way; may be null.
  void (*select)(int local_rank, const std::string& device);
  std::optional<std::string> (*pci_bus_id)();  // the GPU this process runs on, as NVML finds it (app/gpu_energy.hpp)
  // The properties the plan reads (compute capability, SMs, L2, peak bandwidth), those the
  // toolchain can ask left unknown otherwise; the registry adds the name and memory_bytes above.
  DeviceTraits (*traits)();
};

struct Backend {
  void (*add_implementations)(std::vector<ImplEntry>&);  // in the order the driver runs them
  std::vector<std::string> tuning_scopes;                // TuningKey::used_by values its code reads
  const Accelerator* accelerator = nullptr;
};

}  // namespace awave
