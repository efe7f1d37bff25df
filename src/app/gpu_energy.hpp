// The energy a GPU drew while an implementation stepped, for joules a site update beside SU/s
// (issue 58 item 6: what a computing centre pays). It reads NVML's total-energy counter
// (millijoules since the driver loaded; Volta and later), not sampled power: the timed chunks
// are 30-100 ms, shorter than the power readings' averaging window. The counter is coarse too, so
// a figure is only worth quoting over a window of a second or more (the log says when it is less).
// NVML is opened at run time (dlopen): builds need no NVML, and a machine without it records none.
#pragma once

#include <cstddef>
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
  // (driver reloaded) makes the whole tally unknown. A counter that did not move is a window of
  // 0 mJ: NVML's coarse counter often reads the same around a chunk of 30-100 ms.
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

// The GPUs' energy over a run's timed chunks, every process's GPU.
struct RunEnergy {
  double joules = 0;
  double seconds = 0;  // the chunks' time it covers (the slowest process's)
};

// The run's energy from each process's tally, through the group's reductions (min, sum and max
// over the processes, as parallel/process_group.hpp has them; a group of one without MPI): every
// process's GPU, or none, since a sum over those that did read theirs passes part off as the whole.
template <class Group>
std::optional<RunEnergy> every_process_energy(const EnergyTally& mine, const Group& group) {
  if (group.min(mine.known() ? 1L : 0L) != 1) return std::nullopt;
  return RunEnergy{double(group.sum(std::size_t(mine.millijoules()))) / 1000.0, group.max(mine.seconds())};
}

}  // namespace awave
