#!/usr/bin/env bash
# The sweep in OpenMP offload (issue 44, items 1-2), openmptarget build, through on-device.sh: the gpu tests
# (counted; their sweep.* runs force it on every test grid), then at each size one checked run of hand omp's
# and Kokkos-OMPT's sweeps, and ROUNDS rounds of timing runs in separate processes, single steps and sweeps
# interleaved, held to the checked run by -digest (sweep_study_summary.py). Rule, stated before the runs: a
# sweep becomes its code's default where its median is >= 1.15 x its single steps' at 512^3 and 1000^3.
#   [IMPLS=omp,...] [BUILD=build/openmptarget] [DEADLINE=seconds] \
#     bench/device/offload-sweep.sh OUT_DIR [SIZES] [ROUNDS] [STEPS] [tests|notests]
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
out=${1:?usage: offload-sweep.sh OUT_DIR [SIZES] [ROUNDS] [STEPS] [tests|notests]}
sizes=${2:-"512 1000"}
rounds=${3:-5}
steps=${4:-30}
tests=${5:-tests}
build=${BUILD:-build/openmptarget}
mkdir -p "$out"
export OMP_PROC_BIND=close OMP_PLACES=cores
record_machine "$out/gpu.txt"
if [ "$tests" = tests ]; then
  verdict=$(bench/device/ctest-counted.sh "$build" gpu "$out/ctest-gpu.log" 240) || tests_failed=1
  echo "ctest gpu: $verdict" | tee "$out/summary.txt"
fi
run() {  # NAME SECONDS ARGS...
  timed_run "$out" "$1" "$2" "$PWD/$build/src/awave" "${@:3}" -impl "${IMPLS:-omp,kokkos-openmptarget}" -no_output \
    -quiet -digest | tee -a "$out/summary.txt"
}
for n in $sizes; do
  run "checked-$n" 240 -shape "$n,$n,$n" -nsteps "$steps" -out_period "$steps" -reference cpu-openmp -tune steps_per_sweep=3
  for r in $(seq 1 "$rounds"); do
    past_deadline "$n" "$r" && break
    for plan in 1 3; do
      run "time-$n-$plan-r$r" 120 -shape "$n,$n,$n" -nsteps "$steps" -out_period $((steps / 3)) -no_check \
        -tune steps_per_sweep=$plan
    done
  done
done
python3 bench/sweep_study_summary.py "$out" | tee -a "$out/summary.txt" || tests_failed=1
exit ${tests_failed:-0}
