#!/usr/bin/env bash
# A lever's A/B (issue 45): builds of the same implementations in interleaved rounds (A B C, A B C), through
# on-device.sh. At each size a checked run a build, then ROUNDS rounds of timing runs held to it by -digest;
# each build's table and each later build's medians over A's, with whether their ranges overlap
# (sweep_study_summary.py); the platform's triad before each round. A build's files: OUT_DIR/NAME (its folder's name).
#   [IMPLS=cuda,kokkos-cuda] [PLAN=3] [DEADLINE=seconds] \
#     bench/device/build-ab.sh OUT_DIR SIZES ROUNDS STEPS BUILD_A BUILD_B [BUILD_C ...]
# PLAN: steps_per_sweep of every run (1 or 3). DEADLINE: no round starts after that many seconds.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
out=${1:?usage: build-ab.sh OUT_DIR SIZES ROUNDS STEPS BUILD_A BUILD_B}
sizes=${2:?sizes} rounds=${3:?rounds} steps=${4:?steps}
shift 4
[ $# -ge 2 ] || { echo "build-ab: give two builds or more" >&2; exit 2; }
builds=("$@")
build_a=$1
names=$(for b in "${builds[@]}"; do basename "$b"; done | sort | uniq -d)
[ -z "$names" ] || { echo "build-ab: two builds share the folder name $names" >&2; exit 2; }
impls=${IMPLS:-cuda,kokkos-cuda}
plan=${PLAN:-3}
mkdir -p "$out"
record_machine "$out/gpu.txt"
run() {  # BUILD NAME SECONDS ARGS...
  local build=$1 name=$2 limit=$3
  shift 3
  mkdir -p "$out/$(basename "$build")"
  echo "$(basename "$build") $(timed_run "$out/$(basename "$build")" "$name" "$limit" "$build/src/awave" "$@" \
    -impl "$impls" -tune steps_per_sweep=$plan -no_output -quiet -digest)" | tee -a "$out/summary.txt"
}
for n in $sizes; do
  for b in "${builds[@]}"; do
    run "$b" "checked-$n" 240 -shape "$n,$n,$n" -nsteps "$steps" -out_period "$steps" -reference cpu-openmp
  done
  for r in $(seq 1 "$rounds"); do
    past_deadline "$n" "$r" && break
    # The triad before each round (build A's awave-devbench, about a second): a machine whose bandwidth moves
    # between rounds shows it here (the CPU runs of h200-2026-11-27 were bimodal).
    if [ -x "$build_a/bench/awave-devbench" ]; then
      "$build_a/bench/awave-devbench" > "$out/triad-$n-r$r.json" 2>&1
      echo "triad before $n^3 round $r: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("triad_bandwidth_gb_s", "?"))' \
        "$out/triad-$n-r$r.json" 2>/dev/null || echo failed) GB/s" | tee -a "$out/summary.txt"
    fi
    for b in "${builds[@]}"; do
      run "$b" "time-$n-r$r" 120 -shape "$n,$n,$n" -nsteps "$steps" -out_period $((steps / 3)) -no_check
    done
  done
done
status=0
for b in "${builds[@]}"; do
  echo "== $(basename "$b")" | tee -a "$out/summary.txt"
  python3 bench/sweep_study_summary.py "$out/$(basename "$b")" | tee -a "$out/summary.txt" || status=1
done
python3 bench/sweep_study_summary.py --ratios "$out" "${builds[@]}" | tee -a "$out/summary.txt" || status=1
exit $status
