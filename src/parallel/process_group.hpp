// Running over MPI: the process group (rank, size, node-local rank, reductions, the two-sided
// halo exchange). A build without MPI (AWAVE_MPI off) gets a group of one, and every call
// below is trivial. Which planes a process owns is core geometry (core/slab.hpp).
#pragma once

#include "core/slab.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace awave {

class ProcessGroup {
 public:
  // MPI_Init_thread (MPI_THREAD_MULTIPLE: the output writer thread makes collective HDF5 calls
  // while the main thread exchanges halos) where the build has MPI, after choosing the MPI-IO
  // layer (mpi_io_layer()); nothing otherwise.
  static void init(int& argc, char**& argv);
  // Open MPI's MPI-IO layer for this process. OMPIO (Open MPI's default) is not safe beside a
  // second thread in MPI: its progress callback walks a global, unlocked list of the requests its
  // collective writes (fcoll vulcan) add and free, and every thread in MPI runs that callback, so
  // the writer thread's H5Dwrite and an exchange on another thread corrupt the heap (docs/mpi.md,
  // "Output over MPI and OMPIO"). init() therefore sets OMPI_MCA_io=^ompio (ROMIO writes) unless
  // the user set OMPI_MCA_io; a user setting that leaves OMPIO in is refused for output over MPI.
  struct MpiIoLayer {
    std::string setting;       // OMPI_MCA_io as MPI_Init_thread read it ("" where unset)
    std::string chosen_by;     // "awave", "user", or "test fault" (AWAVE_TEST_FAULT_OMPIO keeps the default)
    bool may_be_ompio = true;  // the setting lets Open MPI pick OMPIO
    bool file_sync = false;    // MPI_File_sync reaches the disk (HDF5_DO_MPI_FILE_SYNC), see file_syncs()
  };
  static const MpiIoLayer& mpi_io_layer();
  // The MPI-IO hints awave gives its output file (an MPI_Info, as an opaque pointer; null without MPI, or
  // on one process): every process gathers collective writes into the file (cb_nodes = processes,
  // cb_config_list *:*) where ROMIO would take one a node; tuning key mpi_io.aggregators=romio keeps ROMIO's
  // choice. On 16 cores, 4 processes wrote at 0.54 x one process's rate with them, 0.44 without, the file's
  // syncs aside (docs/mpi.md, "Output over MPI at the disk's speed").
  const void* hdf5_info() const;
  // HDF5 1.10's MPI-IO driver syncs the whole file (MPI_File_sync: an fsync) at every H5Fflush, which
  // awave makes once a snapshot to commit it; its serial driver does not, nor does HDF5 from 1.13.2, which
  // syncs only where HDF5_DO_MPI_FILE_SYNC is TRUE or 1. awave's MPI_File_sync (process_group.cpp) follows
  // 1.13.2: without the variable a sync returns at once, so a commit over MPI keeps the serial writer's
  // guarantee (what is written survives the process; the kernel writes it to disk) instead of waiting for the
  // disk: 4 processes then wrote at 0.87 x one process's rate, 0.54 with the syncs (docs/mpi.md).
  // calls: HDF5's MPI_File_sync calls so far; made: those that reached the disk.
  struct FileSyncs {
    long long calls = 0, made = 0;
  };
  static FileSyncs file_syncs();
  // Whether an OMPI_MCA_io value lets Open MPI pick OMPIO: a list of components to use ("romio321"),
  // or after '^' a list to leave out; unset or empty, every component (OMPIO first).
  static bool setting_allows_ompio(const std::string& setting);
  static void finalize();
  static ProcessGroup& world();
  // In a build without MPI: the launcher's process count when an MPI launcher (OpenMPI's
  // mpirun, a PMI or PMIx one such as MPICH's or Slurm's) started several copies, which would
  // race for the same files; nothing otherwise, and always nothing in a build with MPI (those
  // copies form one group).
  static std::optional<int> launched_as_copies();

  int rank() const { return rank_; }
  int size() const { return size_; }
  int local_rank() const { return local_rank_; }  // among the processes of this node
  int local_size() const { return local_size_; }
  bool distributed() const { return size_ > 1; }
  bool threads_ok() const { return threads_ok_; }  // MPI calls from several threads allowed
  // Over MPI: why this process's OpenMP threads will fight over CPUs (bound, with more threads than its
  // places' CPUs, or onto CPUs another process of the node binds to), else empty; the run says so in a
  // warning (process_group.cpp, binding_problem).
  const std::string& binding_warning() const { return binding_warning_; }

  double max(double x) const;
  std::size_t sum(std::size_t x) const;
  long min(long x) const;
  void barrier() const;
  [[noreturn]] void abort(int status) const;  // every process (MPI_Abort)
  // "awave: error: (process r of n) <line>" on stderr, then abort(status): for a failure on one
  // process, whose peers may wait for it in a collective call or an exchange.
  [[noreturn]] void abort_with_error(const std::string& line, int status) const;
  // `text` as `root` has it, on every process.
  std::string broadcast(const std::string& text, int root) const;
  // One halo exchange, in two halves so that work can go on while the planes travel:
  // send_lo to rank - 1 and send_hi to rank + 1, receive recv_lo from rank - 1 and recv_hi
  // from rank + 1 (n doubles each; missing neighbours are skipped).
  void start_exchange(const double* send_lo, const double* send_hi, double* recv_lo, double* recv_hi, std::size_t n);
  // Waits for the planes at most timeout_seconds; then throws (one line): a neighbour stopped.
  void finish_exchange(double timeout_seconds);
  // The MPI communicator (MPI_Comm) for parallel HDF5, as an opaque pointer; null without MPI.
  const void* hdf5_comm() const;

 private:
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
  std::vector<char> requests_;  // MPI_Request storage of an exchange in flight
  bool threads_ok_ = true;
  std::string binding_warning_;
};

// The GPUs of this node as this process first saw them (CUDA_VISIBLE_DEVICES, else the
// driver's list), read without starting CUDA and kept from the first call: choosing the
// process's GPU narrows CUDA_VISIBLE_DEVICES afterwards, and CUDA, once started, no longer
// reads it (so no GPU count may come from CUDA before the choice: every process would
// stay on the first GPU).
const std::vector<std::string>& node_gpus();

}  // namespace awave
