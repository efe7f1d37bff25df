#!/usr/bin/env bash
R=/tmp/r46c; rm -rf $R; mkdir -p $R
ONLY=checks timeout 500 bash bench/device/sweep-mpi.sh $R/checks
tar -C $R -czf "$OUT/r46-checks.tgz" .
head -3 $R/checks/summary.txt; grep FAIL $R/checks/mpi-check.txt | head
