#!/usr/bin/env bash
# The GPU acceptance runs (through on-device.sh): for each GPU build, its gpu and cli tests counted, then every
# implementation on the required shapes checked against the CPU reference, with fused steps where the grid is
# small and with the three-kernel step everywhere (AWAVE_FUSED_STEP_POINTS=0). Logs and JSON to OUT_DIR.
#   bench/device/gpu-checks.sh OUT_DIR [BUILD ...]   (default: the GPU toolchains' builds, bench/catalog.py)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
out=${1:?usage: gpu-checks.sh OUT_DIR [BUILD ...]}
shift
builds=("$@"); [ ${#builds[@]} -gt 0 ] || builds=($(device_toolchains))
mkdir -p "$out"
export OMP_PROC_BIND=spread
SHOW=1 record_machine "$out/gpu.txt"
status=0
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
for b in "${builds[@]}"; do
  exe=$PWD/build/$b/src/awave
  log=$out/$b.log
  echo "== $b: $("$exe" -list | tr -s ' ' | cut -d' ' -f1 | tr '\n' ' ')" | tee -a "$log"
  "$here/ctest-counted.sh" "build/$b" 'gpu|cli' "$out/$b-ctest.log" | tee -a "$log" || status=1
  impls=$("$exe" -list | awk '$1 != "cpu" {printf "%s%s", sep, $1; sep=","}')
  for shape in 8,8,1 32,32,32 33,17,9 97,61,33 128,128,128 256,256,256 1000,64,1000; do
    for plan in default three-kernel; do
      set --; [ $plan = three-kernel ] && set -- AWAVE_FUSED_STEP_POINTS=0
      name=${b}_${shape//,/x}_${plan}
      env "$@" "$exe" -shape "$shape" -nsteps 7 -out_period 3 -no_output -impl "$impls" -json "$out/$name.json" \
        > "$out/$name.txt" 2>&1
      rc=$?; [ $rc -eq 0 ] || status=1
      echo "$name rc=$rc $(grep -c "$AWAVE_LINE_BITWISE" "$out/$name.txt") impls bitwise;" \
           "$(grep -E "$AWAVE_LINE_VERDICT" "$out/$name.txt")" | tee -a "$log"
    done
  done
done
exit $status
