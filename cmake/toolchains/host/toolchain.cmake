# The host toolchain: the system's C++ compiler (g++ on Debian) and whatever host backends the
# Kokkos has (Serial, OpenMP, Threads: one implementation each); nothing runs on a device.
# What each variable means: cmake/AwaveToolchain.cmake.
set(AWAVE_TOOLCHAIN_BACKEND_FOLDERS cpu kokkos)
set(AWAVE_TOOLCHAIN_KOKKOS_DEVICES SERIAL OPENMP THREADS)
set(AWAVE_TOOLCHAIN_KOKKOS_BOOTSTRAP host)  # Serial + OpenMP, with g++
set(AWAVE_TOOLCHAIN_COMPILER_WORDS "@CMAKE_CXX_COMPILER_ID@ @CMAKE_CXX_COMPILER_VERSION@")
set(AWAVE_TOOLCHAIN_DEVICE_BENCH device_bench_host.cpp)  # the CPU's bandwidth
set(AWAVE_TOOLCHAIN_DEVICE_BENCH_LIBRARIES OpenMP::OpenMP_CXX)
