// The one interface every awave implementation sits behind (CPU reference, hand-written CUDA,
// hand-written OpenMP offload, Kokkos on each backend), and the entry each registers itself
// with (the registry that lists this build's entries is app/registry.hpp).
#pragma once

#include "host_field.hpp"
#include "optional_capabilities.hpp"
#include "step_plan.hpp"
#include "wave_problem.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace awave {

// A NaN or Inf found in u when the fields came to the host (output, check).
struct NonFinite {
  long step;          // the time counter when it was seen
  const char* field;  // "u" (now) or "u_prev"
  int pi, pj, pk;     // padded coordinates
  double value;
};
// The first NaN or Inf in two padded fields (now first; prev may be null), or nothing; on host threads.
std::optional<NonFinite> find_non_finite(const PaddedGeometry& g, long step, const double* now, const double* prev);
// The same for `now` rounded to float (a single-precision snapshot: a value beyond float's range
// is stored, and so reported, as Inf).
std::optional<NonFinite> find_non_finite(const PaddedGeometry& g, long step, const float* now);
// Index of the first value of `values[0, n)` that is not finite, or n; on host threads.
std::size_t first_non_finite_value(const double* values, std::size_t n);

class WaveImpl {
 public:
  virtual ~WaveImpl() = default;
  WaveImpl(const WaveImpl&) = delete;
  WaveImpl& operator=(const WaveImpl&) = delete;

  // Short identifier, used in output file names and reports ("cpu", "kokkos-openmp", ...).
  virtual std::string id() const = 0;
  // Advance n steps. Blocking: when it returns, the n steps are complete wherever they ran.
  virtual void run(int nsteps) = 0;
  // The integer time counter (number of steps advanced since set-up).
  virtual long time_step() const = 0;
  // How run() takes its steps (fused or three kernels, steps a sweep): the plan it was made with.
  const StepPlan& plan() const { return plan_; }
  // Copy the padded `now` and `prev` fields (geometry().size() values each) to the host; h_prev
  // may be null (not copied).
  virtual void copy_u_to_host(double* h_now, double* h_prev) = 0;
  // Copy the padded `now` field to the host rounded to float (to nearest, as static_cast does),
  // converted where the field lives, so that half the bytes cross the bus (single-precision
  // snapshots, io/output_layout.hpp). The default copies the doubles and converts on the host.
  virtual void copy_now_to_host_single(float* h_now);

  // Runs over MPI (parallel/halo_exchange.hpp): `count` planes of constant padded i from `pi` of
  // the level's field, count * geometry().stride_i() values, contiguous (i is the slowest index),
  // to or from the host.
  virtual void copy_planes_to_host(TimeLevel level, int pi, int count, double* host) = 0;
  virtual void copy_host_to_planes(TimeLevel level, int pi, int count, const double* host) = 0;

  // The optional capabilities (core/optional_capabilities.hpp), or null where it lacks one: a
  // step in two parts (where its plan takes three kernels), a sweep in two parts (where it sweeps
  // a slab over MPI), fields in CUDA device memory, steps ordered on a CUDA stream.
  SplitStep* split_step() { return plan_.fused_step ? nullptr : dynamic_cast<SplitStep*>(this); }
  SplitSweep* split_sweep() { return plan_.recomputed_halo ? dynamic_cast<SplitSweep*>(this) : nullptr; }
  DeviceFields* device_fields() { return dynamic_cast<DeviceFields*>(this); }
  StreamOrderedSteps* stream_ordered_steps() { return dynamic_cast<StreamOrderedSteps*>(this); }
  // Host memory the device copies to and from (halo planes, snapshots): pinned where the
  // implementation can pin it (PinnedHostMemory), else pageable; `pinned` says which. Never fails
  // for want of pinned memory.
  struct HostBuffer {
    std::shared_ptr<double> data;
    bool pinned = false;
  };
  HostBuffer host_buffer(std::size_t n);

  // The padded `now` field on the host (copied back on each call), for the check.
  const HostField& now_on_host();
  // The first NaN or Inf seen by now_on_host (output snapshots are scanned by their writer).
  const std::optional<NonFinite>& first_non_finite() const { return non_finite_; }

 protected:
  WaveImpl(const WaveProblem& problem, const StepPlan& plan) : problem_(problem), plan_(plan) {}
  const WaveProblem& problem_;
  const StepPlan plan_;

 private:
  void copy_back();
  HostField h_now_, h_prev_;  // host staging, allocated on first use
  std::optional<NonFinite> non_finite_;
};

// One registered implementation: its id, what it is, and how to make one (made by entry_of).
struct ImplEntry {
  std::string id;
  std::string description;
  bool on_device = false;    // runs on an accelerator (its tests are labelled gpu)
  bool uses_kokkos = false;  // needs the Kokkos runtime initialised
  // Makes one with its plan (make_implementation in app/registry.hpp plans and makes).
  std::function<std::unique_ptr<WaveImpl>(const WaveProblem&, const StepPlan&)> make;
  // How the code is written: "reference" (the serial CPU code), "hand-written" (for its
  // platform: threaded CPU, CUDA, OpenMP offload), "kokkos-idiomatic" or "kokkos-tuned".
  std::string form;
  // What it can do besides fused steps (core/step_plan.hpp): the one declaration of it.
  Capabilities can;
};

// The entry of implementation class Impl. Its capabilities are declared here, once; a step in
// three kernels promises a step in two parts over MPI, so Impl must derive from SplitStep, and the
// entry is refused where it does not (std::logic_error: every run and test stops at start-up,
// instead of taking whole steps over MPI, bitwise and unnoticed).
template <class Impl>
ImplEntry entry_of(std::string id, std::string description, bool on_device, bool uses_kokkos, std::string form,
                   Capabilities can, std::function<std::unique_ptr<WaveImpl>(const WaveProblem&, const StepPlan&)> make) {
  if (can.three_kernel_step != std::is_base_of_v<SplitStep, Impl>)
    throw std::logic_error("implementation " + id + ": its entry says " +
                           (can.three_kernel_step ? "" : "no ") + "three-kernel steps, its class " +
                           (can.three_kernel_step ? "has no" : "has a") + " step in two parts (SplitStep)");
  return {std::move(id), std::move(description), on_device, uses_kokkos, std::move(make), std::move(form), can};
}

}  // namespace awave
