#!/bin/bash
# On a GPU machine: bench/study.sh in parts, each PART:SECONDS under its own time limit, so that a study longer than
# a device call comes back part by part. Parts: cuda | openmptarget (that preset's runs) | cpu (the host build's and
# the offload build's on the CPU), at SIZES, into STUDY_DIR/study-TAG (TAG: h100 or h200; STUDY_DIR: ~/awave-study),
# tarred to $OUT after each part. study.sh's knobs pass through, so a part can be split by size too:
#   SIZES=128,256,512 bench/device/on-device.sh ARCHIVE bash bench/device/study-parts.sh cuda:200 cpu:170
#   SIZES=1000 ROUNDS=3 UNBOUND=0 VARIANTS=0 ... study-parts.sh cpu:380
set -u
sizes=${SIZES:?SIZES: the sizes of every part, e.g. 128,256,512}
for item in "$@"; do  # every part checked before any runs
  [[ $item =~ ^(cuda|openmptarget|cpu):[0-9]+$ ]] ||
    { echo "study-parts: '$item' is not PART:SECONDS (cuda, openmptarget or cpu)" >&2; exit 2; }
done
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
tag=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | awk '{print tolower($2)}')
study_dir=${STUDY_DIR:-$HOME/awave-study}
s=$study_dir/study-$tag
mkdir -p "$s"
for item in "$@"; do
  part=${item%%:*}; limit=${item#*:}
  start=$(date +%s)
  case $part in
    cuda | openmptarget) GPU_BUILDS=$part SIZES=$sizes HOST_SIZES=none timeout "$limit" bash bench/study.sh "$s" >> "$s/console-$part.txt" 2>&1 ;;
    cpu) SIZES=none HOST_SIZES=$sizes timeout "$limit" bash bench/study.sh "$s" >> "$s/console-$part.txt" 2>&1 ;;
  esac
  echo "study.sh exit $?, $(( $(date +%s) - start )) s" >> "$s/console-$part.txt"
  nvidia-smi --query-gpu=name,clocks.current.sm,clocks.max.sm,temperature.gpu --format=csv >> "$s/console-$part.txt"
  tar -C "$study_dir" -cJf "$OUT/study-$tag-$part.tar.xz" "study-$tag"
  tail -3 "$s/console-$part.txt"
done
