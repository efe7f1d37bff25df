#!/usr/bin/env bash
# The output over MPI's two fixes (issue 82; docs/mpi.md, "Output over MPI at the disk's speed"), seen in
# what awave reports, not in timings: over 3 processes ROMIO takes every process as an aggregator
# (cb_nodes 3, cb_config_list *:* in effect on the file), and HDF5's commit flushes call MPI_File_sync
# without reaching the disk; HDF5_DO_MPI_FILE_SYNC=1 makes every call a sync, and -tune
# mpi_io.aggregators=romio leaves ROMIO's aggregators (no *:*). Each file still equals one process's.
# And the launch that made the issue's 3 and 4 processes stall: processes whose OpenMP threads are bound
# to the same CPUs (OMP_PROC_BIND=spread OMP_PLACES=threads under --bind-to none) get a warning, recorded
# in -json (binding_warning); the others none. (HDF5 1.10, Debian bookworm's: its MPI-IO driver calls
# MPI_File_sync at every flush; from 1.13.2 it makes no call unless asked, and the counts below would change.)
#   mpi_io_hints.sh AWAVE_EXE WORK_DIR
set -uo pipefail
exe=${1:?usage: mpi_io_hints.sh AWAVE_EXE WORK_DIR}
work=${2:?usage: mpi_io_hints.sh AWAVE_EXE WORK_DIR}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
args=(-shape 30,14,12 -nsteps 6 -out_period 2 -impl cpu-openmp -no_check -quiet)
"$exe" "${args[@]}" -json one.json one > one.txt 2>&1 || { echo "FAIL: one process: $(tail -1 one.txt)"; exit 1; }
run() {  # run NAME [VAR=VALUE] -- [awave args]
  local name=$1; shift
  local envs=() exports=()
  while [ "$1" != -- ]; do envs+=("$1"); exports+=(-x "${1%%=*}"); shift; done
  shift
  env "${envs[@]}" mpirun -np 3 --oversubscribe "${exports[@]}" "$exe" "${args[@]}" -json "$name.json" "$@" "$name" \
    > "$name.txt" 2>&1 || { echo "FAIL: $name: $(tail -1 "$name.txt")"; return 1; }
  "$exe" -compare one.cpu-openmp.vtkhdf "$name.cpu-openmp.vtkhdf" > "$name.compare" 2>&1 ||
    { echo "FAIL: $name's file differs from one process's: $(tail -1 "$name.compare")"; return 1; }
}
run default -- || exit 1
run synced HDF5_DO_MPI_FILE_SYNC=1 -- || exit 1
run romio -- -tune mpi_io.aggregators=romio || exit 1
OMP_PROC_BIND=spread OMP_PLACES=threads mpirun -np 2 --oversubscribe --bind-to none -x OMP_PROC_BIND -x OMP_PLACES \
  "$exe" -shape 30,14,12 -nsteps 2 -no_output -impl cpu-openmp -no_check -quiet -json bound.json > bound.txt 2>&1 ||
  { echo "FAIL: bound: $(tail -1 bound.txt)"; exit 1; }
python3 - << 'PY'
import json, sys
def io(name):
    return json.load(open(f"{name}.json"))["mpi_io"]
failures = []
d, s, r = io("default"), io("synced"), io("romio")
hints = d["hints_in_effect"]
if hints.get("cb_nodes") != "3" or hints.get("cb_config_list") != "*:*":
    failures.append(f"default: aggregators not every process: {hints}")
if d["file_sync"] or d["file_syncs"]["calls"] < 3 or d["file_syncs"]["made"] != 0:
    failures.append(f"default: the commits' syncs reached the disk, or HDF5 made none: {d['file_syncs']}")
if not s["file_sync"] or s["file_syncs"]["made"] != s["file_syncs"]["calls"] or s["file_syncs"]["calls"] < 3:
    failures.append(f"HDF5_DO_MPI_FILE_SYNC=1: not every sync made: {s['file_syncs']}")
if r["aggregators"] != "romio" or r["hints_in_effect"].get("cb_config_list") == "*:*":
    failures.append(f"mpi_io.aggregators=romio: awave's hints still in effect: {r['hints_in_effect']}")
bound = json.load(open("bound.json"))
if "same CPUs" not in bound.get("binding_warning", ""):
    failures.append(f"threads of two processes bound to the same CPUs, no warning: {bound.get('binding_warning')}")
if any("binding_warning" in json.load(open(f"{n}.json")) for n in ("default", "synced", "romio")):
    failures.append("a warning about binding where no thread was bound")
for f in failures:
    print("FAIL:", f)
print("mpi_io_hints:", "FAIL" if failures else "PASS", f"({len(failures)} failed of 6 checks)")
sys.exit(1 if failures else 0)
PY
