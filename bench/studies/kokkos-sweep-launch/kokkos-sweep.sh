#!/usr/bin/env bash
# Kokkos-CUDA's sweep against hand CUDA's under several Kokkos builds (issue 56), on the GPU
# machine through on-device.sh. BUILDS are cuda build folders of one commit against different
# Kokkos installations (e.g. build/cuda-k34 build/cuda-k46).
#   PART study: awave-kokkos-sweep (bench/studies/kokkos-sweep-launch) of each build at each of
#     STUDY_SIZES (default 512), ROUNDS rounds inside the process, VARIANTS (its default list if
#     unset); its JSON lines to study-*.jsonl.
#   PART product: awave -impl cuda,kokkos-cuda of each build, bitwise first (30 steps against
#     cpu-openmp at 256^3), then ROUNDS rounds, each round every build once at each of SIZES
#     (default "512 1000"), 60 steps in chunks of 30 (two sweeps a chunk); kokkos_sweep_summary.py
#     gives each build's medians and Kokkos/hand ratio.
# Rule (stated before the runs, issue 56): a launch form goes into the product where it is
# bitwise and its median is the highest of the Kokkos forms at 512^3 under both Kokkos versions;
# the target is >= 0.95 of hand CUDA's sweep at 512^3 and 1000^3.
#   bench/studies/kokkos-sweep-launch/kokkos-sweep.sh OUT study|product BUILD...
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../device/common.sh"
out=${1:?usage: kokkos-sweep.sh OUT study|product BUILD...}
part=${2:?usage: kokkos-sweep.sh OUT study|product BUILD...}
shift 2
builds=("$@")
[ ${#builds[@]} -gt 0 ] || { echo "kokkos-sweep: name at least one build" >&2; exit 2; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rounds=${ROUNDS:-5}
mkdir -p "$out"
record_machine "$out/gpu.txt"
export OMP_PROC_BIND=spread OMP_PLACES=threads
status=0
tag() { basename "$1"; }
if [ "$part" = study ]; then
  for n in ${STUDY_SIZES:-512}; do
    for b in "${builds[@]}"; do
      timeout 300 "$b/bench/awave-kokkos-sweep" "$n" 20 "$rounds" ${VARIANTS:+"$VARIANTS"} >> "$out/study-$(tag "$b")-$n.jsonl" 2>> "$out/study-$(tag "$b")-$n.err" || status=1
    done
  done
  cat "$out"/study-*.jsonl
  exit $status
fi
for b in "${builds[@]}"; do
  name=check-$(tag "$b")
  timeout 200 "$b/src/awave" -shape 256,256,256 -nsteps 30 -out_period 10 -no_output -impl cuda,kokkos-cuda \
    -reference cpu-openmp -json "$out/$name.json" > "$out/$name.txt" 2>&1 || status=1
  echo "$name: $(grep -c "$AWAVE_LINE_BITWISE" "$out/$name.txt") bitwise; $(grep -E "$AWAVE_LINE_VERDICT" "$out/$name.txt")" |
    tee -a "$out/summary.txt"
done
for r in $(seq "$rounds"); do
  for n in ${SIZES:-512 1000}; do
    for b in "${builds[@]}"; do
      name=time-$(tag "$b")-$n-r$r
      timeout 150 "$b/src/awave" -shape $n,$n,$n -nsteps 60 -out_period 30 -no_output -no_check -quiet \
        -impl cuda,kokkos-cuda -json "$out/$name.json" > "$out/$name.txt" 2>&1 || status=1
    done
  done
done
PYTHONPATH="$here/../.." python3 "$here/kokkos_sweep_summary.py" "$out" | tee -a "$out/summary.txt" || status=1
exit $status
