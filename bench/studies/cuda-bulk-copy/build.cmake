# awave-cuda-bulkcopy: hand CUDA's sweep with its planes fed by the bulk copy engine (issue 79), bitwise against
# the product's sweep; awave-kokkos-bulkcopy: the same march as a CUDA island in Kokkos' team sweep.
if("CUDA" IN_LIST AWAVE_TOOLCHAIN_LANGUAGES)  # a study of CUDA code: a toolchain with the CUDA language
  add_executable(awave-cuda-bulkcopy ${CMAKE_CURRENT_LIST_DIR}/cuda_bulk_copy.cu)
  target_link_libraries(awave-cuda-bulkcopy PRIVATE awave_core CUDA::cudart)
  add_executable(awave-kokkos-bulkcopy ${CMAKE_CURRENT_LIST_DIR}/kokkos_island.cpp)
  target_link_libraries(awave-kokkos-bulkcopy PRIVATE awave_core Kokkos::kokkos)
endif()
# awave-tma-probe: one bulk tensor copy at given coordinates (which copies raise "illegal instruction").
if("CUDA" IN_LIST AWAVE_TOOLCHAIN_LANGUAGES)  # a study of CUDA code: a toolchain with the CUDA language
  add_executable(awave-tma-probe ${CMAKE_CURRENT_LIST_DIR}/tma_probe.cu)
  target_link_libraries(awave-tma-probe PRIVATE awave_core CUDA::cudart)
endif()
