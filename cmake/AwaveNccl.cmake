# NCCL for the GPU-to-GPU halo exchange (src/parallel/nccl_link.cpp), in the MPI builds of the
# GPU backends. AWAVE_NCCL: AUTO (default: use NCCL where found), ON (required), OFF (the
# planes always go through host memory and MPI). NCCL is looked for in NCCL_ROOT, the CUDA
# installation (NVIDIA's CUDA packages ship it there) and the system (Debian's libnccl-dev).
# Defines the target awave_nccl (CUDA runtime + NCCL) and AWAVE_HAVE_NCCL_BUILD.
set(AWAVE_NCCL AUTO CACHE STRING "GPU-to-GPU halo exchange through NCCL in GPU MPI builds: AUTO, ON or OFF")
set_property(CACHE AWAVE_NCCL PROPERTY STRINGS AUTO ON OFF)
set(AWAVE_HAVE_NCCL_BUILD OFF)
if(AWAVE_MPI AND AWAVE_TOOLCHAIN_ON_DEVICE AND NOT AWAVE_NCCL STREQUAL "OFF")
  find_package(CUDAToolkit QUIET)
  set(_awave_nccl_hints ${NCCL_ROOT} $ENV{NCCL_ROOT})
  if(CUDAToolkit_FOUND)
    list(APPEND _awave_nccl_hints ${CUDAToolkit_LIBRARY_ROOT} ${CUDAToolkit_TARGET_DIR})
  endif()
  find_path(AWAVE_NCCL_INCLUDE_DIR nccl.h HINTS ${_awave_nccl_hints} PATH_SUFFIXES include)
  find_library(AWAVE_NCCL_LIBRARY nccl HINTS ${_awave_nccl_hints} PATH_SUFFIXES lib64 lib)
  if(CUDAToolkit_FOUND AND AWAVE_NCCL_INCLUDE_DIR AND AWAVE_NCCL_LIBRARY)
    file(STRINGS ${AWAVE_NCCL_INCLUDE_DIR}/nccl.h _awave_nccl_v REGEX "^#define NCCL_(MAJOR|MINOR|PATCH) ")
    string(REGEX REPLACE "[^0-9;]|#define" "" _awave_nccl_v "${_awave_nccl_v}")
    string(REGEX REPLACE ";+" "." _awave_nccl_v "${_awave_nccl_v}")
    add_library(awave_nccl INTERFACE)
    target_include_directories(awave_nccl INTERFACE ${AWAVE_NCCL_INCLUDE_DIR})
    target_link_libraries(awave_nccl INTERFACE ${AWAVE_NCCL_LIBRARY} CUDA::cudart)
    set(AWAVE_HAVE_NCCL_BUILD ON)
    message(STATUS "awave: halo exchange GPU to GPU through NCCL ${_awave_nccl_v} (${AWAVE_NCCL_LIBRARY})")
  elseif(AWAVE_NCCL STREQUAL "ON")
    message(FATAL_ERROR "awave: AWAVE_NCCL=ON but no NCCL was found (nccl.h: ${AWAVE_NCCL_INCLUDE_DIR}, libnccl: "
                        "${AWAVE_NCCL_LIBRARY}, CUDA toolkit found: ${CUDAToolkit_FOUND}); set NCCL_ROOT, or "
                        "AWAVE_NCCL=OFF for the host-memory path only")
  else()
    message(STATUS "awave: no NCCL found: the halo planes go through host memory and MPI (NCCL_ROOT to point at one)")
  endif()
endif()
