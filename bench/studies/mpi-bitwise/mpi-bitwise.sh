#!/usr/bin/env bash
# Over MPI on the GPUs of one machine (through on-device.sh, MPI builds staged): for each GPU
# MPI build, tests/tools/mpi_check.sh with the GPU implementations (every file of 2 and 3 processes
# h5diff-identical to the single-process file, fused and split steps; restart with another
# process count; kill -9 and continue), then a 97x61x33 x 3000-step run on 2 processes against
# 1 (awave -compare) and against the CPU reference (bitwise). Logs to OUT_DIR.
#   bench/studies/mpi-bitwise/mpi-bitwise.sh OUT_DIR [BUILD ...]   (default: cuda-mpi openmptarget-mpi)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../device/common.sh"
out=${1:?usage: mpi-bitwise.sh OUT_DIR [BUILD ...]}
shift
builds=("$@"); [ ${#builds[@]} -gt 0 ] || builds=(cuda-mpi openmptarget-mpi)
mkdir -p "$out"
out=$(cd "$out" && pwd)
record_machine "$out/gpu.txt"
status=0
for b in "${builds[@]}"; do
  exe=$PWD/build/$b/src/awave
  SHAPES="10,12,7 61,23,19 97,61,33" NPS="2 3" timeout 420 bash tests/tools/mpi_check.sh "$exe" "/tmp/mpi-check-$b" \
    > "$out/mpi_check_$b.log" 2>&1 || status=1
  echo "$b: mpi_check: $(grep -c '^ok' "$out/mpi_check_$b.log") ok, $(tail -1 "$out/mpi_check_$b.log")" | tee -a "$out/summary.txt"
  w=/tmp/long-$b; rm -rf "$w"; mkdir -p "$w"
  for np in 1 2; do
    OMP_NUM_THREADS=8 timeout 300 mpirun -np $np --oversubscribe --bind-to none -x OMP_TARGET_OFFLOAD -x LD_LIBRARY_PATH \
      -x OMP_NUM_THREADS "$exe" -shape 97,61,33 -nsteps 3000 -out_period 1000 -reference cpu-openmp \
      -json "$out/long_${b}_np$np.json" "$w/np$np" > "$out/long_${b}_np$np.txt" 2>&1 || status=1
    echo "$b: 97x61x33 x 3000 steps, $np processes: $(grep -E '^(PASS|FAIL)' "$out/long_${b}_np$np.txt")" | tee -a "$out/summary.txt"
  done
  for f in "$w"/np1.*.vtkhdf; do
    g=${f/np1./np2.}
    if "$exe" -compare "$f" "$g" > "$out/compare_$(basename "$g").txt" 2>&1; then r="identical"; else r="DIFFER"; status=1; fi
    echo "$b: $(basename "$g") vs $(basename "$f"): $r (awave -compare: $(cut -c1-200 "$out/compare_$(basename "$g").txt"))" |
      tee -a "$out/summary.txt"
  done
  rm -rf "$w" "/tmp/mpi-check-$b"
done
echo "status $status" | tee -a "$out/summary.txt"
exit $status
