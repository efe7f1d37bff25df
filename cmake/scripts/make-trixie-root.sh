#!/usr/bin/env bash
# Make (once) a minimal Debian trixie root for the two checks bookworm cannot do itself:
#  - VTK 9.3's Python bindings, the first Debian VTK whose vtkHDFReader reads transient
#    (time-step) VTKHDF ImageData, so the tests open awave's files with the reader ParaView
#    uses (bookworm's VTK 9.1 cannot);
#  - Debian's own packaged Kokkos (libkokkos-dev 5.2, suite sid: OpenMP backend only, C++20)
#    with the compilers and libraries awave builds with, so CI builds and tests the host
#    preset against it (.ci/debian-kokkos.sh). Its libc 2.38 / libstdc++ 13 needs are met by
#    trixie, not bookworm; only the two Kokkos packages come from sid.
#   make-trixie-root.sh [DEST]   (default: $AWAVE_CACHE/trixie-root, ~1.6 GB, ~4 min)
# Prints DEST on the last line. Needs root (debootstrap, chroot). Rebuilt when this script
# changes (its hash is the cache key, kept in DEST/.complete).
set -euo pipefail
cache=${AWAVE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/awave}
dest=${1:-$cache/trixie-root}
key=$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-16)
if [ "$(cat "$dest/.complete" 2>/dev/null)" = "$key" ]; then echo "$dest"; exit 0; fi
command -v debootstrap >/dev/null || { echo "make-trixie-root: debootstrap missing (apt-get install debootstrap)" >&2; exit 1; }
mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
mirror=${mirror:-http://deb.debian.org/debian}
mkdir -p "$(dirname "$dest")"
log=$dest.log
fail() { tail -20 "$log" >&2; echo "make-trixie-root: $*" >&2; exit 1; }
packages=python3-vtk9,python3-h5py,python3-matplotlib,g++,cmake,ninja-build,git,libhdf5-dev,libfmt-dev,nlohmann-json3-dev,libgtest-dev
# The debootstrap (the slow part) is kept while its package list and mirror stay the same.
base_key=$(echo "trixie $mirror $packages" | sha256sum | cut -c1-16)
if [ "$(cat "$dest/.base" 2>/dev/null)" != "$base_key" ]; then
  rm -rf "$dest"
  echo "make-trixie-root: debootstrap trixie (VTK 9.3, build tools) into $dest" >&2
  debootstrap --variant=minbase --include=$packages trixie "$dest" "$mirror" > "$log" 2>&1 || fail "debootstrap failed"
  echo "$base_key" > "$dest/.base"
fi

# Debian's Kokkos from sid, pinned below trixie so that nothing else comes from sid.
echo "deb $mirror sid main" > "$dest/etc/apt/sources.list.d/sid.list"
printf 'Package: *\nPin: release n=sid\nPin-Priority: 100\n' > "$dest/etc/apt/preferences.d/sid"
# The mirror may serve a snapshot whose sid Release file is past its Valid-Until date.
chroot "$dest" apt-get -oAcquire::Check-Valid-Until=false update >> "$log" 2>&1 || fail "apt-get update (sid) failed"
DEBIAN_FRONTEND=noninteractive chroot "$dest" apt-get install -y --no-install-recommends libkokkos-dev/sid \
  >> "$log" 2>&1 || fail "installing libkokkos-dev from sid failed"
# Debian's libkokkos-dev 5.2.2 is broken as shipped: its KokkosTargets-none.cmake imports
# libkokkosalgorithms.a and libkokkossimd.a, which the package does not contain, so every
# find_package(Kokkos) fails. Both libraries are header-only in Kokkos 5 (their archives hold
# no code), so empty archives are a faithful stand-in; awave's configure names the problem
# if they are missing (cmake/AwaveKokkos.cmake).
for lib in libkokkosalgorithms.a libkokkossimd.a; do
  f=$dest/usr/lib/x86_64-linux-gnu/$lib
  [ -e "$f" ] || chroot "$dest" ar rc "/usr/lib/x86_64-linux-gnu/$lib"
done
chroot "$dest" python3 -c 'import vtk; assert vtk.vtkVersion.GetVTKMajorVersion() == 9' ||
  fail "VTK does not import in $dest"
chroot "$dest" dpkg-query -W libkokkos-dev >> "$log"
mv "$log" "$dest/.debootstrap.log"
echo "$key" > "$dest/.complete"
echo "$dest"
