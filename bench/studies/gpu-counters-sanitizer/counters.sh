#!/usr/bin/env bash
# Why the ratios are what they are (through on-device.sh): for every GPU implementation and form of the builds
# present, at each size, Nsight Compute's DRAM bytes, kernel time, registers a thread and achieved occupancy of
# each step kernel (9 launches after 3; clocks and caches as the run leaves them). A CSV a run in OUT.
#   bench/studies/gpu-counters-sanitizer/counters.sh OUT [SIZE ...]        (default 256 512 1000)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../device/common.sh"
out=${1:?usage: counters.sh OUT [SIZE ...]}
shift
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(256 512 1000)
mkdir -p "$out"
metrics=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,launch__registers_per_thread
metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct
# The step kernels' mangled names (hand CUDA's kernels, hand omp's regions, either Kokkos form's functors).
kernels='regex:interior_kernel|layers_kernel|fused_step_kernel|WaveOmp|TunedStep|IdiomaticStep'
ncu --version | tail -1 > "$out/ncu-version.txt"
status=0
for build in cuda openmptarget; do
  exe=build/$build/src/awave
  [ -x "$exe" ] || continue
  for impl in $(gpu_impls "$exe"); do
    for n in "${sizes[@]}"; do
      timeout 300 ncu --clock-control none --cache-control none --kernel-name-base mangled --kernel-name "$kernels" \
        --launch-skip 3 --launch-count 9 --metrics "$metrics" --csv \
        "$exe" -shape "$n,$n,$n" -nsteps 24 -out_period 24 -no_output -no_check -quiet -impl "$impl" \
        > "$out/ncu_${impl}_${n}.csv" 2> "$out/ncu_${impl}_${n}.err" || status=1
      echo "$impl $n: $(grep -c '"dram__bytes_read.sum"' "$out/ncu_${impl}_${n}.csv") kernels profiled"
    done
  done
done
exit $status
