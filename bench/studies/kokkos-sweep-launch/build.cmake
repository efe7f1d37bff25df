# awave-kokkos-sweep: the shared sweep under Kokkos launches that differ in how a team finds its tile, against
# hand CUDA's kernel in the same process (issue 56).
if("CUDA" IN_LIST AWAVE_TOOLCHAIN_LANGUAGES)  # a study of CUDA code: a toolchain with the CUDA language
  add_executable(awave-kokkos-sweep ${CMAKE_CURRENT_LIST_DIR}/kokkos_sweep_launch.cpp)
  target_link_libraries(awave-kokkos-sweep PRIVATE awave_core Kokkos::kokkos)
endif()
