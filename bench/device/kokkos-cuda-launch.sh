#!/usr/bin/env bash
# Kokkos-CUDA's Marched kernel launched four ways (issue 16), beside hand CUDA, on the GPU machine
# through on-device.sh (build/cuda). Kokkos 3.4 sizes a RangePolicy's block as the smallest that
# reaches the kernel's best occupancy: 64 threads, 48 registers (42 of 64 warps a multiprocessor).
# Settings: teams of AWAVE_KOKKOS_MARCH_TEAM threads (one CUDA block each, holding whole (k, j)
# tiles of AWAVE_KOKKOS_MARCH_ROWS rows), launch bounds for full occupancy
# (AWAVE_KOKKOS_MARCH_BOUNDS=1: 32 registers, spilling), and hand CUDA in 64-thread blocks
# (AWAVE_CUDA_BLOCK=32,2,segment) as Kokkos' block size with hand CUDA's code. Every setting is
# first run once checked bitwise against the CPU reference at 192^3 (the launch moves no
# arithmetic; this proves it), then timed unchecked at SIZES (default 512,1000), ROUNDS rounds
# (default 2), interleaved: 40 steps in chunks of 5, one JSON per run (awave -json), a line per
# run in OUT_DIR/launch.log: label, implementation, size, setting, best and median chunk SU/s.
# Wrap it in run-packed.sh on a device call.
#   [SIZES=...] [ROUNDS=...] bench/device/kokkos-cuda-launch.sh OUT_DIR
set -uo pipefail
out=${1:?usage: kokkos-cuda-launch.sh OUT_DIR}
sizes=${SIZES:-512,1000}
rounds=${ROUNDS:-2}
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt"

run() {  # run LABEL IMPL SIZE "VAR=VALUE ..." [checked]
  local label=$1 impl=$2 n=$3 setting=$4 check=-no_check
  [ "${5:-}" = checked ] && check="-reference cpu-openmp"
  local json="$out/$label-$impl-$n-$round.json"
  # shellcheck disable=SC2086  # setting and check are word lists
  env $setting timeout 150 build/cuda/src/awave -shape "$n,$n,$n" -nsteps 40 -out_period 5 -no_output $check \
    -impl "$impl" -json "$json" > "$out/run.txt" 2>&1
  local verdict
  verdict=$(grep -E '^(PASS|FAIL|UNCHECKED)' "$out/run.txt" | head -1 | cut -c1-60)
  python3 - "$json" "$label" "$impl" "$n" "$setting" "$verdict" << 'PY' | tee -a "$out/launch.log"
import json, sys
path, label, impl, n, setting, verdict = sys.argv[1:]
try:
    r = next(i for i in json.load(open(path))["implementations"] if i["id"] == impl)
    print(f"{label:14} {impl:12} {n:>5} {setting:66} best {r['best_su_per_s']:.3e} median {r['median_su_per_s']:.3e} {verdict}")
except (OSError, ValueError, StopIteration, KeyError):
    print(f"{label:14} {impl:12} {n:>5} {setting:66} no result {verdict}")
PY
}

settings=(
  "range|kokkos-cuda|"
  "team128|kokkos-cuda|AWAVE_KOKKOS_MARCH_TEAM=128"
  "team256|kokkos-cuda|AWAVE_KOKKOS_MARCH_TEAM=256"
  "bounds|kokkos-cuda|AWAVE_KOKKOS_MARCH_BOUNDS=1"
  "bounds-t256|kokkos-cuda|AWAVE_KOKKOS_MARCH_BOUNDS=1 AWAVE_KOKKOS_MARCH_TEAM=256"
  "bounds-t256r8|kokkos-cuda|AWAVE_KOKKOS_MARCH_BOUNDS=1 AWAVE_KOKKOS_MARCH_TEAM=256 AWAVE_KOKKOS_MARCH_ROWS=8"
  "hand|cuda|"
  "hand-b64|cuda|AWAVE_CUDA_BLOCK=32,2,SEG"
)
seg_of() { [ "$1" -gt 724 ] && echo 16 || echo 4; }  # hand CUDA's segment: 16 where a plane is > 4 MiB

round=checked
for s in "${settings[@]}"; do
  IFS='|' read -r label impl setting <<< "$s"
  run "$label" "$impl" 192 "${setting//SEG/4}" checked
done
IFS=, read -r -a sizes <<< "$sizes"
for round in $(seq 1 "$rounds"); do
  for n in "${sizes[@]}"; do
    for s in "${settings[@]}"; do
      IFS='|' read -r label impl setting <<< "$s"
      run "$label" "$impl" "$n" "${setting//SEG/$(seg_of "$n")}"
    done
  done
done
rm -f "$out/run.txt"
