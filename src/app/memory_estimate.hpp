// Memory a run needs, estimated before anything is allocated, so that a grid that cannot fit
// is refused with numbers instead of ending in std::bad_alloc halfway through.
#pragma once

#include "app/cli.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace awave {

struct ImplEntry;

struct MemoryNeed {
  std::size_t host_bytes = 0;    // peak, implementations running one after the other
  std::size_t device_bytes = 0;  // peak on the accelerator
  std::string host_peak_by;      // the implementation at the host peak
};

// Fields per implementation: the CPU reference holds 3 padded u fields and 2 full coefficient
// fields; a host Kokkos backend 3 padded fields; a device implementation 3 padded fields on the
// device and one on the host while it sets up. Copying u back (output, check) stages 2 padded
// fields on the host, and a checked run keeps the reference's `now` for the others; snapshots
// of single-precision u alone add the conversion's staging: half a padded field on a device, one
// on the host for a host implementation. An implementation with the temporal-blocking sweep holds
// a fourth field where its plan sweeps (core/step_plan.hpp, plan_steps), and over MPI the
// neighbours' planes it recomputes. `processes`: the processes `global` is shared by, in slabs.
MemoryNeed estimate_memory(const WaveParams& global, int processes, const std::vector<const ImplEntry*>& impls,
                           bool check, bool write_output, const OutputLayout& layout = {});

// MemAvailable of /proc/meminfo, else (no /proc) free plus buffer memory from sysinfo(2).
std::optional<std::size_t> host_available_bytes();

// A one-line refusal when the estimate exceeds what is available (the host's available memory,
// and the device's memory when it is known), else nothing.
std::optional<std::string> memory_problem(const MemoryNeed& need, std::optional<std::size_t> host_available,
                                          std::optional<std::size_t> device_available);

}  // namespace awave
