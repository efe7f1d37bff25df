#!/usr/bin/env bash
# Joules a site update on the GPU (issue 58 item 6), through on-device.sh: runs long enough that
# the timed chunks span seconds (NVML's energy counter is coarse: app/gpu_energy.hpp), each size's
# codes in one process a round, ROUNDS rounds interleaved with the single-step plan
# (steps_per_sweep=1) of the same codes; the board's power and clocks read before and after.
# awave's -json holds each code's energy (joules, seconds, joules_per_site_update).
#   [ROUNDS=2] bench/device/energy.sh BUILD IMPLS OUT_DIR
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
build=${1:?usage: energy.sh BUILD IMPLS OUT_DIR} impls=${2:?impls} out=${3:?out}
rounds=${ROUNDS:-2}
exe=$PWD/build/$build/src/awave
mkdir -p "$out"
record_machine "$out/machine.txt"
board() { nvidia-smi --query-gpu=power.draw,power.limit,clocks.sm,temperature.gpu --format=csv,noheader >> "$out/board.txt"; }
board  # idle
# size:steps, about 2-6 s of chunks a code at 1-2e11 SU/s
for r in $(seq 1 "$rounds"); do
  for run in 512:3600 1000:600; do
    n=${run%%:*} steps=${run#*:}
    for plan in 3 1; do
      name=energy-$n-plan$plan-r$r
      timeout 240 "$exe" -shape "$n,$n,$n" -nsteps "$steps" -out_period $((steps / 6)) -no_output -no_check -quiet \
        -impl "$impls" -tune steps_per_sweep=$plan -json "$out/$name.json" > "$out/$name.txt" 2>&1
      echo "$name: exit $?" >> "$out/summary.txt"
      board
    done
  done
done
python3 bench/energy_summary.py "$out" | tee -a "$out/summary.txt"
