#include "app/cli.hpp"

#include "core/tuning.hpp"

#include <fmt/format.h>

#include <unistd.h>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <sstream>

namespace awave {
namespace {

std::optional<long> parse_integer(const std::string& text) {
  if (text.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max())
    return std::nullopt;
  return value;
}

std::optional<double> parse_real(const std::string& text) {
  if (text.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (errno != 0 || *end != '\0') return std::nullopt;
  return value;
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, ',')) parts.push_back(part);
  if (!text.empty() && text.back() == ',') parts.emplace_back();
  return parts;
}

std::string tuning_key_names() {
  std::string names;
  for (const TuningKey& k : tuning_keys()) names += (names.empty() ? "" : ", ") + std::string(k.name);
  return names;
}

}  // namespace

std::string usage() {
  return "usage: awave [-shape nx,ny,nz] [-dx float] [-dt float] [-nsteps int] [-out_period int]\n"
         "             [-impl id,id,...] [-reference cpu|cpu-openmp] [-json FILE] [-no_output] [-no_check]\n"
         "             [-digest] [-quiet]\n"
         "             [-snapshot_precision double|single] [-snapshot_fields u,u_prev|u] [-checkpoint_period int]\n"
         "             [-restart FILE [-restart_strict]] [-verify FILE] [-compare A B] [-halo mpi|nccl]\n"
         "             [-halo_timeout s]\n"
         "             [-tune key=value,...|help] [-list] [-h] [output_base]\n"
         "  -shape nx,ny,nz   interior grid points (default 32,32,32; nx, ny >= 8, nz >= 1)\n"
         "  -dx float         grid spacing in metres (default 10.0)\n"
         "  -dt float         time step in seconds (default 0.002; Courant number must be <= 1)\n"
         "  -nsteps int       steps to run (default 100)\n"
         "  -out_period int   steps per chunk: output and timing after each (default 10)\n"
         "  -impl ids         implementations to run after the reference (default: all in a host build,\n"
         "                    the GPU ones in a GPU build; see -list)\n"
         "  -reference id     the CPU reference to check against: cpu (serial, the spec; default) or\n"
         "                    cpu-openmp (the same arithmetic on OpenMP threads, bitwise identical)\n"
         "  -json FILE        also write the results as JSON to FILE\n"
         "  -no_output        write no .vtkhdf files\n"
         "  -snapshot_precision double|single\n"
         "                    the snapshots' values (default double); single halves their bytes, converted\n"
         "                    on the GPU before the copy\n"
         "  -snapshot_fields u,u_prev|u\n"
         "                    what each snapshot holds (default u,u_prev); u alone halves it again\n"
         "  -checkpoint_period int\n"
         "                    where snapshots are not in double with u_prev: checkpoints (u and u_prev in\n"
         "                    double, for -restart) every this many steps, a multiple of -out_period, and at\n"
         "                    the end (default: every snapshot); -snapshot_precision single -snapshot_fields u\n"
         "                    -checkpoint_period 100 writes a quarter of the bytes per snapshot\n"
         "  -no_check         skip the CPU reference and the point-by-point check (benchmarks)\n"
         "  -digest           print and record (-json) a CRC-32 digest of each final u, to hold an\n"
         "                    unchecked run to a checked one of the same steps (one process only)\n"
         "  -quiet            no progress lines on stderr (steps, %, SU/s so far, time left)\n"
         "  -restart FILE     continue the run saved in FILE (an awave .vtkhdf, complete or from an\n"
         "                    interrupted run's .partial) from its newest snapshot whose checksums verify\n"
         "                    (saying so when that is not the last); parameters come from the file,\n"
         "                    -nsteps counts the steps still to run (default: to the file's end)\n"
         "  -restart_strict   refuse the restart where the file's last snapshot is damaged\n"
         "  -verify FILE      check every snapshot's checksums in FILE and exit: 0 intact, 1 damaged\n"
         "  -compare A B      verify two awave files and compare them (grid, parameters, then every snapshot,\n"
         "                    checkpoint and static array both hold, bit for bit) and exit: 0 identical,\n"
         "                    2 they differ (the first point and the count), 1 they cannot be compared\n"
         "  -halo mpi|nccl    over MPI, how the GPU implementations' halo planes travel: nccl GPU to GPU\n"
         "                    (NVLink), mpi through host memory; default nccl where the build has NCCL and\n"
         "                    each process its own GPU, mpi otherwise (host implementations always use mpi)\n"
         "  -halo_timeout s   over MPI, the longest wait for a neighbour's planes before the run stops with\n"
         "                    an error (default 120)\n"
         "  -tune k=v,...     tuning values, e.g. -tune kokkos.tile=0x0x0,omp.threads=256 (unset keys keep\n"
         "                    the compiled choices; each key also reads its AWAVE_ variable); -tune help\n"
         "                    lists the keys, their values and defaults. Keys: " +
         tuning_key_names() +
         "\n"
         "  -list             list the implementations in this build and exit\n"
         "  -h, --help        this help\n"
         "  output_base       files are <stem>.<impl>.vtkhdf (default: test)\n"
         "Flags may also be written with two dashes (--nsteps 10).\n";
}

ParsedCommandLine parse_command_line(int argc, const char* const* argv) {
  ParsedCommandLine result;
  Options& o = result.options;
  bool have_output_base = false;
  auto error = [&result](std::string message) {
    result.error = std::move(message);
    return result;
  };
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg.rfind("--kokkos-", 0) == 0) continue;
    std::string flag = arg;
    if (flag.rfind("--", 0) == 0 && flag.size() > 2) flag = flag.substr(1);
    if (flag == "-h" || flag == "-help") {
      o.help = true;
      continue;
    }
    if (flag == "-list") {
      o.list = true;
      continue;
    }
    if (flag == "-no_output") {
      o.write_output = false;
      continue;
    }
    if (flag == "-no_check") {
      o.check = false;
      continue;
    }
    if (flag == "-digest") {
      o.digest = true;
      continue;
    }
    if (flag == "-quiet") {
      o.progress = false;
      continue;
    }
    if (flag == "-restart_strict") {
      o.restart_strict = true;
      continue;
    }
    if (flag == "-compare") {
      if (a + 2 >= argc) return error(fmt::format("{} needs two files: {} A B", arg, arg));
      o.compare_files = {argv[a + 1], argv[a + 2]};
      a += 2;
      if (o.compare_files[0].empty() || o.compare_files[1].empty()) return error("-compare needs two file names");
      continue;
    }
    const bool takes_value = flag == "-shape" || flag == "-dx" || flag == "-dt" || flag == "-nsteps" ||
                             flag == "-out_period" || flag == "-impl" || flag == "-json" || flag == "-reference" ||
                             flag == "-restart" || flag == "-verify" || flag == "-halo" || flag == "-halo_timeout" ||
                             flag == "-tune" || flag == "-snapshot_precision" || flag == "-snapshot_fields" ||
                             flag == "-checkpoint_period";
    if (takes_value) {
      if (a + 1 >= argc) return error(fmt::format("{} needs a value", arg));
      const std::string value = argv[++a];
      if (flag == "-shape") {
        o.given.shape = true;
        const std::vector<std::string> parts = split_commas(value);
        if (parts.size() != 3) return error(fmt::format("-shape needs three integers nx,ny,nz, got '{}'", value));
        for (int d = 0; d < 3; ++d) {
          const auto n = parse_integer(parts[d]);
          if (!n) return error(fmt::format("-shape needs three integers nx,ny,nz, got '{}'", value));
          o.params.shape[d] = int(*n);
        }
      } else if (flag == "-dx" || flag == "-dt") {
        const auto x = parse_real(value);
        if (!x) return error(fmt::format("{} needs a number, got '{}'", arg, value));
        (flag == "-dx" ? o.params.dx : o.params.dt) = *x;
        (flag == "-dx" ? o.given.dx : o.given.dt) = true;
      } else if (flag == "-nsteps" || flag == "-out_period") {
        const auto n = parse_integer(value);
        if (!n) return error(fmt::format("{} needs an integer, got '{}'", arg, value));
        (flag == "-nsteps" ? o.params.nsteps : o.params.out_period) = int(*n);
        (flag == "-nsteps" ? o.given.nsteps : o.given.out_period) = true;
      } else if (flag == "-snapshot_precision") {
        if (value != "double" && value != "single")
          return error(fmt::format("-snapshot_precision is double or single, got '{}'", value));
        o.output.single_precision = value == "single";
      } else if (flag == "-snapshot_fields") {
        if (value != "u,u_prev" && value != "u")
          return error(fmt::format("-snapshot_fields is u,u_prev or u, got '{}'", value));
        o.output.with_u_prev = value == "u,u_prev";
      } else if (flag == "-checkpoint_period") {
        const auto n = parse_integer(value);
        if (!n || *n < 1) return error(fmt::format("-checkpoint_period needs a positive integer, got '{}'", value));
        o.output.checkpoint_period = int(*n);
      } else if (flag == "-impl") {
        o.impls = split_commas(value);
        for (const std::string& id : o.impls)
          if (id.empty()) return error(fmt::format("-impl needs comma-separated implementation ids, got '{}'", value));
      } else if (flag == "-reference") {
        if (!is_cpu_reference(value))
          return error(fmt::format("-reference is cpu (serial) or cpu-openmp (threads), got '{}'", value));
        o.reference = value;
      } else if (flag == "-restart") {
        if (value.empty()) return error("-restart needs a file name");
        o.restart_file = value;
      } else if (flag == "-halo") {
        if (value == "mpi")
          o.halo.path = HaloPath::mpi;
        else if (value == "nccl")
          o.halo.path = HaloPath::nccl;
        else
          return error(fmt::format("-halo is mpi or nccl, got '{}'", value));
      } else if (flag == "-halo_timeout") {
        const auto x = parse_real(value);
        if (!x || !(*x > 0) || *x > 1e6) return error(fmt::format("-halo_timeout needs seconds > 0, got '{}'", value));
        o.halo.timeout_seconds = *x;
      } else if (flag == "-tune") {
        if (value == "help")
          o.tune_help = true;
        else if (value.empty())
          return error("-tune needs key=value,... (or help)");
        else
          o.tune += (o.tune.empty() ? "" : ",") + value;
      } else if (flag == "-verify") {
        if (value.empty()) return error("-verify needs a file name");
        o.verify_file = value;
      } else {
        if (value.empty()) return error("-json needs a file name");
        o.json_path = value;
      }
      continue;
    }
    if (arg.size() > 1 && arg[0] == '-') return error(fmt::format("unknown option '{}'", arg));
    if (have_output_base)
      return error(fmt::format("more than one output_base given ('{}' and '{}')", o.output_base, arg));
    if (arg.empty()) return error("output_base is empty");
    o.output_base = arg;
    have_output_base = true;
  }
  if (o.restart_strict && o.restart_file.empty()) return error("-restart_strict needs -restart FILE");
  if (!o.compare_files.empty() && !o.verify_file.empty()) return error("-compare and -verify cannot be combined");
  if (!o.compare_files.empty() && have_output_base)
    return error(fmt::format("-compare takes two files; '{}' would be a third", o.output_base));
  if (o.help || o.tune_help || o.list || !o.verify_file.empty() || !o.compare_files.empty()) return result;
  if (auto problem = validate(o.params)) return error(*problem);
  if (o.restart_file.empty())  // else after apply_restart, which may take out_period from the file
    if (auto problem = settle_output_layout(o.output, o.params)) return error(*problem);
  return result;
}

std::string output_stem(const std::string& output_base) {
  const std::filesystem::path base(output_base);
  if (!base.has_extension()) return output_base;
  return (base.parent_path() / base.stem()).string();
}

std::string output_path(const std::string& output_base, const std::string& impl_id) {
  return output_stem(output_base) + "." + impl_id + ".vtkhdf";
}

namespace {
// A name awave writes (or writes first and renames) that is a symbolic link (a leftover link was followed, and the
// file it named overwritten) or, `folders` set, a folder (found only after the whole run): one line saying so.
std::optional<std::string> refuse_link_or_folder(const std::string& file, const std::string& name, bool folders) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(name, ec);
  if (fs::is_symlink(status))
    return fmt::format("'{}' is a symbolic link: awave writes no file through a link; remove it", name);
  if (folders && fs::is_directory(status)) return fmt::format("cannot write '{}': '{}' is a directory", file, name);
  return std::nullopt;
}

std::optional<std::string> check_file_location(const std::string& file) {
  namespace fs = std::filesystem;
  const fs::path path(file);
  const fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return fmt::format("cannot write '{}': directory '{}' does not exist", file, dir.string());
  if (::access(dir.c_str(), W_OK) != 0)
    return fmt::format("cannot write '{}': directory '{}' is not writable", file, dir.string());
  if (fs::is_directory(path, ec)) return fmt::format("cannot write '{}': it is a directory", file);
  return std::nullopt;
}
}  // namespace

std::optional<std::string> check_output_locations(const Options& options, const std::vector<std::string>& impl_ids) {
  namespace fs = std::filesystem;
  auto same_file = [](const std::string& a, const std::string& b) {
    std::error_code ec;
    return fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
  };
  if (options.write_output) {
    const fs::path base(options.output_base);
    if (!base.has_filename()) return fmt::format("output_base '{}' has no file name", options.output_base);
    std::error_code ec;  // ".", "..", or a folder: files would be named after the folder (hidden for ".")
    if (base.filename() == "." || base.filename() == ".." || fs::is_directory(base, ec))
      return fmt::format("output_base '{}' is a directory; name the files' stem in it (e.g. '{}')", options.output_base,
                         (base / "run").string());
    for (const std::string& id : impl_ids) {
      const std::string file = output_path(options.output_base, id);
      if (auto problem = check_file_location(file)) return problem;
      for (const std::string& name : {file, file + ".partial", file + ".creating"})  // (io/snapshot_writer.cpp's)
        if (auto problem = refuse_link_or_folder(file, name, name != file)) return problem;
      if (!options.restart_file.empty() &&
          (same_file(file, options.restart_file) || same_file(file + ".partial", options.restart_file)))
        return fmt::format("output '{}' would overwrite the restart file '{}'; give another output_base", file,
                           options.restart_file);
    }
  }
  if (!options.json_path.empty()) {
    for (const std::string& name : {options.json_path, options.json_path + ".partial"})  // (driver.cpp, write_json)
      if (auto problem = refuse_link_or_folder(options.json_path, name, false)) return problem;
    return check_file_location(options.json_path);
  }
  return std::nullopt;
}

}  // namespace awave
