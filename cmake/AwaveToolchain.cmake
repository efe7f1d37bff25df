# The toolchain of a build (AWAVE_BACKEND: host, cuda, openmptarget, ...) is a folder,
# cmake/toolchains/<name>/, loaded here by name before project(): its toolchain.cmake declares
# what differs per toolchain, and the rest of the build reads those declarations instead of
# comparing names. Folders of AWAVE_TOOLCHAIN_DIRS (a ;-list, e.g. the tests' throwaway
# toolchains) are searched before cmake/toolchains. (The folder may hold more for other readers:
# bench/'s tools read a toolchain.json there.)
#
# A toolchain.cmake sets (docs/backends.md, "Toolchains"):
#   AWAVE_TOOLCHAIN_BACKEND_FOLDERS  the src/ backend folders it builds, of src/CMakeLists.txt's AWAVE_BACKEND_FOLDERS
#   AWAVE_TOOLCHAIN_KOKKOS_DEVICES   Kokkos devices (Kokkos_DEVICES' words) of which its Kokkos needs one at least
#   AWAVE_TOOLCHAIN_COMPILER_WORDS   -json's build.compiler, @VARIABLE@s filled after project()
# and where it has them:
#   AWAVE_TOOLCHAIN_KOKKOS_BOOTSTRAP the Kokkos cmake/scripts/bootstrap-kokkos.sh builds for it (else: give Kokkos_ROOT)
#   AWAVE_TOOLCHAIN_LANGUAGES        languages enabled besides C and C++ (CUDA)
#   AWAVE_TOOLCHAIN_KOKKOS_OPTIONS   compile options of the Kokkos kernels' files (src/kokkos)
#   AWAVE_TOOLCHAIN_EXACT_FP_CXX_OPTIONS  C++ options that keep its compiler from contracting (cmake/AwaveExactFP.cmake)
#   AWAVE_TOOLCHAIN_DEVICE_BENCH     bench/'s awave-devbench source for its platform, with
#                                    AWAVE_TOOLCHAIN_DEVICE_BENCH_LIBRARIES and _OPTIONS (compile and link)
#   awave_toolchain_after_kokkos()   a macro run once Kokkos_ROOT is known, before project() (compilers)
#   awave_toolchain_after_languages()  a macro run after project() and its languages

set(AWAVE_BACKEND "host" CACHE STRING "Toolchain of this build: a folder of cmake/toolchains (host, cuda, ...)")
set(AWAVE_TOOLCHAIN_DIRS "" CACHE STRING "More folders of toolchain folders (a ;-list), searched first")

set(_awave_toolchain_search ${AWAVE_TOOLCHAIN_DIRS} ${CMAKE_CURRENT_LIST_DIR}/toolchains)
set(_awave_toolchains_found)
set(AWAVE_TOOLCHAIN_DIR "")
foreach(_dir IN LISTS _awave_toolchain_search)
  file(GLOB _fragments "${_dir}/*/toolchain.cmake")
  foreach(_fragment IN LISTS _fragments)
    get_filename_component(_folder "${_fragment}" DIRECTORY)
    get_filename_component(_name "${_folder}" NAME)
    if(NOT _name IN_LIST _awave_toolchains_found)
      list(APPEND _awave_toolchains_found ${_name})
    endif()
  endforeach()
  if(NOT AWAVE_TOOLCHAIN_DIR AND "${AWAVE_BACKEND}" IN_LIST _awave_toolchains_found)
    set(AWAVE_TOOLCHAIN_DIR "${_dir}/${AWAVE_BACKEND}")
  endif()
endforeach()
list(SORT _awave_toolchains_found)
set_property(CACHE AWAVE_BACKEND PROPERTY STRINGS ${_awave_toolchains_found})
if(NOT AWAVE_TOOLCHAIN_DIR)
  list(JOIN _awave_toolchains_found ", " _awave_names)
  message(FATAL_ERROR "awave: AWAVE_BACKEND='${AWAVE_BACKEND}' names no toolchain folder (<name>/toolchain.cmake in "
                      "cmake/toolchains or AWAVE_TOOLCHAIN_DIRS); use one of: ${_awave_names}")
endif()

foreach(_var BACKEND_FOLDERS KOKKOS_DEVICES ON_DEVICE COMPILER_WORDS KOKKOS_BOOTSTRAP LANGUAGES KOKKOS_OPTIONS
             EXACT_FP_CXX_OPTIONS DEVICE_BENCH DEVICE_BENCH_LIBRARIES DEVICE_BENCH_OPTIONS)
  unset(AWAVE_TOOLCHAIN_${_var})
endforeach()
include(${AWAVE_TOOLCHAIN_DIR}/toolchain.cmake)
# Whether its implementations run on a device (a GPU) is its toolchain.json's "on_device", which the harness reads
# too (bench/awave_bench/catalog/toolchains.py): one fact, one file. AWAVE_TOOLCHAIN_ON_DEVICE: ON or OFF.
if(NOT EXISTS ${AWAVE_TOOLCHAIN_DIR}/toolchain.json)
  message(FATAL_ERROR "awave: ${AWAVE_TOOLCHAIN_DIR} has no toolchain.json (its words for the report, on_device)")
endif()
file(READ ${AWAVE_TOOLCHAIN_DIR}/toolchain.json _awave_toolchain_json)
string(JSON AWAVE_TOOLCHAIN_ON_DEVICE ERROR_VARIABLE _awave_json_error GET "${_awave_toolchain_json}" on_device)
if(_awave_json_error OR NOT AWAVE_TOOLCHAIN_ON_DEVICE MATCHES "^(ON|OFF)$")
  message(FATAL_ERROR "awave: ${AWAVE_TOOLCHAIN_DIR}/toolchain.json gives no true or false on_device")
endif()
foreach(_var BACKEND_FOLDERS KOKKOS_DEVICES COMPILER_WORDS)
  if(NOT DEFINED AWAVE_TOOLCHAIN_${_var} OR "${AWAVE_TOOLCHAIN_${_var}}" STREQUAL "")
    message(FATAL_ERROR "awave: ${AWAVE_TOOLCHAIN_DIR}/toolchain.cmake sets no AWAVE_TOOLCHAIN_${_var} "
                        "(cmake/AwaveToolchain.cmake says what a toolchain declares)")
  endif()
endforeach()
