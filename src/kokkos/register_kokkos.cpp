// The Kokkos implementations this build carries: one per Kokkos backend enabled in the
// Kokkos installation it was built against.
#include "kokkos/register_kokkos.hpp"

#include "kokkos/kokkos_backends.hpp"
#include "kokkos/wave_kokkos.hpp"

#include <limits>
#include <type_traits>

#if defined(KOKKOS_ENABLE_OPENMPTARGET)
extern "C" bool awave_offload_team_cap_lifted();  // kokkos/offload_team_cap.cpp
#endif

namespace awave {
namespace {

template <class ExecSpace>
ImplEntry kokkos_entry(const std::string& id) {
  const bool on_device = !KokkosBackend<ExecSpace>::on_host;
  using Iteration = KokkosIteration<ExecSpace>;
  const char* kernels = Iteration::k_columns                ? "RangePolicy k-column kernels"
                        : Iteration::march_plane_bytes == 0 ? "one RangePolicy kernel per step, marching i"
                        : Iteration::march_plane_bytes == std::numeric_limits<std::size_t>::max()
                            ? "MDRangePolicy kernels"
                            : "MDRangePolicy kernels; one RangePolicy kernel per step, marching i, on large planes";
  std::string notes = kernels;
#if defined(KOKKOS_ENABLE_OPENMPTARGET)
  if (std::is_same_v<ExecSpace, Kokkos::Experimental::OpenMPTarget> && awave_offload_team_cap_lifted())
    notes += "; clang's 3200-team cap lifted";
#endif
  return {id, "Kokkos " + std::string(ExecSpace::name()) + " backend (" + notes + ")", on_device, true,
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

void add_kokkos_implementations(std::vector<ImplEntry>& impls) {
  for_each_kokkos_backend(
      [&impls](auto tag, const char* id) { impls.push_back(kokkos_entry<typename decltype(tag)::type>(id)); });
}

}  // namespace awave
