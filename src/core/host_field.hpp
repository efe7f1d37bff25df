// Host copies of whole fields: allocated without std::vector's zero fill, then filled or copied
// on every thread. At 320^3, 60% of a CPU run's wall time was one thread's memset and memmove
// paging fields in (perf, build machine); at 1000^3 (8 GB a field) one process took over a minute
// to set up on the H100 machine's CPU. Filled in the compute loops' order (static schedule over
// the outermost index), each page lands on the NUMA node of the thread that will use it.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace awave {

// Value-initialisation (resize, the size constructor) leaves doubles uninitialised; copies and
// explicit values are as std::allocator's.
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

// A host field: its values are unspecified until filled (fill_in_parallel, copy_in_parallel or a
// loop that writes every point).
using HostField = std::vector<double, DefaultInitAllocator<double>>;

// data[0, n) = value; to[0, n) = from[0, n): on every OpenMP thread, static schedule.
void fill_in_parallel(double* data, std::size_t n, double value);
void copy_in_parallel(const double* from, std::size_t n, double* to);

}  // namespace awave
