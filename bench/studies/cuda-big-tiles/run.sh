#!/usr/bin/env bash
# The big-tile study (issue 73) on the GPU machine, cuda build: bench/device/sweep-variants.sh for
# awave-cuda-bigtiles (the check, five interleaved rounds at 512^3 and 1000^3, the counts, the summary).
#   bench/studies/cuda-big-tiles/run.sh OUT_DIR [SIZES] [ROUNDS]     (default "512 1000", 5)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec "$here/../../device/sweep-variants.sh" awave-cuda-bigtiles big_sweep "$@"
