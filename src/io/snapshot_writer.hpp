// Output that overlaps compute. The driver copies a snapshot into one of two pairs of host
// buffers (from the implementation: pinned where it can, so the copy runs at the bus's speed;
// in single precision, converted where the fields live, where the layout asks for no more) and
// hands it over; a writer thread scans it for NaN/Inf and appends it, with the checkpoint that
// goes with it (io/output_layout.hpp), to the file (VtkHdfWriter: crash-safe) while the next
// chunk computes. The driver waits only when both pairs are taken, i.e. when the writer has
// fallen a whole chunk behind. The file is written as "<path>.partial" (made as
// "<path>.creating" and renamed once laid out) and renamed to <path> by commit(); a run that
// stops before commit leaves the .partial holding every snapshot written, which -restart
// continues.
#pragma once

#include "core/wave_impl.hpp"
#include "io/vtkhdf.hpp"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace awave {

class SnapshotWriter {
 public:
  // The file is created on the writer thread too (its static arrays are as large as a
  // snapshot), so the first chunk computes meanwhile; a failure to create it is reported by
  // the next acquire() or commit().
  // allocate: the host buffers (WaveImpl::host_buffer), allocated when first needed.
  using Allocate = std::function<WaveImpl::HostBuffer(std::size_t)>;
  SnapshotWriter(const std::string& path, const WaveProblem& problem, const OutputLayout& layout, int64_t slots,
                 Allocate allocate);
  // Writes what is queued (unless writing failed), then closes the file without marking it
  // complete: it stays as the .partial, readable, if commit() was not reached.
  ~SnapshotWriter();
  SnapshotWriter(const SnapshotWriter&) = delete;
  SnapshotWriter& operator=(const SnapshotWriter&) = delete;

  // Padded host buffers for the snapshot at time counter `time`, to fill with either
  // now_single (the `now` field rounded to float: a snapshot of single-precision u alone) or now
  // and, where not null, prev (in double); `bytes`: what that copies. Waits while the writer
  // holds both pairs. Rethrows a write error.
  struct Buffers {
    double* now = nullptr;
    double* prev = nullptr;
    float* now_single = nullptr;
    std::size_t bytes = 0;
  };
  Buffers acquire(long time);
  // Queues the acquired buffers, filled.
  void submit();
  // Waits for every queued snapshot, marks the file complete and renames it to its path.
  void commit();

  const std::string& partial_path() const { return partial_; }
  // Whether the file was made (its .partial exists) and how many snapshots it has committed: what a restart has.
  bool created() const;
  long written() const;
  // Whether every buffer acquired so far is pinned (false: the allocator fell back to pageable).
  bool buffers_pinned() const { return pinned_; }
  long snapshots_written() const;
  double write_seconds() const;            // writer thread: file creation, scan, transpose, HDF5 writes, flushes
  double scan_seconds() const;             // of which the NaN/Inf scan
  VtkHdfWriter::Parts file_parts() const;  // the file's parts (transpose, checksums, HDF5, flushes): after commit()
  double wait_seconds() const;             // the caller, waiting in acquire() and commit()
  std::optional<NonFinite> first_non_finite() const;

 private:
  struct Slot {
    std::shared_ptr<double> now, prev;  // now also holds the floats of a single-precision snapshot
    long time = 0;
    bool single = false, with_prev = false, checkpoint = false;  // what this snapshot holds
    bool busy = false;                                           // acquired, queued or being written
  };
  void write_loop();
  void rethrow_failure();  // with the lock held

  std::string path_, partial_;
  const WaveProblem& problem_;
  OutputLayout layout_;
  int64_t slots_planned_;
  Allocate allocate_;
  bool pinned_ = true;
  std::unique_ptr<VtkHdfWriter> file_;  // made by the writer thread
  Slot slots_[2];
  int acquired_ = -1;
  std::deque<int> queue_;
  bool stop_ = false, committed_ = false, created_ = false;
  std::exception_ptr failure_;
  long written_ = 0;
  double write_seconds_ = 0.0, wait_seconds_ = 0.0, scan_seconds_ = 0.0;
  std::optional<NonFinite> non_finite_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::thread thread_;  // last: started when everything above exists
};

}  // namespace awave
