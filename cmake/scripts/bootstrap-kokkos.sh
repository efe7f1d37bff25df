#!/usr/bin/env bash
# Build and install Kokkos (+ the project's patches for its version, cmake/patches/kokkos-VERSION)
# for one awave backend into a cache outside the clone, and print the install prefix on the last line.
#
#   bootstrap-kokkos.sh BACKEND [CUDA_ARCH]
#     BACKEND    host | cuda | openmptarget
#     CUDA_ARCH  Kokkos arch option for GPU backends (default HOPPER90, i.e. sm_90)
#
# Environment: AWAVE_KOKKOS_SOURCE (a Kokkos source tree the user has, e.g. 4.6.01 unpacked from
#                its release; default: 3.4.01 from Debian's trilinos source package, fetched once),
#              AWAVE_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/awave),
#              AWAVE_CLANG_CUDA_ROOT (openmptarget: CUDA root with ptxas/nvlink 12.4; default:
#                made by make-clang-cuda-root.sh),
#              AWAVE_JOBS (default 2).
# Versions with patches here: 3.4.01 and 4.6.01 (others are refused: build and install them
# yourself and pass Kokkos_ROOT). The cache key hashes this script, the version's patches, the
# source path, the backend, the arch and the compiler version, so a change to any of them builds
# a fresh Kokkos next to the old one.
set -euo pipefail
backend=${1:?usage: bootstrap-kokkos.sh host|cuda|openmptarget [CUDA_ARCH]}
arch=${2:-HOPPER90}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${AWAVE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/awave}
jobs=${AWAVE_JOBS:-2}
src=${AWAVE_KOKKOS_SOURCE:-$cache/kokkos-src-3.4.01}

die() { echo "bootstrap-kokkos: $*" >&2; exit 1; }
arch_flag() {  # Kokkos arch option -> sm_XY, for the compilers' own checks
  case $1 in
    HOPPER90) echo sm_90 ;; AMPERE86) echo sm_86 ;; AMPERE80) echo sm_80 ;;
    TURING75) echo sm_75 ;; VOLTA70) echo sm_70 ;; *) die "unsupported CUDA arch '$1'" ;;
  esac
}

opts=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_EXTENSIONS=OFF
      -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF)
case $backend in
  host)
    cxx=$(command -v g++) || die "g++ not found"
    opts+=(-DKokkos_ENABLE_OPENMP=ON) ;;
  cuda)
    command -v "${CUDACXX:-/usr/local/cuda/bin/nvcc}" >/dev/null ||
      die "nvcc not found (set CUDACXX or install the CUDA toolkit in /usr/local/cuda)"
    export PATH=$(dirname "${CUDACXX:-/usr/local/cuda/bin/nvcc}"):$PATH
    cxx=$src/bin/nvcc_wrapper
    # nvcc_wrapper defaults to sm_35, which nvcc 13 rejects even in CMake's compiler check.
    opts+=(-DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON "-DKokkos_ARCH_${arch}=ON"
           "-DCMAKE_CXX_FLAGS=-arch=$(arch_flag "$arch")") ;;
  openmptarget)
    cxx=/usr/lib/llvm-19/bin/clang++
    [ -x "$cxx" ] || die "clang++ 19 not found at $cxx (apt-get install clang-19 libomp-19-dev)"
    croot=${AWAVE_CLANG_CUDA_ROOT:-$("$here/make-clang-cuda-root.sh" | tail -1)}
    [ -x "$croot/bin/ptxas" ] || die "no ptxas in the clang CUDA root $croot"
    opts+=(-DKokkos_ENABLE_OPENMPTARGET=ON "-DKokkos_ARCH_${arch}=ON"
           "-DCMAKE_CXX_FLAGS=--cuda-path=$croot --libomptarget-nvptx-bc-path=/usr/lib/llvm-19/lib") ;;
  *) die "unknown backend '$backend' (host, cuda or openmptarget)" ;;
esac

if [ -z "${AWAVE_KOKKOS_SOURCE:-}" ]; then "$here/fetch-kokkos-source.sh" "$src" >&2
else [ -f "$src/CMakeLists.txt" ] || die "AWAVE_KOKKOS_SOURCE=$src is not a Kokkos source tree (no CMakeLists.txt)"; fi
version_part() { sed -n "s/^ *set(Kokkos_VERSION_$1 \([0-9]*\))/\1/Ip" "$src/CMakeLists.txt" | head -1; }
major=$(version_part MAJOR) minor=$(version_part MINOR) patchlevel=$(version_part PATCH)
[ -n "$major" ] && [ -n "$minor" ] && [ -n "$patchlevel" ] || die "no Kokkos version in $src/CMakeLists.txt"
version=$major.$minor.$(printf %02d "$patchlevel")
patches=$here/../patches/kokkos-$version
[ -d "$patches" ] || die "Kokkos $version has no patches here (3.4.01 and 4.6.01 have); install it yourself and pass Kokkos_ROOT"
if [ "$backend" = cuda ]; then cxx_version=$(nvcc --version | tail -1; g++ --version | head -1)
else cxx_version=$("$cxx" --version | head -1); fi
key=$( { cat "$0" "$patches"/*.patch; echo "$src $backend $arch $cxx_version"; } |
       sha256sum | cut -c1-12)
prefix=$cache/kokkos-$version-$backend-$key
if [ -f "$prefix/.complete" ]; then echo "$prefix"; exit 0; fi

build=$cache/build-kokkos-$backend-$key
rm -rf "$build" "$prefix"
cp -r "$src" "$build.src"
trap 'rm -rf "$build" "$build.src"' EXIT
for p in "$patches"/*.patch; do patch -s -d "$build.src" -p1 < "$p" || die "patch $p failed"; done
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
echo "bootstrap-kokkos: building Kokkos $version for '$backend' into $prefix (a few minutes)" >&2
cmake -S "$build.src" -B "$build" "${gen[@]}" -DCMAKE_CXX_COMPILER="$cxx" \
      -DCMAKE_INSTALL_PREFIX="$prefix" "${opts[@]}" >"$build.log" 2>&1 ||
  { tail -30 "$build.log" >&2; die "configuring Kokkos failed (log: $build.log)"; }
cmake --build "$build" -j "$jobs" >>"$build.log" 2>&1 ||
  { tail -30 "$build.log" >&2; die "building Kokkos failed (log: $build.log)"; }
cmake --install "$build" >>"$build.log" 2>&1 || die "installing Kokkos failed (log: $build.log)"
mv "$build.log" "$prefix/bootstrap.log"
touch "$prefix/.complete"
echo "$prefix"
