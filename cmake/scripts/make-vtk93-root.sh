#!/usr/bin/env bash
# Make (once) a minimal Debian trixie root holding VTK 9.3's Python bindings, the first
# Debian VTK whose vtkHDFReader reads transient (time-step) VTKHDF ImageData, so the tests
# can open awave's files with the reader ParaView uses. Bookworm's VTK 9.1 cannot.
#   make-vtk93-root.sh [DEST]   (default: $AWAVE_CACHE/vtk93-root, ~1.3 GB, ~3 min)
# Prints DEST on the last line. Needs root (debootstrap, chroot).
set -euo pipefail
cache=${AWAVE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/awave}
dest=${1:-$cache/vtk93-root}
if [ -f "$dest/.complete" ]; then echo "$dest"; exit 0; fi
command -v debootstrap >/dev/null || { echo "make-vtk93-root: debootstrap missing (apt-get install debootstrap)" >&2; exit 1; }
mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
mirror=${mirror:-http://deb.debian.org/debian}
rm -rf "$dest"; mkdir -p "$(dirname "$dest")"
echo "make-vtk93-root: debootstrap trixie + python3-vtk9 into $dest" >&2
debootstrap --variant=minbase --include=python3-vtk9,python3-h5py trixie "$dest" "$mirror" \
  > "$dest.log" 2>&1 || { tail -20 "$dest.log" >&2; echo "make-vtk93-root: debootstrap failed" >&2; exit 1; }
chroot "$dest" python3 -c 'import vtk; assert vtk.vtkVersion.GetVTKMajorVersion() == 9' ||
  { echo "make-vtk93-root: VTK does not import in $dest" >&2; exit 1; }
mv "$dest.log" "$dest/.debootstrap.log"
touch "$dest/.complete"
echo "$dest"
