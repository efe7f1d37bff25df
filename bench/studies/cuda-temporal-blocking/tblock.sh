#!/usr/bin/env bash
# The temporal-blocking study (issue 36) on the GPU machine: awave-cuda-tblock at each size, then
# the product's hand CUDA with single steps at the same size in the same call (the baseline of the
# decision rule).
# Results go to OUT_DIR: tblock.jsonl (one line per shape and segment), product-N.json, gpu.txt,
# and the study kernels' SASS (tblock.sass.gz) for reading their loops and spills.
#   bench/studies/cuda-temporal-blocking/tblock.sh OUT_DIR SIZES SEGMENTS [SHAPES]    (e.g. OUT "512 1000 256" 64,128)
# Each size's study run is capped at 150 s, the product's at 60 s; a size cut short leaves the lines
# it printed.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../device/common.sh"
out=${1:?usage: tblock.sh OUT_DIR SIZES SEGMENTS [SHAPES]}
sizes=${2:?sizes}
segments=${3:?segments}
shapes=${4:-}
build=${AWAVE_BUILD:-build/cuda}
mkdir -p "$out"
record_machine "$out/gpu.txt"
for n in $sizes; do
  timeout 150 "$build/bench/awave-cuda-tblock" "$n" 60 "$segments" $shapes >> "$out/tblock.jsonl" 2>> "$out/tblock.err"
  echo "tblock $n: exit $?" >> "$out/tblock.err"
  timeout 60 "$build/src/awave" -shape "$n,$n,$n" -nsteps 60 -out_period 20 -no_output -no_check -impl cuda \
    -tune steps_per_sweep=1 \
    -json "$out/product-$n.json" > /dev/null 2>> "$out/tblock.err"
done
if command -v cuobjdump > /dev/null; then
  cuobjdump -sass "$build/bench/awave-cuda-tblock" 2> /dev/null | gzip -9 > "$out/tblock.sass.gz"
fi
python3 - "$out" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
hand = {}
for p in glob.glob(os.path.join(out, "product-*.json")):
    d = json.load(open(p))
    hand[d["params"]["shape"][0]] = d["implementations"][0]["best_su_per_s"]
for line in open(os.path.join(out, "tblock.jsonl")):
    r = json.loads(line)
    h = hand.get(r["n"])
    print(f'{r["n"]:5d} {r["shape"]:16s} seg {r["segment"]:4d} {r["su_per_s"]:.3e} '
          f'x hand {r["su_per_s"] / h if h else float("nan"):.3f} bitwise {r["bitwise"]} '
          f'regs {r.get("registers", "-")} spill {r.get("spill_bytes", "-")}')
PY
