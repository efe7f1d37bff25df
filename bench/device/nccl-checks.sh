#!/usr/bin/env bash
# The GPU-to-GPU halo exchange (NCCL) on the GPUs of one machine (through on-device.sh, the GPU
# MPI builds staged). For each BUILD:
#  - 2 or more GPUs: tests/mpi_check.sh with -halo nccl on 2 .. min(4, GPUs) processes (every
#    file h5diff-identical to the single-process file, fused and split steps, shapes up to
#    NCCL_CHECK_BIG, default 256,192,160; a stopped process times out with one line), the GPU implementation's log line naming NCCL and its order; where the
#    order is on the GPU, a planted fault (AWAVE_TEST_FAULT_NCCL_UNORDERED) that leaves its waits out
#    must make the files differ;
#  - 1 GPU: processes sharing it fall back to host memory and MPI (saying why) and still give
#    the single-process files; -halo nccl is refused in one line; with the planted fault that
#    lets them reach NCCL anyway, NCCL's own refusal ends the run in one line, exit 3, no hang.
# Logs and a summary into OUT_DIR.
#   bench/device/nccl-checks.sh OUT_DIR [BUILD ...]   (default: cuda-mpi openmptarget-mpi)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
out=${1:?usage: nccl-checks.sh OUT_DIR [BUILD ...]}
shift
builds=("$@"); [ ${#builds[@]} -gt 0 ] || builds=(cuda-mpi openmptarget-mpi)
mkdir -p "$out"; out=$(cd "$out" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
gpus=$(nvidia-smi -L | wc -l)
record_machine "$out/machine.txt"
{ nvidia-smi topo -m 2>/dev/null; ls -l /usr/lib/x86_64-linux-gnu/libnccl.so* 2>&1; } >> "$out/machine.txt"
status=0
note() { echo "$*" | tee -a "$out/summary.txt"; }
for b in "${builds[@]}"; do
  exe=$PWD/build/$b/src/awave
  gpu_impl=$("$exe" -list | awk '$1 == "cuda" || $1 == "omp" {print $1; exit}')
  w=/tmp/nccl-$b; rm -rf "$w"; mkdir -p "$w"
  if [ "$gpus" -ge 2 ]; then
    nps=$(seq -s ' ' 2 $((gpus < 4 ? gpus : 4)))
    HALO=nccl STALL_IMPL=$gpu_impl SHAPES="10,12,7 61,23,19 97,61,33 ${NCCL_CHECK_BIG:-256,192,160}" NPS="$nps" timeout 400 \
      bash tests/mpi_check.sh "$exe" "$w/check" > "$out/mpi_check_nccl_$b.log" 2>&1 || status=1
    note "$b: mpi_check -halo nccl on $nps processes: $(grep -c '^ok' "$out/mpi_check_nccl_$b.log") ok, $(tail -1 "$out/mpi_check_nccl_$b.log")"
    grep -h "halo exchange:" "$w"/check/p2_*.txt 2>/dev/null | sort | uniq -c | tee -a "$out/summary.txt"
    # The check's power over the GPU order: with its two event waits left out (a planted fault),
    # the files of 2 processes must differ from 1 process's.
    if grep -qh "ordered on the GPU" "$w"/check/p2_*.txt 2>/dev/null; then
      gpu_ordered=$(grep -h "ordered on the GPU" "$w"/check/p2_*.txt | awk -F'[][]' '{print $2}' | sort -u | paste -sd,)
      (cd "$w" && export AWAVE_FUSED_STEP_POINTS=0 AWAVE_TEST_FAULT_NCCL_UNORDERED=1 &&
         timeout 120 "$exe" -shape 256,192,160 -nsteps 40 -out_period 20 -impl "$gpu_ordered" -no_check one > one.txt 2>&1 &&
         timeout 120 mpirun -np 2 --oversubscribe -x AWAVE_FUSED_STEP_POINTS -x AWAVE_TEST_FAULT_NCCL_UNORDERED \
           -x LD_LIBRARY_PATH "$exe" -shape 256,192,160 -nsteps 40 -out_period 20 -impl "$gpu_ordered" \
           -halo nccl -reference cpu-openmp unordered > unordered.txt 2>&1)
      cp "$w/one.txt" "$out/${b}_unordered_one.txt"; cp "$w/unordered.txt" "$out/${b}_unordered.txt"
      for id in ${gpu_ordered//,/ }; do
        if [ ! -e "$w/unordered.$id.vtkhdf" ]; then
          note "$b: planted unordered exchange, $id: no file ($(tail -1 "$w/unordered.txt"))"; status=1
        else
          # awave -compare: 2 the files differ (the fault caught), 0 equal, 1 they could not be compared.
          "$exe" -compare "$w/one.$id.vtkhdf" "$w/unordered.$id.vtkhdf" > "$out/${b}_unordered_compare_$id.txt" 2>&1
          case $? in
            2) note "$b: planted unordered exchange, $id: caught (the files differ: $(cut -c1-200 "$out/${b}_unordered_compare_$id.txt"); $(grep -E '^(PASS|FAIL)' "$w/unordered.txt" | cut -c1-100))" ;;
            0) note "$b: planted unordered exchange, $id: NOT caught (the files are equal)"; status=1 ;;
            *) note "$b: planted unordered exchange, $id: not compared ($(tail -1 "$out/${b}_unordered_compare_$id.txt"))"; status=1 ;;
          esac
        fi
      done
    fi
  else
    (cd "$w" && timeout 120 mpirun -np 2 --oversubscribe -x OMP_TARGET_OFFLOAD -x LD_LIBRARY_PATH "$exe" \
       -shape 61,23,19 -nsteps 7 -out_period 3 -reference cpu-openmp fallback > fallback.txt 2>&1); rc=$?
    note "$b: 2 processes on 1 GPU, default path: rc=$rc, $(grep -E '^(PASS|FAIL)' "$w/fallback.txt")"
    grep "halo exchange:" "$w/fallback.txt" | tee -a "$out/summary.txt"
    grep -q "not NCCL: 2 processes on a node with 1 GPU" "$w/fallback.txt" || { note "$b: no fallback line"; status=1; }
    (cd "$w" && timeout 120 mpirun -np 2 --oversubscribe -x OMP_TARGET_OFFLOAD -x LD_LIBRARY_PATH "$exe" \
       -shape 61,23,19 -nsteps 7 -out_period 3 -impl "$gpu_impl" -halo nccl refused > refused.txt 2>&1); rc=$?
    note "$b: -halo nccl, 2 processes on 1 GPU: rc=$rc: $(grep -m1 'error' "$w/refused.txt")"
    [ $rc -eq 1 ] || status=1
    start=$SECONDS
    (cd "$w" && AWAVE_TEST_FAULT_NCCL_SHARED_GPU=1 timeout 300 mpirun -np 2 --oversubscribe -x AWAVE_TEST_FAULT_NCCL_SHARED_GPU \
       -x OMP_TARGET_OFFLOAD -x LD_LIBRARY_PATH "$exe" -shape 61,23,19 -nsteps 7 -out_period 3 -impl "$gpu_impl" \
       -halo nccl -halo_timeout 20 planted > planted.txt 2>&1); rc=$?
    note "$b: planted shared GPU, -halo nccl: rc=$rc after $((SECONDS - start)) s: $(grep -m1 'awave: error' "$w/planted.txt")"
    [ $rc -ne 0 ] && [ $rc -ne 124 ] || status=1
    (cd "$w" && AWAVE_TEST_FAULT_NCCL_SHARED_GPU=1 timeout 300 mpirun -np 2 --oversubscribe -x AWAVE_TEST_FAULT_NCCL_SHARED_GPU \
       -x OMP_TARGET_OFFLOAD -x LD_LIBRARY_PATH "$exe" -shape 61,23,19 -nsteps 7 -out_period 3 -impl "$gpu_impl" \
       -halo_timeout 20 -reference cpu-openmp planted_default > planted_default.txt 2>&1); rc=$?
    note "$b: planted shared GPU, default path: rc=$rc, $(grep -E '^(PASS|FAIL)' "$w/planted_default.txt")"
    grep "halo exchange:" "$w/planted_default.txt" | tee -a "$out/summary.txt"
    for f in "$w"/*.txt; do cp "$f" "$out/${b}_$(basename "$f")"; done
  fi
  rm -rf "$w"
done
note "status $status"
exit $status
