#!/usr/bin/env bash
# A build's tests of the given labels on the GPU machine, judged by counting (ctest_verdict.py): as many as the
# build holds, none failed, no gpu test skipped. Prints the verdict line.
#   bench/device/ctest-counted.sh BUILD_DIR LABEL_REGEX LOG [TIMEOUT_S]
set -uo pipefail
build=${1:?usage: ctest-counted.sh BUILD_DIR LABEL_REGEX LOG [TIMEOUT_S]}
labels=${2:?usage}; log=${3:?usage}; limit=${4:-400}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
list() { (cd "$build" && ctest -N -L "$1") | sed -n 's/^ *Test *#[0-9]*: //p'; }
expected=$(list "$labels" | wc -l)
list gpu > "$log.must-run"
(cd "$build" && timeout "$limit" ctest -L "$labels" --output-on-failure -j4) > "$log" 2>&1
python3 "$here/ctest_verdict.py" "$log" "$expected" "$log.must-run"
