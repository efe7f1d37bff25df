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
  // After a sweep of `steps` steps (core/sweep_march.hpp) that wrote its last two levels into
  // `next` and into `spare`, a fourth level: they become prev and now, the old prev the next
  // `next` and the old now the spare. (Copies, as the constructor's: no level is moved from.)
  void advance_by_sweep(Level& spare, int steps) {
    const Level last2 = next(), last = spare, free = prev(), old_now = now();
    levels_[0] = last2;
    levels_[1] = last;
    levels_[2] = free;
    head_ = 0;
    time_ += steps;
    spare = old_now;
  }

 private:
  std::array<Level, 3> levels_{};
  int head_ = 0;
  long time_ = 0;
};

}  // namespace awave
