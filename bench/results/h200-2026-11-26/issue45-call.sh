#!/usr/bin/env bash
# One device call for issue 45 (and 44's plan check) on whichever GPU comes.
set -u
g=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "$g"
t=$(echo "$g" | grep -q H200 && echo h200 || echo h100)
r=$OUT/$t; mkdir -p "$r/plan"
pack() { (cd "$OUT" && tar czf "res-$t.tgz" "$t"); }
build/cuda-b478c04/src/awave -shape 224,224,224 -nsteps 6 -no_output -quiet -impl cuda,kokkos-cuda -json "$r/plan/cuda-224.json" > "$r/plan/cuda-224.txt" 2>&1
OMP_TARGET_OFFLOAD=MANDATORY build/openmptarget-k46/src/awave -shape 128,128,128 -nsteps 6 -no_output -quiet -impl omp,kokkos-openmptarget -json "$r/plan/omp-128.json" > "$r/plan/omp-128.txt" 2>&1
pack
IMPLS=kokkos-cuda DEADLINE=200 timeout 260 bash bench/device/build-ab.sh "$r/kokkos46" "512 1000" 3 30 build/cuda build/cuda-k46 | tail -4
pack
BUILD=build/cuda-b478c04 timeout 150 bash bench/device/sweep-counters.sh "$r/ncu-b478c04"
BUILD=build/cuda-k46 IMPLS=kokkos-cuda timeout 80 bash bench/device/sweep-counters.sh "$r/ncu-k46"
pack
timeout 80 ncu --clock-control none -k regex:interior_kernel --launch-skip 3 --launch-count 1 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section SchedulerStats \
  --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,smsp__inst_executed.sum \
  build/cuda-b478c04/src/awave -shape 512,512,512 -nsteps 8 -out_period 8 -no_output -no_check -impl cuda -tune steps_per_sweep=1 \
  > "$r/ncu-b478c04/ncu-cuda-single-512.txt" 2>&1
echo "ncu single: exit $?"
pack
