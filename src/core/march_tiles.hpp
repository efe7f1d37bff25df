// Which point a GPU work item marches from, for the kernels that number their work items with
// one flat index (hand OpenMP offload; Kokkos' Marched kernel on CUDA and OpenMPTarget). Each
// work item marches i over one segment at one (j, k). Consecutive indices fill tiles of
// kTileWidth k (a warp: 256 contiguous bytes per row) by `rows` j, so a team of threads covers
// a (k, j) tile as a CUDA block of 32 x rows does, and the rows j +- 1 that its points read are
// mostly loaded by its own threads (L1) instead of by other teams. rows = 1 is one row of k per
// tile: the row order of a plain flat index. Tiles are whole, so an index past the grid's k or
// j edge names no point (decode returns false).
#pragma once

#include "core/wave_update.hpp"  // AWAVE_HOST_DEVICE

#include <stdexcept>

namespace awave {

struct MarchTiles {
  static constexpr int kTileWidthShift = 5;  // 32 k per tile row
  int rows_shift = 0;                        // log2 of the rows j per tile
  int k_tiles = 1, j_tiles = 1, segments = 1;

  // rows: a power of two, 1 to 32.
  static MarchTiles make(int ny, int nz, int segments, int rows) {
    MarchTiles t;
    while ((1 << t.rows_shift) < rows) ++t.rows_shift;
    if (rows < 1 || rows > 32 || (1 << t.rows_shift) != rows)
      throw std::invalid_argument("march tiles: rows j per tile must be a power of two from 1 to 32");
    const int width = 1 << kTileWidthShift;
    t.k_tiles = (nz + width - 1) / width;
    t.j_tiles = (ny + rows - 1) / rows;
    t.segments = segments;
    return t;
  }

  // Work items of the whole region (whole tiles); the caller checks it fits its index type.
  long items() const { return long(segments) * j_tiles * k_tiles << (kTileWidthShift + rows_shift); }

  // Index t -> (segment, j, k); false where the tile reaches past the grid.
  AWAVE_HOST_DEVICE bool decode(int t, int ny, int nz, int& segment, int& j, int& k) const {
    const int lane = t & ((1 << kTileWidthShift) - 1);
    int rest = t >> kTileWidthShift;
    const int row = rest & ((1 << rows_shift) - 1);
    rest >>= rows_shift;
    const int tile_k = rest % k_tiles;
    rest /= k_tiles;
    const int tile_j = rest % j_tiles;
    segment = rest / j_tiles;
    k = (tile_k << kTileWidthShift) + lane;
    j = (tile_j << rows_shift) + row;
    return k < nz && j < ny;
  }
};

}  // namespace awave
