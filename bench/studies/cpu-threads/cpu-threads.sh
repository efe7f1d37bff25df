#!/usr/bin/env bash
# How the CPU's codes scale with threads on a GPU machine's CPU (issue 57, item 3: what bounds the
# CPU sweep?), host build, through on-device.sh. The report's model says the sweep is bound by each
# core (4.2 ns an update at 16 threads, a third of the triad's bytes); one core of the build machine
# does an update in 1.1 ns (results/build-machine-2026-11-27/cpu-threads-8f9e458), so a shared resource
# (L3, the memory system, the cores' SMT siblings) may be what binds. Decision rule, stated before the runs: where the sweep at the most threads runs
# under 0.6 x (threads x its one-thread rate), the bound is shared, and the next lever is the traffic
# each tile makes; at 0.6 or more it is each core's work, and the lever is the instructions an update.
# At each thread count: the triad (awave-devbench with those threads) once; then ROUNDS rounds,
# each over every thread count (interleaved), one process a count timing cpu-openmp and
# kokkos-openmp, sweeps and single steps (-digest, held to the first round's by the summary).
#   bench/studies/cpu-threads/cpu-threads.sh OUT_DIR [SIZE] [ROUNDS] [THREADS]      (512, 3, "1 2 4 8 16")
set -uo pipefail
out=${1:?usage: cpu-threads.sh OUT_DIR [SIZE] [ROUNDS] [THREADS]}
n=${2:-512}
rounds=${3:-3}
threads=${4:-"1 2 4 8 16"}
[[ $n =~ ^[1-9][0-9]*$ && $rounds =~ ^[1-9][0-9]*$ ]] || { echo "cpu-threads: SIZE and ROUNDS take counts" >&2; exit 2; }
for t in $threads; do [[ $t =~ ^[1-9][0-9]*$ ]] || { echo "cpu-threads: THREADS takes counts, not '$t'" >&2; exit 2; }; done
exe=$PWD/build/host/src/awave
[ -x "$exe" ] || { echo "cpu-threads: no $exe (run it at the checkout's root, through on-device.sh)" >&2; exit 2; }
mkdir -p "$out"
export OMP_PROC_BIND=${BIND:-spread} OMP_PLACES=${PLACES:-threads}
{ lscpu | grep -E '^(Model name|CPU\(s\)|Thread|Core|Socket|L1d|L2|L3)'; echo "OMP_PROC_BIND=$OMP_PROC_BIND OMP_PLACES=$OMP_PLACES"; } \
  > "$out/cpu.txt"
for t in $threads; do OMP_NUM_THREADS=$t build/host/bench/awave-devbench > "$out/triad-t$t.json" 2>&1; done
for r in $(seq "$rounds"); do
  for t in $threads; do
    for plan in 3 1; do
      OMP_NUM_THREADS=$t timeout 300 "$exe" -shape "$n,$n,$n" -nsteps 12 -out_period 6 -impl cpu-openmp,kokkos-openmp \
        -tune "steps_per_sweep=$plan" -no_check -no_output -quiet -digest -json "$out/run-t$t-s$plan-r$r.json" \
        > "$out/run-t$t-s$plan-r$r.txt" 2>&1
      echo "threads $t, steps a sweep $plan, round $r: exit $?" >> "$out/console.txt"
    done
  done
done
PYTHONPATH=bench python3 bench/studies/cpu-threads/cpu_threads_summary.py "$out" | tee "$out/summary.txt"
