#!/usr/bin/env bash
# What a 1000^3 study process costs beyond its timed steps (issue 58 item 4), through on-device.sh:
# four runs of one build that differ in one thing each, their wall time from the shell and each
# implementation's outside_chunks_seconds (set-up; finish = -digest's copy back and CRC) from -json.
#   A: 3 steps of the first implementation        B: A with -digest
#   C: a study round (36 steps, every implementation of IMPLS, -digest)   D: C without -digest
# The earlier measurement (9295f57): results/h200-2026-11-26/process-1000-9295f57 (A 13.2 s, B 24.6 s).
#   bench/studies/round-cost/round-cost.sh BUILD IMPLS OUT_DIR [SIZE]
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../device/common.sh"
build=${1:?usage: round-cost.sh BUILD IMPLS OUT_DIR [SIZE]} impls=${2:?impls} out=${3:?out} n=${4:-1000}
exe=$PWD/build/$build/src/awave
mkdir -p "$out"
record_machine "$out/machine.txt"
first=${impls%%,*}
run() {  # NAME ARGS...
  local name=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  OMP_PROC_BIND=spread OMP_PLACES=threads timeout 200 "$exe" -shape "$n,$n,$n" -no_output -no_check -json "$out/$name.json" "$@" \
    > "$out/$name.txt" 2>&1
  local rc=$?
  t1=$(date +%s.%N)
  python3 - "$name" "$rc" "$t0" "$t1" "$out/$name.json" "$*" <<'PY' | tee -a "$out/summary.txt"
import json, sys
name, rc, t0, t1, path, args = sys.argv[1:]
parts = []
try:
    for i in json.load(open(path))["implementations"]:
        o = i.get("outside_chunks_seconds", {})
        parts.append(f"{i['id']}: set-up {o.get('set_up', 0):.1f} s, steps {sum(i['chunk_seconds']):.2f} s, "
                     f"finish {o.get('finish', 0):.1f} s, digest {i.get('digest', '-')}")
except (OSError, ValueError, KeyError) as e:
    parts.append(f"no JSON ({e})")
print(f"{name} | exit {rc} | wall {float(t1) - float(t0):.1f} s | {args}")
for p in parts:
    print(f"    {p}")
PY
}
run A -nsteps 3 -out_period 3 -impl "$first"
run B -nsteps 3 -out_period 3 -impl "$first" -digest
run C -nsteps 36 -out_period 12 -impl "$impls" -digest
run D -nsteps 36 -out_period 12 -impl "$impls"
