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

template <class ExecSpace>
struct Backend {
  using type = ExecSpace;
};

// The one list of Kokkos backends this build has: f(Backend<ExecSpace>{}, implementation id).
template <class F>
void for_each_backend(F&& f) {
#if defined(KOKKOS_ENABLE_SERIAL)
  f(Backend<Kokkos::Serial>{}, "kokkos-serial");
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  f(Backend<Kokkos::OpenMP>{}, "kokkos-openmp");
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  f(Backend<Kokkos::Cuda>{}, "kokkos-cuda");
#endif
#if defined(KOKKOS_ENABLE_OPENMPTARGET)
  f(Backend<Kokkos::Experimental::OpenMPTarget>{}, "kokkos-openmptarget");
#endif
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
  for_each_backend([&backends](auto tag, const char*) { backends += " " + std::string(decltype(tag)::type::name()); });
  return "Kokkos " + std::to_string(KOKKOS_VERSION / 10000) + "." + std::to_string(KOKKOS_VERSION / 100 % 100) + "." +
         std::to_string(KOKKOS_VERSION % 100) + ":" + backends;
}

void add_kokkos_implementations(std::vector<ImplEntry>& impls) {
  for_each_backend(
      [&impls](auto tag, const char* id) { impls.push_back(kokkos_entry<typename decltype(tag)::type>(id)); });
}

}  // namespace awave
