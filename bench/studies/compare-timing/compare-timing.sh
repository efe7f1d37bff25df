#!/usr/bin/env bash
# How long `awave -compare` takes on issue 71's files (on a 4-GPU machine, through on-device.sh,
# an MPI build staged): 777x555x333, 18 steps, a snapshot every 9 in single precision with u_prev,
# checkpoints every 18, written once by 4 processes and once by 1; then -compare of the two (and,
# for its share, -verify of one), timed. The record, compare-timing.json, holds the wall times,
# the files' sizes, the answer and the build's commit; the runs' logs beside it.
#   bench/studies/compare-timing/compare-timing.sh OUT_DIR BUILD_DIR   (e.g. build/cuda-mpi or build/host-mpi)
# IMPL (default: cuda where the build has it, else cpu-openmp), SHAPE, NP (4) override.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../device/common.sh"
out=${1:?usage: compare-timing.sh OUT_DIR BUILD_DIR}
build=${2:?usage: compare-timing.sh OUT_DIR BUILD_DIR}
mkdir -p "$out" && out=$(cd "$out" && pwd)
exe=$(cd "$build" && pwd)/src/awave
[ -x "$exe" ] || { echo "compare-timing: no $exe" >&2; exit 1; }
work=${AWAVE_WORK:-/tmp/awave-compare-timing}
rm -rf "$work" && mkdir -p "$work"
unset OMP_PROC_BIND OMP_PLACES  # several processes of a node under --bind-to none (docs/mpi.md)
record_machine "$out/machine.txt"
impl=${IMPL:-$("$exe" -list | awk '$1 == "cuda" {found = 1} END {print found ? "cuda" : "cpu-openmp"}')}
np=${NP:-4}
args=(-shape "${SHAPE:-777,555,333}" -nsteps 18 -out_period 9 -snapshot_precision single -checkpoint_period 18
      -impl "$impl" -no_check -quiet)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
status=0
for n in 1 "$np"; do
  (cd "$work" && timeout 400 mpirun -np "$n" --allow-run-as-root --oversubscribe --bind-to none \
     -x LD_LIBRARY_PATH -x OMP_TARGET_OFFLOAD "$exe" "${args[@]}" -json "$out/np$n.json" "np$n" \
     > "$out/np$n.txt" 2>&1) || { echo "compare-timing: the $n-process run failed: $(tail -1 "$out/np$n.txt")"; status=1; }
done
a=$work/np1.$impl.vtkhdf b=$work/np$np.$impl.vtkhdf
# timed FILE COMMAND...: runs it, its output to FILE; sets rc (its status) and secs (its wall seconds).
timed() {
  local file=$1 t0=$EPOCHREALTIME; shift
  "$@" > "$file" 2>&1; rc=$?
  secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.2f", b - a}')
}
timed "$out/compare.txt" "$exe" -compare "$a" "$b"; compare_s=$secs compare_rc=$rc
timed "$out/verify.txt" "$exe" -verify "$b"; verify_s=$secs verify_rc=$rc
[ $compare_rc -eq 0 ] || status=1
commit=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["build"]["git_commit"])' "$out/np1.json" 2>/dev/null)
python3 - "$out/compare-timing.json" <<EOF
import json, os, sys
size = lambda p: os.path.getsize(p) if os.path.exists(p) else None
disk = lambda p: os.stat(p).st_blocks * 512 if os.path.exists(p) else None
json.dump({
  "schema": "awave-compare-timing/1",
  "commit": "$commit", "build": "$build", "impl": "$impl", "processes": [1, $np],
  "run": "${args[*]}",
  "files": {"$a": {"bytes": size("$a"), "on_disk": disk("$a")}, "$b": {"bytes": size("$b"), "on_disk": disk("$b")}},
  "compare": {"wall_s": float("$compare_s"), "exit": $compare_rc, "line": open("$out/compare.txt").read().strip()},
  "verify_one_file": {"wall_s": float("$verify_s"), "exit": $verify_rc},
  "machine": open("$out/machine.txt").read().strip(),
}, open(sys.argv[1], "w"), indent=1)
EOF
echo "compare-timing: -compare ${compare_s} s (exit $compare_rc), -verify of one file ${verify_s} s; $(du -h --apparent-size "$a" | cut -f1) and $(du -h --apparent-size "$b" | cut -f1) files" |
  tee "$out/summary.txt"
rm -rf "$work"
exit $status
