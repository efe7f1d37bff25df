#!/usr/bin/env bash
# Pack GPU builds for a GPU machine that has the NVIDIA driver but none of awave's build-time
# dependencies: the build trees (binaries, ctest files; no objects) plus every shared library
# they load that is not the C runtime (HDF5, fmt, LLVM 19's libomptarget and libLLVM, ...),
# copied from this machine, in one xz archive.
#   bench/device/stage.sh OUT_DIR [BUILD_DIR ...]      (default: build/cuda build/openmptarget)
# On the GPU machine: bench/device/on-device.sh OUT_DIR/awave-device.tar.xz COMMAND...
# Builds over MPI (the *-mpi presets) bring OpenMPI's runtime along: mpirun, orted, their
# plugins, PMIx and the help and configuration files, at their Debian paths (on-device.sh
# adds them to the machine without replacing anything it has), and the libraries they load.
# AWAVE_STAGE_TESTS=0 leaves the test executables out (to fit two builds in 64 MiB); the
# awave* tools (awave, awave-devbench, awave-omp-shapes, awave-view) stay. AWAVE_STAGE_ICU_STUB=1
# replaces ICU's 31 MB data library with a stub (an offload MPI build then fits beside the repository).
# AWAVE_STAGE_PARTS_MB=N splits the archive for calls that carry it in parts (below).
# HDF5's h5diff and h5dump come along (in .device/bin, on PATH there): the device scripts
# compare files exactly with them.
set -euo pipefail
out=${1:?usage: stage.sh OUT_DIR [BUILD_DIR ...]}
[[ ${AWAVE_STAGE_PARTS_MB:-1} =~ ^[1-9][0-9]*$ ]] || { echo "stage: AWAVE_STAGE_PARTS_MB takes a whole number of MB" >&2; exit 2; }
shift
builds=("$@"); [ ${#builds[@]} -gt 0 ] || builds=(build/cuda build/openmptarget)
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lib" "$out"

binaries=()
for b in "${builds[@]}"; do
  [ -x "$b/src/awave" ] || { echo "stage: $b/src/awave not built" >&2; exit 1; }
  pattern=(-name 'awave*' -o -name 'test_*'); [ "${AWAVE_STAGE_TESTS:-1}" = 0 ] && pattern=(-name 'awave*')
  while IFS= read -r f; do binaries+=("$f"); done < <(find "$b" -type f -perm -u+x \( "${pattern[@]}" \) ! -name '*.cmake')
done
tools=()
for t in h5diff h5dump; do command -v "$t" > /dev/null && tools+=("$(command -v "$t")"); done
binaries+=("${tools[@]}")
mpi_files=()
if { ldd "${binaries[@]}" 2>/dev/null || true; } | grep -c 'libmpi\.so' > /dev/null; then  # (not grep -q: SIGPIPE under pipefail; ldd fails on a script such as awave-view)
  while IFS= read -r f; do [ -f "$f" ] && mpi_files+=("$f"); done < <(
    dpkg -L openmpi-bin openmpi-common libopenmpi3 libpmix2 | grep -v -e /usr/share/doc -e /usr/share/man -e lintian)
  for f in "${mpi_files[@]}"; do [[ $f == *.so* || -x $f ]] && binaries+=("$f"); done  # their libraries too
fi
# The C runtime, libstdc++ and the GPU driver come from the GPU machine itself; NCCL
# (218 MB) too: the GPU machines have it installed (libnccl2, the same major version).
skip='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libresolv\.so|libstdc\+\+\.so|libgcc_s\.so|libcuda\.so|libnccl\.so)'
for f in "${binaries[@]}"; do
  { ldd "$f" 2>/dev/null || true; } | awk '$3 ~ /^\// {print $1, $3}'
done | sort -u | while read -r name path; do
  [[ $name =~ $skip ]] || cp -L "$path" "$work/lib/$name"
done
# AWAVE_STAGE_ICU_STUB=1: ICU's data library replaced by a stub of its one symbol (icudata_stub.c says why).
if [ "${AWAVE_STAGE_ICU_STUB:-0}" = 1 ] && [ -f "$work/lib/libicudata.so.72" ]; then
  gcc -shared -fPIC -o "$work/lib/libicudata.so.72" -Wl,-soname,libicudata.so.72 "$top/bench/device/icudata_stub.c"
fi
excludes=(--exclude='*.o' --exclude='*.a' --exclude='CMakeFiles')
[ "${AWAVE_STAGE_TESTS:-1}" = 0 ] && excludes+=(--exclude='test_*' --exclude='tests')
tar -C "$top" -cf "$work/builds.tar" "${excludes[@]}" "${builds[@]}"
if [ ${#mpi_files[@]} -gt 0 ]; then
  tar -C / -cf "$work/mpi-root.tar" "${mpi_files[@]#/}"
  tar -C "$work" -rf "$work/builds.tar" --transform 's,^,.device/,' mpi-root.tar
fi
tar -C "$work" -rf "$work/builds.tar" --transform 's,^lib,.device/rt/lib,' lib
if [ ${#tools[@]} -gt 0 ]; then
  mkdir -p "$work/bin" && cp "${tools[@]}" "$work/bin/"
  tar -C "$work" -rf "$work/builds.tar" --transform 's,^bin,.device/bin,' bin
fi
xz -T2 -6 -c "$work/builds.tar" > "$out/awave-device.tar.xz"
echo "stage: $(du -h "$out/awave-device.tar.xz" | cut -f1) in $out/awave-device.tar.xz ($(ls "$work/lib" | wc -l) libraries)"
# AWAVE_STAGE_PARTS_MB=N: the archive in parts of N MB (OUT_DIR/part.aa, ...) beside its sha256, for
# device calls that carry it a part or two at a time (64 MiB a call with the repository); on the
# GPU machine, device/collect-parts.sh joins them.
if [ -n "${AWAVE_STAGE_PARTS_MB:-}" ]; then
  (cd "$out" && sha256sum awave-device.tar.xz > awave-device.sha256 &&
     split -b "${AWAVE_STAGE_PARTS_MB}000000" awave-device.tar.xz part. && rm awave-device.tar.xz)
  echo "stage: parts $(cd "$out" && ls part.* | tr '\n' ' ')(carry each with $out/awave-device.sha256; bench/device/collect-parts.sh joins them)"
fi
