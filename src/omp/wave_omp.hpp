#pragma once

#include "core/device_traits.hpp"
#include "core/wave_impl.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace awave {

// Why no OpenMP offload device can be used, or nothing when one can.
std::optional<std::string> omp_device_problem();
// Over MPI, before any offload: narrows CUDA_VISIBLE_DEVICES to `device` (this node's GPU for the
// process, core/backend.hpp) and makes GPU `local_rank` modulo the offload devices the default
// device (hand-written OpenMP and Kokkos' OpenMPTarget both offload to the default device).
void omp_select_device(int local_rank, const std::string& device);

// Total memory of the default offload device where it is an NVIDIA GPU (asked of the CUDA driver,
// loaded at run time: the build links no CUDA library); nothing where that cannot be asked.
std::optional<std::size_t> omp_device_memory_bytes();
// The default offload device in words, as cuda_device_description() ("NVIDIA H200, 139.8 GiB"),
// where the CUDA driver can be asked; "OpenMP offload device" otherwise.
std::string omp_device_description();
// The default offload device's PCI bus id, asked of the CUDA driver likewise.
std::optional<std::string> omp_device_pci_bus_id();
// The default offload device's properties for the plan (core/device_traits.hpp), asked of the CUDA
// driver likewise; all unknown where it cannot be asked (then the plan takes its choices for a GPU
// whose bandwidth is unknown).
DeviceTraits omp_device_traits();

void add_omp_implementations(std::vector<ImplEntry>& impls);

}  // namespace awave
