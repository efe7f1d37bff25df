#!/usr/bin/env bash
# What exact floating point costs (or gains): the exact builds (build/cuda, build/openmptarget) against the
# contracting ones (build/*-contract, -DAWAVE_EXACT_FP=OFF), every GPU implementation, at 256^3-1000^3, in
# interleaved rounds; unchecked (bitwise-checks.sh checks). JSON a run in OUT_DIR. Through on-device.sh.
#   bench/device/fp-cost.sh OUT_DIR [ROUNDS]   (default 2; SIZES="512 1000" for fewer sizes)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
out=${1:?usage: fp-cost.sh OUT_DIR [ROUNDS]}
rounds=${2:-2}
mkdir -p "$out"
export OMP_PROC_BIND=spread
SHOW=1 record_machine "$out/gpu.txt"
for n in ${SIZES:-256 512 1000}; do
  for r in $(seq "$rounds"); do
    for b in cuda cuda-contract openmptarget openmptarget-contract; do
      name=cost_${b}_${n}_r$r
      timeout 120 "build/$b/src/awave" -shape $n,$n,$n -nsteps 50 -out_period 10 -no_check -no_output \
        -json "$out/$name.json" > "$out/$name.txt" 2>&1
      echo "$name rc=$? $(grep -E '^\[|SU/s' "$out/$name.txt" | grep -B1 SU/s | tr -s ' ' | tr '\n' ' ' | cut -c1-300)"
    done
  done
done
