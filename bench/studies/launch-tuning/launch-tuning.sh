#!/usr/bin/env bash
# Launch and code-generation variants on the GPU machine (through on-device.sh), unchecked
# (none changes the arithmetic; gpu-checks.sh and the sweep check the defaults): fused steps
# against three kernels per step, CUDA graphs on and off, OpenMP nowait and team size,
# OpenMP offload with and without device LTO (build openmptarget-nolto), and devbench for
# each offload build. Prints median time per step (small grids) or best SU/s (512^3).
# As run for bench/results/h100-2026-11-22/tuning, on builds of e5bbec8: AWAVE_OMP_NOWAIT
# existed only there (asynchronous regions gave wrong results and were removed), so later
# builds ignore it and its pairs of runs measure the same code; openmptarget-nolto is
# `cmake --preset openmptarget -B build/openmptarget-nolto -DAWAVE_OFFLOAD_LTO=OFF`.
#   bench/studies/launch-tuning/launch-tuning.sh OUT_DIR
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../device/common.sh"
out=${1:?usage: launch-tuning.sh OUT_DIR}
mkdir -p "$out"
log=$out/launch-tuning.log
run() {  # run BUILD IMPL SHAPE NSTEPS [VAR=VALUE ...]
  local build=$1 impl=$2 shape=$3 nsteps=$4
  shift 4
  local name="${build}_${impl}_${shape//,/x}_$(echo "$*" | tr ' =' '_-')"
  env "$@" "build/$build/src/awave" -shape "$shape" -nsteps "$nsteps" -out_period 20 -no_output -no_check \
    -impl "$impl" -json "$out/$name.json" > "$out/$name.txt" 2>&1
  python3 - "$out/$name.json" "$build $impl $shape $*" <<'PY' | tee -a "$log"
import json, sys
try:
    r = json.load(open(sys.argv[1]))["implementations"][0]
    per_step = sorted(t / n for t, n in zip(r["chunk_seconds"], r["chunk_steps"]))
    print(f"{sys.argv[2]:70s} median {per_step[len(per_step) // 2] * 1e6:9.2f} us/step  best {r['best_su_per_s']:.3e} SU/s")
except Exception as e:
    print(f"{sys.argv[2]:70s} FAILED ({e})")
PY
}
for b in openmptarget openmptarget-nolto cuda; do
  [ -x build/$b/bench/awave-devbench ] && { echo "== devbench $b"; build/$b/bench/awave-devbench | tee "$out/devbench-$b.json"; } >> "$log"
done
for shape in 32,32,32 64,64,64 96,96,96 128,128,128; do
  for impl in cuda kokkos-cuda; do
    run cuda $impl $shape 200 AWAVE_FUSED_STEP_POINTS=0 AWAVE_CUDA_GRAPHS=0
    run cuda $impl $shape 200 AWAVE_FUSED_STEP_POINTS=0
    run cuda $impl $shape 200 AWAVE_FUSED_STEP_POINTS=10000000
  done
  for impl in omp kokkos-openmptarget; do
    run openmptarget $impl $shape 100 AWAVE_FUSED_STEP_POINTS=0 AWAVE_OMP_NOWAIT=0
    run openmptarget $impl $shape 100 AWAVE_FUSED_STEP_POINTS=0
    run openmptarget $impl $shape 100 AWAVE_FUSED_STEP_POINTS=10000000 AWAVE_OMP_NOWAIT=0
    run openmptarget $impl $shape 100 AWAVE_FUSED_STEP_POINTS=10000000
  done
done
for b in openmptarget openmptarget-nolto; do
  for impl in omp kokkos-openmptarget; do
    for threads in 128 256 512; do run $b $impl 512,512,512 40 AWAVE_OMP_THREADS=$threads; done
  done
done
for impl in cuda kokkos-cuda; do run cuda $impl 512,512,512 40; run cuda $impl 1000,1000,1000 20; done
