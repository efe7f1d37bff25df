// Crash safety, restart and write errors, with the awave executable as a user runs it: kill -9
// at several moments, restart from complete and from killed files, bad restart files, and a
// file system that fills up mid-run. Files are compared bitwise, snapshot by snapshot.
#include "app/registry.hpp"
#include "awave_process.hpp"
#include "io/restart.hpp"
#include "io/vtkhdf.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using namespace awave;

extern char** environ;

// HDF5 locks a file its writer holds open; the kill test reads the file while awave writes.
const int no_hdf5_file_locking = ::setenv("HDF5_USE_FILE_LOCKING", "FALSE", 1);

namespace {

using awave_test::Outcome;
using awave_test::slurp;
using Restart = awave_test::AwaveProcessTest;

// What is wrong with `part` as a continuation of `whole` (empty: nothing). Every snapshot of
// `part` at a time counter that `whole` also has must equal it bitwise (u and u_prev), and
// after `part`'s first snapshot (its start: the initial or restart state) it must have
// exactly `whole`'s snapshots, no more, no fewer. Snapshots are those each file commits
// (VtkHdfContents::committed_snapshots: a file killed inside a commit counts the agreed ones).
std::string continuation_problem(const fs::path& whole, const fs::path& part, long expected_snapshots) {
  const VtkHdfContents w = read_vtkhdf_contents(whole), p = read_vtkhdf_contents(part);
  const std::size_t wn = std::size_t(w.committed_snapshots()), pn = std::size_t(p.committed_snapshots());
  std::ostringstream problem;
  if (long(pn) != expected_snapshots || pn < 1) {
    problem << part << " has " << pn << " snapshots, expected " << expected_snapshots;
    return problem.str();
  }
  const std::vector<int64_t> whole_times(w.step_values.begin(), w.step_values.begin() + long(wn));
  std::vector<int64_t> later_in_whole;
  for (int64_t t : whole_times)
    if (t > p.step_values[0]) later_in_whole.push_back(t);
  if (std::vector<int64_t>(p.step_values.begin() + 1, p.step_values.begin() + long(pn)) != later_in_whole)
    problem << part << " does not take the snapshots of " << whole << "; ";
  int compared = 0;
  for (std::size_t s = 0; s < pn; ++s) {
    const auto at = std::find(whole_times.begin(), whole_times.end(), p.step_values[s]);
    if (at == whole_times.end()) continue;
    const std::size_t ws = std::size_t(at - whole_times.begin());
    for (const char* name : {"u", "u_prev"}) {
      const std::vector<double> a = read_vtkhdf_array(whole, name, w.offsets.at(name)[ws]);
      const std::vector<double> b = read_vtkhdf_array(part, name, p.offsets.at(name)[s]);
      if (std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) != 0)
        problem << name << " at time " << p.step_values[s] << " differs; ";
      ++compared;
    }
  }
  if (compared < 2) problem << "no snapshot in common";
  return problem.str();
}

void expect_continues(const fs::path& whole, const fs::path& part, long expected_snapshots) {
  EXPECT_EQ(continuation_problem(whole, part, expected_snapshots), "") << part << " against " << whole;
}

std::vector<std::string> implementations_to_test() {
  std::vector<std::string> ids;
  for (const ImplEntry& e : implementations())
#ifdef AWAVE_TEST_ON_DEVICE
    if (e.on_device) ids.push_back(e.id);
#else
    if (!e.on_device && e.id != "cpu-openmp") ids.push_back(e.id);
#endif
  if (ids.empty()) ADD_FAILURE() << "no implementation to test: every loop over them would pass empty";
  return ids;
}

}  // namespace

// N steps in one run == M steps, then a restart for N - M, for every implementation, on a
// non-cubic grid whose out_period divides neither N nor M; from a complete file, and again
// from the restarted run's own file with the default -nsteps (to the file's end step).
TEST_F(Restart, RestartedRunsAreBitwiseTheUninterruptedRun) {
#ifdef AWAVE_TEST_ON_DEVICE
  if (auto problem = accelerator_problem()) GTEST_SKIP() << *problem;
#endif
  for (const std::string& id : implementations_to_test()) {
    SCOPED_TRACE(id);
    const std::string grid = "-shape 21,13,7 -out_period 3 -impl " + id;
    ASSERT_EQ(run(grid + " -nsteps 11 full").status, 0);                                       // 0 3 6 9 11
    ASSERT_EQ(run(grid + " -nsteps 7 full7").status, 0);                                       // 0 3 6 7
    ASSERT_EQ(run(grid + " -nsteps 5 part").status, 0);                                        // 0 3 5
    const Outcome r = run("-impl " + id + " -restart part." + id + ".vtkhdf -nsteps 2 rest");  // 5 6 7
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("restarting from part." + id + ".vtkhdf at step 5"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("PASS"), std::string::npos) << "the reference restarts too: " << r.out;
    const std::string rest = "rest." + id + ".vtkhdf";
    // The restarted file: the restart state, then the uninterrupted run's snapshots.
    const VtkHdfContents c = read_vtkhdf_contents(work() / rest);
    EXPECT_EQ(c.step_values, (std::vector<int64_t>{5, 6, 7}));
    EXPECT_EQ(c.params.nsteps, 7) << "/wave_params nsteps is the end step";
    EXPECT_TRUE(c.complete);
    expect_continues(work() / ("full7." + id + ".vtkhdf"), work() / rest, 3);
    // A restart of a restart, to the end step given by the first run's file... which is 7:
    // nothing left, so it is refused; with -nsteps 4 it reaches 11, the full run's end.
    const Outcome done = run("-impl " + id + " -restart " + rest + " again");
    EXPECT_EQ(done.status, 1);
    EXPECT_NE(done.err.find("is complete (step 7); give -nsteps"), std::string::npos) << done.err;
    ASSERT_EQ(run("-impl " + id + " -restart " + rest + " -nsteps 4 again").status, 0);
    expect_continues(work() / ("full." + id + ".vtkhdf"), work() / ("again." + id + ".vtkhdf"), 3);  // 7 9 11
  }
}

// Single-precision snapshots of u with checkpoints apart (io/output_layout.hpp), for every
// implementation (on a GPU, converted there): each snapshot is the double run's u rounded to
// float, bit for bit; each checkpoint is the double run's u and u_prev at its step; and a restart
// from a checkpoint of such a file continues to the same checkpoints and snapshots.
TEST_F(Restart, RestartedRunsFromSinglePrecisionFilesAreBitwiseTheUninterruptedRun) {
#ifdef AWAVE_TEST_ON_DEVICE
  if (auto problem = accelerator_problem()) GTEST_SKIP() << *problem;
#endif
  const std::string single = " -snapshot_precision single -snapshot_fields u -checkpoint_period 6 -no_check";
  for (const std::string& id : implementations_to_test()) {
    SCOPED_TRACE(id);
    const std::string grid = "-shape 21,13,7 -out_period 3 -impl " + id;
    ASSERT_EQ(run(grid + " -nsteps 12 -no_check double").status, 0);    // snapshots 0 3 6 9 12, in double
    ASSERT_EQ(run(grid + " -nsteps 12" + single + " full").status, 0);  // checkpoints 6 12
    ASSERT_EQ(run(grid + " -nsteps 8" + single + " part").status, 0);   // checkpoints 6 8
    const Outcome r = run("-impl " + id + " -restart part." + id + ".vtkhdf -nsteps 4" + single + " rest");
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("at step 8 (its checkpoint slot 1)"), std::string::npos) << r.out;

    const std::string reference = (work() / ("double." + id + ".vtkhdf")).string();
    const VtkHdfContents d = read_vtkhdf_contents(reference);
    auto double_at = [&](const char* name, int64_t time) {  // the double run's field, [i][j][k]
      const auto at = std::find(d.step_values.begin(), d.step_values.end(), time);
      if (at == d.step_values.end()) return std::vector<double>{};
      return read_vtkhdf_planes(reference, std::string(kSnapshotArrays) + "/" + name, at - d.step_values.begin(), 0,
                                d.params.nx());
    };
    for (const char* file : {"full", "rest"}) {
      SCOPED_TRACE(file);
      const std::string path = (work() / (std::string(file) + "." + id + ".vtkhdf")).string();
      const VtkHdfContents c = read_vtkhdf_contents(path);
      ASSERT_EQ(c.value_bytes.at("u"), 4);
      EXPECT_EQ(c.dims.count("u_prev"), 0u);
      ASSERT_TRUE(c.checkpoints);
      const std::vector<int64_t> checkpoint_steps =
          std::string(file) == "full" ? std::vector<int64_t>{6, 12} : std::vector<int64_t>{12};
      EXPECT_EQ(c.checkpoints->steps, checkpoint_steps);
      for (int64_t s = 0; s < c.committed_snapshots(); ++s) {
        const std::vector<double> u =
            read_vtkhdf_planes(path, std::string(kSnapshotArrays) + "/u", s, 0, c.params.nx());
        std::vector<double> rounded = double_at("u", c.step_values[std::size_t(s)]);
        if (rounded.empty()) continue;  // a restart's start (step 8): not among the double run's snapshots
        for (double& x : rounded) x = double(float(x));
        EXPECT_TRUE(u == rounded) << "snapshot at step " << c.step_values[std::size_t(s)];
      }
      for (std::size_t n = 0; n < c.checkpoints->steps.size(); ++n)
        for (const char* name : {"u", "u_prev"}) {
          const std::vector<double> got =
              read_vtkhdf_planes(path, std::string(kCheckpointGroup) + "/" + name, int64_t(n), 0, c.params.nx());
          const std::vector<double> want = double_at(name, c.checkpoints->steps[n]);
          EXPECT_TRUE(!want.empty() && std::memcmp(got.data(), want.data(), got.size() * sizeof(double)) == 0)
              << name << " of checkpoint " << n;
        }
    }
  }
}

// kill -9 while a run writes, at several moments; what was flushed is intact and restartable.
// A kill can land inside a snapshot's commit flush (0.07-0.4 ms of each snapshot's ~5 ms
// here): NSteps and the Steps arrays may then disagree, which restart and -verify take by
// the snapshots all agree on (docs/output.md). Such a file is checked
// for that too, and the moment is tried again for a file VTK 9.3 can open.
TEST_F(Restart, AKilledRunKeepsEverySnapshotItCompletedAndRestartsFromThem) {
  // Long enough that the run cannot end before the kill on a loaded machine (~3 s alone);
  // the unwritten slots take no disk.
  const std::string grid = "-shape 48,40,32 -out_period 20 -impl cpu -no_check";
  const fs::path partial = work() / "killed.cpu.vtkhdf.partial";
  for (const long wait_for : {0L, 1L, 4L}) {
    for (int attempt = 1;; ++attempt) {
      SCOPED_TRACE("killed after " + std::to_string(wait_for) + " snapshots, attempt " + std::to_string(attempt));
      fs::remove(partial);
      const std::string cmd =
          "cd '" + work().string() + "' && exec '" AWAVE_EXE "' " + grid + " -nsteps 12000 killed >/dev/null 2>&1";
      pid_t pid = 0;
      const char* argv[] = {"sh", "-c", cmd.c_str(), nullptr};
      ASSERT_EQ(posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ), 0);
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      for (;;) {  // reading while it writes: a commit in progress may fail to open, so retry
        long seen = -1;
        try {
          if (fs::exists(partial)) seen = long(read_vtkhdf_contents(partial).committed_snapshots());
        } catch (const std::exception&) {
        }
        if (seen >= wait_for) break;
        ASSERT_LT(std::chrono::steady_clock::now(), give_up) << "the run never wrote " << wait_for << " snapshots";
        std::this_thread::sleep_for(std::chrono::milliseconds(wait_for == 0 ? 0 : 5));
      }
      ASSERT_EQ(::kill(pid, SIGKILL), 0);
      int status = 0;
      ASSERT_EQ(::waitpid(pid, &status, 0), pid);
      ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "the run ended before the kill";
      ASSERT_FALSE(fs::exists(work() / "killed.cpu.vtkhdf")) << "an interrupted run must not look complete";
      ASSERT_FALSE(fs::exists(work() / "killed.cpu.vtkhdf.creating")) << "renamed before the first read";

      const VtkHdfContents c = read_vtkhdf_contents(partial);  // opens, whenever the kill came
      EXPECT_FALSE(c.complete);
      const long n = long(c.committed_snapshots());
      ASSERT_GE(n, wait_for);
      long most = std::max(long(c.nsteps), long(c.step_values.size()));
      for (const auto& [name, offsets] : c.offsets) most = std::max(most, long(offsets.size()));
      const bool agreed = most == n;
      if (!agreed) {
        ASSERT_EQ(most, n + 1) << "a commit adds one snapshot";
        std::cout << "killed inside a commit flush: NSteps " << c.nsteps << ", " << n << " agreed\n";
      }
      if (n == 0) {  // killed before its first snapshot: nothing to restart from
        const Outcome o = run("-impl cpu -restart killed.cpu.vtkhdf.partial resumed");
        EXPECT_EQ(o.status, 1);
        EXPECT_NE(o.err.find("holds no complete snapshot"), std::string::npos) << o.err;
      } else {
        const long last = long(c.step_values[std::size_t(n - 1)]);
        if (last > 0) {  // what it holds is what an uninterrupted run to its last snapshot writes
          ASSERT_EQ(run(grid + " -nsteps " + std::to_string(last) + " upto").status, 0);
          expect_continues(work() / "upto.cpu.vtkhdf", partial, n);
        }
        const Outcome r = run("-impl cpu -restart killed.cpu.vtkhdf.partial -nsteps 30 resumed");
        ASSERT_EQ(r.status, 0) << r.out << r.err;
        ASSERT_EQ(run(grid + " -nsteps " + std::to_string(last + 30) + " whole").status, 0);
        expect_continues(work() / "whole.cpu.vtkhdf", work() / "resumed.cpu.vtkhdf", 3);  // last, +20, +30
      }
      if (agreed) {
        if (const char* keep = std::getenv("AWAVE_KEEP_KILLED_FILE"); keep && n >= 2) {
          // For the VTK 9.3 check; cp keeps the unwritten slots as holes (fs::copy_file would
          // write every allocated byte: 600 MB here, for a file of a few MB).
          ASSERT_EQ(std::system(("cp --sparse=always '" + partial.string() + "' '" + keep + "'").c_str()), 0);
        }
        break;
      }
      ASSERT_LT(attempt, 5) << "every kill landed inside a commit flush";
    }
  }
}

// Each kind of bad restart file: one line on stderr, exit 1, nothing written.
TEST_F(Restart, BadRestartFilesAreRefusedAndNothingIsWritten) {
  const std::string good_file_options = "-shape 20,12,6 -dx 10 -dt 0.002 -out_period 3";
  ASSERT_EQ(run(good_file_options + " -nsteps 6 -impl cpu good").status, 0);
  ASSERT_EQ(run("-shape 20,12,6 -nsteps 6 -out_period 3 -impl cpu -no_output -json r.json x").status, 0);
  fs::create_directories(dir_ / "files");
  const fs::path good = work() / "good.cpu.vtkhdf";
  fs::rename(good, dir_ / "files" / "good.vtkhdf");
  fs::rename(work() / "r.json", dir_ / "files" / "r.json");
  const fs::path files = dir_ / "files";
  std::ofstream(files / "text.vtkhdf") << "not HDF5 at all\n";
  fs::copy_file(files / "good.vtkhdf", files / "old.cpu.vtkhdf");
  fs::copy_file(files / "good.vtkhdf", files / "old.cpu.vtkhdf.partial");
  {  // truncated: the first half of a good file
    const std::string all = slurp(files / "good.vtkhdf");
    std::ofstream(files / "truncated.vtkhdf", std::ios::binary).write(all.data(), std::streamsize(all.size() / 2));
  }
  {  // an HDF5 file that is not awave's
    const hid_t f = H5Fcreate((files / "other.h5").c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    H5Gclose(H5Gcreate2(f, "/something", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    H5Fclose(f);
  }
  {  // corrupt: /wave_params says another shape than the arrays have
    fs::copy_file(files / "good.vtkhdf", files / "corrupt.vtkhdf");
    const hid_t f = H5Fopen((files / "corrupt.vtkhdf").c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    const hid_t g = H5Gopen2(f, "/wave_params", H5P_DEFAULT);
    const hid_t a = H5Aopen(g, "shape", H5P_DEFAULT);
    const int shape[3] = {20, 12, 7};
    const herr_t written = H5Awrite(a, H5T_NATIVE_INT, shape);
    if (written < 0) H5Eprint2(H5E_DEFAULT, stderr);
    ASSERT_GE(written, 0);
    H5Aclose(a);
    H5Gclose(g);
    ASSERT_GE(H5Fclose(f), 0);
  }
  {  // no snapshot: a run killed before its first output
    WaveParams p;
    p.shape = {20, 12, 6};
    VtkHdfWriter((files / "empty.vtkhdf").string(), WaveProblem(p), {}, 3);
  }
  const std::pair<std::string, std::string> cases[] = {
      {"-restart ../files/missing.vtkhdf", "does not exist"},
      {"-restart ../files/text.vtkhdf", "is not an HDF5 file"},
      {"-restart ../files/r.json", "is not an HDF5 file"},
      {"-restart ../files/truncated.vtkhdf", "is not a readable awave output file"},
      {"-restart ../files/other.h5", "is not a readable awave output file"},
      {"-restart ../files/corrupt.vtkhdf", "is corrupt"},
      {"-restart ../files/empty.vtkhdf", "holds no complete snapshot"},
      {"-restart ../files/good.vtkhdf -shape 20,12,7", "-shape 20,12,7 contradicts the restart file"},
      {"-restart ../files/good.vtkhdf -dt 0.001", "-dt 0.001 contradicts the restart file"},
      {"-restart ../files/good.vtkhdf -dx 12", "-dx 12 contradicts the restart file"},
      {"-restart ../files/good.vtkhdf -out_period 2", "-out_period 2 contradicts the restart file"},
      {"-restart ../files/good.vtkhdf", "is complete (step 6); give -nsteps"},
      {"-restart ../files/old.cpu.vtkhdf -nsteps 3 ../files/old", "would overwrite the restart file"},
      {"-restart ../files/old.cpu.vtkhdf.partial -nsteps 3 ../files/old", "would overwrite the restart file"},
  };
  for (const auto& [args, message] : cases) {
    const Outcome o = run("-impl cpu " + args);
    EXPECT_EQ(o.status, 1) << args << ": " << o.out << o.err;
    // One line, which says what is wrong.
    const std::string first_line = o.err.substr(0, o.err.find('\n') + 1), rest = o.err.substr(first_line.size());
    EXPECT_EQ(first_line.rfind("awave: error: ", 0), 0u) << args << ": " << o.err;
    EXPECT_NE(first_line.find(message), std::string::npos) << args << ": " << o.err;
    EXPECT_TRUE(rest.empty()) << args << ": " << o.err;
    EXPECT_TRUE(files_in_work().empty()) << args << " wrote " << files_in_work().front();
  }
  // The checker of this test is not blind: the good file restarts, also with every option the file
  // fixes given as the file has it (no contradiction).
  EXPECT_EQ(run("-impl cpu -restart ../files/good.vtkhdf -nsteps 3 more").status, 0);
  const Outcome same = run("-impl cpu -restart ../files/good.vtkhdf -nsteps 3 " + good_file_options + " same");
  EXPECT_EQ(same.status, 0) << same.err;
}

// A file system that fills up mid-run (a small tmpfs, mounted in a private mount namespace):
// one line, exit 3, the snapshots written before still readable, nothing that looks complete.
TEST_F(Restart, AFullDiskStopsTheRunWithTheLastSnapshotsReadable) {
  if (std::system("unshare -m --propagation private true >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "no private mount namespace here (needs root or user namespaces)";
  fs::create_directories(dir_ / "kept");
  // 64x64x32: 2 MiB per snapshot (u and u_prev); the tmpfs holds the static part and a few.
  const fs::path tmpfs = dir_ / "tmpfs", script = dir_ / "full-disk.sh";
  std::ofstream(script) << "set -u\nmkdir -p '" << tmpfs.string() << "'\nmount -t tmpfs -o size=7m tmpfs '"
                        << tmpfs.string() << "' || exit 97\ncd '" << tmpfs.string() << "'\n'" AWAVE_EXE
                        << "' -shape 64,64,32 -nsteps 400 -out_period 10 -impl cpu -no_check -quiet run >'"
                        << (dir_ / "out").string() << "' 2>'" << (dir_ / "err").string() << "'\nrc=$?\ncp -a . '"
                        << (dir_ / "kept").string() << "/'\nexit $rc\n";
  const int raw = std::system(("unshare -m --propagation private sh '" + script.string() + "'").c_str());
  const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  if (status == 97) GTEST_SKIP() << "cannot mount a tmpfs here";
  const std::string err = slurp(dir_ / "err");
  EXPECT_EQ(status, 3) << err;
  EXPECT_EQ(err.rfind("awave: error: writing run.cpu.vtkhdf.partial: ", 0), 0u) << err;
  EXPECT_NE(err.find("HDF5: write u: No space left on device"), std::string::npos) << err;
  EXPECT_NE(err.find("-restart run.cpu.vtkhdf.partial continues"), std::string::npos) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_FALSE(fs::exists(dir_ / "kept" / "run.cpu.vtkhdf")) << "a failed run's file must not look complete";
  const VtkHdfContents c = read_vtkhdf_contents(dir_ / "kept" / "run.cpu.vtkhdf.partial");
  EXPECT_FALSE(c.complete);
  EXPECT_GE(c.nsteps, 1);
  EXPECT_LT(c.nsteps, 41) << "the disk did not fill up";
  // What it holds is what an uninterrupted run writes.
  if (c.step_values.back() > 0) {
    ASSERT_EQ(run("-shape 64,64,32 -nsteps " + std::to_string(c.step_values.back()) +
                  " -out_period 10 -impl cpu -no_check whole")
                  .status,
              0);
    expect_continues(work() / "whole.cpu.vtkhdf", dir_ / "kept" / "run.cpu.vtkhdf.partial", c.nsteps);
  }
}

// The file comparison above is not blind: one changed value, one missing snapshot and a
// different run are each caught.
TEST_F(Restart, TheContinuationCheckCatchesPlantedDifferences) {
  ASSERT_EQ(run("-shape 20,12,6 -nsteps 6 -out_period 3 -impl cpu -no_check a").status, 0);
  ASSERT_EQ(run("-shape 20,12,6 -nsteps 6 -out_period 3 -impl cpu -no_check -dt 0.001 b").status, 0);
  ASSERT_EQ(run("-shape 20,12,6 -nsteps 3 -out_period 3 -impl cpu -no_check c").status, 0);
  const fs::path a = work() / "a.cpu.vtkhdf", planted = work() / "planted.vtkhdf";
  EXPECT_EQ(continuation_problem(a, a, 3), "");
  fs::copy_file(a, planted);
  {
    const hid_t f = H5Fopen(planted.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    const hid_t ds = H5Dopen2(f, "/VTKHDF/PointData/u_prev", H5P_DEFAULT);
    const hid_t space = H5Dget_space(ds);
    const hsize_t start[4] = {2, 5, 11, 19}, count[4] = {1, 1, 1, 1};  // the last point, last slot
    H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr);
    const hid_t mem = H5Screate_simple(4, count, nullptr);
    const double value = 1e-300;
    ASSERT_GE(H5Dwrite(ds, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, &value), 0);
    H5Sclose(mem);
    H5Sclose(space);
    H5Dclose(ds);
    H5Fclose(f);
  }
  EXPECT_NE(continuation_problem(a, planted, 3).find("u_prev at time 6 differs"), std::string::npos);
  EXPECT_NE(continuation_problem(a, work() / "b.cpu.vtkhdf", 3).find("u at time 3 differs"), std::string::npos);
  EXPECT_NE(continuation_problem(a, work() / "c.cpu.vtkhdf", 2).find("does not take the snapshots"), std::string::npos);
}
