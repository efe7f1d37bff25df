// awave-cuda-tblock (cuda build): the temporal-blocking study (issue 36). Two time steps per
// sweep of the grid, sponge layers included, checked bitwise against single steps of the shared
// update formula (core/wave_update.hpp: next_value, damped where damp != 0, the reference's
// arithmetic), and timed. Shapes:
//   single     one step per launch, one point per thread (blocks of 32 x 8 over (k, j), i in
//              blockIdx.z): the bitwise reference of this program, timed too;
//   tile2-32xJ two steps per sweep, 2.5-D blocking: a block of 32 x J threads owns a (k, j) tile
//              of 32 x J points and marches i over a segment (blockIdx.z); shared memory holds
//              u(t) planes with a halo of 2 (a ring of 4 planes) and u(t+1) planes with a halo of
//              1 (a ring of 3); per plane: load u(t) plane m, barrier, compute u(t+1) at plane m-1
//              (with its halo: recomputed by the neighbours too), barrier, compute u(t+2) at plane
//              m-2. Four fields (u(t-1), u(t), u(t+1), u(t+2)), so no block overwrites what
//              another still reads; u(t+1) and u(t+2) are written once each: 32 bytes a point
//              per two steps against 48 for two single steps.
//   reg2-KxJ   two steps per sweep, the marched axis in registers: a block of (K + 4) x (J + 4)
//              threads, one per column of the u(t) tile with its halo of 2, marches i; each thread
//              keeps its column's u(t) at i-2..i and u(t+1) at i-3..i-1 in registers, so shared
//              memory carries only the (j, k) neighbours: one plane of u(t) and one of u(t+1),
//              double-buffered, one barrier a plane. The halo threads load and compute what
//              their neighbours need (u(t+1) on a halo of 1), the inner K x J write.
//   reg2p-KxJ  reg2 with the next plane's global loads (u(t), u(t-1), damp) issued a plane ahead,
//   reg2p-KxJ/R  before the barrier, so their latency overlaps this plane's work (reg2 waited on
//              them after the barrier: 65% of its stalls, results/h100-2026-11-25/ncu-reg2-8e10cb7);
//              /R: each thread owns R adjacent j columns (its j neighbours among them in
//              registers): R times the independent work between two barriers.
//   planted-*  a shape with one point of u(t+2) off by one ulp: the bitwise check must see it.
// Each shape at the segments given. SU/s over every interior point (sponge included), best of
// 3 runs of STEPS steps (even); bitwise: u(t) and u(t-1) after STEPS steps equal single's, every
// padded point, compared on the device.
//   awave-cuda-tblock N [STEPS] [SEGMENT,...] [SHAPE,...]   (an N^3 grid, the model's coefficients
//                                                           and start; shapes by name, see kShapes)
// Prints one JSON object per line.
#include "../../cuda_bench.hpp"
#include "core/wave_params.hpp"
#include "core/wave_problem.hpp"
#include "core/wave_update.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

using namespace awave;

namespace {

void check(cudaError_t e, const char* what) {
  cuda_check(e, "awave-cuda-tblock", what);
}

struct Grid {
  const double* __restrict__ cs2_k;    // [nz]
  const double* __restrict__ damp_ij;  // [nx][ny]
  double f, dt;
  int nx, ny, nz;  // interior points; fields are padded by one (ghosts: 0)
  long si, sj;
};

__device__ inline long index_of(const Grid& g, int i, int j, int k) {
  return (long(i + 1) * (g.ny + 2) + (j + 1)) * long(g.nz + 2) + (k + 1);
}

__device__ inline bool interior(const Grid& g, int i, int j, int k) {
  return i >= 0 && i < g.nx && j >= 0 && j < g.ny && k >= 0 && k < g.nz;
}

// One step, one point per thread: the reference.
__global__ void single_step(Grid g, double* __restrict__ next, const double* __restrict__ now,
                            const double* __restrict__ prev) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y, i = blockIdx.z;
  if (k >= g.nz || j >= g.ny) return;
  const long c = index_of(g, i, j, k);
  const Stencil7 s{now[c], now[c - g.si], now[c + g.si], now[c - g.sj], now[c + g.sj], now[c - 1], now[c + 1]};
  next[c] = next_value(s, prev[c], g.cs2_k[k], g.damp_ij[long(i) * g.ny + j], g.f, g.dt);
}

constexpr int kTileK = 32;

// Two steps per sweep (see the top). J: the tile's rows (and the block's thread rows).
template <int J, bool plant>
__global__ void __launch_bounds__(kTileK* J)
    tile2(Grid g, double* __restrict__ u1, double* __restrict__ u2, const double* __restrict__ u0,
          const double* __restrict__ um, int segment) {
  constexpr int HK = kTileK + 4, HJ = J + 4;  // u(t) tile, halo 2
  constexpr int VK = kTileK + 2, VJ = J + 2;  // u(t+1) tile, halo 1
  __shared__ double U[4][HJ][HK];
  __shared__ double V[3][VJ][VK];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * kTileK + tx, threads = kTileK * J;
  const int k0 = blockIdx.x * kTileK, j0 = blockIdx.y * J;
  const int i0 = blockIdx.z * segment, i1 = min(i0 + segment, g.nx);
  for (int m = i0 - 2; m <= i1 + 1; ++m) {
    // u(t) at plane m, tile and halo of 2 (zeros outside the padded grid: never used as values).
    double(*Um)[HK] = U[(m + 8) % 4];
    for (int e = tid; e < HJ * HK; e += threads) {
      const int jj = e / HK, kk = e % HK, j = j0 + jj - 2, k = k0 + kk - 2;
      const bool in_padded = m >= -1 && m <= g.nx && j >= -1 && j <= g.ny && k >= -1 && k <= g.nz;
      Um[jj][kk] = in_padded ? u0[index_of(g, m, j, k)] : 0.0;
    }
    __syncthreads();
    // u(t+1) at plane p = m - 1, tile and halo of 1 (0 at ghost points, as every level has).
    const int p = m - 1;
    if (p >= i0 - 1 && p <= i1) {
      double(*Vp)[VK] = V[(p + 9) % 3];
      const double(*Ua)[HK] = U[(p + 7) % 4], (*Ub)[HK] = U[(p + 8) % 4], (*Uc)[HK] = U[(p + 9) % 4];
      for (int e = tid; e < VJ * VK; e += threads) {
        const int jj = e / VK, kk = e % VK, j = j0 + jj - 1, k = k0 + kk - 1;
        double value = 0.0;
        if (interior(g, p, j, k)) {
          const int hj = jj + 1, hk = kk + 1;
          const Stencil7 s{Ub[hj][hk],     Ua[hj][hk],     Uc[hj][hk],    Ub[hj - 1][hk],
                           Ub[hj + 1][hk], Ub[hj][hk - 1], Ub[hj][hk + 1]};
          const long c = index_of(g, p, j, k);
          value = next_value(s, um[c], g.cs2_k[k], g.damp_ij[long(p) * g.ny + j], g.f, g.dt);
          if (jj >= 1 && jj <= J && kk >= 1 && kk <= kTileK && p >= i0 && p < i1) u1[c] = value;
        }
        Vp[jj][kk] = value;
      }
    }
    __syncthreads();
    // u(t+2) at plane q = m - 2, the tile: one point per thread.
    const int q = m - 2, j = j0 + ty, k = k0 + tx;
    if (q >= i0 && q < i1 && j < g.ny && k < g.nz) {
      const double(*Va)[VK] = V[(q + 8) % 3], (*Vb)[VK] = V[(q + 9) % 3], (*Vc)[VK] = V[(q + 10) % 3];
      const int vj = ty + 1, vk = tx + 1;
      const Stencil7 s{Vb[vj][vk],     Va[vj][vk],     Vc[vj][vk],    Vb[vj - 1][vk],
                       Vb[vj + 1][vk], Vb[vj][vk - 1], Vb[vj][vk + 1]};
      const double prev = U[(q + 8) % 4][ty + 2][tx + 2];  // u(t) at plane q
      double value = next_value(s, prev, g.cs2_k[k], g.damp_ij[long(q) * g.ny + j], g.f, g.dt);
      if (plant && q == g.nx / 2 && j == g.ny / 2 && k == g.nz / 2) value = nextafter(value, 1e300);
      u2[index_of(g, q, j, k)] = value;
    }
  }
}

// Two steps per sweep, the marched axis in registers (see the top).
template <int K, int J, bool plant>
__global__ void __launch_bounds__((K + 4) * (J + 4))
    reg2(Grid g, double* __restrict__ u1, double* __restrict__ u2, const double* __restrict__ u0,
         const double* __restrict__ um, int segment) {
  constexpr int HK = K + 4, HJ = J + 4;
  __shared__ double SU[2][HJ][HK], SV[2][HJ][HK];
  const int kk = threadIdx.x, jj = threadIdx.y;
  const int k = blockIdx.x * K + kk - 2, j = blockIdx.y * J + jj - 2;
  const int i0 = blockIdx.z * segment, i1 = min(i0 + segment, g.nx);
  const bool halo1 = jj >= 1 && jj <= HJ - 2 && kk >= 1 && kk <= HK - 2;  // computes u(t+1)
  const bool inner = jj >= 2 && jj <= HJ - 3 && kk >= 2 && kk <= HK - 3;  // writes
  const bool column_in_padded = j >= -1 && j <= g.ny && k >= -1 && k <= g.nz;
  const bool column_interior = j >= 0 && j < g.ny && k >= 0 && k < g.nz;
  const double cs2 = column_interior ? g.cs2_k[k] : 0.0;
  double ut_m2 = 0.0, ut_m1 = 0.0, v_m3 = 0.0, v_m2 = 0.0;  // u(t) at m-2, m-1; u(t+1) at m-3, m-2
  int b = 0;
  for (int m = i0 - 2; m <= i1 + 1; ++m, b ^= 1) {
    const double ut = column_in_padded && m >= -1 && m <= g.nx ? u0[index_of(g, m, j, k)] : 0.0;
    SU[b][jj][kk] = ut_m1;
    SV[b][jj][kk] = v_m2;
    __syncthreads();      // (two buffers: the next plane's stores cannot meet this plane's reads)
    const int p = m - 1;  // u(t+1) at plane p
    double v = 0.0;
    if (halo1 && column_interior && p >= i0 - 1 && p <= i1 && p >= 0 && p < g.nx) {
      const Stencil7 s{ut_m1, ut_m2, ut, SU[b][jj - 1][kk], SU[b][jj + 1][kk], SU[b][jj][kk - 1], SU[b][jj][kk + 1]};
      const long c = index_of(g, p, j, k);
      v = next_value(s, um[c], cs2, g.damp_ij[long(p) * g.ny + j], g.f, g.dt);
      if (inner && p >= i0 && p < i1) u1[c] = v;
    }
    const int q = m - 2;  // u(t+2) at plane q
    if (inner && column_interior && q >= i0 && q < i1) {
      const Stencil7 s{v_m2, v_m3, v, SV[b][jj - 1][kk], SV[b][jj + 1][kk], SV[b][jj][kk - 1], SV[b][jj][kk + 1]};
      double value = next_value(s, ut_m2, cs2, g.damp_ij[long(q) * g.ny + j], g.f, g.dt);
      if (plant && q == g.nx / 2 && j == g.ny / 2 && k == g.nz / 2) value = nextafter(value, 1e300);
      u2[index_of(g, q, j, k)] = value;
    }
    ut_m2 = ut_m1;
    ut_m1 = ut;
    v_m3 = v_m2;
    v_m2 = v;
  }
}

// The damped update out of line: its division's registers are paid for only in the sponge
// layers, not by every thread's register budget (the same arithmetic as next_value: damp == 0
// takes undamped_next, whose operations are next_value's undamped ones).
__device__ inline double damped_next(const Stencil7& s, double prev, double cs2, double damp, double f, double dt) {
  return next_value(s, prev, cs2, damp, f, dt);
}

__device__ inline double update(const Stencil7& s, double prev, double cs2, double damp, const Grid& g) {
  return damp == 0.0 ? undamped_next(s, prev, cs2, g.f) : damped_next(s, prev, cs2, damp, g.f, g.dt);
}

// S steps per sweep, the marched axis in registers, the next plane prefetched, R columns a thread
// (see the top; S = 2 is reg2 with the prefetch). Level s = 0..S is u(t+s); the block's columns
// are the K x J tile with a halo of S, level s is computed on a halo of S - s, and the two last
// levels are written on the tile. At plane step m level s is computed at plane m - s from level
// s - 1 at planes m - s - 1..m - s + 1 (registers) and its (j, k) neighbours (shared memory, one
// plane a level, double-buffered: one barrier a plane). MIN_BLOCKS: the blocks an SM must hold (the
// register cap follows from it). damp(i, j) is read from the table per plane only in the x layers;
// elsewhere it is the column's y-layer value (0 in the bulk), read once: damp depends on i only in
// the x layers (docs/model.md, "Damping").
// How the damp of a point is had (a study variable: the forms differ in registers and spills):
//   kTable   damp(r, p) everywhere, the update's own damp == 0 test;
//   kSelect  0 where the block is off the y layers and the plane off the x layers, else damp(r, p);
//   kBranch  there, undamped_next in a branch the whole block takes, else the full update.
enum DampForm { kTable, kSelect, kBranch };

template <int S, int K, int J, int R, int MIN_BLOCKS, bool plant, int FORM = kBranch>
__global__ void __launch_bounds__((K + 2 * S) * (J + 2 * S) / R, MIN_BLOCKS)
    regp(Grid g, double* __restrict__ u_last2, double* __restrict__ u_last, const double* __restrict__ u0,
         const double* __restrict__ um, int segment) {
  constexpr int HK = K + 2 * S, HJ = J + 2 * S;
  static_assert(HJ % R == 0, "the tile's rows with their halo split evenly among the threads");
  extern __shared__ double shared[];  // [2][S][HJ][HK]: over the 48 KB of static shared memory for S >= 5
  auto SW = reinterpret_cast<double(*)[S][HJ][HK]>(shared);
  const int kk = threadIdx.x, k = blockIdx.x * K + kk - S;
  const int i0 = blockIdx.z * segment, i1 = min(i0 + segment, g.nx);
  const double cs2 = k >= 0 && k < g.nz ? g.cs2_k[k] : 0.0;
  int jj[R], ring[R];  // ring: how far the column is from the tile (0 inside it)
  bool loads[R];       // the column is in the padded grid: it holds u(t)
  long c0[R];          // the column's index at plane 0
  double damp_y[R];    // damp of the column outside the x layers
#pragma unroll
  for (int r = 0; r < R; ++r) {
    jj[r] = threadIdx.y * R + r;
    const int j = blockIdx.y * J + jj[r] - S;
    const bool interior = k >= 0 && k < g.nz && j >= 0 && j < g.ny;
    loads[r] = k >= -1 && k <= g.nz && j >= -1 && j <= g.ny;
    ring[r] = interior ? max(max(S - kk, kk - (HK - 1 - S)), max(S - jj[r], jj[r] - (HJ - 1 - S))) : S + 1;
    c0[r] = index_of(g, 0, j, k);
    damp_y[r] = interior ? g.damp_ij[long(kBoundaryLayers) * g.ny + j] : 0.0;
  }
  // Level s is computed at a column on ring <= S - s (and written on the tile, ring <= 0).
  auto computes = [&](int r, int s) { return ring[r] <= S - s; };
  auto x_layer = [&](int i) { return i < kBoundaryLayers || i >= g.nx - kBoundaryLayers; };
  auto damp = [&](int r, int i) {
    return x_layer(i) ? g.damp_ij[long(i) * g.ny + blockIdx.y * J + jj[r] - S] : damp_y[r];
  };
  // No column of the block in a y layer: on a plane outside the x layers every update is the
  // undamped one, a branch the whole block takes (no per-thread damp test).
  const int j_first = int(blockIdx.y) * J - S, j_last = j_first + HJ - 1;
  const bool block_in_y_bulk = j_first >= kBoundaryLayers && j_last < g.ny - kBoundaryLayers;
  // w[s][r][0], [1]: level s at the planes of steps m - 1 and m - 2; the next plane's loads.
  double w[S][R][2], ut_next[R], um_next[R];
  // The loads for step m: u(t) at plane m, u(t-1) at plane m - 1 (where level 1 is computed).
  auto live = [&](int s, int p) { return p >= i0 - (S - s) && p < i1 + (S - s) && p >= 0 && p < g.nx; };
  auto prefetch = [&](int m) {
    const bool m_padded = m >= -1 && m <= g.nx, p_live = live(1, m - 1);
#pragma unroll
    for (int r = 0; r < R; ++r) {
      ut_next[r] = loads[r] && m_padded ? u0[c0[r] + m * g.si] : 0.0;
      um_next[r] = computes(r, 1) && p_live ? um[c0[r] + (m - 1) * g.si] : 0.0;
    }
  };
#pragma unroll
  for (int s = 0; s < S; ++s)
#pragma unroll
    for (int r = 0; r < R; ++r) w[s][r][0] = w[s][r][1] = 0.0;
  prefetch(i0 - S);
  int b = 0;
  for (int m = i0 - S; m < i1 + S; ++m, b ^= 1) {
    double cur[S + 1][R], um_p[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {
      cur[0][r] = ut_next[r];
      um_p[r] = um_next[r];
#pragma unroll
      for (int s = 0; s < S; ++s) SW[b][s][jj[r]][kk] = w[s][r][0];
    }
    if (m + 1 < i1 + S) prefetch(m + 1);
    __syncthreads();  // (two buffers: the next plane's stores cannot meet this plane's reads)
#pragma unroll
    for (int s = 1; s <= S; ++s) {
      const int p = m - s;  // level s at plane p, from level s - 1
      const bool p_live = live(s, p), p_written = s >= S - 1 && p >= i0 && p < i1;
#pragma unroll
      for (int r = 0; r < R; ++r) {
        cur[s][r] = 0.0;
        if (computes(r, s) && p_live) {
          const double(*L)[HK] = SW[b][s - 1];
          const double ym = r > 0 ? w[s - 1][r - 1][0] : L[jj[r] - 1][kk];
          const double yp = r < R - 1 ? w[s - 1][r + 1][0] : L[jj[r] + 1][kk];
          const Stencil7 st{w[s - 1][r][0], w[s - 1][r][1], cur[s - 1][r], ym, yp, L[jj[r]][kk - 1], L[jj[r]][kk + 1]};
          const double prev = s == 1 ? um_p[r] : w[s < 2 ? 0 : s - 2][r][1];
          const bool bulk = block_in_y_bulk && !x_layer(p);
          double value = FORM == kTable    ? update(st, prev, cs2, damp(r, p), g)
                         : FORM == kSelect ? update(st, prev, cs2, bulk ? 0.0 : damp(r, p), g)
                         : bulk            ? undamped_next(st, prev, cs2, g.f)
                                           : update(st, prev, cs2, damp(r, p), g);
          const long c = c0[r] + p * g.si;
          if (plant && s == S && c == index_of(g, g.nx / 2, g.ny / 2, g.nz / 2)) value = nextafter(value, 1e300);
          cur[s][r] = value;
          if (p_written && ring[r] <= 0) (s == S ? u_last : u_last2)[c] = value;
        }
      }
    }
#pragma unroll
    for (int s = 0; s < S; ++s)
#pragma unroll
      for (int r = 0; r < R; ++r) {
        w[s][r][1] = w[s][r][0];
        w[s][r][0] = cur[s][r];
      }
  }
}

// The start state on the device: every field zero but a few points (the model's start), written
// by a memset and a scatter instead of copies of whole fields (8 GB each at 1000^3).
struct Setup {
  Grid g;
  std::size_t n;                                                      // padded values per field
  std::vector<std::pair<std::size_t, double>> start_now, start_prev;  // the non-zero points
};

void reset(const Setup& s, double* field, bool prev) {
  check(cudaMemset(field, 0, s.n * sizeof(double)), "reset");
  for (const auto& [index, value] : prev ? s.start_prev : s.start_now)
    check(cudaMemcpy(field + index, &value, sizeof(double), cudaMemcpyHostToDevice), "reset");
}

double* device_copy(const std::vector<double>& h) {
  double* d = nullptr;
  check(cudaMalloc(&d, h.size() * sizeof(double)), "cudaMalloc");
  check(cudaMemcpy(d, h.data(), h.size() * sizeof(double), cudaMemcpyHostToDevice), "copy in");
  return d;
}

float elapsed_ms(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  check(cudaEventElapsedTime(&ms, a, b), "event time");
  return ms;
}

struct Run {
  std::vector<double*> fields;
  std::pair<double*, double*> end;  // where u(t) and u(t-1) are after the steps
  double best_s = 1e30;
};

// Three timed rounds from the start state on `levels` device fields (level 0 holds u(t-1), the
// others u(t), whose ghost points are the start's zeros): march(f) queues the steps on f and
// returns where u(t) and u(t-1) end. The caller frees the fields.
template <class March>
Run timed_rounds(const Setup& s, int levels, March march) {
  Run run;
  for (int l = 0; l < levels; ++l) {
    double* d = nullptr;
    check(cudaMalloc(&d, s.n * sizeof(double)), "cudaMalloc");
    run.fields.push_back(d);
  }
  cudaEvent_t a, b;
  check(cudaEventCreate(&a), "event");
  check(cudaEventCreate(&b), "event");
  for (int round = 0; round < 3; ++round) {
    for (int l = 0; l < levels; ++l) reset(s, run.fields[l], l == 0);
    check(cudaEventRecord(a), "event");
    run.end = march(run.fields);
    check(cudaEventRecord(b), "event");
    check(cudaEventSynchronize(b), "steps");
    check(cudaGetLastError(), "launch");
    run.best_s = std::min(run.best_s, elapsed_ms(a, b) / 1e3);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return run;
}

void free_fields(Run& run) {
  for (double* d : run.fields) cudaFree(d);
  run.fields.clear();
}

// Points of u(t) and u(t-1) that differ from the reference's, bit for bit.
unsigned long long differing_points(const Setup& s, const Run& got, const Run& reference) {
  unsigned long long* d_count = nullptr;
  check(cudaMalloc(&d_count, sizeof *d_count), "cudaMalloc");
  check(cudaMemset(d_count, 0, sizeof *d_count), "memset");
  count_differences<<<1024, 256>>>(got.end.first, reference.end.first, s.n, d_count);
  count_differences<<<1024, 256>>>(got.end.second, reference.end.second, s.n, d_count);
  unsigned long long count = 0;
  check(cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost), "compare");
  cudaFree(d_count);
  return count;
}

// STEPS single steps: the reference.
Run run_single(const Setup& s, int steps) {
  const dim3 block(32, 8), grid((s.g.nz + 31) / 32, (s.g.ny + 7) / 8, s.g.nx);
  return timed_rounds(s, 3, [&](const std::vector<double*>& f) {
    double *pm = f[0], *p0 = f[1], *p1 = f[2];
    for (int t = 0; t < steps; ++t) {
      single_step<<<grid, block>>>(s.g, p1, p0, pm);
      double* r = pm;
      pm = p0;
      p0 = p1;
      p1 = r;
    }
    return std::pair{p0, pm};
  });
}

using SweepKernel = void (*)(Grid, double*, double*, const double*, const double*, int);

struct Shape {
  std::string name;
  SweepKernel kernel;
  int steps_per_sweep;
  dim3 block;
  int K, J;
  bool planted;
  int shared_bytes = 0;  // dynamic shared memory a block
};

// STEPS steps, the shape's steps a sweep, on four fields.
Run run_sweeps(const Setup& s, int steps, int segment, const Shape& shape) {
  const int K = shape.K, J = shape.J, per_sweep = shape.steps_per_sweep;
  const dim3 grid((s.g.nz + K - 1) / K, (s.g.ny + J - 1) / J, (s.g.nx + segment - 1) / segment);
  check(cudaFuncSetAttribute(shape.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shape.shared_bytes),
        "shared memory size");
  return timed_rounds(s, 4, [&](const std::vector<double*>& f) {
    double *um = f[0], *u0 = f[1], *u1 = f[2], *u2 = f[3];
    for (int t = 0; t < steps; t += per_sweep) {
      shape.kernel<<<grid, shape.block, shape.shared_bytes>>>(s.g, u1, u2, u0, um, segment);
      std::swap(um, u1);  // the sweep's two last levels are the next sweep's (u(t-1), u(t))
      std::swap(u0, u2);
    }
    return std::pair{u0, um};
  });
}

template <int K, int J, bool plant>
Shape tile2_shape(const char* name) {
  return {name, tile2<J, plant>, 2, dim3(kTileK, J), kTileK, J, plant};
}
template <int K, int J, bool plant>
Shape reg2_shape(const char* name) {
  return {name, reg2<K, J, plant>, 2, dim3(K + 4, J + 4), K, J, plant};
}
template <int S, int K, int J, int R, int MIN_BLOCKS, bool plant, int FORM = kBranch>
Shape regp_shape(const char* name) {
  const int shared_bytes = 2 * S * (J + 2 * S) * (K + 2 * S) * sizeof(double);
  return {name,        regp<S, K, J, R, MIN_BLOCKS, plant, FORM>, S, dim3(K + 2 * S, (J + 2 * S) / R), K, J, plant,
          shared_bytes};
}

// Every shape this program knows; a run names the ones it times (default: kDefaultShapes).
const std::vector<Shape> kShapes = {
    tile2_shape<32, 8, false>("tile2-32x8"),
    reg2_shape<32, 16, false>("reg2-32x16"),
    reg2_shape<32, 24, false>("reg2-32x24"),
    reg2_shape<64, 10, false>("reg2-64x10"),
    regp_shape<2, 32, 16, 1, 2, false>("reg2p-32x16"),
    regp_shape<2, 28, 16, 1, 2, false>("reg2p-28x16"),
    regp_shape<2, 28, 12, 1, 3, false>("reg2p-28x12"),
    regp_shape<2, 32, 16, 2, 3, false>("reg2p-32x16/2"),
    regp_shape<2, 32, 16, 2, 2, false>("reg2p-32x16/2b2"),
    regp_shape<2, 28, 16, 2, 3, false>("reg2p-28x16/2"),
    regp_shape<2, 28, 28, 2, 2, false>("reg2p-28x28/2"),
    regp_shape<3, 26, 14, 1, 2, false>("reg3p-26x14"),
    regp_shape<3, 26, 10, 1, 3, false>("reg3p-26x10"),
    regp_shape<3, 26, 26, 2, 2, false>("reg3p-26x26/2"),
    regp_shape<4, 24, 12, 1, 2, false>("reg4p-24x12"),
    regp_shape<4, 24, 8, 1, 3, false>("reg4p-24x8"),
    regp_shape<4, 24, 24, 2, 2, false>("reg4p-24x24/2"),
    regp_shape<5, 22, 10, 1, 2, false>("reg5p-22x10"),
    regp_shape<6, 20, 8, 1, 2, false>("reg6p-20x8"),
    regp_shape<3, 26, 14, 1, 2, false, kTable>("reg3p-26x14-table"),
    regp_shape<3, 26, 14, 1, 2, false, kSelect>("reg3p-26x14-select"),
    regp_shape<3, 26, 12, 1, 2, false, kSelect>("reg3p-26x12-select"),
    regp_shape<3, 26, 16, 1, 2, false, kSelect>("reg3p-26x16-select"),
    regp_shape<4, 24, 12, 1, 2, false, kTable>("reg4p-24x12-table"),
    regp_shape<4, 24, 12, 1, 2, false, kSelect>("reg4p-24x12-select"),
    tile2_shape<32, 8, true>("planted-tile2"),
    reg2_shape<32, 16, true>("planted-reg2"),
    regp_shape<2, 32, 16, 2, 3, true>("planted-reg2p"),
    regp_shape<3, 26, 14, 1, 2, true>("planted-reg3p"),
    regp_shape<4, 24, 12, 1, 2, true>("planted-reg4p"),
    regp_shape<3, 26, 14, 1, 2, true, kSelect>("planted-reg3p-select"),
};
const char* kDefaultShapes =
    "reg3p-26x14,reg3p-26x14-table,reg3p-26x14-select,reg3p-26x12-select,reg3p-26x16-select,reg4p-24x12-table,"
    "reg4p-24x12-select,planted-reg3p,planted-reg3p-select";

template <class T>
std::vector<T> parse_list(const char* text, T (*parse)(const std::string&)) {
  std::vector<T> v;
  std::string item;
  for (const char* p = text;; ++p) {
    if (*p == ',' || *p == '\0') {
      if (!item.empty()) v.push_back(parse(item));
      item.clear();
      if (*p == '\0') break;
    } else {
      item += *p;
    }
  }
  return v;
}

const Shape* find_shape(const std::string& name) {
  for (const Shape& shape : kShapes)
    if (shape.name == name) return &shape;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: awave-cuda-tblock N [STEPS] [SEGMENT,...] [SHAPE,...]\n");
    return 2;
  }
  const int n = std::atoi(argv[1]);
  const int steps = argc > 2 ? std::atoi(argv[2]) : 60;
  const std::vector<int> segments =
      parse_list<int>(argc > 3 ? argv[3] : "128,256,100000", [](const std::string& s) { return std::atoi(s.c_str()); });
  const std::vector<std::string> names =
      parse_list<std::string>(argc > 4 ? argv[4] : kDefaultShapes, [](const std::string& s) { return s; });
  if (n < 2 * kBoundaryLayers || steps < 2) {
    std::fprintf(stderr, "awave-cuda-tblock: N >= %d and STEPS >= 2\n", 2 * kBoundaryLayers);
    return 2;
  }
  std::vector<const Shape*> shapes;
  for (const std::string& name : names) {
    const Shape* shape = find_shape(name);
    if (!shape) {
      std::fprintf(stderr, "awave-cuda-tblock: no shape '%s'\n", name.c_str());
      return 2;
    }
    shapes.push_back(shape);
  }
  for (const int segment : segments)
    if (segment < 1) {
      std::fprintf(stderr, "awave-cuda-tblock: a segment is >= 1 plane\n");
      return 2;
    }
  WaveParams p;
  p.shape = {n, n, n};
  p.nsteps = steps;
  const WaveProblem problem(p);
  const PaddedGeometry geo = problem.geometry();
  Setup s;
  s.n = geo.size();
  {
    std::vector<double> now(s.n), prev(s.n);
    problem.fill_start_state(now.data(), prev.data());
    for (std::size_t i = 0; i < s.n; ++i) {
      if (now[i] != 0.0) s.start_now.emplace_back(i, now[i]);
      if (prev[i] != 0.0) s.start_prev.emplace_back(i, prev[i]);
    }
  }
  s.g = Grid{
      device_copy(problem.cs2_k()), device_copy(problem.damp_ij()), problem.f(), p.dt, n, n, n, long(geo.stride_i()),
      long(geo.stride_j())};
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "device properties");
  const double points = double(n) * n * n;
  Run reference = run_single(s, steps);
  // The reference's third field is not needed any more: room for a shape's four at 1000^3.
  for (double*& d : reference.fields)
    if (d != reference.end.first && d != reference.end.second) {
      cudaFree(d);
      d = nullptr;
    }
  std::printf(
      "{\"gpu\": \"%s\", \"n\": %d, \"steps\": %d, \"shape\": \"single\", \"segment\": 0, \"su_per_s\": %.4e, "
      "\"bitwise\": true}\n",
      prop.name, n, steps, points * steps / reference.best_s);
  std::fflush(stdout);
  bool ok = true, missed = false;
  for (const Shape* shape : shapes) {
    cudaFuncAttributes attributes{};
    check(cudaFuncGetAttributes(&attributes, shape->kernel), "kernel attributes");
    for (const int segment : segments) {
      const int seg = std::min(segment, n);
      if (steps % shape->steps_per_sweep) {
        std::fprintf(stderr, "awave-cuda-tblock: %s skipped: STEPS is not a multiple of its %d steps a sweep\n",
                     shape->name.c_str(), shape->steps_per_sweep);
        break;
      }
      Run run = run_sweeps(s, steps, seg, *shape);
      const unsigned long long differing = differing_points(s, run, reference);
      free_fields(run);
      std::printf(
          "{\"gpu\": \"%s\", \"n\": %d, \"steps\": %d, \"shape\": \"%s\", \"segment\": %d, \"su_per_s\": %.4e, "
          "\"vs_single\": %.3f, \"bitwise\": %s, \"differing_points\": %llu, \"registers\": %d, "
          "\"spill_bytes\": %zu, \"threads_per_block\": %u, \"steps_per_sweep\": %d}\n",
          prop.name, n, steps, shape->name.c_str(), seg, points * steps / run.best_s, reference.best_s / run.best_s,
          differing == 0 ? "true" : "false", differing, attributes.numRegs, attributes.localSizeBytes,
          shape->block.x * shape->block.y, shape->steps_per_sweep);
      std::fflush(stdout);
      if (shape->planted)
        missed |= differing == 0;
      else
        ok &= differing == 0;
      if (shape->planted) break;  // one segment shows it
    }
  }
  if (missed) std::fprintf(stderr, "awave-cuda-tblock: a planted difference was not seen\n");
  if (!ok) std::fprintf(stderr, "awave-cuda-tblock: a shape is not bitwise\n");
  return ok && !missed ? 0 : 1;
}
