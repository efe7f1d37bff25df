#!/usr/bin/env bash
# Output a user can afford (issue 35), on the GPU machine (through on-device.sh), for one GPU build:
#   - the disk: dd of 4 GiB through the page cache and with conv=fdatasync (the target's yardstick);
#   - the spec's file (snapshots of u and u_prev in double, each a checkpoint): 512^3, 40 steps;
#   - the issue's run: 512^3, 200 steps, single-precision u every 10 steps, checkpoints every 100;
#   - 1000^3, 20 steps, single-precision u every 10, a checkpoint at the end (copy rate and bytes:
#     a 200-step run needs more disk than the machine has);
# each GPU implementation on its own (-impl), unchecked, its file removed before the next (the
# 512^3 single-precision file after `awave -verify` has read it, timed). The JSON's `io` holds the
# wall, compute, copy-back rate, bytes written and the writer's parts.
#   bench/studies/output-layouts/output-layouts.sh OUT_DIR BUILD [IMPL ...]   (default: cuda kokkos-cuda)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../device/common.sh"
out=${1:?usage: output-layouts.sh OUT_DIR BUILD [IMPL ...]}
build=${2:?usage: output-layouts.sh OUT_DIR BUILD [IMPL ...]}
shift 2
impls=("$@"); [ ${#impls[@]} -gt 0 ] || impls=(cuda kokkos-cuda)
mkdir -p "$out"
exe=$PWD/build/$build/src/awave
work=$(mktemp -d "${AWAVE_IO_DIR:-/tmp}/awave-layouts.XXXXXX")
trap 'rm -rf "$work"' EXIT
record_machine "$out/gpu.txt"
"$exe" -list > "$out/build.txt" 2>&1
"$(dirname "${BASH_SOURCE[0]}")/../../device/disk-rate.sh" "$work" > "$out/disk.txt"
cat "$out/disk.txt"
single=(-snapshot_precision single -snapshot_fields u)
status=0
run() {  # NAME [verify] ARGS...
  local name=$1 verify=
  shift
  [ "$1" = verify ] && { verify=1; shift; }
  "$exe" -no_check -quiet -json "$out/$name.json" "$@" "$work/run" > "$out/$name.txt" 2>&1
  local rc=$?
  [ $rc -eq 0 ] || status=1
  echo "$name rc=$rc"
  grep -E "time \[s\]: wall|copy back:|written:" "$out/$name.txt"
  if [ -n "$verify" ]; then
    local start=$(date +%s.%N)
    "$exe" -verify "$work"/run.*.vtkhdf > "$out/$name.verify.txt" 2>&1 || status=1
    echo "verify: $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }') s" >> "$out/$name.verify.txt"
    cat "$out/$name.verify.txt"
  fi
  rm -f "$work"/run.*
}
for impl in "${impls[@]}"; do
  run "spec-512-40-$impl" -impl "$impl" -shape 512,512,512 -nsteps 40 -out_period 10
  run "single-512-200-$impl" verify -impl "$impl" -shape 512,512,512 -nsteps 200 -out_period 10 "${single[@]}" \
    -checkpoint_period 100
  run "single-1000-20-$impl" -impl "$impl" -shape 1000,1000,1000 -nsteps 20 -out_period 10 "${single[@]}" \
    -checkpoint_period 20
done
exit $status
