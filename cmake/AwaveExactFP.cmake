# Exact floating point: every implementation computes the reference's operations in the
# reference's order, so its fields are the CPU reference's bits on any shape, run length and
# process count. What breaks that is a compiler fusing a*b+c into one FMA (one rounding instead
# of two): nvcc does by default (-fmad=true), clang does for the GPU, gcc does with -march
# flags that enable FMA or on aarch64 (its default is -ffp-contract=fast outside ISO C modes).
# Measured without this (docs/toolchain.md): hand CUDA differed from the reference at 2229 of 26657
# points after 13 steps, 256^3 x 1400 steps FAILED the spec's check, and cuda-mpi files of 2
# processes differed from 1 process's.
#
# awave_exact_fp carries the flags to every target that links awave_core (every layer, every
# implementation, the tests); they come after CMAKE_<LANG>_FLAGS on the command line, so a
# user's -march=native or -ffp-contract=fast cannot turn contraction back on. Flags that
# reorder or approximate arithmetic (fast-math and its parts) cannot be undone that way:
# configure refuses them. AWAVE_EXACT_FP=OFF (measurement of what exactness costs) leaves the
# compilers' defaults, and the build says so in every JSON result ("exact_fp": false).
option(AWAVE_EXACT_FP "No floating-point contraction anywhere: GPU results are the CPU reference's bits" ON)

add_library(awave_exact_fp INTERFACE)
if(AWAVE_EXACT_FP)
  set(_awave_inexact_flags -ffast-math -Ofast -funsafe-math-optimizations -fassociative-math -freciprocal-math
                           --use_fast_math -use_fast_math --fmad=true -fmad=true)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" _awave_config)
  foreach(_var CMAKE_CXX_FLAGS CMAKE_CXX_FLAGS_${_awave_config} CMAKE_CUDA_FLAGS CMAKE_CUDA_FLAGS_${_awave_config})
    separate_arguments(_flags UNIX_COMMAND "${${_var}}")
    foreach(_flag IN LISTS _flags)
      if(_flag IN_LIST _awave_inexact_flags)
        message(FATAL_ERROR "awave: ${_var} has ${_flag}, which changes the arithmetic so that results are no longer "
                            "the CPU reference's bits; remove it, or configure with -DAWAVE_EXACT_FP=OFF to allow it")
      endif()
    endforeach()
  endforeach()
  # nvcc (hand CUDA) and nvcc_wrapper (Kokkos CUDA, the cuda toolchain's C++ compiler: its
  # AWAVE_TOOLCHAIN_EXACT_FP_CXX_OPTIONS): no FMA contraction in device code; the host side of
  # both gets gcc's -ffp-contract=off. clang (OpenMP offload, host and device) and gcc
  # directly: -ffp-contract=off.
  target_compile_options(awave_exact_fp INTERFACE
    $<$<COMPILE_LANGUAGE:CUDA>:--fmad=false -Xcompiler=-ffp-contract=off>
    "$<$<COMPILE_LANGUAGE:CXX>:${AWAVE_TOOLCHAIN_EXACT_FP_CXX_OPTIONS}>"
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU,Clang>>:-ffp-contract=off>)
  set(AWAVE_EXACT_FP_CXX true)
else()
  set(AWAVE_EXACT_FP_CXX false)
endif()
