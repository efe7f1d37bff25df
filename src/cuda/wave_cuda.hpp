#pragma once

#include "core/wave_impl.hpp"

#include <optional>
#include <string>
#include <vector>

namespace awave {

// Why no CUDA GPU can be used (no device, no driver), or nothing when one can.
std::optional<std::string> cuda_device_problem();
// "NVIDIA H100 80GB HBM3, 79.1 GiB" for the current device.
std::string cuda_device_description();
// Memory of the current device, if it can be queried.
std::optional<std::size_t> cuda_memory_bytes();
// Over MPI, before CUDA starts: narrows CUDA_VISIBLE_DEVICES to `device` (this node's GPU for the
// process, core/backend.hpp), so that the process sees it as device 0 and the CUDA runtime and
// Kokkos both take it.
void cuda_select_device(int local_rank, const std::string& device);
// The current device's PCI bus id ("0000:4E:00.0"), if it can be queried.
std::optional<std::string> cuda_pci_bus_id();

void add_cuda_implementations(std::vector<ImplEntry>& impls);

}  // namespace awave
