// The Kokkos implementations this build carries: both forms (idiomatic, tuned) of every
// Kokkos backend enabled in the Kokkos installation it was built against.
#include "kokkos/register_kokkos.hpp"

#include "core/backend.hpp"

#include "kokkos/kokkos_backends.hpp"
#include "kokkos/wave_kokkos.hpp"

#include <cstdlib>
#include <string>
#include <vector>
#include <type_traits>

#if defined(KOKKOS_ENABLE_OPENMPTARGET)
extern "C" bool awave_offload_team_cap_lifted();  // kokkos/offload_team_cap.cpp
#endif

namespace awave {
namespace {

template <class Policy>
std::string tile_words() {
  const auto t = Policy::tile;
  return t[0] == 0 ? "Kokkos' default tile" : "tile " + std::to_string(t[0]) + "x" + std::to_string(t[1]) + "x" + std::to_string(t[2]);
}

// Both forms of one backend: the idiomatic one as `<id>-mdrange`, the tuned one as `<id>` (the
// id results and scripts have always used).
template <class ExecSpace>
void add_kokkos_forms(std::vector<ImplEntry>& impls, const std::string& id) {
  const bool on_device = !KokkosBackend<ExecSpace>::on_host;
  const std::string backend = "Kokkos " + std::string(ExecSpace::name()) + " backend, ";
  using Idiomatic = IdiomaticPolicy<ExecSpace>;
  const std::string idiomatic = backend + "idiomatic: MDRangePolicy kernels, one point per work item (axes " +
                                (Idiomatic::k_first ? "k,j,i" : "i,j,k") + ", " + tile_words<Idiomatic>() + ")";
  std::string tuned = backend + (TunedPolicy<ExecSpace>::k_columns
                                     ? "tuned: RangePolicy kernels over (i, j) columns, k loop inside"
                                     : "tuned: one RangePolicy kernel per step, marching i (hand-scheduled)");
#if defined(KOKKOS_ENABLE_OPENMPTARGET)
  if (std::is_same_v<ExecSpace, Kokkos::Experimental::OpenMPTarget> && awave_offload_team_cap_lifted())
    tuned += "; clang's 3200-team cap lifted";
#endif
  using Idiomatic_ = WaveKokkos<IdiomaticStep<ExecSpace>>;
  using Tuned = WaveKokkos<TunedStep<ExecSpace>>;
  impls.push_back(entry_of<Idiomatic_>(id + "-mdrange", idiomatic, on_device, true, "kokkos-idiomatic", Idiomatic_::kCan,
                                       [id](const WaveProblem& problem, const StepPlan& plan) {
                                         return std::make_unique<Idiomatic_>(problem, plan, id + "-mdrange");
                                       }));
  if (Tuned::kCan.sweep) tuned += "; three steps a sweep on large grids (TeamPolicy, scratch memory)";
  impls.push_back(entry_of<Tuned>(id, tuned, on_device, true, "kokkos-tuned", Tuned::kCan,
                                  [id](const WaveProblem& problem, const StepPlan& plan) {
                                    return std::make_unique<Tuned>(problem, plan, id);
                                  }));
}

}  // namespace

std::string KokkosRuntime::proc_bind_advice() {
#if defined(KOKKOS_ENABLE_OPENMP)
  if (!std::getenv("OMP_PROC_BIND"))
    return "OMP_PROC_BIND is not set: the host threads are not bound to cores (binding them changed the host "
           "implementations by -23% to +9% on a 16-core Xeon, results/h100-2026-11-25/proc-bind)";
#endif
  return "";
}

KokkosRuntime::KokkosRuntime(int& argc, char* argv[]) {
  std::vector<char*> args(argv, argv + argc);
  static char quiet[] = "--kokkos-disable-warnings";
  if (!proc_bind_advice().empty()) args.push_back(quiet);  // (the caller prints the advice)
  int n = int(args.size());
  args.push_back(nullptr);
  Kokkos::initialize(n, args.data());
}
KokkosRuntime::KokkosRuntime() {
  Kokkos::initialize();
}
KokkosRuntime::~KokkosRuntime() {
  Kokkos::finalize();
}

void add_kokkos_implementations(std::vector<ImplEntry>& impls) {
  for_each_kokkos_backend(
      [&impls](auto tag, const char* id) { add_kokkos_forms<typename decltype(tag)::type>(impls, id); });
}

// The Kokkos folder's backend: both forms on every Kokkos backend the installation has; the
// GPU ones read the kokkos-gpu keys. The GPU itself is the hand-written backend's of the same build.
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_OPENMPTARGET)
extern const Backend kokkos_backend = {add_kokkos_implementations, {"kokkos", "kokkos-gpu"}};
#else
extern const Backend kokkos_backend = {add_kokkos_implementations, {"kokkos"}};
#endif

}  // namespace awave
