#!/usr/bin/env bash
# Kernel shapes before a sweep (on the GPU machine, through on-device.sh), in parts (PARTS, a
# comma-separated subset; default all), most telling first:
#   omp      the OpenMP-offload step shapes of bench/studies/omp-stencil-shapes/omp_stencil_shapes.cpp (SHAPES, default
#            one-region,unrolled,pairs,global) at 512^3 and 1000^3, each checked bitwise there;
#   kokkos   Kokkos-CUDA's idiomatic form (kokkos-cuda-mdrange: rank-3 MDRange kernels) against the
#            tuned form's flat march per segment (AWAVE_KOKKOS_SEGMENT), one march checked at 192^3;
#   product  the four GPU implementations as built, 512^3 and 1000^3;
#   teams    Kokkos-OMPT with OMP_TEAMS_THREAD_LIMIT 128 and 256, and the launch its kernels get
#            (LIBOMPTARGET_INFO=16: blocks and threads), beside hand omp's 128;
#   blocks   hand CUDA's block shape and segment (AWAVE_CUDA_BLOCK).
# Timed runs are unchecked (no launch shape changes the arithmetic; the sweeps check the product).
# Best chunk SU/s per setting into OUT_DIR/shapes.log. Wrap it in run-packed.sh on a device call.
#   [PARTS=...] [SHAPES=...] bench/studies/omp-stencil-shapes/kernel-shapes.sh OUT_DIR
# (At ea50177, which made results/h200-2026-11-23/kernel-shapes, it ran shapes one-region, split,
# unrolled, pairs, restrict, batched, and hand CUDA with AWAVE_CUDA_RESTRICT=0|1, an interior
# kernel with restrict parameters since removed; Kokkos-CUDA's default was then MDRange. Before
# f95a30d the MDRange kernels were chosen with AWAVE_KOKKOS_MARCH_PLANE_BYTES, as the older logs say.)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../device/common.sh"
out=${1:?usage: kernel-shapes.sh OUT_DIR}
parts=,${PARTS:-omp,kokkos,product,teams,blocks},
mkdir -p "$out"
record_machine "$out/gpu.txt"
run() {  # run BUILD IMPL SIZE "VAR=VALUE ..." [checked]
  local build=$1 impl=$2 size=$3 setting=$4 check=-no_check
  [ "${5:-}" = checked ] && check=
  env $setting timeout 120 "build/$build/src/awave" -shape "$size,$size,$size" -nsteps 20 -out_period 5 \
    -no_output $check -impl "$impl" > "$out/run.txt" 2>&1
  printf '%-20s %-5s %-60s %s best %s SU/s\n' "$impl" "$size" "$setting" "${check:-checked}" \
    "$(awk '/^  SU\/s/{print $5}' "$out/run.txt")" | tee -a "$out/shapes.log"
  [ -n "$check" ] || grep -E 'PASS|FAIL|differ' "$out/run.txt" | tee -a "$out/shapes.log"
}
if [[ $parts == *,omp,* ]]; then
  for n in 512 1000; do
    timeout 150 build/openmptarget/bench/awave-omp-shapes $((n + 2)) 30 "${SHAPES:-one-region,unrolled,pairs,global}" |
      tee -a "$out/omp-shapes.jsonl"
  done
fi
if [[ $parts == *,kokkos,* ]]; then
  run cuda kokkos-cuda 192 AWAVE_KOKKOS_SEGMENT= checked
  for size in 512 768 1000; do
    run cuda kokkos-cuda-mdrange $size AWAVE_KOKKOS_TILE=
    for seg in 8 16 32; do run cuda kokkos-cuda $size "AWAVE_KOKKOS_SEGMENT=$seg"; done
  done
fi
if [[ $parts == *,product,* ]]; then
  for size in 512 1000; do
    run cuda cuda $size AWAVE_CUDA_BLOCK=
    run cuda kokkos-cuda $size AWAVE_KOKKOS_SEGMENT=
    run openmptarget omp $size AWAVE_OMP_THREADS=
    run openmptarget kokkos-openmptarget $size AWAVE_KOKKOS_SEGMENT=
  done
fi
if [[ $parts == *,teams,* ]]; then
  for t in 128 256; do run openmptarget kokkos-openmptarget 512 OMP_TEAMS_THREAD_LIMIT=$t; done
  LIBOMPTARGET_INFO=16 timeout 60 build/openmptarget/src/awave -shape 256,256,256 -nsteps 2 -out_period 1 \
    -no_output -no_check -impl omp,kokkos-openmptarget 2>&1 | grep -E 'Launching kernel|\[' | sort | uniq -c |
    head -20 | tee -a "$out/launches.txt"
fi
if [[ $parts == *,blocks,* ]]; then
  for size in 512 1000; do
    for b in 32,8,4 32,8,16 32,8,32 64,4,16 32,16,16; do run cuda cuda $size AWAVE_CUDA_BLOCK=$b; done
  done
fi
