// run_limited RESULT AS_BYTES SECONDS PROGRAM [ARG...]: runs PROGRAM (stdout, stderr inherited)
// under an address-space limit (RLIMIT_AS; no core files), killing its process group after
// SECONDS, and writes one line to the file RESULT: "exit N", "signal N" or "timeout", then its
// peak resident memory in kB. A child forked from this small process, not from the caller:
// a Python caller's child inherits Python's resident pages, which its peak then counts.
// (tests/tools/damaged_files.py runs every awave of its cases through it.)
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ctime>

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: run_limited RESULT AS_BYTES SECONDS PROGRAM [ARG...]\n");
    return 2;
  }
  const rlim_t as_bytes = std::strtoull(argv[2], nullptr, 10);
  const double seconds = std::strtod(argv[3], nullptr);
  sigset_t child_done;
  sigemptyset(&child_done);
  sigaddset(&child_done, SIGCHLD);
  sigprocmask(SIG_BLOCK, &child_done, nullptr);  // so that sigtimedwait sees it
  const pid_t pid = fork();
  if (pid == 0) {
    sigprocmask(SIG_UNBLOCK, &child_done, nullptr);
    setpgid(0, 0);
    const rlimit as{as_bytes, as_bytes}, no_core{0, 0};
    if (setrlimit(RLIMIT_AS, &as) != 0 || setrlimit(RLIMIT_CORE, &no_core) != 0) _exit(126);
    execv(argv[4], argv + 4);
    _exit(127);
  }
  if (pid < 0) return 2;
  timespec start{};
  clock_gettime(CLOCK_MONOTONIC, &start);
  int status = 0;
  rusage usage{};
  bool timed_out = false;
  while (wait4(pid, &status, WNOHANG, &usage) != pid) {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    const double left = seconds - (double(now.tv_sec - start.tv_sec) + 1e-9 * double(now.tv_nsec - start.tv_nsec));
    if (left <= 0) {
      timed_out = true;
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      wait4(pid, &status, 0, &usage);
      break;
    }
    const timespec wait{time_t(left), long((left - double(time_t(left))) * 1e9)};
    sigtimedwait(&child_done, nullptr, &wait);
  }
  FILE* result = std::fopen(argv[1], "w");
  if (!result) return 2;
  if (timed_out)
    std::fprintf(result, "timeout");
  else if (WIFSIGNALED(status))
    std::fprintf(result, "signal %d", WTERMSIG(status));
  else
    std::fprintf(result, "exit %d", WEXITSTATUS(status));
  std::fprintf(result, " %ld\n", usage.ru_maxrss);
  return std::fclose(result) == 0 ? 0 : 2;
}
