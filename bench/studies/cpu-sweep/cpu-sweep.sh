#!/usr/bin/env bash
# The CPU's sweep (issue 44, item 3; core/cache_sweep.hpp) on a GPU machine's CPU, host build, through
# on-device.sh. Rule, stated before the runs: the sweep is the host codes' default from the smallest size where
# its median beats the single steps' by more than both spreads; the target is >= 1.0 of the single-step limit
# (24 B a site at the triad measured here) at 512^3 and 1000^3, median of five runs. At each size one checked
# run, then ROUNDS rounds in separate processes, single steps then sweeps (a process a tile height of ROWS),
# held to the checked run by -digest (sweep_study_summary.py). Threads bound as the README advises
# (OMP_PROC_BIND=close, OMP_PLACES=cores) unless BIND and PLACES say otherwise.
#   [DEADLINE=seconds] bench/studies/cpu-sweep/cpu-sweep.sh OUT_DIR [SIZES] [ROUNDS] [STEPS] [ROWS]
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../device/common.sh"
out=${1:?usage: cpu-sweep.sh OUT_DIR [SIZES] [ROUNDS] [STEPS] [ROWS]}
sizes=${2:-"512"}
rounds=${3:-5}
steps=${4:-12}
rows_list=${5:-32}
mkdir -p "$out"
export OMP_PROC_BIND=${BIND:-close} OMP_PLACES=${PLACES:-cores}
{
  echo "cpu: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cpus, OMP_PROC_BIND=$OMP_PROC_BIND OMP_PLACES=$OMP_PLACES"
  lscpu | grep -E '^(L1d|L2|L3)'
} > "$out/cpu.txt"
build/host/bench/awave-devbench > "$out/triad.json" 2>&1
echo "triad: $(cat "$out/triad.json")" | tee "$out/summary.txt"
run() {  # NAME ARGS...
  timed_run "$out" "$1" 300 "$PWD/build/host/src/awave" "${@:2}" -impl cpu-openmp,kokkos-openmp -no_output -quiet \
    -digest >> "$out/summary.txt"
}
for n in $sizes; do
  common=(-shape "$n,$n,$n" -nsteps "$steps" -out_period $((steps / 2)))
  run "checked-$n" "${common[@]}" -reference cpu-openmp -tune steps_per_sweep=3
  for r in $(seq 1 "$rounds"); do
    past_deadline "$n" "$r" && break
    run "single-$n-r$r" "${common[@]}" -no_check -tune steps_per_sweep=1
    for rows in $rows_list; do
      run "sweep-$n-rows$rows-r$r" "${common[@]}" -no_check -tune "steps_per_sweep=3,cache_sweep.rows=$rows"
    done
  done
done
python3 bench/sweep_study_summary.py "$out" | tee -a "$out/summary.txt"
