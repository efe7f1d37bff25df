// What a device is, as the plan may ask (core/step_plan.hpp): the properties the build's toolchain
// reads from the device itself (core/backend.hpp, Accelerator::traits; app/registry.cpp,
// accelerator_traits). Its name is carried for the record and decides nothing. A property the
// toolchain cannot ask is left unknown, and the rule that would read it says what it does then.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace awave {

struct DeviceTraits {
  bool accelerator = false;                 // false: the host, where the plan takes the CPU's choices
  std::string name = "none";                // "NVIDIA H200, 139.8 GiB", as -json's "accelerator"; for the record
  std::optional<int> cc_major, cc_minor;    // compute capability (9.0 on the H100 and the H200)
  std::optional<int> multiprocessors;       // streaming multiprocessors (132 on both)
  std::optional<std::size_t> l2_bytes;      // L2 cache (50 MiB on the H100, 60 on the H200)
  std::optional<std::size_t> memory_bytes;  // total device memory
  std::optional<double> peak_bandwidth;     // bytes/s, from the memory clock and bus width (peak_bandwidth_of)
};

// Peak memory bandwidth in bytes/s: two transfers a memory clock (double data rate) over the bus,
// as NVIDIA's deviceQuery and bandwidthTest reckon it: the H100 SXM's 2619 MHz x 5120 bits give
// 3.35e12, the H200's 3134 MHz x 6144 bits 4.81e12 (its attributes on the device machine:
// bench/results/h200-2026-12-02/plan-traits-3cde185). Unknown where either is unknown or not
// positive (a driver that reports 0).
inline std::optional<double> peak_bandwidth_of(std::optional<long> memory_clock_khz,
                                               std::optional<long> bus_width_bits) {
  if (!memory_clock_khz || !bus_width_bits || *memory_clock_khz <= 0 || *bus_width_bits <= 0) return std::nullopt;
  return 2.0 * double(*memory_clock_khz) * 1e3 * double(*bus_width_bits) / 8.0;
}

}  // namespace awave
