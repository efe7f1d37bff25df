#!/usr/bin/env bash
# The CPU noise study (README.md beside this: the question and the rule, stated before the runs). On a device
# machine, host build, through bench/device/on-device.sh:
#   bench/studies/cpu-noise/run.sh OUT_DIR [SIZE] [ROUNDS]          (512, 8)
# Each round, in this order: the triad (awave-devbench); cpu-openmp and kokkos-openmp in one process with the
# study's chunks (12 steps, 2 chunks of 6), then with 8 chunks of 6 (48 steps), then 8 chunks with
# OMP_PROC_BIND=close, then 8 chunks of single steps; the triad again. Every run records its chunks' times
# (-json), so the summary can tell noise inside a run from noise between runs.
set -uo pipefail
out=${1:?usage: run.sh OUT_DIR [SIZE] [ROUNDS]}
n=${2:-512}
rounds=${3:-8}
[[ $n =~ ^[1-9][0-9]*$ && $rounds =~ ^[1-9][0-9]*$ ]] || { echo "cpu-noise: SIZE and ROUNDS take counts" >&2; exit 2; }
exe=$PWD/build/host/src/awave
[ -x "$exe" ] || { echo "cpu-noise: no $exe (run it at the checkout's root, through on-device.sh)" >&2; exit 2; }
mkdir -p "$out"
export OMP_PROC_BIND=spread OMP_PLACES=threads
{ lscpu; echo; cat /sys/kernel/mm/transparent_hugepage/enabled 2>&1; nproc; free -g; } > "$out/cpu.txt" 2>&1
run() {  # NAME STEPS BIND PLAN
  OMP_PROC_BIND=$3 timeout 300 "$exe" -shape "$n,$n,$n" -nsteps "$2" -out_period 6 -impl cpu-openmp,kokkos-openmp \
    -tune "steps_per_sweep=$4" -no_check -no_output -quiet -digest -json "$out/$1-r$r.json" > "$out/$1-r$r.txt" 2>&1
  echo "$1 round $r: exit $? at $(date +%T)" >> "$out/console.txt"
}
for r in $(seq "$rounds"); do
  build/host/bench/awave-devbench > "$out/triad-r$r.json" 2>&1
  run study 12 spread 3
  run long 48 spread 3
  run close 48 close 3
  run single 48 spread 1
  build/host/bench/awave-devbench > "$out/triad-r$r.end.json" 2>&1
done
PYTHONPATH=bench python3 bench/studies/cpu-noise/summary.py "$out" | tee "$out/summary.txt"
