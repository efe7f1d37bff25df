#include "parallel/nccl_link.hpp"

#include "core/tuning.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#if defined(AWAVE_HAVE_NCCL)
#include <cuda_runtime_api.h>
#include <nccl.h>
#endif

namespace awave::nccl_link {

#if defined(AWAVE_HAVE_NCCL)
namespace {

using Clock = std::chrono::steady_clock;

// A step queued with its exchange ordered on the GPU (queue_exchange .. queue_step_end).
struct QueuedStep {
  cudaEvent_t ready = nullptr;     // on the implementation's stream: the planes to send are final
  cudaEvent_t bulk_end = nullptr;  // on the implementation's stream (timed)
  cudaEvent_t arrived = nullptr;   // on the link's stream, after the receives (timed)
  cudaEvent_t done = nullptr;      // on the implementation's stream: the step is complete
  Clock::time_point queued;
  bool pending = false;  // queued, not yet seen complete
};

struct Link {
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t arrived = nullptr;  // recorded after the exchange's receives
  int rank = 0, size = 1, device = 0;
  double timeout_seconds = 0;
  Clock::time_point started;
  // GPU-ordered steps: the one being queued and the one before it, alternately.
  std::array<QueuedStep, 2> queued;
  long steps_queued = 0;
  double exposed_seconds = 0;
};
Link* link = nullptr;  // the run's, once opened
std::string failure;   // why opening failed, once it has
std::string library_version;

[[noreturn]] void fail(const std::string& why) {
  throw std::runtime_error(why);
}
void check_cuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess) fail(fmt::format("NCCL halo exchange: {} failed: {}", what, cudaGetErrorString(status)));
}

// Aborts the communicator (its kernels stop waiting for a peer) and forgets it.
void abort_link() {
  if (!link) return;
  if (link->comm) ncclCommAbort(link->comm);
  link->comm = nullptr;
}

// NCCL's word on the communicator: ncclSuccess, ncclInProgress (a non-blocking communicator
// still connecting or queueing), or the error a call or a peer's failure left.
ncclResult_t state_of(ncclComm_t comm) {
  ncclResult_t state = ncclSuccess;
  const ncclResult_t r = ncclCommGetAsyncError(comm, &state);
  return r != ncclSuccess ? r : state;
}

void check_state(ncclComm_t comm, const char* what) {
  const ncclResult_t state = state_of(comm);
  if (state != ncclSuccess && state != ncclInProgress)
    fail(fmt::format("{} failed: {} ({})", what, ncclGetErrorString(state), ncclGetLastError(comm)));
}

void check_time(Clock::time_point since, double timeout_seconds, const char* what) {
  if (std::chrono::duration<double>(Clock::now() - since).count() > timeout_seconds)
    fail(
        fmt::format("{} did not complete within {} s (a process stopped, or the GPUs cannot "
                    "reach each other; -halo_timeout sets the limit, -halo mpi avoids NCCL)",
                    what, timeout_seconds));
}

// Waits until NCCL has done what the last call asked (a non-blocking communicator returns
// ncclInProgress while it connects); fails after the time-out or on an NCCL error.
void wait_until_ready(ncclComm_t comm, Clock::time_point since, double timeout_seconds, const char* what) {
  while (state_of(comm) == ncclInProgress) {
    check_time(since, timeout_seconds, what);
    std::this_thread::yield();
  }
  check_state(comm, what);
}

// What opening needs on this process before NCCL: the GPU holding the fields, a stream, an event.
Link* prepare_here(const ProcessGroup& group, const void* device_memory, double timeout_seconds) {
  cudaPointerAttributes where{};
  if (cudaPointerGetAttributes(&where, device_memory) != cudaSuccess || where.type != cudaMemoryTypeDevice)
    fail("the implementation's fields are not in CUDA device memory");
  check_cuda(cudaSetDevice(where.device), "selecting the GPU");
  link = new Link;
  link->rank = group.rank();
  link->size = group.size();
  link->device = where.device;
  link->timeout_seconds = timeout_seconds;
  int priority_low = 0, priority_high = 0;  // the planes first: the edges of the step wait for them
  check_cuda(cudaDeviceGetStreamPriorityRange(&priority_low, &priority_high), "querying stream priorities");
  check_cuda(cudaStreamCreateWithPriority(&link->stream, cudaStreamNonBlocking, priority_high), "creating its stream");
  check_cuda(cudaEventCreateWithFlags(&link->arrived, cudaEventDisableTiming), "creating its event");
  for (QueuedStep& q : link->queued) {
    check_cuda(cudaEventCreateWithFlags(&q.ready, cudaEventDisableTiming), "creating its events");
    check_cuda(cudaEventCreate(&q.bulk_end), "creating its events");
    check_cuda(cudaEventCreate(&q.arrived), "creating its events");
    check_cuda(cudaEventCreateWithFlags(&q.done, cudaEventDisableTiming), "creating its events");
  }
  return link;
}

// The communicator itself (collective over every process).
void connect_here(const std::string& id) {
  if (id.size() != sizeof(ncclUniqueId)) fail("process 0 could not create the NCCL communicator's id");
  ncclUniqueId unique;
  std::copy(id.begin(), id.end(), unique.internal);
  ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
  config.blocking = 0;  // every wait is ours, with a time-out
  const auto since = Clock::now();
  const ncclResult_t r = ncclCommInitRankConfig(&link->comm, link->size, unique, link->rank, &config);
  if (r != ncclSuccess && r != ncclInProgress)
    fail(fmt::format("creating the NCCL communicator failed: {}", ncclGetErrorString(r)));
  wait_until_ready(link->comm, since, link->timeout_seconds, "creating the NCCL communicator");
  int v = 0;
  ncclGetVersion(&v);
  library_version = fmt::format("NCCL {}.{}.{}", v / 10000, v / 100 % 100, v % 100);
}

// Runs a local part of opening on every process, then agrees: where any failed, every process
// throws the first failure's line (naming the process where it was not this one).
template <class Part>
void on_every_process(const ProcessGroup& group, Part part) {
  std::string why;
  try {
    part();
  } catch (const std::exception& e) {
    why = e.what();
  }
  const long first_failed = group.min(why.empty() ? long(group.size()) : long(group.rank()));
  if (first_failed < group.size()) {
    failure = group.broadcast(why, int(first_failed));
    if (first_failed != group.rank()) failure += fmt::format(" (on process {})", first_failed);
    abort_link();
    fail(failure);
  }
}

}  // namespace

bool in_build() {
  return true;
}

std::optional<std::string> unavailable(const ProcessGroup& group) {
  if (!group.distributed()) return "a single process exchanges no halos";
  // Not cudaGetDeviceCount: it would start CUDA before each process has chosen its GPU.
  const int gpus = int(node_gpus().size());
  // A planted fault for the tests: processes sharing a GPU go on to meet NCCL's own refusal.
  const bool planted = test_fault("NCCL_SHARED_GPU").has_value();
  // Every node's answer, so that all processes choose the same path.
  const bool here = group.local_size() <= gpus || (planted && gpus > 0);
  if (group.min(here ? 1L : 0L)) return std::nullopt;
  if (here) return std::string("another node has more processes than GPUs: NCCL needs a GPU per process");
  if (gpus == 0) return std::string("no CUDA GPU on this node");
  return fmt::format("{} processes on a node with {} GPU{}: NCCL needs a GPU per process", group.local_size(), gpus,
                     gpus == 1 ? "" : "s");
}

void open(const ProcessGroup& group, const void* device_memory, double timeout_seconds) {
  if (link && link->comm) return;
  if (!failure.empty()) fail(failure);
  on_every_process(group, [&] { prepare_here(group, device_memory, timeout_seconds); });
  // Process 0 makes the communicator's id; an empty one tells the others it could not.
  std::string id;
  if (group.rank() == 0) {
    ncclUniqueId unique;
    if (ncclGetUniqueId(&unique) == ncclSuccess) id.assign(unique.internal, sizeof unique.internal);
  }
  id = group.broadcast(id, 0);
  on_every_process(group, [&] { connect_here(id); });
}

std::string version() {
  return library_version;
}

namespace {

void check_open() {
  if (!link || !link->comm) fail("NCCL halo exchange: used before it was opened, or after it failed");
}

// Queues the sends and receives on the link's stream, then records `arrived` there.
// (Both sides queue the blocks in the same order: NCCL pairs a peer's sends and receives in order.)
void queue_planes(const std::vector<PlaneBlock>& blocks, cudaEvent_t arrived, Clock::time_point since) {
  const int lo = link->rank - 1, hi = link->rank + 1;
  ncclGroupStart();
  for (const PlaneBlock& b : blocks) {
    if (b.recv_lo) ncclRecv(b.recv_lo, b.n, ncclDouble, lo, link->comm, link->stream);
    if (b.send_lo) ncclSend(b.send_lo, b.n, ncclDouble, lo, link->comm, link->stream);
    if (b.recv_hi) ncclRecv(b.recv_hi, b.n, ncclDouble, hi, link->comm, link->stream);
    if (b.send_hi) ncclSend(b.send_hi, b.n, ncclDouble, hi, link->comm, link->stream);
  }
  const ncclResult_t r = ncclGroupEnd();
  if (r != ncclSuccess && r != ncclInProgress)
    fail(fmt::format("NCCL halo exchange: sending the planes failed: {}", ncclGetErrorString(r)));
  wait_until_ready(link->comm, since, link->timeout_seconds, "NCCL halo exchange: queueing the planes");
  check_cuda(cudaEventRecord(arrived, link->stream), "recording the planes' arrival");
}

// Returns when `event` has completed; throws (one line) on an NCCL error, or where that takes
// longer than the time-out from `since`. Its work ends with the planes' arrival, hence the words.
void wait_for(cudaEvent_t event, Clock::time_point since) {
  for (;;) {
    const cudaError_t done = cudaEventQuery(event);
    if (done == cudaSuccess) return;
    if (done != cudaErrorNotReady) check_cuda(done, "waiting for the planes");
    // A peer's failure, seen while the planes travel.
    check_state(link->comm, "NCCL halo exchange: the exchange of halo planes");
    if (std::chrono::duration<double>(Clock::now() - since).count() > link->timeout_seconds)
      fail(
          fmt::format("NCCL halo exchange: no plane from the neighbours of process {} within {} s (a process "
                      "stopped, or the GPUs cannot reach each other; -halo_timeout sets the limit)",
                      link->rank, link->timeout_seconds));
    std::this_thread::yield();
  }
}

// Runs `work`; where it throws, the communicator is aborted first (its kernels stop waiting).
template <class Work>
void aborting_on_failure(Work work) {
  try {
    work();
  } catch (...) {
    abort_link();
    throw;
  }
}

// A planted fault for the device checks (AWAVE_TEST_FAULT_NCCL_UNORDERED): the GPU order's two waits
// left out, so planes may leave before they are final and the edges may read them before they
// arrive; bench/device/nccl-checks.sh must see the files differ.
bool unordered_fault() {
  static const bool planted = test_fault("NCCL_UNORDERED").has_value();
  return planted;
}

QueuedStep& step_being_queued() {
  return link->queued[link->steps_queued % 2];
}

// Waits for a queued step and adds the time its edges waited for the planes beyond the bulk.
void complete(QueuedStep& q) {
  if (!q.pending) return;
  wait_for(q.done, q.queued);
  // `done` follows the planes' arrival on the GPU; waited for as well, so that the timing below
  // never meets an unfinished event (as it would with the planted unordered fault).
  wait_for(q.arrived, q.queued);
  q.pending = false;
  float ms = 0;
  check_cuda(cudaEventElapsedTime(&ms, q.bulk_end, q.arrived), "timing the exchange");
  if (ms > 0) link->exposed_seconds += 1e-3 * ms;
}

}  // namespace

void start(const std::vector<PlaneBlock>& blocks) {
  check_open();
  link->started = Clock::now();
  aborting_on_failure([&] { queue_planes(blocks, link->arrived, link->started); });
}

void finish() {
  check_open();
  aborting_on_failure([&] { wait_for(link->arrived, link->started); });
}

void queue_exchange(void* stream, const std::vector<PlaneBlock>& blocks) {
  check_open();
  QueuedStep& q = step_being_queued();  // its events' last use completed: queue_step_end waited for it
  q.queued = Clock::now();
  q.pending = true;
  aborting_on_failure([&] {
    check_cuda(cudaEventRecord(q.ready, static_cast<cudaStream_t>(stream)), "ordering the planes after the step");
    if (!unordered_fault())
      check_cuda(cudaStreamWaitEvent(link->stream, q.ready, 0), "ordering the planes after the step");
    queue_planes(blocks, q.arrived, q.queued);
  });
}

void queue_wait_for_planes(void* stream) {
  check_open();
  QueuedStep& q = step_being_queued();
  aborting_on_failure([&] {
    check_cuda(cudaEventRecord(q.bulk_end, static_cast<cudaStream_t>(stream)), "ordering the step after the planes");
    if (!unordered_fault())
      check_cuda(cudaStreamWaitEvent(static_cast<cudaStream_t>(stream), q.arrived, 0),
                 "ordering the step after the planes");
  });
}

void queue_step_end(void* stream) {
  check_open();
  QueuedStep& q = step_being_queued();
  aborting_on_failure([&] {
    check_cuda(cudaEventRecord(q.done, static_cast<cudaStream_t>(stream)), "marking the step's end");
    ++link->steps_queued;
    complete(step_being_queued());  // the step before: the host stays one step ahead
  });
}

void wait_for_queued_steps() {
  check_open();
  aborting_on_failure([&] {
    complete(link->queued[link->steps_queued % 2]);  // the older first
    complete(link->queued[(link->steps_queued + 1) % 2]);
  });
}

double exposed_seconds() {
  return link ? link->exposed_seconds : 0.0;
}

void close() {
  if (!link) return;
  if (link->comm) {  // a clean end where the peers answer in time, an abort where not
    const auto since = Clock::now();
    try {
      wait_until_ready(link->comm, since, link->timeout_seconds, "NCCL halo exchange: the last exchange");
      if (ncclCommFinalize(link->comm) != ncclSuccess && state_of(link->comm) != ncclInProgress) fail("finalize");
      wait_until_ready(link->comm, since, link->timeout_seconds, "closing the NCCL communicator");
      ncclCommDestroy(link->comm);
    } catch (const std::exception&) {
      ncclCommAbort(link->comm);
    }
    link->comm = nullptr;
  }
  if (link->arrived) cudaEventDestroy(link->arrived);
  for (QueuedStep& q : link->queued)
    for (cudaEvent_t e : {q.ready, q.bulk_end, q.arrived, q.done})
      if (e) cudaEventDestroy(e);
  if (link->stream) cudaStreamDestroy(link->stream);
  delete link;
  link = nullptr;
}

#else  // a build without NCCL: the MPI path only

bool in_build() {
  return false;
}
std::optional<std::string> unavailable(const ProcessGroup&) {
  return "this build has no NCCL (the *-mpi presets of the GPU builds have it where NCCL is installed)";
}
void open(const ProcessGroup&, const void*, double) {
  throw std::runtime_error("this build has no NCCL");
}
std::string version() {
  return {};
}
void start(const std::vector<PlaneBlock>&) {
  throw std::runtime_error("this build has no NCCL");
}
void finish() {}
void queue_exchange(void*, const std::vector<PlaneBlock>&) {
  throw std::runtime_error("this build has no NCCL");
}
void queue_wait_for_planes(void*) {}
void queue_step_end(void*) {}
void wait_for_queued_steps() {}
double exposed_seconds() {
  return 0.0;
}
void close() {}

#endif

}  // namespace awave::nccl_link
