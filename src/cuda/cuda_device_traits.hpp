// The current CUDA device's properties for the step plan (core/device_traits.hpp), each asked of
// the CUDA runtime; one it cannot give stays unknown. Header-only, so that programs linking only
// awave_core and the CUDA runtime (bench/'s sweep studies) plan as awave does.
#pragma once

#include "core/device_traits.hpp"

#include <cuda_runtime.h>

#include <optional>

namespace awave {

inline DeviceTraits cuda_device_traits() {
  // Attributes, not cudaDeviceProp: CUDA 13 dropped its memoryClockRate; neither creates a context.
  DeviceTraits t;
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) return t;
  t.accelerator = true;
  auto attribute = [device](cudaDeviceAttr a) -> std::optional<int> {
    int v = 0;
    return cudaDeviceGetAttribute(&v, a, device) == cudaSuccess ? std::optional<int>(v) : std::nullopt;
  };
  t.cc_major = attribute(cudaDevAttrComputeCapabilityMajor);
  t.cc_minor = attribute(cudaDevAttrComputeCapabilityMinor);
  t.multiprocessors = attribute(cudaDevAttrMultiProcessorCount);
  if (const std::optional<int> l2 = attribute(cudaDevAttrL2CacheSize)) t.l2_bytes = std::size_t(*l2);
  t.peak_bandwidth =
      peak_bandwidth_of(attribute(cudaDevAttrMemoryClockRate), attribute(cudaDevAttrGlobalMemoryBusWidth));
  return t;
}

}  // namespace awave
