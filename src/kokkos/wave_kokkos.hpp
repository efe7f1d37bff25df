// awave on Kokkos: one class for both Kokkos forms on every Kokkos backend (Serial, OpenMP,
// Threads, CUDA, OpenMPTarget), templated on the form's step (idiomatic_step.hpp: MDRange
// kernels, one point per work item; tuned_step.hpp: hand-scheduled kernels). Fields live in
// the execution space's memory for the whole run: the initial state is copied in once at
// set-up, and u is copied out only by copy_u_to_host (outside the timed region). The ring of
// three Views rotates by handle, never by copy. The tuned form on CUDA takes three steps a
// sweep on large grids (sweep_step.hpp), with a fourth View.
#pragma once

#include "core/step_plan.hpp"
#include "core/time_ring.hpp"
#include "core/wave_impl.hpp"
#include "kokkos/idiomatic_step.hpp"
#include "kokkos/kokkos_backends.hpp"
#include "kokkos/sweep_step.hpp"
#include "kokkos/tuned_step.hpp"

#include <Kokkos_Core.hpp>
#if defined(KOKKOS_ENABLE_OPENMPTARGET)
#include <omp.h>
#endif

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace awave {

// A single-precision snapshot's conversion: float(x), to nearest even, as the host's cast. (At
// namespace scope: nvcc cannot launch a functor private to a class.)
template <class From, class To>
struct RoundToFloat {
  From from;
  To to;
  KOKKOS_FUNCTION void operator()(int i, int j, int k) const { to(i, j, k) = float(from(i, j, k)); }
};

// Step: IdiomaticStep<ExecSpace> or TunedStep<ExecSpace> (or a test's variant of either).
template <class Step>
class WaveKokkos final : public WaveImpl,
                         public SplitStep,
                         public DeviceFields,
                         public StreamOrderedSteps,
                         public PinnedHostMemory {
  using ExecSpace = typename Step::execution_space;
  using MemSpace = typename ExecSpace::memory_space;
  using Field = typename StepFields<MemSpace>::Field;
  using HostPlanes = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;

 public:
  WaveKokkos(const WaveProblem& problem, const StepPlan& plan, std::string id)
      : WaveImpl(problem, plan),
        id_(std::move(id)),
        ring_(initial_ring(problem, exec_)),
        launch_settings_(Step::resolve_launch(plane_bytes(problem.geometry()))) {
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
    if (plan.steps_per_sweep > 1 && !kSweeps) throw std::logic_error("Kokkos: a sweep planned where it was not built");
    if (plan.steps_per_sweep > 1) {  // the fourth field, its ghost points as now's
      spare_ = Field(Kokkos::view_alloc(Kokkos::WithoutInitializing, "wave::u_3"), g.nx + 2, g.ny + 2, g.nz + 2);
      if (!one_layout(spare_, ring_.now(), ring_.prev()) || damp_ij.stride(0) != std::size_t(g.ny))
        throw std::logic_error("Kokkos: the sweep's fields differ in layout");
      Kokkos::deep_copy(exec_, spare_, ring_.now());
      if constexpr (kokkos_cache_sweeps<ExecSpace>)
        cache_shape_ = CacheSweep::from_tuning(g.nx, g.ny, g.nz, ExecSpace().concurrency());
    }
    exec_.fence();
  }

  // The tuned form on the backends that have a sweep (sweep_step.hpp); the registry's Capabilities
  // read it.
  static constexpr bool kSweeps = Step::may_sweep && kokkos_sweeps<ExecSpace>;
  static constexpr bool kBulkPlanes = kSweeps && kokkos_bulk_planes<ExecSpace>;
  static constexpr Capabilities kCan{true, kSweeps, kokkos_sweep_form<ExecSpace>, kBulkPlanes};

  std::string id() const override { return id_; }
  long time_step() const override { return ring_.time(); }

  void run(int nsteps) override {
    int n = 0;
    if constexpr (kSweeps)
      for (const int s = plan_.steps_per_sweep; s > 1 && n + s <= nsteps; n += s) sweep();
    for (; n < nsteps; ++n) {
      launch(StepRegion::all);
      ring_.rotate();
    }
    exec_.fence();  // run() is blocking: the steps are complete when it returns
  }

  void queue_step_part(StepRegion part) override { launch(part); }
  void wait_for_step_parts() override { exec_.fence(); }
  void finish_step() override {
    exec_.fence();
    ring_.rotate();
  }

  void copy_planes_to_host(TimeLevel level, int pi, int count, double* host) override {
    const Field& f = field(level);
    HostPlanes h(host, count, f.extent(1), f.extent(2));
    Kokkos::deep_copy(exec_, h, Kokkos::subview(f, Kokkos::pair<int, int>(pi, pi + count), Kokkos::ALL, Kokkos::ALL));
    exec_.fence();
  }

  void copy_host_to_planes(TimeLevel level, int pi, int count, const double* host) override {
    const Field& f = field(level);
    HostPlanes h(const_cast<double*>(host), count, f.extent(1), f.extent(2));
    Kokkos::deep_copy(exec_, Kokkos::subview(f, Kokkos::pair<int, int>(pi, pi + count), Kokkos::ALL, Kokkos::ALL), h);
    exec_.fence();
  }

  const Field& field(TimeLevel level) const { return level == TimeLevel::now ? ring_.now() : ring_.prev(); }

  double* plane_on_device(TimeLevel level, int pi) override {
    // CudaSpace and OpenMPTargetSpace memory is CUDA device memory on an NVIDIA GPU (the NCCL
    // exchange checks); LayoutRight keeps a plane of constant i contiguous.
    if constexpr (KokkosBackend<ExecSpace>::on_host) {
      (void)level, (void)pi;
      return nullptr;
    } else {
      const Field& f = field(level);
      if (f.stride(0) != f.extent(1) * f.extent(2)) return nullptr;  // padded rows: not one block
      return f.data() + std::size_t(pi) * f.stride(0);
    }
  }

  // Kokkos 3.4's default CUDA instance queues on the legacy default stream (a null handle);
  // later versions on a stream of their own. No stream on the other backends.
  std::optional<void*> device_queue() override {
#if defined(KOKKOS_ENABLE_CUDA)
    if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) return exec_.cuda_stream();
#endif
    return std::nullopt;
  }
  // (called only where device_queue() names one)
  void advance_queued_step() override {
    ring_.rotate();
  }

  std::shared_ptr<double> pinned_buffer(std::size_t n) override {
#if defined(KOKKOS_ENABLE_CUDA)
    if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
      try {
        auto* p = static_cast<double*>(
            Kokkos::kokkos_malloc<Kokkos::CudaHostPinnedSpace>("wave::host_buffer", n * sizeof(double)));
        return std::shared_ptr<double>(p, [](double* q) { Kokkos::kokkos_free<Kokkos::CudaHostPinnedSpace>(q); });
      } catch (const std::exception&) {  // Kokkos throws where cudaMallocHost fails
        return nullptr;
      }
    }
#endif
#if defined(KOKKOS_ENABLE_OPENMPTARGET)
    if constexpr (std::is_same_v<ExecSpace, Kokkos::Experimental::OpenMPTarget>) {  // pinned through libomptarget
      if (void* p = omp_alloc(n * sizeof(double), llvm_omp_target_host_mem_alloc))
        return std::shared_ptr<double>(static_cast<double*>(p),
                                       [](double* q) { omp_free(q, llvm_omp_target_host_mem_alloc); });
    }
#endif
    static_cast<void>(n);  // (host backends: no pinned memory)
    return nullptr;
  }

  void copy_u_to_host(double* h_now, double* h_prev) override {
    using HostView = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
    const Field& now = ring_.now();
    HostView now_host(h_now, now.extent(0), now.extent(1), now.extent(2));
    HostView prev_host(h_prev, now.extent(0), now.extent(1), now.extent(2));
    Kokkos::deep_copy(now_host, now);
    if (h_prev) Kokkos::deep_copy(prev_host, ring_.prev());
  }

  // Converted where the field lives (on a GPU: half the bytes over the bus), into a staging View
  // made when first needed (counted by app/memory_estimate.cpp).
  void copy_now_to_host_single(float* h_now) override {
    const Field& now = ring_.now();
    if (single_.extent(0) != now.extent(0))
      single_ = Single(Kokkos::view_alloc(Kokkos::WithoutInitializing, "wave::single"), now.extent(0), now.extent(1),
                       now.extent(2));
    Kokkos::parallel_for("wave::round_to_float",
                         Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3>>(
                             exec_, {0, 0, 0}, {now.extent(0), now.extent(1), now.extent(2)}),
                         RoundToFloat<Field, Single>{now, single_});
    using HostSingle = Kokkos::View<float***, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
    Kokkos::deep_copy(exec_, HostSingle(h_now, now.extent(0), now.extent(1), now.extent(2)), single_);
    exec_.fence();
  }

 private:
  using Single = Kokkos::View<float***, Kokkos::LayoutRight, MemSpace>;
  Single single_;  // single-precision snapshots' staging

  // Queues one step's kernels (or an MPI step's part) on exec_.
  void launch(StepRegion scope) {
    const WaveParams& p = problem_.params();
    const StepFields<MemSpace> fields{ring_.next(), ring_.now(), ring_.prev(), cs2_k_, damp_ij_,
                                      problem_.f(), p.dt,        p.nx(),       p.ny(), p.nz()};
    const Step step{fields};
    step.launch(exec_, scope, plan_.fused_step, launch_settings_);
  }

  // Three steps in one sweep: u(t+2) into `next`, u(t+3) into the spare field; they become prev
  // and now, and the old prev and now the free pair.
  // Over MPI it runs whole after the halo has arrived. In parts (the interior segments while the
  // halo travels) its functor needs each launch's first segment, and every way of adding it to the
  // league rank slowed the whole march to 0.80-0.92 x (H200, Kokkos 3.4.01 and 4.6.01; hand CUDA's
  // parts 0.97 x), more than the overlap could hide (the exchange: up to 12% of a sweep on 2-4
  // GPUs; bench/results/h200-2026-11-26/march-ab-51e52dc, h200x4-2026-11-26).
  void sweep() {
    const Field& now = ring_.now();
    const SweepFields f = sweep_fields(problem_, ring_.next().data(), spare_.data(), now.data(), ring_.prev().data(),
                                       cs2_k_.data(), damp_ij_.data(), long(now.stride(0)), long(now.stride(1)));
    if constexpr (kokkos_cache_sweeps<ExecSpace>) {
      CacheSweepStep<ExecSpace>{f, cache_shape_}.launch(exec_);
    } else if constexpr (kokkos_bulk_planes<ExecSpace>) {  // as the plan says (sweep_step.hpp says why)
      if (plan_.bulk_planes)
        SweepStep<ExecSpace, true>(f).launch(exec_);
      else
        SweepStep<ExecSpace>(f).launch(exec_);
    } else {
      SweepStep<ExecSpace>(f).launch(exec_);
    }
    ring_.advance_by_sweep(spare_, SweepTile::kSteps);
  }

  // The three levels holding the start state (prev; now; next, whose ghost points must be
  // now's). Returned as a prvalue, so ring_ is built in place: no View is ever moved from
  // (see time_ring.hpp).
  static TimeRing<Field> initial_ring(const WaveProblem& problem, const ExecSpace& exec) {
    const PaddedGeometry g = problem.geometry();
    const int px = g.nx + 2, py = g.ny + 2, pz = g.nz + 2;
    // Every View here is written whole below: no initialising fill (at 1000^3 each is 8 GB).
    const auto unfilled = [](const char* label) {
      return Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label));
    };
    Field u0(unfilled("wave::u_0"), px, py, pz), u1(unfilled("wave::u_1"), px, py, pz),
        u2(unfilled("wave::u_2"), px, py, pz);
    if (!one_layout(u0, u1, u2)) throw std::logic_error("Kokkos: the three time levels differ in layout");
    using HostView = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
    HostView h_now(unfilled("wave::h_now"), px, py, pz), h_prev(unfilled("wave::h_prev"), px, py, pz);
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
  KokkosLaunch launch_settings_;
  CacheSweep cache_shape_;  // the host backends' sweep tiles
  Field spare_;             // the sweep's free field besides `next` (empty without the sweep)
  Kokkos::View<const double*, MemSpace> cs2_k_;
  Kokkos::View<const double**, Kokkos::LayoutRight, MemSpace> damp_ij_;
};

}  // namespace awave
