#pragma once

#include "core/wave_impl.hpp"

#include <string>
#include <vector>

namespace awave {

// Appends one entry per Kokkos backend compiled into this build.
void add_kokkos_implementations(std::vector<ImplEntry>& impls);

// Kokkos initialised for its lifetime (finalised after every View is gone). Only the files
// in src/kokkos/ see Kokkos headers and flags (the offload ones in particular).
class KokkosRuntime {
 public:
  KokkosRuntime(int& argc, char* argv[]);
  KokkosRuntime();
  ~KokkosRuntime();
  KokkosRuntime(const KokkosRuntime&) = delete;
  KokkosRuntime& operator=(const KokkosRuntime&) = delete;
};

}  // namespace awave
