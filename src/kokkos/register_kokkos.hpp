#pragma once

#include "core/wave_impl.hpp"

#include <vector>

namespace awave {

// Appends one entry per Kokkos backend compiled into this build.
void add_kokkos_implementations(std::vector<ImplEntry>& impls);

}  // namespace awave
