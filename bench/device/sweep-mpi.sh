#!/usr/bin/env bash
# Sweeps over MPI (issue 46), on a machine of 2 GPUs through on-device.sh, cuda-mpi build: 1. bitwise:
# tests/tools/mpi_check.sh on 2, 3 and 4 processes, fused, split and swept (3 halo planes a sweep, the interior
# overlapping the exchange), every file identical to one process's, restarts across counts, the planted shallow
# halo caught; 2. scaling, ROUNDS rounds interleaved, hand CUDA and Kokkos-CUDA: one GPU at 1024^3 and 512^3, NP
# GPUs at 1024^3 (strong: swept, without overlap, through -halo mpi, single steps) and 512^3 a GPU (weak), 48
# steps in chunks of 12, -no_check; bench/sweep_mpi_summary.py makes the table. SHORT=1: the swept runs and bases.
#   [ROUNDS=3] [ONLY=scaling|checks] [NP=2] [SHORT=1] bench/device/sweep-mpi.sh OUT_DIR
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
out=${1:?usage: sweep-mpi.sh OUT_DIR}
exe=$PWD/build/cuda-mpi/src/awave
mkdir -p "$out"
record_machine "$out/gpu.txt"
nvidia-smi topo -m > "$out/topo.txt" 2>&1
if [ "${ONLY:-}" != scaling ]; then
  NPS="2 3 4" timeout 420 bash tests/tools/mpi_check.sh "$exe" /tmp/sweep-mpi-check > "$out/mpi-check.txt" 2>&1
  echo "mpi_check: exit $? $(tail -1 "$out/mpi-check.txt"), $(grep -c '^ok' "$out/mpi-check.txt") ok" | tee -a "$out/summary.txt"
  grep -h "halo exchange:\|steps a sweep\|single steps over MPI" /tmp/sweep-mpi-check/p*_sweep.txt | sort | uniq -c >> "$out/summary.txt"
  rm -rf /tmp/sweep-mpi-check
fi
[ "${ONLY:-}" = checks ] && exit 0
run() {  # run NAME NP [VAR=VALUE...] -- ARGS...
  local name=$1 np=$2; shift 2
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" timeout 200 mpirun -np "$np" --oversubscribe --bind-to none -x LD_LIBRARY_PATH \
    -x AWAVE_STEPS_PER_SWEEP -x AWAVE_SWEEP_OVERLAP "$exe" -impl cuda,kokkos-cuda -nsteps 48 -out_period 12 -no_check -no_output \
    -json "$out/$name.json" "$@" > "$out/$name.txt" 2>&1
  echo "$name: exit $? $(grep -h 'halo exchange:\|single steps over' "$out/$name.txt" | sort -u | tr '\n' ' ')" | tee -a "$out/summary.txt"
}
export AWAVE_STEPS_PER_SWEEP= AWAVE_SWEEP_OVERLAP=
np=${NP:-2}
for round in $(seq "${ROUNDS:-3}"); do
  run "one-1024_r$round" 1 -- -shape 1024,1024,1024
  run "strong-sweep_r$round" "$np" -- -shape 1024,1024,1024
  [ "${SHORT:-0}" = 1 ] || run "strong-sweep-serial_r$round" "$np" AWAVE_SWEEP_OVERLAP=0 -- -shape 1024,1024,1024
  [ "${SHORT:-0}" = 1 ] || run "strong-single_r$round" "$np" AWAVE_STEPS_PER_SWEEP=1 -- -shape 1024,1024,1024
  run "one-512_r$round" 1 -- -shape 512,512,512
  run "weak-sweep_r$round" "$np" -- -shape $((512 * np)),512,512
  [ "${SHORT:-0}" = 1 ] || run "weak-sweep-serial_r$round" "$np" AWAVE_SWEEP_OVERLAP=0 -- -shape $((512 * np)),512,512
  [ "$round" = 1 ] && [ "${SHORT:-0}" != 1 ] && run "strong-sweep-mpi_r$round" "$np" -- -shape 1024,1024,1024 -halo mpi
done
python3 bench/sweep_mpi_summary.py "$out" | tee "$out/table.md"
