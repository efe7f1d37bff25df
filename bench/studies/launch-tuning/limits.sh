#!/usr/bin/env bash
# What limits the large-grid CUDA runs (on the GPU machine, through on-device.sh): hand CUDA's
# block shape and interior segment, and Kokkos-CUDA's tile, at 512^3 and 1000^3, unchecked
# (no launch shape changes the arithmetic). Prints best SU/s per setting.
#   bench/studies/launch-tuning/limits.sh OUT_DIR
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../device/common.sh"
out=${1:?usage: limits.sh OUT_DIR}
mkdir -p "$out"
run() {  # run IMPL SHAPE VAR=VALUE
  local impl=$1 shape=$2 setting=$3
  env "$setting" build/cuda/src/awave -shape "$shape" -nsteps 20 -out_period 5 -no_output -no_check -impl "$impl" \
    > "$out/run.txt" 2>&1
  printf '%-12s %-16s %-28s best %s SU/s\n' "$impl" "$shape" "$setting" "$(awk '/SU\/s/{print $5}' "$out/run.txt")" |
    tee -a "$out/limits.log"
}
for shape in 512,512,512 1000,1000,1000; do
  for b in 32,8,4 32,8,1 32,8,2 32,8,8 32,4,4 32,16,4 64,4,4 64,8,4 128,2,4 32,8,16; do run cuda $shape AWAVE_CUDA_BLOCK=$b; done
  for t in 32,8,1 32,4,1 32,16,1 64,4,1 64,8,1 128,4,1 32,8,2; do run kokkos-cuda $shape AWAVE_KOKKOS_TILE=$t; done
done
