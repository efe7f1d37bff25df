#!/usr/bin/env bash
# The GPU-to-GPU halo exchange (NCCL) on the GPUs of one machine (through on-device.sh, GPU MPI builds staged).
# 2 or more GPUs: tests/tools/mpi_check.sh with -halo nccl on 2 .. min(4, GPUs) processes (shapes up to NCCL_CHECK_BIG,
# default 256,192,160), the log line naming NCCL and its order; where the order is on the GPU, a planted fault
# leaving its waits out (AWAVE_TEST_FAULT_NCCL_UNORDERED) must make the files differ. 1 GPU: processes sharing it
# fall back to host memory and MPI (saying why) with the same files; -halo nccl is refused in one line; with the
# planted fault that lets them reach NCCL anyway, NCCL's refusal ends the run in one line, no hang.
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
two_on_one() {  # NAME SECONDS ARGS...: 2 processes sharing the one GPU, at 61x23x19, in $w; sets rc
  local pass=(-x OMP_TARGET_OFFLOAD -x LD_LIBRARY_PATH)
  [ -n "${AWAVE_TEST_FAULT_NCCL_SHARED_GPU:-}" ] && pass+=(-x AWAVE_TEST_FAULT_NCCL_SHARED_GPU)
  (cd "$w" && timeout "$2" mpirun -np 2 --oversubscribe "${pass[@]}" "$exe" -shape 61,23,19 -nsteps 7 -out_period 3 \
     "${@:3}" "$1" > "$1.txt" 2>&1)
  rc=$?
}
for b in "${builds[@]}"; do
  exe=$PWD/build/$b/src/awave
  gpu_impl=$("$exe" -list | awk '$1 == "cuda" || $1 == "omp" {print $1; exit}')
  w=/tmp/nccl-$b; rm -rf "$w"; mkdir -p "$w"
  if [ "$gpus" -ge 2 ]; then
    nps=$(seq -s ' ' 2 $((gpus < 4 ? gpus : 4)))
    HALO=nccl STALL_IMPL=$gpu_impl SHAPES="10,12,7 61,23,19 97,61,33 ${NCCL_CHECK_BIG:-256,192,160}" NPS="$nps" timeout 400 \
      bash tests/tools/mpi_check.sh "$exe" "$w/check" > "$out/mpi_check_nccl_$b.log" 2>&1 || status=1
    note "$b: mpi_check -halo nccl on $nps processes: $(grep -c '^ok' "$out/mpi_check_nccl_$b.log") ok, $(tail -1 "$out/mpi_check_nccl_$b.log")"
    grep -h "halo exchange:" "$w"/check/p2_*.txt 2>/dev/null | sort | uniq -c | tee -a "$out/summary.txt"
    # The check's power over the GPU order: with its event waits left out, 2 processes' files must differ.
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
            2) note "$b: planted unordered exchange, $id: caught (the files differ: $(cut -c1-200 "$out/${b}_unordered_compare_$id.txt"); $(grep -E "$AWAVE_LINE_VERDICT" "$w/unordered.txt" | cut -c1-100))" ;;
            0) note "$b: planted unordered exchange, $id: NOT caught (the files are equal)"; status=1 ;;
            *) note "$b: planted unordered exchange, $id: not compared ($(tail -1 "$out/${b}_unordered_compare_$id.txt"))"; status=1 ;;
          esac
        fi
      done
    fi
  else
    two_on_one fallback 120 -reference cpu-openmp
    note "$b: 2 processes on 1 GPU, default path: rc=$rc, $(grep -E "$AWAVE_LINE_VERDICT" "$w/fallback.txt")"
    grep "halo exchange:" "$w/fallback.txt" | tee -a "$out/summary.txt"
    grep -q "not NCCL: 2 processes on a node with 1 GPU" "$w/fallback.txt" || { note "$b: no fallback line"; status=1; }
    two_on_one refused 120 -impl "$gpu_impl" -halo nccl
    note "$b: -halo nccl, 2 processes on 1 GPU: rc=$rc: $(grep -m1 'error' "$w/refused.txt")"
    [ $rc -eq 1 ] || status=1
    start=$SECONDS
    AWAVE_TEST_FAULT_NCCL_SHARED_GPU=1 two_on_one planted 300 -impl "$gpu_impl" -halo nccl -halo_timeout 20
    note "$b: planted shared GPU, -halo nccl: rc=$rc after $((SECONDS - start)) s: $(grep -m1 'awave: error' "$w/planted.txt")"
    [ $rc -ne 0 ] && [ $rc -ne 124 ] || status=1
    AWAVE_TEST_FAULT_NCCL_SHARED_GPU=1 two_on_one planted_default 300 -impl "$gpu_impl" -halo_timeout 20 -reference cpu-openmp
    note "$b: planted shared GPU, default path: rc=$rc, $(grep -E "$AWAVE_LINE_VERDICT" "$w/planted_default.txt")"
    grep "halo exchange:" "$w/planted_default.txt" | tee -a "$out/summary.txt"
    for f in "$w"/*.txt; do cp "$f" "$out/${b}_$(basename "$f")"; done
  fi
  rm -rf "$w"
done
note "status $status"
exit $status
