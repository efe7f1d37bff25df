#!/usr/bin/env bash
# Runs COMMAND with the CUDA driver library loadable. Kokkos 4 and later link CUDA programs to
# libcuda.so.1, which exists only where an NVIDIA driver is installed, so on a build machine
# without one even listing a test binary's tests fails to load it. There, this points the
# loader at CUDA's stub library (whose calls all fail, so GPU tests skip cleanly); where a
# driver is installed it changes nothing. Used as the CMake test emulator of the cuda preset.
#   run-with-cuda-driver.sh STUB_DIR COMMAND...
set -euo pipefail
stub_dir=${1:?usage: run-with-cuda-driver.sh STUB_DIR COMMAND...}
shift
driver_found() {
  ldconfig -p 2>/dev/null | grep -F 'libcuda.so.1 ' >/dev/null && return 0
  local d dirs
  IFS=: read -ra dirs <<< "${LD_LIBRARY_PATH:-}"
  for d in "${dirs[@]}" /usr/local/nvidia/lib64; do [ -n "$d" ] && [ -e "$d/libcuda.so.1" ] && return 0; done
  return 1
}
if ! driver_found && [ -e "$stub_dir/libcuda.so.1" ]; then
  export LD_LIBRARY_PATH=$stub_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
exec "$@"
