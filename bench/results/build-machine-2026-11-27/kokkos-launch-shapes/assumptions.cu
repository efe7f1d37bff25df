// Diagnostic, not product code (session 14, issue 56): all three of Kokkos' launch parts on hand CUDA's
// march (league loop, team_barrier's blockDim.z test, the scratch pointer chosen at run time), with
// __builtin_assume of the league's one iteration (1), blockDim.z == 1 (2), a non-null scratch (4).
#include "core/sweep_march.hpp"
using namespace awave;
__device__ __forceinline__ void kbar() { if (1 == blockDim.z) __syncthreads(); else __threadfence_block(); }
struct Drv { SweepFields f; int tile_bits; int league; size_t shmem_begin, shmem_size; };
template <int A>
__device__ inline void body(const SweepFields& a, int tile_bits, int lr, int league, double* scratch) {
    if (A & 1) __builtin_assume(lr + (int)gridDim.x >= league);
    if (A & 2) __builtin_assume(blockDim.z == 1);
    if (A & 4) __builtin_assume(scratch != nullptr);
    const unsigned t = lr, r = threadIdx.y, teams_k = SweepTile::teams_k(a.nz);
    const unsigned tile = t & ((1u << tile_bits) - 1u), segment = t >> tile_bits;
    if (tile >= teams_k * unsigned(SweepTile::teams_j(a.ny))) return;
    sweep_march<SweepFields, true>(a, tile % teams_k, tile / teams_k, segment, r % 32, r / 32, scratch, [] { kbar(); });
}
// all three of Kokkos' parts: league loop, barrier test, scratch at a run-time offset with the null select
template <int A>
__global__ void __launch_bounds__(640, 2) all3(const Drv d) {
  extern __shared__ char sh[];
  for (int lr = blockIdx.x; lr < d.league; lr += gridDim.x) {
    double* scratch = d.shmem_size >= SweepTile::kScratchBytes ? (double*)(sh + d.shmem_begin) : nullptr;
    body<A>(d.f, d.tile_bits, lr, d.league, scratch);
  }
}
template __global__ void all3<0>(const Drv);
template __global__ void all3<1>(const Drv);
template __global__ void all3<2>(const Drv);
template __global__ void all3<4>(const Drv);
template __global__ void all3<3>(const Drv);
template __global__ void all3<5>(const Drv);
template __global__ void all3<6>(const Drv);
template __global__ void all3<7>(const Drv);
