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
//   planted    tile2 (and reg2) with one point of u(t+2) off by one ulp: the bitwise check must see it.
// Each shape at the segments given. SU/s over every interior point (sponge included), best of
// 3 runs of STEPS steps (even); bitwise: u(t) and u(t-1) after STEPS steps equal single's.
//   awave-cuda-tblock N [STEPS] [SEGMENT,...]    (an N^3 grid, the model's coefficients and start)
// Prints one JSON object per line.
#include "core/wave_params.hpp"
#include "core/wave_problem.hpp"
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
  if (e != cudaSuccess) {
    std::fprintf(stderr, "awave-cuda-tblock: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
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

struct Setup {
  Grid g;
  std::size_t n;  // padded values per field
  std::vector<double> start_now, start_prev;
};

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

using Fields = std::pair<std::vector<double>, std::vector<double>>;  // u(t), u(t-1) on the host

// Three timed rounds from the start state on `levels` device fields (level 0 holds u(t-1), the
// others u(t), whose ghost points are the start's zeros): march(f) queues the steps on f and
// returns where u(t) and u(t-1) end. The fields of the last round, and the best time.
template <class March>
Fields timed_rounds(const Setup& s, int levels, March march, double& best_s) {
  std::vector<double*> f;
  for (int l = 0; l < levels; ++l) f.push_back(device_copy(l == 0 ? s.start_prev : s.start_now));
  cudaEvent_t a, b;
  check(cudaEventCreate(&a), "event");
  check(cudaEventCreate(&b), "event");
  best_s = 1e30;
  Fields out{std::vector<double>(s.n), std::vector<double>(s.n)};
  for (int round = 0; round < 3; ++round) {
    for (int l = 0; l < levels; ++l)
      check(cudaMemcpy(f[l], (l == 0 ? s.start_prev : s.start_now).data(), s.n * 8, cudaMemcpyHostToDevice), "reset");
    check(cudaEventRecord(a), "event");
    const std::pair<double*, double*> end = march(f);
    check(cudaEventRecord(b), "event");
    check(cudaEventSynchronize(b), "steps");
    check(cudaGetLastError(), "launch");
    best_s = std::min(best_s, elapsed_ms(a, b) / 1e3);
    check(cudaMemcpy(out.first.data(), end.first, s.n * 8, cudaMemcpyDeviceToHost), "copy out");
    check(cudaMemcpy(out.second.data(), end.second, s.n * 8, cudaMemcpyDeviceToHost), "copy out");
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  for (double* d : f) cudaFree(d);
  return out;
}

// STEPS single steps: the reference.
Fields run_single(const Setup& s, int steps, double& best_s) {
  const dim3 block(32, 8), grid((s.g.nz + 31) / 32, (s.g.ny + 7) / 8, s.g.nx);
  return timed_rounds(
      s, 3,
      [&](const std::vector<double*>& f) {
        double *pm = f[0], *p0 = f[1], *p1 = f[2];
        for (int t = 0; t < steps; ++t) {
          single_step<<<grid, block>>>(s.g, p1, p0, pm);
          double* r = pm;
          pm = p0;
          p0 = p1;
          p1 = r;
        }
        return std::pair{p0, pm};
      },
      best_s);
}

enum class Form { tile2, reg2 };

// STEPS steps, two per sweep, on four fields.
template <Form form, int K, int J, bool plant>
Fields run_two_step(const Setup& s, int steps, int segment, double& best_s) {
  const dim3 block = form == Form::tile2 ? dim3(K, J) : dim3(K + 4, J + 4);
  const dim3 grid((s.g.nz + K - 1) / K, (s.g.ny + J - 1) / J, (s.g.nx + segment - 1) / segment);
  return timed_rounds(
      s, 4,
      [&](const std::vector<double*>& f) {
        double *um = f[0], *u0 = f[1], *u1 = f[2], *u2 = f[3];
        for (int t = 0; t < steps; t += 2) {
          if constexpr (form == Form::tile2)
            tile2<J, plant><<<grid, block>>>(s.g, u1, u2, u0, um, segment);
          else
            reg2<K, J, plant><<<grid, block>>>(s.g, u1, u2, u0, um, segment);
          std::swap(um, u1);  // (u(t+1), u(t+2)) are the next sweep's (u(t-1), u(t))
          std::swap(u0, u2);
        }
        return std::pair{u0, um};
      },
      best_s);
}

std::vector<int> parse_list(const char* text) {
  std::vector<int> v;
  for (const char* p = text; *p;) {
    v.push_back(std::atoi(p));
    while (*p && *p != ',') ++p;
    if (*p == ',') ++p;
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: awave-cuda-tblock N [STEPS] [SEGMENT,...]\n");
    return 2;
  }
  const int n = std::atoi(argv[1]);
  const int steps = argc > 2 ? std::atoi(argv[2]) : 20;
  const std::vector<int> segments = parse_list(argc > 3 ? argv[3] : "16,64,100000");
  if (n < 2 * kBoundaryLayers || steps < 2 || steps % 2) {
    std::fprintf(stderr, "awave-cuda-tblock: N >= %d and an even STEPS >= 2\n", 2 * kBoundaryLayers);
    return 2;
  }
  WaveParams p;
  p.shape = {n, n, n};
  p.nsteps = steps;
  const WaveProblem problem(p);
  const PaddedGeometry geo = problem.geometry();
  Setup s;
  s.n = geo.size();
  s.start_now.resize(s.n);
  s.start_prev.resize(s.n);
  problem.fill_start_state(s.start_now.data(), s.start_prev.data());
  s.g = Grid{
      device_copy(problem.cs2_k()), device_copy(problem.damp_ij()), problem.f(), p.dt, n, n, n, long(geo.stride_i()),
      long(geo.stride_j())};
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "device properties");
  const double points = double(n) * n * n;
  double single_s = 0;
  const auto reference = run_single(s, steps, single_s);
  std::printf(
      "{\"gpu\": \"%s\", \"n\": %d, \"steps\": %d, \"shape\": \"single\", \"segment\": 0, \"su_per_s\": %.4e, "
      "\"bitwise\": true}\n",
      prop.name, n, steps, points * steps / single_s);
  auto report = [&](const char* shape, int segment, double seconds, const Fields& got) {
    const bool same = std::memcmp(got.first.data(), reference.first.data(), s.n * 8) == 0 &&
                      std::memcmp(got.second.data(), reference.second.data(), s.n * 8) == 0;
    std::printf(
        "{\"gpu\": \"%s\", \"n\": %d, \"steps\": %d, \"shape\": \"%s\", \"segment\": %d, \"su_per_s\": %.4e, "
        "\"vs_single\": %.3f, \"bitwise\": %s}\n",
        prop.name, n, steps, shape, segment, points * steps / seconds, single_s / seconds, same ? "true" : "false");
    std::fflush(stdout);
    return same;
  };
  bool ok = true;
  for (const int segment : segments) {
    const int seg = std::min(segment, n);
    double t = 0;
    auto tile8 = run_two_step<Form::tile2, kTileK, 8, false>(s, steps, seg, t);
    ok &= report("tile2-32x8", seg, t, tile8);
    auto reg16 = run_two_step<Form::reg2, 32, 16, false>(s, steps, seg, t);
    ok &= report("reg2-32x16", seg, t, reg16);
    auto reg24 = run_two_step<Form::reg2, 32, 24, false>(s, steps, seg, t);
    ok &= report("reg2-32x24", seg, t, reg24);
    auto reg64 = run_two_step<Form::reg2, 64, 10, false>(s, steps, seg, t);
    ok &= report("reg2-64x10", seg, t, reg64);
  }
  double t = 0;
  const int seg = std::min(segments.front(), n);
  auto planted = run_two_step<Form::tile2, kTileK, 8, true>(s, steps, seg, t);
  bool missed = report("planted", seg, t, planted);
  auto planted_reg = run_two_step<Form::reg2, 32, 16, true>(s, steps, seg, t);
  missed = report("planted-reg2", seg, t, planted_reg) || missed;
  if (missed) std::fprintf(stderr, "awave-cuda-tblock: the planted difference was not seen\n");
  if (!ok) std::fprintf(stderr, "awave-cuda-tblock: a shape is not bitwise\n");
  return ok && !missed ? 0 : 1;
}
