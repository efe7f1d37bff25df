// awave in hand-written CUDA. Data stays on the device for the whole run: the initial state
// and the coefficients are copied in once at set-up; u is copied out only by copy_u_to_host
// (outside the timed region). cs2 is stored per depth (nz) and damp per column (nx*ny), the
// only coordinates they depend on. A step is three kernels queued on one stream: the interior
// (damp == 0: no damp read, no branch) and the x and y sponge layers. Threads run along k
// (threadIdx.x), the contiguous index, so each warp's loads are coalesced; the time levels
// rotate by pointer swap.
#include "cuda/wave_cuda.hpp"

#include "core/time_ring.hpp"
#include "core/wave_update.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>

#include <stdexcept>

namespace awave {
namespace {

void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status != cudaSuccess)
    throw std::runtime_error(fmt::format("CUDA error {} ({}) in {} at {}:{}", cudaGetErrorName(status),
                                         cudaGetErrorString(status), call, file, line));
}
#define AWAVE_CUDA_CHECK(call) check_cuda((call), #call, __FILE__, __LINE__)

// Threads of a block along (k, j, i-or-layer). 128 consecutive k per warp group: with
// LayoutRight each warp reads 256 contiguous bytes per array.
constexpr int kBlockK = 128, kBlockJ = 2;

struct StepArgs {
  double* __restrict__ next;
  const double* __restrict__ now;
  const double* __restrict__ prev;
  const double* __restrict__ cs2_k;
  const double* __restrict__ damp_ij;
  double f, dt;
  int nx, ny, nz;
  long si, sj;  // padded strides of i and j
};

__device__ inline Stencil7 load_stencil(const StepArgs& a, long c) {
  return {a.now[c], a.now[c - a.si], a.now[c + a.si], a.now[c - a.sj], a.now[c + a.sj], a.now[c - 1], a.now[c + 1]};
}

__device__ inline long padded_index(const StepArgs& a, int i, int j, int k) {
  return (long(i + 1) * (a.ny + 2) + (j + 1)) * long(a.nz + 2) + (k + 1);
}

// Interior region: i in [nbl, nx-nbl) (blockIdx.z), j in [nbl, ny-nbl), all k.
__global__ void interior_kernel(StepArgs a) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = kBoundaryLayers + blockIdx.y * blockDim.y + threadIdx.y;
  const int i = kBoundaryLayers + blockIdx.z;
  if (k >= a.nz || j >= a.ny - kBoundaryLayers) return;
  const long c = padded_index(a, i, j, k);
  a.next[c] = undamped_next(load_stencil(a, c), a.prev[c], a.cs2_k[k], a.f);
}

__device__ inline void damped_update(const StepArgs& a, int i, int j, int k) {
  const long c = padded_index(a, i, j, k);
  a.next[c] = next_value(load_stencil(a, c), a.prev[c], a.cs2_k[k], a.damp_ij[long(i) * a.ny + j], a.f, a.dt);
}

// The 2*nbl x layers (blockIdx.z = layer number, low face first), every j: corners included.
__global__ void x_layers_kernel(StepArgs a) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const int r = blockIdx.z;
  if (k >= a.nz || j >= a.ny) return;
  damped_update(a, r < kBoundaryLayers ? r : a.nx - 2 * kBoundaryLayers + r, j, k);
}

// The 2*nbl y layers (j), for the bulk i only (blockIdx.z): what the x layers do not cover.
__global__ void y_layers_kernel(StepArgs a) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  const int i = kBoundaryLayers + blockIdx.z;
  if (k >= a.nz || r >= 2 * kBoundaryLayers) return;
  damped_update(a, i, r < kBoundaryLayers ? r : a.ny - 2 * kBoundaryLayers + r, k);
}

template <class T>
T* device_alloc(std::size_t n) {
  void* p = nullptr;
  AWAVE_CUDA_CHECK(cudaMalloc(&p, n * sizeof(T)));
  return static_cast<T*>(p);
}

class WaveCuda final : public WaveImpl {
 public:
  explicit WaveCuda(const WaveProblem& problem) : WaveImpl(problem) {
    const PaddedGeometry g = problem.geometry();
    if (g.nx > 65535 + 2 * kBoundaryLayers)
      throw std::invalid_argument("the CUDA implementation maps i to gridDim.z: nx must be <= 65543");
    AWAVE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    std::vector<double> h_u(g.size());
    problem.fill_initial_u(h_u.data());
    for (double*& level : d_u_) {
      level = device_alloc<double>(g.size());
      AWAVE_CUDA_CHECK(cudaMemcpyAsync(level, h_u.data(), g.size() * sizeof(double), cudaMemcpyHostToDevice, stream_));
    }
    d_cs2_k_ = device_alloc<double>(g.nz);
    d_damp_ij_ = device_alloc<double>(problem.damp_ij().size());
    AWAVE_CUDA_CHECK(cudaMemcpyAsync(d_cs2_k_, problem.cs2_k().data(), g.nz * sizeof(double), cudaMemcpyHostToDevice,
                                     stream_));
    AWAVE_CUDA_CHECK(cudaMemcpyAsync(d_damp_ij_, problem.damp_ij().data(), problem.damp_ij().size() * sizeof(double),
                                     cudaMemcpyHostToDevice, stream_));
    AWAVE_CUDA_CHECK(cudaStreamSynchronize(stream_));  // h_u goes out of scope
    ring_ = TimeRing<double*>(d_u_[0], d_u_[1], d_u_[2]);
  }

  ~WaveCuda() override {
    // No throwing from a destructor: errors here would be reported by the next CUDA call anyway.
    for (double* level : d_u_) cudaFree(level);
    cudaFree(d_cs2_k_);
    cudaFree(d_damp_ij_);
    if (stream_) cudaStreamDestroy(stream_);
  }

  std::string id() const override { return "cuda"; }
  long time_step() const override { return ring_.time(); }

  void run(int nsteps) override {
    const PaddedGeometry g = problem_.geometry();
    const int nbl = kBoundaryLayers;
    const dim3 block(kBlockK, kBlockJ);
    const unsigned k_blocks = (g.nz + kBlockK - 1) / kBlockK;
    const dim3 interior_grid(k_blocks, (g.ny - 2 * nbl + kBlockJ - 1) / kBlockJ, g.nx - 2 * nbl);
    const dim3 x_grid(k_blocks, (g.ny + kBlockJ - 1) / kBlockJ, 2 * nbl);
    const dim3 y_grid(k_blocks, (2 * nbl + kBlockJ - 1) / kBlockJ, g.nx - 2 * nbl);
    for (int n = 0; n < nsteps; ++n) {
      const StepArgs a{ring_.next(), ring_.now(), ring_.prev(), d_cs2_k_, d_damp_ij_, problem_.f(),
                       problem_.params().dt, g.nx, g.ny, g.nz, long(g.stride_i()), long(g.stride_j())};
      if (interior_grid.y > 0 && interior_grid.z > 0) interior_kernel<<<interior_grid, block, 0, stream_>>>(a);
      AWAVE_CUDA_CHECK(cudaGetLastError());
      x_layers_kernel<<<x_grid, block, 0, stream_>>>(a);
      AWAVE_CUDA_CHECK(cudaGetLastError());
      if (y_grid.z > 0) y_layers_kernel<<<y_grid, block, 0, stream_>>>(a);
      AWAVE_CUDA_CHECK(cudaGetLastError());
      ring_.rotate();
    }
    AWAVE_CUDA_CHECK(cudaStreamSynchronize(stream_));  // run() is blocking
  }

  void copy_u_to_host(double* h_now, double* h_prev) override {
    const std::size_t bytes = problem_.geometry().size() * sizeof(double);
    AWAVE_CUDA_CHECK(cudaMemcpyAsync(h_now, ring_.now(), bytes, cudaMemcpyDeviceToHost, stream_));
    AWAVE_CUDA_CHECK(cudaMemcpyAsync(h_prev, ring_.prev(), bytes, cudaMemcpyDeviceToHost, stream_));
    AWAVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

 private:
  cudaStream_t stream_ = nullptr;
  double* d_u_[3] = {nullptr, nullptr, nullptr};
  double* d_cs2_k_ = nullptr;
  double* d_damp_ij_ = nullptr;
  TimeRing<double*> ring_;
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

void add_cuda_implementations(std::vector<ImplEntry>& impls) {
  impls.push_back({"cuda", "hand-written CUDA (interior + boundary-layer kernels, one stream)", true, false,
                   [](const WaveProblem& problem) { return std::make_unique<WaveCuda>(problem); }});
}

}  // namespace awave
