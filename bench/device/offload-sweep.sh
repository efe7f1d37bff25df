#!/usr/bin/env bash
# The sweep in OpenMP offload (issue 44, items 1-2), openmptarget build, through on-device.sh: the
# gpu tests (counted; their sweep.* runs force it on every test grid), then, at each size, one
# checked run of hand omp's and Kokkos-OMPT's sweeps against the threaded reference, and ROUNDS
# rounds of timing runs in separate processes, interleaved, single steps and sweeps, each with
# -digest (held to the checked run's digest by sweep_study_summary.py).
# Decision rule, stated before the runs: a sweep becomes its implementation's default where the
# median of its rounds is >= 1.15 x the median of its single steps at 512^3 and 1000^3.
#   [IMPLS=omp,...] [BUILD=build/openmptarget] [DEADLINE=seconds] \
#     bench/device/offload-sweep.sh OUT_DIR [SIZES] [ROUNDS] [STEPS] [tests|notests]
# DEADLINE: no round starts after that many seconds of the script (a device call's limit); the
# table counts the rounds that ran.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
out=${1:?usage: offload-sweep.sh OUT_DIR [SIZES] [ROUNDS] [STEPS] [tests|notests]}
sizes=${2:-"512 1000"}
rounds=${3:-5}
steps=${4:-30}
tests=${5:-tests}
build=${BUILD:-build/openmptarget}
exe=$PWD/$build/src/awave
deadline=${DEADLINE:-0}
impls=${IMPLS:-omp,kokkos-openmptarget}
mkdir -p "$out"
export OMP_PROC_BIND=close OMP_PLACES=cores OMP_TARGET_OFFLOAD=MANDATORY
record_machine "$out/gpu.txt"
if [ "$tests" = tests ]; then
  verdict=$(bench/device/ctest-counted.sh "$build" gpu "$out/ctest-gpu.log" 240) || tests_failed=1
  echo "ctest gpu: $verdict" | tee "$out/summary.txt"
fi
run() {  # NAME SECONDS ARGS...
  local name=$1 limit=$2
  shift 2
  timeout "$limit" "$exe" "$@" -no_output -quiet -digest -json "$out/$name.json" > "$out/$name.txt" 2>&1
  echo "$name: exit $? $(grep -E '^(PASS|FAIL)' "$out/$name.txt")" | tee -a "$out/summary.txt"
}
for n in $sizes; do
  run "checked-$n" 240 -shape "$n,$n,$n" -nsteps "$steps" -out_period "$steps" -reference cpu-openmp -impl $impls \
    -tune steps_per_sweep=3
  for r in $(seq 1 "$rounds"); do
    if [ "$deadline" -gt 0 ] && [ "$SECONDS" -ge "$deadline" ]; then
      echo "deadline: $n^3 stopped before round $r" | tee -a "$out/summary.txt"
      break
    fi
    for plan in 1 3; do
      run "time-$n-$plan-r$r" 120 -shape "$n,$n,$n" -nsteps "$steps" -out_period $((steps / 3)) -no_check \
        -impl $impls -tune steps_per_sweep=$plan
    done
  done
done
python3 bench/device/sweep_study_summary.py "$out" | tee -a "$out/summary.txt" || tests_failed=1
exit ${tests_failed:-0}
