#!/usr/bin/env bash
# The marching GPU kernels' work-item layout (issue 16), on the GPU machine through on-device.sh:
# rows j per (k, j) tile (core/march_tiles.hpp), the number of teams of the hand-written
# offload (one work item per thread, or the runtime's capped default), the segment and the team
# size, for hand omp and Kokkos-OMPT (build/openmptarget) and Kokkos-CUDA beside hand CUDA
# (build/cuda), at SIZES (default 256,512,1000), ROUNDS rounds (default 2), interleaved.
# Each run: 40 steps in chunks of 5, unchecked (a layout moves no arithmetic); the product's
# defaults are also run once checked against the CPU reference at each size. One JSON per run
# (awave -json) and a line per run in OUT_DIR/tiles.log: label, implementation, size, setting,
# best and median chunk SU/s. Wrap it in run-packed.sh on a device call.
#   [SIZES=...] [ROUNDS=...] bench/studies/march-tiles/march-tiles.sh OUT_DIR
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../device/common.sh"
out=${1:?usage: march-tiles.sh OUT_DIR}
sizes=${SIZES:-256,512,1000}
rounds=${ROUNDS:-2}
mkdir -p "$out"
record_machine "$out/gpu.txt"

run() {  # run LABEL BUILD IMPL SIZE "VAR=VALUE ..." [checked]
  local label=$1 build=$2 impl=$3 n=$4 setting=$5 check=-no_check
  [ "${6:-}" = checked ] && check="-reference cpu-openmp"
  local json="$out/$label-$impl-$n-$round.json"
  # shellcheck disable=SC2086  # setting and check are word lists
  env $setting timeout 150 "build/$build/src/awave" -shape "$n,$n,$n" -nsteps 40 -out_period 5 -no_output $check \
    -impl "$impl" -json "$json" > "$out/run.txt" 2>&1
  local verdict
  verdict=$(grep -E '^(PASS|FAIL|UNCHECKED)' "$out/run.txt" | head -1 | cut -c1-60)
  python3 - "$json" "$label" "$impl" "$n" "$setting" "$verdict" << 'EOF' | tee -a "$out/tiles.log"
import json, sys
path, label, impl, n, setting, verdict = sys.argv[1:]
try:
    r = next(i for i in json.load(open(path))["implementations"] if i["id"] == impl)
    print(f"{label:14} {impl:20} {n:>5} {setting:70} best {r['best_su_per_s']:.3e} median {r['median_su_per_s']:.3e} {verdict}")
except (OSError, ValueError, StopIteration, KeyError):
    print(f"{label:14} {impl:20} {n:>5} {setting:70} no result {verdict}")
EOF
}

IFS=, read -r -a sizes <<< "$sizes"
round=checked
for n in "${sizes[@]}"; do  # the defaults, checked
  run product openmptarget omp "$n" "" checked
  run product openmptarget kokkos-openmptarget "$n" "" checked
  [ -x build/cuda/src/awave ] && run product cuda kokkos-cuda "$n" "" checked
done
for round in $(seq 1 "$rounds"); do
  for n in "${sizes[@]}"; do
    run product openmptarget omp "$n" ""
    run old-layout openmptarget omp "$n" "AWAVE_OMP_TEAMS=runtime AWAVE_OMP_TILE_ROWS=1"
    run rows1 openmptarget omp "$n" "AWAVE_OMP_TILE_ROWS=1"
    run rows2 openmptarget omp "$n" "AWAVE_OMP_TILE_ROWS=2"
    run rows8-t256 openmptarget omp "$n" "AWAVE_OMP_TILE_ROWS=8 AWAVE_OMP_THREADS=256"
    run rows4-t256 openmptarget omp "$n" "AWAVE_OMP_TILE_ROWS=4 AWAVE_OMP_THREADS=256"
    run seg8 openmptarget omp "$n" "AWAVE_OMP_SEGMENT=8"
    run seg32 openmptarget omp "$n" "AWAVE_OMP_SEGMENT=32"
    run product openmptarget kokkos-openmptarget "$n" ""
    run old-layout openmptarget kokkos-openmptarget "$n" "LIBOMPTARGET_REUSE_BLOCKS_FOR_HIGH_TRIP_COUNT=1 AWAVE_KOKKOS_MARCH_ROWS=1"
    run rows1 openmptarget kokkos-openmptarget "$n" "AWAVE_KOKKOS_MARCH_ROWS=1"
    run rows2 openmptarget kokkos-openmptarget "$n" "AWAVE_KOKKOS_MARCH_ROWS=2"
    if [ -x build/cuda/src/awave ]; then
      run product cuda cuda "$n" ""
      run product cuda kokkos-cuda "$n" ""
      run rows1 cuda kokkos-cuda "$n" "AWAVE_KOKKOS_MARCH_ROWS=1"
      run rows8 cuda kokkos-cuda "$n" "AWAVE_KOKKOS_MARCH_ROWS=8"
    fi
  done
done
# The launches each layout gets (blocks and threads), at 256^3, 2 steps.
for setting in "" "AWAVE_OMP_TEAMS=runtime LIBOMPTARGET_REUSE_BLOCKS_FOR_HIGH_TRIP_COUNT=1"; do
  echo "== $setting" >> "$out/launches.txt"
  env $setting LIBOMPTARGET_INFO=16 timeout 60 build/openmptarget/src/awave -shape 256,256,256 -nsteps 2 -out_period 1 \
    -no_output -no_check -impl omp,kokkos-openmptarget 2>&1 | grep -i launching | sort | uniq -c >> "$out/launches.txt"
done
rm -f "$out/run.txt"
