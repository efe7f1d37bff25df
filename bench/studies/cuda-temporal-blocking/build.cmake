# awave-cuda-tblock: the temporal-blocking study, sweeps of 2 to 6 steps bitwise against single steps.
if("CUDA" IN_LIST AWAVE_TOOLCHAIN_LANGUAGES)  # a study of CUDA code: a toolchain with the CUDA language
  add_executable(awave-cuda-tblock ${CMAKE_CURRENT_LIST_DIR}/cuda_temporal_blocking.cu)
  target_link_libraries(awave-cuda-tblock PRIVATE awave_core CUDA::cudart)
endif()
