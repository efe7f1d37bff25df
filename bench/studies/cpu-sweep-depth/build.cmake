# awave-cpu-depth: the CPU sweep of more than three steps a tile, bitwise against the product's three (issue 57).
if(NOT AWAVE_TOOLCHAIN_ON_DEVICE)  # the CPU codes, in a build for the host
  add_executable(awave-cpu-depth ${CMAKE_CURRENT_LIST_DIR}/cpu_sweep_depth.cpp)
  target_link_libraries(awave-cpu-depth PRIVATE awave_core OpenMP::OpenMP_CXX)
  target_include_directories(awave-cpu-depth PRIVATE ${PROJECT_BINARY_DIR}/src/generated)  # its commit, compiler
  add_dependencies(awave-cpu-depth awave_git_commit)
endif()
