// The hand-written OpenMP offload folder's backend: its implementation and its GPU, the default
// offload device (wave_omp.hpp).
#include "core/backend.hpp"
#include "omp/wave_omp.hpp"

namespace awave {
namespace {
const Accelerator offload_device{omp_device_problem, omp_device_description, omp_device_memory_bytes,
                                 omp_select_device,  omp_device_pci_bus_id,  omp_device_traits};
}  // namespace

extern const Backend omp_backend = {add_omp_implementations, {"omp"}, &offload_device};

}  // namespace awave
