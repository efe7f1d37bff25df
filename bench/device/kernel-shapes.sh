#!/usr/bin/env bash
# Kernel shapes before a sweep (on the GPU machine, through on-device.sh): the OpenMP-offload
# step shapes of bench/omp_stencil_shapes.cpp (one-region, split, unrolled, pairs, restrict, batched) at 512^3 and
# 1000^3; Kokkos-CUDA's flat marching kernel (AWAVE_KOKKOS_MARCH_PLANE_BYTES=0) against its
# MDRange kernels, per segment; hand CUDA's block shape and segment (AWAVE_CUDA_BLOCK); the
# product's hand omp and Kokkos-OMPT. Timed runs unchecked (no launch shape changes the
# arithmetic: the shapes benchmark compares bits, the sweeps check the product); one checked
# run of the Kokkos-CUDA march. Best chunk SU/s per setting into OUT_DIR/shapes.log.
#   bench/device/kernel-shapes.sh OUT_DIR
# (At ea50177, which made results/h200-2026-11-23/kernel-shapes, it also ran hand CUDA with
# AWAVE_CUDA_RESTRICT=0|1, an interior kernel with restrict parameters, since removed.)
set -uo pipefail
out=${1:?usage: kernel-shapes.sh OUT_DIR}
mkdir -p "$out"
export OMP_TARGET_OFFLOAD=MANDATORY
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt"
for n in 512 1000; do
  timeout 150 build/openmptarget/bench/awave-omp-shapes $((n + 2)) 30 one-region,split,unrolled,pairs,restrict,batched |
    tee -a "$out/omp-shapes.jsonl"
done
run() {  # run BUILD IMPL SIZE "VAR=VALUE ..." [checked]
  local build=$1 impl=$2 size=$3 setting=$4 check=-no_check
  [ "${5:-}" = checked ] && check=
  env $setting timeout 120 "build/$build/src/awave" -shape "$size,$size,$size" -nsteps 20 -out_period 5 \
    -no_output $check -impl "$impl" > "$out/run.txt" 2>&1
  printf '%-20s %-5s %-60s %s best %s SU/s\n' "$impl" "$size" "$setting" "${check:-checked}" \
    "$(awk '/^  SU\/s/{print $5}' "$out/run.txt")" | tee -a "$out/shapes.log"
  [ -n "$check" ] || grep -E 'PASS|FAIL|differ' "$out/run.txt" | tee -a "$out/shapes.log"
}
# Most telling first (a run cut short by the call's time limit loses the least).
for size in 512 1000; do run cuda cuda $size AWAVE_CUDA_BLOCK=; done
run cuda kokkos-cuda 192 AWAVE_KOKKOS_MARCH_PLANE_BYTES=0 checked
for size in 512 768 1000; do
  run cuda kokkos-cuda $size AWAVE_KOKKOS_MARCH_PLANE_BYTES=
  for seg in 8 16 32; do
    run cuda kokkos-cuda $size "AWAVE_KOKKOS_MARCH_PLANE_BYTES=0 AWAVE_KOKKOS_SEGMENT=$seg"
  done
done
for size in 512 1000; do
  run openmptarget omp $size AWAVE_OMP_SEGMENT=16
  run openmptarget kokkos-openmptarget $size AWAVE_KOKKOS_SEGMENT=16
done
for size in 512 1000; do
  for b in 32,8,4 32,8,16 32,8,32 64,4,16 32,16,16; do run cuda cuda $size AWAVE_CUDA_BLOCK=$b; done
done
