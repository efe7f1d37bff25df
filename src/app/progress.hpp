// Progress of one implementation's run, on stderr: steps done, percentage, SU/s so far and the
// time left. On a terminal a live line (rewritten twice a second); otherwise (batch logs) a
// plain line at least every 10 s, and one as soon as the first chunk ends (its rate and the time
// left). Steps are counted at chunk ends (every out_period steps);
// between them the line repeats the last count, so a long chunk still shows the run alive.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

namespace awave {

class ProgressReporter {
 public:
  // Prints nothing when !enabled (-quiet, or not the first MPI process). `period` overrides the
  // interval between lines (tests); by default 0.5 s on a terminal and 10 s otherwise.
  ProgressReporter(std::string id, long total_steps, double points_per_step, bool enabled, std::FILE* out = stderr,
                   std::chrono::milliseconds period = std::chrono::milliseconds(0));
  ~ProgressReporter();
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  // After a chunk: `steps` done in all, `compute_seconds` of compute in all.
  void update(long steps, double compute_seconds);
  // The line as it would be printed now (for tests).
  std::string line() const;

 private:
  void loop();
  std::string id_;
  long total_;
  double points_;
  std::FILE* out_;
  bool live_;
  std::chrono::milliseconds period_;
  std::chrono::steady_clock::time_point start_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  long steps_ = 0;
  double compute_ = 0;
  bool stop_ = false;
  bool first_pending_ = false;  // the first chunk just ended: print now
  std::thread thread_;
};

}  // namespace awave
