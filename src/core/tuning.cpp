#include "core/tuning.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <mutex>
#include <stdexcept>

namespace awave {

namespace {

enum class Kind { integer, triple, word };

struct KeySpec {
  TuningKey key;
  Kind kind;
  long min = 0, max = 0;                  // integer bounds, or each part's of a triple
  bool power_of_two = false;              // integers only
  std::vector<std::string> words = {};    // the words a word key takes
  bool integer_or_word = false;           // a word key that also takes an integer >= min
};

const std::vector<KeySpec>& specs() {
  static const std::vector<KeySpec> s = {
      {{"fused_step_points", "AWAVE_FUSED_STEP_POINTS", "an integer >= 0", "2097152 (128^3)", "all",
        "the largest grid (interior points) whose steps are one kernel; 0: never"},
       Kind::integer, 0, 1L << 40},
      {{"steps_per_sweep", "AWAVE_STEPS_PER_SWEEP", "1 or 3",
        "3 on grids of 200^3 points or more (hand CUDA, Kokkos on CUDA; 256^3 on GPUs nearer the H200's peak "
        "bandwidth than the H100's), of 128^3 or more (hand OpenMP offload, Kokkos on OpenMPTarget from Kokkos 4; "
        "cpu-openmp, Kokkos on host backends); "
        "1 elsewhere (-json: sweep_min_points)",
        "all",
        "time steps a sweep of the grid: 3 is the temporal-blocking sweep (core/sweep_march.hpp, "
        "core/cache_sweep.hpp), where it applies"},
       Kind::word, 0, 0, false, {"1", "3"}},
      {{"cache_sweep.rows", "AWAVE_CACHE_SWEEP_ROWS", "an integer from 1 to 4096",
        "32, fewer where a tile would overflow a core's L2 (16 at nz = 1000 with 2 MB)", "all",
        "rows j of a tile of the CPU's sweep (core/cache_sweep.hpp)"},
       Kind::integer, 1, 4096},
      {{"cache_sweep.planes", "AWAVE_CACHE_SWEEP_PLANES", "an integer >= 0", "0 (automatic: about two tiles a thread)",
        "all", "planes i of a tile of the CPU's sweep; 0: the whole grid, cut only for about two tiles a thread"},
       Kind::integer, 0, 1 << 20},
      {{"kokkos.axes", "AWAVE_KOKKOS_AXES", "ijk or kji", "kji on CUDA, ijk elsewhere", "kokkos",
        "the idiomatic form's MDRange axis order (kji: k on the first axis)"},
       Kind::word, 0, 0, false, {"ijk", "kji"}},
      {{"kokkos.tile", "AWAVE_KOKKOS_TILE", "AxBxC, in the axes' order (0x0x0: Kokkos' default)",
        "32x8x1 on CUDA, Kokkos' default elsewhere", "kokkos", "the idiomatic form's MDRange tile"},
       Kind::triple, 0, 1024},
      {{"kokkos.segment", "AWAVE_KOKKOS_SEGMENT", "an integer >= 1", "16 (CUDA: 8 on planes of <= 4 MiB)", "kokkos-gpu",
        "planes each work item of the tuned form's march covers"},
       Kind::integer, 1, 1 << 20},
      {{"kokkos.march_rows", "AWAVE_KOKKOS_MARCH_ROWS", "1, 2, 4, 8, 16 or 32", "4 on CUDA, 1 on OpenMPTarget",
        "kokkos-gpu", "rows j per (k, j) tile of the tuned form's march"},
       Kind::integer, 1, 32, true},
      {{"cuda.block", "AWAVE_CUDA_BLOCK", "KxJxS (K*J <= 1024)", "32x8x4 (segment 16 on planes of > 4 MiB)", "cuda",
        "hand CUDA's interior block (k, j) and planes per thread"},
       Kind::triple, 1, 1024},
      {{"cuda.graphs", "AWAVE_CUDA_GRAPHS", "0 or 1", "1", "cuda", "hand CUDA launches a chunk's steps as CUDA graphs"},
       Kind::integer, 0, 1},
      {{"omp.segment", "AWAVE_OMP_SEGMENT", "an integer >= 1", "16", "omp", "planes each work item of hand omp marches"},
       Kind::integer, 1, 1 << 20},
      {{"omp.threads", "AWAVE_OMP_THREADS", "an integer from 1 to 1024", "128", "omp",
        "threads per team of hand omp's target regions"},
       Kind::integer, 1, 1024},
      {{"omp.tile_rows", "AWAVE_OMP_TILE_ROWS", "1, 2, 4, 8, 16 or 32", "4", "omp",
        "rows j per (k, j) tile of hand omp's work items"},
       Kind::integer, 1, 32, true},
      {{"omp.teams", "AWAVE_OMP_TEAMS", "runtime, or an integer >= 1", "one work item per thread", "omp",
        "teams of hand omp's step region: the runtime's choice, or at most N"},
       Kind::word, 1, 1L << 31, false, {"runtime"}, true},
      {{"omp.loop", "AWAVE_OMP_LOOP", "teams or worksharing", "teams", "omp",
        "how hand omp's step region hands out work items"},
       Kind::word, 0, 0, false, {"teams", "worksharing"}},
      {{"sweep.bulk_planes", "AWAVE_SWEEP_BULK_PLANES", "0 or 1",
        "1 on GPUs nearer the H200's peak bandwidth than the H100's, 0 elsewhere (-json: bulk_planes)", "all",
        "the GPU sweep's march takes a shorter path on its bulk planes (hand CUDA, hand omp, Kokkos-CUDA; "
        "core/sweep_march.hpp)"},
       Kind::word, 0, 0, false, {"0", "1"}},
      {{"sweep.overlap", "AWAVE_SWEEP_OVERLAP", "0 or 1", "1", "cuda",
        "over MPI, hand CUDA's sweep computes its interior segments while its halo travels (0: after it has arrived)"},
       Kind::word, 0, 0, false, {"0", "1"}},
      {{"mpi_io.aggregators", "AWAVE_MPI_IO_AGGREGATORS", "all or romio", "all", "mpi",
        "which processes gather the output's collective writes into the file (ROMIO's collective buffering): all "
        "(cb_nodes = processes, cb_config_list *:*), or romio (its default: one a node); docs/mpi.md"},
       Kind::word, 0, 0, false, {"all", "romio"}},
      {{"nccl.order", "AWAVE_NCCL_ORDER", "gpu or host", "gpu", "nccl",
        "who orders the NCCL halo exchange where the implementation's stream could"},
       Kind::word, 0, 0, false, {"gpu", "host"}},
  };
  return s;
}

const KeySpec* find_spec(const std::string& name) {
  for (const KeySpec& s : specs())
    if (name == s.key.name) return &s;
  return nullptr;
}

std::optional<long> parse_long(const std::string& text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (*end != '\0' || !(std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '-')) return std::nullopt;
  return v;
}

// "AxBxC" (or the environment's old spelling "A,B,C"): three integers, else nothing.
std::optional<std::array<long, 3>> parse_triple(std::string text) {
  std::replace(text.begin(), text.end(), ',', 'x');
  std::array<long, 3> t{};
  std::size_t at = 0;
  for (int n = 0; n < 3; ++n) {
    const std::size_t x = std::min(text.find('x', at), text.size());
    const auto v = parse_long(text.substr(at, x - at));
    if (!v || (n < 2) != (x < text.size())) return std::nullopt;  // exactly three parts
    t[n] = *v;
    at = x + 1;
  }
  return t;
}

bool in_range(const KeySpec& s, long v) {
  return v >= s.min && v <= s.max && (!s.power_of_two || (v & (v - 1)) == 0);
}

// Throws unless `value` is one of the key's values.
void validate(const KeySpec& s, const std::string& value, const std::string& where) {
  bool ok = false;
  if (s.kind == Kind::integer) {
    const auto v = parse_long(value);
    ok = v && in_range(s, *v);
  } else if (s.kind == Kind::triple) {
    const auto t = parse_triple(value);
    ok = t && in_range(s, (*t)[0]) && in_range(s, (*t)[1]) && in_range(s, (*t)[2]);
    if (ok && std::string(s.key.name) == "cuda.block") ok = (*t)[0] * (*t)[1] <= 1024;
  } else {
    ok = std::find(s.words.begin(), s.words.end(), value) != s.words.end();
    if (!ok && s.integer_or_word) {
      const auto v = parse_long(value);
      ok = v && in_range(s, *v);
    }
  }
  if (!ok)
    throw std::invalid_argument(
        fmt::format("tuning: {} needs {}, got '{}' ({})", s.key.name, s.key.form, value, where));
}

struct State {
  std::mutex mutex;
  bool parsed = false;
  std::map<std::string, TuningValue> values;
};
State& state() {
  static State s;
  return s;
}

// The environment's values (validated), under the lock.
void parse_environment(State& st) {
  for (const KeySpec& s : specs())
    if (const char* env = std::getenv(s.key.env); env && *env) {
      validate(s, env, s.key.env);
      st.values[s.key.name] = {env, s.key.env};
    }
  st.parsed = true;
}

std::optional<std::string> raw(const std::string& key) {
  if (!find_spec(key)) throw std::logic_error("tuning: no key " + key);
  State& st = state();
  std::lock_guard<std::mutex> lock(st.mutex);
  if (!st.parsed) parse_environment(st);
  const auto it = st.values.find(key);
  if (it == st.values.end()) return std::nullopt;
  return it->second.value;
}

}  // namespace

const std::vector<TuningKey>& tuning_keys() {
  static const std::vector<TuningKey> keys = [] {
    std::vector<TuningKey> k;
    for (const KeySpec& s : specs()) k.push_back(s.key);
    return k;
  }();
  return keys;
}

void configure_tuning(const std::string& spec, const std::vector<std::string>& in_build,
                      std::vector<std::string>* notes) {
  State& st = state();
  std::lock_guard<std::mutex> lock(st.mutex);
  st.values.clear();
  parse_environment(st);
  std::size_t at = 0;
  while (at < spec.size()) {
    const std::size_t comma = std::min(spec.find(',', at), spec.size());
    const std::string item = spec.substr(at, comma - at);
    at = comma + 1;
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw std::invalid_argument(fmt::format("tuning: '{}' is not key=value (see -tune help)", item));
    const std::string name = item.substr(0, eq), value = item.substr(eq + 1);
    const KeySpec* s = find_spec(name);
    if (!s) throw std::invalid_argument(fmt::format("tuning: unknown key '{}' (see -tune help)", name));
    validate(*s, value, "-tune");
    if (const auto it = st.values.find(name); it != st.values.end() && it->second.source == "-tune")
      throw std::invalid_argument(
          fmt::format("tuning: {} is given twice in -tune ({} and {}): give it once", name, it->second.value, value));
    st.values[name] = {value, "-tune"};
  }
  if (notes)
    for (const auto& [name, v] : st.values) {
      const std::string used_by = find_spec(name)->key.used_by;
      const bool used = used_by == "all" || std::find(in_build.begin(), in_build.end(), used_by) != in_build.end();
      if (!used) notes->push_back(fmt::format("tuning: {} is unused here (this build has no {} code)", name, used_by));
    }
}

std::map<std::string, TuningValue> tuning_values() {
  State& st = state();
  std::lock_guard<std::mutex> lock(st.mutex);
  if (!st.parsed) parse_environment(st);
  return st.values;
}

std::optional<long> tuning_integer(const std::string& key) {
  const auto v = raw(key);
  if (!v) return std::nullopt;
  return parse_long(*v);  // a word key's integer too (omp.teams)
}

std::optional<std::array<int, 3>> tuning_triple(const std::string& key) {
  const auto v = raw(key);
  if (!v) return std::nullopt;
  const std::array<long, 3> t = *parse_triple(*v);  // validated when it was read
  return std::array<int, 3>{int(t[0]), int(t[1]), int(t[2])};
}

std::optional<std::string> tuning_word(const std::string& key) {
  return raw(key);
}

namespace {
const char* const kTestFaults[] = {"NCCL_SHARED_GPU",  "NCCL_UNORDERED", "STALL_HALO", "NO_PINNED_MEMORY",
                                   "SHALLOW_HALO",     "OMPIO",          "READ_CRASH", "READ_HANG"};
}

std::optional<std::string> test_fault(const std::string& name) {
  if (std::find(std::begin(kTestFaults), std::end(kTestFaults), name) == std::end(kTestFaults))
    throw std::logic_error("no test fault " + name);
  const char* v = std::getenv(("AWAVE_TEST_FAULT_" + name).c_str());
  if (!v) return std::nullopt;
  return std::string(v);
}

std::vector<std::string> test_faults_set() {
  std::vector<std::string> set;
  for (const char* name : kTestFaults)
    if (const auto v = test_fault(name)) set.push_back(fmt::format("AWAVE_TEST_FAULT_{}={}", name, *v));
  return set;
}

std::string tuning_help() {
  std::string out =
      "Tuning keys (awave -tune key=value,...; or the environment variable; unset: the compiled choice):\n";
  for (const KeySpec& s : specs())
    out += fmt::format("  {:<19} {}\n  {:<19} values: {}; default: {}; {}\n", s.key.name, s.key.help, s.key.env,
                       s.key.form, s.key.fallback,
                       std::string(s.key.used_by) == "all" ? std::string("every implementation")
                                                          : fmt::format("used by the {} code", s.key.used_by));
  out += "Faults planted by the tests (not tuning; a run with one set says so first): AWAVE_TEST_FAULT_NCCL_SHARED_GPU,\n"
         "  AWAVE_TEST_FAULT_NCCL_UNORDERED, AWAVE_TEST_FAULT_STALL_HALO=RANK, AWAVE_TEST_FAULT_NO_PINNED_MEMORY,\n"
         "  AWAVE_TEST_FAULT_SHALLOW_HALO, AWAVE_TEST_FAULT_OMPIO (output over MPI through Open MPI's OMPIO),\n"
         "  AWAVE_TEST_FAULT_READ_CRASH, AWAVE_TEST_FAULT_READ_HANG=SECONDS (a file's read crashes, or hangs past\n"
         "  SECONDS, in its child)\n";
  return out;
}

}  // namespace awave
