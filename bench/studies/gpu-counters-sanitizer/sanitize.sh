#!/usr/bin/env bash
# compute-sanitizer's four tools on every GPU implementation and form of the builds present (through
# on-device.sh), on a small grid with fused and with split (three-kernel) steps, each run checked bitwise.
# A log a run in OUT, and OUT/summary.txt: a line a run, the tool's error summary and the run's verdict.
#   bench/studies/gpu-counters-sanitizer/sanitize.sh OUT
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../device/common.sh"
out=${1:?usage: sanitize.sh OUT}
mkdir -p "$out"
compute-sanitizer --version | tail -1 > "$out/version.txt"
jobs=()
for build in cuda openmptarget; do
  exe=build/$build/src/awave
  [ -x "$exe" ] || continue
  for impl in $(gpu_impls "$exe"); do
    for tool in memcheck racecheck initcheck synccheck; do
      for plan in fused split; do jobs+=("$exe $impl $tool $plan"); done
    done
  done
done
run_one() {
  set -- $1
  local exe=$1 impl=$2 tool=$3 plan=$4 tune=fused_step_points=2097152
  [ "$plan" = split ] && tune=fused_step_points=0
  local log=$out/${impl}_${tool}_${plan}.log
  timeout 240 compute-sanitizer --tool "$tool" --error-exitcode 99 "$exe" -shape 40,24,30 -nsteps 4 -out_period 2 \
    -no_output -quiet -impl "$impl" -tune "$tune" > "$log" 2>&1
  echo "$impl $tool $plan exit=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1) $(grep -E "$AWAVE_LINE_VERDICT" "$log")"
}
export -f run_one
export out AWAVE_LINE_VERDICT
printf '%s\n' "${jobs[@]}" | xargs -P 4 -I{} bash -c 'run_one "{}"' | sort | tee "$out/summary.txt"
! grep -v "exit=0 " "$out/summary.txt" > /dev/null
