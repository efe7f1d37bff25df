#!/usr/bin/env bash
# The disk under DIR, as the output studies compare with it: its df line, then dd of 4 GiB through
# the page cache and with conv=fdatasync (one line each, dd's own).
#   bench/device/disk-rate.sh DIR
set -euo pipefail
dir=${1:?usage: disk-rate.sh DIR}
df -h "$dir" | tail -1
dd if=/dev/zero of="$dir/dd" bs=1M count=4096 2>&1 | tail -1
rm -f "$dir/dd"
dd if=/dev/zero of="$dir/dd" bs=1M count=4096 conv=fdatasync 2>&1 | tail -1
rm -f "$dir/dd"
