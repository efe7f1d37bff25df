// awave-kokkos-sweep (cuda build): how Kokkos launches the shared sweep (issue 56). The same march
// (core/sweep_march.hpp, three steps a sweep) under launches that differ only in how a team finds
// its tile and holds the fields, against hand CUDA's kernel in the same process:
//   hand          a __global__ kernel as src/cuda/wave_cuda.cu's: tile and segment from blockIdx,
//                 fields by value, the march's bulk planes (core/sweep_march.hpp);
//   hand-general  hand without the bulk planes (every plane through the general path);
//   kokkos-bulk   the product's Kokkos form with the bulk planes (issue 57's lever), launched without
//                 the HintHeavyWeight property the product's launch adds to them since cc2435a;
//   hand-smem     hand with Kokkos' team-reduction reservation added to its dynamic shared memory
//                 (8 * (threads + 2) bytes a block, unused): does the larger carveout cost?
//   kokkos        the product's SweepStep<Kokkos::Cuda> (src/kokkos/sweep_step.hpp, no bulk planes): the league a
//                 power of two of teams a segment, so the segment is a shift of the league rank and
//                 the tile a mask (no division; the padding's teams return at once), the rank split
//                 unsigned, the fields by value;
//   kokkos-pow2-ref  that with the fields by reference;
//   kokkos-divide the form before (fa89705): tile and segment by divisions of the league rank,
//                 the fields by reference;
//   kokkos-divide-lb1  that under LaunchBounds<640, 1> (one team an SM, no register cap of 48).
//   kokkos-udiv   the product's form with the tile's (k, j) split by a multiply and a shift by a
//                 host-computed reciprocal instead of `% teams_k` and `/ teams_k` (a division by a
//                 run-time value takes the floating-point unit, which the uniform datapath lacks:
//                 does that keep Kokkos' team-uniform values per thread?);
//   kokkos-udiv-bulk  that with the march's bulk planes (hand's form on the H200).
//   kokkos-heavy  the product's form with Kokkos' HintHeavyWeight work-item property: Kokkos copies
//                 the functor to constant memory and the kernel reads it there (its default below
//                 512 B passes it as a kernel argument, which the kernel copies to local memory);
//   kokkos-heavy-bulk  that with the march's bulk planes: the product's form where its plan takes them
//                 (the H200) since this study (its README).
// The sweep in parts, as over MPI (the interior segments, then the outer ones: here the first and
// the last segment, three launches a sweep): can Kokkos' functor start at a segment (issue 56 item 5)?
//   hand-parts    hand's kernel with the first segment a kernel parameter (src/cuda/wave_cuda.cu);
//   kokkos-parts-add     the league rank split by a division (as at 8c45610) and the launch's
//                 first team a member added to it (at 44a165a ptxas: 40 B spilled, against 8);
//   kokkos-parts-packed  that segment a member packed with the shift (ptxas: 20 B spilled);
//   kokkos-add-whole     kokkos-parts-add in one launch (the spills' cost without the parts').
// (The parts' variants march without the bulk planes, as the product's Kokkos form.)
// At fa89705 the product was kokkos-divide and the study's kokkos-pow2 is today's product
// (bench/results/h100-2026-11-26/kokkos-sweep-fa89705).
// Each variant runs SWEEPS sweeps from the model's start state, ROUNDS rounds interleaved (every
// variant once a round); SU/s of each round over every interior point, median and min-max over
// the rounds. Bitwise: every variant's u(t) and u(t-1) after the sweeps have hand's bits at every
// padded point (core's compare_fields); a copy of hand's result with one point one ulp off and one
// 0.0 made -0.0 must differ at exactly those two (the comparison can fail).
//   awave-kokkos-sweep N [SWEEPS] [ROUNDS] [VARIANT,...]     prints one JSON object per line
#include "core/approx_equal.hpp"
#include "core/wave_params.hpp"
#include "core/wave_problem.hpp"
#include "kokkos/sweep_step.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

using namespace awave;

namespace {

using T = SweepTile;

// segment0: the launch's first segment (hand-parts; 0 for a whole sweep), as the product's kernel.
template <bool BulkPlanes = true>
__global__ void __launch_bounds__(T::kThreads, T::kTeamsAnSm) hand_sweep(SweepFields a, int segment0) {
  extern __shared__ double scratch[];
  sweep_march<SweepFields, BulkPlanes>(a, blockIdx.x, blockIdx.y, segment0 + blockIdx.z, threadIdx.x, threadIdx.y,
                                       scratch, [] { __syncthreads(); });
}

template <int TeamsAnSm>
struct DivideSweep {  // the product's form before: tile and segment by divisions, fields by reference
  using Policy = Kokkos::TeamPolicy<Kokkos::Cuda, Kokkos::LaunchBounds<T::kThreads, TeamsAnSm>>;
  SweepFields fields;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Policy::member_type& team) const {
    const int teams_k = T::teams_k(fields.nz), teams_j = T::teams_j(fields.ny);
    const int t = team.league_rank(), r = team.team_rank();
    double* scratch = static_cast<double*>(team.team_scratch(0).get_shmem(std::size_t(T::kScratchBytes)));
    sweep_march(fields, t % teams_k, (t / teams_k) % teams_j, t / (teams_k * teams_j), r % T::kColumnsK,
                r / T::kColumnsK, scratch, [&] { team.team_barrier(); });
  }
  void launch(const Kokkos::Cuda& exec) const {
    const int league = T::teams_k(fields.nz) * T::teams_j(fields.ny) * T::teams_i(fields.nx);
    Kokkos::parallel_for("study::sweep_divide",
                         Policy(exec, league, T::kThreads).set_scratch_size(0, Kokkos::PerTeam(T::kScratchBytes)),
                         *this);
  }
};

struct Pow2RefSweep {  // the product's form with the fields by reference
  using Policy = Kokkos::TeamPolicy<Kokkos::Cuda, Kokkos::LaunchBounds<T::kThreads, T::kTeamsAnSm>>;
  SweepFields fields;
  int shift = 0;  // log2 of the teams a segment (tiles rounded up to a power of two)
  KOKKOS_INLINE_FUNCTION void operator()(const typename Policy::member_type& team) const {
    const unsigned t = team.league_rank(), r = team.team_rank(), tiles_k = T::teams_k(fields.nz);
    const unsigned tile = t & ((1u << shift) - 1u), segment = t >> shift;
    if (tile >= tiles_k * unsigned(T::teams_j(fields.ny))) return;  // padding
    double* scratch = static_cast<double*>(team.team_scratch(0).get_shmem(std::size_t(T::kScratchBytes)));
    sweep_march(fields, tile % tiles_k, tile / tiles_k, segment, r % T::kColumnsK, r / T::kColumnsK, scratch,
                [&] { team.team_barrier(); });
  }
  void launch(const Kokkos::Cuda& exec) {
    const int tiles = T::teams_k(fields.nz) * T::teams_j(fields.ny);
    for (shift = 0; (1 << shift) < tiles;) ++shift;
    Kokkos::parallel_for(
        "study::sweep_pow2_ref",
        Policy(exec, (1 << shift) * T::teams_i(fields.nx), T::kThreads)
            .set_scratch_size(0, Kokkos::PerTeam(T::kScratchBytes)),
        *this);
  }
};

// n / d for n < 2^24 and 0 < d < 2^16 by a multiply and a shift: m = ceil(2^40 / d) leaves an error
// e = m d - 2^40 < d, and n e < 2^40 keeps the quotient exact.
struct ReciprocalDivisor {
  unsigned long long m = 1;
  unsigned d = 1;
  ReciprocalDivisor() = default;
  explicit ReciprocalDivisor(unsigned divisor) : m(((1ull << 40) + divisor - 1) / divisor), d(divisor) {}
  KOKKOS_INLINE_FUNCTION unsigned quotient(unsigned n) const { return unsigned((n * m) >> 40); }
};

template <bool BulkPlanes>
struct UdivSweep {  // the product's form, the tile split by a reciprocal
  using Policy = Kokkos::TeamPolicy<Kokkos::Cuda, Kokkos::LaunchBounds<T::kThreads, T::kTeamsAnSm>>;
  SweepFields fields;
  int shift = 0;
  ReciprocalDivisor by_teams_k;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Policy::member_type& team) const {
    const unsigned t = team.league_rank(), r = team.team_rank();
    const unsigned tile = t & ((1u << shift) - 1u), segment = t >> shift;
    const unsigned tile_j = by_teams_k.quotient(tile), tile_k = tile - tile_j * by_teams_k.d;
    if (tile_j >= unsigned(T::teams_j(fields.ny))) return;  // padding
    double* scratch = static_cast<double*>(team.team_scratch(0).get_shmem(std::size_t(T::kScratchBytes)));
    sweep_march<SweepFields, BulkPlanes>(fields, tile_k, tile_j, segment, r % T::kColumnsK, r / T::kColumnsK, scratch,
                                         [&] { team.team_barrier(); });
  }
  void launch(const Kokkos::Cuda& exec) {
    const int tiles = T::teams_k(fields.nz) * T::teams_j(fields.ny);
    for (shift = 0; (1 << shift) < tiles;) ++shift;
    if (shift > 24 || T::teams_k(fields.nz) >= (1 << 16)) {  // (the quotient's exactness, above)
      std::fprintf(stderr, "awave-kokkos-sweep: kokkos-udiv takes fewer than 2^24 tiles and 2^16 tiles along k\n");
      std::exit(2);
    }
    by_teams_k = ReciprocalDivisor(T::teams_k(fields.nz));
    Kokkos::parallel_for(
        "study::sweep_udiv",
        Policy(exec, (1 << shift) * T::teams_i(fields.nx), T::kThreads)
            .set_scratch_size(0, Kokkos::PerTeam(T::kScratchBytes)),
        *this);
  }
};

template <bool Packed>
struct PartSweep {  // the product's form, starting at a segment
  using Policy = Kokkos::TeamPolicy<Kokkos::Cuda, Kokkos::LaunchBounds<T::kThreads, T::kTeamsAnSm>>;
  SweepFields fields;
  int shift = 0;       // log2 of the teams a segment; Packed: | the first segment << 5
  int first_team = 0;  // (not Packed) the league rank of the launch's first team in the whole sweep
  KOKKOS_INLINE_FUNCTION void operator()(const typename Policy::member_type& team) const {
    const unsigned r = team.team_rank(), tiles_k = T::teams_k(fields.nz);
    unsigned tile, segment;
    if constexpr (Packed) {
      const unsigned t = team.league_rank(), bits = unsigned(shift) & 31u;
      tile = t & ((1u << bits) - 1u), segment = (unsigned(shift) >> 5) + (t >> bits);
    } else {
      const unsigned t = team.league_rank() + unsigned(first_team);
      tile = t & ((1u << shift) - 1u), segment = t >> shift;
    }
    if (tile >= tiles_k * unsigned(T::teams_j(fields.ny))) return;  // padding
    double* scratch = static_cast<double*>(team.team_scratch(0).get_shmem(std::size_t(T::kScratchBytes)));
    sweep_march<SweepFields, false>(fields, tile % tiles_k, tile / tiles_k, segment, r % T::kColumnsK,
                                    r / T::kColumnsK, scratch, [&] { team.team_barrier(); });
  }
  void launch(const Kokkos::Cuda& exec, int begin, int end) {
    if (begin >= end) return;
    const int tiles = T::teams_k(fields.nz) * T::teams_j(fields.ny);
    int bits = 0;
    while ((1 << bits) < tiles) ++bits;
    shift = Packed ? (begin << 5) | bits : bits;
    first_team = Packed ? 0 : begin << bits;
    Kokkos::parallel_for(
        "study::sweep_part",
        Policy(exec, (1 << bits) * (end - begin), T::kThreads).set_scratch_size(0, Kokkos::PerTeam(T::kScratchBytes)),
        *this);
  }
};

using View = Kokkos::View<double*, Kokkos::CudaSpace>;

struct Run {
  std::vector<double> now, prev;  // after the sweeps, on the host
  double seconds = 0;
};

Run run(const std::string& variant, const WaveProblem& problem, const std::vector<double>& start_now,
        const std::vector<double>& start_prev, const View& cs2_k, const View& damp_ij, int sweeps) {
  const PaddedGeometry g = problem.geometry();
  View f[4] = {View("prev", g.size()), View("now", g.size()), View("u2", g.size()), View("u3", g.size())};
  Kokkos::deep_copy(f[0], Kokkos::View<const double*, Kokkos::HostSpace>(start_prev.data(), g.size()));
  Kokkos::deep_copy(f[1], Kokkos::View<const double*, Kokkos::HostSpace>(start_now.data(), g.size()));
  const Kokkos::Cuda exec;
  Kokkos::fence();
  const auto t0 = std::chrono::steady_clock::now();
  for (int s = 0; s < sweeps; ++s) {
    const SweepFields a = sweep_fields(problem, f[2].data(), f[3].data(), f[1].data(), f[0].data(), cs2_k.data(),
                                       damp_ij.data(), long(g.stride_i()), long(g.stride_j()));
    if (variant == "hand-general") {
      hand_sweep<false><<<dim3(T::teams_k(g.nz), T::teams_j(g.ny), T::teams_i(g.nx)), dim3(T::kColumnsK, T::kColumnsJ),
                          T::kScratchBytes, exec.cuda_stream()>>>(a, 0);
    } else if (variant == "kokkos-bulk") {
      const SweepStep<Kokkos::Cuda, true> step(a);
      Kokkos::parallel_for("study::sweep_bulk", step.teams(exec), step);
    } else if (variant == "hand") {
      hand_sweep<><<<dim3(T::teams_k(g.nz), T::teams_j(g.ny), T::teams_i(g.nx)), dim3(T::kColumnsK, T::kColumnsJ),
                     T::kScratchBytes, exec.cuda_stream()>>>(a, 0);
    } else if (variant == "hand-smem") {
      hand_sweep<><<<dim3(T::teams_k(g.nz), T::teams_j(g.ny), T::teams_i(g.nx)), dim3(T::kColumnsK, T::kColumnsJ),
                     T::kScratchBytes + sizeof(double) * (T::kThreads + 2), exec.cuda_stream()>>>(a, 0);
    } else if (variant == "kokkos") {
      SweepStep<Kokkos::Cuda>(a).launch(exec);
    } else if (variant == "hand-parts") {
      const int count = T::teams_i(g.nx), bounds[4] = {0, 1, count - 1, count};
      for (int part : {1, 0, 2})
        if (bounds[part] < bounds[part + 1])
          hand_sweep<><<<dim3(T::teams_k(g.nz), T::teams_j(g.ny), bounds[part + 1] - bounds[part]),
                         dim3(T::kColumnsK, T::kColumnsJ), T::kScratchBytes, exec.cuda_stream()>>>(a, bounds[part]);
    } else if (variant == "kokkos-parts-add" || variant == "kokkos-parts-packed") {
      const int count = T::teams_i(g.nx), bounds[4] = {0, 1, count - 1, count};
      for (int part : {1, 0, 2}) {
        if (variant == "kokkos-parts-add")
          PartSweep<false>{a}.launch(exec, bounds[part], bounds[part + 1]);
        else
          PartSweep<true>{a}.launch(exec, bounds[part], bounds[part + 1]);
      }
    } else if (variant == "kokkos-add-whole") {
      PartSweep<false>{a}.launch(exec, 0, T::teams_i(g.nx));
    } else if (variant == "kokkos-heavy") {
      const SweepStep<Kokkos::Cuda> step(a);
      Kokkos::parallel_for("study::sweep_heavy", step.heavy_teams(exec), step);
    } else if (variant == "kokkos-heavy-bulk") {  // the product's launch with the bulk planes
      SweepStep<Kokkos::Cuda, true>(a).launch(exec);
    } else if (variant == "kokkos-udiv") {
      UdivSweep<false>{a}.launch(exec);
    } else if (variant == "kokkos-udiv-bulk") {
      UdivSweep<true>{a}.launch(exec);
    } else if (variant == "kokkos-pow2-ref") {
      Pow2RefSweep{a}.launch(exec);
    } else if (variant == "kokkos-divide") {
      DivideSweep<T::kTeamsAnSm>{a}.launch(exec);
    } else if (variant == "kokkos-divide-lb1") {
      DivideSweep<1>{a}.launch(exec);
    } else {
      std::fprintf(stderr, "awave-kokkos-sweep: no variant '%s'\n", variant.c_str());
      std::exit(2);
    }
    std::swap(f[0], f[2]);  // u(t+2) is the next sweep's u(t-1), u(t+3) its u(t)
    std::swap(f[1], f[3]);
  }
  exec.fence();
  Run r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (cudaGetLastError() != cudaSuccess) {
    std::fprintf(stderr, "awave-kokkos-sweep: %s failed to launch\n", variant.c_str());
    std::exit(1);
  }
  r.now.resize(g.size());
  r.prev.resize(g.size());
  Kokkos::deep_copy(Kokkos::View<double*, Kokkos::HostSpace>(r.now.data(), g.size()), f[1]);
  Kokkos::deep_copy(Kokkos::View<double*, Kokkos::HostSpace>(r.prev.data(), g.size()), f[0]);
  return r;
}

// Points whose bits differ (core's test: 0.0 and -0.0 differ, as a NaN from any value).
std::size_t differing(const Run& a, const Run& b) {
  return compare_fields(a.now.data(), b.now.data(), a.now.size()).bitwise_differences +
         compare_fields(a.prev.data(), b.prev.data(), a.prev.size()).bitwise_differences;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: awave-kokkos-sweep N [SWEEPS] [ROUNDS] [VARIANT,...]\n");
    return 2;
  }
  const int n = std::atoi(argv[1]), sweeps = argc > 2 ? std::atoi(argv[2]) : 20, rounds = argc > 3 ? std::atoi(argv[3]) : 5;
  std::vector<std::string> variants;
  std::stringstream list(argc > 4 ? argv[4] : "hand,kokkos,kokkos-pow2-ref,kokkos-divide,kokkos-divide-lb1");
  for (std::string v; std::getline(list, v, ',');) variants.push_back(v);
  if (n < 8 || sweeps < 1 || rounds < 1 || variants.empty() || variants[0] != "hand") {
    std::fprintf(stderr, "awave-kokkos-sweep: N >= 8, SWEEPS >= 1, ROUNDS >= 1, and 'hand' first (the bitwise reference)\n");
    return 2;
  }
  WaveParams p;
  p.shape = {n, n, n};
  p.nsteps = 3 * sweeps;
  const WaveProblem problem(p);
  const PaddedGeometry g = problem.geometry();
  std::vector<double> now(g.size()), prev(g.size());
  problem.fill_start_state(now.data(), prev.data());
  View cs2_k("cs2_k", problem.cs2_k().size()), damp_ij("damp_ij", problem.damp_ij().size());
  Kokkos::deep_copy(cs2_k, Kokkos::View<const double*, Kokkos::HostSpace>(problem.cs2_k().data(), cs2_k.size()));
  Kokkos::deep_copy(damp_ij, Kokkos::View<const double*, Kokkos::HostSpace>(problem.damp_ij().data(), damp_ij.size()));
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  const double updates = double(n) * n * n * 3 * sweeps;

  std::vector<std::vector<double>> rates(variants.size());
  std::vector<std::size_t> diffs(variants.size(), 0);
  Run reference;
  for (int r = 0; r < rounds; ++r)
    for (std::size_t v = 0; v < variants.size(); ++v) {
      Run result = run(variants[v], problem, now, prev, cs2_k, damp_ij, sweeps);
      rates[v].push_back(updates / result.seconds);
      if (v == 0 && r == 0) reference = std::move(result);
      else diffs[v] = std::max(diffs[v], differing(result, reference));
    }
  // Two plants the check must see: one ulp at the centre, and a ghost point's 0.0 as -0.0.
  Run planted = reference;
  const std::size_t mid = g.index(n / 2 + 1, n / 2 + 1, n / 2 + 1);
  planted.now[mid] = std::nextafter(planted.now[mid], 1.0);
  planted.prev[0] = -planted.prev[0];  // (the corner ghost point: 0.0)
  const bool seen = reference.prev[0] == 0.0 && differing(planted, reference) == 2;
  bool ok = seen;
  for (std::size_t v = 0; v < variants.size(); ++v) {
    std::vector<double> s = rates[v];
    std::sort(s.begin(), s.end());
    const double median = s.size() % 2 ? s[s.size() / 2] : 0.5 * (s[s.size() / 2 - 1] + s[s.size() / 2]);
    std::printf(
        "{\"gpu\": \"%s\", \"kokkos_version\": %d, \"n\": %d, \"sweeps\": %d, \"rounds\": %d, \"variant\": \"%s\", "
        "\"su_per_s_median\": %.4e, \"su_per_s_min\": %.4e, \"su_per_s_max\": %.4e, \"bitwise\": %s, "
        "\"differing_points\": %zu, \"planted_seen\": %s}\n",
        prop.name, KOKKOS_VERSION, n, sweeps, rounds, variants[v].c_str(), median, s.front(), s.back(),
        diffs[v] == 0 ? "true" : "false", diffs[v], seen ? "true" : "false");
    ok &= diffs[v] == 0;
  }
  if (!seen) std::fprintf(stderr, "awave-kokkos-sweep: a planted ulp or sign of zero was not seen\n");
  return ok ? 0 : 1;
}
