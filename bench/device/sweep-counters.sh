#!/usr/bin/env bash
# What bounds the product's sweep (issue 36): Nsight Compute on one sweep kernel (the third launch: past the
# first's cold start) of hand CUDA and of Kokkos-CUDA at 512^3, through on-device.sh, cuda build (BUILD: another,
# e.g. against Kokkos 4.6.01); SINGLE=1 also hand CUDA's single-step interior kernel, the step the sweep replaces.
#   [BUILD=build/cuda] [IMPLS="cuda kokkos-cuda"] [SINGLE=1] bench/device/sweep-counters.sh OUT_DIR
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
out=${1:?usage: sweep-counters.sh OUT_DIR}
mkdir -p "$out"
profile() {  # KERNEL_REGEX OUT_FILE AWAVE_ARGS...: the kernel's third launch in a 512^3 run
  timeout 240 ncu --clock-control none --kernel-name-base demangled -k "regex:$1" --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
    --section WarpStateStats --section SchedulerStats \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,smsp__inst_executed.sum \
    "${BUILD:-build/cuda}/src/awave" -shape 512,512,512 -no_output -no_check "${@:3}" > "$2" 2>&1
}
for impl in ${IMPLS:-cuda kokkos-cuda}; do
  # (demangled names: Kokkos' kernel is cuda_parallel_launch_local_memory<ParallelFor<SweepStep...>>)
  profile '[Ss]weep' "$out/ncu-$impl-512.txt" -nsteps 12 -out_period 12 -impl "$impl"
  echo "ncu $impl: exit $?"
done
if [ "${SINGLE:-0}" = 1 ]; then
  profile interior "$out/ncu-cuda-single-512.txt" -nsteps 8 -out_period 8 -impl cuda -tune steps_per_sweep=1
  echo "ncu cuda single step: exit $?"
fi
