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
  // Where OMP_PROC_BIND is unset, Kokkos' OpenMP backend opens a run with four lines of warning
  // that setting it then could not act on (the OpenMP runtime reads it when it loads), though
  // binding is no lever on the machines measured (results/h100-2026-11-25/proc-bind): its warnings
  // are then off, and the one line this returns is for the caller to print.
  static std::string proc_bind_advice();
  ~KokkosRuntime();
  KokkosRuntime(const KokkosRuntime&) = delete;
  KokkosRuntime& operator=(const KokkosRuntime&) = delete;
};

}  // namespace awave
