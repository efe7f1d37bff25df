// awave-cuda-bigtiles (cuda build): big-tile sweeps at low occupancy (issue 73, item 1), in the
// EBISU / PERKS style, against the product's three-step sweep (core/sweep_march.hpp, launched as
// src/cuda/wave_cuda.cu launches it) in the same process.
//
// A variant big<S, AK, CJ, R, P> is one thread block an SM (launch bounds 1) holding its planes
// in the opt-in shared memory beyond 48 KB: the block's columns are a tile of CK = 32 * AK by CJ
// points (halo of S included); its 32 x CJ / R threads own AK * R columns each (k: x + 32 a,
// j: y * R + r, so a warp stays one contiguous k row and the j neighbours of a thread's inner rows
// are its own registers). It marches i in batches of P planes: at batch m level 0 (u(t)) is loaded
// at planes m..m+P-1 and level s = 1..S computed at planes m - sP .. m - sP + P - 1 (each level lags
// the one below by P planes, so the batch's (j, k) neighbours are all the previous batch's, in
// shared memory, and one barrier a batch suffices: the product's march is P = 1). The arithmetic
// is the shared formula (core/wave_update.hpp) as the product's march applies it (undamped_next
// where damp is 0, next_value elsewhere), so the bits are the product's. Batches of a block clear
// of the y layers, away from the x layers and inside the segment take a shorter path (no live
// tests, no damping), as the product's bulk planes.
//
// The commands (check, timing) and their output: bench/cuda_sweep_variants.cuh, which this program
// shares with the bulk-copy study (bench/studies/cuda-bulk-copy).
#include "../../cuda_sweep_variants.cuh"
#include "core/sweep_march.hpp"
#include "core/wave_update.hpp"

#include <cuda_runtime.h>

#include <vector>

using namespace awave;
using sweep_variants::Variant;

namespace {

// A big-tile sweep of S steps (see the top). kPlant: the point (nx/2, ny/2, nz/2) of level S one ulp up.
template <int S, int AK, int CJ, int R, int P, bool kPlant>
__global__ void __launch_bounds__(32 * (CJ / R), 1) big_sweep(SweepFields a, int segment) {
  constexpr int CK = 32 * AK, C = AK * R, kPlane = CJ * CK;
  static_assert(CJ % R == 0 && P >= 1 && P <= 2, "rows split evenly; the bulk batches' loads assume P <= 2");
  extern __shared__ double shared[];  // [2][S][P][CJ][CK]
  auto slot = [&](int buffer, int s, int e) { return shared + ((buffer * S + s) * P + e) * kPlane; };
  const int i0 = blockIdx.z * segment, i1 = min(i0 + segment, a.nx);
  const int k_first = blockIdx.x * (CK - 2 * S) - S, j_first = blockIdx.y * (CJ - 2 * S) - S;
  int ring[C];  // how far the column is outside the tile (<= 0 inside); S + 1 off the grid
  bool in_padded[C];
  double cs2[AK];  // (cs2 depends on k alone; 0 off the grid, where no level is computed)
  // Padded index of the thread's first column at plane 0; column c is `offset(c)` further (one base
  // held, not one a column: the registers go to the march). threadIdx is unsigned: uncast, a first
  // row or column below -1 wrapped past 2^32 and its threads read 2^32 sj (or 2^32) values off.
  const long base = a.si + (j_first + int(threadIdx.y) * R + 1) * a.sj + (k_first + int(threadIdx.x) + 1);
  auto offset = [&](int c) { return (c % R) * a.sj + 32 * (c / R); };
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const int kk = threadIdx.x + 32 * (c / R), jj = threadIdx.y * R + c % R, k = k_first + kk, j = j_first + jj;
    const bool interior = k >= 0 && k < a.nz && j >= 0 && j < a.ny;
    in_padded[c] = k >= -1 && k <= a.nz && j >= -1 && j <= a.ny;
    const int out_k = max(S - kk, kk - (CK - 1 - S)), out_j = max(S - jj, jj - (CJ - 1 - S));
    ring[c] = interior ? max(out_k, out_j) : S + 1;
    if (c % R == 0) cs2[c / R] = k >= 0 && k < a.nz ? a.cs2_k[k] : 0.0;
  }
  const long planted = (a.nx / 2 + 1) * a.si + (a.ny / 2 + 1) * a.sj + (a.nz / 2 + 1);
  auto live = [&](int s, int p) { return p >= i0 - (S - s) && p < i1 + (S - s) && p >= 0 && p < a.nx; };
  // A[s], B[s]: level s at the previous batch's planes and the one before (the march's registers).
  double A[S][C][P], B[S][C][P];
#pragma unroll
  for (int s = 0; s < S; ++s)
#pragma unroll
    for (int c = 0; c < C; ++c)
#pragma unroll
      for (int e = 0; e < P; ++e) A[s][c][e] = B[s][c][e] = 0.0;
  // The next batch's loads, issued before this batch's barrier: u(t) at m + e, u(t-1) at m - P + e.
  double now_next[C][P], prev_next[C][P];
  auto load = [&](int m, auto bulk) {
#pragma unroll
    for (int c = 0; c < C; ++c)
#pragma unroll
      for (int e = 0; e < P; ++e) {
        const int q = m + e, pm = m - P + e;
        if (decltype(bulk)::value) {  // (planes inside the grid and live: P <= 2 <= the layers' 4)
          now_next[c][e] = in_padded[c] ? a.now[base + offset(c) + q * a.si] : 0.0;
          prev_next[c][e] = ring[c] <= S - 1 ? a.prev[base + offset(c) + pm * a.si] : 0.0;
        } else {
          now_next[c][e] = in_padded[c] && q >= -1 && q <= a.nx ? a.now[base + offset(c) + q * a.si] : 0.0;
          prev_next[c][e] = ring[c] <= S - 1 && live(1, pm) ? a.prev[base + offset(c) + pm * a.si] : 0.0;
        }
      }
  };
  const int m_begin = i0 - S;
  auto last_batch = [&](int m) { return m + P - S * P > i1 - 1; };
  load(m_begin, std::false_type{});
  auto batch = [&](int m, int buffer, auto bulk) {
    constexpr bool kBulk = decltype(bulk)::value;
    double cur[S + 1][C][P], prev_p[C][P];
#pragma unroll
    for (int c = 0; c < C; ++c) {
      const int kk = threadIdx.x + 32 * (c / R), jj = threadIdx.y * R + c % R;
#pragma unroll
      for (int e = 0; e < P; ++e) {
        cur[0][c][e] = now_next[c][e];
        prev_p[c][e] = prev_next[c][e];
#pragma unroll
        for (int s = 0; s < S; ++s) slot(buffer, s, e)[jj * CK + kk] = A[s][c][e];
      }
    }
    if (!last_batch(m)) load(m + P, bulk);
    __syncthreads();  // (two buffers: the next batch's stores cannot meet this batch's reads)
#pragma unroll
    for (int s = 1; s <= S; ++s)
#pragma unroll
      for (int c = 0; c < C; ++c) {
        const int kk = threadIdx.x + 32 * (c / R), r = c % R, jj = threadIdx.y * R + r;
#pragma unroll
        for (int e = 0; e < P; ++e) {
          const int p = m - s * P + e;  // level s at plane p, from level s - 1
          double value = 0.0;
          if (ring[c] <= S - s && (kBulk || live(s, p))) {
            const double* L = slot(buffer, s - 1, e);
            const double xm = e > 0 ? A[s - 1][c][e - 1] : B[s - 1][c][P - 1];
            const double xp = e < P - 1 ? A[s - 1][c][e + 1] : cur[s - 1][c][0];
            const double ym = r > 0 ? A[s - 1][c - 1][e] : L[(jj - 1) * CK + kk];
            const double yp = r < R - 1 ? A[s - 1][c + 1][e] : L[(jj + 1) * CK + kk];
            const Stencil7 st{A[s - 1][c][e], xm, xp, ym, yp, L[jj * CK + kk - 1], L[jj * CK + kk + 1]};
            const double prev = s == 1 ? prev_p[c][e] : B[s < 2 ? 0 : s - 2][c][e];
            if (kBulk) {
              value = undamped_next(st, prev, cs2[c / R], a.f);
            } else {
              const int j = j_first + jj;
              const double d = sponge::damp_at(a.damp_ij, a.ny, sponge::in_layer(p, a.nx) ? p : sponge::kLayers, j);
              value =
                  d == 0.0 ? undamped_next(st, prev, cs2[c / R], a.f) : next_value(st, prev, cs2[c / R], d, a.f, a.dt);
            }
            const long at = base + offset(c) + p * a.si;
            if (kPlant && s == S && at == planted) value = nextafter(value, 1e300);
            if (s >= S - 1 && ring[c] <= 0 && (kBulk || (p >= i0 && p < i1))) (s == S ? a.u3 : a.u2)[at] = value;
          }
          cur[s][c][e] = value;
        }
      }
#pragma unroll
    for (int s = 0; s < S; ++s)
#pragma unroll
      for (int c = 0; c < C; ++c)
#pragma unroll
        for (int e = 0; e < P; ++e) {
          B[s][c][e] = A[s][c][e];
          A[s][c][e] = cur[s][c][e];
        }
  };
  // Bulk batches: the block clear of the y layers, every level's planes [m - SP, m - 1] live, written
  // by this segment and outside the x layers (block-uniform).
  const bool clear_of_y_layers = j_first >= sponge::kLayers && j_first + CJ <= a.ny - sponge::kLayers;
  const int lowest = max(i0, sponge::kLayers), highest = min(i1, a.nx - sponge::kLayers);
  int buffer = 0;
  for (int m = m_begin;; m += P, buffer ^= 1) {
    if (clear_of_y_layers && m - S * P >= lowest && m - 1 < highest)
      batch(m, buffer, std::true_type{});
    else
      batch(m, buffer, std::false_type{});
    if (last_batch(m)) break;
  }
}

template <int S, int AK, int CJ, int R, int P>
Variant variant(const char* name) {
  const dim3 block(32, CJ / R);
  const std::size_t shared = std::size_t(2) * S * P * CJ * 32 * AK * sizeof(double);
  return {name,
          reinterpret_cast<const void*>(big_sweep<S, AK, CJ, R, P, false>),
          reinterpret_cast<const void*>(big_sweep<S, AK, CJ, R, P, true>),
          S,
          32 * AK,
          CJ,
          block,
          shared,
          [block, shared](const SweepFields& f, dim3 grid, int segment, bool planted) {
            (planted ? big_sweep<S, AK, CJ, R, P, true> : big_sweep<S, AK, CJ, R, P, false>)<<<grid, block, shared>>>(
                f, segment);
          }};
}

// Every variant this program knows (name: steps, columns k x j, rows a thread, planes a batch; AK > 1
// gives a thread AK columns along k as well). Their ptxas numbers: this folder's README.
const std::vector<Variant> kVariants = {
    variant<3, 1, 64, 2, 1>("b3-k32j64-r2"),    variant<3, 1, 64, 4, 1>("b3-k32j64-r4"),
    variant<3, 2, 32, 2, 1>("b3-k64j32-a2r2"),  variant<3, 1, 60, 3, 1>("b3-k32j60-r3"),
    variant<3, 1, 32, 1, 2>("b3-k32j32-r1-p2"), variant<3, 1, 32, 2, 2>("b3-k32j32-r2-p2"),
    variant<3, 2, 32, 4, 1>("b3-k64j32-a2r4"),  variant<4, 1, 48, 2, 1>("b4-k32j48-r2"),
    variant<4, 1, 32, 2, 1>("b4-k32j32-r2"),    variant<4, 2, 32, 2, 1>("b4-k64j32-a2r2"),
    variant<4, 1, 64, 4, 1>("b4-k32j64-r4"),
};
// The timed default: the variants ptxas gives no spill (CUDA 13, sm_90; README).
const char* kDefaultVariants = "b3-k32j64-r4,b3-k64j32-a2r2,b3-k32j32-r2-p2,b3-k64j32-a2r4,b4-k32j32-r2";

}  // namespace

int main(int argc, char** argv) {
  return sweep_variants::sweep_variants_main(argc, argv, "awave-cuda-bigtiles", kVariants, kDefaultVariants,
                                             {{61, 47, 39}, {97, 61, 33}});
}
