#include "parallel/process_group.hpp"

#include "core/tuning.hpp"  // test_fault
#include "parallel/nccl_link.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

#if defined(AWAVE_HAVE_MPI)
#include <mpi.h>
#include <omp.h>
#include <sched.h>  // CPU_SETSIZE
#endif

namespace awave {

namespace {
ProcessGroup world_group;
ProcessGroup::MpiIoLayer io_layer;
std::atomic<long long> file_sync_calls{0}, file_syncs_made{0};
#if defined(AWAVE_HAVE_MPI)
bool mpi_started = false;
MPI_Comm hdf5_comm_handle = MPI_COMM_NULL;  // its own communicator: collective I/O apart from halos
MPI_Info hdf5_info_handle = MPI_INFO_NULL;  // the output file's hints (hdf5_info), made at first use
void check_mpi(int status, const char* what) {
  if (status != MPI_SUCCESS) throw std::runtime_error(fmt::format("MPI: {} failed", what));
}
template <class T>
T allreduce(T x, MPI_Datatype type, MPI_Op op) {
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &x, 1, type, op, MPI_COMM_WORLD), "reduce");
  return x;
}
#endif
#if defined(AWAVE_HAVE_MPI)
// Whether this node's processes bind their OpenMP threads onto each other's CPUs, or more threads than
// CPUs: the line saying so, else empty. Under mpirun's default binding with OMP_PROC_BIND=spread
// OMP_PLACES=threads, 3 and 4 processes of 16 cores each had every place of the node and bound their
// threads (the output writer's with its main thread) to the same cores: a 10 s run was cut after 90 s,
// where each process on its own cores took 6.7 s (docs/mpi.md, "Binding several processes of a node").
std::string binding_problem(MPI_Comm node, int local_size) {
  const bool bound = omp_get_proc_bind() != omp_proc_bind_false;
  std::vector<unsigned char> mine(CPU_SETSIZE / 8, 0);  // the CPUs of this process's places
  int cpus = 0;
  if (bound)
    for (int p = 0; p < omp_get_num_places(); ++p) {
      std::vector<int> ids(std::size_t(std::max(omp_get_place_num_procs(p), 0)));
      if (!ids.empty()) omp_get_place_proc_ids(p, ids.data());
      for (int id : ids)
        if (id >= 0 && id < CPU_SETSIZE && !(mine[id / 8] & (1u << (id % 8)))) mine[id / 8] |= 1u << (id % 8), ++cpus;
    }
  std::vector<unsigned char> all(mine.size() * std::size_t(local_size));
  check_mpi(MPI_Allgather(mine.data(), int(mine.size()), MPI_UNSIGNED_CHAR, all.data(), int(mine.size()),
                          MPI_UNSIGNED_CHAR, node),
            "gather the processes' places");
  const int threads = omp_get_max_threads();
  if (bound && threads > cpus)
    return fmt::format("{} OpenMP threads bound to {} CPU{} (OMP_PROC_BIND with this process's places)", threads, cpus,
                       cpus == 1 ? "" : "s");
  for (int a = 0; bound && a < local_size; ++a)
    for (int b = a + 1; b < local_size; ++b)
      for (std::size_t i = 0; i < mine.size(); ++i)
        if (all[a * mine.size() + i] & all[b * mine.size() + i])
          return fmt::format(
              "processes {} and {} of this node bind their OpenMP threads to the same CPUs (OMP_PROC_BIND "
              "with places every process has)",
              a, b);
  return {};
}

// HDF5_DO_MPI_FILE_SYNC as HDF5 1.13.2 reads it: TRUE or 1 asks for the syncs.
bool hdf5_asks_for_file_syncs() {
  const char* v = std::getenv("HDF5_DO_MPI_FILE_SYNC");
  if (!v) return false;
  std::string s(v);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::toupper(c)); });
  return s == "TRUE" || s == "1";
}
#endif
}  // namespace

#if defined(AWAVE_HAVE_MPI)
// HDF5 1.10's MPI-IO driver calls this at every H5Fflush; found here before Open MPI's (the dynamic linker
// looks in the executable first, as MPI's profiling interface intends). process_group.hpp, file_syncs(),
// says why a sync returns at once unless HDF5_DO_MPI_FILE_SYNC asks for it.
extern "C" int MPI_File_sync(MPI_File fh) {
  ++file_sync_calls;
  if (!io_layer.file_sync) return MPI_SUCCESS;
  ++file_syncs_made;
  return PMPI_File_sync(fh);
}
#endif

ProcessGroup& ProcessGroup::world() {
  return world_group;
}

bool ProcessGroup::setting_allows_ompio(const std::string& setting) {
  const bool leave_out = !setting.empty() && setting[0] == '^';
  std::stringstream names(leave_out ? setting.substr(1) : setting);
  bool named = false;
  for (std::string name; std::getline(names, name, ',');) named = named || name == "ompio";
  return setting.empty() || (leave_out ? !named : named);
}

const ProcessGroup::MpiIoLayer& ProcessGroup::mpi_io_layer() {
  return io_layer;
}

void ProcessGroup::init(int& argc, char**& argv) {
#if defined(AWAVE_HAVE_MPI)
  // Before MPI_Init_thread, which reads Open MPI's settings from the environment (other MPIs
  // ignore the variable).
  if (const char* user = std::getenv("OMPI_MCA_io")) {
    io_layer = {user, "user", setting_allows_ompio(user)};
  } else if (test_fault("OMPIO")) {
    io_layer = {"", "test fault", true};
  } else {
    setenv("OMPI_MCA_io", "^ompio", 1);
    io_layer = {"^ompio", "awave", false};
  }
  io_layer.file_sync = hdf5_asks_for_file_syncs();
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  mpi_started = true;
  ProcessGroup& g = world_group;
  MPI_Comm_rank(MPI_COMM_WORLD, &g.rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &g.size_);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, g.rank_, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &g.local_rank_);
  MPI_Comm_size(node, &g.local_size_);
  g.binding_warning_ = binding_problem(node, g.local_size_);
  MPI_Comm_free(&node);
  // Every process's finding reaches the first (which prints and records it): the lowest rank with one.
  const int first_with = allreduce(g.binding_warning_.empty() ? g.size_ : g.rank_, MPI_INT, MPI_MIN);
  if (first_with < g.size_) {
    g.binding_warning_ = g.broadcast(g.binding_warning_, first_with);
    if (first_with != 0) g.binding_warning_ = fmt::format("process {}: {}", first_with, g.binding_warning_);
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &hdf5_comm_handle);
  g.threads_ok_ = provided >= MPI_THREAD_MULTIPLE;
#else
  (void)argc;
  (void)argv;
#endif
}

std::optional<int> ProcessGroup::launched_as_copies() {
#if defined(AWAVE_HAVE_MPI)
  return std::nullopt;
#else
  // Each launcher's process count: OpenMPI, PMI (MPICH, Intel MPI, Slurm's pmi2), PMIx.
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"})
    if (const char* v = std::getenv(name); v && std::atoi(v) > 1) return std::atoi(v);
  return std::nullopt;
#endif
}

void ProcessGroup::finalize() {
  nccl_link::close();  // its communicator was bootstrapped over MPI
#if defined(AWAVE_HAVE_MPI)
  if (mpi_started) {
    if (hdf5_info_handle != MPI_INFO_NULL) MPI_Info_free(&hdf5_info_handle);
    MPI_Comm_free(&hdf5_comm_handle);
    MPI_Finalize();
    mpi_started = false;
  }
#endif
}

double ProcessGroup::max(double x) const {
#if defined(AWAVE_HAVE_MPI)
  if (distributed()) return allreduce(x, MPI_DOUBLE, MPI_MAX);
#endif
  return x;
}

std::size_t ProcessGroup::sum(std::size_t x) const {
#if defined(AWAVE_HAVE_MPI)
  if (distributed()) return std::size_t(allreduce<unsigned long long>(x, MPI_UNSIGNED_LONG_LONG, MPI_SUM));
#endif
  return x;
}

long ProcessGroup::min(long x) const {
#if defined(AWAVE_HAVE_MPI)
  if (distributed()) return allreduce(x, MPI_LONG, MPI_MIN);
#endif
  return x;
}

void ProcessGroup::barrier() const {
#if defined(AWAVE_HAVE_MPI)
  if (distributed()) check_mpi(MPI_Barrier(MPI_COMM_WORLD), "barrier");
#endif
}

void ProcessGroup::abort(int status) const {
#if defined(AWAVE_HAVE_MPI)
  if (mpi_started) MPI_Abort(MPI_COMM_WORLD, status);
#endif
  std::exit(status);
}

void ProcessGroup::abort_with_error(const std::string& line, int status) const {
  std::string one = line;
  std::replace(one.begin(), one.end(), '\n', ' ');
  std::fputs(fmt::format("awave: error: (process {} of {}) {}\n", rank_, size_, one).c_str(), stderr);
  std::fflush(stderr);
  abort(status);
}

std::string ProcessGroup::broadcast(const std::string& text, int root) const {
#if defined(AWAVE_HAVE_MPI)
  if (!distributed()) return text;
  unsigned long long n = text.size();
  check_mpi(MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, root, MPI_COMM_WORLD), "broadcast");
  std::string out = rank_ == root ? text : std::string(n, '\0');
  check_mpi(MPI_Bcast(out.data(), int(n), MPI_CHAR, root, MPI_COMM_WORLD), "broadcast");
  return out;
#else
  (void)root;
  return text;
#endif
}

void ProcessGroup::start_exchange(const double* send_lo, const double* send_hi, double* recv_lo, double* recv_hi,
                                  std::size_t n) {
#if defined(AWAVE_HAVE_MPI)
  if (!distributed()) return;
  // Planes of more than 2^31 doubles would need a derived type; a plane is (ny+2)(nz+2).
  if (n > std::size_t(1) << 30) throw std::runtime_error("MPI: a halo plane of more than 2^30 values");
  requests_.assign(4 * sizeof(MPI_Request), 0);
  auto* requests = reinterpret_cast<MPI_Request*>(requests_.data());
  int count = 0;
  const int lo = rank_ - 1, hi = rank_ + 1;
  constexpr int kToHigher = 1, kToLower = 2;  // tags: the direction a plane travels
  if (lo >= 0) {
    check_mpi(MPI_Irecv(recv_lo, int(n), MPI_DOUBLE, lo, kToHigher, MPI_COMM_WORLD, &requests[count++]), "receive");
    check_mpi(MPI_Isend(send_lo, int(n), MPI_DOUBLE, lo, kToLower, MPI_COMM_WORLD, &requests[count++]), "send");
  }
  if (hi < size_) {
    check_mpi(MPI_Irecv(recv_hi, int(n), MPI_DOUBLE, hi, kToLower, MPI_COMM_WORLD, &requests[count++]), "receive");
    check_mpi(MPI_Isend(send_hi, int(n), MPI_DOUBLE, hi, kToHigher, MPI_COMM_WORLD, &requests[count++]), "send");
  }
  requests_.resize(count * sizeof(MPI_Request));
#else
  (void)send_lo, (void)send_hi, (void)recv_lo, (void)recv_hi, (void)n;
#endif
}

void ProcessGroup::finish_exchange(double timeout_seconds) {
#if defined(AWAVE_HAVE_MPI)
  if (requests_.empty()) return;
  auto* requests = reinterpret_cast<MPI_Request*>(requests_.data());
  const int count = int(requests_.size() / sizeof(MPI_Request));
  // MPI_Waitall would wait forever for a process that stopped: test until the time-out.
  const auto start = std::chrono::steady_clock::now();
  for (int done = 0;;) {
    check_mpi(MPI_Testall(count, requests, &done, MPI_STATUSES_IGNORE), "halo exchange");
    if (done) break;
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > timeout_seconds)
      throw std::runtime_error(fmt::format(
          "halo exchange: no plane from the neighbours of process {} within {} s (a process stopped; "
          "-halo_timeout sets the limit)",
          rank_, timeout_seconds));
    std::this_thread::yield();
  }
  requests_.clear();
#else
  (void)timeout_seconds;
#endif
}

const void* ProcessGroup::hdf5_info() const {
#if defined(AWAVE_HAVE_MPI)
  if (!distributed()) return nullptr;
  if (hdf5_info_handle == MPI_INFO_NULL) {  // (after the tuning is read: the first file's writer asks)
    check_mpi(MPI_Info_create(&hdf5_info_handle), "MPI_Info_create");
    if (tuning_word("mpi_io.aggregators").value_or("all") == "all") {
      check_mpi(MPI_Info_set(hdf5_info_handle, "cb_config_list", "*:*"), "MPI_Info_set");
      check_mpi(MPI_Info_set(hdf5_info_handle, "cb_nodes", std::to_string(size_).c_str()), "MPI_Info_set");
    }
  }
  return &hdf5_info_handle;
#else
  return nullptr;
#endif
}

ProcessGroup::FileSyncs ProcessGroup::file_syncs() {
  return {file_sync_calls.load(), file_syncs_made.load()};
}

const void* ProcessGroup::hdf5_comm() const {
#if defined(AWAVE_HAVE_MPI)
  return distributed() ? &hdf5_comm_handle : nullptr;
#else
  return nullptr;
#endif
}

const std::vector<std::string>& node_gpus() {
  static const std::vector<std::string> gpus = [] {
    std::vector<std::string> list;
    if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES")) {
      std::stringstream ids(visible);
      for (std::string id; std::getline(ids, id, ',');)
        if (!id.empty()) list.push_back(id);
    } else {
      std::error_code ec;
      for (const auto& gpu : std::filesystem::directory_iterator("/proc/driver/nvidia/gpus", ec)) {
        (void)gpu;
        list.push_back(std::to_string(list.size()));
      }
    }
    return list;
  }();
  return gpus;
}

}  // namespace awave
