#!/usr/bin/env bash
# The output's rate over 1-4 MPI processes on one machine (issue 82), an MPI build staged (through
# on-device.sh). Two shapes (the issue's): `wide` 1024x260x250, 10 steps, a snapshot every 5 (u and u_prev,
# double); `big` 777x555x333, 18 steps, a snapshot every 9 (u, single) and a checkpoint at 18. Each run
# -impl cpu-openmp -no_check, OMP_NUM_THREADS = cores / processes, under a launch:
#   issue: OMP_PROC_BIND=spread OMP_PLACES=threads, mpirun's default binding (the issue's runs)
#   none:  mpirun --bind-to none, OMP_PROC_BIND and OMP_PLACES unset (docs/mpi.md, "Binding")
#   pe:    mpirun --map-by slot:PE=T --bind-to core (each process its own T cores), OMP_PROC_BIND=spread
#          OMP_PLACES=threads
# Each run's -json (RUN.json: io.write_seconds is the writer's busy time, io.snapshot_bytes what it wrote,
# implementations' mpi.mpi_seconds the halo exchange's MPI time), its console (RUN.txt), each process's CPU
# affinity (RUN.affinity), its wall time (RUN.wall). Every file of P > 1 processes is compared with the
# one-process file of its shape and launch (RUN.compare: awave -compare), then deleted. A run past LIMIT
# seconds is cut (its .wall says so). Runs are interleaved: launch, then processes, then shape, ROUNDS times.
#   [LAUNCHES="issue none pe"] [PROCS="1 2 3 4"] [SHAPES="wide big"] [ROUNDS=1] [LIMIT=150] [HINTS=...]
#   bench/studies/output-over-mpi/output-rate.sh OUT_DIR [BUILD]        (BUILD default host-mpi)
# HINTS: ROMIO hints for every run (ROMIO_HINTS file lines, ';'-separated), e.g. "romio_cb_write disable".
# ENVS: more VAR=VALUE for every process (space-separated), e.g. LD_PRELOAD of no_fsync.c's library.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../device/common.sh"
out=${1:?usage: output-rate.sh OUT_DIR [BUILD]}
build=${2:-host-mpi}
mkdir -p "$out" && out=$(cd "$out" && pwd)
exe=$PWD/build/$build/src/awave
[ -x "$exe" ] || { echo "output-rate: $exe not built" >&2; exit 1; }
work=${AWAVE_WORK:-/tmp/awave-output-rate}
rm -rf "$work" && mkdir -p "$work"
cores=$(nproc)
record_machine "$out/machine.txt"
df -h "$work" | tail -1 >> "$out/machine.txt"
hint_env=()
if [ -n "${HINTS:-}" ]; then
  tr ';' '\n' <<< "$HINTS" | sed 's/^ *//' > "$out/romio-hints.txt"
  hint_env=(ROMIO_HINTS="$out/romio-hints.txt")
fi
shape_args() {
  case $1 in
    wide) echo "-shape 1024,260,250 -nsteps 10 -out_period 5" ;;
    big) echo "-shape 777,555,333 -nsteps 18 -out_period 9 -snapshot_precision single -checkpoint_period 18" ;;
    *) echo "output-rate: unknown shape $1" >&2; exit 1 ;;
  esac
}
for round in $(seq 1 "${ROUNDS:-1}"); do
  for launch in ${LAUNCHES:-issue none pe}; do
    for np in ${PROCS:-1 2 3 4}; do
      for shape in ${SHAPES:-wide big}; do
        t=$((cores / np))
        name=$launch-$shape-np$np-r$round
        # shellcheck disable=SC2206
        envs=(OMP_NUM_THREADS=$t "${hint_env[@]}" ${ENVS:-})
        flags=(--oversubscribe)
        case $launch in
          issue) envs+=(OMP_PROC_BIND=spread OMP_PLACES=threads) ;;
          none) flags+=(--bind-to none) ;;
          pe) envs+=(OMP_PROC_BIND=spread OMP_PLACES=threads); flags+=(--map-by "slot:PE=$t" --bind-to core) ;;
          *) echo "output-rate: unknown launch $launch" >&2; exit 1 ;;
        esac
        exports=(-x LD_LIBRARY_PATH)
        for e in "${envs[@]}"; do exports+=(-x "${e%%=*}"); done
        start=$(date +%s.%N)
        # shellcheck disable=SC2046
        (cd "$work" && env -u OMP_PROC_BIND -u OMP_PLACES "${envs[@]}" timeout "${LIMIT:-150}" \
           mpirun -np "$np" "${flags[@]}" "${exports[@]}" \
           sh -c 'echo "rank $OMPI_COMM_WORLD_RANK: $(grep Cpus_allowed_list /proc/self/status)" >> "$0.affinity"; exec "$@"' \
           "$out/$name" "$exe" -impl cpu-openmp -no_check -quiet -json "$out/$name.json" $(shape_args "$shape") "$name" \
           > "$out/$name.txt" 2>&1)
        rc=$?
        echo "$(python3 -c "print(round($(date +%s.%N) - $start, 3))") s, exit $rc$([ $rc = 124 ] && echo ", cut at ${LIMIT:-150} s")" > "$out/$name.wall"
        echo "$name: $(cat "$out/$name.wall")"
        if [ "$np" = 1 ]; then
          mv "$work/$name.cpu-openmp.vtkhdf" "$work/one-$launch-$shape.vtkhdf" 2>/dev/null
        elif [ -e "$work/$name.cpu-openmp.vtkhdf" ] && [ -e "$work/one-$launch-$shape.vtkhdf" ]; then
          "$exe" -compare "$work/one-$launch-$shape.vtkhdf" "$work/$name.cpu-openmp.vtkhdf" > "$out/$name.compare" 2>&1
          echo "  compare: exit $? ($(tail -1 "$out/$name.compare" | cut -c1-120))"
        fi
        rm -f "$work/$name".*
      done
    done
    rm -f "$work"/one-"$launch"-*
  done
done
rm -rf "$work"
python3 "$(dirname "${BASH_SOURCE[0]}")/output_rate_summary.py" "$out" | tee "$out/summary.md"
