# Refuse a build whose Kokkos does not have the backend asked for: a "GPU" build must never
# quietly fall back to running on the host.
if(AWAVE_BACKEND STREQUAL "host")
  set(_awave_needs SERIAL OPENMP)
elseif(AWAVE_BACKEND STREQUAL "cuda")
  set(_awave_needs CUDA)
else()
  set(_awave_needs OPENMPTARGET)
endif()
foreach(_dev IN LISTS _awave_needs)
  if(NOT _dev IN_LIST Kokkos_DEVICES)
    message(FATAL_ERROR "awave: AWAVE_BACKEND=${AWAVE_BACKEND} needs Kokkos with the ${_dev} backend, but "
                        "Kokkos ${Kokkos_VERSION} at ${Kokkos_DIR} has only: ${Kokkos_DEVICES}")
  endif()
endforeach()
message(STATUS "awave: backend ${AWAVE_BACKEND}, Kokkos ${Kokkos_VERSION} with ${Kokkos_DEVICES}")
