#include "host_field.hpp"

namespace awave {

void fill_in_parallel(double* data, std::size_t n, double value) {
#pragma omp parallel for schedule(static)
  for (std::size_t p = 0; p < n; ++p) data[p] = value;
}

void copy_in_parallel(const double* from, std::size_t n, double* to) {
#pragma omp parallel for schedule(static)
  for (std::size_t p = 0; p < n; ++p) to[p] = from[p];
}

}  // namespace awave
