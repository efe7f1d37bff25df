// awave in hand-written CUDA. Data stays on the device for the whole run: the initial state
// and the coefficients are copied in once at set-up; u is copied out only by copy_u_to_host
// (outside the timed region). cs2 is stored per depth (nz) and damp per column (nx*ny), the
// only coordinates they depend on. A step is three kernels queued on one stream: the interior
// (damp == 0: no damp read, no branch) and the x and y sponge layers. Threads run along k
// (threadIdx.x), the contiguous index, so each warp's loads are coalesced; in the interior
// each thread marches along i over a short segment, keeping the i-1, i and i+1 values of
// `now` in registers (core/register_march.hpp), so each value of `now` is loaded once per
// step. Small grids (core/step_plan.hpp) take one fused kernel per step instead, one point per
// thread; large ones three steps in one sweep (core/sweep_march.hpp: a thread block a team, its
// planes in shared memory), with a fourth field. The time levels rotate by pointer swap; whole
// ring periods (3 steps) of single steps are replayed from a captured CUDA graph, one launch
// instead of 3 to 9, which is what bounds small grids.
#include "cuda/wave_cuda.hpp"

#include "core/host_field.hpp"
#include "core/pointer_fields.hpp"
#include "core/register_march.hpp"
#include "core/step_plan.hpp"
#include "core/time_ring.hpp"
#include "core/tuning.hpp"
#include "core/wave_update.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <stdexcept>
#include <string>

namespace awave {
namespace {

void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status != cudaSuccess)
    throw std::runtime_error(fmt::format("CUDA error {} ({}) in {} at {}:{}", cudaGetErrorName(status),
                                         cudaGetErrorString(status), call, file, line));
}
#define AWAVE_CUDA_CHECK(call) check_cuda((call), #call, __FILE__, __LINE__)

// Block shape (k, j) and planes each thread marches (tuning key cuda.block). A warp covers 32
// consecutive k: 256 contiguous bytes per array. 32x8 with 4 planes, 16 on planes above 4 MiB:
// best or within 1% of every shape tried on the H100 and the H200 (results/h100-2026-11-22/limits,
// results/h200-2026-11-23/kernel-shapes; report appendix).
struct LaunchShape {
  int block_k = 32, block_j = 8, segment_i = 4;
};
constexpr std::size_t kLongMarchPlaneBytes = std::size_t(4) << 20;

LaunchShape launch_shape(const PaddedGeometry& g) {
  if (const auto block = tuning_triple("cuda.block")) return {(*block)[0], (*block)[1], (*block)[2]};
  LaunchShape s;
  if (plane_bytes(g) > kLongMarchPlaneBytes) s.segment_i = 16;
  return s;
}

// Interior region: i in the bulk [nbl, nx-nbl) in segments (blockIdx.z), j in the bulk, all k.
__global__ void interior_kernel(PointerFields a, int segment_i) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = sponge::kLayers + blockIdx.y * blockDim.y + threadIdx.y;
  const int i_begin = sponge::kLayers + blockIdx.z * segment_i;
  const int i_end = min(i_begin + segment_i, sponge::bulk_end(a.nx));
  if (k >= a.nz || j >= sponge::bulk_end(a.ny)) return;
  register_march(FlatLevels<PointerFields>{a}, a.at(i_begin, j, k), i_begin, i_end, a.cs2_k[k], a.f, Undamped{});
}

// The 2*nbl x layers (blockIdx.z = layer number, low face first), every j: corners included.
__global__ void x_layers_kernel(PointerFields a) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (k >= a.nz || j >= a.ny) return;
  a.damped_update(sponge::layer_index(blockIdx.z, a.nx), j, k);
}

// The 2*nbl y layers (j), for the bulk i only (blockIdx.z): what the x layers do not cover.
__global__ void y_layers_kernel(PointerFields a) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (k >= a.nz || r >= 2 * sponge::kLayers) return;
  a.damped_update(sponge::kLayers + blockIdx.z, sponge::layer_index(r, a.ny), k);
}

// Every point of the grid (small grids): the damped update in the sponge layers, the undamped
// one elsewhere, as the three kernels above compute them. i is blockIdx.z.
__global__ void fused_step_kernel(PointerFields a) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (k >= a.nz || j >= a.ny) return;
  a.any_update(blockIdx.z, j, k);
}

// Three steps in one sweep (core/sweep_march.hpp), a thread block a team. Two blocks an SM
// (SweepTile::kTeamsAnSm): 48 registers, the study's bounds (report section 4, shape reg3p-26x14-table).
// segment0: the first segment of the launch (a part of the sweep over MPI, sweep_segments).
// BulkPlanes: the march's bulk planes, as the plan says (core/step_plan.hpp, sweep_bulk_planes).
template <bool BulkPlanes>
__global__ void __launch_bounds__(SweepTile::kThreads, SweepTile::kTeamsAnSm)
    sweep_kernel(SweepFields a, int segment0) {
  extern __shared__ double scratch[];
  sweep_march<SweepFields, BulkPlanes>(a, blockIdx.x, blockIdx.y, segment0 + blockIdx.z, threadIdx.x, threadIdx.y,
                                       scratch, [] { __syncthreads(); });  // by value: sweep_march.hpp says why
}

// A single-precision snapshot's conversion (WaveImpl::copy_now_to_host_single): float(x) rounds
// to nearest even, as the host's cast does (no -ftz: cmake/AwaveExactFP.cmake).
__global__ void round_to_float_kernel(const double* __restrict__ in, float* __restrict__ out, std::size_t n) {
  for (std::size_t p = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; p < n;
       p += std::size_t(gridDim.x) * blockDim.x)
    out[p] = float(in[p]);
}

template <class Kernel>
void prefer_l1(Kernel* kernel) {
  AWAVE_CUDA_CHECK(cudaFuncSetCacheConfig(kernel, cudaFuncCachePreferL1));
  AWAVE_CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, int(cudaSharedmemCarveoutMaxL1)));
}

template <class T>
T* device_alloc(std::size_t n) {
  void* p = nullptr;
  AWAVE_CUDA_CHECK(cudaMalloc(&p, n * sizeof(T)));
  return static_cast<T*>(p);
}

class WaveCuda final : public WaveImpl,
                       public SplitStep,
                       public SplitSweep,
                       public DeviceFields,
                       public StreamOrderedSteps,
                       public PinnedHostMemory {
 public:
  WaveCuda(const WaveProblem& problem, const StepPlan& plan) : WaveImpl(problem, plan) {
    const PaddedGeometry g = problem.geometry();
    if (g.nx > 65535) throw std::invalid_argument("the CUDA implementation maps i to gridDim.z: nx must be <= 65535");
    AWAVE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    // These kernels live on L1 reuse of the j and k neighbours. Kokkos' CUDA initialisation
    // sets a device-wide preference for shared memory; this per-kernel setting overrides it
    // (measured 9.1e10 SU/s for the interior without it, beside Kokkos, at 512^3).
    prefer_l1(interior_kernel);
    prefer_l1(x_layers_kernel);
    prefer_l1(y_layers_kernel);
    prefer_l1(fused_step_kernel);
    HostField h_now(g.size()), h_prev(g.size());  // unfilled: fill_start_state writes each value on every thread
    problem.fill_start_state(h_now.data(), h_prev.data());
    const int levels = plan.fields();   // the sweep's fourth field: the spare
    for (int l = 0; l < levels; ++l) {  // prev, now, next (next's and the spare's ghost points as now's)
      d_u_[l] = device_alloc<double>(g.size());
      const double* h = l == 0 ? h_prev.data() : h_now.data();
      AWAVE_CUDA_CHECK(cudaMemcpyAsync(d_u_[l], h, g.size() * sizeof(double), cudaMemcpyHostToDevice, stream_));
    }
    d_cs2_k_ = device_alloc<double>(g.nz);
    d_damp_ij_ = device_alloc<double>(problem.damp_ij().size());
    AWAVE_CUDA_CHECK(
        cudaMemcpyAsync(d_cs2_k_, problem.cs2_k().data(), g.nz * sizeof(double), cudaMemcpyHostToDevice, stream_));
    AWAVE_CUDA_CHECK(cudaMemcpyAsync(d_damp_ij_, problem.damp_ij().data(), problem.damp_ij().size() * sizeof(double),
                                     cudaMemcpyHostToDevice, stream_));
    AWAVE_CUDA_CHECK(cudaStreamSynchronize(stream_));  // h_now and h_prev go out of scope
    ring_ = TimeRing<double*>(d_u_[0], d_u_[1], d_u_[2], problem.params().start_step);
    spare_ = d_u_[3];
  }

  ~WaveCuda() override {
    // No throwing from a destructor: errors here would be reported by the next CUDA call anyway.
    for (cudaGraphExec_t graph : ring_period_graphs_)
      if (graph) cudaGraphExecDestroy(graph);
    for (double* level : d_u_) cudaFree(level);
    cudaFree(d_cs2_k_);
    cudaFree(d_damp_ij_);
    cudaFree(d_single_);
    if (stream_) cudaStreamDestroy(stream_);
  }

  std::string id() const override { return "cuda"; }
  long time_step() const override { return ring_.time(); }

  void run(int nsteps) override {
    int n = 0;
    if (const int sweep = plan_.steps_per_sweep; sweep > 1) {
      for (; n + sweep <= nsteps; n += sweep) enqueue_sweep();
    } else if (graphs_) {  // (sweeps permute the four fields: the graphs' fixed pointers would not hold)
      for (; n + 3 <= nsteps; n += 3) {
        AWAVE_CUDA_CHECK(cudaGraphLaunch(ring_period_graph(), stream_));
        for (int r = 0; r < 3; ++r) ring_.rotate();
      }
    }
    for (; n < nsteps; ++n) {
      enqueue_step(StepRegion::all);
      ring_.rotate();
    }
    AWAVE_CUDA_CHECK(cudaStreamSynchronize(stream_));  // run() is blocking
  }

  void queue_step_part(StepRegion part) override { enqueue_step(part); }
  void wait_for_step_parts() override { AWAVE_CUDA_CHECK(cudaStreamSynchronize(stream_)); }
  void finish_step() override {
    AWAVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
    ring_.rotate();
  }

  void copy_planes_to_host(TimeLevel level, int pi, int count, double* host) override {
    const std::size_t n = std::size_t(count) * problem_.geometry().stride_i();
    AWAVE_CUDA_CHECK(
        cudaMemcpyAsync(host, plane_on_device(level, pi), n * sizeof(double), cudaMemcpyDeviceToHost, stream_));
    AWAVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  void copy_host_to_planes(TimeLevel level, int pi, int count, const double* host) override {
    const std::size_t n = std::size_t(count) * problem_.geometry().stride_i();
    AWAVE_CUDA_CHECK(
        cudaMemcpyAsync(plane_on_device(level, pi), host, n * sizeof(double), cudaMemcpyHostToDevice, stream_));
    AWAVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  double* plane_on_device(TimeLevel level, int pi) override {
    return (level == TimeLevel::now ? ring_.now() : ring_.prev()) + std::size_t(pi) * problem_.geometry().stride_i();
  }
  std::optional<void*> device_queue() override { return stream_; }
  void advance_queued_step() override { ring_.rotate(); }
  std::shared_ptr<double> pinned_buffer(std::size_t n) override {
    double* p = nullptr;
    if (cudaMallocHost(&p, n * sizeof(double)) != cudaSuccess) {
      cudaGetLastError();  // not sticky: the caller falls back to pageable memory
      return nullptr;
    }
    return std::shared_ptr<double>(p, [](double* q) { cudaFreeHost(q); });
  }

  void copy_u_to_host(double* h_now, double* h_prev) override {
    const std::size_t bytes = problem_.geometry().size() * sizeof(double);
    AWAVE_CUDA_CHECK(cudaMemcpyAsync(h_now, ring_.now(), bytes, cudaMemcpyDeviceToHost, stream_));
    if (h_prev) AWAVE_CUDA_CHECK(cudaMemcpyAsync(h_prev, ring_.prev(), bytes, cudaMemcpyDeviceToHost, stream_));
    AWAVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  void copy_now_to_host_single(float* h_now) override {
    const std::size_t n = problem_.geometry().size();
    if (!d_single_) d_single_ = device_alloc<float>(n);  // counted by app/memory_estimate.cpp
    round_to_float_kernel<<<1024, 256, 0, stream_>>>(ring_.now(), d_single_, n);
    AWAVE_CUDA_CHECK(cudaGetLastError());
    AWAVE_CUDA_CHECK(cudaMemcpyAsync(h_now, d_single_, n * sizeof(float), cudaMemcpyDeviceToHost, stream_));
    AWAVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

 private:
  // Queues one step's kernels (or a part of them: see SplitStep) on the stream.
  void enqueue_step(StepRegion part) {
    const PaddedGeometry g = problem_.geometry();
    const LaunchShape& ls = launch_;
    const int bk = ls.block_k, bj = ls.block_j;
    const dim3 block(bk, bj);
    const unsigned k_blocks = (g.nz + bk - 1) / bk;
    const PointerFields a{ring_.next(),         ring_.now(), ring_.prev(), d_cs2_k_, d_damp_ij_,         problem_.f(),
                     problem_.params().dt, g.nx,        g.ny,         g.nz,     long(g.stride_i()), long(g.stride_j())};
    if (plan_.fused_step) {
      fused_step_kernel<<<dim3(k_blocks, (g.ny + bj - 1) / bj, g.nx), block, 0, stream_>>>(a);
      AWAVE_CUDA_CHECK(cudaGetLastError());
      return;
    }
    const int bulk_i = sponge::bulk_points(g.nx), layers = 2 * sponge::kLayers;
    const dim3 interior_grid(k_blocks, (sponge::bulk_points(g.ny) + bj - 1) / bj, (bulk_i + ls.segment_i - 1) / ls.segment_i);
    const dim3 x_grid(k_blocks, (g.ny + bj - 1) / bj, layers);
    const dim3 y_grid(k_blocks, (layers + bj - 1) / bj, bulk_i);
    if (part != StepRegion::edges) {
      if (interior_grid.y > 0 && interior_grid.z > 0)
        interior_kernel<<<interior_grid, block, 0, stream_>>>(a, ls.segment_i);
      AWAVE_CUDA_CHECK(cudaGetLastError());
    }
    if (part != StepRegion::bulk) {
      x_layers_kernel<<<x_grid, block, 0, stream_>>>(a);
      AWAVE_CUDA_CHECK(cudaGetLastError());
    }
    if (part != StepRegion::edges) {
      if (y_grid.z > 0) y_layers_kernel<<<y_grid, block, 0, stream_>>>(a);
      AWAVE_CUDA_CHECK(cudaGetLastError());
    }
  }

  // Three steps in one sweep: u(t+2) into `next`, u(t+3) into the spare field; they become prev
  // and now, and the old prev and now the free pair.
  void enqueue_sweep() {
    enqueue_sweep_segments(0, SweepTile::teams_i(problem_.params().nx()));
    ring_.advance_by_sweep(spare_, SweepTile::kSteps);
  }
  void enqueue_sweep_segments(int begin, int end) {
    if (begin >= end) return;
    const PaddedGeometry g = problem_.geometry();
    const SweepFields f = sweep_fields(problem_, ring_.next(), spare_, ring_.now(), ring_.prev(), d_cs2_k_, d_damp_ij_,
                                       long(g.stride_i()), long(g.stride_j()));
    const dim3 grid(SweepTile::teams_k(g.nz), SweepTile::teams_j(g.ny), end - begin);
    const dim3 block(SweepTile::kColumnsK, SweepTile::kColumnsJ);
    if (plan_.bulk_planes)
      sweep_kernel<true><<<grid, block, SweepTile::kScratchBytes, stream_>>>(f, begin);
    else
      sweep_kernel<false><<<grid, block, SweepTile::kScratchBytes, stream_>>>(f, begin);
    AWAVE_CUDA_CHECK(cudaGetLastError());
  }

 public:
  // Over MPI (SplitSweep): the interior segments while the halo travels, then the others.
  void queue_sweep_part(SweepPart part) override {
    const Slab& s = problem_.slab();
    const SweepSegments seg = sweep_segments(problem_.params().nx(), s.halo_lo, s.halo_hi);
    if (part == SweepPart::interior) return enqueue_sweep_segments(seg.interior_begin, seg.interior_end);
    enqueue_sweep_segments(0, seg.interior_begin);
    enqueue_sweep_segments(seg.interior_end, seg.count);
  }
  void wait_for_sweep_parts() override { AWAVE_CUDA_CHECK(cudaStreamSynchronize(stream_)); }
  void finish_sweep() override {
    AWAVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
    ring_.advance_by_sweep(spare_, SweepTile::kSteps);
  }

 private:
  // Tuning keys cuda.block and cuda.graphs (0: every kernel launched from the host, for
  // comparison), read once when the implementation is made.
  const LaunchShape launch_ = launch_shape(problem_.geometry());
  const bool graphs_ = tuning_integer("cuda.graphs").value_or(1) == 1;

  // The graph of three steps from the ring's current phase (which level is `now`), captured
  // on first use: after three rotations the ring is back in the same phase, so the graph's
  // fixed pointers stay right for every later replay from that phase.
  cudaGraphExec_t ring_period_graph() {
    const int phase = int(std::find(std::begin(d_u_), std::end(d_u_), ring_.now()) - std::begin(d_u_));
    cudaGraphExec_t& exec = ring_period_graphs_[phase];
    if (!exec) {
      cudaGraph_t graph = nullptr;
      AWAVE_CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
      TimeRing<double*> saved = ring_;
      for (int r = 0; r < 3; ++r) {
        enqueue_step(StepRegion::all);
        ring_.rotate();
      }
      ring_ = saved;  // capturing ran nothing: the ring has not moved
      AWAVE_CUDA_CHECK(cudaStreamEndCapture(stream_, &graph));
      const cudaError_t status = cudaGraphInstantiate(&exec, graph, 0);
      cudaGraphDestroy(graph);
      AWAVE_CUDA_CHECK(status);
    }
    return exec;
  }

  cudaStream_t stream_ = nullptr;
  double* d_u_[4] = {nullptr, nullptr, nullptr, nullptr};  // the fourth only for the sweep
  double* spare_ = nullptr;                                // the sweep's free field besides `next`
  double* d_cs2_k_ = nullptr;
  double* d_damp_ij_ = nullptr;
  float* d_single_ = nullptr;  // single-precision snapshots' staging, made when first needed
  TimeRing<double*> ring_;
  cudaGraphExec_t ring_period_graphs_[3] = {nullptr, nullptr, nullptr};
};

}  // namespace

std::optional<std::string> cuda_device_problem() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess)
    return fmt::format("no usable CUDA GPU: {} ({})", cudaGetErrorName(status), cudaGetErrorString(status));
  if (count == 0) return std::string("no CUDA GPU found");
  return std::nullopt;
}

std::string cuda_device_description() {
  int device = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&prop, device) != cudaSuccess) return "unknown";
  return fmt::format("{}, {:.1f} GiB", prop.name, double(prop.totalGlobalMem) / (1u << 30));
}

std::optional<std::size_t> cuda_memory_bytes() {
  // The device's total memory: asking for the free memory (cudaMemGetInfo) would create the
  // CUDA context before Kokkos initialises, which this check must not change.
  int device = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&prop, device) != cudaSuccess)
    return std::nullopt;
  return prop.totalGlobalMem;
}

void cuda_select_device(int, const std::string& device) {
  setenv("CUDA_VISIBLE_DEVICES", device.c_str(), 1);
}

std::optional<std::string> cuda_pci_bus_id() {
  int device = 0;
  char id[32] = {};
  if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetPCIBusId(id, int(sizeof id), device) != cudaSuccess)
    return std::nullopt;
  return std::string(id);
}

void add_cuda_implementations(std::vector<ImplEntry>& impls) {
  impls.push_back(entry_of<WaveCuda>(
      "cuda", "hand-written CUDA (interior + boundary-layer kernels, one stream; three steps a sweep on large grids)",
      true, false, "hand-written", Capabilities{true, true, SweepForm::gpu_teams, true},
      [](const WaveProblem& problem, const StepPlan& plan) { return std::make_unique<WaveCuda>(problem, plan); }));
}

}  // namespace awave
