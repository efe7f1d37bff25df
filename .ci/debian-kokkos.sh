#!/usr/bin/env bash
# CI stage: the host preset built and tested against Debian's own packaged Kokkos
# (libkokkos-dev 5.2 from sid: OpenMP backend only, C++20), exactly as a user of that package
# runs it (docs/kokkos.md, building against an installed Kokkos), inside the project's Debian trixie
# root (cmake/scripts/make-trixie-root.sh; cached outside the clone). The working tree is copied
# into the root; nothing outside the root is touched.
#   .ci/debian-kokkos.sh
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
root=$(bash "$top/cmake/scripts/make-trixie-root.sh" | tail -1)
src=$root/src/awave
rm -rf "$src"; mkdir -p "$src"
# The working tree's files as git sees them (tracked and untracked-not-ignored; no build dirs).
(cd "$top" && git ls-files -z --cached --others --exclude-standard |
   while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done | tar --null -T - -cf -) | tar -C "$src" -xf -
echo "debian-kokkos: $(chroot "$root" dpkg-query -W -f='${Package} ${Version}' libkokkos-dev), $(chroot "$root" g++ --version | head -1)"
# In the root the VTK 9.3 check runs against the root itself (it has python3-vtk9).
# UCX (a dependency of VTK's MPI) complains about the chroot's missing boot id: silence it.
chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root AWAVE_VTK93_ROOT=/ UCX_LOG_LEVEL=fatal bash -c '
  set -e
  cd /src/awave
  cmake --preset host -DKokkos_ROOT=/usr
  cmake --build --preset host
  ctest --preset host'
