#!/usr/bin/env bash
# The sweep over MPI (issue 36), on the GPU machine through on-device.sh, cuda-mpi build: one process
# sweeps (3 steps a sweep), two processes take single steps and say why in one line; both checked
# against the CPU reference, and their files compared exactly (h5diff). OUT_DIR/summary.txt.
#   bench/device/sweep-mpi.sh OUT_DIR
set -uo pipefail
out=${1:?usage: sweep-mpi.sh OUT_DIR}
exe=$PWD/build/cuda-mpi/src/awave
w=/tmp/sweep-mpi
rm -rf "$w"; mkdir -p "$out" "$w"
export OMP_NUM_THREADS=8
for np in 1 2; do
  timeout 300 mpirun -np $np --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x OMP_NUM_THREADS "$exe" \
    -shape 240,230,220 -nsteps 10 -out_period 5 -halo mpi -reference cpu-openmp -impl cuda,kokkos-cuda \
    -json "$out/np$np.json" "$w/np$np" > "$out/np$np.txt" 2>&1
  echo "np $np: exit $? $(grep -E '^(PASS|FAIL)' "$out/np$np.txt")" | tee -a "$out/summary.txt"
  grep -E "steps a sweep|single steps over MPI" "$out/np$np.txt" | sort -u | tee -a "$out/summary.txt"
done
for f in "$w"/np1.*.vtkhdf; do
  g=${f/np1./np2.}
  if h5diff -r "$f" "$g" > /dev/null 2>&1; then r=identical; else r=DIFFER; fi
  echo "$(basename "$g") vs $(basename "$f"): $r (h5diff)" | tee -a "$out/summary.txt"
done
rm -rf "$w"
