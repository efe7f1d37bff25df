#!/usr/bin/env bash
# The GPU acceptance runs, on the GPU machine (through on-device.sh): for each GPU build, the
# gpu-labelled tests, awave on the required shapes (every implementation checked against the
# CPU reference, OpenMP forced onto the GPU) and the 512^3 performance runs. Logs and JSON go
# to OUT_DIR.
#   bench/device/gpu-checks.sh OUT_DIR [BUILD ...]   (default: cuda openmptarget)
set -uo pipefail
out=${1:?usage: gpu-checks.sh OUT_DIR [BUILD ...]}
shift
builds=("$@"); [ ${#builds[@]} -gt 0 ] || builds=(cuda openmptarget)
mkdir -p "$out"
export OMP_TARGET_OFFLOAD=MANDATORY OMP_NUM_THREADS=16 OMP_PROC_BIND=spread
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"
status=0
for b in "${builds[@]}"; do
  exe=$PWD/build/$b/src/awave
  log=$out/$b.log
  echo "== $b: gpu tests" | tee -a "$log"
  (cd "build/$b" && ctest -L 'gpu|unit|cli' --output-on-failure -j4) >> "$log" 2>&1 || status=1
  tail -3 "$log"
  for shape in 32,32,32 64,64,64 128,128,128 256,256,256 512,512,512 1000,64,1000 97,61,33 8,8,1; do
    for steps in "6 3" "7 3"; do  # out_period dividing and not dividing nsteps
      set -- $steps
      name=${b}_${shape//,/x}_n$1_p$2
      "$exe" -shape "$shape" -nsteps "$1" -out_period "$2" -no_output -json "$out/$name.json" > "$out/$name.txt" 2>&1
      rc=$?; [ $rc -eq 0 ] || status=1
      echo "$name rc=$rc $(grep -E '^(PASS|FAIL)' "$out/$name.txt")" | tee -a "$log"
    done
  done
  echo "== $b: output files on 40,24,64" | tee -a "$log"
  (mkdir -p "$out/files-$b" && cd "$out/files-$b" && "$exe" -shape 40,24,64 -nsteps 50 -out_period 7 > run.txt 2>&1; echo "rc=$? $(grep -E '^(PASS|FAIL)' run.txt) $(ls | tr '\n' ' ')") | tee -a "$log"
  rm -f "$out/files-$b"/*.vtkhdf
  echo "== $b: performance 512^3, 40 steps in chunks of 10, checked" | tee -a "$log"
  for rep in 1 2; do
    "$exe" -shape 512,512,512 -nsteps 40 -out_period 10 -no_output -json "$out/${b}_perf512_rep$rep.json" > "$out/${b}_perf512_rep$rep.txt" 2>&1 || status=1
    grep -E '^\[|SU/s|check' "$out/${b}_perf512_rep$rep.txt" | tee -a "$log"
  done
done
exit $status
