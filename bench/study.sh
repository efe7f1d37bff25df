#!/usr/bin/env bash
# The portability study on this machine, in one command: the sweeps of every build present
# (build/cuda, build/openmptarget on a GPU; build/host, and the offload build with its target
# regions on the host, on the CPU), the Kokkos effort ladder (the idiomatic form with Kokkos'
# default tiles; the naive axis order once), the lines of code and, where the builds' compilers
# are here, the code divergence; then this machine's report in OUT/report/report.md, whose first
# page answers with the cascade plots, the navigation chart and the table.
#   bench/study.sh OUT
# The builds are build/PRESET; HOST_BUILD names another folder for the host one, GPU_BUILDS the GPU
# presets to run (default "cuda openmptarget", those present), and ONLY_HOST=1 leaves the GPU builds
# out even where they exist (ctest does both: it tests one build).
# Sizes: SIZES (GPU, default 128,256,512,1000: the first page's PP over sizes), HOST_SIZES (CPU,
# default the GPU's, so every size has all platforms; 64,96 without a GPU; none skips either part). The variants run unchecked (†); every default run is checked
# against the CPU reference. ROUNDS (default 5): the first page's runs are repeated in separate
# processes, round by round across all of them (every code and algorithm once before any runs again),
# so each cell is a median with the min-max of its runs (rounds after the first are held to the
# first's reference by their digest; a platform's other plans, round 1 too, to its default plan's
# checked run: sweep.py --held, a check costing about a minute a plan at 1000^3); the variants run
# once, after. The codes that sweep by default run again, as many rounds, with -tune
# steps_per_sweep=1 (label single-steps): the first page's question (a) compares single steps in
# every model, (b) each model's best.
# On a GPU, each GPU build's joules a site update follow (bench/device/energy.sh; ENERGY=0: not).
# UNBOUND=0 leaves the CPU's unbound plan out and VARIANTS=0 the variants (for a part at a size where they
# cost more than they tell: a CPU process at 1000^3 spends about 18 s a code).
# OTHER_KOKKOS="NAME=DIR ..." (e.g. "cuda-k46=build/cuda-k46 host-k46=build/host-k46"): builds of the
# same sources against another Kokkos (docs/kokkos.md), NAME the preset and a suffix; their Kokkos
# codes run in the same rounds, beside the first page's, and its first screen gives them rows.
set -uo pipefail
out=${1:?usage: bench/study.sh OUT}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
for p in ${GPU_BUILDS:-}; do
  case $p in cuda | openmptarget) ;; *) echo "study: GPU_BUILDS takes cuda and openmptarget, not '$p'" >&2; exit 2 ;; esac
done
[[ ${ROUNDS:-5} =~ ^[1-9][0-9]*$ ]] || { echo "study: ROUNDS takes a count of 1 or more, not '${ROUNDS}'" >&2; exit 2; }
for knob in UNBOUND VARIANTS ENERGY; do
  [[ ${!knob:-1} =~ ^[01]$ ]] || { echo "study: $knob takes 0 or 1, not '${!knob}'" >&2; exit 2; }
done
for entry in ${OTHER_KOKKOS:-}; do
  [[ $entry =~ ^(cuda|openmptarget|host)-[A-Za-z0-9.]+=.+$ ]] ||
    { echo "study: OTHER_KOKKOS takes PRESET-SUFFIX=DIR items (PRESET cuda, openmptarget or host), not '$entry'" >&2; exit 2; }
  [ -x "${entry#*=}/src/awave" ] || { echo "study: OTHER_KOKKOS: no ${entry#*=}/src/awave" >&2; exit 2; }
done
mkdir -p "$out"
gpu=0
if command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1; then gpu=1; fi
sizes=${SIZES:-128,256,512,1000}
host_sizes=${HOST_SIZES:-$([ $gpu = 1 ] && echo 128,256,512,1000 || echo 64,96)}
# The CPU runs' binding, as the README recommends (each run records it; the unbound runs beside).
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
{ [ $gpu = 1 ] && nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader
  lscpu | grep -E '^(Model name|CPU\(s\)|Thread|Core|Socket)'; } > "$out/machine.txt"
rounds=${ROUNDS:-5}
status=0
sweep() { echo "== sweep.py $*"; python3 bench/sweep.py "$@" || status=1; }

gpu_builds=(); [ "${ONLY_HOST:-0}" = 1 ] || for p in ${GPU_BUILDS:-cuda openmptarget}; do [ -x "build/$p/src/awave" ] && gpu_builds+=("$p"); done
has_build() { [[ " ${gpu_builds[*]} " == *" $1 "* ]]; }
# The first page's codes that sweep by default, per build (the others take single steps anyway).
sweepers() { case $1 in cuda) echo cuda,kokkos-cuda ;; openmptarget) echo omp,kokkos-openmptarget ;; host) echo cpu-openmp,kokkos-openmp ;; esac; }

[ "$sizes" = none ] && sizes=
[ $gpu = 1 ] || sizes=
[ "$host_sizes" = none ] && host_sizes=
host_build=${HOST_BUILD:-build/host}
# The first page's runs, round by round across every code and algorithm (ABC ABC, not AAAAA BBBBB):
# round r of each plan before round r + 1 of any, so that a drift of the machine (clocks, heat, a
# neighbour) reaches every code alike. Round 1 is checked; later rounds are held to its digest.
for r in $(seq "$rounds"); do
  if [ -n "$sizes" ]; then
    for preset in "${gpu_builds[@]}"; do
      sweep "$preset" "$out" --sizes "$sizes" --rounds "$rounds" --round "$r"
      sweep "$preset" "$out" --sizes "$sizes" --rounds "$rounds" --round "$r" --impls "$(sweepers "$preset")" \
        --tune steps_per_sweep=1 --label single-steps --held
    done
  fi
  # The Kokkos codes of the builds against another Kokkos, where their platform runs in this study.
  for entry in ${OTHER_KOKKOS:-}; do
    name=${entry%%=*} dir=${entry#*=} preset=${entry%%-*}
    if [ "$preset" = host ]; then part_sizes=$host_sizes; else part_sizes=$sizes; has_build "$preset" || part_sizes=; fi
    [ -n "$part_sizes" ] || continue
    backend=$preset reference=()
    [ "$preset" = host ] && backend=openmp reference=(--reference cpu-openmp)  # as the host plans below
    other=(--sizes "$part_sizes" --rounds "$rounds" --round "$r" --name "$name" --exe "$dir/src/awave" "${reference[@]}" --held)
    sweep "$preset" "$out" "${other[@]}" --impls "kokkos-$backend,kokkos-$backend-mdrange"
    sweep "$preset" "$out" "${other[@]}" --impls "kokkos-$backend" --tune steps_per_sweep=1 --label single-steps
  done
  # The CPU platform: the host build's threaded codes (the offload build's, with its target regions on
  # the host, are variants below); the other binding (unbound threads) beside the README's (spread).
  if [ -x "$host_build/src/awave" ] && [ -n "$host_sizes" ]; then
    sweep host "$out" --sizes "$host_sizes" --rounds "$rounds" --round "$r" \
      --impls cpu-openmp,kokkos-openmp,kokkos-openmp-mdrange --reference cpu-openmp --exe "$host_build/src/awave"
    sweep host "$out" --sizes "$host_sizes" --rounds "$rounds" --round "$r" --impls "$(sweepers host)" \
      --reference cpu-openmp --tune steps_per_sweep=1 --label single-steps --exe "$host_build/src/awave" --held
    [ "${UNBOUND:-1}" = 0 ] || sweep host "$out" --sizes "$host_sizes" --rounds "$rounds" --round "$r" \
      --impls cpu-openmp,kokkos-openmp,kokkos-openmp-mdrange --reference cpu-openmp --env OMP_PROC_BIND=false \
      --label unbound --exe "$host_build/src/awave" --held
  fi
done
# The variants, once each, unchecked (evidence beside the first page).
variants=${VARIANTS:-1}
if [ -n "$sizes" ] && [ "$variants" = 1 ]; then
  for preset in "${gpu_builds[@]}"; do
    sweep "$preset" "$out" --sizes "$sizes" --impls "kokkos-$preset-mdrange" --tune kokkos.tile=0x0x0 \
      --label default-tiles --no-check
  done
  # The naive order (i, j, k) on CUDA, where the backend needs k on the first axis; on OpenMPTarget
  # (i, j, k) is the needed order already.
  if has_build cuda; then
    sweep cuda "$out" --sizes "${NAIVE_SIZES:-512}" --impls kokkos-cuda-mdrange --tune kokkos.axes=ijk,kokkos.tile=0x0x0 \
      --label naive-axes --no-check
  fi
fi
if has_build openmptarget && [ -n "$host_sizes" ] && [ "$variants" = 1 ]; then
  sweep openmptarget "$out" --sizes "$host_sizes" --impls omp,kokkos-openmptarget,kokkos-openmptarget-mdrange \
    --env OMP_TARGET_OFFLOAD=DISABLED --label offload-disabled --no-check
  sweep openmptarget "$out" --sizes "$host_sizes" --impls "$(sweepers openmptarget)" --tune steps_per_sweep=1 \
    --env OMP_TARGET_OFFLOAD=DISABLED --label offload-disabled-single-steps --no-check
fi
# Joules a site update on the GPU (the report's energy section): each GPU build's codes at the sizes of 512^3 and
# more, ENERGY_ROUNDS (1) rounds of seconds-long runs (bench/device/energy.sh); ENERGY=0 leaves it out.
energy_sizes=$(tr ',' '\n' <<< "$sizes" | awk '$1 >= 512' | paste -sd' ')
if [ -n "$energy_sizes" ] && [ "${ENERGY:-1}" = 1 ]; then
  for preset in "${gpu_builds[@]}"; do
    case $preset in cuda) codes=cuda,kokkos-cuda,kokkos-cuda-mdrange ;; *) codes=omp,kokkos-openmptarget,kokkos-openmptarget-mdrange ;; esac
    ROUNDS=${ENERGY_ROUNDS:-1} SIZES=$energy_sizes bash bench/device/energy.sh "$preset" "$codes" "$out/energy-$preset" ||
      status=1
  done
fi
python3 bench/count_loc.py "$out/loc.json" || status=1
builds=()
for preset in "${gpu_builds[@]}"; do [ -f "build/$preset/compile_commands.json" ] && builds+=("$preset=build/$preset"); done
[ -f "$host_build/compile_commands.json" ] && builds+=("host=$host_build")
if [ ${#builds[@]} -gt 0 ]; then
  python3 bench/code_divergence.py "$out/divergence.json" "${builds[@]}" ||
    echo "study: no code divergence here (the builds' compilers are not on this machine)"
fi
python3 bench/report.py --study "$out" -o "$out/report" || status=1
exit $status
