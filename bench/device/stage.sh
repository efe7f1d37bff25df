#!/usr/bin/env bash
# Pack GPU builds for a GPU machine that has the NVIDIA driver but none of awave's build-time
# dependencies: the build trees (binaries, ctest files; no objects) plus every shared library
# they load that is not the C runtime (HDF5, fmt, LLVM 19's libomptarget and libLLVM, ...),
# copied from this machine, in one xz archive.
#   bench/device/stage.sh OUT_DIR [BUILD_DIR ...]      (default: build/cuda build/openmptarget)
# On the GPU machine: bench/device/on-device.sh OUT_DIR/awave-device.tar.xz COMMAND...
set -euo pipefail
out=${1:?usage: stage.sh OUT_DIR [BUILD_DIR ...]}
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
  while IFS= read -r f; do binaries+=("$f"); done < <(find "$b" -type f -perm -u+x \( -name 'awave*' -o -name 'test_*' \) ! -name '*.cmake')
done
# The C runtime, libstdc++ and the GPU driver come from the GPU machine itself.
skip='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libresolv\.so|libstdc\+\+\.so|libgcc_s\.so|libcuda\.so)'
for f in "${binaries[@]}"; do
  ldd "$f" | awk '$3 ~ /^\// {print $1, $3}'
done | sort -u | while read -r name path; do
  [[ $name =~ $skip ]] || cp -L "$path" "$work/lib/$name"
done
tar -C "$top" -cf "$work/builds.tar" --exclude='*.o' --exclude='*.a' --exclude='CMakeFiles' "${builds[@]}"
tar -C "$work" -rf "$work/builds.tar" --transform 's,^lib,.device/rt/lib,' lib
xz -T2 -6 -c "$work/builds.tar" > "$out/awave-device.tar.xz"
echo "stage: $(du -h "$out/awave-device.tar.xz" | cut -f1) in $out/awave-device.tar.xz ($(ls "$work/lib" | wc -l) libraries)"
