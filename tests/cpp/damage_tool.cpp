// damage_tool FILE ARRAY SLOT: flips 16 bytes of slot SLOT of PointData array ARRAY (u or
// u_prev), 800 bytes into its chunk, in place (tests/tools/mpi_check.sh damages an MPI run's file).
#include "damage.hpp"

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: damage_tool FILE ARRAY SLOT\n");
    return 2;
  }
  try {
    awave_test::damage_slot(argv[1], argv[2], std::atoll(argv[3]), 800, 16);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "damage_tool: %s\n", e.what());
    return 1;
  }
  return 0;
}
