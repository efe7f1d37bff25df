#include "io/snapshot_writer.hpp"

#include "parallel/process_group.hpp"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <utility>

namespace awave {
namespace {
double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

SnapshotWriter::SnapshotWriter(const std::string& path, const WaveProblem& problem, const OutputLayout& layout,
                               int64_t slots, Allocate allocate)
    : path_(path),
      partial_(path + ".partial"),
      problem_(problem),
      layout_(layout),
      slots_planned_(slots),
      allocate_(std::move(allocate)),
      thread_(&SnapshotWriter::write_loop, this) {}

SnapshotWriter::~SnapshotWriter() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
  if (!committed_ && file_) {
    try {
      file_->close(false);
    } catch (...) {  // nothing to report from a destructor: the file keeps what was flushed
    }
  }
}

void SnapshotWriter::write_loop() {
  quiet_hdf5_errors_in_this_thread();
  const auto start = std::chrono::steady_clock::now();
  std::exception_ptr error;
  // Made under another name and renamed once its structure is flushed: a run killed while
  // HDF5 lays the file out leaves no .partial that cannot be opened (the rename is atomic),
  // and an earlier run's .partial stays until this one's can replace it.
  const std::string creating = path_ + ".creating";
  const bool renames = ProcessGroup::world().rank() == 0;
  bool made = false;
  try {
    // A leftover of a killed run is removed (a link itself, not what it names), and the file is
    // created exclusively (VtkHdfWriter): nothing is written through a name that appears meanwhile.
    std::error_code ignored;
    if (renames) std::filesystem::remove(creating, ignored);
    file_ = std::make_unique<VtkHdfWriter>(creating, problem_, layout_, slots_planned_);
    if (renames) std::filesystem::rename(creating, partial_);
    made = true;
  } catch (...) {
    error = std::current_exception();
    std::error_code ignored;  // a file that could not be made is no use to anyone
    if (renames && !std::filesystem::is_symlink(std::filesystem::symlink_status(creating, ignored)))
      std::filesystem::remove(creating, ignored);
  }
  std::unique_lock lock(mutex_);
  created_ = made;
  write_seconds_ += seconds_since(start);
  if (error) {
    failure_ = error;
    changed_.notify_all();
  }
  for (;;) {
    changed_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and everything queued is written
    const int s = queue_.front();
    queue_.pop_front();
    Slot& slot = slots_[s];
    if (!failure_) {
      lock.unlock();
      const auto start = std::chrono::steady_clock::now();
      std::optional<NonFinite> bad;
      std::exception_ptr error;
      double scan = 0;
      try {
        VtkHdfWriter::State state{slot.now.get(), slot.with_prev ? slot.prev.get() : nullptr, nullptr};
        if (slot.single) state = {nullptr, nullptr, reinterpret_cast<const float*>(slot.now.get())};
        bad = state.now_single ? find_non_finite(problem_.geometry(), slot.time, state.now_single)
                               : find_non_finite(problem_.geometry(), slot.time, state.now, state.prev);
        scan = seconds_since(start);
        file_->append(slot.time, state, slot.checkpoint);
      } catch (...) {
        error = std::current_exception();
      }
      const double took = seconds_since(start);
      lock.lock();
      write_seconds_ += took;
      scan_seconds_ += scan;
      if (bad && !non_finite_) non_finite_ = bad;
      if (error)
        failure_ = error;
      else
        ++written_;
    }
    slot.busy = false;
    changed_.notify_all();
  }
}

void SnapshotWriter::rethrow_failure() {
  if (!failure_) return;
  try {
    std::rethrow_exception(failure_);
  } catch (const std::exception& e) {
    if (!created_)  // the file was never made: nothing is left under either name
      throw std::runtime_error(fmt::format("creating {}: {}; no file was left", partial_, e.what()));
    throw std::runtime_error(
        fmt::format("writing {}: {}; the file keeps the {} snapshots written before", partial_, e.what(), written_));
  }
}

bool SnapshotWriter::created() const {
  std::lock_guard lock(mutex_);
  return created_;
}

long SnapshotWriter::written() const {
  std::lock_guard lock(mutex_);
  return written_;
}

SnapshotWriter::Buffers SnapshotWriter::acquire(long time) {
  std::unique_lock lock(mutex_);
  if (acquired_ >= 0) throw std::logic_error("SnapshotWriter: acquire twice without submit");
  const auto start = std::chrono::steady_clock::now();
  changed_.wait(lock, [this] { return failure_ || !slots_[0].busy || !slots_[1].busy; });
  wait_seconds_ += seconds_since(start);
  rethrow_failure();
  acquired_ = slots_[0].busy ? 1 : 0;
  Slot& slot = slots_[acquired_];
  slot.busy = true;
  slot.time = time;
  // What this snapshot needs from the device: a checkpoint (and a snapshot in double with u_prev)
  // both fields in double; a single-precision snapshot of u alone, its floats only (half the
  // bytes of u); anything else (single precision with u_prev: rare) the doubles, converted here.
  slot.checkpoint = !layout_.snapshots_are_checkpoints() && layout_.is_checkpoint(problem_.params(), time);
  slot.single = layout_.single_precision && !layout_.with_u_prev && !slot.checkpoint;
  slot.with_prev = layout_.with_u_prev || slot.checkpoint;
  const std::size_t n = problem_.geometry().size();
  for (auto [field, needed] : {std::pair{&slot.now, true}, std::pair{&slot.prev, slot.with_prev}}) {
    if (!needed || *field) continue;  // allocated when first needed; not zeroed: every value is copied in
    WaveImpl::HostBuffer buffer = allocate_(n);
    *field = std::move(buffer.data);
    pinned_ = pinned_ && buffer.pinned;
  }
  if (slot.single) return {nullptr, nullptr, reinterpret_cast<float*>(slot.now.get()), n * sizeof(float)};
  return {slot.now.get(), slot.with_prev ? slot.prev.get() : nullptr, nullptr,
          n * sizeof(double) * (slot.with_prev ? 2 : 1)};
}

void SnapshotWriter::submit() {
  {
    std::lock_guard lock(mutex_);
    if (acquired_ < 0) throw std::logic_error("SnapshotWriter: submit without acquire");
    queue_.push_back(acquired_);
    acquired_ = -1;
  }
  changed_.notify_all();
}

void SnapshotWriter::commit() {
  {
    std::unique_lock lock(mutex_);
    const auto start = std::chrono::steady_clock::now();
    changed_.wait(lock, [this] { return failure_ || (!slots_[0].busy && !slots_[1].busy); });
    wait_seconds_ += seconds_since(start);
    rethrow_failure();
  }
  const auto start = std::chrono::steady_clock::now();
  file_->close(true);  // collective over MPI: every process has closed when it returns
  const ProcessGroup& group = ProcessGroup::world();
  if (group.rank() == 0) std::filesystem::rename(partial_, path_);
  group.barrier();
  std::lock_guard lock(mutex_);
  write_seconds_ += seconds_since(start);
  committed_ = true;
}

long SnapshotWriter::snapshots_written() const {
  std::lock_guard lock(mutex_);
  return written_;
}
double SnapshotWriter::write_seconds() const {
  std::lock_guard lock(mutex_);
  return write_seconds_;
}
double SnapshotWriter::wait_seconds() const {
  std::lock_guard lock(mutex_);
  return wait_seconds_;
}
double SnapshotWriter::scan_seconds() const {
  std::lock_guard lock(mutex_);
  return scan_seconds_;
}
VtkHdfWriter::Parts SnapshotWriter::file_parts() const {
  std::lock_guard lock(mutex_);
  return file_ ? file_->parts() : VtkHdfWriter::Parts{};
}
std::optional<NonFinite> SnapshotWriter::first_non_finite() const {
  std::lock_guard lock(mutex_);
  return non_finite_;
}

}  // namespace awave
