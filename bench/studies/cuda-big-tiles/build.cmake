# awave-cuda-bigtiles: big-tile sweeps, one block an SM in the opt-in shared memory (issue 73), bitwise against
# the product's sweep.
if("CUDA" IN_LIST AWAVE_TOOLCHAIN_LANGUAGES)  # a study of CUDA code: a toolchain with the CUDA language
  add_executable(awave-cuda-bigtiles ${CMAKE_CURRENT_LIST_DIR}/cuda_big_tiles.cu)
  target_link_libraries(awave-cuda-bigtiles PRIVATE awave_core CUDA::cudart)
endif()
