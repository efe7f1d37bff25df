// awave in hand-written OpenMP target offload (clang, NVPTX). The same decomposition and data
// residency as the CUDA version: fields allocated on the device with omp_target_alloc and
// copied in once at set-up, out only by copy_u_to_host; cs2 per depth, damp per column. A step
// is one target region over every plane: one flat 32-bit work index (k fastest, so consecutive
// GPU threads take consecutive k: coalesced loads; consecutive warps fill a (k, j) tile,
// core/march_tiles.hpp), each work item marching i over a segment with `now` at i-1, i, i+1 in
// registers and the sponge handled inside (damped where its column is in a layer), as many
// teams as it takes for one work item per thread. Small grids take one collapsed region over
// every point (core/step_plan.hpp). The time levels rotate by pointer swap. The tuning keys
// omp.* (core/tuning.hpp) override the segment, team size, tile rows, teams and loop form.
#include "omp/wave_omp.hpp"

#include <dlfcn.h>

#include "core/march_tiles.hpp"
#include "core/step_plan.hpp"
#include "core/sweep_march.hpp"
#include "core/time_ring.hpp"
#include "core/tuning.hpp"
#include "core/wave_update.hpp"
#include "omp/omp_march.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

namespace awave {
namespace {

// The tuning keys omp.* (core/tuning.hpp), read once when the implementation is made; the
// defaults' measurements are in the report's appendix.
struct OmpLaunch {
  int segment = 16;   // planes a work item marches, as the offload probes preferred (results/h100-tuning-2026-11-22)
  int tile_rows = 4;  // rows j per (k, j) tile of work items (core/march_tiles.hpp)
  // per team: 1.07 x 256 at 512^3 on the H200 (results/h200-2026-11-23/kernel-shapes)
  int threads = 128;
  // How the step region hands out work items: each thread its own (teams, the default), or
  // through a worksharing `distribute parallel for` (worksharing). Both standard OpenMP.
  bool worksharing = false;
  // Teams per region: 0, one work item per thread (num_teams given); -1 (runtime), what the
  // offload runtime picks without num_teams; N, at most N (what a runtime giving fewer than asked
  // does: the step region refuses it, the worksharing loop shares the items out; tests run both).
  int teams = 0;

  static OmpLaunch from_tuning() {
    OmpLaunch l;
    l.segment = int(tuning_integer("omp.segment").value_or(l.segment));
    l.tile_rows = int(tuning_integer("omp.tile_rows").value_or(l.tile_rows));
    l.threads = int(tuning_integer("omp.threads").value_or(l.threads));
    l.worksharing = tuning_word("omp.loop").value_or("teams") == "worksharing";
    if (const auto teams = tuning_word("omp.teams"))
      l.teams = *teams == "runtime" ? -1 : int(*tuning_integer("omp.teams"));
    return l;
  }
};

// What a step's target region needs, passed by value (firstprivate): the march's fields and
// sizes (omp/omp_march.hpp) and how the work items cut the planes.
struct OmpStep : OmpMarch {
  int segment;
  MarchTiles tiles;
  // Work item t of a region over planes [i_begin, i_end) cut into segments: one flat 32-bit
  // index over (k, j) tiles (core/march_tiles.hpp), i, j, k by hand.
  void march_item(int t, int i_begin, int i_end) const {
    int seg, j, k;
    if (!tiles.decode(t, ny, nz, seg, j, k)) return;
    const int i0 = i_begin + seg * segment;
    march(i0, i0 + segment < i_end ? i0 + segment : i_end, j, k);
  }
};

class WaveOmp final : public WaveImpl, public SplitStep, public DeviceFields, public PinnedHostMemory {
 public:
  WaveOmp(const WaveProblem& problem, const StepPlan& plan)
      : WaveImpl(problem, plan), device_(omp_get_default_device()), host_(omp_get_initial_device()) {
    const PaddedGeometry g = problem.geometry();
    HostField h_now(g.size()), h_prev(g.size());
    problem.fill_start_state(h_now.data(), h_prev.data());
    for (int l = 0; l < 3; ++l)  // prev, now, next (next's ghost points as now's)
      d_u_[l] = to_device(l == 0 ? h_prev.data() : h_now.data(), g.size(), "u");
    d_cs2_k_ = to_device(problem.cs2_k().data(), problem.cs2_k().size(), "cs2_k");
    d_damp_ij_ = to_device(problem.damp_ij().data(), problem.damp_ij().size(), "damp_ij");
    const int lowered = 0;
    d_incomplete_ = static_cast<int*>(to_device_bytes(&lowered, sizeof lowered, "the step flag"));
    ring_ = TimeRing<double*>(d_u_[0], d_u_[1], d_u_[2], problem.params().start_step);
    if (plan.steps_per_sweep > 1)
      d_u_[3] = d_spare_ = to_device(h_now.data(), g.size(), "u (the sweep's fourth field)");
  }

  ~WaveOmp() override {
    for (double* level : d_u_) omp_target_free(level, device_);
    omp_target_free(d_cs2_k_, device_);
    omp_target_free(d_damp_ij_, device_);
    omp_target_free(d_incomplete_, device_);
    omp_target_free(d_single_, device_);
  }

  std::string id() const override { return "omp"; }
  long time_step() const override { return ring_.time(); }

  void run(int nsteps) override {
    int n = 0;
    for (const int s = plan_.steps_per_sweep; s > 1 && n + s <= nsteps; n += s) sweep();
    for (; n < nsteps; ++n) {
      step();
      ring_.rotate();
    }  // each target region ends synchronously: the steps are complete here
  }

  // Over MPI: the target regions are synchronous, so the parallel layer waits for MPI on another thread
  // while the bulk runs (HaloExchange::receive_while).
  void queue_step_part(StepRegion part) override { step(part); }
  void wait_for_step_parts() override {}  // each target region ends synchronously
  void finish_step() override { ring_.rotate(); }

  // omp_target_alloc's memory on an NVIDIA GPU is CUDA device memory (the NCCL exchange checks).
  double* plane_on_device(TimeLevel level, int pi) override {
    return field(level) + std::size_t(pi) * problem_.geometry().stride_i();
  }
  std::shared_ptr<double> pinned_buffer(std::size_t n) override {  // pinned through libomptarget
    void* p = omp_alloc(n * sizeof(double), llvm_omp_target_host_mem_alloc);
    if (!p) return nullptr;
    return std::shared_ptr<double>(static_cast<double*>(p),
                                   [](double* q) { omp_free(q, llvm_omp_target_host_mem_alloc); });
  }

  void copy_planes_to_host(TimeLevel level, int pi, int count, double* host) override {
    const std::size_t bytes = problem_.geometry().stride_i() * sizeof(double);
    if (omp_target_memcpy(host, field(level), count * bytes, 0, std::size_t(pi) * bytes, host_, device_) != 0)
      throw std::runtime_error("OpenMP offload: copying halo planes from the device failed");
  }

  void copy_host_to_planes(TimeLevel level, int pi, int count, const double* host) override {
    const std::size_t bytes = problem_.geometry().stride_i() * sizeof(double);
    if (omp_target_memcpy(field(level), host, count * bytes, std::size_t(pi) * bytes, 0, device_, host_) != 0)
      throw std::runtime_error("OpenMP offload: copying halo planes to the device failed");
  }
  double* field(TimeLevel level) { return level == TimeLevel::now ? ring_.now() : ring_.prev(); }

  void copy_u_to_host(double* h_now, double* h_prev) override {
    refuse_incomplete_steps();  // every field written or checked passes here
    const std::size_t bytes = problem_.geometry().size() * sizeof(double);
    if (omp_target_memcpy(h_now, ring_.now(), bytes, 0, 0, host_, device_) != 0 ||
        (h_prev && omp_target_memcpy(h_prev, ring_.prev(), bytes, 0, 0, host_, device_) != 0))
      throw std::runtime_error("OpenMP offload: copying u from the device failed");
  }

  void copy_now_to_host_single(float* h_now) override {
    refuse_incomplete_steps();
    const std::size_t n = problem_.geometry().size();
    if (!d_single_) {  // counted by app/memory_estimate.cpp
      d_single_ = static_cast<float*>(omp_target_alloc(n * sizeof(float), device_));
      if (!d_single_) throw std::runtime_error("OpenMP offload: omp_target_alloc of the single-precision copy failed");
    }
    const double* now = ring_.now();
    float* single = d_single_;
#pragma omp target teams distribute parallel for device(device_) is_device_ptr(now, single)
    for (std::size_t p = 0; p < n; ++p) single[p] = float(now[p]);
    if (omp_target_memcpy(h_now, single, n * sizeof(float), 0, 0, host_, device_) != 0)
      throw std::runtime_error("OpenMP offload: copying u from the device failed");
  }

 private:
  void* to_device_bytes(const void* host, std::size_t bytes, const char* what) {
    void* d = omp_target_alloc(bytes, device_);
    if (!d)
      throw std::runtime_error(fmt::format("OpenMP offload: omp_target_alloc of {} ({} MB) failed", what, bytes >> 20));
    if (omp_target_memcpy(d, host, bytes, 0, 0, device_, host_) != 0)
      throw std::runtime_error(fmt::format("OpenMP offload: copying {} to the device failed", what));
    return d;
  }
  double* to_device(const double* host, std::size_t n, const char* what) {
    return static_cast<double*>(to_device_bytes(host, n * sizeof(double), what));
  }

  // The step region raises d_incomplete_ where the runtime ran fewer teams or threads than it
  // asked for (OpenMP lets a parallel region have fewer threads): its work items were then not
  // all marched, and no field computed since may be written or checked. (Over MPI, halo planes
  // sent before that are not checked, per step; the process's next copy here stops the run.)
  void refuse_incomplete_steps() const {
    int raised = 0;
    if (omp_target_memcpy(&raised, d_incomplete_, sizeof raised, 0, 0, host_, device_) != 0)
      throw std::runtime_error("OpenMP offload: reading the step flag from the device failed");
    if (raised)
      throw std::runtime_error(
          "OpenMP offload: the runtime ran fewer teams or threads than a step region asked for, so steps are "
          "incomplete (the tuning key omp.loop=worksharing hands work items out through a loop instead)");
  }

  // One step's target regions, each synchronous; a whole step is one region over every plane,
  // sponge inside (over MPI: `bulk`, the planes [nbl, nx - nbl), and `edges`, the x layers: core/sponge.hpp).
  // The step region hands each thread its work item (`target teams` holding one `parallel`, ids
  // from the team and thread numbers): +10% against the worksharing loop, as fast as ompx_bare
  // (H100 512^3, results/h100-2026-11-24/omp-teams-probe). No fallback loop for fewer threads
  // than asked (both forms tried cost 10-50%): such a step is refused (refuse_incomplete_steps).
  // Trap: queued with `nowait` the regions give wrong results with clang 19's runtime (745 of
  // 7315 points at 33x17x9, every run; results/h100-2026-11-24/omp-nowait-helpers-83fc81a).
  void step(StepRegion part = StepRegion::all) {
    const PaddedGeometry g = problem_.geometry();
    const int nx = g.nx, ny = g.ny, nz = g.nz;
    const int segment = launch_.segment;
    const bool bulk = part == StepRegion::bulk;
    const int i_begin = bulk ? sponge::kLayers : 0, i_end = bulk ? sponge::bulk_end(nx) : nx;
    const MarchTiles tiles = MarchTiles::make(ny, nz, (i_end - i_begin + segment - 1) / segment, launch_.tile_rows);
    const OmpStep st{{{ring_.next(), ring_.now(), ring_.prev(), d_cs2_k_, d_damp_ij_, problem_.f(), problem_.params().dt,
                       nx, ny, nz, long(g.stride_i()), long(g.stride_j())}},
                     segment,
                     tiles};
    const int threads = launch_.threads;
    if (plan_.fused_step) {
      const int teams = int((long(nx) * ny * nz + threads - 1) / threads);
#pragma omp target teams distribute parallel for collapse(3) device(device_) num_teams(teams) thread_limit(threads) \
    firstprivate(st)
      for (int i = 0; i < nx; ++i)
        for (int j = 0; j < ny; ++j)
          for (int k = 0; k < nz; ++k) st.any_update(i, j, k);
      return;
    }
    if (part == StepRegion::edges) {  // the two x layers: one segment of nbl planes each
      const int items = 2 * ny * nz, teams = (items + threads - 1) / threads;
#pragma omp target teams distribute parallel for device(device_) num_teams(teams) thread_limit(threads) firstprivate(st)
      for (int t = 0; t < items; ++t) {
        const int k = t % nz, rest = t / nz, j = rest % ny, low = rest / ny == 0;
        st.march(low ? 0 : sponge::bulk_end(nx), low ? sponge::kLayers : nx, j, k);
      }
      return;
    }
    const long items = tiles.items();
    if (items > std::numeric_limits<int>::max())
      throw std::runtime_error(
          "OpenMP offload: grid too large for 32-bit work indices (raise the tuning key omp.segment)");
    const int n = int(items), teams_needed = int((items + threads - 1) / threads);
    const int teams = launch_.teams > 0 ? std::min(launch_.teams, teams_needed) : teams_needed;
    int* const incomplete = d_incomplete_;
    if (launch_.teams < 0) {
#pragma omp target teams distribute parallel for device(device_) thread_limit(threads) firstprivate(st)
      for (int t = 0; t < n; ++t) st.march_item(t, i_begin, i_end);
    } else if (launch_.worksharing) {
#pragma omp target teams distribute parallel for device(device_) num_teams(teams) thread_limit(threads) firstprivate(st)
      for (int t = 0; t < n; ++t) st.march_item(t, i_begin, i_end);
    } else {
#pragma omp target teams device(device_) num_teams(teams) thread_limit(threads) firstprivate(st) \
    is_device_ptr(incomplete)
#pragma omp parallel
      {
        const OmpStep l = st;  // a local copy: no store to `next` can alias its members
        const int nt = omp_get_num_threads(), t = omp_get_team_num() * nt + omp_get_thread_num();
        if (omp_get_num_teams() * nt < n) {  // fewer teams or threads than asked: refused (above)
#pragma omp atomic write
          incomplete[0] = 1;
        } else if (t < n) {
          l.march_item(t, i_begin, i_end);
        }
      }
    }
  }

  // Three steps in one sweep (core/sweep_march.hpp), as hand CUDA's and Kokkos' teams take it: a
  // `target teams` region, a team a tile of 640 threads (one `parallel` region, a column a thread),
  // its two planes of each level in team-shared memory (`omp allocate` with omp_pteam_mem_alloc:
  // GPU shared memory under clang), `omp barrier` the plane's barrier. A team given fewer threads
  // than the tile's columns raises the step flag (refuse_incomplete_steps), as the step region does.
  // BulkPlanes: the march's bulk planes, as the plan says (core/step_plan.hpp, sweep_bulk_planes).
  void sweep() {
    plan_.bulk_planes ? sweep_teams<true>() : sweep_teams<false>();
  }
  template <bool BulkPlanes>
  void sweep_teams() {
    const PaddedGeometry g = problem_.geometry();
    const SweepFields f = sweep_fields(problem_, ring_.next(), d_spare_, ring_.now(), ring_.prev(), d_cs2_k_,
                                       d_damp_ij_, long(g.stride_i()), long(g.stride_j()));
    using T = SweepTile;
    const int teams_k = T::teams_k(f.nz), teams_j = T::teams_j(f.ny);
    const int league = teams_k * teams_j * T::teams_i(f.nx);
    int* const incomplete = d_incomplete_;
    // (no register bound: clang 19 reads launch_bounds' second argument in ompx_attribute as a
    // minimum team count, "omp_target_num_teams", and emits no .minnctapersm)
#pragma omp target teams device(device_) num_teams(league) thread_limit(T::kThreads) firstprivate(f) \
    is_device_ptr(incomplete)
    {
      static double scratch[T::kScratchBytes / sizeof(double)];
#pragma omp allocate(scratch) allocator(omp_pteam_mem_alloc)
      const int t = omp_get_team_num();
#pragma omp parallel num_threads(T::kThreads)
      {
        // A local copy, as the step region's: read through the shared `f`, clang 19 reloaded its
        // members from global memory after each store and barrier (0.88 x at 512^3 on the H100;
        // bench/results/h100-2026-11-25/omp-sweep-copy-0232966).
        const SweepFields a = f;
        const int r = omp_get_thread_num();
        if (omp_get_num_threads() != T::kThreads) {
          if (r == 0) {
#pragma omp atomic write
            incomplete[0] = 1;
          }
        } else {
          sweep_march<const SweepFields&, BulkPlanes>(a, t % teams_k, (t / teams_k) % teams_j, t / (teams_k * teams_j),
                                                      r % T::kColumnsK, r / T::kColumnsK, scratch, [] {
#pragma omp barrier
                                                      });
        }
      }
    }
    ring_.advance_by_sweep(d_spare_, T::kSteps);
  }

  int device_, host_;
  const OmpLaunch launch_ = OmpLaunch::from_tuning();
  double* d_u_[4] = {nullptr, nullptr, nullptr, nullptr};  // the allocations (the fourth: the sweep's)
  double* d_cs2_k_ = nullptr;
  double* d_damp_ij_ = nullptr;
  int* d_incomplete_ = nullptr;  // raised by a step region that was given fewer threads than it needs
  float* d_single_ = nullptr;    // single-precision snapshots' staging, made when first needed
  double* d_spare_ = nullptr;    // the sweep's free field besides `next` (one of d_u_, as the ring turns)
  TimeRing<double*> ring_;
};

}  // namespace

std::optional<std::string> omp_device_problem() {
  static const std::optional<std::string> problem = []() -> std::optional<std::string> {
    if (omp_get_num_devices() < 1)
      return "no OpenMP offload device found (is the GPU visible, and libomptarget's NVPTX plugin present?)";
    // OMP_TARGET_OFFLOAD=DISABLED still reports the GPU and allocates on it, but runs target
    // regions on the host, which then read device pointers (a segfault): ask a region where it ran.
    int on_host = 1;
#pragma omp target device(omp_get_default_device()) map(from : on_host)
    on_host = omp_is_initial_device();
    if (on_host)
      return "OpenMP target regions run on the host here (OMP_TARGET_OFFLOAD=DISABLED?), but the offload "
             "implementations keep their fields in GPU memory";
    return std::nullopt;
  }();
  return problem;
}

void omp_select_device(int local_rank, const std::string& device) {
  // CUDA_VISIBLE_DEVICES for the CUDA driver's queries (driver_default_device) and NCCL, which
  // start after this; libomptarget enumerated the GPUs before main (with the variable alone, two
  // processes shared GPU 0 at half speed each), so the default device is chosen too.
  setenv("CUDA_VISIBLE_DEVICES", device.c_str(), 1);
  const int devices = omp_get_num_devices();
  if (devices > 1) omp_set_default_device(local_rank % devices);
}

namespace {

// The default offload device as the CUDA driver sees it. OpenMP has no portable query;
// libomptarget's NVPTX plugin runs on the CUDA driver, which numbers the devices as the plugin
// does; neither query needs a context (the run's own allocations come later, through libomptarget).
struct DriverDevice {
  std::string name;
  std::size_t total_bytes = 0;
  std::string pci_bus_id;
  DeviceTraits traits;  // its properties for the plan, those the driver gives
};

// cuda.h's CUdevice_attribute values (the build includes no CUDA header).
enum DriverAttribute : int {
  kMultiprocessorCount = 16,
  kMemoryClockRateKhz = 36,
  kGlobalMemoryBusWidthBits = 37,
  kL2CacheSizeBytes = 38,
  kComputeCapabilityMajor = 75,
  kComputeCapabilityMinor = 76,
};

std::optional<DriverDevice> driver_default_device() {
  void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!cuda) return std::nullopt;
  using Init = int (*)(unsigned);
  using Count = int (*)(int*);
  using Get = int (*)(int*, int);
  using TotalMem = int (*)(std::size_t*, int);
  using Name = int (*)(char*, int, int);
  using Attribute = int (*)(int*, int, int);
  const auto init = reinterpret_cast<Init>(dlsym(cuda, "cuInit"));
  const auto count = reinterpret_cast<Count>(dlsym(cuda, "cuDeviceGetCount"));
  const auto get = reinterpret_cast<Get>(dlsym(cuda, "cuDeviceGet"));
  const auto total_mem = reinterpret_cast<TotalMem>(dlsym(cuda, "cuDeviceTotalMem_v2"));
  const auto get_name = reinterpret_cast<Name>(dlsym(cuda, "cuDeviceGetName"));
  const auto get_bus_id = reinterpret_cast<Name>(dlsym(cuda, "cuDeviceGetPCIBusId"));
  const auto get_attribute = reinterpret_cast<Attribute>(dlsym(cuda, "cuDeviceGetAttribute"));
  std::optional<DriverDevice> found;
  int n = 0, device = 0;
  if (init && count && get && total_mem && get_name && get_bus_id && init(0) == 0 && count(&n) == 0 && n > 0) {
    const int ordinal = omp_get_default_device() < n ? omp_get_default_device() : 0;
    DriverDevice d;
    char name[256] = {}, bus_id[32] = {};
    if (get(&device, ordinal) == 0 && total_mem(&d.total_bytes, device) == 0 &&
        get_name(name, int(sizeof name) - 1, device) == 0 && get_bus_id(bus_id, int(sizeof bus_id) - 1, device) == 0) {
      d.name = name;
      d.pci_bus_id = bus_id;
      auto attribute = [&](DriverAttribute a) -> std::optional<int> {
        int v = 0;
        return get_attribute && get_attribute(&v, a, device) == 0 ? std::optional<int>(v) : std::nullopt;
      };
      d.traits.cc_major = attribute(kComputeCapabilityMajor);
      d.traits.cc_minor = attribute(kComputeCapabilityMinor);
      d.traits.multiprocessors = attribute(kMultiprocessorCount);
      if (const std::optional<int> l2 = attribute(kL2CacheSizeBytes)) d.traits.l2_bytes = std::size_t(*l2);
      d.traits.peak_bandwidth = peak_bandwidth_of(attribute(kMemoryClockRateKhz), attribute(kGlobalMemoryBusWidthBits));
      found = d;
    }
  }
  dlclose(cuda);
  return found;
}

}  // namespace

std::optional<std::size_t> omp_device_memory_bytes() {
  const std::optional<DriverDevice> d = driver_default_device();
  return d ? std::optional<std::size_t>(d->total_bytes) : std::nullopt;
}

std::optional<std::string> omp_device_pci_bus_id() {
  const std::optional<DriverDevice> d = driver_default_device();
  return d ? std::optional<std::string>(d->pci_bus_id) : std::nullopt;
}

DeviceTraits omp_device_traits() {
  const std::optional<DriverDevice> d = driver_default_device();
  return d ? d->traits : DeviceTraits{};
}

std::string omp_device_description() {
  const std::optional<DriverDevice> d = driver_default_device();
  return d ? fmt::format("{}, {:.1f} GiB", d->name, double(d->total_bytes) / (1u << 30)) : "OpenMP offload device";
}

void add_omp_implementations(std::vector<ImplEntry>& impls) {
  impls.push_back(entry_of<WaveOmp>(
      "omp",
      "hand-written OpenMP target offload (one target region per step, marching i; three steps a sweep "
      "on large grids: team-shared planes)",
      true, false, "hand-written", Capabilities{true, true, SweepForm::offload_teams, true},
      [](const WaveProblem& problem, const StepPlan& plan) { return std::make_unique<WaveOmp>(problem, plan); }));
}

}  // namespace awave
