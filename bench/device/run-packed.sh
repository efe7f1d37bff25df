#!/usr/bin/env bash
# A device call brings back at most 8 files, and none if it runs past its limit: runs COMMAND under SECONDS (below
# the call's own), then packs DIR (what COMMAND wrote) into DIR.tar.gz, whatever COMMAND's status.
#   bench/device/run-packed.sh SECONDS DIR COMMAND...     e.g. on the device machine:
#   bench/device/run-packed.sh 540 $OUT/sweep bench/device/on-device.sh .stage/awave-device.tar.xz \
#     bash -c 'bench/device/sweeps.sh $OUT/sweep cuda:cuda openmptarget:openmptarget'
set -uo pipefail
limit=${1:?usage: run-packed.sh SECONDS DIR COMMAND...}
dir=${2:?usage: run-packed.sh SECONDS DIR COMMAND...}
shift 2
mkdir -p "$dir"
timeout "$limit" "$@" > "$dir/console.txt" 2>&1
status=$?
echo "run-packed: exit status $status" >> "$dir/console.txt"
tail -n 20 "$dir/console.txt"
tar -C "$(dirname "$dir")" -czf "$dir.tar.gz" "$(basename "$dir")" && rm -rf "$dir"
exit $status
