#!/usr/bin/env bash
# The bitwise promise where the hardware is (through on-device.sh, one GPU): 1. the exact builds' gpu tests;
# 2. every GPU implementation of the exact builds (build/cuda, build/openmptarget) ends with the CPU reference's
# bits on long runs, fused and three-kernel steps, and the contracting builds (build/*-contract,
# -DAWAVE_EXACT_FP=OFF) show what the exact flags prevent; 3. a kill -9 of a 256^3 cuda run, continued by the
# other build's omp, equals the uninterrupted run. JSON and logs to OUT_DIR.
#   bench/device/bitwise-checks.sh OUT_DIR
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
out=${1:?usage: bitwise-checks.sh OUT_DIR}
mkdir -p "$out"
export OMP_PROC_BIND=spread
SHOW=1 record_machine "$out/gpu.txt"
status=0
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
summary() {  # summary NAME: one line per run, from its printed checks
  echo "$1 rc=$2 $(grep -E "$AWAVE_LINE_VERDICT" "$out/$1.txt") $(grep -c "$AWAVE_LINE_BITWISE" "$out/$1.txt") bitwise," \
       "$(grep -c "$AWAVE_LINE_NOT_BITWISE" "$out/$1.txt") not:$(grep -o "$AWAVE_LINE_NOT_BITWISE: [0-9]* of [0-9]* points differ, largest relative difference [^;]*" "$out/$1.txt" | cut -d' ' -f4,11- | tr '\n' ' ')"
}
long_run() {  # long_run BUILD NAME ARGS...: the build's GPU implementations against cpu-openmp
  local b=$1 name=$2; shift 2
  timeout 240 env ${ENVS:-} "build/$b/src/awave" "$@" -reference cpu-openmp -no_output -json "$out/$name.json" \
    > "$out/$name.txt" 2>&1
  local rc=$?
  summary "$name" $rc | tee -a "$out/summary.txt"
  case $b in *-contract) ;; *) [ $rc -eq 0 ] && grep -q "bit for bit" "$out/$name.txt" || status=1 ;; esac
}

# 1. (equivalence on 5 shapes, fused and three-kernel steps; restart; 97x61x33 x 5000 steps)
for b in $(device_toolchains); do
  verdict=$("$here/ctest-counted.sh" "build/$b" gpu "$out/ctest-gpu-$b.log" 400) || status=1
  echo "ctest -L gpu, $b: $verdict" | tee -a "$out/summary.txt"
done

# 2. 256^3 x 2000 steps and 97x61x33 x 5000 steps (fused and three-kernel).
for b in $(device_toolchains) $(device_toolchains | tr ' ' '\n' | sed 's/$/-contract/'); do
  [ -x "build/$b/src/awave" ] || continue
  long_run "$b" "long_${b}_256x256x256_2000" -shape 256,256,256 -nsteps 2000 -out_period 500
  long_run "$b" "long_${b}_97x61x33_5000" -shape 97,61,33 -nsteps 5000 -out_period 1000
  ENVS=AWAVE_FUSED_STEP_POINTS=0 long_run "$b" "long_${b}_97x61x33_5000_three-kernel" -shape 97,61,33 -nsteps 5000 -out_period 1000
done

# 3. kill -9 of a 256^3 cuda run while it writes; omp continues it to step 2000: every snapshot the uninterrupted run's.
k=$out/../kill-work; rm -rf "$k"; mkdir -p "$k"
export HDF5_USE_FILE_LOCKING=FALSE
shape="-shape 256,256,256 -out_period 250 -nsteps 2000"
build/cuda/src/awave $shape -impl cuda -no_check "$k/full" > "$out/kill_full.txt" 2>&1 || status=1
setsid build/cuda/src/awave $shape -impl cuda -no_check "$k/killed" > "$out/kill_killed.txt" 2>&1 &
pid=$!
for _ in $(seq 600); do
  n=$(h5dump -a /VTKHDF/Steps/NSteps "$k/killed.cuda.vtkhdf.partial" 2>/dev/null | awk '/\(0\)/ {print $2}')
  [ "${n:-0}" -ge 4 ] && break
  sleep 0.05
done
kill -9 $pid; wait $pid 2>/dev/null
n=$(h5dump -a /VTKHDF/Steps/NSteps "$k/killed.cuda.vtkhdf.partial" | awk '/\(0\)/ {print $2}')
build/openmptarget/src/awave -restart "$k/killed.cuda.vtkhdf.partial" -impl omp -reference cpu-openmp "$k/resumed" \
  > "$out/kill_resumed.txt" 2>&1 || status=1
# awave -compare (in $k, so that its line names the files): the snapshots both hold, by step, bitwise; 0 equal, 2 differ.
(cd "$k" && "$OLDPWD/build/cuda/src/awave" -compare full.cuda.vtkhdf resumed.omp.vtkhdf) > "$out/kill_compare.txt" 2>&1
rc=$?
# Equal where both hold is not enough: a continuation that stopped early leaves the later snapshots in one file.
[ $rc = 0 ] && grep -q -E "$AWAVE_LINE_ONE_FILE_LONGER" "$out/kill_compare.txt" && rc=early
case $rc in
  0) verdict="every snapshot bitwise equal to the uninterrupted run" ;;
  early) verdict="EQUAL BUT ONE FILE STOPS EARLY"; status=1 ;;
  2) verdict=DIFFERS; status=1 ;;
  *) verdict="NOT COMPARED"; status=1 ;;
esac
echo "kill -9 of cuda 256^3 after $n snapshots, continued by omp to step 2000: $verdict ($(head -c 300 "$out/kill_compare.txt"))" |
  tee -a "$out/summary.txt"
rm -rf "$k"
echo "status $status" | tee -a "$out/summary.txt"
exit $status
