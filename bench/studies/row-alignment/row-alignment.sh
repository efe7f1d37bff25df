#!/usr/bin/env bash
# Does a row (nz + 2 doubles) that is a multiple of 128 bytes speed the stencil up? The lever
# of a padded device layout, measured without building one: the build's GPU implementations (its default) on
# shapes whose padded rows are and are not 128-byte multiples (nz + 2 = 512 and 528 are;
# 514 and 1002 are not; 1008 is). -no_check: the arithmetic is what the sweeps check.
#   bench/studies/row-alignment/row-alignment.sh OUT_DIR [BUILD ...]   (default: cuda openmptarget)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../device/common.sh"
out=${1:?usage: row-alignment.sh OUT_DIR [BUILD ...]}
shift
builds=("$@"); [ ${#builds[@]} -gt 0 ] || builds=(cuda openmptarget)
mkdir -p "$out"
for b in "${builds[@]}"; do
  exe=$PWD/build/$b/src/awave
  for shape in 512,512,510 512,512,512 512,512,526 1000,1000,1000 1000,1000,1006; do
    name=align_${b}_${shape//,/x}
    "$exe" -shape "$shape" -nsteps 40 -out_period 10 -no_check -no_output -json "$out/$name.json" \
      > "$out/$name.txt" 2>&1 || echo "$name failed"
    echo "$name $(grep -E '^\[.*\] .* chunks|SU/s' "$out/$name.txt" | awk '/chunks/{id=$1} /SU\/s/{printf "%s max %s  ", id, $5}')"
  done
done
