// The CPU update loop, compiled into a test twice with different floating-point flags (the
// namespace comes from AWAVE_PROBE_NAMESPACE): what an FMA-capable build of the reference
// computes with those flags. Plain serial loops over the shared formula, like src/cpu/.
#include "core/wave_problem.hpp"
#include "core/wave_update.hpp"

#include <utility>
#include <vector>

namespace AWAVE_PROBE_NAMESPACE {

// Advances the problem's start state `steps` steps; returns the padded `now` field.
std::vector<double> run_reference_loop(const awave::WaveProblem& problem, int steps) {
  const awave::PaddedGeometry g = problem.geometry();
  const double f = problem.f(), dt = problem.params().dt;
  const std::size_t si = g.stride_i(), sj = g.stride_j();
  std::vector<double> prev(g.size()), now(g.size()), next;
  problem.fill_start_state(now.data(), prev.data());
  next = now;
  for (int n = 0; n < steps; ++n) {
    for (int i = 0; i < g.nx; ++i)
      for (int j = 0; j < g.ny; ++j)
        for (int k = 0; k < g.nz; ++k) {
          const std::size_t c = g.index(i + 1, j + 1, k + 1);
          const awave::Stencil7 s{now[c], now[c - si], now[c + si], now[c - sj], now[c + sj], now[c - 1], now[c + 1]};
          next[c] = awave::next_value(s, prev[c], problem.cs2_k()[k], problem.damp(i, j), f, dt);
        }
    std::swap(prev, now);
    std::swap(now, next);
  }
  return now;
}

}  // namespace AWAVE_PROBE_NAMESPACE
