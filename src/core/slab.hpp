// The part of the grid one process computes: a slab of x-planes (over MPI, parallel/ cuts the
// grid into these; a single process owns the whole grid). Pure geometry: no MPI here.
#pragma once

#include <algorithm>

namespace awave {

// Global planes [offset, offset + nx) of a grid of global_nx planes, owned by `rank` of `size`.
// i is the slowest index of a padded field, so a plane is contiguous: a halo is one memcpy.
struct Slab {
  int offset = 0, nx = 0, global_nx = 0;
  int rank = 0, size = 1;
  bool first() const { return rank == 0; }
  bool last() const { return rank == size - 1; }
};

// As even as possible: the first global_nx % size ranks own one plane more.
inline Slab slab_of(int global_nx, int rank, int size) {
  const int base = global_nx / size, extra = global_nx % size;
  Slab s;
  s.rank = rank;
  s.size = size;
  s.global_nx = global_nx;
  s.nx = base + (rank < extra ? 1 : 0);
  s.offset = rank * base + std::min(rank, extra);
  return s;
}

// The largest slab of `size` (rank 0's), and the smallest (the last rank's).
inline int largest_slab_nx(int global_nx, int size) {
  return slab_of(global_nx, 0, size).nx;
}
inline int smallest_slab_nx(int global_nx, int size) {
  return slab_of(global_nx, size - 1, size).nx;
}

// The whole grid, for a single process.
inline Slab whole_grid(int global_nx) {
  return slab_of(global_nx, 0, 1);
}

}  // namespace awave
