#!/usr/bin/env bash
# The OpenMP-offload kernel shapes (bench/studies/omp-stencil-shapes/omp_stencil_shapes.cpp, built as awave-omp-shapes in
# the openmptarget build) at 256^3, 384^3, 512^3 and 1000^3 on this GPU; one JSON object per
# line per shape, team size and segment, into OUT_DIR/omp-shapes.jsonl. Through on-device.sh.
#   bench/studies/omp-stencil-shapes/omp-shapes.sh OUT_DIR
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../device/common.sh"
out=${1:?usage: omp-shapes.sh OUT_DIR}
mkdir -p "$out"
record_machine "$out/omp-shapes-gpu.txt"
for n in 256 384 512 1000; do
  timeout 120 build/openmptarget/bench/awave-omp-shapes $((n + 2)) 30 | tee -a "$out/omp-shapes.jsonl"
done
