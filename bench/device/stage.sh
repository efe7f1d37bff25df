#!/usr/bin/env bash
# Pack GPU builds for a GPU machine that has the NVIDIA driver but none of awave's build-time dependencies: the
# build trees (binaries, ctest files; no objects), every shared library they load but the C runtime's (HDF5, fmt,
# LLVM 19's libomptarget and libLLVM, ...), HDF5's h5diff and h5dump, and for MPI builds OpenMPI's runtime at its
# Debian paths, in one xz archive; on the GPU machine, on-device.sh ARCHIVE COMMAND... runs there.
#   bench/device/stage.sh OUT_DIR [BUILD_DIR ...]      (default: build/cuda build/openmptarget)
# AWAVE_STAGE_TESTS=0 leaves the test executables out (the awave* tools stay); AWAVE_STAGE_ICU_STUB=1 stubs ICU's
# 31 MB data library (icudata_stub.c); AWAVE_STAGE_PARTS_MB=N splits the archive for calls that carry it in parts.
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
# The C runtime, libstdc++, the GPU driver and NCCL (218 MB; libnccl2 of the same major) are the GPU machine's own.
skip='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libresolv\.so|libstdc\+\+\.so|libgcc_s\.so|libcuda\.so|libnccl\.so)'
for f in "${binaries[@]}"; do
  { ldd "$f" 2>/dev/null || true; } | awk '$3 ~ /^\// {print $1, $3}'
done | sort -u | while read -r name path; do
  [[ $name =~ $skip ]] || cp -L "$path" "$work/lib/$name"
done
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
# The archive in parts of N MB (OUT_DIR/part.aa, ...) beside its sha256 (64 MiB a call with the repository);
# collect-parts.sh joins them on the GPU machine.
if [ -n "${AWAVE_STAGE_PARTS_MB:-}" ]; then
  (cd "$out" && sha256sum awave-device.tar.xz > awave-device.sha256 &&
     split -b "${AWAVE_STAGE_PARTS_MB}000000" awave-device.tar.xz part. && rm awave-device.tar.xz)
  echo "stage: parts $(cd "$out" && ls part.* | tr '\n' ' ')(carry each with $out/awave-device.sha256; bench/device/collect-parts.sh joins them)"
fi
