#!/usr/bin/env bash
# Launch-shape sweeps on the GPU machine (through on-device.sh), 512^3, 30 steps in chunks of
# 10, unchecked (the shapes change no arithmetic; gpu-checks.sh checks the defaults). Prints
# the best-chunk SU/s of each setting; the defaults in the sources cite these runs.
#   bench/studies/launch-tuning/tune.sh OUT_DIR
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../device/common.sh"
out=${1:?usage: tune.sh OUT_DIR}
mkdir -p "$out"
run() {  # run NAME BUILD IMPL [VAR=VALUE]
  local name=$1 build=$2 impl=$3
  shift 3
  env "$@" "build/$build/src/awave" -shape 512,512,512 -nsteps 30 -out_period 10 -no_output -no_check -impl "$impl" \
    > "$out/$name.txt" 2>&1
  echo "$name $*: best $(grep 'SU/s' "$out/$name.txt" | awk '{print $5}')" | tee -a "$out/tune.log"
}
for shape in 32,8,1 32,8,4 32,8,8; do
  run "cuda_$shape" cuda cuda AWAVE_CUDA_BLOCK=$shape
done
for seg in 1 2 4 8; do
  run "kokkos_cuda_seg$seg" cuda kokkos-cuda AWAVE_KOKKOS_SEGMENT=$seg
done
for seg in 1 4 8 16 32; do
  run "kokkos_ompt_seg$seg" openmptarget kokkos-openmptarget AWAVE_KOKKOS_SEGMENT=$seg
done
for seg in 8 16; do
  run "omp_seg$seg" openmptarget omp AWAVE_OMP_SEGMENT=$seg
done
