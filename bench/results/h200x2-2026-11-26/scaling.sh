#!/usr/bin/env bash
R=/tmp/r46d; rm -rf $R; mkdir -p $R
pack() { tar -C $R -czf "$OUT/r46-scaling.tgz" .; }
( ONLY=scaling ROUNDS=${ROUNDS:-3} bash bench/device/sweep-mpi.sh $R/scaling ) & pid=$!
for _ in $(seq 110); do sleep 5; kill -0 $pid 2>/dev/null || break; pack; done
kill $pid 2>/dev/null; wait; pack
cat $R/scaling/table.md 2>/dev/null
