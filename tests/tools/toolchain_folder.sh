#!/usr/bin/env bash
# A toolchain is a folder loaded by name (cmake/AwaveToolchain.cmake). This build's toolchain.cmake,
# copied under another name into a folder of AWAVE_TOOLCHAIN_DIRS:
#   copy    configures the whole project, on this build's Kokkos (no bootstrap), with the backend folders
#           the fragment declares (generated/backends.inc as this build's) and the new name as the build's;
#   broken  the copy without its AWAVE_TOOLCHAIN_BACKEND_FOLDERS (the planted error): refused in one line.
#   toolchain_folder.sh copy|broken SOURCE_DIR WORK_DIR FRAGMENT THIS_BUILD_DIR [CMAKE_ARGS...]
set -uo pipefail
case=${1:?usage: toolchain_folder.sh copy|broken SOURCE_DIR WORK_DIR FRAGMENT THIS_BUILD_DIR [CMAKE_ARGS...]}
src=${2:?} work=${3:?} fragment=${4:?} this_build=${5:?}
shift 5
name=awave-test-$case
rm -rf "$work"
mkdir -p "$work/toolchains/$name"
cp "$fragment" "$(dirname "$fragment")/toolchain.json" "$work/toolchains/$name/"
[ "$case" = broken ] && sed -i '/^set(AWAVE_TOOLCHAIN_BACKEND_FOLDERS /d' "$work/toolchains/$name/toolchain.cmake"
cmake --fresh -S "$src" -B "$work/build" -DAWAVE_BACKEND="$name" -DAWAVE_TOOLCHAIN_DIRS="$work/toolchains" \
  -DAWAVE_BUILD_TESTS=OFF "$@" > "$work/configure.log" 2>&1
status=$?
fail() { echo "FAIL: $*"; cat "$work/configure.log"; exit 1; }
if [ "$case" = broken ]; then
  [ $status -ne 0 ] || fail "a toolchain.cmake without AWAVE_TOOLCHAIN_BACKEND_FOLDERS was taken"
  said=$(tr -s ' \n' ' ' < "$work/configure.log")  # (CMake wraps its messages)
  [[ $said == *"toolchain.cmake sets no AWAVE_TOOLCHAIN_BACKEND_FOLDERS"* ]] ||
    fail "refused, but not for the planted error"
  echo "ok: refused: $(grep -o 'awave: [^(]*' <<< "$said")"
  exit 0
fi
[ $status -eq 0 ] || fail "the copy of this build's toolchain did not configure"
! grep -q "bootstrapping Kokkos" "$work/configure.log" || fail "the configure bootstrapped a Kokkos"
grep "awave: toolchain $name " "$work/configure.log" || fail "the configure did not report the toolchain's folders"
cmp "$this_build/src/generated/backends.inc" "$work/build/src/generated/backends.inc" ||
  fail "backend folders $(tr '\n' ' ' < "$work/build/src/generated/backends.inc"), not this build's"
grep -q "kBuildName = \"$name\"" "$work/build/src/generated/build_info.hpp" || fail "the build is not named $name"
echo "ok: $name builds $(tr '\n' ' ' < "$work/build/src/generated/backends.inc")as this build does"
