#include "app/gpu_energy.hpp"

#include <dlfcn.h>

namespace awave {

namespace {

// The entry points used, as nvml.h declares them (0 is NVML_SUCCESS); NVML is the driver's
// library, opened once a process and kept open (the counter is read all run).
using NvmlDevice = void*;
struct Nvml {
  int (*by_bus_id)(const char*, NvmlDevice*) = nullptr;     // nvmlDeviceGetHandleByPciBusId_v2
  int (*energy)(NvmlDevice, unsigned long long*) = nullptr;  // nvmlDeviceGetTotalEnergyConsumption
};

std::optional<Nvml> open_nvml() {
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return std::nullopt;
  const auto init = reinterpret_cast<int (*)()>(dlsym(lib, "nvmlInit_v2"));
  Nvml n;
  n.by_bus_id = reinterpret_cast<int (*)(const char*, NvmlDevice*)>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
  n.energy = reinterpret_cast<int (*)(NvmlDevice, unsigned long long*)>(
      dlsym(lib, "nvmlDeviceGetTotalEnergyConsumption"));
  if (!init || !n.by_bus_id || !n.energy || init() != 0) return std::nullopt;
  return n;
}

}  // namespace

GpuEnergyCounter GpuEnergyCounter::of_gpu(const std::optional<std::string>& pci_bus_id) {
  static const std::optional<Nvml> nvml = open_nvml();
  NvmlDevice device = nullptr;
  if (!pci_bus_id || !nvml || nvml->by_bus_id(pci_bus_id->c_str(), &device) != 0) return GpuEnergyCounter();
  return GpuEnergyCounter([energy = nvml->energy, device]() -> std::optional<std::uint64_t> {
    unsigned long long mj = 0;
    if (energy(device, &mj) != 0) return std::nullopt;
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
