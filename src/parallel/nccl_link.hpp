// The halo planes GPU to GPU through NCCL (ncclSend/ncclRecv: NVLink where the GPUs have it),
// in the builds that have NCCL (the *-mpi presets of GPU builds, cmake/AwaveNccl.cmake). One
// communicator per run over every process, bootstrapped through MPI on first use, and its own
// high-priority CUDA stream, so that the planes travel while an implementation computes the
// bulk of its step. Every wait is bounded: a neighbour that stops, or GPUs that cannot reach
// each other, end the run with one line instead of a hang.
#pragma once

#include "parallel/process_group.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace awave {

namespace nccl_link {

// Whether this build has NCCL.
bool in_build();
// Why this run's planes cannot go GPU to GPU, in one line; nothing where they can. Decided
// without NCCL from what every process sees (the same answer on each): a build without NCCL,
// a single process, or more processes on a node than it has GPUs (NCCL needs a GPU each).
std::optional<std::string> unavailable(const ProcessGroup& group);

// Opens the run's communicator on the GPU that holds `device_memory` (collective: every
// process calls it, for the same implementation). Idempotent; where it failed on any process,
// it throws (std::runtime_error, one line, the same on every process) now and on every later call.
void open(const ProcessGroup& group, const void* device_memory, double timeout_seconds);
// "NCCL 2.28.3": the library this process runs with (open first).
std::string version();
// One run of contiguous planes of one field, each way (null pointers: no such neighbour):
// send_lo to rank - 1, send_hi to rank + 1, recv_lo from rank - 1, recv_hi from rank + 1, n
// doubles each, all in device memory.
struct PlaneBlock {
  const double *send_lo, *send_hi;
  double *recv_lo, *recv_hi;
  std::size_t n;
};
// Queues one exchange of the blocks on the link's stream (a sweep's: u(t) and u(t-1)). The
// planes sent must be final when this is called.
void start(const std::vector<PlaneBlock>& blocks);
// Returns when the planes of the last start() have arrived; throws (one line) where that takes
// more than the time-out from start(), or NCCL reports an error, after aborting the communicator.
void finish();

// The exchange ordered on the GPU, for implementations that queue their steps on a CUDA stream
// (`stream`, a cudaStream_t, null the legacy default stream): events order the planes with the kernels, and the host
// waits only for the step before the one it has just queued, so the GPU never waits for the host. Queues one exchange
// (as start()) after the work already queued on `stream`.
void queue_exchange(void* stream, const std::vector<PlaneBlock>& blocks);
// Marks the end of the bulk queued on `stream`; what is queued on it later waits for the planes.
void queue_wait_for_planes(void* stream);
// Marks the end of the step queued on `stream`, then waits for the step queued before it
// (throws as finish() where that takes longer than the time-out from its queueing).
void queue_step_end(void* stream);
// Waits until every queued step is complete (as queue_step_end's wait).
void wait_for_queued_steps();
// Of the completed queued steps, the GPU time the edges waited for the planes after the bulk
// had ended: the exchange's cost beyond the bulk, in seconds.
double exposed_seconds();

// Destroys the communicator (ProcessGroup::finalize, before MPI_Finalize).
void close();

}  // namespace nccl_link

}  // namespace awave
