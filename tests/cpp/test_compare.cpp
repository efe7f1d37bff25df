// awave -compare A B with the executable: runs of the same parameters are identical (one
// process or three, double or single precision, with checkpoints, a .partial, a restarted run);
// one bit planted in a copy, its checksum rewritten so that the copy still verifies, is named
// with its step, field, point and values, and counted; different grids, parameters, precisions,
// damaged files and files that are not awave's cannot be compared, in one line.
#include "awave_process.hpp"
#include "core/wave_problem.hpp"
#include "damage.hpp"
#include "io/integrity.hpp"
#include "io/vtkhdf.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstring>
#include <filesystem>

namespace fs = std::filesystem;
using awave_test::Outcome;

namespace {

// Snapshots at 0, 4, 8 (slots 0..2).
constexpr const char* kRun = "-shape 20,16,12 -nsteps 8 -out_period 4 -impl cpu -quiet";
// Single-precision snapshots of u and u_prev, checkpoints (double) at 4 and 8.
constexpr const char* kSingle =
    "-shape 20,16,12 -nsteps 8 -out_period 4 -impl cpu -quiet -snapshot_precision single -checkpoint_period 4";

// Flips bit `bit` of the value at (i, j, k) of `dataset` ("/VTKHDF/PointData/u",
// "/awave_checkpoints/u_prev", ...) in `slot`, and rewrites that x-plane's stored checksum
// (io/integrity.hpp: plane_checksum over the stored type) so that the file still verifies: a
// file that differs, not a damaged one. Returns the value before and after, as stored.
template <class Stored>
std::pair<double, double> flip_bit_keeping_checksums(const std::string& path, const std::string& dataset, int field,
                                                     hsize_t slot, int i, int j, int k, int bit) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t ds = H5Dopen2(file, dataset.c_str(), H5P_DEFAULT);
  const hid_t space = H5Dget_space(ds);
  hsize_t d[4] = {};
  H5Sget_simple_extent_dims(space, d, nullptr);
  const int nz = int(d[1]), ny = int(d[2]);
  const hid_t type = sizeof(Stored) == 4 ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
  // x-plane i of the slot, [nz][ny]
  const hsize_t start[4] = {slot, 0, 0, hsize_t(i)}, count[4] = {1, hsize_t(nz), hsize_t(ny), 1};
  H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr);
  const hid_t mem = H5Screate_simple(4, count, nullptr);
  std::vector<Stored> plane(std::size_t(nz) * ny);
  bool ok = H5Dread(ds, type, mem, space, H5P_DEFAULT, plane.data()) >= 0;
  Stored& value = plane[std::size_t(k) * ny + j];
  const double before = value;
  unsigned char bytes[sizeof(Stored)];
  std::memcpy(bytes, &value, sizeof value);
  bytes[bit / 8] ^= static_cast<unsigned char>(1u << (bit % 8));
  std::memcpy(&value, bytes, sizeof value);
  const double after = value;
  ok = ok && H5Dwrite(ds, type, mem, space, H5P_DEFAULT, plane.data()) >= 0;
  // The plane's checksum as the writer computes it: rows j, k fastest, through a padded plane.
  const awave::PaddedGeometry g{1, ny, nz};
  std::vector<Stored> padded(g.size());
  for (int jj = 0; jj < ny; ++jj)
    for (int kk = 0; kk < nz; ++kk) padded[g.index(1, jj + 1, kk + 1)] = plane[std::size_t(kk) * ny + jj];
  const bool checkpoint = dataset.rfind(awave::kCheckpointGroup, 0) == 0;
  const std::string group = checkpoint ? awave::kCheckpointGroup : "/awave_integrity";
  // (sos and damp: [2][nx] static planes, field 0 and 1; the time arrays: [slot][fields][nx])
  const bool is_static = dataset.find("/sos") != std::string::npos || dataset.find("/damp") != std::string::npos;
  // bound to what the plane is, as the writer's (scheme 2)
  const auto series = is_static    ? awave::ChecksumSeries::statics
                      : checkpoint ? awave::ChecksumSeries::checkpoints
                                   : awave::ChecksumSeries::snapshots;
  const std::uint32_t crc =
      awave::plane_checksum<Stored>(padded.data(), g, 1) ^
      awave::plane_binding(awave::kChecksumScheme, series, field, is_static ? 0 : int64_t(slot), i,
                           std::size_t(ny) * std::size_t(nz) * sizeof(Stored));
  const hid_t sums = H5Dopen2(file, (group + (is_static ? "/static_planes" : "/planes")).c_str(), H5P_DEFAULT);
  const hid_t sums_space = H5Dget_space(sums);
  const hsize_t at[3] = {slot, hsize_t(field), hsize_t(i)}, at_static[2] = {hsize_t(field), hsize_t(i)},
                one[3] = {1, 1, 1};
  H5Sselect_hyperslab(sums_space, H5S_SELECT_SET, is_static ? at_static : at, nullptr, one, nullptr);
  const hid_t one_value = H5Screate_simple(is_static ? 2 : 3, one, nullptr);
  ok = ok && H5Dwrite(sums, H5T_NATIVE_UINT32, one_value, sums_space, H5P_DEFAULT, &crc) >= 0;
  H5Sclose(one_value);
  H5Sclose(sums_space);
  H5Dclose(sums);
  H5Sclose(mem);
  H5Sclose(space);
  H5Dclose(ds);
  if (H5Fclose(file) < 0 || !ok) throw std::runtime_error("cannot plant a bit in " + path);
  return {before, after};
}

class Compare : public awave_test::AwaveProcessTest {
 protected:
  // Runs awave with `args` writing <base>.cpu.vtkhdf; returns the file's name.
  std::string write(const std::string& args, const std::string& base, const std::string& launcher = "") const {
    const Outcome o = launcher.empty() ? run(args + " " + base)
                                       : run_with_env("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1",
                                                      args + " " + base, launcher);
    EXPECT_EQ(o.status, 0) << o.out << o.err;
    return base + ".cpu.vtkhdf";
  }
  std::string copy(const std::string& from, const std::string& to) const {
    fs::copy_file(work() / from, work() / to, fs::copy_options::overwrite_existing);
    return to;
  }
  std::string path(const std::string& name) const { return (work() / name).string(); }
  Outcome compare(const std::string& a, const std::string& b) const { return run("-compare " + a + " " + b); }
};

// One line on stdout and nothing on stderr (identical, differ), or one line on stderr (refused).
void expect_one_line(const Outcome& o) {
  const std::string& text = o.status == 1 ? o.err : o.out;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
  EXPECT_TRUE((o.status == 1 ? o.out : o.err).empty()) << o.out << o.err;
}

// The snapshots' plane checksums rewritten as [slots][3][nx] (awave writes one or two fields): a damaged
// shape that -compare must refuse before it indexes the arrays.
void three_checksum_fields(const std::string& path) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t old_ds = H5Dopen2(file, "/awave_integrity/planes", H5P_DEFAULT);
  const hid_t old_space = H5Dget_space(old_ds);
  hsize_t d[3] = {};
  H5Sget_simple_extent_dims(old_space, d, nullptr);
  H5Sclose(old_space);
  H5Dclose(old_ds);
  H5Ldelete(file, "/awave_integrity/planes", H5P_DEFAULT);
  const hsize_t dims[3] = {d[0], 3, d[2]};
  const hid_t space = H5Screate_simple(3, dims, nullptr);
  const hid_t ds =
      H5Dcreate2(file, "/awave_integrity/planes", H5T_STD_U32LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const std::vector<std::uint32_t> zeros(dims[0] * dims[1] * dims[2], 0);
  const bool ok = H5Dwrite(ds, H5T_NATIVE_UINT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, zeros.data()) >= 0;
  H5Dclose(ds);
  H5Sclose(space);
  if (H5Fclose(file) < 0 || !ok) throw std::runtime_error("cannot rewrite the checksums of " + path);
}

}  // namespace

TEST_F(Compare, TwoRunsOfTheSameParametersAreIdenticalAndSaySoWithWhatWasCompared) {
  write(kRun, "a");
  write(kRun, "b");
  const Outcome o = compare("a.cpu.vtkhdf", "b.cpu.vtkhdf");
  EXPECT_EQ(o.status, 0) << o.out << o.err;
  EXPECT_EQ(o.out,
            "awave: a.cpu.vtkhdf and b.cpu.vtkhdf are identical: 3 snapshots (u and u_prev at steps 0, 4, 8), sos "
            "and damp; 8 fields of 3840 points (20x16x12); both verified, every x-plane checksum equal\n");
  expect_one_line(o);
}

TEST_F(Compare, OneFlippedBitIsNamedWithItsStepFieldPointAndValuesAndCountedOnce) {
  write(kRun, "a");
  copy("a.cpu.vtkhdf", "b.cpu.vtkhdf");
  // Snapshot 1 (step 4), u_prev, point (13, 7, 5): the lowest mantissa bit.
  const auto [before, after] =
      flip_bit_keeping_checksums<double>(path("b.cpu.vtkhdf"), "/VTKHDF/PointData/u_prev", 1, 1, 13, 7, 5, 0);
  ASSERT_NE(before, after);
  ASSERT_EQ(run("-verify b.cpu.vtkhdf").status, 0) << "the planted copy must still verify";
  const Outcome o = compare("a.cpu.vtkhdf", "b.cpu.vtkhdf");
  EXPECT_EQ(o.status, 2) << o.out << o.err;
  EXPECT_NE(o.out.find(fmt::format("DIFFER: first in snapshot at step 4, u_prev at point (i,j,k) = (13,7,5): {} in "
                                   "a.cpu.vtkhdf, {} in b.cpu.vtkhdf; 1 point differs in all",
                                   before, after)),
            std::string::npos)
      << o.out;
  expect_one_line(o);
  // The other way round: the same point, the values swapped.
  const Outcome back = compare("b.cpu.vtkhdf", "a.cpu.vtkhdf");
  EXPECT_EQ(back.status, 2);
  EXPECT_NE(back.out.find(fmt::format("(13,7,5): {} in b.cpu.vtkhdf, {} in a.cpu.vtkhdf", after, before)),
            std::string::npos)
      << back.out;
}

// sos is compared by each file's own checksums and values (issue 81: compared through one file's checksums
// on both sides, a changed sos read "identical"); a changed value with its checksum kept verifies and differs.
TEST_F(Compare, AChangedSpeedOfSoundIsADifference) {
  write(kRun, "a");
  copy("a.cpu.vtkhdf", "b.cpu.vtkhdf");
  const auto [before, after] =
      flip_bit_keeping_checksums<double>(path("b.cpu.vtkhdf"), "/VTKHDF/PointData/sos", 0, 0, 13, 7, 5, 3);
  ASSERT_NE(before, after);
  ASSERT_EQ(run("-verify b.cpu.vtkhdf").status, 0) << "the planted copy must still verify";
  const Outcome o = compare("a.cpu.vtkhdf", "b.cpu.vtkhdf");
  EXPECT_EQ(o.status, 2) << o.out << o.err;
  EXPECT_NE(o.out.find("DIFFER: first in the static arrays, sos at point (i,j,k) = (13,7,5)"), std::string::npos)
      << o.out;
}

TEST_F(Compare, TheFirstDifferenceIsTheEarliestStepAndEveryDifferenceIsCounted) {
  write(kRun, "a");
  copy("a.cpu.vtkhdf", "b.cpu.vtkhdf");
  flip_bit_keeping_checksums<double>(path("b.cpu.vtkhdf"), "/VTKHDF/PointData/u", 0, 2, 2, 3, 4, 63);     // step 8
  flip_bit_keeping_checksums<double>(path("b.cpu.vtkhdf"), "/VTKHDF/PointData/u", 0, 1, 19, 15, 11, 40);  // step 4
  flip_bit_keeping_checksums<double>(path("b.cpu.vtkhdf"), "/VTKHDF/PointData/u", 0, 1, 19, 0, 0, 1);     // same plane
  const Outcome o = compare("a.cpu.vtkhdf", "b.cpu.vtkhdf");
  EXPECT_EQ(o.status, 2) << o.out << o.err;
  EXPECT_NE(o.out.find("first in snapshot at step 4, u at point (i,j,k) = (19,0,0):"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("; 3 points differ in all"), std::string::npos) << o.out;
}

TEST_F(Compare, SinglePrecisionSnapshotsAndTheirCheckpointsAreComparedBitForBit) {
  write(kSingle, "a");
  write(kSingle, "b");
  const Outcome same = compare("a.cpu.vtkhdf", "b.cpu.vtkhdf");
  EXPECT_EQ(same.status, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("3 snapshots (u and u_prev at steps 0, 4, 8), 2 checkpoints (steps 4, 8), sos and damp; 12 "
                          "fields of 3840 points"),
            std::string::npos)
      << same.out;
  // A float32 snapshot value, then (in another copy) a checkpoint's double.
  copy("a.cpu.vtkhdf", "c.cpu.vtkhdf");
  const auto [before, after] =
      flip_bit_keeping_checksums<float>(path("c.cpu.vtkhdf"), "/VTKHDF/PointData/u", 0, 2, 10, 8, 6, 3);
  const Outcome single = compare("a.cpu.vtkhdf", "c.cpu.vtkhdf");
  EXPECT_EQ(single.status, 2) << single.out << single.err;
  EXPECT_NE(single.out.find(fmt::format("first in snapshot at step 8, u at point (i,j,k) = (10,8,6): {} in "
                                        "a.cpu.vtkhdf, {} in c.cpu.vtkhdf; 1 point differs",
                                        float(before), float(after))),
            std::string::npos)
      << single.out;
  copy("a.cpu.vtkhdf", "d.cpu.vtkhdf");
  flip_bit_keeping_checksums<double>(path("d.cpu.vtkhdf"), "/awave_checkpoints/u_prev", 1, 0, 4, 4, 4, 20);
  const Outcome checkpoint = compare("a.cpu.vtkhdf", "d.cpu.vtkhdf");
  EXPECT_EQ(checkpoint.status, 2) << checkpoint.out << checkpoint.err;
  EXPECT_NE(checkpoint.out.find("first in checkpoint at step 4, u_prev at point (i,j,k) = (4,4,4)"), std::string::npos)
      << checkpoint.out;
}

TEST_F(Compare, APartialFileAndARestartedRunAreComparedAtTheStepsBothHold) {
  write("-shape 20,16,12 -nsteps 12 -out_period 4 -impl cpu -quiet", "full");  // 0, 4, 8, 12
  // What a run killed after its second snapshot leaves: NSteps 2, not complete, .partial.
  copy("full.cpu.vtkhdf", "killed.cpu.vtkhdf.partial");
  awave_test::set_committed_snapshots(path("killed.cpu.vtkhdf.partial"), 2);
  const Outcome partial = compare("full.cpu.vtkhdf", "killed.cpu.vtkhdf.partial");
  EXPECT_EQ(partial.status, 0) << partial.out << partial.err;
  EXPECT_NE(partial.out.find("identical: 2 snapshots (u and u_prev at steps 0, 4)"), std::string::npos) << partial.out;
  EXPECT_NE(partial.out.find("; only full.cpu.vtkhdf holds a snapshot at steps 8, 12;"), std::string::npos)
      << partial.out;
  // Restarted from that file's step 4: its file holds 4, 8, 12, in slots 0, 1, 2.
  ASSERT_EQ(run("-restart killed.cpu.vtkhdf.partial -impl cpu -quiet next").status, 0);
  const Outcome restarted = compare("full.cpu.vtkhdf", "next.cpu.vtkhdf");
  EXPECT_EQ(restarted.status, 0) << restarted.out << restarted.err;
  EXPECT_NE(restarted.out.find("identical: 3 snapshots (u and u_prev at steps 4, 8, 12)"), std::string::npos)
      << restarted.out;
  // Its step 12 changed: named at the step, though its slot is not the other file's.
  flip_bit_keeping_checksums<double>(path("next.cpu.vtkhdf"), "/VTKHDF/PointData/u", 0, 2, 0, 0, 0, 52);
  const Outcome changed = compare("full.cpu.vtkhdf", "next.cpu.vtkhdf");
  EXPECT_EQ(changed.status, 2) << changed.out << changed.err;
  EXPECT_NE(changed.out.find("first in snapshot at step 12, u at point (i,j,k) = (0,0,0)"), std::string::npos)
      << changed.out;
}

TEST_F(Compare, ADamagedChecksumShapeIsRefusedBeforeItIsRead) {
  write(kRun, "a");
  const std::string three = copy("a.cpu.vtkhdf", "three.cpu.vtkhdf");
  three_checksum_fields(path(three));
  const Outcome o = compare(three, three);  // the two agree with each other: only verifying refuses them
  EXPECT_EQ(o.status, 1) << o.out << o.err;
  EXPECT_NE(o.err.find("cannot be compared: three.cpu.vtkhdf cannot be verified"), std::string::npos) << o.err;
  expect_one_line(o);
}

TEST_F(Compare, FilesThatCannotBeComparedAreRefusedInOneLineSayingWhy) {
  write(kRun, "a");
  write("-shape 21,16,12 -nsteps 8 -out_period 4 -impl cpu -quiet", "wide");
  write("-shape 20,16,12 -nsteps 8 -out_period 4 -impl cpu -quiet -dt 0.0015", "slow");
  write("-shape 20,16,12 -nsteps 8 -out_period 4 -impl cpu -quiet -dx 12", "coarse");
  write(kSingle, "single");
  write("-shape 20,16,12 -nsteps 8 -out_period 4 -impl cpu -quiet -snapshot_fields u", "uonly");
  write("-shape 20,16,12 -nsteps 3 -out_period 3 -impl cpu -quiet", "short");  // 0, 3
  // Restarted from step 3: steps 3 and 6, none of which the first file holds.
  ASSERT_EQ(run("-restart short.cpu.vtkhdf -nsteps 3 -impl cpu -quiet other_steps").status, 0);
  std::ofstream(work() / "notes.txt") << "not an awave file\n";
  const std::string damaged = copy("a.cpu.vtkhdf", "damaged.cpu.vtkhdf");
  awave_test::damage_slot(path(damaged), "u", 1, 100, 1);  // the stored checksums stay as written
  const std::pair<std::string, std::string> cases[] = {
      {"wide.cpu.vtkhdf", "their grids differ (20x16x12 in a.cpu.vtkhdf, 21x16x12 in wide.cpu.vtkhdf)"},
      {"slow.cpu.vtkhdf", "their dt differ (0.002 in a.cpu.vtkhdf, 0.0015 in slow.cpu.vtkhdf)"},
      {"coarse.cpu.vtkhdf", "their dx differ (10 in a.cpu.vtkhdf, 12 in coarse.cpu.vtkhdf)"},
      {"single.cpu.vtkhdf", "their snapshot precisions differ (float64 in a.cpu.vtkhdf, float32 in single"},
      {"uonly.cpu.vtkhdf", "their snapshot fields differ (u and u_prev in a.cpu.vtkhdf, u in uonly"},
      {"other_steps.cpu.vtkhdf", "they hold no snapshot of the same step"},
      {"notes.txt", "notes.txt cannot be read as an awave file: HDF5: "},
      {"missing.vtkhdf", "missing.vtkhdf cannot be read as an awave file: it does not exist"},
      {damaged, "damaged.cpu.vtkhdf: snapshot 1 of 3 is DAMAGED: u x-plane"},
  };
  for (const auto& [other, why] : cases) {
    const Outcome o = compare("a.cpu.vtkhdf", other);
    EXPECT_EQ(o.status, 1) << other << ": " << o.out << o.err;
    EXPECT_EQ(o.err.rfind("awave: error: a.cpu.vtkhdf and " + other + " cannot be compared: ", 0), 0u) << o.err;
    EXPECT_NE(o.err.find(why), std::string::npos) << o.err;
    expect_one_line(o);
  }
  // Damage in the first file is found as well.
  const Outcome first = compare(damaged, "a.cpu.vtkhdf");
  EXPECT_EQ(first.status, 1);
  EXPECT_NE(first.err.find("DAMAGED"), std::string::npos) << first.err;
}

TEST_F(Compare, BadCommandLinesAreRefusedInOneLine) {
  for (const char* args : {"-compare a.vtkhdf", "-compare", "-compare a b c", "-compare a b -verify a"}) {
    const Outcome o = run(args);
    EXPECT_EQ(o.status, 1) << args << ": " << o.out << o.err;
    EXPECT_EQ(o.err.rfind("awave: error: ", 0), 0u) << o.err;
    EXPECT_NE(o.err.find("; try 'awave -h'"), std::string::npos) << o.err;
    expect_one_line(o);
  }
  const Outcome help = run("-h");
  EXPECT_NE(help.out.find("-compare A B"), std::string::npos);
}

#ifdef AWAVE_MPIRUN
// The files of 3 processes equal one process's, decided by their stored checksums (per global
// x-plane: the same whatever process wrote the plane), single precision with checkpoints.
TEST_F(Compare, ARunOfThreeProcessesIsIdenticalToOneProcesss) {
  write(kSingle, "np1");
  write(kSingle, "np3", AWAVE_MPIRUN " -np 3 --oversubscribe");
  const Outcome o = compare("np1.cpu.vtkhdf", "np3.cpu.vtkhdf");
  EXPECT_EQ(o.status, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("identical: 3 snapshots (u and u_prev at steps 0, 4, 8), 2 checkpoints"), std::string::npos)
      << o.out;
  // And a bit changed in the 3-process file's second slab (planes 7-13 of 20) is found.
  flip_bit_keeping_checksums<float>(path("np3.cpu.vtkhdf"), "/VTKHDF/PointData/u", 0, 1, 9, 2, 3, 0);
  const Outcome changed = compare("np1.cpu.vtkhdf", "np3.cpu.vtkhdf");
  EXPECT_EQ(changed.status, 2) << changed.out << changed.err;
  EXPECT_NE(changed.out.find("first in snapshot at step 4, u at point (i,j,k) = (9,2,3)"), std::string::npos)
      << changed.out;
}
#endif
