// A Kokkos form's launch settings for one run (kokkos_policy.hpp holds the compiled choices).
#pragma once

#include "core/tuning.hpp"

#include <array>
#include <cstddef>

namespace awave {

// A Kokkos form's launch settings for one run: the compiled choices above unless a tuning key
// (core/tuning.hpp) overrides them, resolved once when the implementation is made (WaveKokkos),
// so no step looks a key up.
struct KokkosLaunch {
  std::array<int, 3> tile{0, 0, 0};  // the idiomatic form's MDRange tile, in its axes' order
  bool k_first = false;              // the idiomatic form's axes (k, j, i)
  int segment = 1;                   // planes a work item of the tuned form's march covers
  int march_rows = 1;                // rows j of the tuned form's (k, j) tiles

  template <class Idiomatic>
  static KokkosLaunch idiomatic() {
    KokkosLaunch l;
    l.tile = tuning_triple("kokkos.tile").value_or(Idiomatic::tile);
    l.k_first = tuning_word("kokkos.axes").value_or(Idiomatic::k_first ? "kji" : "ijk") == "kji";
    return l;
  }
  // The tuned form (its fused steps are the idiomatic form's); the march segment for planes of
  // plane_bytes (core/step_plan.hpp).
  template <class Idiomatic, class Tuned>
  static KokkosLaunch tuned(std::size_t plane_bytes) {
    KokkosLaunch l = idiomatic<Idiomatic>();
    const int compiled =
        plane_bytes <= Tuned::short_march_plane_bytes ? Tuned::short_march_segment : Tuned::march_segment;
    l.segment = int(tuning_integer("kokkos.segment").value_or(compiled));
    l.march_rows = int(tuning_integer("kokkos.march_rows").value_or(Tuned::march_rows));
    return l;
  }
};

}  // namespace awave
