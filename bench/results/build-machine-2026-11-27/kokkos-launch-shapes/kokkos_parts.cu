// Diagnostic, not product code (session 14, issue 56): the parts of Kokkos' CUDA team launch one at a
// time on hand CUDA's march: its team_barrier() (blockDim.z test), the functor from constant memory or a
// kernel argument, the scratch pointer at a run-time offset with get_shmem's null select.
// Built against src/ at c844c5e: see kokkos_parts-ptxas.txt and ../README.md.
#include "core/sweep_march.hpp"
using namespace awave;
__device__ __forceinline__ void kbar() { if (1 == blockDim.z) __syncthreads(); else __threadfence_block(); }
struct Drv { SweepFields f; int tile_bits; int league; size_t shmem_begin, shmem_size; };
__device__ inline void body(const SweepFields& a, int tile_bits, int lr, double* scratch, int barmode) {
    const unsigned t = lr, r = threadIdx.y, teams_k = SweepTile::teams_k(a.nz);
    const unsigned tile = t & ((1u << tile_bits) - 1u), segment = t >> tile_bits;
    if (tile >= teams_k * unsigned(SweepTile::teams_j(a.ny))) return;
    if (barmode == 0)
      sweep_march<SweepFields, true>(a, tile % teams_k, tile / teams_k, segment, r % 32, r / 32, scratch, [] { __syncthreads(); });
    else
      sweep_march<SweepFields, true>(a, tile % teams_k, tile / teams_k, segment, r % 32, r / 32, scratch, [] { kbar(); });
}
__global__ void __launch_bounds__(640, 2) base(SweepFields a, int tile_bits, int league_size) {
  extern __shared__ double scratch[];
  if ((int)blockIdx.x < league_size) body(a, tile_bits, blockIdx.x, scratch, 0);
}
__global__ void __launch_bounds__(640, 2) bar(SweepFields a, int tile_bits, int league_size) {
  extern __shared__ double scratch[];
  if ((int)blockIdx.x < league_size) body(a, tile_bits, blockIdx.x, scratch, 1);
}
__constant__ Drv cdrv;
__global__ void __launch_bounds__(640, 2) cmem() {
  extern __shared__ double scratch[];
  const Drv& d = cdrv;
  if ((int)blockIdx.x < d.league) body(d.f, d.tile_bits, blockIdx.x, scratch, 0);
}
__global__ void __launch_bounds__(640, 2) cmemcopy() {
  extern __shared__ double scratch[];
  const SweepFields f = cdrv.f;
  if ((int)blockIdx.x < cdrv.league) body(f, cdrv.tile_bits, blockIdx.x, scratch, 0);
}
__global__ void __launch_bounds__(640, 2) param(const Drv d) {
  extern __shared__ double scratch[];
  if ((int)blockIdx.x < d.league) body(d.f, d.tile_bits, blockIdx.x, scratch, 0);
}
__global__ void __launch_bounds__(640, 2) shm(const Drv d) {
  extern __shared__ char sh[];
  char* p = sh + d.shmem_begin; 
  double* scratch = d.shmem_size >= SweepTile::kScratchBytes ? (double*)p : nullptr;
  if ((int)blockIdx.x < d.league) body(d.f, d.tile_bits, blockIdx.x, scratch, 0);
}
