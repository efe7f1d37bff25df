# The cuda toolchain: nvcc 13 (CUDA in /usr/local/cuda) for the hand-written CUDA, and Kokkos'
# CUDA backend, whose code goes through the nvcc_wrapper Kokkos was built with (the C++ compiler
# of the whole build). What each variable means: cmake/AwaveToolchain.cmake.
set(AWAVE_TOOLCHAIN_BACKEND_FOLDERS cpu cuda kokkos)
set(AWAVE_TOOLCHAIN_KOKKOS_DEVICES CUDA)
set(AWAVE_TOOLCHAIN_KOKKOS_BOOTSTRAP cuda)  # CUDA + Serial, for AWAVE_CUDA_ARCH
set(AWAVE_TOOLCHAIN_LANGUAGES CUDA)
set(AWAVE_TOOLCHAIN_COMPILER_WORDS
    "nvcc @CMAKE_CUDA_COMPILER_VERSION@ (host @CMAKE_CXX_COMPILER_ID@ @CMAKE_CXX_COMPILER_VERSION@)")
# nvcc_wrapper compiles the C++ files' device code too: no FMA contraction there either.
set(AWAVE_TOOLCHAIN_EXACT_FP_CXX_OPTIONS --fmad=false)
set(AWAVE_TOOLCHAIN_DEVICE_BENCH device_bench_cuda.cu)  # the GPU's bandwidth, in CUDA
set(AWAVE_TOOLCHAIN_DEVICE_BENCH_LIBRARIES CUDA::cudart)

macro(awave_toolchain_after_kokkos)
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
endmacro()

macro(awave_toolchain_after_languages)
  find_package(CUDAToolkit REQUIRED)
  # Tests (and their discovery at build time) run through a wrapper that falls back to CUDA's
  # stub driver library where no NVIDIA driver is installed: Kokkos 4+ links libcuda.so.1.
  set(_awave_stub_dir ${CMAKE_BINARY_DIR}/cuda-driver-stub)
  if(EXISTS ${CUDAToolkit_LIBRARY_DIR}/stubs/libcuda.so)
    file(MAKE_DIRECTORY ${_awave_stub_dir})
    file(CREATE_LINK ${CUDAToolkit_LIBRARY_DIR}/stubs/libcuda.so ${_awave_stub_dir}/libcuda.so.1 SYMBOLIC)
  endif()
  set(CMAKE_CROSSCOMPILING_EMULATOR ${PROJECT_SOURCE_DIR}/cmake/scripts/run-with-cuda-driver.sh ${_awave_stub_dir})
  if(NOT CMAKE_CUDA_STANDARD)
    set(CMAKE_CUDA_STANDARD ${CMAKE_CXX_STANDARD})
  endif()
endmacro()
