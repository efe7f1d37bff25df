#!/usr/bin/env bash
# Output over MPI beside the halo exchange (issue 54; docs/mpi.md, "Output over MPI and OMPIO"):
# 4 processes on however many cores, each writing snapshots through awave's writer on one thread
# while its main thread exchanges planes (tests/cpp/output_beside_exchange.cpp).
#  1. Planted: with Open MPI's OMPIO (AWAVE_TEST_FAULT_OMPIO) the run must crash or hang in at
#     least one of 3 tries (see below): the test can see the race.
#  2. With the layer awave chooses (ROMIO): 3 runs finish, and each file verifies.
#  3. awave refuses output over MPI where the user's OMPI_MCA_io lets OMPIO in (one line, exit 1,
#     no file), runs such a setting with -no_output, and takes a user's ROMIO.
# OMPIO's collective writes (fcoll vulcan) take the asynchronous path that races only from 3
# cycles of io_ompio_bytes_per_agg bytes up (a 32 MiB default): 16 KiB makes small grids take it
# (96^3, 20 snapshots: 10 of 10 planted runs crashed on 2 cores: bench/results/build-machine-2026-11-26/ompio-race).
#   output_beside_exchange.sh PROGRAM AWAVE_EXE WORK_DIR
set -uo pipefail
prog=${1:?usage: output_beside_exchange.sh PROGRAM AWAVE_EXE WORK_DIR}
exe=${2:?usage: output_beside_exchange.sh PROGRAM AWAVE_EXE WORK_DIR}
work=${3:?usage: output_beside_exchange.sh PROGRAM AWAVE_EXE WORK_DIR}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset OMPI_MCA_io
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
beside() {  # beside LABEL [mpirun options]: one run of the program, 30 s at most; its status
  local label=$1; shift
  rm -f "$label.vtkhdf"
  timeout 30 mpirun -np 4 --oversubscribe -x OMPI_MCA_io_ompio_bytes_per_agg=16384 "$@" "$prog" 96,96,96 20 \
    "$label.vtkhdf" > "$label.txt" 2>&1
}

caught=0
for try in 1 2 3; do
  beside "planted$try" -x AWAVE_TEST_FAULT_OMPIO=1; rc=$?
  if [ $rc -ne 0 ]; then
    caught=1
    echo "ok: through OMPIO the writer beside the exchange failed (try $try, status $rc$([ $rc -eq 124 ] && echo ': hung'))"
    break
  fi
done
[ $caught -eq 1 ] || fail "through OMPIO (planted) 3 runs of the writer beside the exchange passed: this test cannot see the race"

for run in 1 2 3; do
  if ! beside "chosen$run"; then
    fail "the writer beside the exchange, awave's MPI-IO layer, run $run: $(tail -1 "chosen$run.txt")"
  elif ! grep -q "^ok: .*(OMPI_MCA_io=^ompio)" "chosen$run.txt"; then
    fail "run $run did not say it wrote through OMPI_MCA_io=^ompio: $(tail -1 "chosen$run.txt")"
  elif ! "$exe" -verify "chosen$run.vtkhdf" > "verify$run.txt" 2>&1; then
    fail "run $run's file does not verify: $(tail -1 "verify$run.txt")"
  else
    echo "ok: run $run: $(cut -c5- "chosen$run.txt" | head -1); its file verifies"
  fi
done

# A user's OMPI_MCA_io that lets OMPIO in: refused for output over MPI, in one line, nothing written.
for setting in ompio "" "^romio321"; do
  mkdir -p "user_$setting" && (cd "user_$setting" && OMPI_MCA_io=$setting mpirun -np 2 --oversubscribe -x OMPI_MCA_io \
    "$exe" -shape 20,12,9 -nsteps 3 -impl cpu run > out.txt 2> err.txt); rc=$?
  if [ $rc -ne 1 ] || [ "$(grep -c '^awave:' "user_$setting/err.txt")" -ne 1 ] ||
     ! grep -q "^awave: error: OMPI_MCA_io=$setting lets Open MPI write through OMPIO" "user_$setting/err.txt"; then
    fail "OMPI_MCA_io='$setting': rc=$rc, $(head -2 "user_$setting/err.txt")"
  elif [ -n "$(ls "user_$setting" | grep -v -e out.txt -e err.txt)" ]; then
    fail "OMPI_MCA_io='$setting': the refused run wrote files"
  else
    echo "ok: OMPI_MCA_io='$setting' refused in one line"
  fi
done
OMPI_MCA_io=ompio mpirun -np 2 --oversubscribe -x OMPI_MCA_io "$exe" -shape 20,12,9 -nsteps 3 -impl cpu -no_output \
  > nooutput.txt 2>&1 || fail "OMPI_MCA_io=ompio with -no_output: $(tail -1 nooutput.txt)"
OMPI_MCA_io=romio321 mpirun -np 2 --oversubscribe -x OMPI_MCA_io "$exe" -shape 20,12,9 -nsteps 3 -impl cpu user \
  > user.txt 2>&1 || fail "OMPI_MCA_io=romio321: $(tail -1 user.txt)"
grep -q "^awave: MPI-IO: OMPI_MCA_io=romio321 (set by user)" user.txt || fail "a user's ROMIO: not said: $(grep MPI-IO user.txt)"
[ $failures -eq 0 ] && echo "ok: a user's ROMIO is taken and said; OMPIO with -no_output runs"

echo "$failures failures"
[ $failures -eq 0 ]
