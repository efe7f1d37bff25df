// awave-kokkos-bulkcopy (cuda build): what Kokkos can keep of the copy engine (issue 79, item 3). Kokkos has no
// copy-engine abstraction, so a Kokkos user who wants it writes a CUDA island: the product's Kokkos team sweep
// (src/kokkos/sweep_step.hpp: a TeamPolicy team a tile, a power-of-two league, the functor in constant memory)
// whose team, under KOKKOS_ENABLE_CUDA, calls the bulk-copy march (bulk_march.cuh) in its team scratch. Timed
// against hand CUDA's product sweep (`product`) and the portable Kokkos sweep (`kokkos`) in the same process and
// rounds; the commands and output: bench/cuda_sweep_variants.cuh.
//
// The island stages u(t) alone (u(t-1) loaded by each thread): Kokkos 3.4.01 and 4.6.01 refuse team scratch
// above 48 KB, and two fields a stage at four stages need 61 KB (hand CUDA's `tile-d4-now` is its twin).
#include "../../cuda_sweep_variants.cuh"
#include "bulk_march.cuh"
#include "kokkos/sweep_step.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

using namespace bulk_copy;
using awave::SweepTile;
using sweep_variants::Variant;

namespace {

// --- the island: everything below up to IslandSweep's end is what a Kokkos user adds (README counts it) ---
template <bool kPlant>
struct IslandSweep {
  static constexpr int S = SweepTile::kSteps, D = 4;
  static constexpr std::size_t kScratchBytes = shared_bytes(S, D, Producer::none, false) + 128;  // (+ alignment)
  using Policy = Kokkos::TeamPolicy<Kokkos::Cuda, Kokkos::LaunchBounds<SweepTile::kThreads, SweepTile::kTeamsAnSm>>;
  SweepFields fields;
  const CUtensorMap* now_map;  // in global memory (bulk_march.cuh's TensorMaps)
  int planes;                  // a segment's
  int tile_bits = 0;           // the league as the product's: tiles padded to a power of two a segment

  KOKKOS_INLINE_FUNCTION void operator()(const typename Policy::member_type& team) const {
    const unsigned t = team.league_rank(), r = team.team_rank(), teams_k = SweepTile::teams_k(fields.nz);
    const unsigned tile = t & ((1u << tile_bits) - 1u), segment = t >> tile_bits;
    if (tile >= teams_k * unsigned(SweepTile::teams_j(fields.ny))) return;  // padding
    auto* raw = static_cast<unsigned char*>(team.team_scratch(0).get_shmem(std::size_t(kScratchBytes)));
    auto* shared =
        reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(raw) + 127) & ~std::uintptr_t(127));
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDA_ARCH__)
    bulk_march<S, D, Loader::tile, Sync::bar, Producer::none, false, kPlant>(
        fields, now_map, nullptr, tile % teams_k, tile / teams_k, segment, planes, r % kColumnsK, r / kColumnsK, shared,
        [&] { team.team_barrier(); });
#else
    (void)r, (void)shared;
#endif
  }

  void launch(const Kokkos::Cuda& exec) const {
    const int league = (1 << tile_bits) * ((fields.nx + planes - 1) / planes);
    Kokkos::parallel_for(
        "wave::bulk_sweep",
        Kokkos::Experimental::require(
            Policy(exec, league, SweepTile::kThreads).set_scratch_size(0, Kokkos::PerTeam(kScratchBytes)),
            Kokkos::Experimental::WorkItemProperty::HintHeavyWeight),
        *this);
  }
};
// --- end of the island ---

TensorMaps tensor_maps;

template <bool kPlant>
void launch_island(const SweepFields& f, int planes) {
  IslandSweep<kPlant> island{f, tensor_maps.map(f.now, f, Loader::tile, columns_j(Producer::none)), planes};
  const int tiles = SweepTile::teams_k(f.nz) * SweepTile::teams_j(f.ny);
  while ((1 << island.tile_bits) < tiles) ++island.tile_bits;
  island.launch(Kokkos::Cuda());
}

std::vector<Variant> variants() {
  const dim3 team(1, SweepTile::kThreads);  // (Kokkos' CUDA team: a thread a team rank along y)
  Variant portable{
      "kokkos",
      nullptr,
      nullptr,
      SweepTile::kSteps,
      SweepTile::kColumnsK,
      SweepTile::kColumnsJ,
      team,
      SweepTile::kScratchBytes,
      [](const SweepFields& f, dim3, int, bool) { awave::SweepStep<Kokkos::Cuda, true>(f).launch(Kokkos::Cuda()); }};
  portable.has_planted_twin = false;
  // The product's Kokkos sweep marches segments of its own (SweepTile::kSegment): timed at that segment alone.
  portable.runs_on = {};
  Variant island{"kokkos-island-d4-now",
                 nullptr,
                 nullptr,
                 SweepTile::kSteps,
                 kColumnsK,
                 columns_j(Producer::none),
                 team,
                 IslandSweep<false>::kScratchBytes,
                 [](const SweepFields& f, dim3, int segment, bool planted) {
                   planted ? launch_island<true>(f, segment) : launch_island<false>(f, segment);
                 }};
  island.runs_on = [](int, int, int nz) { return nz % 2 == 0; };  // the 3-D tensor map's rows of 16-B multiples
  return {portable, island};
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<Variant> all = variants();
  return sweep_variants::sweep_variants_main(argc, argv, "awave-kokkos-bulkcopy", all, "kokkos,kokkos-island-d4-now",
                                             {{61, 47, 40}, {97, 61, 34}}, [&](const std::function<int()>& run) {
                                               Kokkos::ScopeGuard kokkos;
                                               return run();
                                             });
}
