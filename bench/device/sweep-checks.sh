#!/usr/bin/env bash
# The temporal-blocking sweep in the product (issue 36; through on-device.sh, cuda build): the gpu tests (their
# sweep.* runs force it on every test grid), the four compute-sanitizer tools on a sweeping run of both codes that
# have it, a checked run at 256^3, and the timing: hand CUDA and Kokkos-CUDA, single steps and sweeps, the same
# binary, 128^3 to 1000^3 (sweep-N-PLAN-STEPS.json).
#   bench/device/sweep-checks.sh OUT_DIR [SIZES] [timing]     (timing: the timing alone)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
out=${1:?usage: sweep-checks.sh OUT_DIR [SIZES] [timing]}
sizes=${2:-"512 1000 256 192 160 128"}
only=${3:-all}
exe=$PWD/build/cuda/src/awave
mkdir -p "$out"
export OMP_PROC_BIND=spread
record_machine "$out/gpu.txt"
if [ "$only" != timing ]; then
  verdict=$(bench/device/ctest-counted.sh build/cuda gpu "$out/ctest-gpu.log" 300) || tests_failed=1
  echo "ctest gpu: $verdict" | tee "$out/summary.txt"
  for impl in cuda kokkos-cuda; do
    for tool in memcheck racecheck synccheck initcheck; do
      log=$out/sanitize-$impl-$tool.log
      timeout 120 compute-sanitizer --tool "$tool" --error-exitcode 99 "$exe" -shape 61,40,35 -nsteps 7 -out_period 7 \
        -no_output -quiet -impl "$impl" -tune steps_per_sweep=3 > "$log" 2>&1
      echo "sanitize $impl $tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)" \
        "$(grep -E "$AWAVE_LINE_VERDICT" "$log")" | tee -a "$out/summary.txt"
    done
  done
  timed_run "$out" checked-256 120 "$exe" -shape 256,256,256 -nsteps 61 -out_period 20 -no_output -reference cpu-openmp \
    -impl cuda,kokkos-cuda | tee -a "$out/summary.txt"
fi
for n in $sizes; do
  for plan in 1 3; do
    for steps in 60 90; do
      [ "$steps" = 90 ] && [ "$n" != 512 ] && [ "$n" != 1000 ] && continue
      timeout 90 "$exe" -shape "$n,$n,$n" -nsteps "$steps" -out_period $((steps / 3)) -no_output -no_check \
        -impl cuda,kokkos-cuda -tune steps_per_sweep=$plan -json "$out/sweep-$n-$plan-$steps.json" > /dev/null 2>&1
      echo "timing $n^3 steps_per_sweep=$plan $steps steps: exit $?" >> "$out/summary.txt"
    done
  done
done
python3 - "$out" <<'PY'
import glob, json, os, sys
rows = {}
for p in sorted(glob.glob(os.path.join(sys.argv[1], "sweep-*.json"))):
    n, plan, steps = os.path.basename(p)[6:-5].split("-")
    for impl in json.load(open(p))["implementations"]:
        rows.setdefault((int(n), int(steps), impl["id"]), {})[plan] = impl["best_su_per_s"]
for (n, steps, impl), r in sorted(rows.items()):
    one, three = r.get("1"), r.get("3")
    ratio = f"{three / one:.3f}" if one and three else "-"
    print(f"{n:5d}^3 {steps:3d} steps {impl:12s} single {one or 0:.3e} sweep {three or 0:.3e} x {ratio}")
PY
exit ${tests_failed:-0}  # the timings are data; a test run that did not count out fails the call
