// Every tuning value awave reads, parsed and validated in one place. A value comes from the
// command line (`-tune key=value,...`) or from the environment (the key's AWAVE_ variable, the
// second way, e.g. for a test harness); the command line wins. An unknown key or a malformed
// value is a one-line error before anything runs. Unset keys keep the compiled choice, which
// the code beside it explains. `awave -tune help` lists the keys.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace awave {

struct TuningKey {
  const char* name;      // as -tune spells it: "kokkos.tile"
  const char* env;       // the environment's spelling: "AWAVE_KOKKOS_TILE"
  const char* form;      // the values it takes, in words
  const char* fallback;  // what runs where it is not set
  const char* used_by;   // "all", "kokkos", "kokkos-gpu", "cuda", "omp", "nccl" or "mpi"
  const char* help;
};
const std::vector<TuningKey>& tuning_keys();

// Parses `spec` ("key=value,key=value"; empty: none) and the environment, once, before any
// implementation starts. `in_build` names what this build has ("kokkos", "cuda", ...): a key
// only another build uses is accepted, and `notes` gets one line saying it is unused.
// Throws std::invalid_argument (one line) on an unknown key or a malformed value.
void configure_tuning(const std::string& spec, const std::vector<std::string>& in_build,
                      std::vector<std::string>* notes = nullptr);

// The keys set, with their values as given and where they came from ("-tune" or the variable).
struct TuningValue {
  std::string value, source;
};
std::map<std::string, TuningValue> tuning_values();

// The typed values (nothing where unset). Reading one before configure_tuning parses the
// environment alone (the tests set keys that way).
std::optional<long> tuning_integer(const std::string& key);
std::optional<std::array<int, 3>> tuning_triple(const std::string& key);
std::optional<std::string> tuning_word(const std::string& key);

// `awave -tune help`: every key, its values, its default and what uses it.
std::string tuning_help();

// Faults planted by the tests, not tuning: AWAVE_TEST_FAULT_<name> (NCCL_SHARED_GPU,
// NCCL_UNORDERED, STALL_HALO=RANK, NO_PINNED_MEMORY, SHALLOW_HALO, OMPIO). The value where set; test_faults_set() lists
// those set, for the run's first line.
std::optional<std::string> test_fault(const std::string& name);
std::vector<std::string> test_faults_set();

}  // namespace awave
