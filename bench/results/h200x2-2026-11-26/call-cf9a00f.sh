#!/usr/bin/env bash
# Device call 5: checks of the Kokkos part functor, the swept runs again, Nsight Compute on the H200.
R=/tmp/r46e; rm -rf $R; mkdir -p $R
pack() { tar -C $R -czf "$OUT/r46e.tgz" .; }
ONLY=checks timeout 200 bash bench/device/sweep-mpi.sh $R/checks; pack
SHORT=1 ROUNDS=2 ONLY=scaling timeout 200 bash bench/device/sweep-mpi.sh $R/scaling; pack
BUILD=build/cuda-mpi SINGLE=1 timeout 170 bash bench/device/sweep-counters.sh $R/ncu; pack
head -2 $R/checks/summary.txt; cat $R/scaling/table.md; grep -h "Duration\|DRAM Throughput\|L2 Cache Throughput\|Compute (SM) Throughput\|Issued Warp Per Scheduler\|Registers Per" $R/ncu/*.txt
