#!/usr/bin/env bash
# The CPU's sweep (issue 44, item 3; core/cache_sweep.hpp) on a GPU machine's CPU, host build,
# through on-device.sh. Decision rule, stated before the runs: the sweep is the host
# implementations' default from the smallest size where its median beats the single steps'
# median by more than both spreads; the target is >= 1.0 of the single-step limit (24 B a site
# at the triad measured here, first) at 512^3 and 1000^3, median of five runs.
# At each size: one checked run (cpu-openmp's and kokkos-openmp's sweeps against the threaded
# reference's single steps), then ROUNDS rounds in separate processes, single steps then sweeps,
# each process timing both implementations one after the other with -digest (held to the checked
# run's digest by sweep_study_summary.py). Threads bound (OMP_PROC_BIND=close, OMP_PLACES=cores:
# the README's advice) unless BIND and PLACES say otherwise.
#   [DEADLINE=seconds] bench/device/cpu-sweep.sh OUT_DIR [SIZES] [ROUNDS] [STEPS] [ROWS]
# ROWS: tile rows to try (cache_sweep.rows), each in its own sweep process. DEADLINE: no round
# starts after that many seconds of the script; the table counts the rounds that ran.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
out=${1:?usage: cpu-sweep.sh OUT_DIR [SIZES] [ROUNDS] [STEPS] [ROWS]}
sizes=${2:-"512"}
rounds=${3:-5}
steps=${4:-12}
rows_list=${5:-32}
deadline=${DEADLINE:-0}
exe=$PWD/build/host/src/awave
impls=cpu-openmp,kokkos-openmp
mkdir -p "$out"
export OMP_PROC_BIND=${BIND:-close} OMP_PLACES=${PLACES:-cores}
{
  echo "cpu: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cpus, OMP_PROC_BIND=$OMP_PROC_BIND OMP_PLACES=$OMP_PLACES"
  lscpu | grep -E '^(L1d|L2|L3)'
} > "$out/cpu.txt"
build/host/bench/awave-devbench > "$out/triad.json" 2>&1
echo "triad: $(cat "$out/triad.json")" | tee "$out/summary.txt"
run() {  # NAME ARGS...: one awave process, its JSON and text kept
  local name=$1
  shift
  timeout 300 "$exe" "$@" -no_output -quiet -digest -json "$out/$name.json" > "$out/$name.txt" 2>&1
  echo "$name: exit $? $(grep -E '^(PASS|FAIL|UNCHECKED)' "$out/$name.txt")" >> "$out/summary.txt"
}
for n in $sizes; do
  common=(-shape "$n,$n,$n" -nsteps "$steps" -out_period $((steps / 2)))
  run "checked-$n" "${common[@]}" -reference cpu-openmp -impl "$impls" -tune steps_per_sweep=3
  for r in $(seq 1 "$rounds"); do
    if [ "$deadline" -gt 0 ] && [ "$SECONDS" -ge "$deadline" ]; then
      echo "deadline: $n^3 stopped before round $r" | tee -a "$out/summary.txt"
      break
    fi
    run "single-$n-r$r" "${common[@]}" -no_check -impl "$impls" -tune steps_per_sweep=1
    for rows in $rows_list; do
      run "sweep-$n-rows$rows-r$r" "${common[@]}" -no_check -impl "$impls" \
        -tune "steps_per_sweep=3,cache_sweep.rows=$rows"
    done
  done
done
python3 bench/device/sweep_study_summary.py "$out" | tee -a "$out/summary.txt"
