#!/usr/bin/env bash
# The CPU sweep of more steps a tile on a GPU machine's CPU (issue 57 item 3), host build, through
# on-device.sh: bench/studies/cpu-sweep-depth's awave-cpu-depth at 512^3 and 1000^3, every (steps, rows)
# once a round, rounds interleaved, each run checked bitwise against the product's three-step sweep.
# Why: the sweep scales with threads as the triad does (results/h100-2026-11-27/cpu-threads-8f9e458), so
# the lever left is fewer bytes an update. Decision rule, stated before the runs: a deeper sweep enters
# the product (the host implementations' default; the step plan, MPI halos and restarts taught S steps)
# where it is bitwise and its median is >= 1.15 x the product's three-step sweep's (default rows) at
# 512^3 and at 1000^3 on a GPU machine's Xeon; below that the result is recorded and the lever closed.
#   bench/studies/cpu-sweep-depth/cpu-depth.sh OUT_DIR [DEPTHS] [ROUNDS_512] [ROUNDS_1000]     (3,4,6; 5; 3)
set -uo pipefail
out=${1:?usage: cpu-depth.sh OUT_DIR [DEPTHS] [ROUNDS_512] [ROUNDS_1000]}
depths=${2:-3,4,6}
r512=${3:-5}
r1000=${4:-3}
[[ $depths =~ ^[2-8](,[2-8])*$ ]] || { echo "cpu-depth: DEPTHS takes steps 2-8, comma-separated, not '$depths'" >&2; exit 2; }
[[ $r512 =~ ^[0-9]+$ && $r1000 =~ ^[0-9]+$ ]] || { echo "cpu-depth: ROUNDS take counts" >&2; exit 2; }
exe=$PWD/build/host/bench/awave-cpu-depth
[ -x "$exe" ] || { echo "cpu-depth: no $exe (run it at the checkout's root, through on-device.sh)" >&2; exit 2; }
mkdir -p "$out"
export OMP_PROC_BIND=${BIND:-spread} OMP_PLACES=${PLACES:-threads}
{ lscpu | grep -E '^(Model name|CPU\(s\)|Thread|Core|Socket|L1d|L2|L3)'; echo "OMP_PROC_BIND=$OMP_PROC_BIND OMP_PLACES=$OMP_PLACES"; } \
  > "$out/cpu.txt"
# (few files: a device call brings back 8; the triad's two readings, one JSON object each, go in one file)
build/host/bench/awave-devbench > "$out/triads.txt" 2>> "$out/console.txt"
# 24 steps: a multiple of 3, 4, 6 and 8. Rows: the product's default (0) and 16 (a deeper sweep's buffer
# of 32 rows outgrows a 2 MB L2 from 6 steps); at 1000^3 the default is 16 already.
[ "$r512" -gt 0 ] && timeout 300 "$exe" 512x512x512 24 "$depths" 0,16 "$r512" > "$out/512.jsonl" 2>> "$out/console.txt"
echo "512^3: exit $?" >> "$out/console.txt"
[ "$r1000" -gt 0 ] && timeout 300 "$exe" 1000x1000x1000 24 "$depths" 0 "$r1000" > "$out/1000.jsonl" 2>> "$out/console.txt"
echo "1000^3: exit $?" >> "$out/console.txt"
build/host/bench/awave-devbench >> "$out/triads.txt" 2>> "$out/console.txt"
PYTHONPATH=bench python3 bench/studies/cpu-sweep-depth/cpu_depth_summary.py "$out" | tee "$out/summary.txt"
