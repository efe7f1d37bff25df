// The one list of Kokkos backends this build has, from the Kokkos installation's own
// configuration macros: registration (register_kokkos.cpp) and the tests walk the same list,
// so nothing names a backend the installed Kokkos may lack.
#pragma once

#include <Kokkos_Core.hpp>

namespace awave {

template <class ExecSpace>
struct KokkosBackend {
  using type = ExecSpace;
  static constexpr bool on_host = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
};

// Calls f(KokkosBackend<ExecSpace>{}, implementation id) for every enabled backend.
template <class F>
void for_each_kokkos_backend(F&& f) {
#if defined(KOKKOS_ENABLE_SERIAL)
  f(KokkosBackend<Kokkos::Serial>{}, "kokkos-serial");
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  f(KokkosBackend<Kokkos::OpenMP>{}, "kokkos-openmp");
#endif
#if defined(KOKKOS_ENABLE_THREADS)
  f(KokkosBackend<Kokkos::Threads>{}, "kokkos-threads");
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  f(KokkosBackend<Kokkos::Cuda>{}, "kokkos-cuda");
#endif
#if defined(KOKKOS_ENABLE_OPENMPTARGET)
  f(KokkosBackend<Kokkos::Experimental::OpenMPTarget>{}, "kokkos-openmptarget");
#endif
}

}  // namespace awave
