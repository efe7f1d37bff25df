// Three time levels (prev, now, next) in a ring: a step writes `next`, then rotate() makes
// it `now` without copying, and counts the step. Level is any cheap handle: a std::vector
// index, a device pointer, a Kokkos::View. Levels are copied in, never moved: a handle's
// moved-from state is left to its type (Kokkos' June 2025 develop branch crashed destroying
// moved-from Views), so the ring holds only fully formed copies.
#pragma once

#include <array>

namespace awave {

template <class Level>
class TimeRing {
 public:
  TimeRing() = default;
  // prev = a, now = b, next = c; the time counter starts at `time` (a restart's step).
  TimeRing(const Level& a, const Level& b, const Level& c, long time = 0) : levels_{a, b, c}, time_(time) {}

  Level& prev() { return levels_[head_]; }
  Level& now() { return levels_[(head_ + 1) % 3]; }
  Level& next() { return levels_[(head_ + 2) % 3]; }
  const Level& prev() const { return levels_[head_]; }
  const Level& now() const { return levels_[(head_ + 1) % 3]; }
  const Level& next() const { return levels_[(head_ + 2) % 3]; }

  // prev <- now <- next <- (old prev, to be overwritten by the next step)
  void rotate() {
    head_ = (head_ + 1) % 3;
    ++time_;
  }
  long time() const { return time_; }
  // prev = a, now = b, next = c at `time`: after a sweep of several steps, whose levels are not a
  // rotation of these (core/sweep_march.hpp). By value: the arguments may be this ring's levels.
  void reset(Level a, Level b, Level c, long time) {
    levels_[0] = a;  // (copied, as the constructor's: no level is moved from)
    levels_[1] = b;
    levels_[2] = c;
    head_ = 0;
    time_ = time;
  }

 private:
  std::array<Level, 3> levels_{};
  int head_ = 0;
  long time_ = 0;
};

}  // namespace awave
