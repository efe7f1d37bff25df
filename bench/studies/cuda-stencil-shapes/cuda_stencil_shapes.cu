// awave-cuda-shapes (cuda build): shapes of hand CUDA's interior kernel (94-99% of the points of grids >= 256^3)
// that keep more bytes in flight a thread, timed on the GPU and checked bitwise against the product's shape.
//   march      the product's interior kernel (src/cuda/wave_cuda.cu): a thread per (k, j) column
//              marching i over a segment, `now` at i-1, i, i+1 in registers, unroll 4;
//   prefetch   march, the next point's six loads (x+1, y-1, y+1, z-1, z+1, prev) issued before
//              this point's store: software pipelining by hand, two points' loads in flight;
//   two-j      each thread marches two rows j, j+1 (blocks of 32 x 4 threads over 32 x 8
//              points): the centre of one row is the y neighbour of the other, so a point pair
//              makes 10 loads instead of 12, with two independent updates per iteration;
//   two-k      each thread marches two columns k and k+32 (blocks of 32 x 8 threads over 64 x 8
//              points): twice the independent loads per thread, no shared loads;
//   ldg        march, every load of `now` through the read-only path (__ldg);
//   evict-first  march, `prev` and `next` with evict-first hints (__ldcs, __stcs): `now`'s lines stay cached;
//   evict-first-ldg  evict-first, `now` through the read-only path too;
//   shared-y   march with the plane's (k, j) tile in shared memory (double-buffered, one barrier
//              a plane): the y neighbours come from it instead of loads of rows j-1, j+1;
//   planted    march with one point's update off by one ulp: the bitwise check must see it.
// Diagnostics (not the update, never bitwise): what the neighbour loads cost against streaming the same bytes.
//   no-y       march with the y neighbours taken as the centre (no loads of rows j-1, j+1);
//   no-yz      no-y, the z neighbours too (no loads of k-1, k+1): 3 loads a point;
//   stream     next = 2 now - prev along the same march: 24 B a point and nothing else.
// Each at the segments given (default 4, 8, 16, 32). SU/s over the interior region's points,
// best of 3 runs of STEPS steps; bitwise: the fields after the same steps equal march's.
//   awave-cuda-shapes N [STEPS] [SHAPE,...] [SEGMENT,...]   (padded N^3 grid, N-2 points a side)
// Prints one JSON object per line.
#include "../../cuda_bench.hpp"
#include "core/register_march.hpp"
#include "core/wave_params.hpp"
#include "core/wave_update.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace awave;

namespace {

void check(cudaError_t e, const char* what) {
  cuda_check(e, "awave-cuda-shapes", what);
}

struct Fields {
  double* __restrict__ next;
  const double* __restrict__ now;
  const double* __restrict__ prev;
  const double* __restrict__ cs2_k;
  double f;
  int nx, ny, nz;  // interior points per axis; the arrays are padded by one on each side
  long si, sj;
};

constexpr int nbl = kBoundaryLayers;

__device__ inline long index_of(const Fields& a, int i, int j, int k) {
  return (long(i + 1) * (a.ny + 2) + (j + 1)) * long(a.nz + 2) + (k + 1);
}

// A thread's (k, j) column and i segment in the shapes of one column per thread (blocks of 32 x 8
// over (k, j), blockIdx.z the segment); `inside`: the column is in the interior region.
struct Column {
  int k, j, i_begin, i_end;
  bool inside;
};

__device__ inline Column column_of(const Fields& a, int segment) {
  Column c;
  c.k = blockIdx.x * blockDim.x + threadIdx.x;
  c.j = nbl + blockIdx.y * blockDim.y + threadIdx.y;
  c.i_begin = nbl + blockIdx.z * segment;
  c.i_end = min(c.i_begin + segment, a.nx - nbl);
  c.inside = c.k < a.nz && c.j < a.ny - nbl;
  return c;
}

// The product's kernel: its march (src/core/register_march.hpp) on the product's grid of blocks
// (plant: one point off by one ulp).
template <bool plant>
__device__ inline void march_body(const Fields& a, int segment) {
  const Column col = column_of(a, segment);
  if (!col.inside) return;
  const int k = col.k, j = col.j;
  register_march(
      FlatLevels<Fields>{a}, index_of(a, col.i_begin, j, k), col.i_begin, col.i_end, a.cs2_k[k], a.f, Undamped{},
      [&](int i, double value) { return plant && k == 0 && j == nbl && i == nbl ? nextafter(value, 1e300) : value; });
}

__global__ void march(Fields a, int segment) {
  march_body<false>(a, segment);
}
__global__ void planted(Fields a, int segment) {
  march_body<true>(a, segment);
}

// The diagnostics: march without the y neighbours' loads (their values taken as the centre's),
// without the z neighbours' too where !z_loads, and without any stencil where !stencil.
template <bool z_loads, bool stencil>
__global__ void march_without_y(Fields a, int segment) {
  const Column col = column_of(a, segment);
  if (!col.inside) return;
  const int k = col.k, j = col.j, i_begin = col.i_begin, i_end = col.i_end;
  const double cs2 = a.cs2_k[k];
  long c = index_of(a, i_begin, j, k);
  double xm = a.now[c - a.si], centre = a.now[c];
#pragma unroll 4
  for (int i = i_begin; i < i_end; ++i, c += a.si) {
    const double xp = a.now[c + a.si];
    if (!stencil) {
      a.next[c] = 2.0 * centre - a.prev[c];
    } else {
      const double zm = z_loads ? a.now[c - 1] : centre, zp = z_loads ? a.now[c + 1] : centre;
      a.next[c] = undamped_next(Stencil7{centre, xm, xp, centre, centre, zm, zp}, a.prev[c], cs2, a.f);
    }
    xm = centre;
    centre = xp;
  }
}

// The y neighbours from a shared-memory copy of the block's (k, j) tile of the plane, its rows
// j0-1 .. j0+blockDim.y (blocks of 32 x 8). Each thread stores its centre, the first and last
// rows their outer neighbours; two buffers, so one barrier a plane.
__global__ void shared_y(Fields a, int segment) {
  constexpr int bk = 32, bj = 8;
  __shared__ double tile[2][bj + 2][bk];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const Column col = column_of(a, segment);  // launched as 32 x 8 blocks: the tile's shape
  const int k = col.k, j = col.j, i_begin = col.i_begin, i_end = col.i_end;
  const bool active = col.inside;  // inactive threads still meet the barriers
  const bool low_edge = ty == 0, high_edge = ty == bj - 1 || j + 1 == a.ny - nbl;
  const double cs2 = active ? a.cs2_k[k] : 0.0;
  long c = index_of(a, i_begin, j, k);
  double xm = active ? a.now[c - a.si] : 0.0, centre = active ? a.now[c] : 0.0;
  int buffer = 0;
  for (int i = i_begin; i < i_end; ++i, c += a.si, buffer ^= 1) {
    if (active) {
      tile[buffer][ty + 1][tx] = centre;
      if (low_edge) tile[buffer][0][tx] = a.now[c - a.sj];
      if (high_edge) tile[buffer][ty + 2][tx] = a.now[c + a.sj];
    }
    __syncthreads();
    if (active) {
      const double xp = a.now[c + a.si];
      const Stencil7 s{centre, xm, xp, tile[buffer][ty][tx], tile[buffer][ty + 2][tx], a.now[c - 1], a.now[c + 1]};
      a.next[c] = undamped_next(s, a.prev[c], cs2, a.f);
      xm = centre;
      centre = xp;
    }
  }
}

// march with cache hints: with ldg, `now` (and `prev`, unless evict_first) through the read-only
// path (__ldg); with evict_first, the fields read or written once a step, `prev` loaded and `next`
// stored evict-first (__ldcs, __stcs), so that the lines of `now`, which each point's neighbours
// read again, stay in L1 and L2 longer. Shapes ldg, evict-first and evict-first-ldg.
template <bool ldg, bool evict_first>
__global__ void hinted_march(Fields a, int segment) {
  const Column col = column_of(a, segment);
  if (!col.inside) return;
  const int k = col.k, j = col.j, i_begin = col.i_begin, i_end = col.i_end;
  auto now = [&](long at) { return ldg ? __ldg(a.now + at) : a.now[at]; };
  auto prev = [&](long at) { return evict_first ? __ldcs(a.prev + at) : ldg ? __ldg(a.prev + at) : a.prev[at]; };
  const double cs2 = ldg && !evict_first ? __ldg(a.cs2_k + k) : a.cs2_k[k];
  long c = index_of(a, i_begin, j, k);
  double xm = now(c - a.si), centre = now(c);
#pragma unroll 4
  for (int i = i_begin; i < i_end; ++i, c += a.si) {
    const double xp = now(c + a.si);
    const Stencil7 s{centre, xm, xp, now(c - a.sj), now(c + a.sj), now(c - 1), now(c + 1)};
    if (evict_first)  // (the store's address first, as in the shapes measured before they shared a kernel)
      __stcs(a.next + c, undamped_next(s, prev(c), cs2, a.f));
    else
      a.next[c] = undamped_next(s, prev(c), cs2, a.f);
    xm = centre;
    centre = xp;
  }
}

// The next point's operands are loaded before this point's store. The loads one plane past the
// segment's end stay inside the padded array (i_end <= nx - nbl, the padding is nx + 1).
__global__ void prefetch(Fields a, int segment) {
  const Column col = column_of(a, segment);
  if (!col.inside) return;
  const int k = col.k, j = col.j, i_begin = col.i_begin, i_end = col.i_end;
  const double cs2 = a.cs2_k[k];
  long c = index_of(a, i_begin, j, k);
  double xm = a.now[c - a.si], centre = a.now[c], xp = a.now[c + a.si];
  double ym = a.now[c - a.sj], yp = a.now[c + a.sj], zm = a.now[c - 1], zp = a.now[c + 1], pv = a.prev[c];
#pragma unroll 4
  for (int i = i_begin; i < i_end; ++i, c += a.si) {
    const long n = c + a.si;
    const double xp2 = a.now[n + a.si], ym2 = a.now[n - a.sj], yp2 = a.now[n + a.sj], zm2 = a.now[n - 1],
                 zp2 = a.now[n + 1], pv2 = a.prev[n];
    a.next[c] = undamped_next(Stencil7{centre, xm, xp, ym, yp, zm, zp}, pv, cs2, a.f);
    xm = centre;
    centre = xp;
    xp = xp2;
    ym = ym2;
    yp = yp2;
    zm = zm2;
    zp = zp2;
    pv = pv2;
  }
}

// Rows j and j + 1 (blockDim.y threads cover 2 * blockDim.y rows).
__global__ void two_j(Fields a, int segment) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = nbl + 2 * (blockIdx.y * blockDim.y + threadIdx.y);
  const int i_begin = nbl + blockIdx.z * segment, i_end = min(i_begin + segment, a.nx - nbl);
  if (k >= a.nz || j >= a.ny - nbl) return;
  const bool second = j + 1 < a.ny - nbl;
  const double cs2 = a.cs2_k[k];
  long c = index_of(a, i_begin, j, k);
  double xm0 = a.now[c - a.si], c0 = a.now[c];
  double xm1 = a.now[c + a.sj - a.si], c1 = a.now[c + a.sj];
#pragma unroll 4
  for (int i = i_begin; i < i_end; ++i, c += a.si) {
    const long d = c + a.sj;
    const double xp0 = a.now[c + a.si], xp1 = a.now[d + a.si];
    const double below = a.now[c - a.sj], above = a.now[d + a.sj];
    a.next[c] = undamped_next(Stencil7{c0, xm0, xp0, below, c1, a.now[c - 1], a.now[c + 1]}, a.prev[c], cs2, a.f);
    if (second)
      a.next[d] = undamped_next(Stencil7{c1, xm1, xp1, c0, above, a.now[d - 1], a.now[d + 1]}, a.prev[d], cs2, a.f);
    xm0 = c0;
    c0 = xp0;
    xm1 = c1;
    c1 = xp1;
  }
}

// Columns k and k + blockDim.x (a block covers 2 * blockDim.x columns).
__global__ void two_k(Fields a, int segment) {
  const int k = 2 * blockIdx.x * blockDim.x + threadIdx.x, k2 = k + blockDim.x;
  const int j = nbl + blockIdx.y * blockDim.y + threadIdx.y;
  const int i_begin = nbl + blockIdx.z * segment, i_end = min(i_begin + segment, a.nx - nbl);
  if (k >= a.nz || j >= a.ny - nbl) return;
  const bool second = k2 < a.nz;
  const int kk = second ? k2 : k;  // loads stay in range; the store is skipped
  const double cs2 = a.cs2_k[k], cs2b = a.cs2_k[kk];
  long c = index_of(a, i_begin, j, k), e = c + (kk - k);
  double xm0 = a.now[c - a.si], c0 = a.now[c], xm1 = a.now[e - a.si], c1 = a.now[e];
#pragma unroll 4
  for (int i = i_begin; i < i_end; ++i, c += a.si, e += a.si) {
    const double xp0 = a.now[c + a.si], xp1 = a.now[e + a.si];
    const Stencil7 s0{c0, xm0, xp0, a.now[c - a.sj], a.now[c + a.sj], a.now[c - 1], a.now[c + 1]};
    const Stencil7 s1{c1, xm1, xp1, a.now[e - a.sj], a.now[e + a.sj], a.now[e - 1], a.now[e + 1]};
    const double p0 = a.prev[c], p1 = a.prev[e];
    a.next[c] = undamped_next(s0, p0, cs2, a.f);
    if (second) a.next[e] = undamped_next(s1, p1, cs2b, a.f);
    xm0 = c0;
    c0 = xp0;
    xm1 = c1;
    c1 = xp1;
  }
}

// Deterministic fields: a hash of the index, small values (any bits do; the check is bitwise).
__global__ void fill(double* u, long n, unsigned salt) {
  for (long t = blockIdx.x * long(blockDim.x) + threadIdx.x; t < n; t += long(gridDim.x) * blockDim.x) {
    unsigned h = unsigned(t) * 2654435761u ^ salt;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    u[t] = double(h % 100000) * 1e-5 - 0.5;
  }
}

struct Shape {
  const char* name;
  void (*kernel)(Fields, int);
  int rows_per_thread, columns_per_thread;
  bool diagnostic = false;  // not the update: its bits are not expected to equal march's
};

const Shape kShapes[] = {{"march", march, 1, 1},
                         {"prefetch", prefetch, 1, 1},
                         {"two-j", two_j, 2, 1},
                         {"two-k", two_k, 1, 2},
                         {"ldg", hinted_march<true, false>, 1, 1},
                         {"evict-first", hinted_march<false, true>, 1, 1},
                         {"evict-first-ldg", hinted_march<true, true>, 1, 1},
                         {"shared-y", shared_y, 1, 1},
                         {"planted", planted, 1, 1},
                         {"no-y", march_without_y<true, true>, 1, 1, true},
                         {"no-yz", march_without_y<false, true>, 1, 1, true},
                         {"stream", march_without_y<false, false>, 1, 1, true}};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::size_t p = 0;
  while (p <= s.size()) {
    const std::size_t q = s.find(',', p);
    out.push_back(s.substr(p, q == std::string::npos ? std::string::npos : q - p));
    if (q == std::string::npos) break;
    p = q + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::atoi(argv[1]) < 2 * nbl + 3) {
    std::fprintf(stderr, "usage: awave-cuda-shapes N [STEPS] [SHAPE,...] [SEGMENT,...]  (N >= %d)\n", 2 * nbl + 3);
    return 2;
  }
  const int n = std::atoi(argv[1]) - 2, steps = argc > 2 ? std::atoi(argv[2]) : 30;
  std::vector<std::string> wanted = split(argc > 3 ? argv[3] : "march,prefetch,two-j,two-k,ldg");
  wanted.push_back("march");  // the reference of the bitwise check: kShapes runs it first
  std::vector<int> segments;
  for (const std::string& s : split(argc > 4 ? argv[4] : "4,8,16,32")) segments.push_back(std::atoi(s.c_str()));
  if (steps < 1) {
    std::fprintf(stderr, "awave-cuda-shapes: STEPS must be positive\n");
    return 2;
  }
  for (const int segment : segments)
    if (segment < 1) {
      std::fprintf(stderr, "awave-cuda-shapes: a SEGMENT must be a positive number of planes\n");
      return 2;
    }
  for (const std::string& w : wanted)
    if (std::none_of(std::begin(kShapes), std::end(kShapes), [&](const Shape& s) { return w == s.name; })) {
      std::fprintf(stderr, "awave-cuda-shapes: no shape '%s'\n", w.c_str());
      return 2;
    }
  const long points = long(n + 2) * (n + 2) * (n + 2);
  const std::size_t bytes = std::size_t(points) * sizeof(double);
  double *u[3], *reference, *cs2;
  for (double*& p : u) check(cudaMalloc(&p, bytes), "allocating a field");
  check(cudaMalloc(&reference, bytes), "allocating the reference");
  check(cudaMalloc(&cs2, n * sizeof(double)), "allocating cs2");
  unsigned long long* differences;
  check(cudaMalloc(&differences, sizeof(unsigned long long)), "allocating the counter");
  fill<<<1024, 256>>>(cs2, n, 7u);
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "creating an event");
  check(cudaEventCreate(&stop), "creating an event");
  const double interior = double(n - 2 * nbl) * (n - 2 * nbl) * n;
  bool have_reference = false;
  for (const int segment : segments) {
    for (const Shape& shape : kShapes) {
      bool want = false;
      for (const std::string& w : wanted) want = want || w == shape.name;
      if (!want) continue;
      for (int l = 0; l < 3; ++l) fill<<<4096, 256>>>(u[l], points, 11u + l);
      const dim3 block(32, shape.rows_per_thread == 2 ? 4 : 8);
      const dim3 grid((n + 32 * shape.columns_per_thread - 1) / (32 * shape.columns_per_thread),
                      (n - 2 * nbl + 8 - 1) / 8, (n - 2 * nbl + segment - 1) / segment);
      int ring = 0;  // u[ring] = prev, u[ring + 1] = now, u[ring + 2] = next (mod 3)
      auto step = [&] {
        Fields a{u[(ring + 2) % 3], u[(ring + 1) % 3], u[ring % 3], cs2, 0.1, n, n, n, long(n + 2) * (n + 2), n + 2};
        shape.kernel<<<grid, block>>>(a, segment);
        ring = (ring + 1) % 3;
      };
      step();
      step();
      check(cudaDeviceSynchronize(), "warming up");
      double best = 0;
      for (int r = 0; r < 3; ++r) {
        check(cudaEventRecord(start), "timing");
        for (int s = 0; s < steps; ++s) step();
        check(cudaEventRecord(stop), "timing");
        check(cudaEventSynchronize(stop), "running the steps");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start, stop), "timing");
        best = std::max(best, interior * steps / (1e-3 * ms));
      }
      check(cudaGetLastError(), "running the kernel");
      // The same steps from the same fields: every shape must leave march's bits. (The segment
      // does not change the arithmetic, so march at the first segment is the reference.)
      const double* now = u[(ring + 1) % 3];
      long differing = -1;
      if (!have_reference) {
        check(cudaMemcpy(reference, now, bytes, cudaMemcpyDeviceToDevice), "keeping the reference");
        have_reference = true;
        differing = 0;
      } else {
        check(cudaMemset(differences, 0, sizeof(unsigned long long)), "comparing");
        count_differences<<<4096, 256>>>(now, reference, points, differences);
        unsigned long long d = 0;
        check(cudaMemcpy(&d, differences, sizeof d, cudaMemcpyDeviceToHost), "comparing");
        differing = long(d);
      }
      cudaFuncAttributes attributes{};
      check(cudaFuncGetAttributes(&attributes, shape.kernel), "reading the kernel's attributes");
      std::printf(
          "{\"n\": %d, \"shape\": \"%s\", \"segment\": %d, \"block\": [%u, %u], \"registers\": %d, \"steps\": %d, "
          "\"su_per_s\": %.5g, \"differing_points\": %ld, \"bitwise_with_march\": %s, \"diagnostic\": %s}\n",
          n, shape.name, segment, block.x, block.y, attributes.numRegs, steps, best, differing,
          differing == 0 ? "true" : "false", shape.diagnostic ? "true" : "false");
      std::fflush(stdout);
    }
  }
  return 0;
}
