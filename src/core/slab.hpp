// The part of the grid one process computes: a slab of x-planes (over MPI, parallel/ cuts the
// grid into these; a single process owns the whole grid). Pure geometry: no MPI here.
#pragma once

#include <algorithm>

namespace awave {

// Global planes [offset, offset + nx) of a grid of global_nx planes, owned by `rank` of `size`.
// i is the slowest index of a padded field, so a plane is contiguous: a halo is one memcpy.
// A slab that sweeps S steps between exchanges also computes S of each neighbour's planes
// (halo_lo, halo_hi: 0 at a grid face), which the exchange overwrites before each sweep.
struct Slab {
  int offset = 0, nx = 0, global_nx = 0;
  int rank = 0, size = 1;
  int halo_lo = 0, halo_hi = 0;
  bool first() const { return rank == 0; }
  bool last() const { return rank == size - 1; }
  // The planes this process computes: its own and the neighbours' it recomputes.
  int computed_offset() const { return offset - halo_lo; }
  int computed_nx() const { return halo_lo + nx + halo_hi; }
  // The padded plane (of a field of the computed planes) of the first own plane.
  int own_padded_plane0() const { return 1 + halo_lo; }
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

// The slab computing `depth` of each neighbour's planes besides its own (a neighbour must own
// that many: the halo comes from one process).
inline Slab with_halo(Slab s, int depth) {
  s.halo_lo = s.first() ? 0 : depth;
  s.halo_hi = s.last() ? 0 : depth;
  return s;
}

// The whole grid, for a single process.
inline Slab whole_grid(int global_nx) {
  return slab_of(global_nx, 0, 1);
}

}  // namespace awave
