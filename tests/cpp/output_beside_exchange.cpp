// Output over MPI beside the halo exchange, as a run overlaps them (issue 54), under mpirun: each
// process's writer thread appends snapshots of its slab through awave's VtkHdfWriter (collective
// HDF5 writes) while its main thread exchanges planes through ProcessGroup without pause, until
// every writer is done. With the MPI-IO layer ProcessGroup::init chooses, it must finish; with
// Open MPI's OMPIO (AWAVE_TEST_FAULT_OMPIO) it corrupts the heap or hangs (tests/tools/output_beside_exchange.sh
// runs both). Prints one line on process 0.
//   output_beside_exchange NX,NY,NZ SNAPSHOTS FILE
#include "core/wave_problem.hpp"
#include "io/output_layout.hpp"
#include "io/vtkhdf.hpp"
#include "parallel/process_group.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>
#include <vector>

using namespace awave;

namespace {

int run(int argc, char** argv) {
  ProcessGroup& group = ProcessGroup::world();
  int nx = 0, ny = 0, nz = 0;
  if (argc != 4 || std::sscanf(argv[1], "%d,%d,%d", &nx, &ny, &nz) != 3) {
    std::fputs("usage: output_beside_exchange NX,NY,NZ SNAPSHOTS FILE\n", stderr);
    return 1;
  }
  const int snapshots = std::atoi(argv[2]);
  WaveParams params;
  params.shape = {nx, ny, nz};
  params.nsteps = snapshots;
  params.out_period = 1;
  const WaveProblem problem(params, std::nullopt, slab_of(nx, group.rank(), group.size()));
  std::vector<double> now(problem.geometry().size()), prev(now.size());
  problem.fill_start_state(now.data(), prev.data());

  std::atomic<bool> written{false};
  std::exception_ptr failure;
  std::thread writer([&] {
    try {
      VtkHdfWriter file(argv[3], problem, OutputLayout{}, snapshots);
      for (long t = 0; t < snapshots; ++t) file.append(t, {now.data(), prev.data(), nullptr}, false);
      file.close(true);
    } catch (...) {
      failure = std::current_exception();
    }
    written = true;
  });
  // The exchange's calls, one plane each way, as fast as they go.
  const std::size_t plane = problem.geometry().stride_i();
  std::vector<double> send_lo(plane, 1.0), send_hi(plane, 2.0), recv_lo(plane), recv_hi(plane);
  long exchanges = 0;
  for (bool all_written = false; !all_written; ++exchanges) {
    group.start_exchange(send_lo.data(), send_hi.data(), recv_lo.data(), recv_hi.data(), plane);
    group.finish_exchange(60.0);
    all_written = group.min(written ? 1L : 0L) == 1;
  }
  writer.join();
  if (failure) std::rethrow_exception(failure);
  if (group.rank() == 0)
    std::printf("ok: %d snapshots of %dx%dx%d written by %d processes while %ld exchanges ran (OMPI_MCA_io=%s)\n",
                snapshots, nx, ny, nz, group.size(), exchanges,
                ProcessGroup::mpi_io_layer().setting.empty() ? "unset" : ProcessGroup::mpi_io_layer().setting.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  ProcessGroup::init(argc, argv);
  int status = 1;
  try {
    status = run(argc, argv);
  } catch (const std::exception& e) {
    ProcessGroup::world().abort_with_error(e.what(), 1);
  }
  ProcessGroup::finalize();
  return status;
}
