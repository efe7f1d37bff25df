// The Kokkos implementations this build carries: one per Kokkos backend enabled in the
// Kokkos installation it was built against.
#include "kokkos/register_kokkos.hpp"

#include "kokkos/wave_kokkos.hpp"

namespace awave {
namespace {

template <class ExecSpace>
ImplEntry kokkos_entry(const std::string& id) {
  const bool on_device = !Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
  return {id, "Kokkos " + std::string(ExecSpace::name()) + " backend (MDRangePolicy kernels)", on_device,
          [id](const WaveProblem& problem) { return std::make_unique<WaveKokkos<ExecSpace>>(problem, id); }};
}

}  // namespace

void add_kokkos_implementations(std::vector<ImplEntry>& impls) {
#if defined(KOKKOS_ENABLE_SERIAL)
  impls.push_back(kokkos_entry<Kokkos::Serial>("kokkos-serial"));
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  impls.push_back(kokkos_entry<Kokkos::OpenMP>("kokkos-openmp"));
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  impls.push_back(kokkos_entry<Kokkos::Cuda>("kokkos-cuda"));
#endif
#if defined(KOKKOS_ENABLE_OPENMPTARGET)
  impls.push_back(kokkos_entry<Kokkos::Experimental::OpenMPTarget>("kokkos-openmptarget"));
#endif
}

}  // namespace awave
