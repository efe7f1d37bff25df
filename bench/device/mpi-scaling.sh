#!/usr/bin/env bash
# awave over MPI on the GPUs of one machine (through on-device.sh, an MPI build staged): 1. checks: BUILD's GPU
# implementations on 2 and 4 processes (4 share 2 GPUs) at 97x61x33 against the threaded CPU reference (itself
# distributed), fused and split steps; 2. weak scaling, 1024^3 a GPU, and strong, 1024^3 over 1, 2 (and 4) GPUs,
# -no_check -no_output; 3. BIG=1: 2048^3 over 2 GPUs, a grid no single GPU holds. JSON a run in OUT_DIR.
# MPIRUN_ARGS: more mpirun options; ONLY=scaling: no checks; HALO=mpi|nccl: -halo, and the runs of several
# processes named NAME_npP_HALO; COUNTS: GPU counts of the scaling runs; STEPS (30, chunks of 10); SLAB=1: each
# strong run's slab alone on one GPU too. AWAVE_NCCL_ORDER=host reaches every process.
#   bench/device/mpi-scaling.sh OUT_DIR BUILD
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
out=${1:?usage: mpi-scaling.sh OUT_DIR BUILD}
build=${2:?usage: mpi-scaling.sh OUT_DIR BUILD}
mkdir -p "$out"
exe=$PWD/build/$build/src/awave
gpus=$(nvidia-smi -L | wc -l)
cores=$(nproc)
record_machine "$out/gpu-$build.txt"
run() {  # run NAME NP ARGS...: mpirun with one process per GPU (or more), JSON to OUT_DIR/NAME.json
  local name=$1 np=$2; shift 2
  [ "$np" -gt 1 ] && [ -n "${HALO:-}" ] && name+="_$HALO"
  OMP_NUM_THREADS=$((cores / np)) timeout 300 mpirun -np "$np" --oversubscribe --bind-to none ${MPIRUN_ARGS:-} \
    -x OMP_NUM_THREADS -x OMP_TARGET_OFFLOAD -x AWAVE_FUSED_STEP_POINTS -x AWAVE_NCCL_ORDER -x LD_LIBRARY_PATH \
    "$exe" "$@" ${HALO:+-halo "$HALO"} -json "$out/$name.json" > "$out/$name.txt" 2>&1
  local rc=$?
  echo "$name rc=$rc $(grep -E "$AWAVE_LINE_VERDICT" "$out/$name.txt") $(grep -E 'SU/s|MPI processes \(' "$out/$name.txt" | tr -s ' ' | tr '\n' ' ' | cut -c1-400)"
}
export AWAVE_FUSED_STEP_POINTS= AWAVE_NCCL_ORDER=${AWAVE_NCCL_ORDER:-}
[ "${ONLY:-}" = scaling ] || for np in 2 4; do
  for plan in fused split; do
    if [ $plan = split ]; then AWAVE_FUSED_STEP_POINTS=0; else AWAVE_FUSED_STEP_POINTS=2097152; fi
    run "check_${build}_np${np}_$plan" "$np" -shape 97,61,33 -nsteps 7 -out_period 3 \
      -reference cpu-openmp -no_output
  done
done
AWAVE_FUSED_STEP_POINTS=2097152  # the default
counts=(1 2); [ "$gpus" -ge 4 ] && counts+=(4)
[ -n "${COUNTS:-}" ] && read -ra counts <<< "$COUNTS"
steps=${STEPS:-30}
for np in "${counts[@]}"; do
  [ "${ONLY:-}" = scaling ] && [ "$np" = 1 ] && [ -n "${MPIRUN_ARGS:-}" ] && continue
  run "weak_${build}_np${np}" "$np" -shape $((1024 * np)),1024,1024 -nsteps "$steps" -out_period 10 -no_check -no_output
  [ "$np" -gt 1 ] && run "strong_${build}_np${np}" "$np" -shape 1024,1024,1024 -nsteps "$steps" -out_period 10 -no_check -no_output
  # The strong run's slab alone on one GPU: what the exchange and the split step cost, apart.
  [ "$np" -gt 1 ] && [ "${SLAB:-0}" = 1 ] && HALO= run "slab_${build}_np${np}" 1 -shape $((1024 / np)),1024,1024 \
    -nsteps "$steps" -out_period 10 -no_check -no_output
done
if [ "${BIG:-0}" = 1 ] && [ "$gpus" -ge 2 ]; then
  run "big_${build}_np2" 2 -shape 2048,2048,2048 -nsteps 20 -out_period 10 ${BIG_IMPLS:+-impl "$BIG_IMPLS"} -no_check -no_output
fi
