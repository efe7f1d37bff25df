// The Kokkos implementations this build carries: one per Kokkos backend enabled in the
// Kokkos installation it was built against.
#include "kokkos/register_kokkos.hpp"

#include "kokkos/kokkos_backends.hpp"
#include "kokkos/wave_kokkos.hpp"

#include <limits>

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
  return {id, "Kokkos " + std::string(ExecSpace::name()) + " backend (" + kernels + ")", on_device, true,
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
