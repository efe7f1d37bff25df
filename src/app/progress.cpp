#include "app/progress.hpp"

#include <fmt/format.h>

#include <unistd.h>

namespace awave {

ProgressReporter::ProgressReporter(std::string id, long total_steps, double points_per_step, bool enabled,
                                   std::FILE* out, std::chrono::milliseconds period)
    : id_(std::move(id)),
      total_(total_steps),
      points_(points_per_step),
      out_(out),
      live_(isatty(fileno(out)) == 1),
      period_(period.count() > 0 ? period : std::chrono::milliseconds(live_ ? 500 : 10000)),
      start_(std::chrono::steady_clock::now()) {
  if (enabled && total_steps > 0) thread_ = std::thread([this] { loop(); });
}

ProgressReporter::~ProgressReporter() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ProgressReporter::update(long steps, double compute_seconds) {
  bool first = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    first = steps_ == 0 && steps > 0;
    first_pending_ = first_pending_ || first;
    steps_ = steps;
    compute_ = compute_seconds;
  }
  if (first) wake_.notify_all();  // the first chunk's rate and ETA at once
}

std::string ProgressReporter::line() const {
  std::lock_guard<std::mutex> lock(mutex_);
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string s =
      fmt::format("[{}] {}/{} steps ({:.0f}%)", id_, steps_, total_, 100.0 * double(steps_) / double(total_));
  if (steps_ > 0 && compute_ > 0) {
    // Time left from the wall time so far (output and copies included), per step done.
    const long left = long(double(total_ - steps_) * elapsed / double(steps_) + 0.5);
    s += fmt::format(", {:.3g} SU/s, ETA {}:{:02d}:{:02d}", points_ * double(steps_) / compute_, left / 3600,
                     left / 60 % 60, left % 60);
  } else {
    s += fmt::format(", {:.0f} s into the first chunk", elapsed);
  }
  return s;
}

void ProgressReporter::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  bool printed = false;
  for (;;) {
    wake_.wait_for(lock, period_, [this] { return stop_ || first_pending_; });
    if (stop_ && !first_pending_) break;  // a run too short for a line still gets its first chunk's
    first_pending_ = false;
    lock.unlock();
    const std::string text = line();
    if (live_)
      std::fprintf(out_, "\r%s\033[K", text.c_str());
    else
      std::fprintf(out_, "%s\n", text.c_str());
    std::fflush(out_);
    printed = true;
    lock.lock();
  }
  if (live_ && printed) {  // leave the terminal's line clean for what follows
    std::fprintf(out_, "\r\033[K");
    std::fflush(out_);
  }
}

}  // namespace awave
