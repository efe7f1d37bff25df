#!/usr/bin/env bash
# The step plan on this GPU, read from what the device is (src/core/step_plan.hpp, issue 83): BUILD's sweeping codes
# (bench/catalog.py sweepers) at each size of PLAN_SIZES (default "224 256": either side of the H200's 256^3
# threshold), 6 unchecked steps, no output; each run's -json into OUT. The summary holds every run's recorded plan to
# the rule applied to the traits the same run recorded (build.accelerator_traits): peak bandwidth at least the midpoint
# of the H100's and the H200's (4.08e12 B/s, src/core/step_plan.hpp) -> the GPU-team sweep from 256^3 and the bulk planes on, else from 200^3
# and off; OpenMP-offload teams from 128^3 either way. Exit 1 where a recorded plan is not the rule's.
#   bench/device/plan-check.sh BUILD_DIR OUT
set -uo pipefail
build=${1:?usage: plan-check.sh BUILD_DIR OUT} out=${2:?usage: plan-check.sh BUILD_DIR OUT}
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
exe=$build/src/awave
[ -x "$exe" ] || { echo "plan-check: no $exe" >&2; exit 2; }
toolchain=$(basename "$build"); toolchain=${toolchain%%-*}
codes=$(python3 bench/catalog.py sweepers "$toolchain") || exit 2
mkdir -p "$out"
status=0
for n in ${PLAN_SIZES:-224 256}; do
  "$exe" -shape "$n,$n,$n" -nsteps 6 -out_period 3 -no_output -no_check -impl "$codes" \
    -json "$out/plan-$toolchain-$n.json" > "$out/plan-$toolchain-$n.log" 2>&1 || { echo "plan-check: $exe failed at $n^3" >&2; status=1; }
done
python3 - "$out" "$toolchain" <<'PY' || status=1
import glob, json, sys
out, toolchain = sys.argv[1:]
HIGH = (3.35e12 + 4.81e12) / 2  # src/core/step_plan.hpp, kHighBandwidthFrom
bad = 0
for path in sorted(glob.glob(f"{out}/plan-{toolchain}-*.json")):
    r = json.load(open(path))
    t = r["build"].get("accelerator_traits") or {}
    bw = t.get("peak_bandwidth_bytes_per_s")
    high = bw is not None and bw >= HIGH
    n = r["params"]["shape"][0] * r["params"]["shape"][1] * r["params"]["shape"][2]
    for i in r["implementations"]:
        offload = i["id"] in ("omp", "kokkos-openmptarget")
        want_min = 128 ** 3 if offload else (256 ** 3 if high else 200 ** 3)
        want = (want_min, 3 if n >= want_min else 1, high and n >= want_min and i["id"] != "kokkos-openmptarget")
        got = (i["sweep_min_points"], i["steps_per_sweep"], i["bulk_planes"])
        ok = got == want
        bad += not ok
        print(f"{r['build']['accelerator']}: cc {t.get('compute_capability')}, {t.get('multiprocessors')} SMs, "
              f"L2 {t.get('l2_bytes')} B, peak {'unknown' if bw is None else f'{bw:.3e}'} B/s "
              f"({'high' if high else 'not high'}) | {i['id']} at "
              f"{r['params']['shape'][0]}^3: sweep from {got[0]} points, {got[1]} steps a sweep, bulk planes "
              f"{got[2]} -> {'as the rule' if ok else f'NOT the rule {want}'}")
sys.exit(1 if bad else 0)
PY
exit $status
