#include "app/contained_read.hpp"

#include "core/tuning.hpp"  // test_fault

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>

extern char** environ;

namespace awave {

namespace {
constexpr const char* kChildVariable = "AWAVE_CONTAINED_READ";  // "BYTES SECONDS": the child's budget

// The environment for the child: this one less an MPI launcher's variables (the child must not join the
// job), plus the child's mark and limit.
std::vector<std::string> child_environment(unsigned long long address_space, unsigned seconds) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string_view v(*e);
    if (v.rfind("OMPI_", 0) == 0 || v.rfind("PMIX_", 0) == 0 || v.rfind("PMI_", 0) == 0 ||
        v.rfind(kChildVariable, 0) == 0)
      continue;
    env.emplace_back(v);
  }
  env.push_back(fmt::format("{}={} {}", kChildVariable, address_space, seconds));
  return env;
}

std::string join(const std::vector<std::string>& files) {
  std::string s;
  for (const std::string& f : files) s += (s.empty() ? "" : " and ") + f;
  return s;
}
}  // namespace

bool contained_child(int argc, char** argv) {
  const char* limit = std::getenv(kChildVariable);  // "BYTES SECONDS"
  if (!limit) return false;
  bool reads = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a(argv[i]);
    reads = reads || a == "-verify" || a == "--verify" || a == "-compare" || a == "--compare" || a == "-restart" ||
            a == "--restart";
  }
  if (!reads) return false;
  static const bool limited = [limit] {
    char* rest = nullptr;
    const unsigned long long budget = std::strtoull(limit, &rest, 10);
    const unsigned seconds = unsigned(std::strtoul(rest, nullptr, 10));
    // (the budget beyond what the process has mapped already: an offload runtime maps GBs before main)
    unsigned long long mapped = 0;
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
      if (line.rfind("VmSize:", 0) == 0) mapped = std::strtoull(line.c_str() + 7, nullptr, 10) * 1024;
    if (budget > 0) {
      const rlimit as{mapped + budget, mapped + budget};
      setrlimit(RLIMIT_AS, &as);
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);     // a child whose parent is gone stops too
    if (getppid() == 1) std::_Exit(1);    // (the parent was gone before the line above)
    if (seconds > 0) alarm(seconds + 5);  // a backstop behind the parent's own limit
    return true;
  }();
  return limited;
}

ContainedRead read_in_child(const char* argv0, const std::vector<std::string>& args,
                            const std::vector<std::string>& files) {
  ContainedRead r;
  std::uintmax_t bytes = 0;
  for (const std::string& f : files) {
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(f, ec);
    if (!ec) bytes += size;
  }
  const unsigned long long address_space = (4ULL << 30) + 10ULL * bytes;
  double seconds = 120.0 + 10.0 * double(bytes) / 1e9;
  if (const auto hang = test_fault("READ_HANG")) seconds = std::max(1.0, std::atof(hang->c_str()));  // (the test's)

  // This executable: /proc/self/exe, or where there is no /proc (a chroot: CI's Debian-Kokkos suite) the
  // name it was started by, looked up in PATH as the shell did where it has no '/'.
  const bool proc = access("/proc/self/exe", X_OK) == 0;
  const std::string self = proc ? "/proc/self/exe" : argv0;
  std::vector<std::string> argv_strings{self};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_strings) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_strings = child_environment(address_space, unsigned(seconds));
  std::vector<char*> env;
  for (std::string& e : env_strings) env.push_back(e.data());
  env.push_back(nullptr);

  int out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1};
  if (pipe(out_pipe) != 0 || pipe(err_pipe) != 0) {
    for (int fd : {out_pipe[0], out_pipe[1]})
      if (fd >= 0) close(fd);
    r.contained_failure = true;
    r.line = fmt::format("{}: cannot read it in a child process: pipe: {}", join(files), std::strerror(errno));
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  posix_spawn_file_actions_addclose(&actions, out_pipe[0]);
  posix_spawn_file_actions_addclose(&actions, err_pipe[0]);
  // (an inherited "ignore SIGCHLD" would reap the child before waitpid sees it: default while it runs)
  struct sigaction default_child {
  }, saved_child{};
  default_child.sa_handler = SIG_DFL;
  sigaction(SIGCHLD, &default_child, &saved_child);
  struct Restore {
    struct sigaction* saved;
    ~Restore() { sigaction(SIGCHLD, saved, nullptr); }
  } restore{&saved_child};
  pid_t pid = 0;
  const bool search = self.find('/') == std::string::npos;
  const int spawned =
      (search ? posix_spawnp : posix_spawn)(&pid, self.c_str(), &actions, nullptr, argv.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (spawned != 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    r.contained_failure = true;
    r.line = fmt::format("{}: cannot read it in a child process: {}", join(files), std::strerror(spawned));
    return r;
  }
  // Both pipes drained until the child closes them, or its time is up.
  const auto start = std::chrono::steady_clock::now();
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int open_pipes = 2;
  bool timed_out = false, unwatched = false;
  while (open_pipes > 0) {
    const double left = seconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    if (poll(fds, 2, int(std::min(left, 1.0) * 1000) + 1) < 0 && errno != EINTR) {
      unwatched = true;  // (cannot watch the child any more: stop it rather than wait on it unwatched)
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buffer[4096];
      const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        if (sinks[i]->size() < (1u << 20)) sinks[i]->append(buffer, std::size_t(n));  // (bounded)
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_pipes;
      }
    }
  }
  for (const pollfd& p : fds)
    if (p.fd >= 0) close(p.fd);
  if (timed_out || unwatched) kill(pid, SIGKILL);
  int status = 0;
  pid_t waited = -1;
  while ((waited = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
  }
  if (waited != pid && !timed_out && !unwatched) {  // (its status unknown: not taken as a clean exit)
    r.contained_failure = true;
    r.line = fmt::format("{}: its reading child's end could not be seen: {}", join(files), std::strerror(errno));
    return r;
  }
  if (unwatched) {
    r.contained_failure = true;
    r.line = fmt::format("{}: its reading child could not be watched (poll: {}); stopped", join(files),
                         std::strerror(errno));
  } else if (timed_out) {
    r.contained_failure = true;
    r.line = fmt::format(
        "{}: reading it took longer than {:.0f} s (stopped: a damaged structure, or a link to "
        "something that never answers)",
        join(files), seconds);
  } else if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    r.contained_failure = true;
    r.line = fmt::format("{}: HDF5 failed reading its structure: signal {} ({})", join(files), sig, strsignal(sig));
  } else {
    r.status = WEXITSTATUS(status);  // (a refused allocation is the child's own one-line error)
  }
  return r;
}

}  // namespace awave
