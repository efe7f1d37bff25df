#!/usr/bin/env bash
# The OMPIO race without awave (docs/mpi.md, "Output over MPI and OMPIO"): ompio_race.c's writer
# thread in MPI_File_write_at_all while its main thread exchanges with Isend/Irecv/Testall, 4
# processes, 5 runs each: OMPIO (Open MPI's default), ROMIO (OMPI_MCA_io=^ompio), OMPIO without
# vulcan's asynchronous writes (OMPI_MCA_fcoll=dynamic_gen2); then one OMPIO run under gdb.
# Debian bookworm's Open MPI 4.1.4 (libopenmpi-dev), run as root. Writes into the current folder.
#   bash run.sh > summary.txt
set -u
here=$(cd "$(dirname "$0")" && pwd)
mpicc -O2 -g -pthread "$here/ompio_race.c" -o ompio_race || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
echo "Open MPI $(mpirun --version | head -1 | awk '{print $NF}'), $(nproc) cores"
tally() {
  local label=$1 ok=0 statuses=""; shift
  for i in 1 2 3 4 5; do
    rm -f race.bin
    timeout 60 mpirun --oversubscribe -np 4 -x OMPI_MCA_io_ompio_bytes_per_agg=65536 "$@" ./ompio_race 8000000 20 \
      > run.log 2>&1; rc=$?
    [ $rc -eq 0 ] && ok=$((ok + 1)); statuses+=" $rc"
  done
  echo "$label: $ok of 5 passed (exit statuses:$statuses; 124: hung to the 60 s limit, 134: signal 6, 139: signal 11)"
}
tally "OMPIO (default)"
tally "ROMIO (OMPI_MCA_io=^ompio)" -x OMPI_MCA_io=^ompio
tally "OMPIO, fcoll dynamic_gen2" -x OMPI_MCA_fcoll=dynamic_gen2
cat > gdbwrap.sh <<'W'
#!/bin/bash
exec gdb -q -batch -ex "set pagination off" -ex run -ex "thread apply all bt 12" --args "$@" > "gdb.$OMPI_COMM_WORLD_RANK.log" 2>&1
W
chmod +x gdbwrap.sh
timeout 120 mpirun --oversubscribe -np 4 -x OMPI_MCA_io_ompio_bytes_per_agg=65536 ./gdbwrap.sh ./ompio_race 8000000 20 > /dev/null 2>&1
for f in gdb.*.log; do
  grep -q "received signal" "$f" && { echo "under gdb, $f:"; sed -n '/received signal/,/^$/p' "$f" | head -3;
    echo "its stack:"; grep -A9 "^#0 .* in mca_common_ompio_progress" "$f" | head -10; break; }
done
rm -f race.bin run.log gdbwrap.sh ompio_race gdb.*.log
