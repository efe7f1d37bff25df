#!/usr/bin/env bash
# Joules a site update on the GPU (issue 58 item 6; through on-device.sh or bench/study.sh): runs whose timed
# chunks span seconds (NVML's counter is coarse), each size's codes in one process a round, ROUNDS rounds with the
# single-step plan interleaved; the board's power and clocks before and after each process. awave's -json holds
# each code's energy. BUILD: build/BUILD, or a build folder's path.
#   [ROUNDS=2] [SIZES="512 1000"] bench/device/energy.sh BUILD IMPLS OUT_DIR
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
build=${1:?usage: energy.sh BUILD IMPLS OUT_DIR} impls=${2:?impls} out=${3:?out}
rounds=${ROUNDS:-2}
exe=$PWD/build/$build/src/awave
[ -x "$exe" ] || exe=$build/src/awave
mkdir -p "$out"
record_machine "$out/machine.txt"
board() { nvidia-smi --query-gpu=power.draw,power.limit,clocks.sm,temperature.gpu --format=csv,noheader >> "$out/board.txt"; }
board  # idle
for r in $(seq 1 "$rounds"); do
  for n in ${SIZES:-512 1000}; do
    steps=$(( 480000000000 / (n * n * n) ))  # 4.8e11 site updates: 2-5 s of chunks at 1-2e11 SU/s
    [ "$steps" -ge 60 ] || steps=60
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
