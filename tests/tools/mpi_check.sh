#!/usr/bin/env bash
# awave over MPI (the *-mpi presets), as CI runs it on 2 cores, oversubscribed: for P = 1..4
# processes, shapes whose nx does not divide by P and whose sponge layers span processes,
# every host implementation's file must equal the single-process file (h5diff: every array,
# every attribute, exactly); a restart with another P must equal the single-process restart;
# an nx too small for P is refused; and the comparison itself catches a planted difference.
#   mpi_check.sh AWAVE_EXE WORK_DIR
# SHAPES and NPS override the shapes and process counts (the GPU runs, bench/device/); HALO
# (mpi or nccl) is passed as -halo to every run over several processes, and STALL_IMPL is the
# implementation whose neighbours must time out when a process stops (default cpu).
set -uo pipefail
exe=${1:?usage: mpi_check.sh AWAVE_EXE WORK_DIR}
work=${2:?usage: mpi_check.sh AWAVE_EXE WORK_DIR}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
halo_args=(); [ -n "${HALO:-}" ] && halo_args=(-halo "$HALO")
mpi() { local np=$1; shift; mpirun -np "$np" --oversubscribe "$@" "${halo_args[@]}"; }
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
same() {  # same FILE_A FILE_B: h5diff finds no difference in any object
  h5diff -r "$1" "$2" > diff.txt 2>&1 || { fail "$2 differs from $1: $(differing_objects)"; return 1; }
}
differing_objects() {  # the objects h5diff -r counted differences in (its report lists every object compared), else its output
  local found
  found=$(awk '/^(dataset|attribute|group|datatype): / {obj = $0} /differences found/ && $1 != "0" {print obj " (" $1 " differences)"}' diff.txt | head -3)
  echo "${found:-$(head -3 diff.txt)}"
}
impls=$("$exe" -list | awk '$1 != "cpu" {printf "%s%s", sep, $1; sep=","}')
# The implementations with the temporal-blocking sweep (their -list line says so).
sweepers=$("$exe" -list | awk '$1 != "cpu" && /steps a sweep/ {printf "%s%s", sep, $1; sep=","}')
# A GPU build on a machine without its GPU refuses to start its implementations (exit 3, "cannot
# run here"): nothing here can be checked, which the script says in its own words and ctest's
# skip code (tests/skip_properties.cmake) reports as a skip. Any other failure stays a failure.
probe=$("$exe" -shape 10,12,7 -nsteps 1 -no_output -no_check -impl "$impls" 2>&1 >/dev/null); probe_status=$?
if [ $probe_status -eq 3 ] && [[ $probe == *"cannot run here"* ]]; then
  echo "mpi_check: SKIPPED: ${probe#awave: error: }"
  exit 77
fi

# 10 planes over 4 processes: slabs 3,3,2,2, so each 4-plane sponge spans two processes. The
# grids are small enough for fused steps; AWAVE_FUSED_STEP_POINTS=0 makes slabs of 8 planes
# or more take the split step (bulk while the halos travel, then the x layers) instead, and
# AWAVE_STEPS_PER_SWEEP=3 makes the implementations that sweep sweep (halos of 3 planes a side,
# once a sweep; chunks of 3, 3 and 1 steps: a remainder too), except where a slab is thinner
# than 3 planes (10 planes over 4), where every process takes single steps and says so.
for plan in fused split sweep; do
for shape in ${SHAPES:-10,12,7 21,13,9 40,12,9}; do
  tag=${shape//,/x}_$plan
  unset AWAVE_FUSED_STEP_POINTS AWAVE_STEPS_PER_SWEEP
  [ $plan = split ] && export AWAVE_FUSED_STEP_POINTS=0
  [ $plan = sweep ] && export AWAVE_STEPS_PER_SWEEP=3
  # The sweep's runs are long enough for every plane of its halo to matter: a halo of u(t-1) one
  # plane shallow first changes a value after 10 steps (issue 54; tests/tools/mutants.py plants it).
  nsteps=7; [ $plan = sweep ] && nsteps=16
  "$exe" -shape "$shape" -nsteps $nsteps -out_period 3 -impl "$impls" "p1_$tag" > "p1_$tag.txt" 2>&1 ||
    fail "single process, $shape: $(tail -1 "p1_$tag.txt")"
  for np in ${NPS:-2 3 4}; do
    mpi "$np" "$exe" -shape "$shape" -nsteps $nsteps -out_period 3 -impl "$impls" "p${np}_$tag" > "p${np}_$tag.txt" 2>&1 ||
      fail "$np processes, $shape: $(tail -1 "p${np}_$tag.txt")"
    grep -q "^PASS: every implementation matches the CPU reference, bit for bit" "p${np}_$tag.txt" ||
      fail "$np processes, $shape: the distributed check did not pass bit for bit"
    for id in cpu ${impls//,/ }; do same "p1_$tag.$id.vtkhdf" "p${np}_$tag.$id.vtkhdf" && echo "ok: $shape $plan, $np processes, $id"; done
    if [ $plan = sweep ]; then  # which plan each took, in its own line
      thin=$(( ${shape%%,*} / np < 3 ))
      grep -q "halos of 3 planes a side, exchanged once a sweep" "p${np}_$tag.txt"; halo=$(( $? == 0 ))
      grep -q "single steps over MPI: slabs of [0-9]* planes are thinner than the sweep's halo of 3" "p${np}_$tag.txt"; said=$(( $? == 0 ))
      [ $thin -eq 1 ] && { [ $said -eq 1 ] && [ $halo -eq 0 ] || fail "$np processes, $shape: thin slabs swept or said nothing"; }
      [ $thin -eq 0 ] && [ -n "$sweepers" ] && { [ $halo -eq 1 ] || fail "$np processes, $shape: no sweep over MPI"; }
    fi
  done
done
done
unset AWAVE_FUSED_STEP_POINTS AWAVE_STEPS_PER_SWEEP

# The sweep checks below use the last shape (3 processes sweep it: slabs of 3 planes or more).
last_shape=${SHAPES:-10,12,7 21,13,9 40,12,9}; last_shape=${last_shape##* }; last_tag=${last_shape//,/x}_sweep

# A sweep's exchange must carry every plane it needs: with one plane of u(t) a side too few (the
# planted fault AWAVE_TEST_FAULT_SHALLOW_HALO), the files must differ from the single process's,
# on a grid the wave crosses the slabs' edges of within the run (21 planes, 7 steps, 3 processes).
if [ -n "$sweepers" ]; then
  for id in ${sweepers//,/ }; do
    AWAVE_STEPS_PER_SWEEP=3 "$exe" -shape 21,13,9 -nsteps 7 -out_period 3 -impl "$id" -no_check deep > deep.txt 2>&1 ||
      fail "the shallow halo's reference run: $(tail -1 deep.txt)"
    AWAVE_STEPS_PER_SWEEP=3 AWAVE_TEST_FAULT_SHALLOW_HALO=1 mpi 3 -x AWAVE_STEPS_PER_SWEEP -x AWAVE_TEST_FAULT_SHALLOW_HALO \
      "$exe" -shape 21,13,9 -nsteps 7 -out_period 3 -impl "$id" -no_check shallow > shallow.txt 2>&1 ||
      fail "the shallow-halo run: $(tail -1 shallow.txt)"
    if [ ! -f "deep.$id.vtkhdf" ] || [ ! -f "shallow.$id.vtkhdf" ]; then
      fail "the shallow-halo comparison has no files to compare"
    elif h5diff -r "deep.$id.vtkhdf" "shallow.$id.vtkhdf" > /dev/null 2>&1; then
      fail "a sweep exchanging a plane too few gave the single-process file ($id)"
    else
      echo "ok: a sweep exchanging a plane too few is caught ($id)"
    fi
  done
fi

# Restart across process counts from files of a sweeping run: the file of the last process count
# that ran continued by as many processes (sweeping), the first's by 1, the same file.
nps=(${NPS:-2 3 4}); np_first=${nps[0]}; np_last=${nps[${#nps[@]} - 1]}
if [ -n "$sweepers" ]; then
  for id in ${sweepers//,/ }; do
    AWAVE_STEPS_PER_SWEEP=3 mpi $np_last -x AWAVE_STEPS_PER_SWEEP "$exe" -impl "$id" \
      -restart "p${np_last}_$last_tag.$id.vtkhdf" -nsteps 5 srn > srn.txt 2>&1 ||
      fail "sweep restart, $np_last processes: $(tail -1 srn.txt)"
    AWAVE_STEPS_PER_SWEEP=3 "$exe" -impl "$id" -restart "p${np_first}_$last_tag.$id.vtkhdf" -nsteps 5 sr1 > sr1.txt 2>&1 ||
      fail "sweep restart, 1 process: $(tail -1 sr1.txt)"
    same sr1.$id.vtkhdf srn.$id.vtkhdf &&
      echo "ok: a swept file of $np_first processes continued by 1 = one of $np_last by $np_last, $id"
  done
fi

# -digest is for one process: over MPI it says so in one line and records nothing.
mpi 2 "$exe" -shape 10,12,7 -nsteps 2 -impl cpu -no_output -digest > digest.txt 2>&1 || fail "-digest over MPI: $(tail -1 digest.txt)"
grep -q "^awave: -digest is for one process" digest.txt && ! grep -q "digest of the final u" digest.txt ||
  fail "-digest over MPI: no line saying it records nothing, or a digest printed"

# Restart with another P: written by 3 processes, continued by 2 and by 1, the same file.
mpi 3 "$exe" -shape 10,12,7 -nsteps 5 -out_period 3 -impl cpu,kokkos-serial part > part.txt 2>&1 || fail "restart source"
for id in cpu kokkos-serial; do
  "$exe" -impl "$id" -restart "part.$id.vtkhdf" -nsteps 4 r1 > r1.txt 2>&1 || fail "restart, 1 process: $(tail -1 r1.txt)"
  mpi 2 "$exe" -impl "$id" -restart "part.$id.vtkhdf" -nsteps 4 r2 > r2.txt 2>&1 ||
    fail "restart, 2 processes: $(tail -1 r2.txt)"
  same "r1.$id.vtkhdf" "r2.$id.vtkhdf" && echo "ok: restart of a 3-process file by 2 processes, $id"
done

# Snapshots of single-precision u with checkpoints apart (io/output_layout.hpp): written by 3
# processes, the single-process file; continued from its last checkpoint by 2, the same again.
single=(-snapshot_precision single -snapshot_fields u -checkpoint_period 6)
"$exe" -shape 10,12,7 -nsteps 8 -out_period 3 -impl cpu "${single[@]}" s1 > s1.txt 2>&1 || fail "single, 1 process"
mpi 3 "$exe" -shape 10,12,7 -nsteps 8 -out_period 3 -impl cpu "${single[@]}" s3 > s3.txt 2>&1 ||
  fail "single, 3 processes: $(tail -1 s3.txt)"
same s1.cpu.vtkhdf s3.cpu.vtkhdf && echo "ok: single-precision snapshots and checkpoints, 3 processes"
"$exe" -impl cpu -restart s3.cpu.vtkhdf -nsteps 4 "${single[@]}" sr1 > sr1.txt 2>&1 || fail "single restart, 1 process"
mpi 2 "$exe" -impl cpu -restart s3.cpu.vtkhdf -nsteps 4 "${single[@]}" sr2 > sr2.txt 2>&1 ||
  fail "single restart, 2 processes: $(tail -1 sr2.txt)"
grep -q "its checkpoint slot 1" sr2.txt || fail "the restart did not start from the last checkpoint: $(grep restarting sr2.txt)"
same sr1.cpu.vtkhdf sr2.cpu.vtkhdf && echo "ok: restart of a single-precision file from its checkpoint by 2 processes"

# kill -9 of a run over 2 processes while it writes: its one file keeps every completed
# snapshot, and 3 processes continue it to what a single process computes.
export HDF5_USE_FILE_LOCKING=FALSE  # to read the file while it is written
setsid bash -c "exec mpirun -np 2 --oversubscribe '$exe' -shape 40,12,9 -out_period 20 -impl cpu -no_check -nsteps 200000 killed" \
  > killed.txt 2>&1 &
leader=$!
for _ in $(seq 600); do
  n=$(h5dump -a /VTKHDF/Steps/NSteps killed.cpu.vtkhdf.partial 2>/dev/null | awk '/\(0\)/ {print $2}')
  [ "${n:-0}" -ge 3 ] && break
  sleep 0.1
done
# Every process at once: mpirun and the ranks it started (which it may have put in their own
# process groups).
pkill -9 -f -- "-nsteps 200000 killed" 2>/dev/null; kill -9 -- -"$leader" 2>/dev/null; wait "$leader" 2>/dev/null
for _ in $(seq 50); do pgrep -f -- "-nsteps 200000 killed" > /dev/null || break; sleep 0.1; done
if [ "${n:-0}" -lt 3 ]; then
  fail "the run over 2 processes never wrote 3 snapshots"
elif [ -e killed.cpu.vtkhdf ]; then
  fail "a killed run left a file that looks complete"
else
  n=$(h5dump -a /VTKHDF/Steps/NSteps killed.cpu.vtkhdf.partial | awk '/\(0\)/ {print $2}')
  last=$(( (n - 1) * 20 ))  # snapshots at every multiple of out_period
  mpi 3 "$exe" -impl cpu -restart killed.cpu.vtkhdf.partial -nsteps 30 resumed > resumed.txt 2>&1 ||
    fail "restart of the killed file: $(tail -1 resumed.txt)"
  "$exe" -shape 40,12,9 -out_period 20 -impl cpu -no_check -nsteps "$last" upto > upto.txt 2>&1
  "$exe" -impl cpu -restart upto.cpu.vtkhdf -nsteps 30 resumed1 > resumed1.txt 2>&1
  same resumed1.cpu.vtkhdf resumed.cpu.vtkhdf &&
    echo "ok: killed at step $last over 2 processes, continued by 3 = by 1 from an uninterrupted run's file"
fi
unset HDF5_USE_FILE_LOCKING

# Integrity over MPI: a file written by 3 processes, its last snapshot damaged, continued by 2
# processes from the newest intact snapshot (saying so) = continued by 1; -verify names it.
if [ -n "${AWAVE_DAMAGE_TOOL:-}" ]; then
  mpi 3 "$exe" -shape 40,12,9 -nsteps 13 -out_period 5 -impl cpu dmg > dmg.txt 2>&1 || fail "integrity source"
  "$AWAVE_DAMAGE_TOOL" dmg.cpu.vtkhdf u 3 || fail "damage_tool"
  "$exe" -verify dmg.cpu.vtkhdf > verify.txt 2>&1 && fail "-verify missed the damage"
  grep -q "snapshot 3 of 4 is DAMAGED" verify.txt || fail "-verify did not name the snapshot: $(cat verify.txt)"
  mpi 2 "$exe" -impl cpu -restart dmg.cpu.vtkhdf d2 > d2.txt 2> d2.err || fail "restart of the damaged file: $(tail -1 d2.err)"
  grep -q "snapshot 3 (step 13) is damaged .*continuing from snapshot 2 (step 10), which loses 3 steps" d2.err ||
    fail "no one-line notice: $(head -3 d2.err)"
  "$exe" -impl cpu -restart dmg.cpu.vtkhdf d1 > d1.txt 2>&1 || fail "restart of the damaged file, 1 process"
  same d1.cpu.vtkhdf d2.cpu.vtkhdf &&
    echo "ok: a 3-process file with a damaged last snapshot, continued by 2 processes from the intact one = by 1"
  mpi 2 "$exe" -impl cpu -restart dmg.cpu.vtkhdf -restart_strict d3 > d3.txt 2>&1 && fail "-restart_strict took a damaged file"
  [ -e d3.cpu.vtkhdf.partial ] && fail "-restart_strict wrote a file"
fi

# A process that stops: its neighbour gives up after -halo_timeout with one line (the
# planted fault AWAVE_TEST_FAULT_STALL_HALO=1 stops process 1 before its second exchange), never hangs.
mkdir -p stall && start=$SECONDS
(cd stall && AWAVE_TEST_FAULT_STALL_HALO=1 timeout 300 mpirun -np 2 --oversubscribe -x AWAVE_TEST_FAULT_STALL_HALO "$exe" \
   -shape 20,12,9 -nsteps 6 -out_period 3 -impl "${STALL_IMPL:-cpu}" -no_check -halo_timeout 3 "${halo_args[@]}" run \
   > out.txt 2> err.txt); rc=$?
took=$((SECONDS - start))
if [ $rc -eq 0 ] || [ $rc -eq 124 ]; then
  fail "a stopped process: rc=$rc after $took s (expected the time-out's error)"
elif ! grep -q "no plane from the neighbours of process 0 within 3 s" stall/err.txt; then
  fail "a stopped process: no time-out line: $(grep -m2 'error' stall/err.txt)"
elif [ $took -ge 60 ]; then
  fail "a stopped process: the time-out took $took s"
else
  echo "ok: a stopped process: its neighbour gave up after 3 s with one line (rc=$rc, $took s in all)"
fi

# -halo nccl where NCCL cannot carry the planes (no NCCL in the build, or processes sharing a
# GPU: one more process than the machine has GPUs): one line, exit 1, nothing written.
if [ "${HALO:-}" != nccl ]; then
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU'); sharing=$((gpus + 1 > 2 ? gpus + 1 : 2))
  mkdir -p nonccl && (cd nonccl && mpirun -np $sharing --oversubscribe "$exe" -shape 20,12,9 -nsteps 3 -halo nccl run \
    > out.txt 2> err.txt); rc=$?
  if [ $rc -ne 1 ] || ! grep -q "^awave: error: -halo nccl: " nonccl/err.txt; then
    fail "-halo nccl without a way: rc=$rc, $(head -2 nonccl/err.txt)"
  elif [ -n "$(ls nonccl | grep -v -e out.txt -e err.txt)" ]; then
    fail "-halo nccl without a way wrote files"
  else
    echo "ok: -halo nccl refused in one line: $(grep -m1 -o 'nccl: .*' nonccl/err.txt)"
  fi
fi

# Too few planes for the processes: one line, exit 1, nothing written.
mkdir -p small && (cd small && mpi 9 "$exe" -shape 8,8,8 -impl cpu run > out.txt 2> err.txt); rc=$?
[ $rc -ne 0 ] || fail "8 planes over 9 processes was not refused"
grep -q "awave: error: nx = 8 planes cannot be shared by 9 MPI processes" small/err.txt || fail "no clear error: $(head -2 small/err.txt)"
[ -z "$(ls small | grep -v -e out.txt -e err.txt)" ] || fail "the refused run wrote files"
echo "ok: 8 planes over 9 processes refused"

# The comparison is not blind: a run with another dt differs.
"$exe" -shape 10,12,7 -nsteps 7 -out_period 3 -dt 0.001 -impl cpu other > other.txt 2>&1
if h5diff -r p1_10x12x7_fused.cpu.vtkhdf other.cpu.vtkhdf > /dev/null 2>&1; then fail "h5diff missed a different run"; else echo "ok: h5diff catches a different run"; fi

echo "$failures failures"
[ $failures -eq 0 ]
