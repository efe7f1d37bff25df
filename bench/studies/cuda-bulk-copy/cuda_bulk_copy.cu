// awave-cuda-bulkcopy (cuda build): hand CUDA's three-step sweep with its planes fed by Hopper's bulk copy
// engine (issue 79), against the product's sweep (core/sweep_march.hpp, launched as src/cuda/wave_cuda.cu
// launches it) in the same process. The march and what each variant changes: bulk_march.cuh. The commands
// (check, timing) and their output: bench/cuda_sweep_variants.cuh, shared with the big-tile study.
#include "../../cuda_sweep_variants.cuh"
#include "bulk_march.cuh"

#include <cuda_runtime.h>

#include <vector>

using namespace bulk_copy;
using sweep_variants::Variant;

namespace {

// A thread block a team, two an SM (48 registers), as the product's sweep.
template <int S, int D, Loader L, Sync Y, Producer P, bool kPrevStaged, bool kPlant>
__global__ void __launch_bounds__(640, 2)
    bulk_sweep(SweepFields a, int planes, const CUtensorMap* now_map, const CUtensorMap* prev_map) {
  extern __shared__ __align__(128) unsigned char shared[];
  bulk_march<S, D, L, Y, P, kPrevStaged, kPlant>(a, now_map, prev_map, blockIdx.x, blockIdx.y, blockIdx.z, planes,
                                                 threadIdx.x, threadIdx.y, shared, [] { __syncthreads(); });
}

TensorMaps tensor_maps;

template <int S, int D, Loader L, Sync Y, Producer P, bool kPrevStaged = true>
Variant variant(const char* name) {
  constexpr int HJ = columns_j(P);
  const dim3 block(kColumnsK, HJ + (P == Producer::warp));
  constexpr std::size_t shared = shared_bytes(S, D, P, kPrevStaged);
  Variant v{name,
            reinterpret_cast<const void*>(bulk_sweep<S, D, L, Y, P, kPrevStaged, false>),
            reinterpret_cast<const void*>(bulk_sweep<S, D, L, Y, P, kPrevStaged, true>),
            S,
            kColumnsK,
            HJ,
            block,
            shared,
            [block, shared](const SweepFields& f, dim3 grid, int segment, bool planted) {
              const CUtensorMap* now = tensor_maps.map(f.now, f, L, HJ);
              const CUtensorMap* prev = tensor_maps.map(f.prev, f, L, HJ);
              (planted ? bulk_sweep<S, D, L, Y, P, kPrevStaged, true>
                       : bulk_sweep<S, D, L, Y, P, kPrevStaged, false>)<<<grid, block, shared>>>(f, segment, now, prev);
            }};
  if (L == Loader::tile) v.runs_on = [](int, int, int nz) { return nz % 2 == 0; };  // rows of 16-B multiples
  // The 1-D map's coordinates are 32-bit: fields of under 2^31 doubles (1000^3 is 1.006e9).
  if (L == Loader::rows) v.runs_on = [](int nx, int ny, int nz) { return (nx + 2.0) * (ny + 2.0) * (nz + 2.0) < 2e9; };
  return v;
}

// Every variant this program knows: S steps, D stages, the loader, the sync, the producer (bulk_march.cuh);
// `-now`: u(t) alone staged, u(t-1) loaded by each thread (the Kokkos island's form).
const std::vector<Variant> kVariants = {
    variant<3, 3, Loader::tile, Sync::bar, Producer::none>("tile-d3"),
    variant<3, 4, Loader::tile, Sync::bar, Producer::none>("tile-d4"),
    variant<3, 5, Loader::tile, Sync::bar, Producer::none>("tile-d5"),
    variant<3, 4, Loader::tile, Sync::bar, Producer::none, false>("tile-d4-now"),
    variant<3, 4, Loader::rows, Sync::bar, Producer::none>("rows-d4"),
    variant<3, 4, Loader::tile, Sync::split, Producer::none>("tile-d4-split"),
    variant<3, 4, Loader::tile, Sync::bar, Producer::warp>("tile-d4-warp"),
    variant<3, 4, Loader::tile, Sync::split, Producer::warp>("tile-d4-split-warp"),
    variant<4, 4, Loader::tile, Sync::bar, Producer::none>("s4-tile-d4"),
    variant<4, 4, Loader::tile, Sync::split, Producer::warp>("s4-tile-d4-split-warp"),
};
// The checked and timed default: the variants the copy engine runs. rows-d4 and the four-step ones stay selectable
// by name, but raise "illegal instruction": the engine refuses a box whose innermost start is not 16-B aligned
// (k = 24 t - 3 for four steps, odd rows for 1-D copies on odd nz; awave-tma-probe, README).
const char* kDefaultVariants = "tile-d3,tile-d4,tile-d5,tile-d4-now,tile-d4-split,tile-d4-warp,tile-d4-split-warp";

}  // namespace

int main(int argc, char** argv) {
  // Odd grids as the big-tile study's, and with nz even, where the 3-D tensor map can describe the rows.
  return sweep_variants::sweep_variants_main(argc, argv, "awave-cuda-bulkcopy", kVariants, kDefaultVariants,
                                             {{61, 47, 39}, {97, 61, 33}, {61, 47, 40}, {97, 61, 34}});
}
