// The sponge's geometry, once (docs/model.md, "Damping"): kBoundaryLayers (nbl) damping layers at
// each x and each y face, none in z. Every kernel asks here whether a point is damped, where the
// layers lie and what a column's damping is; the values themselves are WaveProblem's damp_ij.
#pragma once

#include "core/wave_params.hpp"  // kBoundaryLayers
#include "core/wave_update.hpp"  // AWAVE_HOST_DEVICE

namespace awave::sponge {

inline constexpr int kLayers = kBoundaryLayers;

// Whether index i of an axis of n points lies in one of that axis' two layers.
AWAVE_HOST_DEVICE constexpr bool in_layer(int i, int n) {
  return i < kLayers || i >= n - kLayers;
}
// Whether column (i, j) is damped: in an x layer or a y layer (corners included).
AWAVE_HOST_DEVICE constexpr bool damped(int i, int j, int nx, int ny) {
  return in_layer(i, nx) || in_layer(j, ny);
}
// The index of layer r (0 .. 2 nbl - 1, the low face's first) on an axis of n points: the one map
// from a launch over the layers alone to grid indices.
AWAVE_HOST_DEVICE constexpr int layer_index(int r, int n) {
  return r < kLayers ? r : n - 2 * kLayers + r;
}
// The points of an axis between its two layers (the bulk): [kLayers, n - kLayers), n - 2 nbl of them.
AWAVE_HOST_DEVICE constexpr int bulk_end(int n) {
  return n - kLayers;
}
AWAVE_HOST_DEVICE constexpr int bulk_points(int n) {
  return n - 2 * kLayers;
}
// How deep index i of a layer lies from its face (0 at the face): the ramp's index.
AWAVE_HOST_DEVICE constexpr int depth_in_layer(int i, int n) {
  return i < kLayers ? i : n - 1 - i;
}
// The damping of column (i, j) in a table of nx x ny values, j fastest (WaveProblem::damp_ij; every k
// of the column has it).
AWAVE_HOST_DEVICE inline double damp_at(const double* damp_ij, int ny, int i, int j) {
  return damp_ij[long(i) * ny + j];
}

}  // namespace awave::sponge
