#!/usr/bin/env bash
# The portability study on this machine, in one command: the sweeps of every build present (build/cuda,
# build/openmptarget on a GPU; build/host, and the offload build with its target regions on the host, on the CPU)
# in interleaved rounds, the Kokkos effort ladder, the joules on a GPU, the lines of code and, where the builds'
# compilers are, the code divergence; then this machine's report, OUT/report/report.md (README: the study).
#   bench/study.sh OUT
# Knobs: SIZES (GPU; 128,256,512,1000), HOST_SIZES (CPU; the GPU's, or 64,96 without a GPU; none: skip a part),
# ROUNDS (5), GPU_BUILDS ("cuda openmptarget", those present), ONLY_HOST=1, HOST_BUILD (build/host), UNBOUND=0
# (no unbound CPU plan), VARIANTS=0 (no variants), ENERGY=0 (no joules; ENERGY_ROUNDS, 1), NAIVE_SIZES (512), and
# OTHER_KOKKOS="NAME=DIR ..." (e.g. cuda-k46=build/cuda-k46): builds against another Kokkos whose Kokkos codes run
# in the same rounds, with rows on the first screen.
set -uo pipefail
out=${1:?usage: bench/study.sh OUT}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# The toolchains, and those whose codes run on a GPU, as cmake/toolchains/ lists them (bench/catalog.py).
toolchains=$(python3 bench/catalog.py toolchains) && device_toolchains=$(python3 bench/catalog.py toolchains --on-device) ||
  { echo "study: bench/catalog.py could not list the toolchains" >&2; exit 2; }
for p in ${GPU_BUILDS:-}; do
  [[ " $device_toolchains " == *" $p "* ]] || { echo "study: GPU_BUILDS takes ${device_toolchains// / and }, not '$p'" >&2; exit 2; }
done
[[ ${ROUNDS:-5} =~ ^[1-9][0-9]*$ ]] || { echo "study: ROUNDS takes a count of 1 or more, not '${ROUNDS}'" >&2; exit 2; }
for knob in UNBOUND VARIANTS ENERGY; do
  [[ ${!knob:-1} =~ ^[01]$ ]] || { echo "study: $knob takes 0 or 1, not '${!knob}'" >&2; exit 2; }
done
for entry in ${OTHER_KOKKOS:-}; do
  [[ $entry =~ ^([a-z0-9]+)-[A-Za-z0-9.]+=.+$ && " $toolchains " == *" ${BASH_REMATCH[1]} "* ]] ||
    { echo "study: OTHER_KOKKOS takes PRESET-SUFFIX=DIR items (PRESET ${toolchains// /, }), not '$entry'" >&2; exit 2; }
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

gpu_builds=(); [ "${ONLY_HOST:-0}" = 1 ] || for p in ${GPU_BUILDS:-$device_toolchains}; do [ -x "build/$p/src/awave" ] && gpu_builds+=("$p"); done
has_build() { [[ " ${gpu_builds[*]} " == *" $1 "* ]]; }
# The first page's codes that sweep by default, per build (the others take single steps anyway).
sweepers() { python3 bench/catalog.py sweepers "$1"; }
code() { python3 bench/catalog.py code "$1" "$2"; }  # an application's code on a toolchain: code cuda "Kokkos tuned"

[ "$sizes" = none ] && sizes=
[ $gpu = 1 ] || sizes=
[ "$host_sizes" = none ] && host_sizes=
host_build=${HOST_BUILD:-build/host}
# Round r of every plan before round r + 1 of any (ABC ABC), so that a drift of the machine reaches every code
# alike. A platform's default plan (the CPU's: its single-step plan) is checked in round 1; its other plans and
# later rounds are held by digest.
for r in $(seq "$rounds"); do
  round=(--rounds "$rounds" --round "$r")
  if [ -n "$sizes" ]; then
    for preset in "${gpu_builds[@]}"; do
      sweep "$preset" "$out" --sizes "$sizes" "${round[@]}"
      sweep "$preset" "$out" --sizes "$sizes" "${round[@]}" --impls "$(sweepers "$preset")" --tune steps_per_sweep=1 \
        --label single-steps --held
    done
  fi
  # The Kokkos codes of the builds against another Kokkos, where their platform runs in this study.
  for entry in ${OTHER_KOKKOS:-}; do
    name=${entry%%=*} dir=${entry#*=} preset=${entry%%-*}
    reference=()
    if [[ " $device_toolchains " == *" $preset "* ]]; then part_sizes=$sizes; has_build "$preset" || part_sizes=
    else part_sizes=$host_sizes reference=(--reference cpu-openmp); fi  # (the CPU: as the host plans below)
    [ -n "$part_sizes" ] || continue
    other=("$preset" "$out" --sizes "$part_sizes" "${round[@]}" --name "$name" --exe "$dir/src/awave" "${reference[@]}" --held)
    sweep "${other[@]}" --impls "$(code "$preset" "Kokkos tuned,Kokkos idiomatic")"
    sweep "${other[@]}" --impls "$(code "$preset" "Kokkos tuned")" --tune steps_per_sweep=1 --label single-steps
  done
  # The CPU platform: the host build's threaded codes, bound as the README advises and unbound.
  if [ -x "$host_build/src/awave" ] && [ -n "$host_sizes" ]; then
    host=(host "$out" --sizes "$host_sizes" "${round[@]}" --reference cpu-openmp --exe "$host_build/src/awave")
    # The single-step plan is the checked one: a checked run's reference takes single steps, which cost the
    # sweep its round-1 run (the Xeon's sweep cells had 4 runs of 6, results/h100-2026-11-27/study-557d8ff).
    threaded=$(code host "hand-written,Kokkos tuned,Kokkos idiomatic")
    sweep "${host[@]}" --impls "$threaded" --held
    sweep "${host[@]}" --impls "$(sweepers host)" --tune steps_per_sweep=1 --label single-steps
    [ "${UNBOUND:-1}" = 0 ] || sweep "${host[@]}" --impls "$threaded" \
      --env OMP_PROC_BIND=false --label unbound --held
  fi
done
# The variants, once each, unchecked (evidence beside the first page).
variants=${VARIANTS:-1}
if [ -n "$sizes" ] && [ "$variants" = 1 ]; then
  for preset in "${gpu_builds[@]}"; do
    sweep "$preset" "$out" --sizes "$sizes" --impls "$(code "$preset" "Kokkos idiomatic")" --tune kokkos.tile=0x0x0 \
      --label default-tiles --no-check
  done
  # The naive axis order (i, j, k) on CUDA, whose backend needs k first (OpenMPTarget's needed order already).
  if has_build cuda; then
    sweep cuda "$out" --sizes "${NAIVE_SIZES:-512}" --impls "$(code cuda "Kokkos idiomatic")" \
      --tune kokkos.axes=ijk,kokkos.tile=0x0x0 \
      --label naive-axes --no-check
  fi
fi
if has_build openmptarget && [ -n "$host_sizes" ] && [ "$variants" = 1 ]; then
  sweep openmptarget "$out" --sizes "$host_sizes" --impls "$(python3 bench/catalog.py implementations openmptarget)" \
    --env OMP_TARGET_OFFLOAD=DISABLED --label offload-disabled --no-check
  sweep openmptarget "$out" --sizes "$host_sizes" --impls "$(sweepers openmptarget)" --tune steps_per_sweep=1 \
    --env OMP_TARGET_OFFLOAD=DISABLED --label offload-disabled-single-steps --no-check
fi
# Joules a site update on the GPU: each GPU build's codes at 512^3 and more (bench/device/energy.sh).
energy_sizes=$(tr ',' '\n' <<< "$sizes" | awk '$1 >= 512' | paste -sd' ')
if [ -n "$energy_sizes" ] && [ "${ENERGY:-1}" = 1 ]; then
  for preset in "${gpu_builds[@]}"; do
    codes=$(python3 bench/catalog.py implementations "$preset")
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
