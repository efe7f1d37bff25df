// Three time levels (prev, now, next) in a ring: a step writes `next`, then rotate() makes
// it `now` without copying, and counts the step. Level is any cheap handle: a std::vector
// index, a device pointer, a Kokkos::View.
#pragma once

#include <array>
#include <utility>

namespace awave {

template <class Level>
class TimeRing {
 public:
  TimeRing() = default;
  TimeRing(Level a, Level b, Level c) : levels_{std::move(a), std::move(b), std::move(c)} {}

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

 private:
  std::array<Level, 3> levels_{};
  int head_ = 0;
  long time_ = 0;
};

}  // namespace awave
