#!/usr/bin/env bash
# On the GPU machine: unpack an archive of stage.sh at this checkout's root, put its libraries on LD_LIBRARY_PATH
# and run COMMAND there. The build trees' ctest files name the build machine's path: made to point here.
#   bench/device/on-device.sh ARCHIVE COMMAND...
set -euo pipefail
archive=${1:?usage: on-device.sh ARCHIVE COMMAND...}
shift
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tar -C "$top" -xJf "$archive"
# OpenMPI's runtime for builds over MPI, replacing the (throwaway) machine's: its PMIx was older than the staged
# plugins need ("mca_pmix_ext3x.so: undefined symbol: PMIx_Info_create").
if [ -f "$top/.device/mpi-root.tar" ]; then
  tar -C / -xf "$top/.device/mpi-root.tar"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
rt=$top/.device/rt/lib
export LD_LIBRARY_PATH=/usr/local/nvidia/lib64:$rt${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$top/.device/bin:$PATH  # h5diff, h5dump
for cache in "$top"/build/*/CMakeCache.txt; do
  [ -f "$cache" ] || continue
  src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$cache")
  if [ -n "$src" ] && [ ! -e "$src" ]; then mkdir -p "$(dirname "$src")" && ln -s "$top" "$src"; fi
done
cd "$top"
"$@"
