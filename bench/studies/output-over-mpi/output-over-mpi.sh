#!/usr/bin/env bash
# Output over MPI (issue 54; docs/mpi.md, "Output over MPI and OMPIO"), on a machine of several GPUs
# through on-device.sh, an MPI build staged. Each part writes as it goes; a part's verdict is its
# summary line ("PASS"/"FAIL") in OUT_DIR/summary.txt, and the script exits 1 if any part failed.
#  repro: the issue's run, OMP_NUM_THREADS=16 mpirun -np 4 awave -shape 1024,260,250 -nsteps 31
#         -out_period 10 -impl cpu-openmp: first through OMPIO as 43d814e wrote (AWAVE_TEST_FAULT_OMPIO,
#         3 tries: the crash is expected, and counted), then REPEAT (10) times as awave chooses; each
#         must exit 0 with PASS, and every file it wrote verify (-verify) and equal one process's
#         (same_as). A crash, a hang (the time limit) or a file that differs fails the part.
#         REPRO_LAYER (default: awave's choice) names the layer of those 10 (layer_env), PLANTED the tries.
#  io:    the output's speed where OMPIO worked, LAYERS (default vulcan) interleaved, ROUNDS (3) rounds:
#         2 processes of cpu-openmp at 1024x260x250 (the issue: no crash with 2), and the GPU codes on
#         every GPU at 1024x512x256 (hand CUDA: its halos through NCCL; IO_GPU=0 leaves it out);
#         "written ... at G GB/s of wall".
#  soak:  the build's implementations over 2-4 processes, snapshots and checkpoints, double and
#         single precision, up to 1024^3 and 2048x512x512 (SOAK_BIG=0 leaves those two out): every
#         file verifies and equals the one-process run's (same_as).
#         SOAK_ONLY="NAME ..." runs those of the plan below, in that order; none starts after DEADLINE
#         (480) seconds. SOAK_CORES (nproc) is the cores its processes share: two soaks side by side
#         (one per build) take half each.
#   [PARTS="repro io soak"] [REPEAT=10] [ROUNDS=3] bench/studies/output-over-mpi/output-over-mpi.sh OUT_DIR [BUILD]
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../device/common.sh"
out=${1:?usage: output-over-mpi.sh OUT_DIR [BUILD]}
build=${2:-cuda-mpi}
mkdir -p "$out" && out=$(cd "$out" && pwd)
exe=$PWD/build/$build/src/awave
work=${AWAVE_WORK:-/tmp/awave-output-over-mpi}
rm -rf "$work" && mkdir -p "$work"
# No OMP_PROC_BIND: under mpirun --bind-to none every process would bind its threads (the writer
# thread inherits the main thread's core) to the same cores; with OMP_PROC_BIND=spread OMP_PLACES=threads
# the 4-process runs waited minutes for their writers, whatever the MPI-IO layer
# (bench/results/h200x4-2026-11-26/output-over-mpi-403240c, calls a and b).
unset OMP_PROC_BIND OMP_PLACES
gpus=$(nvidia-smi -L | grep -c '^GPU')
record_machine "$out/machine-$build.txt"
df -h "$work" | tail -1 >> "$out/machine-$build.txt"
summary() { echo "$*" | tee -a "$out/summary.txt"; }
status=0

# mpirun of awave, TIME seconds at most: mpi NAME NP TIME [VAR=VALUE ...] -- ARGS...; its status.
mpi() {
  local name=$1 np=$2 limit=$3; shift 3
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  local exports=(-x LD_LIBRARY_PATH -x OMP_TARGET_OFFLOAD)
  for e in "${envs[@]}"; do exports+=(-x "${e%%=*}"); done  # (an unset variable is not passed: no empty fault)
  (cd "$work" && env "${envs[@]}" timeout "$limit" mpirun -np "$np" --oversubscribe --bind-to none "${exports[@]}" \
     "$exe" -json "$out/$name.json" "$@" > "$out/$name.txt" 2>&1)
}
# Every file a run wrote verifies: verified PREFIX; prints what did not. The files are checked side
# by side (a soak run writes up to six files of 3 GB; one after another took most of a call).
verified() {
  local files=("$work/$1".*.vtkhdf)
  [ -e "${files[0]}" ] || { echo "no file"; return 1; }
  for f in "${files[@]}"; do
    ( "$exe" -verify "$f" > "$f.verify.txt" 2>&1 || echo -n "$(basename "$f"): $(tail -1 "$f.verify.txt"); " ) &
  done
  wait
}
# Each file of run OTHER equals run FIRST's (same_as FIRST OTHER): awave -compare, which verifies
# both files and compares every snapshot, checkpoint and static array (by their plane checksums,
# reading values only where they differ), whatever their size; h5diff -r took minutes above 1 GB
# (issue 71). Prints what differs or could not be compared; side by side.
same_as() {
  for f in "$work/$1".*.vtkhdf; do
    local g=${f/$1./$2.}
    ( "$exe" -compare "$f" "$g" > "$g.compare.txt" 2>&1 || echo -n "$(basename "$g"): $(cut -c1-300 "$g.compare.txt"); " ) &
  done
  wait
}
# The MPI-IO layer of a run, as environment assignments: default (what awave chooses), vulcan
# (OMPIO's default collective writes, as 43d814e wrote), gen2 (OMPIO, fcoll dynamic_gen2), romio.
layer_env() {
  case $1 in
    default) echo "" ;;
    vulcan) echo "AWAVE_TEST_FAULT_OMPIO=1" ;;
    gen2) echo "AWAVE_TEST_FAULT_OMPIO=1 OMPI_MCA_fcoll=dynamic_gen2" ;;
    romio) echo "OMPI_MCA_io=^ompio" ;;
    *) echo "output-over-mpi: no layer $1" >&2; exit 2 ;;
  esac
}
crash_words() { grep -o -m1 -E 'malloc[^ ]*\(\)[^\n]*|corrupted [a-z-]+( list)?|free\(\)[^\n]*|signal [0-9]+|Segmentation fault|Aborted' "$1" | head -1; }

if [[ " ${PARTS:-repro io soak} " == *" repro "* ]]; then
  repro=(-shape 1024,260,250 -nsteps 31 -out_period 10 -impl cpu-openmp)
  caught=0
  read -r -a planted <<< "$(layer_env vulcan)"
  for try in $(seq "${PLANTED:-3}"); do
    mpi "repro-ompio_$try" 4 150 OMP_NUM_THREADS=16 "${planted[@]}" -- "${repro[@]}" "repro-ompio_$try"; rc=$?
    summary "repro through OMPIO (planted, 43d814e's choice) $try: exit $rc $(crash_words "$out/repro-ompio_$try.txt")"
    rm -f "$work"/repro-ompio_*
    [ $rc -ne 0 ] && caught=$((caught + 1))
  done
  read -r -a layer <<< "$(layer_env "${REPRO_LAYER:-default}")"
  mpi "repro_p1" 1 200 OMP_NUM_THREADS=16 -- "${repro[@]}" "repro_p1" ||
    summary "repro: the one-process run failed: $(tail -1 "$out/repro_p1.txt")"
  ok=0
  for run in $(seq "${REPEAT:-10}"); do
    mpi "repro_$run" 4 150 OMP_NUM_THREADS=16 "${layer[@]}" -- "${repro[@]}" "repro_$run"; rc=$?
    bad="$(verified "repro_$run")$(same_as repro_p1 "repro_$run")"
    verdict=$(grep -m1 -E "$AWAVE_LINE_VERDICT" "$out/repro_$run.txt")
    [ $rc -eq 0 ] && [[ $verdict == PASS* ]] && [ -z "$bad" ] && ok=$((ok + 1))
    summary "repro $run: exit $rc, ${verdict:0:60} $(crash_words "$out/repro_$run.txt") ${bad:+files: $bad}"
    rm -f "$work"/repro_[0-9]*
  done
  rm -f "$work"/repro_p1.*
  verdict=PASS; [ $ok -eq "${REPEAT:-10}" ] || { verdict=FAIL; status=1; }
  summary "repro: $verdict: $ok of ${REPEAT:-10} runs (${REPRO_LAYER:-default}) passed, every file verified and equal to one process's; through OMPIO $caught of ${PLANTED:-3} failed"
fi

if [[ " ${PARTS:-repro io soak} " == *" io "* ]]; then
  for round in $(seq "${ROUNDS:-3}"); do
    for layer in ${LAYERS:-default vulcan}; do
      read -r -a env_of_layer <<< "$(layer_env "$layer")"
      mpi "io-cpu-$layer-r$round" 2 150 OMP_NUM_THREADS=16 "${env_of_layer[@]}" -- -shape 1024,260,250 -nsteps 31 \
        -out_period 10 -impl cpu-openmp -no_check "io-cpu-$layer"
      summary "io cpu-openmp np 2 $layer r$round: exit $? $(grep -m1 -o -E "$AWAVE_LINE_WRITTEN" "$out/io-cpu-$layer-r$round.txt")"
      rm -f "$work"/io-cpu-*
      [ "${IO_GPU:-1}" = 1 ] || continue
      mpi "io-gpu-$layer-r$round" "$gpus" 150 "${env_of_layer[@]}" -- -shape 1024,512,256 -nsteps 30 -out_period 10 \
        -impl cuda -no_check "io-gpu-$layer"
      summary "io gpu np $gpus $layer r$round: exit $? $(grep -m1 -o -E "$AWAVE_LINE_WRITTEN" "$out/io-gpu-$layer-r$round.txt")"
      rm -f "$work"/io-gpu-*
    done
  done
fi

if [[ " ${PARTS:-repro io soak} " == *" soak "* ]]; then
  impls=$("$exe" -list | awk '$1 != "cpu" {printf "%s%s", sep, $1; sep=","}')
  gpu_impl=$("$exe" -list | awk '$1 == "cuda" || $1 == "omp" {print $1}')
  single="-snapshot_precision single -snapshot_fields u"
  # name | processes | arguments (every implementation of the build but the serial reference)
  plan=(
    "d1024|2 3 4|-shape 1024,260,250 -nsteps 30 -out_period 15"
    "s1024|2 3 4|-shape 1024,260,250 -nsteps 20 -out_period 5 -checkpoint_period 10 $single"
    "dmpi|2 3 4|-shape 512,260,250 -nsteps 16 -out_period 8 -halo mpi"
    "smpi|2 4|-shape 1024,260,250 -nsteps 21 -out_period 7 -checkpoint_period 14 $single -halo mpi"
    "d512|2 3 4|-shape 512,260,250 -nsteps 16 -out_period 8"
    "big2048|2 4|-shape 2048,512,512 -nsteps 6 -out_period 3 -checkpoint_period 6 $single"
    "big1024|4|-shape 1024,1024,1024 -nsteps 6 -out_period 3 -checkpoint_period 6 $single"
  )
  if [ -n "${SOAK_ONLY:-}" ]; then
    chosen=()
    for want in $SOAK_ONLY; do
      found=""
      for entry in "${plan[@]}"; do [ "${entry%%|*}" = "$want" ] && found=$entry; done
      [ -n "$found" ] || { echo "output-over-mpi: no soak entry $want" >&2; exit 2; }
      chosen+=("$found")
    done
    plan=("${chosen[@]}")
  fi
  cores=${SOAK_CORES:-$(nproc)}
  runs=0 passed=0 start=$SECONDS
  for entry in "${plan[@]}"; do
    IFS='|' read -r name nps args <<< "$entry"
    read -r -a argv <<< "$args"
    argv+=(-impl "$([[ $name == big* ]] && echo "$gpu_impl" || echo "$impls")" -no_check)
    if [ $((SECONDS - start)) -gt "${DEADLINE:-480}" ]; then summary "soak $name: not run (past DEADLINE)"; continue; fi
    # The one-process files: the reference of every process count.
    mpi "soak-$name-p1" 1 400 OMP_NUM_THREADS=$((cores < 16 ? cores : 16)) -- "${argv[@]}" "$name-p1" ||
      summary "soak $name: the one-process run failed: $(tail -1 "$out/soak-$name-p1.txt")"
    for np in $nps; do
      t0=$SECONDS
      mpi "soak-$name-p$np" "$np" 400 OMP_NUM_THREADS=$((cores / np)) -- "${argv[@]}" "$name-p$np"; rc=$?
      runs=$((runs + 1))
      bad="$(verified "$name-p$np")$(same_as "$name-p1" "$name-p$np")"
      [ $rc -eq 0 ] && [ -z "$bad" ] && passed=$((passed + 1))
      summary "soak $name np $np ($((SECONDS - t0)) s): exit $rc $(crash_words "$out/soak-$name-p$np.txt") $(ls "$work/$name-p$np".*.vtkhdf 2>/dev/null | wc -l) files verified and compared ($(du -sh "$work" | cut -f1) on disk) ${bad:+PROBLEM: $bad}"
      rm -f "$work/$name-p$np".*
    done
    rm -f "$work/$name-p1".*
  done
  verdict=PASS; [ $passed -eq $runs ] || { verdict=FAIL; status=1; }
  summary "soak $build${SOAK_ONLY:+ ($SOAK_ONLY)}: $verdict: $passed of $runs runs over MPI exited 0 with every file verified and equal to one process's"
fi
exit $status
