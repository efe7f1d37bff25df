// The Kokkos implementations this build carries: one per Kokkos backend enabled in the
// Kokkos installation it was built against.
#include "kokkos/register_kokkos.hpp"

#include "kokkos/wave_kokkos.hpp"

namespace awave {
namespace {

template <class ExecSpace>
ImplEntry kokkos_entry(const std::string& id) {
  const bool on_device = !Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
  return {id, "Kokkos " + std::string(ExecSpace::name()) + " backend (MDRangePolicy kernels)", on_device, true,
          [id](const WaveProblem& problem) { return std::make_unique<WaveKokkos<ExecSpace>>(problem, id); }};
}

}  // namespace

KokkosRuntime::KokkosRuntime(int& argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
}
KokkosRuntime::KokkosRuntime() {
  Kokkos::initialize();
}
KokkosRuntime::~KokkosRuntime() {
  Kokkos::finalize();
}

std::string kokkos_configuration() {
  std::string backends;
#if defined(KOKKOS_ENABLE_SERIAL)
  backends += " Serial";
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  backends += " OpenMP";
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  backends += " Cuda";
#endif
#if defined(KOKKOS_ENABLE_OPENMPTARGET)
  backends += " OpenMPTarget";
#endif
  return "Kokkos " + std::to_string(KOKKOS_VERSION / 10000) + "." + std::to_string(KOKKOS_VERSION / 100 % 100) + "." +
         std::to_string(KOKKOS_VERSION % 100) + ":" + backends;
}

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
