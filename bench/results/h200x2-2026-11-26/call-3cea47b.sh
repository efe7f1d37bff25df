#!/usr/bin/env bash
# Device call: the final commit's checks on 2 GPUs, and the swept runs (interior queued first over NCCL).
R=/tmp/r46f; rm -rf $R; mkdir -p $R
pack() { tar -C $R -czf "$OUT/r46f.tgz" .; }
ONLY=checks timeout 200 bash bench/device/sweep-mpi.sh $R/checks; pack
SHORT=1 ROUNDS=3 ONLY=scaling timeout 330 bash bench/device/sweep-mpi.sh $R/scaling; pack
head -1 $R/checks/summary.txt; grep FAIL $R/checks/mpi-check.txt | head -5; cat $R/scaling/table.md
