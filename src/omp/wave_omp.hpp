#pragma once

#include "core/wave_impl.hpp"

#include <optional>
#include <string>
#include <vector>

namespace awave {

// Why no OpenMP offload device can be used, or nothing when one can.
std::optional<std::string> omp_device_problem();

void add_omp_implementations(std::vector<ImplEntry>& impls);

}  // namespace awave
