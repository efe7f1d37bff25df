#!/usr/bin/env bash
# Device call 2 of issue 46: sweep-mpi.sh's checks, then its scaling runs (packed as they go).
R=/tmp/r46b; rm -rf $R; mkdir -p $R
pack() { tar -C $R -czf "$OUT/r46-scaling.tgz" .; }
ONLY=checks timeout 200 bash bench/device/sweep-mpi.sh $R/checks; pack
( ONLY=scaling ROUNDS=2 bash bench/device/sweep-mpi.sh $R/scaling ) & pid=$!
for _ in $(seq 75); do sleep 5; kill -0 $pid 2>/dev/null || break; pack; done
kill $pid 2>/dev/null; wait; pack
cat $R/checks/summary.txt | head -3; cat $R/scaling/table.md 2>/dev/null
