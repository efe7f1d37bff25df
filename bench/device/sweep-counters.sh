#!/usr/bin/env bash
# What bounds the product's sweep (issue 36): Nsight Compute on one sweep kernel of hand CUDA and
# one of Kokkos-CUDA at 512^3 (the third launch of each run: past the first's cold start), on the
# GPU machine through on-device.sh, cuda build (BUILD: another, e.g. one against Kokkos 4.6.01).
# OUT_DIR/ncu-IMPL-512.txt each.
#   [BUILD=build/cuda] [IMPLS="cuda kokkos-cuda"] [SINGLE=1] bench/device/sweep-counters.sh OUT_DIR
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
out=${1:?usage: sweep-counters.sh OUT_DIR}
mkdir -p "$out"
for impl in ${IMPLS:-cuda kokkos-cuda}; do
  # (demangled names: Kokkos' kernel is cuda_parallel_launch_local_memory<ParallelFor<SweepStep...>>)
  timeout 240 ncu --clock-control none --kernel-name-base demangled -k 'regex:[Ss]weep' --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
    --section WarpStateStats --section SchedulerStats \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,smsp__inst_executed.sum \
    "${BUILD:-build/cuda}/src/awave" -shape 512,512,512 -nsteps 12 -out_period 12 -no_output -no_check -impl "$impl" \
    > "$out/ncu-$impl-512.txt" 2>&1
  echo "ncu $impl: exit $?"
done
# SINGLE=1: also hand CUDA's single-step interior kernel (steps_per_sweep=1), the step the sweep replaces.
if [ "${SINGLE:-0}" = 1 ]; then
  timeout 240 ncu --clock-control none --kernel-name-base demangled -k 'regex:interior' --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
    --section WarpStateStats --section SchedulerStats \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,smsp__inst_executed.sum \
    "${BUILD:-build/cuda}/src/awave" -shape 512,512,512 -nsteps 8 -out_period 8 -no_output -no_check -impl cuda \
    -tune steps_per_sweep=1 > "$out/ncu-cuda-single-512.txt" 2>&1
  echo "ncu cuda single step: exit $?"
fi
