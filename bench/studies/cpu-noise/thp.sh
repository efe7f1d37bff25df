#!/usr/bin/env bash
# The CPU noise study's second question (README.md: its rule, stated before the runs): do the sweep's bimodal runs
# come from where its memory lands in 4 KB pages? Each round runs the 8-chunk sweep plan twice, interleaved: with the
# machine's transparent huge pages as found (madvise: awave asks for none), and with them on for every allocation
# (always). The setting is the guest's, put back at the end; the accelerator is not touched.
#   bench/studies/cpu-noise/thp.sh OUT_DIR [SIZE] [ROUNDS]          (512, 8)
set -uo pipefail
out=${1:?usage: thp.sh OUT_DIR [SIZE] [ROUNDS]}
n=${2:-512}
rounds=${3:-8}
[[ $n =~ ^[1-9][0-9]*$ && $rounds =~ ^[1-9][0-9]*$ ]] || { echo "cpu-noise: SIZE and ROUNDS take counts" >&2; exit 2; }
exe=$PWD/build/host/src/awave
thp=/sys/kernel/mm/transparent_hugepage/enabled
found=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$thp")
trap 'echo "$found" > "$thp"' EXIT
mkdir -p "$out"
export OMP_PROC_BIND=spread OMP_PLACES=threads
for r in $(seq "$rounds"); do
  for mode in "$found" always; do
    echo "$mode" > "$thp"
    timeout 300 "$exe" -shape "$n,$n,$n" -nsteps 48 -out_period 6 -impl cpu-openmp,kokkos-openmp -no_check -no_output \
      -quiet -digest -json "$out/thp-$mode-r$r.json" > "$out/thp-$mode-r$r.txt" 2>&1
    echo "thp $mode round $r: exit $? at $(date +%T), AnonHugePages $(grep AnonHugePages /proc/meminfo)" >> "$out/console.txt"
  done
done
python3 - "$out" <<'PY'
import glob, json, os, statistics, sys
for mode in sorted({os.path.basename(p).split("-")[1] for p in glob.glob(os.path.join(sys.argv[1], "thp-*-r*.json"))}):
    for code in ("cpu-openmp", "kokkos-openmp"):
        best = [i["best_su_per_s"] for p in glob.glob(os.path.join(sys.argv[1], f"thp-{mode}-r*.json"))
                for i in json.load(open(p))["implementations"] if i["id"] == code]
        print(f"thp {mode:8} {code:14} runs {len(best)} median {statistics.median(best):.3g} spread {max(best) / min(best):.2f}"
              f" [{min(best):.3g}, {max(best):.3g}]")
PY
