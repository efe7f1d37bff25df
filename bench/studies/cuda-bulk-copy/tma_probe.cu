// awave-tma-probe (cuda build): one bulk tensor copy (bulk_march.cuh's instructions and tensor maps) of a box at
// given coordinates, to find which copies the copy engine refuses ("illegal instruction": the rows and four-step
// variants of the bulk-copy study). A field of NX x NY x NZ doubles as the study's padded grid; a 3-D map with a
// box of 32 x 20 x 1, or a 1-D map over the whole field with a box of 32.
//   awave-tma-probe 3 NX NY NZ C0 C1 C2     awave-tma-probe 1 NX NY NZ C0
// Prints "ok SUM" (the sum of the copied values, out-of-bounds points zero) and exits 0; a CUDA error: its name,
// exit 3; bad input: exit 1.
#include "bulk_march.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace bulk_copy;

namespace {

__global__ void probe(const CUtensorMap* map, int rank, int c0, int c1, int c2, double* sum) {
  __shared__ __align__(128) double box[640];
  __shared__ __align__(8) std::uint64_t full;
  const unsigned bar = shared_address(&full), to = shared_address(box);
  if (threadIdx.x == 0) {
    mbarrier_init(bar, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x < 32 && elect_one()) {
    mbarrier_arrive_expect_tx(bar, rank == 3 ? 640 * 8 : 32 * 8);
    if (rank == 3)
      bulk_copy_3d(to, map, bar, c0, c1, c2);
    else
      bulk_copy_1d(to, map, bar, c0);
  }
  mbarrier_wait(bar, 0);
  if (threadIdx.x == 0) {
    double s = 0;
    for (int i = 0; i < (rank == 3 ? 640 : 32); ++i) s += box[i];
    *sum = s;
  }
}

int fail(const char* what, cudaError_t e) {
  std::printf("%s: %s\n", what, cudaGetErrorString(e));
  return 3;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 6) {
    std::fprintf(stderr, "usage: awave-tma-probe 3 NX NY NZ C0 C1 C2 | awave-tma-probe 1 NX NY NZ C0\n");
    return 1;
  }
  const int rank = std::atoi(argv[1]), nx = std::atoi(argv[2]), ny = std::atoi(argv[3]), nz = std::atoi(argv[4]);
  if ((rank != 1 && rank != 3) || (rank == 3 && argc < 8) || nx < 1 || ny < 1 || nz < 1) {
    std::fprintf(stderr, "awave-tma-probe: rank 1 or 3, positive sizes, and a coordinate a dimension\n");
    return 1;
  }
  const int c0 = std::atoi(argv[5]), c1 = rank == 3 ? std::atoi(argv[6]) : 0, c2 = rank == 3 ? std::atoi(argv[7]) : 0;
  SweepFields f{};
  f.nx = nx - 2, f.ny = ny - 2, f.nz = nz - 2, f.sj = nz, f.si = long(ny) * nz;
  const std::size_t n = std::size_t(nx) * ny * nz;
  std::vector<double> ones(n, 1.0);
  double *field = nullptr, *sum = nullptr;
  if (cudaError_t e = cudaMalloc(&field, n * sizeof(double)); e != cudaSuccess) return fail("cudaMalloc", e);
  cudaMalloc(&sum, sizeof(double));
  cudaMemcpy(field, ones.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  TensorMaps maps;
  const CUtensorMap* map = maps.map(field, f, rank == 3 ? Loader::tile : Loader::rows, 20);
  probe<<<1, 64>>>(map, rank, c0, c1, c2, sum);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) return fail("probe", e);
  double s = 0;
  cudaMemcpy(&s, sum, sizeof s, cudaMemcpyDeviceToHost);
  std::printf("ok %g\n", s);
  return 0;
}
