# Kokkos for awave: an installed one when the user names it (Kokkos_ROOT, 3.4 to 5.x), else
# one bootstrapped with the patches for its version in cmake/patches: Kokkos 3.4.01 from Debian's
# trilinos source package, or the source tree AWAVE_KOKKOS_SOURCE names (4.6.01), built once per
# backend into a cache outside the clone
# (cmake/scripts/bootstrap-kokkos.sh). Included before project(): the GPU backends decide the
# C++ compiler (nvcc_wrapper for cuda, clang++ 19 with offload for openmptarget).

set(AWAVE_BACKEND "host" CACHE STRING "Kokkos backend of this build: host, cuda or openmptarget")
set_property(CACHE AWAVE_BACKEND PROPERTY STRINGS host cuda openmptarget)
set(AWAVE_CUDA_ARCH "HOPPER90" CACHE STRING "GPU architecture, as a Kokkos arch option (HOPPER90 = sm_90)")
if(NOT AWAVE_BACKEND MATCHES "^(host|cuda|openmptarget)$")
  message(FATAL_ERROR "AWAVE_BACKEND='${AWAVE_BACKEND}': use host, cuda or openmptarget")
endif()
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
    message(FATAL_ERROR "awave: ${ARGV1} failed for backend '${AWAVE_BACKEND}':\n${err}")
  endif()
  string(REGEX REPLACE ".*\n" "" last_line "${out}")
  set(${result} "${last_line}" PARENT_SCOPE)
endfunction()

if(AWAVE_BACKEND STREQUAL "openmptarget")
  set(AWAVE_LLVM_ROOT "/usr/lib/llvm-19" CACHE PATH "LLVM 19 installation (clang++, libomptarget)")
  if(NOT EXISTS "${AWAVE_LLVM_ROOT}/bin/clang++")
    message(FATAL_ERROR "awave: openmptarget needs clang++ 19 at ${AWAVE_LLVM_ROOT}/bin/clang++ "
                        "(run: bash cmake/install-deps.sh openmptarget)")
  endif()
  if(NOT AWAVE_CLANG_CUDA_ROOT)
    awave_run_script(_root ${CMAKE_CURRENT_LIST_DIR}/scripts/make-clang-cuda-root.sh)
    set(AWAVE_CLANG_CUDA_ROOT "${_root}" CACHE PATH "CUDA root for clang offload (ptxas/nvlink 12.4)")
  endif()
  set(ENV{AWAVE_CLANG_CUDA_ROOT} "${AWAVE_CLANG_CUDA_ROOT}")
  set(ENV{PATH} "${AWAVE_LLVM_ROOT}/bin:$ENV{PATH}")  # clang-offload-packager, clang-linker-wrapper
  if(NOT CMAKE_CXX_COMPILER)
    set(CMAKE_CXX_COMPILER "${AWAVE_LLVM_ROOT}/bin/clang++")
  endif()
  # Every compile and link (Kokkos' exported offload flags lack these): the CUDA root whose
  # ptxas makes cubins LLVM 19 loads, and the device runtime bitcode.
  set(CMAKE_CXX_FLAGS_INIT "--cuda-path=${AWAVE_CLANG_CUDA_ROOT} --libomptarget-nvptx-bc-path=${AWAVE_LLVM_ROOT}/lib \
-Wno-unused-command-line-argument")
  # libomptarget and its plugins live here; a GPU machine without LLVM 19 installed sets
  # LD_LIBRARY_PATH instead (README, "Running on a GPU machine").
  set(CMAKE_BUILD_RPATH "${AWAVE_LLVM_ROOT}/lib")
  # The hand-written offload code: OpenMP for the GPU. SHELL: keeps the -Xopenmp-target pair
  # together; CMake would otherwise de-duplicate the -march it shares with Kokkos' flags.
  set(AWAVE_OFFLOAD_FLAGS -fopenmp=libomp -fopenmp-targets=nvptx64-nvidia-cuda
      "SHELL:-Xopenmp-target=nvptx64-nvidia-cuda -march=sm_${AWAVE_SM}")
  # Device link-time optimisation (the device runtime inlined into the kernels) and the
  # assumptions awave's regions meet (no nested parallelism, no thread-state queries): on the
  # H100 an offloaded triad went from 2090 to 2720 GB/s with these (2966 with 256-thread teams).
  option(AWAVE_OFFLOAD_LTO "OpenMP offload: device LTO and CUDA-mode code generation" ON)
  if(AWAVE_OFFLOAD_LTO)
    list(APPEND AWAVE_OFFLOAD_FLAGS -foffload-lto -fopenmp-cuda-mode -fopenmp-assume-no-thread-state
         -fopenmp-assume-no-nested-parallelism)
  endif()
  # Options for the ptxas that clang runs at the device link (with -c), e.g. --minnctapersm=8.
  # Kokkos' kernels carry .maxntid 128, for which ptxas ignores -maxrregcount; a minimum of
  # teams per SM caps their registers instead (bench/results/build-machine-2026-11-23/omp-ptx).
  # Recorded in every result's compiler field. Default none: 7 or 8 teams per SM made Kokkos-OMPT
  # 5-19% slower on the H100, spills costing more than the occupancy gained
  # (bench/results/h100-2026-11-24/omp-ptxas-8b49ef9).
  set(AWAVE_OFFLOAD_PTXAS_OPTIONS "" CACHE STRING "OpenMP offload: options for the device link's ptxas (a ;-list)")
  foreach(_opt IN LISTS AWAVE_OFFLOAD_PTXAS_OPTIONS)
    list(APPEND AWAVE_OFFLOAD_FLAGS "SHELL:-Xcuda-ptxas ${_opt}")
  endforeach()
endif()

# A build directory keeps the Kokkos it was first configured with; another backend or arch
# needs its own build directory (its compiler and Kokkos differ).
set(AWAVE_KOKKOS_SOURCE "" CACHE PATH
    "Kokkos source tree to bootstrap instead of Debian's 3.4.01 (4.6.01 is patched for CUDA 13 here)")
set(_awave_bootstrap_key "${AWAVE_BACKEND} ${AWAVE_CUDA_ARCH}")
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
  awave_run_script(_prefix ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/scripts/bootstrap-kokkos.sh ${AWAVE_BACKEND} ${AWAVE_CUDA_ARCH})
  set(${result} "${_prefix}" PARENT_SCOPE)
endfunction()
if(NOT Kokkos_ROOT AND NOT DEFINED ENV{Kokkos_ROOT})
  if(AWAVE_KOKKOS_SOURCE)
    message(STATUS "awave: bootstrapping Kokkos from ${AWAVE_KOKKOS_SOURCE} for '${AWAVE_BACKEND}' (cached; the first time takes minutes)")
  else()
    message(STATUS "awave: bootstrapping Kokkos 3.4.01 for '${AWAVE_BACKEND}' (cached; the first time takes minutes)")
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

if(AWAVE_BACKEND STREQUAL "cuda")
  if(NOT CMAKE_CXX_COMPILER)  # Kokkos code goes through the nvcc_wrapper Kokkos was built with
    if(NOT EXISTS "${Kokkos_ROOT}/bin/nvcc_wrapper")
      message(FATAL_ERROR "awave: ${Kokkos_ROOT}/bin/nvcc_wrapper not found; is Kokkos_ROOT a CUDA build of Kokkos?")
    endif()
    set(CMAKE_CXX_COMPILER "${Kokkos_ROOT}/bin/nvcc_wrapper")
  endif()
  # nvcc_wrapper defaults to sm_35, which nvcc 13 rejects even in CMake's compiler check.
  set(CMAKE_CXX_FLAGS_INIT "-arch=sm_${AWAVE_SM}")
  if(NOT CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES ${AWAVE_SM})
  endif()
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
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
