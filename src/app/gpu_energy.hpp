// The energy a GPU drew while an implementation stepped, for joules a site update beside SU/s
// (issue 58 item 6: what a computing centre pays). It reads NVML's total-energy counter
// (millijoules since the driver loaded; Volta and later), not sampled power: the timed chunks
// are 30-100 ms, shorter than the power readings' averaging window. The counter is coarse too, so
// a figure is only worth quoting over a window of a second or more (the log says when it is less).
// NVML is opened at run time (dlopen): builds need no NVML, and a machine without it records none.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>

namespace awave {

class GpuEnergyCounter {
 public:
  // Millijoules so far, or none (no NVML, no GPU, a failed read).
  using Reader = std::function<std::optional<std::uint64_t>()>;

  // NVML's counter of the GPU with that PCI bus id (the accelerator's: app/registry.hpp, which
  // knows the device this process runs on, also over MPI); an empty counter where there is none.
  static GpuEnergyCounter of_gpu(const std::optional<std::string>& pci_bus_id);
  explicit GpuEnergyCounter(Reader reader = {}) : reader_(std::move(reader)) {}

  std::optional<std::uint64_t> millijoules() const { return reader_ ? reader_() : std::nullopt; }

 private:
  Reader reader_;
};

// Energy summed over the windows a counter was read around (the timed chunks).
class EnergyTally {
 public:
  explicit EnergyTally(GpuEnergyCounter counter) : counter_(std::move(counter)) {}
  void begin() { start_ = counter_.millijoules(); }
  // Adds the window since begin() (of `seconds`); a failed read or a counter that went backwards
  // (driver reloaded) makes the whole tally unknown.
  void end(double seconds);
  bool known() const { return known_ && windows_ > 0; }
  std::uint64_t millijoules() const { return millijoules_; }
  double seconds() const { return seconds_; }

 private:
  GpuEnergyCounter counter_;
  std::optional<std::uint64_t> start_;
  std::uint64_t millijoules_ = 0;
  double seconds_ = 0;
  int windows_ = 0;
  bool known_ = true;
};

}  // namespace awave
