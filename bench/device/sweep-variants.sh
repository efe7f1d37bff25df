#!/usr/bin/env bash
# A sweep study's runs on the GPU machine, cuda build (through bench/device/on-device.sh), for the programs built
# on bench/cuda_sweep_variants.cuh (awave-cuda-bigtiles, awave-cuda-bulkcopy): the bitwise check on odd grids
# first (no timing if it fails), then ROUNDS interleaved rounds of the product's sweep and the variants at each
# size, then Nsight Compute's counts (issue slots a site update, DRAM and SM throughput) of the product's sweep
# and the fastest bitwise variant at 512^3, and summary.md (bench/sweep_variants_summary.py: medians, ratios,
# the rule).
#   bench/device/sweep-variants.sh PROGRAM KERNEL OUT_DIR [SIZES] [ROUNDS]     (default "512 1000", 5)
# PROGRAM: the executable's name under build/cuda/bench; KERNEL: its variants' kernel name (Nsight Compute's
# filter). Environment: AWAVE_BUILD (default build/cuda), VARIANTS (comma list; default the program's),
# COUNT=0 to leave out the counts. Each part is capped so the call stays within 10 minutes.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
program=${1:?usage: sweep-variants.sh PROGRAM KERNEL OUT_DIR [SIZES] [ROUNDS]}
kernel=${2:?usage: sweep-variants.sh PROGRAM KERNEL OUT_DIR [SIZES] [ROUNDS]}
out=${3:?usage: sweep-variants.sh PROGRAM KERNEL OUT_DIR [SIZES] [ROUNDS]}
sizes=${4:-512 1000}
rounds=${5:-5}
summary=$here/../sweep_variants_summary.py
exe=${AWAVE_BUILD:-build/cuda}/bench/$program
[ -x "$exe" ] || { echo "sweep-variants: $exe not built" >&2; exit 1; }
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1
timeout 90 "$exe" check ${VARIANTS:-} > "$out/check.jsonl" 2> "$out/check.err"
rc=$?
echo "check: exit $rc" | tee -a "$out/check.err"
[ $rc -eq 0 ] || exit 2
for n in $sizes; do
  limit=120; [ "$n" -gt 600 ] && limit=210
  timeout $limit "$exe" "$n" "$rounds" ${VARIANTS:-} >> "$out/timing.jsonl" 2>> "$out/timing.err"
  echo "timing $n: exit $?" >> "$out/timing.err"
done
python3 "$summary" "$out" > "$out/summary.md"
if [ "${COUNT:-1}" = 1 ] && command -v ncu > /dev/null; then
  best=$(python3 "$summary" --best "$out")
  # One sweep of each after warm-up launches (12 steps: 4 product sweeps, then 3 or 4 of the variant).
  for what in product "$best"; do
    [ -n "$what" ] || continue
    if [ "$what" = product ]; then filter=regex:product_sweep; skip=2; else filter=regex:$kernel; skip=1; fi
    rep=$out/count-$what
    timeout 90 ncu --clock-control none -k "$filter" --launch-skip $skip --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section LaunchStats --section InstructionStats \
      --section SourceCounters --section WarpStateStats --section MemoryWorkloadAnalysis \
      --metrics smsp__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed \
      -o "$rep" -f "$exe" 512 1 "${best:-product}" 12 > "$rep-run.txt" 2>&1
    echo "ncu $what: exit $?" >> "$out/timing.err"
    ncu -i "$rep.ncu-rep" --page raw --csv > "$rep-raw.csv" 2>&1
    ncu -i "$rep.ncu-rep" --page source --csv --print-source sass > "$rep-sass.csv" 2>&1
  done
  python3 "$summary" "$out" > "$out/summary.md"
fi
cat "$out/summary.md"
