# After find_package(Kokkos): check the installed Kokkos has what AWAVE_BACKEND asks for, and
# take its C++ standard.
#
# A "GPU" build must never quietly fall back to running on the host: cuda and openmptarget
# refuse a Kokkos without their backend. A host build takes whatever host backends the Kokkos
# has (Serial, OpenMP, Threads: one implementation each), but needs at least one.
if(AWAVE_BACKEND STREQUAL "host")
  set(AWAVE_KOKKOS_HOST_DEVICES ${Kokkos_DEVICES})
  list(FILTER AWAVE_KOKKOS_HOST_DEVICES INCLUDE REGEX "^(SERIAL|OPENMP|THREADS)$")
  if(NOT AWAVE_KOKKOS_HOST_DEVICES)
    message(FATAL_ERROR "awave: AWAVE_BACKEND=host needs Kokkos with a host backend (SERIAL, OPENMP or THREADS), "
                        "but Kokkos ${Kokkos_VERSION} at ${Kokkos_DIR} has only: ${Kokkos_DEVICES}")
  endif()
else()
  string(TOUPPER "${AWAVE_BACKEND}" _awave_needs)
  if(NOT _awave_needs IN_LIST Kokkos_DEVICES)
    message(FATAL_ERROR "awave: AWAVE_BACKEND=${AWAVE_BACKEND} needs Kokkos with the ${_awave_needs} backend, but "
                        "Kokkos ${Kokkos_VERSION} at ${Kokkos_DIR} has only: ${Kokkos_DEVICES}")
  endif()
endif()

# The whole project compiles with the standard its Kokkos was built with (C++20 for Kokkos 5,
# 17 or 20 for 4.x), C++17 when the Kokkos does not say (3.4 exports no standard).
if(Kokkos_CXX_STANDARD MATCHES "^[0-9]+$" AND Kokkos_CXX_STANDARD GREATER 17)
  set(CMAKE_CXX_STANDARD ${Kokkos_CXX_STANDARD})
else()
  set(CMAKE_CXX_STANDARD 17)
endif()
if(AWAVE_BACKEND STREQUAL "cuda" AND NOT CMAKE_CUDA_STANDARD)
  set(CMAKE_CUDA_STANDARD ${CMAKE_CXX_STANDARD})
endif()
message(STATUS "awave: backend ${AWAVE_BACKEND}, Kokkos ${Kokkos_VERSION} with ${Kokkos_DEVICES}, "
               "C++${CMAKE_CXX_STANDARD}")
