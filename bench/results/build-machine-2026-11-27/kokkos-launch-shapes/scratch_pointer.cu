// Diagnostic, not product code (session 14, issue 56): which scratch pointer keeps hand CUDA's march on the
// uniform datapath: S0 a run-time offset, S1 offset 0 with a run-time null select, S2 offset 0, S3 offset
// 512 (a constant); B1 adds Kokkos' barrier test.
#include "core/sweep_march.hpp"
using namespace awave;
__device__ __forceinline__ void kbar() { if (1 == blockDim.z) __syncthreads(); else __threadfence_block(); }
struct Drv { SweepFields f; int tile_bits; int league; size_t shmem_begin, shmem_size; };
template <int B>
__device__ inline void body(const SweepFields& a, int tile_bits, int lr, double* scratch) {
    const unsigned t = lr, r = threadIdx.y, teams_k = SweepTile::teams_k(a.nz);
    const unsigned tile = t & ((1u << tile_bits) - 1u), segment = t >> tile_bits;
    if (tile >= teams_k * unsigned(SweepTile::teams_j(a.ny))) return;
    if (B) sweep_march<SweepFields, true>(a, tile % teams_k, tile / teams_k, segment, r % 32, r / 32, scratch, [] { kbar(); });
    else sweep_march<SweepFields, true>(a, tile % teams_k, tile / teams_k, segment, r % 32, r / 32, scratch, [] { __syncthreads(); });
}
template <int S, int B>
__global__ void __launch_bounds__(640, 2) sc(const Drv d) {
  extern __shared__ char sh[];
  double* scratch;
  if (S == 0) scratch = (double*)(sh + d.shmem_begin);
  if (S == 1) scratch = d.shmem_size >= SweepTile::kScratchBytes ? (double*)sh : nullptr;
  if (S == 2) scratch = (double*)sh;
  if (S == 3) scratch = (double*)(sh + 512);
  if ((int)blockIdx.x < d.league) body<B>(d.f, d.tile_bits, blockIdx.x, scratch);
}
template __global__ void sc<0,0>(const Drv);
template __global__ void sc<1,0>(const Drv);
template __global__ void sc<2,0>(const Drv);
template __global__ void sc<3,0>(const Drv);
template __global__ void sc<2,1>(const Drv);
