#!/usr/bin/env bash
# Run tests/tools/vtk93_reader_check.py on FILE inside the VTK 9.3 (Debian trixie) root.
#   run_vtk93_check.sh FILE [--self-test]
# The root comes from AWAVE_VTK93_ROOT or the cache of cmake/scripts/make-trixie-root.sh
# (which cmake/install-deps.sh runs); without it this test fails, it does not skip.
set -euo pipefail
file=${1:?usage: run_vtk93_check.sh FILE [--self-test]}
cache=${AWAVE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/awave}
root=${AWAVE_VTK93_ROOT:-$cache/trixie-root}
if [ ! -f "$root/.complete" ]; then
  echo "no VTK 9.3 root at $root: run cmake/install-deps.sh (or cmake/scripts/make-trixie-root.sh)" >&2
  exit 1
fi
work=$(mktemp -d "$root/tmp/awave-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$file" "$work/input.vtkhdf"
cp "$(dirname "${BASH_SOURCE[0]}")/vtk93_reader_check.py" "$work/"
inner=${work#"${root%/}"}  # the path inside the root (root may be / itself)
args=("$inner/input.vtkhdf"); [ "${2:-}" = --self-test ] && args=(--self-test "$inner/input.vtkhdf")
# UCX (pulled in by VTK's MPI dependency) would complain about the chroot's missing boot id.
enter=(chroot "$root"); [ "$root" -ef / ] && enter=()  # already inside the root (.ci/debian-kokkos.sh)
UCX_LOG_LEVEL=fatal "${enter[@]}" python3 "$inner/vtk93_reader_check.py" "${args[@]}"
