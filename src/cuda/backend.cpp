// The hand-written CUDA folder's backend: its implementation and its GPU (wave_cuda.hpp).
#include "core/backend.hpp"
#include "cuda/cuda_device_traits.hpp"
#include "cuda/wave_cuda.hpp"

namespace awave {
namespace {
const Accelerator cuda_gpu{cuda_device_problem, cuda_device_description, cuda_memory_bytes,
                           cuda_select_device,  cuda_pci_bus_id,         cuda_device_traits};
}  // namespace

extern const Backend cuda_backend = {add_cuda_implementations, {"cuda"}, &cuda_gpu};

}  // namespace awave
