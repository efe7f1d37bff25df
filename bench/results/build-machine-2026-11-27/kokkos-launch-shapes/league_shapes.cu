// Diagnostic, not product code (session 14, issue 56): hand CUDA's sweep kernel (`once`) beside the
// launch shapes of Kokkos' TeamPolicy kernel, to see which one makes ptxas spill at the 48-register cap.
// Built against src/ at c844c5e: see league_shapes-ptxas.txt and ../README.md.
#include "core/sweep_march.hpp"
using namespace awave;
__global__ void __launch_bounds__(640, 2) once(SweepFields a, int segment0) {
  extern __shared__ double scratch[];
  sweep_march<SweepFields, true>(a, blockIdx.x, blockIdx.y, segment0 + blockIdx.z, threadIdx.x, threadIdx.y, scratch, [] { __syncthreads(); });
}
// Kokkos' shape: a league loop, 1-D blocks, rank split, tile bits
__global__ void __launch_bounds__(640, 2) league(SweepFields a, int tile_bits, int league_size) {
  extern __shared__ double scratch[];
  for (int lr = blockIdx.x; lr < league_size; lr += gridDim.x) {
    const unsigned t = lr, r = threadIdx.y, teams_k = SweepTile::teams_k(a.nz);
    const unsigned tile = t & ((1u << tile_bits) - 1u), segment = t >> tile_bits;
    if (tile >= teams_k * unsigned(SweepTile::teams_j(a.ny))) continue;
    sweep_march<SweepFields, true>(a, tile % teams_k, tile / teams_k, segment, r % 32, r / 32, scratch, [] { __syncthreads(); });
  }
}
// no loop, same rank arithmetic
__global__ void __launch_bounds__(640, 2) noloop(SweepFields a, int tile_bits, int league_size) {
  extern __shared__ double scratch[];
    const unsigned t = blockIdx.x, r = threadIdx.y, teams_k = SweepTile::teams_k(a.nz);
    const unsigned tile = t & ((1u << tile_bits) - 1u), segment = t >> tile_bits;
    if (tile >= teams_k * unsigned(SweepTile::teams_j(a.ny))) return;
    sweep_march<SweepFields, true>(a, tile % teams_k, tile / teams_k, segment, r % 32, r / 32, scratch, [] { __syncthreads(); });
}
template <class F> __device__ inline void body(const SweepFields& a, int tile_bits, int lr, double* scratch) {
    const unsigned t = lr, r = threadIdx.y, teams_k = SweepTile::teams_k(a.nz);
    const unsigned tile = t & ((1u << tile_bits) - 1u), segment = t >> tile_bits;
    if (tile >= teams_k * unsigned(SweepTile::teams_j(a.ny))) return;
    sweep_march<SweepFields, true>(a, tile % teams_k, tile / teams_k, segment, r % 32, r / 32, scratch, [] { __syncthreads(); });
}
__global__ void __launch_bounds__(640, 2) fastpath(SweepFields a, int tile_bits, int league_size) {
  extern __shared__ double scratch[];
  if (league_size <= (int)gridDim.x) { if ((int)blockIdx.x < league_size) body<int>(a, tile_bits, blockIdx.x, scratch); return; }
  for (int lr = blockIdx.x; lr < league_size; lr += gridDim.x) body<int>(a, tile_bits, lr, scratch);
}
__global__ void __launch_bounds__(640, 2) fastonly(SweepFields a, int tile_bits, int league_size) {
  extern __shared__ double scratch[];
  if ((int)blockIdx.x < league_size) body<int>(a, tile_bits, blockIdx.x, scratch);
}
__global__ void __launch_bounds__(640, 2) assumed(SweepFields a, int tile_bits, int league_size) {
  extern __shared__ double scratch[];
  for (int lr = blockIdx.x; lr < league_size; lr += gridDim.x) {
    __builtin_assume(lr + (int)gridDim.x >= league_size);
    body<int>(a, tile_bits, lr, scratch);
  }
}
__global__ void __launch_bounds__(640, 2) assumed2(SweepFields a, int tile_bits, int league_size) {
  extern __shared__ double scratch[];
  for (int lr = blockIdx.x; lr < league_size; lr += gridDim.x) {
    body<int>(a, tile_bits, lr, scratch);
    __builtin_assume(lr + (int)gridDim.x >= league_size);
  }
}
