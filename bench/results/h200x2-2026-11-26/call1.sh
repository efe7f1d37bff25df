#!/usr/bin/env bash
# Device call 1 of issue 46: the GPU tests of the cuda-mpi build, then sweep-mpi.sh's checks.
R=/tmp/r46; rm -rf $R; mkdir -p $R
pack() { tar -C $R -czf "$OUT/r46-checks.tgz" .; }
nvidia-smi -L > $R/gpus.txt
(cd build/cuda-mpi && timeout 250 ctest -L gpu -j2 > $R/ctest-gpu.txt 2>&1; echo "ctest rc $?" >> $R/ctest-gpu.txt)
tail -5 $R/ctest-gpu.txt; pack
ONLY=checks timeout 300 bash bench/device/sweep-mpi.sh $R/checks
pack
