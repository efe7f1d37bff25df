#include "app/gpu_energy.hpp"

#include <dlfcn.h>

namespace awave {

namespace {

// The few entry points used, as NVML (nvml.h) and the CUDA driver (cuda.h) declare them; 0 is
// success in both.
using NvmlDevice = void*;
struct Nvml {
  int (*energy)(NvmlDevice, unsigned long long*) = nullptr;  // nvmlDeviceGetTotalEnergyConsumption
  NvmlDevice device = nullptr;
};

// This process's GPU as the CUDA driver numbers the visible devices: its PCI bus id.
std::optional<std::string> first_visible_gpu_bus_id() {
  void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!cuda) return std::nullopt;
  const auto init = reinterpret_cast<int (*)(unsigned)>(dlsym(cuda, "cuInit"));
  const auto get = reinterpret_cast<int (*)(int*, int)>(dlsym(cuda, "cuDeviceGet"));
  const auto bus_id = reinterpret_cast<int (*)(char*, int, int)>(dlsym(cuda, "cuDeviceGetPCIBusId"));
  std::optional<std::string> found;
  int device = 0;
  char id[64] = {};
  if (init && get && bus_id && init(0) == 0 && get(&device, 0) == 0 && bus_id(id, int(sizeof id) - 1, device) == 0)
    found = id;
  dlclose(cuda);
  return found;
}

std::optional<Nvml> open_nvml() {
  const std::optional<std::string> bus_id = first_visible_gpu_bus_id();
  if (!bus_id) return std::nullopt;
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);  // kept open: the counter is read all run
  if (!lib) return std::nullopt;
  const auto init = reinterpret_cast<int (*)()>(dlsym(lib, "nvmlInit_v2"));
  const auto by_bus = reinterpret_cast<int (*)(const char*, NvmlDevice*)>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
  Nvml n;
  n.energy = reinterpret_cast<int (*)(NvmlDevice, unsigned long long*)>(
      dlsym(lib, "nvmlDeviceGetTotalEnergyConsumption"));
  if (!init || !by_bus || !n.energy || init() != 0 || by_bus(bus_id->c_str(), &n.device) != 0) return std::nullopt;
  return n;
}

}  // namespace

GpuEnergyCounter GpuEnergyCounter::of_this_process_gpu() {
  static const std::optional<Nvml> nvml = open_nvml();
  if (!nvml) return GpuEnergyCounter();
  return GpuEnergyCounter([n = *nvml]() -> std::optional<std::uint64_t> {
    unsigned long long mj = 0;
    if (n.energy(n.device, &mj) != 0) return std::nullopt;
    return std::uint64_t(mj);
  });
}

void EnergyTally::end(double seconds) {
  const std::optional<std::uint64_t> stop = counter_.millijoules();
  if (!start_ || !stop || *stop < *start_) {
    known_ = false;
    return;
  }
  millijoules_ += *stop - *start_;
  seconds_ += seconds;
  ++windows_;
  start_.reset();
}

}  // namespace awave
