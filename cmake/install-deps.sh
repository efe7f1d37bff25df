#!/usr/bin/env bash
# Install what building and testing awave needs on a Debian bookworm machine (as root), and
# prepare the caches outside the clone (~/.cache/awave): Kokkos source, the VTK 9.3 root for
# the ParaView-reader test. Kokkos itself is built by CMake's configure step on first use.
#   cmake/install-deps.sh [host|cuda|openmptarget|all]   (default host)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
what=${1:-host}
case $what in host|cuda|openmptarget|all) ;; *) echo "install-deps: unknown target '$what'" >&2; exit 1 ;; esac

sudo=(); [ "$(id -u)" -eq 0 ] || sudo=(sudo)
packages=(cmake ninja-build g++ patch xz-utils libhdf5-dev zlib1g-dev libfmt-dev nlohmann-json3-dev libgtest-dev
          debootstrap python3 python3-matplotlib python3-h5py
          openmpi-bin libopenmpi-dev libhdf5-openmpi-dev hdf5-tools)  # the *-mpi presets
if [ "$what" = openmptarget ] || [ "$what" = all ]; then
  packages+=(clang-19 libomp-19-dev clang-tools-19 llvm-19)
fi
missing=()
for p in "${packages[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep "ok installed" >/dev/null || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  "${sudo[@]}" apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ "$what" = cuda ] || [ "$what" = all ]; then
  [ -x "${CUDACXX:-/usr/local/cuda/bin/nvcc}" ] ||
    { echo "install-deps: the cuda build needs nvcc (CUDA 13 in /usr/local/cuda or CUDACXX)" >&2; exit 1; }
fi
cache=${AWAVE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/awave}
"$here/scripts/fetch-kokkos-source.sh" "$cache/kokkos-src-3.4.01"
"${sudo[@]}" env AWAVE_CACHE="$cache" "$here/scripts/make-trixie-root.sh" >/dev/null
echo "install-deps: ready ($what)"
