#!/usr/bin/env bash
# Instructions a site update of the sweep (issue 57, "count first"): Nsight Compute on the third sweep kernel of
# hand CUDA and Kokkos-CUDA at N^3 (default 512), through on-device.sh. A code's OUT_DIR/count-IMPL.ncu-rep, its
# details page (.txt), every metric (-raw.csv) and the executed instructions of each SASS line (-sass.csv), which
# bench/sweep_count_summary.py divides by the kernel's site updates.
#   [BUILD=build/cuda] [IMPLS="cuda kokkos-cuda"] [N=512] bench/device/sweep-count.sh OUT_DIR
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
out=${1:?usage: sweep-count.sh OUT_DIR}
n=${N:-512}
mkdir -p "$out"
record_machine "$out/gpu.txt"
ncu --version > "$out/ncu-version.txt" 2>&1
for impl in ${IMPLS:-cuda kokkos-cuda}; do
  rep=$out/count-$impl
  timeout 300 ncu --clock-control none --kernel-name-base demangled -k 'regex:[Ss]weep' --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section InstructionStats \
    --section SourceCounters --section WarpStateStats --section ComputeWorkloadAnalysis \
    --metrics smsp__inst_executed.sum,smsp__thread_inst_executed.sum,sm__sass_inst_executed_op_local_ld.sum,sm__sass_inst_executed_op_local_st.sum \
    -o "$rep" -f "${BUILD:-build/cuda}/src/awave" -shape $n,$n,$n -nsteps 12 -out_period 12 -no_output -no_check \
    -impl "$impl" > "$rep-run.txt" 2>&1
  echo "ncu $impl: exit $?"
  ncu -i "$rep.ncu-rep" --page details --print-details all > "$rep.txt" 2>&1
  ncu -i "$rep.ncu-rep" --page raw --csv --print-metric-instances values > "$rep-raw.csv" 2>&1 ||
    ncu -i "$rep.ncu-rep" --page raw --csv > "$rep-raw.csv" 2>&1
  ncu -i "$rep.ncu-rep" --page source --csv --print-source sass > "$rep-sass.csv" 2>&1 || echo "source page: exit $?"
done
