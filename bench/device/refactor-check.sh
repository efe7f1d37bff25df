#!/usr/bin/env bash
# A refactor held to the product (issue 43's acceptance; through on-device.sh). PART tests: each GPU build's gpu
# and cli tests, counted (the unit tests need the toolchain, and run in CI). PART runs: every GPU implementation
# checked bitwise at SIZES, then its SU/s beside the baseline build's (build/<preset>-base, staged beside it),
# interleaved over ROUNDS rounds, with a table of medians (refactor_summary.py). Logs and JSON to OUT.
#   bench/device/refactor-check.sh OUT tests|runs [ROUNDS]
# runs: SIZES ("256 512"), TIME_BUILDS (the GPU toolchains), TIME_STEPS and TIME_PERIOD (60, 20), CHECK=0: time only.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
out=${1:?usage: refactor-check.sh OUT tests|runs [ROUNDS]}
part=${2:?usage: refactor-check.sh OUT tests|runs [ROUNDS]}
rounds=${3:-3}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$out"
export OMP_PROC_BIND=spread OMP_PLACES=threads
record_machine "$out/gpu.txt"
status=0
builds=($(device_toolchains))
if [ "$part" = tests ]; then
  for b in "${builds[@]}"; do
    verdict=$("$here/ctest-counted.sh" "build/$b" 'gpu|cli' "$out/ctest-$b.log" 280) || status=1
    echo "$b: $verdict" | tee -a "$out/summary.txt"
  done
  exit $status
fi
sizes=(${SIZES:-256 512})
time_builds=(${TIME_BUILDS:-$(device_toolchains)})
steps=${TIME_STEPS:-60} period=${TIME_PERIOD:-20}
[ "${CHECK:-1}" = 0 ] && builds=()
for b in "${builds[@]}"; do  # the build's GPU implementations (its default) against cpu-openmp
  for n in "${sizes[@]}"; do
    name=check-$b-$n
    timeout 200 "build/$b/src/awave" -shape $n,$n,$n -nsteps 30 -out_period 10 -no_output -reference cpu-openmp \
      -json "$out/$name.json" > "$out/$name.txt" 2>&1 || status=1
    echo "$name: $(grep -c "$AWAVE_LINE_BITWISE" "$out/$name.txt") bitwise, $(grep -c "$AWAVE_LINE_NOT_BITWISE" "$out/$name.txt") not;" \
         "$(grep -E "$AWAVE_LINE_VERDICT" "$out/$name.txt")" | tee -a "$out/summary.txt"
  done
done
for r in $(seq "$rounds"); do
  for n in "${sizes[@]}"; do
    for b in "${time_builds[@]}"; do
      for v in "$b" "$b-base"; do
        timeout 120 "build/$v/src/awave" -shape $n,$n,$n -nsteps "$steps" -out_period "$period" -no_output -no_check -quiet \
          -json "$out/time-$v-$n-r$r.json" > "$out/time-$v-$n-r$r.txt" 2>&1 || status=1
      done
    done
  done
done
python3 "$here/../refactor_summary.py" "$out" | tee -a "$out/summary.txt" || status=1
exit $status
