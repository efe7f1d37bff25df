#!/usr/bin/env bash
# Builds awave at each COMMIT as this checkout would (its path, through a private mount namespace; root), with
# the sources' file times fixed, and moves each build tree to OUT/COMMIT/NAME for bench/same_gpu_code.py.
# One clone serves every commit: a file no commit changes keeps its inode, which clang's offload region names
# carry. nvcc's -lineinfo carries the sources' paths and times.
#   build-at-one-path.sh CLONE OUT COMMIT:PRESET:NAME[:CMAKE_ARG] ...
#   e.g. ... /tmp/clone /tmp/builds 557d8ff:cuda:cuda d66e879:cuda:cuda-k46:-DAWAVE_KOKKOS_SOURCE=/src/kokkos-4.6.01
set -euo pipefail
clone=${1:?usage: build-at-one-path.sh CLONE OUT COMMIT:PRESET:NAME[:CMAKE_ARG] ...}
out=${2:?usage: build-at-one-path.sh CLONE OUT COMMIT:PRESET:NAME[:CMAKE_ARG] ...}
shift 2
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
for item in "$@"; do  # every item checked before any builds
  [[ $item =~ ^[0-9a-f]{7,40}:[a-z0-9-]+:[a-z0-9-]+(:.*)?$ ]] ||
    { echo "build-at-one-path: '$item' is not COMMIT:PRESET:NAME[:CMAKE_ARG]" >&2; exit 2; }
  git -C "$top" cat-file -e "${item%%:*}^{commit}" 2>/dev/null ||
    { echo "build-at-one-path: no commit '${item%%:*}' in $top" >&2; exit 2; }
done
for dir in "$clone" "$out"; do  # the build hides this checkout behind the clone
  case "$(realpath -m "$dir")/" in "$top"/*) echo "build-at-one-path: $dir is inside $top: put it outside" >&2; exit 2 ;; esac
done
mkdir -p "$out"
if [ -d "$clone/.git" ]; then  # a clone made before: clean (tracked files; the builds are moved out), and current
  [ -z "$(git -C "$clone" status --porcelain --untracked-files=no)" ] ||
    { echo "build-at-one-path: $clone has local changes: use a fresh clone" >&2; exit 2; }
  git -C "$clone" fetch -q "$top"
else
  git clone -q "$top" "$clone"
fi
for item in "$@"; do
  IFS=: read -r commit preset name arg <<< "$item"
  git -C "$clone" checkout -q --detach "$commit"
  # Times fixed (the -lineinfo tables hold them); a build tree left from before would keep its own.
  (cd "$clone" && rm -rf "build/$name" && find . -path ./.git -prune -o -print0 | xargs -0 touch -h -d '2026-01-01 00:00:00')
  log=$out/$commit-$name.log
  unshare -m --propagation private bash -c 'mount --bind "$1" "$2" && cd "$2" &&
    cmake --preset "$3" -B "build/$4" ${5:+"$5"} && cmake --build "build/$4" --target awave -j2' \
    _ "$clone" "$top" "$preset" "$name" "$arg" > "$log" 2>&1 ||
    { echo "build-at-one-path: $commit $name failed: $log" >&2; exit 1; }
  mkdir -p "$out/${commit:0:7}"
  rm -rf "$out/${commit:0:7}/$name"
  mv "$clone/build/$name" "$out/${commit:0:7}/$name"
  stamp=$(strings "$out/${commit:0:7}/$name/src/awave" | grep -m1 -E '^[0-9a-f]{12}(-dirty)?$')
  echo "$commit $name: $out/${commit:0:7}/$name ($stamp)"
  [[ $stamp != *-dirty ]] || { echo "build-at-one-path: $commit $name built from a dirty tree" >&2; exit 1; }
done
