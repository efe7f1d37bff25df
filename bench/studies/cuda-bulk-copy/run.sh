#!/usr/bin/env bash
# The bulk-copy study (issue 79) on the GPU machine, cuda build: bench/device/sweep-variants.sh for
# awave-cuda-bulkcopy (the check, five interleaved rounds at 512^3 and 1000^3, the counts, the summary).
#   bench/studies/cuda-bulk-copy/run.sh OUT_DIR [SIZES] [ROUNDS]     (default "512 1000", 5)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec "$here/../../device/sweep-variants.sh" awave-cuda-bulkcopy bulk_sweep "$@"
