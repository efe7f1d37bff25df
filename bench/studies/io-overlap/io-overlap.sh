#!/usr/bin/env bash
# Output overlapping compute, on the GPU machine (through on-device.sh): for each GPU build,
# awave with a snapshot every 10 steps at 256^3 (100 steps) and 512^3 (40 steps), every GPU
# implementation (awave's default in a GPU build) checked against the threaded CPU reference; the JSON records, per
# implementation, compute, copy-back, waiting, writer-busy and wall times (`io`). The disk's
# own write speed (dd, through the page cache and with fdatasync) is recorded beside them.
#   bench/studies/io-overlap/io-overlap.sh OUT_DIR [BUILD ...]   (default: cuda openmptarget)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../device/common.sh"
out=${1:?usage: io-overlap.sh OUT_DIR [BUILD ...]}
shift
builds=("$@"); [ ${#builds[@]} -gt 0 ] || builds=(cuda openmptarget)
mkdir -p "$out"
work=$(mktemp -d "${AWAVE_IO_DIR:-/tmp}/awave-io.XXXXXX")
trap 'rm -rf "$work"' EXIT
record_machine "$out/gpu.txt"
"$(dirname "${BASH_SOURCE[0]}")/../../device/disk-rate.sh" "$work" > "$out/disk.txt"
status=0
for b in "${builds[@]}"; do
  exe=$PWD/build/$b/src/awave
  for run in 256:100 512:40; do
    n=${run%:*} steps=${run#*:}
    name=io_${b}_${n}
    "$exe" -shape "$n,$n,$n" -nsteps "$steps" -out_period 10 -reference cpu-openmp \
      -json "$out/$name.json" "$work/run" > "$out/$name.txt" 2>&1
    rc=$?; [ $rc -eq 0 ] || status=1
    echo "$name rc=$rc $(grep -E '^(PASS|FAIL)' "$out/$name.txt")"
    grep -E "^\[|time \[s\]: wall" "$out/$name.txt" | grep -v "setting up"
    rm -f "$work"/run.*
  done
done
exit $status
