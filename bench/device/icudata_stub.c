/* A stand-in for ICU's 31 MB data library on the GPU machine (bench/device/stage.sh,
   AWAVE_STAGE_ICU_STUB=1): libLLVM, which clang 19's offload runtime loads, needs libxml2 and so
   ICU, but no run of awave converts a text encoding. Without it the openmptarget-mpi build and the
   repository do not fit the device tool's 64 MiB (bench/results/h100-2026-11-26/omp-mpi-cdaf2f9). */
const char icudt72_dat[64] __attribute__((aligned(16))) = {0};
