#!/usr/bin/env bash
# awave's own writer and exchange on two threads (tests/output_beside_exchange.cpp, host-mpi build),
# 4 processes on this machine, 10 runs through OMPIO (AWAVE_TEST_FAULT_OMPIO=1: as 43d814e wrote) and
# 10 as awave chooses (ROMIO), io_ompio_bytes_per_agg 16 KiB at 96^3 as in the test. Run from the checkout's root.
#   bash bench/results/build-machine-2026-11-26/ompio-race/awave-tally.sh > awave-tally.txt
set -u
prog=$PWD/build/host-mpi/tests/output_beside_exchange
[ -x "$prog" ] || { echo "build the host-mpi preset first" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
work=$(mktemp -d); cd "$work" || exit 1
echo "awave $(git -C "$OLDPWD" describe --always --dirty), Open MPI $(mpirun --version | head -1 | awk '{print $NF}'), $(nproc --all) cores"
for layer in ompio chosen; do
  fault=(); [ $layer = ompio ] && fault=(-x AWAVE_TEST_FAULT_OMPIO=1)
  ok=0 statuses=""
  for i in $(seq 10); do
    rm -f f.vtkhdf
    timeout 40 mpirun --oversubscribe -np 4 -x OMPI_MCA_io_ompio_bytes_per_agg=16384 "${fault[@]}" "$prog" 96,96,96 20 \
      f.vtkhdf > run.log 2>&1; rc=$?
    [ $rc -eq 0 ] && ok=$((ok + 1)); statuses+=" $rc"
  done
  echo "$layer: $ok of 10 passed (exit statuses:$statuses; 124: hung to the 40 s limit, 134: signal 6, 139: signal 11)"
done
rm -rf "$work"
