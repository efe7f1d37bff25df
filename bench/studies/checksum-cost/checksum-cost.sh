#!/usr/bin/env bash
# What the snapshot checksums cost (io/integrity.hpp): a build without them (OLD_EXE, e.g. a
# build of commit 4f866f8) and one with them (NEW_EXE), interleaved, with output, at 256^3 and
# 512^3 (IMPL, default kokkos-openmp; NSTEPS steps, default 20, a snapshot every OUT_PERIOD,
# default 5). The run's wall time is what matters (output overlaps compute); JSON per run into
# OUT_DIR, named cost_{old,new}_N[_sSTEPS]_rROUND.
#   bench/studies/checksum-cost/checksum-cost.sh OUT_DIR OLD_EXE NEW_EXE [ROUNDS]
set -uo pipefail
out=${1:?usage: checksum-cost.sh OUT_DIR OLD_EXE NEW_EXE [ROUNDS]}
old=${2:?}; new=${3:?}; rounds=${4:-3}
mkdir -p "$out"; out=$(cd "$out" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
for n in ${SIZES:-256 512}; do
  for r in $(seq "$rounds"); do
    for b in old new; do
      exe=$old; [ $b = new ] && exe=$new
      tag=$n; [ -n "${NSTEPS:-}" ] && tag=${n}_s$NSTEPS
      (cd "$work" && "$exe" -shape $n,$n,$n -nsteps "${NSTEPS:-20}" -out_period "${OUT_PERIOD:-5}" \
         -impl "${IMPL:-kokkos-openmp}" -no_check -json "$out/cost_${b}_${tag}_r$r.json" run > /dev/null 2>&1)
      echo "$b $n r$r rc=$?"
      rm -f "$work"/run.*
    done
  done
done
