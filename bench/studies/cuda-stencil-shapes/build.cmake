# awave-cuda-shapes: hand CUDA's interior kernel in shapes with more bytes in flight, checked bitwise (cuda-shapes.sh).
if("CUDA" IN_LIST AWAVE_TOOLCHAIN_LANGUAGES)  # a study of CUDA code: a toolchain with the CUDA language
  add_executable(awave-cuda-shapes ${CMAKE_CURRENT_LIST_DIR}/cuda_stencil_shapes.cu)
  target_link_libraries(awave-cuda-shapes PRIVATE awave_core CUDA::cudart)
endif()
