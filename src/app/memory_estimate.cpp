#include "app/memory_estimate.hpp"

#include "app/registry.hpp"
#include "core/step_plan.hpp"
#include "core/wave_problem.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include <sys/sysinfo.h>

namespace awave {

MemoryNeed estimate_memory(const WaveParams& global, int processes, const std::vector<const ImplEntry*>& impls,
                           bool check, bool write_output, const OutputLayout& layout) {
  MemoryNeed need;
  for (const ImplEntry* entry : impls) {
    const ImplEntry& e = *entry;
    const StepPlan plan = plan_steps(global, slab_of(global.nx(), 0, processes), e.can,
                                     e.on_device ? accelerator_traits() : DeviceTraits{});
    int computed_nx = 0;  // the most planes a process computes (its own and the halo it recomputes)
    for (int rank = 0; rank < processes; ++rank)
      computed_nx =
          std::max(computed_nx, with_halo(slab_of(global.nx(), rank, processes), plan.recomputed_halo).computed_nx());
    const WaveParams params = slab_params(global, computed_nx);
    const std::size_t padded = PaddedGeometry{params.nx(), params.ny(), params.nz()}.size() * sizeof(double);
    const std::size_t interior = params.interior_points() * sizeof(double);
    const std::size_t coefficients =
        (std::size_t(params.nz()) + std::size_t(params.nx()) * params.ny()) * sizeof(double);
    // Output: two pairs of snapshot buffers (one being written while the next is filled; a
    // single-precision snapshot's floats use half of its pair's first buffer); the check, after
    // the output is done: one pair. Snapshots of single-precision u alone are converted in a
    // staging field: of floats on a device (half a padded field), of doubles on the host
    // (WaveImpl::copy_now_to_host_single's default: one padded field; host Kokkos stages floats, less).
    const std::size_t staging = write_output ? 4 * padded : check ? 2 * padded : 0;
    const bool converts = write_output && layout.single_precision && !layout.with_u_prev;
    const std::size_t device_staging = converts ? padded / 2 : 0, host_conversion = converts ? padded : 0;
    // The temporal-blocking sweep writes its two last levels into two fields besides the pair it reads.
    const std::size_t fields = std::size_t(plan.fields());
    std::size_t host = staging;
    if (e.id == "cpu")  // the spec's full coefficient fields
      host += fields * padded + 2 * interior;
    else if (e.on_device)
      host += padded;
    else
      host += fields * padded + coefficients;
    if (!e.on_device) host += host_conversion;
    if (check) host += padded;  // the reference's `now`, kept (and, for the reference, copied)
    if (host > need.host_bytes) {
      need.host_bytes = host;
      need.host_peak_by = e.id;
    }
    if (e.on_device) need.device_bytes = std::max(need.device_bytes, fields * padded + coefficients + device_staging);
  }
  return need;
}

std::optional<std::size_t> host_available_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);) {
    std::istringstream in(line);
    std::string key;
    std::size_t kib = 0;
    if (in >> key >> kib && key == "MemAvailable:") return kib * 1024;
  }
  // No /proc (a chroot, say): the kernel's free and buffer memory, a lower bound.
  struct sysinfo info {};
  if (sysinfo(&info) == 0) return (std::size_t(info.freeram) + std::size_t(info.bufferram)) * info.mem_unit;
  return std::nullopt;
}

std::optional<std::string> memory_problem(const MemoryNeed& need, std::optional<std::size_t> host_available,
                                          std::optional<std::size_t> device_available) {
  const auto gib = [](std::size_t bytes) { return double(bytes) / double(1ull << 30); };
  if (host_available && need.host_bytes > *host_available)
    return fmt::format(
        "this run needs about {:.1f} GiB of host memory (peak while {} runs), but {:.1f} GiB are "
        "available",
        gib(need.host_bytes), need.host_peak_by, gib(*host_available));
  if (device_available && need.device_bytes > *device_available)
    return fmt::format("this run needs about {:.1f} GiB of GPU memory, but the GPU has {:.1f} GiB",
                       gib(need.device_bytes), gib(*device_available));
  return std::nullopt;
}

}  // namespace awave
