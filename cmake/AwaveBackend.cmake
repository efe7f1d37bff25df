# After find_package(Kokkos): check the installed Kokkos has what the toolchain asks for
# (AWAVE_TOOLCHAIN_KOKKOS_DEVICES, one of them at least), and take its C++ standard.
#
# A "GPU" build must never quietly fall back to running on the host: cuda and openmptarget
# refuse a Kokkos without their backend. A host build takes whatever host backends the Kokkos
# has (Serial, OpenMP, Threads: one implementation each), but needs at least one.
set(AWAVE_KOKKOS_HOST_DEVICES ${Kokkos_DEVICES})  # (tests/CMakeLists.txt: the first, for the bench test)
list(FILTER AWAVE_KOKKOS_HOST_DEVICES INCLUDE REGEX "^(SERIAL|OPENMP|THREADS)$")
list(JOIN AWAVE_TOOLCHAIN_KOKKOS_DEVICES "|" _awave_needs)
set(_awave_has ${Kokkos_DEVICES})
list(FILTER _awave_has INCLUDE REGEX "^(${_awave_needs})$")
if(NOT _awave_has)
  list(LENGTH AWAVE_TOOLCHAIN_KOKKOS_DEVICES _awave_n)
  if(_awave_n EQUAL 1)
    set(_awave_needs "the ${AWAVE_TOOLCHAIN_KOKKOS_DEVICES} backend")
  else()
    list(JOIN AWAVE_TOOLCHAIN_KOKKOS_DEVICES ", " _awave_needs)
    set(_awave_needs "one of the backends ${_awave_needs}")
  endif()
  message(FATAL_ERROR "awave: AWAVE_BACKEND=${AWAVE_BACKEND} needs Kokkos with ${_awave_needs}, but "
                      "Kokkos ${Kokkos_VERSION} at ${Kokkos_DIR} has only: ${Kokkos_DEVICES}")
endif()

# The whole project compiles with the standard its Kokkos was built with (C++20 for Kokkos 5,
# 17 or 20 for 4.x), C++17 when the Kokkos does not say (3.4 exports no standard).
if(Kokkos_CXX_STANDARD MATCHES "^[0-9]+$" AND Kokkos_CXX_STANDARD GREATER 17)
  set(CMAKE_CXX_STANDARD ${Kokkos_CXX_STANDARD})
else()
  set(CMAKE_CXX_STANDARD 17)
endif()
list(JOIN AWAVE_TOOLCHAIN_BACKEND_FOLDERS " " _awave_folders)
message(STATUS "awave: toolchain ${AWAVE_BACKEND} (${AWAVE_TOOLCHAIN_DIR}): backend folders ${_awave_folders}; "
               "Kokkos ${Kokkos_VERSION} with ${Kokkos_DEVICES}, C++${CMAKE_CXX_STANDARD}")
