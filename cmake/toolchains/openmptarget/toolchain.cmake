# The openmptarget toolchain: clang++ 19 with OpenMP offload to the GPU (nvptx), for the
# hand-written offload code and Kokkos' OpenMPTarget backend alike (the C++ compiler of the whole
# build). What each variable means: cmake/AwaveToolchain.cmake.
set(AWAVE_TOOLCHAIN_BACKEND_FOLDERS cpu omp kokkos)
set(AWAVE_TOOLCHAIN_KOKKOS_DEVICES OPENMPTARGET)
set(AWAVE_TOOLCHAIN_KOKKOS_BOOTSTRAP openmptarget)  # OpenMPTarget + Serial, for AWAVE_CUDA_ARCH

set(AWAVE_LLVM_ROOT "/usr/lib/llvm-19" CACHE PATH "LLVM 19 installation (clang++, libomptarget)")
if(NOT EXISTS "${AWAVE_LLVM_ROOT}/bin/clang++")
  message(FATAL_ERROR "awave: openmptarget needs clang++ 19 at ${AWAVE_LLVM_ROOT}/bin/clang++ "
                      "(run: bash cmake/install-deps.sh openmptarget)")
endif()
if(NOT AWAVE_CLANG_CUDA_ROOT)
  awave_run_script(_root ${CMAKE_SOURCE_DIR}/cmake/scripts/make-clang-cuda-root.sh)
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
  set(AWAVE_TOOLCHAIN_KOKKOS_OPTIONS -foffload-lto)  # linked with the LTO flags of awave_omp
endif()
# Options for the ptxas that clang runs at the device link (with -c), e.g. --minnctapersm=8.
# Kokkos' kernels carry .maxntid 128, for which ptxas ignores -maxrregcount; a minimum of
# teams per SM caps their registers instead (bench/results/build-machine-2026-11-23/omp-ptx).
# Recorded in every result's compiler field. Default none: 7 or 8 teams per SM made Kokkos-OMPT
# 5-19% slower on the H100, spills costing more than the occupancy gained
# (bench/results/h100-2026-11-24/omp-ptxas-8b49ef9).
set(AWAVE_OFFLOAD_PTXAS_OPTIONS "" CACHE STRING "OpenMP offload: options for the device link's ptxas (a ;-list)")
set(AWAVE_TOOLCHAIN_COMPILER_WORDS "@CMAKE_CXX_COMPILER_ID@ @CMAKE_CXX_COMPILER_VERSION@")
foreach(_opt IN LISTS AWAVE_OFFLOAD_PTXAS_OPTIONS)
  list(APPEND AWAVE_OFFLOAD_FLAGS "SHELL:-Xcuda-ptxas ${_opt}")
endforeach()
if(AWAVE_OFFLOAD_PTXAS_OPTIONS)
  list(JOIN AWAVE_OFFLOAD_PTXAS_OPTIONS " " _awave_ptxas)
  string(APPEND AWAVE_TOOLCHAIN_COMPILER_WORDS " (device ptxas ${_awave_ptxas})")
endif()
set(AWAVE_TOOLCHAIN_DEVICE_BENCH device_bench_omp.cpp)  # the GPU's bandwidth, in OpenMP offload
set(AWAVE_TOOLCHAIN_DEVICE_BENCH_OPTIONS ${AWAVE_OFFLOAD_FLAGS})
