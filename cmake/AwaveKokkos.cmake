# Kokkos for awave: an installed one when the user names it (Kokkos_ROOT, 3.4 to 5.x), else
# one bootstrapped with the patches for its version in cmake/patches: Kokkos 3.4.01 from Debian's
# trilinos source package, or the source tree AWAVE_KOKKOS_SOURCE names (4.6.01), built once per
# Kokkos the toolchain asks for into a cache outside the clone
# (cmake/scripts/bootstrap-kokkos.sh). Included before project(): the toolchain (its folder,
# cmake/AwaveToolchain.cmake) decides the C++ compiler (nvcc_wrapper for cuda, clang++ 19 with
# offload for openmptarget).

set(AWAVE_CUDA_ARCH "HOPPER90" CACHE STRING "GPU architecture, as a Kokkos arch option (HOPPER90 = sm_90)")
set(_awave_arch_map HOPPER90=90 AMPERE86=86 AMPERE80=80 TURING75=75 VOLTA70=70)
list(FILTER _awave_arch_map INCLUDE REGEX "^${AWAVE_CUDA_ARCH}=")
if(NOT _awave_arch_map)
  message(FATAL_ERROR "AWAVE_CUDA_ARCH='${AWAVE_CUDA_ARCH}': use HOPPER90, AMPERE86, AMPERE80, TURING75 or VOLTA70")
endif()
string(REGEX REPLACE ".*=" "" AWAVE_SM "${_awave_arch_map}")  # 90 for HOPPER90

function(awave_run_script result)
  execute_process(COMMAND bash ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "awave: ${ARGV1} failed for toolchain '${AWAVE_BACKEND}':\n${err}")
  endif()
  string(REGEX REPLACE ".*\n" "" last_line "${out}")
  set(${result} "${last_line}" PARENT_SCOPE)
endfunction()

# The toolchain's folder, loaded by name: what it declares, and its settings before project().
include(${CMAKE_CURRENT_LIST_DIR}/AwaveToolchain.cmake)

# A build directory keeps the Kokkos it was first configured with; another backend or arch
# needs its own build directory (its compiler and Kokkos differ).
set(AWAVE_KOKKOS_SOURCE "" CACHE PATH
    "Kokkos source tree to bootstrap instead of Debian's 3.4.01 (4.6.01 is patched for CUDA 13 here)")
# Keyed by the Kokkos the toolchain asks the bootstrap for, not by the toolchain's name.
set(_awave_bootstrap_key "${AWAVE_TOOLCHAIN_KOKKOS_BOOTSTRAP} ${AWAVE_CUDA_ARCH}")
if(AWAVE_KOKKOS_SOURCE)
  string(APPEND _awave_bootstrap_key " ${AWAVE_KOKKOS_SOURCE}")
endif()
if(AWAVE_KOKKOS_BOOTSTRAP_KEY AND NOT AWAVE_KOKKOS_BOOTSTRAP_KEY STREQUAL _awave_bootstrap_key)
  message(FATAL_ERROR "awave: this build directory was configured for '${AWAVE_KOKKOS_BOOTSTRAP_KEY}'; "
                      "configure '${_awave_bootstrap_key}' in a fresh one (e.g. cmake --preset cuda -B build/cuda-other)")
endif()
# The installation the bootstrap gives for this backend, arch, source and today's patches (built
# the first time, then cached).
function(awave_bootstrap_kokkos result)
  if(AWAVE_KOKKOS_SOURCE)
    set(ENV{AWAVE_KOKKOS_SOURCE} "${AWAVE_KOKKOS_SOURCE}")
  else()
    unset(ENV{AWAVE_KOKKOS_SOURCE})
  endif()
  awave_run_script(_prefix ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/scripts/bootstrap-kokkos.sh
                   ${AWAVE_TOOLCHAIN_KOKKOS_BOOTSTRAP} ${AWAVE_CUDA_ARCH})
  set(${result} "${_prefix}" PARENT_SCOPE)
endfunction()
if(NOT Kokkos_ROOT AND NOT DEFINED ENV{Kokkos_ROOT})
  if(NOT AWAVE_TOOLCHAIN_KOKKOS_BOOTSTRAP)
    message(FATAL_ERROR "awave: toolchain '${AWAVE_BACKEND}' names no Kokkos to bootstrap "
                        "(AWAVE_TOOLCHAIN_KOKKOS_BOOTSTRAP): give an installed one with -DKokkos_ROOT=...")
  endif()
  if(AWAVE_KOKKOS_SOURCE)
    message(STATUS "awave: bootstrapping Kokkos from ${AWAVE_KOKKOS_SOURCE} for '${AWAVE_TOOLCHAIN_KOKKOS_BOOTSTRAP}' "
                   "(cached; the first time takes minutes)")
  else()
    message(STATUS "awave: bootstrapping Kokkos 3.4.01 for '${AWAVE_TOOLCHAIN_KOKKOS_BOOTSTRAP}' "
                   "(cached; the first time takes minutes)")
  endif()
  awave_bootstrap_kokkos(_prefix)
  set(Kokkos_ROOT "${_prefix}" CACHE PATH "Kokkos installation (bootstrapped)" FORCE)
  set(AWAVE_KOKKOS_BOOTSTRAP_KEY "${_awave_bootstrap_key}" CACHE INTERNAL "what Kokkos_ROOT was bootstrapped for")
elseif(AWAVE_KOKKOS_BOOTSTRAP_KEY)
  # A build directory configured before the project's Kokkos patches changed would keep building
  # against the old installation, silently (it did: bench/results/h200-2026-11-26/README.md,
  # "A confound"). Each configure asks the bootstrap which installation today's patches give
  # (cached: a fraction of a second; else it builds that one, which a fresh configure needs too).
  awave_bootstrap_kokkos(_expected)
  if(NOT _expected STREQUAL Kokkos_ROOT)
    message(FATAL_ERROR "awave: this build directory's Kokkos (${Kokkos_ROOT}) is not the one the project's "
                        "patches give now (${_expected}); configure it afresh (cmake --preset <name> --fresh)")
  endif()
endif()
if(NOT Kokkos_ROOT)
  set(Kokkos_ROOT "$ENV{Kokkos_ROOT}")
endif()

# The toolchain's compilers, where they come from the Kokkos (cuda: its nvcc_wrapper).
if(COMMAND awave_toolchain_after_kokkos)
  awave_toolchain_after_kokkos()
endif()

# An installed Kokkos whose CMake package imports files it does not contain fails inside
# find_package with a message about Kokkos' own files. Debian's libkokkos-dev 5.2.2 is such a
# package: it imports libkokkosalgorithms.a and libkokkossimd.a but does not ship them (both
# are header-only in Kokkos 5, so empty archives made with `ar rc` stand in for them; the
# project's trixie root does that, cmake/scripts/make-trixie-root.sh). Say so before failing.
function(awave_check_kokkos_install)
  if(NOT Kokkos_ROOT)
    return()
  endif()
  file(GLOB _targets "${Kokkos_ROOT}/lib*/cmake/Kokkos/KokkosTargets-*.cmake"
       "${Kokkos_ROOT}/lib/*/cmake/Kokkos/KokkosTargets-*.cmake")  # lib, lib64, Debian's multiarch
  set(_missing)
  foreach(_file IN LISTS _targets)
    file(STRINGS "${_file}" _lines REGEX "IMPORTED_LOCATION[A-Z_]* \"\\\${_IMPORT_PREFIX}/")
    foreach(_line IN LISTS _lines)
      string(REGEX REPLACE ".*\\\${_IMPORT_PREFIX}/([^\"]+)\".*" "\\1" _rel "${_line}")
      if(NOT EXISTS "${Kokkos_ROOT}/${_rel}")
        list(APPEND _missing "${Kokkos_ROOT}/${_rel}")
      endif()
    endforeach()
  endforeach()
  if(_missing)
    list(JOIN _missing ", " _missing)
    message(FATAL_ERROR "awave: the Kokkos installation at ${Kokkos_ROOT} is incomplete: its CMake package imports "
                        "${_missing}, which do not exist. Debian's libkokkos-dev 5.2.2 ships without "
                        "libkokkosalgorithms.a and libkokkossimd.a (header-only in Kokkos 5): create them empty "
                        "with `ar rc FILE` (as root), then configure again.")
  endif()
endfunction()
