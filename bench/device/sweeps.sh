#!/usr/bin/env bash
# Benchmark sweeps on the GPU machine (through on-device.sh): bench/sweep.py for each
# PRESET:NAME given (NAME = the build directory), into OUT_DIR, plus the machine's CPU.
#   bench/device/sweeps.sh OUT_DIR PRESET:NAME ...     e.g. cuda:cuda cuda:cuda-k46 host:host
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
out=${1:?usage: sweeps.sh OUT_DIR PRESET:NAME ...}
shift
mkdir -p "$out"
export OMP_PROC_BIND=spread OMP_PLACES=threads
SHOW=1 record_machine "$out/machine.txt"
lscpu | grep -E '^(Model name|CPU\(s\)|Thread|Core|Socket)' | tee -a "$out/machine.txt"
status=0
for item in "$@"; do
  preset=${item%%:*} name=${item#*:}
  echo "== $name ($preset)"
  start=$SECONDS
  python3 bench/sweep.py "$preset" "$out" --name "$name" || status=1
  echo "== $name: $((SECONDS - start)) s"
done
exit $status
