// awave on Kokkos: one kernel source for every Kokkos backend (Serial, OpenMP, Threads, CUDA,
// OpenMPTarget), templated on the execution space. Fields live in the execution space's
// memory for the whole run: the initial state is copied in once at set-up, and u is copied
// out only by copy_u_to_host (outside the timed region). The GPU backends (CUDA, OpenMPTarget)
// run a step as one flat RangePolicy kernel whose work items march i over a segment with the
// sponge handled inside (over MPI: the bulk, then the x layers). Host backends run three
// RangePolicy kernels over (i, j) columns with the k loop inside: the undamped interior (no
// damp read, no branch), the x sponge layers (corners included) and the y sponge layers (the
// rest); a rank-3 MDRangePolicy form of the three remains for comparison and tests. Small
// grids take one fused kernel per step (core/step_plan.hpp). kokkos_policy.hpp chooses.
// The ring of three Views rotates by handle, never by copy.
#pragma once

#include "core/march_tiles.hpp"
#include "core/step_plan.hpp"
#include "core/time_ring.hpp"
#include "core/wave_impl.hpp"
#include "core/wave_update.hpp"
#include "kokkos/kokkos_backends.hpp"
#include "kokkos/kokkos_policy.hpp"

#include <Kokkos_Core.hpp>
#if defined(KOKKOS_ENABLE_OPENMPTARGET)
#include <omp.h>
#endif

#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace awave {

namespace kokkos_regions {
struct Interior {};  // i in [nbl, nx-nbl) in segments, j in [nbl, ny-nbl): damp == 0 there
struct XLayers {};   // the 2*nbl x layers, every j (corners included)
struct YLayers {};   // the 2*nbl y layers, bulk i only
struct Fused {};     // every point, small grids (core/step_plan.hpp): one kernel per step
// Flat work items marching i over planes [march_begin, march_end), sponge inside: a whole step
// (or an MPI step's bulk) in one kernel (Iteration::march_plane_bytes).
struct Marched {};
struct MarchedXLayers {};  // the two x layers, one march of nbl planes per work item
}  // namespace kokkos_regions

// Iteration: the per-backend choices of kokkos_policy.hpp (a test substitutes its own).
template <class ExecSpace, class Iteration = KokkosIteration<ExecSpace>>
struct WaveStepKernel {
  using MemSpace = typename ExecSpace::memory_space;
  using Field = Kokkos::View<double***, Kokkos::LayoutRight, MemSpace>;
  using ConstField = Kokkos::View<const double***, Kokkos::LayoutRight, MemSpace>;

  Field u_next;
  ConstField u_now, u_prev;
  Kokkos::View<const double*, MemSpace> cs2_k;
  Kokkos::View<const double**, Kokkos::LayoutRight, MemSpace> damp_ij;
  double f, dt;
  int nx, ny, nz;
  int segment;                         // interior i points per work item
  int march_begin = 0, march_end = 0;  // the planes of a Marched kernel
  MarchTiles tiles;                    // its work items' (k, j) tiles

  // Policy axes (a0, a1, a2) -> region coordinates (x, y, k).
  KOKKOS_INLINE_FUNCTION static void unpermute(int a0, int a1, int a2, int& x, int& y, int& k) {
    if (Iteration::k_first) {
      k = a0;
      y = a1;
      x = a2;
    } else {
      x = a0;
      y = a1;
      k = a2;
    }
  }

  KOKKOS_INLINE_FUNCTION Stencil7 stencil(int i, int j, int k) const {
    const int pi = i + 1, pj = j + 1, pk = k + 1;
    return {u_now(pi, pj, pk),     u_now(pi - 1, pj, pk), u_now(pi + 1, pj, pk), u_now(pi, pj - 1, pk),
            u_now(pi, pj + 1, pk), u_now(pi, pj, pk - 1), u_now(pi, pj, pk + 1)};
  }

  KOKKOS_INLINE_FUNCTION void damped_update(int i, int j, int k) const {
    u_next(i + 1, j + 1, k + 1) =
        next_value(stencil(i, j, k), u_prev(i + 1, j + 1, k + 1), cs2_k(k), damp_ij(i, j), f, dt);
  }

  // With a segment of 1 (compile-time, per backend) a work item updates one point; otherwise
  // it marches along i over its segment, keeping `now` at i-1, i, i+1 in registers.
  KOKKOS_INLINE_FUNCTION void operator()(kokkos_regions::Interior, int a0, int a1, int a2) const {
    int s, j, k;
    unpermute(a0, a1, a2, s, j, k);
    if constexpr (Iteration::interior_segment == 1) {
      const int i = kBoundaryLayers + s;
      u_next(i + 1, j + 1, k + 1) = undamped_next(stencil(i, j, k), u_prev(i + 1, j + 1, k + 1), cs2_k(k), f);
      return;
    }
    const int pi_begin = kBoundaryLayers + s * segment + 1;
    const int pi_end = pi_begin + segment < nx - kBoundaryLayers + 1 ? pi_begin + segment : nx - kBoundaryLayers + 1;
    undamped_march(pi_begin, pi_end, j + 1, k + 1);
  }

  // The undamped update along padded i in [pi_begin, pi_end) at padded (pj, pk), no point in a
  // sponge layer: `now` at i-1, i, i+1 in registers, no branch, no damp read. One offset c into
  // the three levels (Views of one shape, the time ring's) and their two strides, as hand CUDA
  // indexes, instead of each View's own index arithmetic: Kokkos-CUDA's step kernel on the H200
  // ran 1.436e11 SU/s against 1.385e11 at 512^3 and 1.407e11 against 1.363e11 at 1000^3 so
  // (bench/results/h200-2026-11-24/kokkos-unroll-cbb39ec, "range", against kokkos-launch-9ab3bfd).
  KOKKOS_INLINE_FUNCTION void undamped_march(int pi_begin, int pi_end, int pj, int pk) const {
    const double cs2 = cs2_k(pk - 1);
    const long si = long(u_now.stride(0)), sj = long(u_now.stride(1));
    const double* now = u_now.data();
    const double* prev = u_prev.data();
    double* next = u_next.data();
    long c = pi_begin * si + pj * sj + pk;
    double xm = now[c - si], centre = now[c];
    for (int pi = pi_begin; pi < pi_end; ++pi, c += si) {
      const double xp = now[c + si];
      const Stencil7 st{centre, xm, xp, now[c - sj], now[c + sj], now[c - 1], now[c + 1]};
      next[c] = undamped_next(st, prev[c], cs2, f);
      xm = centre;
      centre = xp;
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(kokkos_regions::XLayers, int a0, int a1, int a2) const {
    int r, j, k;  // r: layer number 0..2*nbl-1, low face first
    unpermute(a0, a1, a2, r, j, k);
    damped_update(r < kBoundaryLayers ? r : nx - 2 * kBoundaryLayers + r, j, k);
  }

  KOKKOS_INLINE_FUNCTION void operator()(kokkos_regions::YLayers, int a0, int a1, int a2) const {
    int i, r, k;
    unpermute(a0, a1, a2, i, r, k);
    damped_update(i, r < kBoundaryLayers ? r : ny - 2 * kBoundaryLayers + r, k);
  }

  KOKKOS_INLINE_FUNCTION void operator()(kokkos_regions::Fused, int a0, int a1, int a2) const {
    int i, j, k;
    unpermute(a0, a1, a2, i, j, k);
    if (in_sponge(i, j, nx, ny)) return damped_update(i, j, k);
    u_next(i + 1, j + 1, k + 1) = undamped_next(stencil(i, j, k), u_prev(i + 1, j + 1, k + 1), cs2_k(k), f);
  }

  // March i over [i_begin, i_end) at (j, k) with `now` at i-1, i, i+1 in registers; damped
  // where (i, j) is in a sponge layer, undamped elsewhere: the reference's arithmetic. Where the
  // backend prefers it (Iteration::sponge_test_per_march), the sponge test is made once per
  // march: most marches meet no layer and take a loop with no branch and no damp read. The loop
  // indexes the levels through one offset or through the Views, as the backend prefers
  // (Iteration::march_one_offset).
  KOKKOS_INLINE_FUNCTION void march(int i_begin, int i_end, int j, int k) const {
    const int pj = j + 1, pk = k + 1;
    const bool y_sponge = j < kBoundaryLayers || j >= ny - kBoundaryLayers;
    if (Iteration::sponge_test_per_march && !y_sponge && i_begin >= kBoundaryLayers && i_end <= nx - kBoundaryLayers)
      return undamped_march(i_begin + 1, i_end + 1, pj, pk);
    const double cs2 = cs2_k(k);
    if constexpr (Iteration::march_one_offset) {  // indexed as undamped_march is
      const long si = long(u_now.stride(0)), sj = long(u_now.stride(1));
      const double* now = u_now.data();
      const double* prev = u_prev.data();
      double* next = u_next.data();
      const double* damp_j = damp_ij.data() + j;  // damp_ij(i, j) at damp_j[i * damp_si]
      const long damp_si = long(damp_ij.stride(0));
      long c = (i_begin + 1) * si + pj * sj + pk;
      double xm = now[c - si], centre = now[c];
      for (int i = i_begin; i < i_end; ++i, c += si) {
        const double xp = now[c + si];
        const Stencil7 st{centre, xm, xp, now[c - sj], now[c + sj], now[c - 1], now[c + 1]};
        if (y_sponge || i < kBoundaryLayers || i >= nx - kBoundaryLayers)
          next[c] = next_value(st, prev[c], cs2, damp_j[i * damp_si], f, dt);
        else
          next[c] = undamped_next(st, prev[c], cs2, f);
        xm = centre;
        centre = xp;
      }
    } else {
      double xm = u_now(i_begin, pj, pk), centre = u_now(i_begin + 1, pj, pk);
      for (int i = i_begin; i < i_end; ++i) {
        const int pi = i + 1;
        const double xp = u_now(pi + 1, pj, pk);
        const Stencil7 st{
            centre, xm, xp, u_now(pi, pj - 1, pk), u_now(pi, pj + 1, pk), u_now(pi, pj, pk - 1), u_now(pi, pj, pk + 1)};
        if (y_sponge || i < kBoundaryLayers || i >= nx - kBoundaryLayers)
          u_next(pi, pj, pk) = next_value(st, u_prev(pi, pj, pk), cs2, damp_ij(i, j), f, dt);
        else
          u_next(pi, pj, pk) = undamped_next(st, u_prev(pi, pj, pk), cs2, f);
        xm = centre;
        centre = xp;
      }
    }
  }

  // One flat 32-bit work index over (k, j) tiles, k fastest (core/march_tiles.hpp).
  KOKKOS_INLINE_FUNCTION void operator()(kokkos_regions::Marched, int t) const {
    int s, j, k;
    if (!tiles.decode(t, ny, nz, s, j, k)) return;
    const int i0 = march_begin + s * segment;
    march(i0, i0 + segment < march_end ? i0 + segment : march_end, j, k);
  }

  KOKKOS_INLINE_FUNCTION void operator()(kokkos_regions::MarchedXLayers, int t) const {
    const int k = t % nz, rest = t / nz, j = rest % ny;
    if (rest / ny == 0)
      march(0, kBoundaryLayers, j, k);
    else
      march(nx - kBoundaryLayers, nx, j, k);
  }

  // Column work items (Iteration::k_columns, host backends): one (i, j) column per work item,
  // numbered c over the region's (x, y) plane, y fastest; the k loop runs along contiguous
  // memory with unit-stride loads the compiler can vectorise.
  KOKKOS_INLINE_FUNCTION void operator()(kokkos_regions::Interior, int c) const {
    const int columns_y = ny - 2 * kBoundaryLayers;
    interior_column(kBoundaryLayers + c / columns_y, kBoundaryLayers + c % columns_y);
  }

  KOKKOS_INLINE_FUNCTION void interior_column(int i, int j) const {
    const int pi = i + 1, pj = j + 1;
    const double* centre = &u_now(pi, pj, 0);
    const double *xm = &u_now(pi - 1, pj, 0), *xp = &u_now(pi + 1, pj, 0);
    const double *ym = &u_now(pi, pj - 1, 0), *yp = &u_now(pi, pj + 1, 0);
    const double* prev = &u_prev(pi, pj, 0);
    double* next = &u_next(pi, pj, 0);
    for (int pk = 1; pk <= nz; ++pk) {
      const Stencil7 st{centre[pk], xm[pk], xp[pk], ym[pk], yp[pk], centre[pk - 1], centre[pk + 1]};
      next[pk] = undamped_next(st, prev[pk], cs2_k(pk - 1), f);
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(kokkos_regions::XLayers, int c) const {
    const int r = c / ny, j = c % ny;
    const int i = r < kBoundaryLayers ? r : nx - 2 * kBoundaryLayers + r;
    for (int k = 0; k < nz; ++k) damped_update(i, j, k);
  }

  KOKKOS_INLINE_FUNCTION void operator()(kokkos_regions::YLayers, int c) const {
    const int i = kBoundaryLayers + c / (2 * kBoundaryLayers), r = c % (2 * kBoundaryLayers);
    const int j = r < kBoundaryLayers ? r : ny - 2 * kBoundaryLayers + r;
    for (int k = 0; k < nz; ++k) damped_update(i, j, k);
  }

  KOKKOS_INLINE_FUNCTION void operator()(kokkos_regions::Fused, int c) const {
    const int i = c / ny, j = c % ny;
    if (!in_sponge(i, j, nx, ny)) return interior_column(i, j);
    for (int k = 0; k < nz; ++k) damped_update(i, j, k);
  }
};

// The branch-free march (WaveStepKernel::undamped_march), and the march with sponge layers where a
// backend chooses it, index next, now and prev through one offset and now's strides:
// the three levels need one layout, k contiguous. The time ring makes them so; this checks it.
template <class View3>
bool one_layout(const View3& a, const View3& b, const View3& c) {
  for (const View3* u : {&b, &c})
    for (int r = 0; r < 3; ++r)
      if (u->extent(r) != a.extent(r) || u->stride(r) != a.stride(r)) return false;
  return a.stride(2) == 1;
}

template <class ExecSpace, class Iteration = KokkosIteration<ExecSpace>>
class WaveKokkos final : public WaveImpl {
  using Kernel = WaveStepKernel<ExecSpace, Iteration>;
  using Field = typename Kernel::Field;
  using MemSpace = typename Kernel::MemSpace;
  using HostPlane = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;

 public:
  WaveKokkos(const WaveProblem& problem, std::string id)
      : WaveImpl(problem), id_(std::move(id)), ring_(initial_ring(problem, exec_)) {
    const PaddedGeometry g = problem.geometry();
    Kokkos::View<double*, MemSpace> cs2_k("wave::cs2_k", g.nz);
    Kokkos::View<double**, Kokkos::LayoutRight, MemSpace> damp_ij("wave::damp_ij", g.nx, g.ny);
    auto h_cs2_k = Kokkos::create_mirror_view(cs2_k);
    auto h_damp_ij = Kokkos::create_mirror_view(damp_ij);
    for (int k = 0; k < g.nz; ++k) h_cs2_k(k) = problem.cs2_k()[k];
    for (int i = 0; i < g.nx; ++i)
      for (int j = 0; j < g.ny; ++j) h_damp_ij(i, j) = problem.damp(i, j);
    Kokkos::deep_copy(exec_, cs2_k, h_cs2_k);
    Kokkos::deep_copy(exec_, damp_ij, h_damp_ij);
    cs2_k_ = cs2_k;
    damp_ij_ = damp_ij;
    exec_.fence();
  }

  std::string id() const override { return id_; }
  long time_step() const override { return ring_.time(); }

  void run(int nsteps) override {
    for (int n = 0; n < nsteps; ++n) {
      launch(Part::all);
      ring_.rotate();
    }
    exec_.fence();  // run() is blocking: the steps are complete when it returns
  }

  bool can_split_step() const override { return !fused_step(problem_.params()); }
  void queue_step_part(StepPart part) override { launch(part == StepPart::bulk ? Part::bulk : Part::edges); }
  void wait_for_step_parts() override { exec_.fence(); }
  void finish_step() override {
    exec_.fence();
    ring_.rotate();
  }

  void copy_now_plane_to_host(int pi, double* host) override {
    const Field& now = ring_.now();
    HostPlane h(host, now.extent(1), now.extent(2));
    Kokkos::deep_copy(exec_, h, Kokkos::subview(now, pi, Kokkos::ALL, Kokkos::ALL));
    exec_.fence();
  }

  void copy_host_to_now_plane(int pi, const double* host) override {
    const Field& now = ring_.now();
    HostPlane h(const_cast<double*>(host), now.extent(1), now.extent(2));
    Kokkos::deep_copy(exec_, Kokkos::subview(now, pi, Kokkos::ALL, Kokkos::ALL), h);
    exec_.fence();
  }

  double* now_plane_on_device(int pi) override {
    // CudaSpace and OpenMPTargetSpace memory is CUDA device memory on an NVIDIA GPU (the NCCL
    // exchange checks); LayoutRight keeps a plane of constant i contiguous.
    if constexpr (KokkosBackend<ExecSpace>::on_host) {
      (void)pi;
      return nullptr;
    } else {
      const Field& now = ring_.now();
      if (now.stride(0) != now.extent(1) * now.extent(2)) return nullptr;  // padded rows: not one block
      return now.data() + std::size_t(pi) * now.stride(0);
    }
  }

#if defined(KOKKOS_ENABLE_CUDA)
  // Kokkos 3.4's default CUDA instance queues on the legacy default stream (a null handle);
  // later versions on a stream of their own.
  std::optional<void*> cuda_stream() override {
    if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>)
      return exec_.cuda_stream();
    else
      return std::nullopt;
  }
  void advance_queued_step() override {
    if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>)
      ring_.rotate();
    else
      finish_step();
  }
#endif

  std::shared_ptr<double> halo_buffer(std::size_t n) override {
#if defined(KOKKOS_ENABLE_CUDA)
    if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {  // pinned: the copies are DMA
      auto* p =
          static_cast<double*>(Kokkos::kokkos_malloc<Kokkos::CudaHostPinnedSpace>("wave::halo", n * sizeof(double)));
      return std::shared_ptr<double>(p, [](double* q) { Kokkos::kokkos_free<Kokkos::CudaHostPinnedSpace>(q); });
    }
#endif
#if defined(KOKKOS_ENABLE_OPENMPTARGET)
    if constexpr (std::is_same_v<ExecSpace, Kokkos::Experimental::OpenMPTarget>) {  // pinned through libomptarget
      if (void* p = omp_alloc(n * sizeof(double), llvm_omp_target_host_mem_alloc))
        return std::shared_ptr<double>(static_cast<double*>(p),
                                       [](double* q) { omp_free(q, llvm_omp_target_host_mem_alloc); });
    }
#endif
    return WaveImpl::halo_buffer(n);
  }

  void copy_u_to_host(double* h_now, double* h_prev) override {
    using HostField = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
    const Field& now = ring_.now();
    HostField now_host(h_now, now.extent(0), now.extent(1), now.extent(2));
    HostField prev_host(h_prev, now.extent(0), now.extent(1), now.extent(2));
    Kokkos::deep_copy(now_host, now);
    Kokkos::deep_copy(prev_host, ring_.prev());
  }

 private:
  // Queues one step's kernels (or a part of them: see WaveImpl::StepPart) on exec_.
  enum class Part { all, bulk, edges };
  void launch(Part part) {
    const WaveParams& p = problem_.params();
    const int nbl = kBoundaryLayers, nx = p.nx(), ny = p.ny(), nz = p.nz();
    const std::size_t bytes = plane_bytes(problem_.geometry());
    const bool marches = kokkos_marches<Iteration>(bytes);
    const int segment = kokkos_segment(marches ? march_segment_for<Iteration>(bytes) : Iteration::interior_segment);
    const int segments = (nx - 2 * nbl + segment - 1) / segment;
    const Kernel kernel{ring_.next(), ring_.now(), ring_.prev(), cs2_k_, damp_ij_, problem_.f(),
                        p.dt,         nx,          ny,           nz,     segment};
    const bool bulk = part != Part::edges, edges = part != Part::bulk;
    if (fused_step(p)) {  // small grids: one kernel per step
      if constexpr (Iteration::k_columns)
        Kokkos::parallel_for("wave::fused_step",
                             Kokkos::RangePolicy<ExecSpace, kokkos_regions::Fused>(exec_, 0, nx * ny), kernel);
      else
        Kokkos::parallel_for("wave::fused_step", policy<kokkos_regions::Fused>({0, 0, 0}, {nx, ny, nz}), kernel);
      return;
    }
    if (marches) {  // one flat kernel per step (or per MPI part)
      using Int = Kokkos::IndexType<int>;
      if (part == Part::edges) {
        Kokkos::parallel_for("wave::x_layers",
                             Kokkos::RangePolicy<ExecSpace, kokkos_regions::MarchedXLayers, Int>(exec_, 0, 2 * ny * nz),
                             kernel);
        return;
      }
      Kernel marched = kernel;
      marched.march_begin = part == Part::all ? 0 : nbl;
      marched.march_end = part == Part::all ? nx : nx - nbl;
      marched.tiles = MarchTiles::make(ny, nz, (marched.march_end - marched.march_begin + segment - 1) / segment,
                                       kokkos_march_rows(Iteration::march_rows));
      const long items = marched.tiles.items();
      if (items > std::numeric_limits<int>::max())
        throw std::runtime_error("Kokkos: grid too large for 32-bit work indices (raise AWAVE_KOKKOS_SEGMENT)");
      Kokkos::parallel_for(part == Part::all ? "wave::step" : "wave::bulk",
                           Kokkos::RangePolicy<ExecSpace, kokkos_regions::Marched, Int>(exec_, 0, int(items)), marched);
      return;
    }
    if constexpr (Iteration::k_columns) {
      if (bulk)
        Kokkos::parallel_for(
            "wave::interior",
            Kokkos::RangePolicy<ExecSpace, kokkos_regions::Interior>(exec_, 0, (nx - 2 * nbl) * (ny - 2 * nbl)),
            kernel);
      if (edges)
        Kokkos::parallel_for("wave::x_layers",
                             Kokkos::RangePolicy<ExecSpace, kokkos_regions::XLayers>(exec_, 0, 2 * nbl * ny), kernel);
      if (bulk)
        Kokkos::parallel_for(
            "wave::y_layers",
            Kokkos::RangePolicy<ExecSpace, kokkos_regions::YLayers>(exec_, 0, (nx - 2 * nbl) * 2 * nbl), kernel);
      return;
    }
    if (bulk)
      Kokkos::parallel_for("wave::interior", policy<kokkos_regions::Interior>({0, nbl, 0}, {segments, ny - nbl, nz}),
                           kernel);
    if (edges)
      Kokkos::parallel_for("wave::x_layers", policy<kokkos_regions::XLayers>({0, 0, 0}, {2 * nbl, ny, nz}), kernel);
    if (bulk)
      Kokkos::parallel_for("wave::y_layers", policy<kokkos_regions::YLayers>({nbl, 0, 0}, {nx - nbl, 2 * nbl, nz}),
                           kernel);
  }

  // An MDRange over region coordinates [lo, hi) as (x, y, k), permuted to the policy's axes.
  template <class Region>
  Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Iteration::iterate, Iteration::iterate>, Region> policy(
      std::array<int, 3> lo, std::array<int, 3> hi) const {
    auto order = [](std::array<int, 3> v) { return Iteration::k_first ? std::array<int, 3>{v[2], v[1], v[0]} : v; };
    const auto l = order(lo), h = order(hi);
    const std::array<int, 3> t =
        kokkos_tile<Iteration>(plane_bytes(problem_.geometry()) > Iteration::large_plane_bytes);
    return {exec_, {l[0], l[1], l[2]}, {h[0], h[1], h[2]}, {t[0], t[1], t[2]}};
  }

  // The three levels holding the start state (prev; now; next, whose ghost points must be
  // now's). Returned as a prvalue, so ring_ is built in place: no View is ever moved from
  // (see time_ring.hpp).
  static TimeRing<Field> initial_ring(const WaveProblem& problem, const ExecSpace& exec) {
    const PaddedGeometry g = problem.geometry();
    const int px = g.nx + 2, py = g.ny + 2, pz = g.nz + 2;
    Field u0("wave::u_0", px, py, pz), u1("wave::u_1", px, py, pz), u2("wave::u_2", px, py, pz);
    if (!one_layout(u0, u1, u2)) throw std::logic_error("Kokkos: the three time levels differ in layout");
    using HostField = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
    HostField h_now("wave::h_now", px, py, pz), h_prev("wave::h_prev", px, py, pz);
    problem.fill_start_state(h_now.data(), h_prev.data());
    Kokkos::deep_copy(exec, u0, h_prev);
    Kokkos::deep_copy(exec, u1, h_now);
    Kokkos::deep_copy(exec, u2, h_now);
    exec.fence();  // the host copies are freed on return
    return TimeRing<Field>(u0, u1, u2, problem.params().start_step);
  }

  std::string id_;
  ExecSpace exec_;  // declared before ring_, which is built with it
  TimeRing<Field> ring_;
  Kokkos::View<const double*, MemSpace> cs2_k_;
  Kokkos::View<const double**, Kokkos::LayoutRight, MemSpace> damp_ij_;
};

}  // namespace awave
