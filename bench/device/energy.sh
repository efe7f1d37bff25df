#!/usr/bin/env bash
# Joules a site update on the GPU (issue 58 item 6), through on-device.sh: runs long enough that
# the timed chunks span seconds (NVML's energy counter is coarse: app/gpu_energy.hpp), each size's
# codes in one process a round, ROUNDS rounds interleaved with the single-step plan
# (steps_per_sweep=1) of the same codes; the board's power and clocks read before and after.
# awave's -json holds each code's energy (joules, seconds, joules_per_site_update).
#   [ROUNDS=2] bench/device/energy.sh BUILD IMPLS OUT_DIR
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
build=${1:?usage: energy.sh BUILD IMPLS OUT_DIR} impls=${2:?impls} out=${3:?out}
rounds=${ROUNDS:-2}
exe=$PWD/build/$build/src/awave
mkdir -p "$out"
record_machine "$out/machine.txt"
board() { nvidia-smi --query-gpu=power.draw,power.limit,clocks.sm,temperature.gpu --format=csv,noheader >> "$out/board.txt"; }
board  # idle
# size:steps, about 2-6 s of chunks a code at 1-2e11 SU/s
for r in $(seq 1 "$rounds"); do
  for run in 512:3600 1000:600; do
    n=${run%%:*} steps=${run#*:}
    for plan in 3 1; do
      name=energy-$n-plan$plan-r$r
      timeout 240 "$exe" -shape "$n,$n,$n" -nsteps "$steps" -out_period $((steps / 6)) -no_output -no_check -quiet \
        -impl "$impls" -tune steps_per_sweep=$plan -json "$out/$name.json" > "$out/$name.txt" 2>&1
      echo "$name: exit $?" >> "$out/summary.txt"
      board
    done
  done
done
python3 - "$out" <<'PY' | tee -a "$out/summary.txt"
import glob, json, os, statistics, sys
rows = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "energy-*.json"))):
    run = json.load(open(path))
    n = run["params"]["shape"][0]
    for i in run["implementations"]:
        e = i.get("energy")
        if e:
            rows.setdefault((n, i["id"], i["steps_per_sweep"]), []).append(
                (e["joules_per_site_update"], e["joules"] / e["seconds"], i["median_su_per_s"], e["seconds"]))
print(f"{'size':>6} {'code':24} {'plan':>4} {'runs':>4} {'J a site update (median, min-max)':>36} {'W':>6} {'SU/s':>10} {'s':>5}")
for (n, code, plan), v in sorted(rows.items()):
    j = [x[0] for x in v]
    print(f"{n:>5}^3 {code:24} {plan:>4} {len(v):>4} {statistics.median(j):>12.3e} ({min(j):.3e}-{max(j):.3e}) "
          f"{statistics.median(x[1] for x in v):>6.0f} {statistics.median(x[2] for x in v):>10.3e} "
          f"{min(x[3] for x in v):>5.1f}")
PY
