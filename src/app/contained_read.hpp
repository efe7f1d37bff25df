// Reading a file awave did not write in this run is decoding untrusted input, and HDF5 (1.10.8 and 1.14.5
// alike) crashes, hangs or allocates without bound on some damaged structures before awave's own checks can
// look: SIGSEGV in H5Aopen, a B-tree node pointing at itself (stack overflow), a FIFO named by an external link
// (issue 81, docs/output.md). So -verify, -compare and -restart first read each file in a child awave
// (`-verify FILE`, `-compare A B`, or the run's own command line for a restart, whose child makes the restart's
// reads and nothing else), limited in address space and in time: a child that dies by a signal or runs past its
// time becomes one line and exit 1, and the parent makes a read only after a child survived the same read.
#pragma once

#include <string>
#include <vector>

namespace awave {

struct ContainedRead {
  bool contained_failure = false;  // the child died (signal, time, memory): `line` says how
  int status = 0;                  // the child's exit status where it exited
  std::string line;                // "FILE: HDF5 failed reading its structure: signal 11 (Segmentation fault)"
  std::string out, err;            // what the child printed
};

// Runs this executable with `args` (`-verify FILE`, `-compare A B`, or a restart's command line) in a child:
// no MPI (the launcher's variables removed), 4 GiB plus 10 x the files' sizes of address space beyond what it
// has mapped at its start, 120 s plus 10 s a GB of them (AWAVE_TEST_FAULT_READ_HANG=S, the planted hang, sets
// S); it stops with its parent. argv0: how this process was started (where /proc is missing); `files`: what
// the child reads, for the line.
ContainedRead read_in_child(const char* argv0, const std::vector<std::string>& args,
                            const std::vector<std::string>& files);

// Whether this process is such a child (AWAVE_CONTAINED_READ set and its command -verify, -compare or -restart:
// the variable alone, set by accident, does not keep a run from MPI), applying its limits once.
bool contained_child(int argc, char** argv);

}  // namespace awave
