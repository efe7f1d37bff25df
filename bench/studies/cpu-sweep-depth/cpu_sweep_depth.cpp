// awave-cpu-depth (host build): the CPU sweep of more than three steps (issue 57 item 3). The
// product's cache sweep (core/cache_sweep.hpp, cache_sweep_tile<S>) at S = 3 and at deeper S, on
// the same tiles and threads as cpu-openmp's, each run from the start state for STEPS steps (a
// multiple of every depth), checked bitwise against the S = 3 run (the product's, bitwise the
// reference's in the tests) on every padded point of u(t) and u(t-1), and timed. Why: on the
// Xeons the sweep scales with threads as the triad does (results/h100-2026-11-27/cpu-threads-8f9e458),
// so fewer bytes an update (more steps a tile) is the lever left; its cost is the halo each level
// recomputes (2 (S - s) rows of level s) and a larger buffer.
//   awave-cpu-depth NXxNYxNZ [STEPS] [DEPTHS] [ROWS] [ROUNDS]
//     DEPTHS: e.g. 3,4,6 (2-8); "planted" runs S = 3 with one ulp changed, which the check must
//     catch. ROWS: rows a tile, e.g. 32,16 (0: CacheSweep::default_rows). ROUNDS: each round runs
//     every (depth, rows) once, in order (interleaved).
// One JSON object a run on stdout. Exit 0 where every depth is bitwise and every planted run was
// caught; 1 otherwise; 2 on bad arguments.
#include "build_info.hpp"
#include "core/approx_equal.hpp"
#include "core/cache_sweep.hpp"
#include "core/host_field.hpp"
#include "core/wave_params.hpp"
#include "core/wave_problem.hpp"
#include "git_commit.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace awave;

namespace {

constexpr int kPlanted = -3;  // a depth id: S = 3, then one ulp off

bool parse_list(const char* text, std::vector<int>& out, bool depths) {
  std::string s(text);
  std::size_t at = 0;
  while (at <= s.size()) {
    const std::size_t end = std::min(s.find(',', at), s.size());
    const std::string item = s.substr(at, end - at);
    if (depths && item == "planted") {
      out.push_back(kPlanted);
    } else {
      char* stop = nullptr;
      const long v = std::strtol(item.c_str(), &stop, 10);
      if (item.empty() || *stop != '\0' || v < (depths ? 2 : 0) || v > (depths ? 8 : 4096)) return false;
      out.push_back(int(v));
    }
    at = end + 1;
  }
  return !out.empty();
}

struct Fields {
  std::vector<double> u[4];  // prev, now, next, spare
};

template <int S>
void sweep_once(const WaveProblem& problem, Fields& f, int& prev, int& now, int& next, int& spare,
                const CacheSweep& shape, std::vector<std::vector<double>>& buffers) {
  const PaddedGeometry g = problem.geometry();
  const SweepFields a =
      sweep_fields(problem, f.u[next].data(), f.u[spare].data(), f.u[now].data(), f.u[prev].data(),
                   problem.cs2_k().data(), problem.damp_ij().data(), long(g.stride_i()), long(g.stride_j()));
  const std::size_t doubles = shape.buffer_doubles(g.nz, S);
#pragma omp parallel
  {
    std::vector<double>& mine = buffers[std::size_t(omp_get_thread_num())];
    if (mine.size() != doubles) mine.assign(doubles, 0.0);
#pragma omp for schedule(static)
    for (int t = 0; t < shape.tiles(); ++t)
      cache_sweep_tile<S>(a, shape, t % shape.tiles_j, t / shape.tiles_j, mine.data());
  }
  // u(t+S-1) in next, u(t+S) in spare: they are the new prev and now (TimeRing::advance_by_sweep).
  const int old_prev = prev, old_now = now;
  prev = next;
  now = spare;
  next = old_prev;
  spare = old_now;
}

template <int S>
void run_depth(const WaveProblem& problem, Fields& f, int steps, const CacheSweep& shape,
               std::vector<std::vector<double>>& buffers, int& prev, int& now) {
  int next = 2, spare = 3;
  for (int done = 0; done < steps; done += S) sweep_once<S>(problem, f, prev, now, next, spare, shape, buffers);
}

// Runs `depth` for `steps` steps from the start state into f; returns the seconds the sweeps took.
double run(const WaveProblem& problem, Fields& f, int depth, int steps, const CacheSweep& shape,
           std::vector<std::vector<double>>& buffers, int& prev, int& now) {
  const std::size_t n = problem.geometry().size();
  problem.fill_start_state(f.u[1].data(), f.u[0].data());
  for (int l : {2, 3}) copy_in_parallel(f.u[1].data(), n, f.u[l].data());  // ghost points as now's
  prev = 0;
  now = 1;
  const auto t0 = std::chrono::steady_clock::now();
  using Run =
      void (*)(const WaveProblem&, Fields&, int, const CacheSweep&, std::vector<std::vector<double>>&, int&, int&);
  static constexpr Run kRuns[] = {nullptr,      nullptr,      run_depth<2>, run_depth<3>, run_depth<4>,
                                  run_depth<5>, run_depth<6>, run_depth<7>, run_depth<8>};  // by depth, 2-8
  kRuns[depth == kPlanted ? 3 : depth](problem, f, steps, shape, buffers, prev, now);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (depth == kPlanted) {  // one interior point of u(t) one ulp off
    const PaddedGeometry g = problem.geometry();
    double& v = f.u[now][g.index(g.nx / 2 + 1, g.ny / 3 + 1, g.nz / 2 + 1)];
    v = std::nextafter(v, 1e300);
  }
  return seconds;
}

std::size_t differing(const std::vector<double>& a, const std::vector<double>& b) {
  return compare_fields(a.data(), b.data(), a.size()).bitwise_differences;
}

}  // namespace

int main(int argc, char** argv) {
  int nx = 0, ny = 0, nz = 0;
  std::vector<int> depths, rows_list;
  auto count = [&](int at, int fallback) {  // a whole number, or -1 (refused below)
    if (argc <= at) return fallback;
    char* stop = nullptr;
    const long v = std::strtol(argv[at], &stop, 10);
    return *argv[at] != '\0' && *stop == '\0' && v > 0 && v <= 100000 ? int(v) : -1;
  };
  const int steps = count(2, 24), rounds = count(5, 3);
  char tail = '\0';
  if (argc < 2 || argc > 6 || std::sscanf(argv[1], "%dx%dx%d%c", &nx, &ny, &nz, &tail) != 3 || nx < 3 || ny < 3 ||
      nz < 3 || steps < 1 || rounds < 1 || !parse_list(argc > 3 ? argv[3] : "3,4,6", depths, true) ||
      !parse_list(argc > 4 ? argv[4] : "0", rows_list, false)) {
    std::fprintf(stderr,
                 "usage: awave-cpu-depth NXxNYxNZ [STEPS] [DEPTHS] [ROWS] [ROUNDS]  (each axis >= 3; depths 2-8 "
                 "or planted; rows 0-4096, 0 the product's default)\n");
    return 2;
  }
  for (int d : depths)
    if (steps % (d == kPlanted ? 3 : d) != 0) {
      std::fprintf(stderr, "awave-cpu-depth: STEPS (%d) must be a multiple of every depth (%d)\n", steps, d);
      return 2;
    }
  WaveParams p;
  p.shape = {nx, ny, nz};
  p.nsteps = steps;
  const WaveProblem problem(p);
  const std::size_t n = problem.geometry().size();
  const int threads = omp_get_max_threads();
  std::vector<std::vector<double>> buffers(static_cast<std::size_t>(threads));
  Fields f, reference;
  for (auto* fs : {&f, &reference})
    for (auto& u : fs->u) u.resize(n);
  int ref_prev = 0, ref_now = 1;
  {  // the reference: the product's sweep (S = 3) on the product's tiles
    const CacheSweep product = CacheSweep::from_tuning(nx, ny, nz, threads);
    run(problem, reference, 3, steps, product, buffers, ref_prev, ref_now);
  }
  bool ok = true;
  const double points = double(nx) * ny * nz;
  for (int r = 1; r <= rounds; ++r)
    for (int depth : depths)
      for (int rows : rows_list) {
        const int s = depth == kPlanted ? 3 : depth;
        const CacheSweep shape = CacheSweep::make(
            nx, ny, rows > 0 ? rows : CacheSweep::default_rows(nz, CacheSweep::l2_bytes()), 0, threads);
        int prev = 0, now = 1;
        const double seconds = run(problem, f, depth, steps, shape, buffers, prev, now);
        const std::size_t diff =
            differing(f.u[now], reference.u[ref_now]) + differing(f.u[prev], reference.u[ref_prev]);
        const bool planted = depth == kPlanted;
        if (planted ? diff == 0 : diff != 0) ok = false;
        std::printf(
            "{\"shape\": [%d, %d, %d], \"steps\": %d, \"depth\": %d, \"planted\": %s, \"rows\": %d, "
            "\"default_rows\": %s, "
            "\"tiles\": %d, \"threads\": %d, \"round\": %d, \"seconds\": %.6f, \"su_per_s\": %.6e, "
            "\"buffer_mb\": %.3f, \"differing_points\": %zu, \"bitwise\": %s, \"git_commit\": \"%s\", "
            "\"compiler\": \"%s\"}\n",
            nx, ny, nz, steps, s, planted ? "true" : "false", shape.rows, rows > 0 ? "false" : "true", shape.tiles(),
            threads, r, seconds, points * steps / seconds, double(shape.buffer_doubles(nz, s)) * 8 / 1e6, diff,
            diff == 0 ? "true" : "false", kGitCommit, kCompiler);
        std::fflush(stdout);
      }
  return ok ? 0 : 1;
}
