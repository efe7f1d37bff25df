# awave-omp-shapes: the offload kernel shapes of a whole step, timed and checked bitwise against each other.
if("omp" IN_LIST AWAVE_TOOLCHAIN_BACKEND_FOLDERS)  # a study of the hand OpenMP offload code
  add_executable(awave-omp-shapes ${CMAKE_CURRENT_LIST_DIR}/omp_stencil_shapes.cpp)
  target_link_libraries(awave-omp-shapes PRIVATE awave_core)
  target_compile_options(awave-omp-shapes PRIVATE ${AWAVE_OFFLOAD_FLAGS})
  target_link_options(awave-omp-shapes PRIVATE ${AWAVE_OFFLOAD_FLAGS})
endif()
