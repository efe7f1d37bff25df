# Kokkos for awave: an installed one when the user names it (Kokkos_ROOT, 3.4 to 5.0), else
# Kokkos 3.4.01 bootstrapped from Debian's trilinos source package with the patches in
# cmake/patches, built once per backend into a cache outside the clone
# (cmake/scripts/bootstrap-kokkos.sh). Included before project(): the GPU backends decide the
# C++ compiler (nvcc_wrapper, clang++ 19 with offload).

set(AWAVE_BACKEND "host" CACHE STRING "Kokkos backend of this build: host, cuda or openmptarget")
set_property(CACHE AWAVE_BACKEND PROPERTY STRINGS host cuda openmptarget)
set(AWAVE_CUDA_ARCH "HOPPER90" CACHE STRING "Kokkos GPU arch option for cuda/openmptarget (HOPPER90 = sm_90)")
if(NOT AWAVE_BACKEND MATCHES "^(host|cuda|openmptarget)$")
  message(FATAL_ERROR "AWAVE_BACKEND='${AWAVE_BACKEND}': use host, cuda or openmptarget")
endif()

if(NOT Kokkos_ROOT AND NOT DEFINED ENV{Kokkos_ROOT})
  message(STATUS "awave: bootstrapping Kokkos 3.4.01 for '${AWAVE_BACKEND}' (cached; first time takes minutes)")
  execute_process(
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/scripts/bootstrap-kokkos.sh ${AWAVE_BACKEND} ${AWAVE_CUDA_ARCH}
    OUTPUT_VARIABLE _awave_kokkos_out ERROR_VARIABLE _awave_kokkos_err RESULT_VARIABLE _awave_kokkos_rc
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _awave_kokkos_rc EQUAL 0)
    message(FATAL_ERROR "awave: could not build Kokkos for backend '${AWAVE_BACKEND}':\n${_awave_kokkos_err}")
  endif()
  string(REGEX REPLACE ".*\n" "" _awave_kokkos_prefix "${_awave_kokkos_out}")
  set(Kokkos_ROOT "${_awave_kokkos_prefix}" CACHE PATH "Kokkos installation (bootstrapped)" FORCE)
endif()
if(NOT Kokkos_ROOT)
  set(Kokkos_ROOT "$ENV{Kokkos_ROOT}")
endif()

# The GPU backends compile Kokkos code with the compiler Kokkos was built with.
if(AWAVE_BACKEND STREQUAL "cuda" AND NOT CMAKE_CXX_COMPILER)
  if(NOT EXISTS "${Kokkos_ROOT}/bin/nvcc_wrapper")
    message(FATAL_ERROR "awave: ${Kokkos_ROOT}/bin/nvcc_wrapper not found; is Kokkos_ROOT a CUDA build of Kokkos?")
  endif()
  set(CMAKE_CXX_COMPILER "${Kokkos_ROOT}/bin/nvcc_wrapper")
endif()
