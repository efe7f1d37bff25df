#!/usr/bin/env bash
# Hand CUDA's interior kernel in shapes with more bytes in flight (bench/studies/cuda-stencil-shapes/cuda_stencil_shapes.cu,
# built as awave-cuda-shapes in the cuda build), each checked bitwise against the product's
# shape, then the planted shape (one point off by one ulp), which the check must report. One
# JSON object per line into OUT_DIR/cuda-shapes.jsonl, the GPU into cuda-shapes-gpu.txt. Through
# on-device.sh.
# The diagnostics (no-y, no-yz, stream: not the update) say what the neighbour loads cost.
#   SIZES="512 1000" ROUNDS=1 bench/studies/cuda-stencil-shapes/cuda-shapes.sh OUT_DIR
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../device/common.sh"
out=${1:?usage: cuda-shapes.sh OUT_DIR}
mkdir -p "$out"
record_machine "$out/cuda-shapes-gpu.txt"
status=0
for round in $(seq "${ROUNDS:-1}"); do
  for n in ${SIZES:-512 1000}; do
    timeout 150 build/cuda/bench/awave-cuda-shapes $((n + 2)) 30 \
      "${SHAPES:-march,prefetch,two-j,two-k,ldg,evict-first,evict-first-ldg,shared-y,no-y,no-yz,stream}" "${SEGMENTS:-4,8,16,32}" |
      sed "s/^{/{\"round\": $round, /" | tee -a "$out/cuda-shapes.jsonl" || status=1
  done
done
grep -q '"bitwise_with_march": false, "diagnostic": false' "$out/cuda-shapes.jsonl" &&
  { echo "cuda-shapes: a shape's bits differ from march's" >&2; status=1; }
# The check's power: march then planted, 128^3; planted must say "bitwise_with_march": false.
timeout 60 build/cuda/bench/awave-cuda-shapes 130 5 march,planted 4 | tee "$out/cuda-shapes-planted.jsonl" || status=1
grep -q '"shape": "planted".*"bitwise_with_march": false' "$out/cuda-shapes-planted.jsonl" ||
  { echo "cuda-shapes: the planted point was not seen" >&2; status=1; }
exit $status
