// The (k, j) tiles of the marching GPU kernels' work items (core/march_tiles.hpp): every
// (segment, j, k) of a region is named by exactly one work index, whole tiles or partial.
#include "core/march_tiles.hpp"

#include <gtest/gtest.h>

#include <array>
#include <stdexcept>

#include <string>
#include <vector>

using namespace awave;

namespace {
// How many points of the region (segments x ny x nz) the tiles name other than exactly once;
// indices naming no point are fine (partial tiles).
long coverage_errors(const MarchTiles& tiles, int ny, int nz) {
  std::vector<int> named(std::size_t(tiles.segments) * ny * nz, 0);
  long outside = 0;
  for (long t = 0; t < tiles.items(); ++t) {
    int s, j, k;
    if (!tiles.decode(int(t), ny, nz, s, j, k)) continue;
    if (s < 0 || s >= tiles.segments || j < 0 || j >= ny || k < 0 || k >= nz) {
      ++outside;
      continue;
    }
    ++named[(std::size_t(s) * ny + j) * nz + k];
  }
  long errors = outside;
  for (int n : named) errors += n != 1;
  return errors;
}
}  // namespace

TEST(MarchTiles, EveryPointOfTheRegionIsNamedOnce) {
  for (int rows : {1, 2, 4, 8, 32})
    for (const auto& [ny, nz, segments] :
         std::vector<std::array<int, 3>>{{1, 1, 1}, {17, 9, 3}, {64, 96, 2}, {30, 33, 5}}) {
      SCOPED_TRACE("rows " + std::to_string(rows) + ", " + std::to_string(ny) + "x" + std::to_string(nz) + " x" +
                   std::to_string(segments));
      const MarchTiles tiles = MarchTiles::make(ny, nz, segments, rows);
      EXPECT_EQ(coverage_errors(tiles, ny, nz), 0);
      EXPECT_EQ(tiles.items() % (32 * rows), 0) << "whole tiles: a team of 32 x rows threads is one tile";
    }
}

TEST(MarchTiles, TheCoverageCheckSeesTooFewTiles) {  // the check above can fail
  MarchTiles tiles = MarchTiles::make(17, 40, 3, 4);
  --tiles.k_tiles;  // planted: the last k tile of every row band is lost, and the rest shift
  EXPECT_GT(coverage_errors(tiles, 17, 40), 0);
}

TEST(MarchTiles, ATeamCoversAKjTile) {
  const MarchTiles tiles = MarchTiles::make(64, 64, 1, 4);
  for (int t = 0; t < 128; ++t) {  // the first 128 indices: k 0-31 of rows 0-3
    int s, j, k;
    ASSERT_TRUE(tiles.decode(t, 64, 64, s, j, k));
    EXPECT_EQ(s, 0);
    EXPECT_EQ(k, t % 32);
    EXPECT_EQ(j, t / 32);
  }
}

TEST(MarchTiles, RowsMustBeAPowerOfTwoUpTo32) {
  for (int rows : {0, 3, 6, 64}) EXPECT_THROW(MarchTiles::make(8, 8, 1, rows), std::invalid_argument) << rows;
}
