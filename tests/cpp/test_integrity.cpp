// Snapshots that prove their integrity (io/integrity.hpp), with the executable: files damaged
// the way disks and copies damage them (raw bytes of u and u_prev, a step entry, a parameter,
// random runs of bytes anywhere) are named by -verify, and a restart either continues from the
// newest intact snapshot, saying so in one line, or refuses in one line: never exit 0 with a
// different field.
#include "awave_process.hpp"
#include "core/wave_problem.hpp"
#include "damage.hpp"
#include "io/integrity.hpp"
#include "io/vtkhdf.hpp"

#include <fmt/format.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <regex>

namespace fs = std::filesystem;
using awave_test::Outcome;

namespace {

// A complete run of 23 steps, snapshots at 0, 5, 10, 15, 20, 23 (slots 0..5).
constexpr const char* kRun = "-shape 20,16,12 -nsteps 23 -out_period 5 -impl cpu run";
constexpr std::int64_t kLast = 5;

std::vector<double> last_u(const fs::path& file) {
  const awave::VtkHdfContents c = awave::read_vtkhdf_contents(file.string());
  return awave::read_vtkhdf_array(file.string(), "u", c.offsets.at("u").at(std::size_t(c.nsteps - 1)));
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

class Integrity : public awave_test::AwaveProcessTest {
 protected:
  void SetUp() override {
    AwaveProcessTest::SetUp();
    const Outcome o = run(kRun);
    ASSERT_EQ(o.status, 0) << o.out << o.err;
  }
  fs::path original() const { return work() / "run.cpu.vtkhdf"; }
  // A copy of the run's file under `name`, to damage.
  std::string copy(const std::string& name) const {
    const fs::path p = work() / name;
    fs::copy_file(original(), p, fs::copy_options::overwrite_existing);
    return p.string();
  }
};

}  // namespace

TEST_F(Integrity, AnUndamagedFileVerifiesAndRestartsWithoutAWord) {
  const Outcome v = run("-verify run.cpu.vtkhdf");
  EXPECT_EQ(v.status, 0) << v.err;
  EXPECT_NE(v.out.find("6 snapshots, every checksum verifies"), std::string::npos) << v.out;
  const Outcome r = run("-restart run.cpu.vtkhdf -impl cpu -nsteps 2 -quiet next");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

TEST_F(Integrity, VerifyNamesTheFirstDamagedSnapshot) {
  struct Case {
    const char* what;
    std::function<void(const std::string&)> damage;
    const char* expected;
  };
  const std::vector<Case> cases = {
      {"u, last", [](const std::string& f) { awave_test::damage_slot(f, "u", kLast, 800, 16); },
       "snapshot 5 of 6 is DAMAGED: u x-plane"},
      {"u_prev, last", [](const std::string& f) { awave_test::damage_slot(f, "u_prev", kLast, 8, 1); },
       "snapshot 5 of 6 is DAMAGED: u_prev x-plane"},
      {"u, middle", [](const std::string& f) { awave_test::damage_slot(f, "u", 2, 4000, 4); },
       "snapshot 2 of 6 is DAMAGED: u x-plane"},
      {"time value", [](const std::string& f) { awave_test::set_steps_entry(f, "Values", kLast, 24); },
       "snapshot 5 of 6 is DAMAGED: its record (time 24"},
      {"slot offset", [](const std::string& f) { awave_test::set_steps_entry(f, "PointDataOffsets/u", 3, 2); },
       "snapshot 3 of 6 is DAMAGED: its record"},
      {"parameter", [](const std::string& f) { awave_test::set_dt(f, 0.0021); }, "snapshot 0 of 6 is DAMAGED"},
  };
  for (const Case& c : cases) {
    const std::string f = copy("damaged.vtkhdf");
    c.damage(f);
    const Outcome v = run("-verify damaged.vtkhdf");
    EXPECT_EQ(v.status, 1) << c.what;
    EXPECT_NE(v.err.find(c.expected), std::string::npos) << c.what << ": " << v.err;
    EXPECT_EQ(std::count(v.err.begin(), v.err.end(), '\n'), 1) << c.what << ": one line: " << v.err;
  }
}

// The fixture's grid is 20 x 16 x 12: x-plane 19 is the last, the one a loop bound one short
// would never compare. One value of it damaged in u (raw bytes: element i = 19 of the chunk's
// first row), in sos and in damp (the static arrays, checked by -verify alone): each is named.
TEST_F(Integrity, VerifyNamesDamageInTheLastXPlaneOfEveryArray) {
  constexpr int kLastPlane = 19;
  struct Case {
    const char* what;
    std::function<void(const std::string&)> damage;
    const char* expected;
  };
  const std::vector<Case> cases = {
      {"u", [](const std::string& f) { awave_test::damage_slot(f, "u", kLast, kLastPlane * 8, 1); },
       "snapshot 5 of 6 is DAMAGED: u x-plane 19 does not match its checksum"},
      {"sos", [](const std::string& f) { awave_test::add_to_static_value(f, "sos", kLastPlane, 3, 7, 1.0); },
       "DAMAGED: sos x-plane 19 does not match its checksum"},
      {"damp", [](const std::string& f) { awave_test::add_to_static_value(f, "damp", kLastPlane, 0, 0, 1e-3); },
       "DAMAGED: damp x-plane 19 does not match its checksum"},
      {"sos, first plane", [](const std::string& f) { awave_test::add_to_static_value(f, "sos", 0, 15, 11, -1.0); },
       "DAMAGED: sos x-plane 0 does not match its checksum"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    copy("damaged.vtkhdf");
    c.damage((work() / "damaged.vtkhdf").string());
    const Outcome v = run("-verify damaged.vtkhdf");
    EXPECT_EQ(v.status, 1) << v.out;
    EXPECT_NE(v.err.find(c.expected), std::string::npos) << v.err;
  }
}

// A restart takes sos and damp from /wave_params (which every record's checksum covers), never
// from the file's static arrays: damage there (named by -verify, above) changes nothing for it.
TEST_F(Integrity, ARestartIgnoresDamagedStaticArraysAndComputesTheSameField) {
  ASSERT_EQ(run("-shape 20,16,12 -nsteps 25 -out_period 5 -impl cpu -quiet ref").status, 0);
  const std::vector<double> expected = last_u(work() / "ref.cpu.vtkhdf");  // step 25
  const std::string f = copy("damaged.vtkhdf");
  awave_test::add_to_static_value(f, "sos", 10, 8, 6, 500.0);
  awave_test::add_to_static_value(f, "damp", 1, 1, 6, 0.5);
  const Outcome r = run("-restart damaged.vtkhdf -impl cpu -quiet -nsteps 2 next");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(same_bits(last_u(work() / "next.cpu.vtkhdf"), expected)) << "the field differs";
}

// A file of single-precision snapshots of u with checkpoints apart (io/output_layout.hpp): -verify
// names a damaged checkpoint and a damaged snapshot (checksummed as the floats it stores), and a
// restart skips a damaged last checkpoint, saying so, to the same field, while damage to the
// snapshots, which a restart does not read, changes nothing for it.
TEST_F(Integrity, ADamagedCheckpointIsNamedAndARestartContinuesFromTheCheckpointBefore) {
  // The fixture's run in single precision: snapshots 0, 5, 10, 15, 20, 23; checkpoints 10, 20, 23.
  const Outcome o =
      run("-shape 20,16,12 -nsteps 23 -out_period 5 -impl cpu -snapshot_precision single -snapshot_fields u "
          "-checkpoint_period 10 single");
  ASSERT_EQ(o.status, 0) << o.err;
  const Outcome v = run("-verify single.cpu.vtkhdf");
  EXPECT_EQ(v.status, 0) << v.err;
  EXPECT_NE(v.out.find("6 snapshots and 3 checkpoints, every checksum verifies"), std::string::npos) << v.out;
  const std::vector<double> expected = last_u(original());  // the double run's step 23
  auto damaged_copy = [this](const std::string& array, std::int64_t slot) {
    const fs::path f = work() / "damaged.vtkhdf";
    fs::copy_file(work() / "single.cpu.vtkhdf", f, fs::copy_options::overwrite_existing);
    awave_test::damage_slot(f.string(), array, slot, 400, 4);
    fs::remove(work() / "next.cpu.vtkhdf");
  };

  damaged_copy("/awave_checkpoints/u", 2);
  const Outcome vc = run("-verify damaged.vtkhdf");
  EXPECT_EQ(vc.status, 1);
  EXPECT_NE(vc.err.find("checkpoint 2 of 3 is DAMAGED: u x-plane"), std::string::npos) << vc.err;
  const Outcome r = run("-restart damaged.vtkhdf -impl cpu -quiet next");  // to the file's end step, 23
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("checkpoint 2 (step 23) is damaged"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("continuing from checkpoint 1 (step 20), which loses 3 steps"), std::string::npos) << r.err;
  EXPECT_TRUE(same_bits(last_u(work() / "next.cpu.vtkhdf"), expected)) << "the field differs";
  const Outcome strict = run("-restart damaged.vtkhdf -restart_strict -impl cpu strict");
  EXPECT_EQ(strict.status, 1);
  EXPECT_NE(strict.err.find("(refused: -restart_strict)"), std::string::npos) << strict.err;

  damaged_copy("u", 4);  // a single-precision snapshot
  const Outcome vs = run("-verify damaged.vtkhdf");
  EXPECT_EQ(vs.status, 1);
  EXPECT_NE(vs.err.find("snapshot 4 of 6 is DAMAGED: u x-plane"), std::string::npos) << vs.err;
  const Outcome rs = run("-restart damaged.vtkhdf -restart_strict -impl cpu -quiet -nsteps 2 next");
  ASSERT_EQ(rs.status, 0) << rs.err;
  EXPECT_EQ(rs.err, "") << "a restart reads only the checkpoints";
  EXPECT_NE(rs.out.find("restarting from damaged.vtkhdf at step 23 (its checkpoint slot 2)"), std::string::npos)
      << rs.out;
}

TEST_F(Integrity, ARestartSkipsADamagedLastSnapshotSaysSoAndComputesTheSameField) {
  const std::vector<double> expected = last_u(original());  // step 23
  for (const char* array : {"u", "u_prev", "values", "values_earlier"}) {
    SCOPED_TRACE(array);
    const std::string f = copy("damaged.vtkhdf");
    if (std::string(array) == "values")
      awave_test::set_steps_entry(f, "Values", kLast, 22);
    else if (std::string(array) == "values_earlier")  // (a time before the intact one's: no count of steps)
      awave_test::set_steps_entry(f, "Values", kLast, 12);
    else
      awave_test::damage_slot(f, array, kLast, 800, 16);
    fs::remove(work() / "next.cpu.vtkhdf");
    const Outcome r = run("-restart damaged.vtkhdf -impl cpu -quiet next");  // to the file's end step, 23
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("awave: warning: restart file 'damaged.vtkhdf': snapshot 5 (step "), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("continuing from snapshot 4 (step 20), which loses"), std::string::npos) << r.err;
    if (std::string(array) == "values_earlier")
      EXPECT_NE(r.err.find("which loses 1 later snapshot (the newest one's time is damaged)"), std::string::npos)
          << r.err;
    EXPECT_EQ(r.err.find("loses -"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
    EXPECT_TRUE(same_bits(last_u(work() / "next.cpu.vtkhdf"), expected)) << "the field differs";
    // -restart_strict refuses instead, in one line, writing nothing.
    fs::remove(work() / "strict.cpu.vtkhdf");
    const Outcome s = run("-restart damaged.vtkhdf -restart_strict -impl cpu strict");
    EXPECT_EQ(s.status, 1);
    EXPECT_NE(s.err.find("(refused: -restart_strict)"), std::string::npos) << s.err;
    EXPECT_FALSE(fs::exists(work() / "strict.cpu.vtkhdf"));
    EXPECT_FALSE(fs::exists(work() / "strict.cpu.vtkhdf.partial"));
  }
}

// What a kill inside a snapshot's commit flush can leave (VtkHdfWriter::append): NSteps and
// the Steps arrays one apart, in either direction, each array with its own length. Planted on
// copies of a complete run, marked incomplete as a killed run's file is: -verify and -restart
// take the snapshots all agree on, and the restart ends with an uninterrupted run's field.
TEST_F(Integrity, AKillInsideACommitLeavesTheSnapshotsAllAgreeOn) {
  ASSERT_EQ(run("-shape 20,16,12 -nsteps 25 -out_period 5 -impl cpu -quiet ref").status, 0);
  const std::vector<double> expected = last_u(work() / "ref.cpu.vtkhdf");  // step 25
  struct Case {
    long nsteps;
    const char* array;
    hsize_t length;
    int agreed;  // of the snapshots at 0, 5, 10, 15, 20, 23
    int steps_to_25;
  } cases[] = {{7, "Values", 7, 6, 2},                   // NSteps and Values ahead
               {6, "PointDataOffsets/u_prev", 5, 5, 5},  // one offsets array behind
               {5, "PointDataOffsets/u", 6, 5, 5}};      // NSteps behind
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.array) + " " + std::to_string(c.length) + ", NSteps " + std::to_string(c.nsteps));
    const std::string f = copy("killed.vtkhdf");
    awave_test::set_interrupted_commit(f, c.nsteps, c.array, c.length);
    ASSERT_EQ(awave::read_vtkhdf_contents(f).committed_snapshots(), c.agreed);
    // The counts no longer agree with the checksummed ones (issue 81): -verify names it, the restart says where it
    // goes back to, and why.
    const Outcome v = run("-verify killed.vtkhdf");
    EXPECT_EQ(v.status, 1) << v.err;
    EXPECT_NE(v.err.find("DAMAGED: its counts disagree with the checksummed ones"), std::string::npos) << v.err;
    fs::remove(work() / "next.cpu.vtkhdf");
    const Outcome r = run("-restart killed.vtkhdf -impl cpu -quiet -nsteps " + std::to_string(c.steps_to_25) + " next");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("its counts disagree with the checksummed ones"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("continuing from the newest snapshot they all count"), std::string::npos) << r.err;
    EXPECT_TRUE(same_bits(last_u(work() / "next.cpu.vtkhdf"), expected)) << "the field differs";
  }
}

// Issue 81, "Why" 4: swapping slots 3 and 4 of u, u_prev and their plane checksums left every checksum true to its
// planes, and a restart continued "from step 20" with step 15's fields. Bound to their slot (scheme 2), they no
// longer verify; nor do u and u_prev swapped within a slot.
TEST_F(Integrity, PlanesMovedWithTheirChecksumsToAnotherSlotOrFieldAreRefused) {
  const std::string f = copy("swapped.vtkhdf");
  for (const char* dataset : {"/VTKHDF/PointData/u", "/VTKHDF/PointData/u_prev", "/awave_integrity/planes"})
    awave_test::swap_slots(f, dataset, 3, 4);
  const Outcome v = run("-verify swapped.vtkhdf");
  EXPECT_EQ(v.status, 1) << v.out;
  EXPECT_NE(v.err.find("snapshot 3 of 6 is DAMAGED: u x-plane 0 does not match its checksum (step 15)"),
            std::string::npos)
      << v.err;
  // The records too: each then names the other slot.
  awave_test::swap_slots(f, "/awave_integrity/records", 3, 4);
  EXPECT_NE(run("-verify swapped.vtkhdf").err.find("snapshot 3 of 6 is DAMAGED: its record"), std::string::npos);
  // u and u_prev of one slot exchanged, with their checksums.
  const std::string g = copy("fields.vtkhdf");
  {
    const std::vector<double> u = awave::read_vtkhdf_array(g, "u", kLast), prev = awave::read_vtkhdf_array(g, "u_prev", kLast);
    ASSERT_FALSE(same_bits(u, prev));
  }
  awave_test::swap_fields(g, kLast);
  const Outcome w = run("-verify fields.vtkhdf");
  EXPECT_EQ(w.status, 1);
  EXPECT_NE(w.err.find("snapshot 5 of 6 is DAMAGED: u x-plane 0 does not match its checksum"), std::string::npos)
      << w.err;
  // A restart goes back past the moved slots, and says so.
  const Outcome r = run("-restart fields.vtkhdf -impl cpu -quiet -nsteps 3 next");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("snapshot 5 (step 23) is damaged"), std::string::npos) << r.err;
}

// Issue 81, "Why" 3: one bit of NSteps (6 -> 4), or NSteps -1, left "4 snapshots, every checksum verifies" and a
// restart that lost the newest without a word. The checksummed count sees it.
TEST_F(Integrity, ACountThatShrinksIsNamedAndTheRestartSaysWhy) {
  for (std::int64_t nsteps : {4, -1, 0}) {
    SCOPED_TRACE("NSteps " + std::to_string(nsteps));
    const std::string f = copy("count.vtkhdf");
    awave_test::set_nsteps(f, nsteps);
    const Outcome v = run("-verify count.vtkhdf");
    EXPECT_EQ(v.status, 1) << v.out;
    EXPECT_NE(v.err.find(fmt::format("DAMAGED: its counts disagree with the checksummed ones (6 snapshots, 0 "
                                     "checkpoints): NSteps {}",
                                     nsteps)),
              std::string::npos)
        << v.err;
    if (nsteps > 0) {
      fs::remove(work() / "next.cpu.vtkhdf");
      const Outcome r = run("-restart count.vtkhdf -impl cpu -quiet -nsteps 2 next");
      EXPECT_EQ(r.status, 0) << r.err;
      EXPECT_NE(r.err.find("NSteps 4: continuing from the newest snapshot they all count"), std::string::npos) << r.err;
    }
  }
  // The count's own checksum damaged: named as such.
  const std::string f = copy("count.vtkhdf");
  awave_test::set_committed_raw(f, {6, 0, 12345});
  EXPECT_NE(run("-verify count.vtkhdf").err.find("its checksummed record (/awave_integrity committed: counts, complete, "
                                                 "checkpoint period) does not match its checksum"),
            std::string::npos);
}

// Issue 81, "Why" 2: what a reader such as ParaView takes from the file and no checksum covered (VTKHDF Version,
// Type, Origin, Spacing, Direction, the static arrays' offsets; awave's complete) verified "intact". Each is now
// held to what the grid and parameters imply, or to the checksummed record: -verify names it, -compare refuses, and
// a restart (which reads none of them) says so.
TEST_F(Integrity, WhatAReaderTakesFromTheFileIsVerified) {
  struct Case {
    std::function<void(const std::string&)> damage;
    const char* named;
  };
  const std::vector<Case> cases = {
      {[](const std::string& f) { awave_test::set_attribute<std::int64_t>(f, "/VTKHDF", "Version", {2, 2}, H5T_NATIVE_INT64); },
       "VTKHDF Version reads 2.2"},
      {[](const std::string& f) { awave_test::set_attribute<double>(f, "/VTKHDF", "Origin", {0, 10, 0}, H5T_NATIVE_DOUBLE); },
       "VTKHDF Origin reads 0, 10, 0"},
      {[](const std::string& f) { awave_test::set_attribute<double>(f, "/VTKHDF", "Spacing", {10, 10, 20}, H5T_NATIVE_DOUBLE); },
       "VTKHDF Spacing reads 10, 10, 20"},
      {[](const std::string& f) {
         awave_test::set_attribute<double>(f, "/VTKHDF", "Direction", {0, 1, 0, 1, 0, 0, 0, 0, 1}, H5T_NATIVE_DOUBLE);
       },
       "VTKHDF Direction is not the identity"},
      {[](const std::string& f) { awave_test::set_steps_entry(f, "PointDataOffsets/sos", 2, 1); },
       "PointDataOffsets/sos of snapshot 2 reads 1"},
      {[](const std::string& f) { awave_test::set_int_attribute(f, "/wave_params", "complete", 0); },
       "/wave_params complete reads 0, where its checksummed record says 1"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.named);
    const std::string f = copy("reader.vtkhdf");
    c.damage(f);
    const Outcome v = run("-verify reader.vtkhdf");
    EXPECT_EQ(v.status, 1) << v.out;
    EXPECT_NE(v.err.find(std::string("DAMAGED: ") + c.named), std::string::npos) << v.err;
    const Outcome cmp = run("-compare run.cpu.vtkhdf reader.vtkhdf");
    EXPECT_EQ(cmp.status, 1) << cmp.out;
    EXPECT_NE(cmp.err.find(c.named), std::string::npos) << cmp.err;
    fs::remove(work() / "next.cpu.vtkhdf");
    // (refused where the restart itself needs the value: Spacing is dx)
    const Outcome r = run("-restart reader.vtkhdf -impl cpu -quiet -nsteps 2 next");
    const std::string what = std::string(c.named).substr(0, std::string(c.named).find(" reads"));
    EXPECT_TRUE(r.err.find(c.named) != std::string::npos ||
                (r.status == 1 && r.err.find(what.substr(what.rfind(' ') + 1)) != std::string::npos))
        << r.status << r.err;
  }
}

// A scheme-2 file read as scheme 1 (its "checksums" attribute damaged) verifies nothing: its records are of the
// other formula.
TEST_F(Integrity, AFileReadUnderTheOtherChecksumSchemeVerifiesNothing) {
  for (int scheme : {1, 3}) {
    const std::string f = copy("scheme.vtkhdf");
    awave_test::set_int_attribute(f, "/wave_params", "checksums", scheme);
    const Outcome v = run("-verify scheme.vtkhdf");
    EXPECT_EQ(v.status, 1) << v.out;
    EXPECT_NE(v.err.find(scheme == 1 ? "is DAMAGED: its record" : "its checksum scheme 3 is not one this awave knows"),
              std::string::npos)
        << v.err;
  }
}

// Issue 81, "Why" 5: arrays that each claim most of a sparse file passed "fits in the file" one by one, and their sum
// was read (1.65 GB resident for a 0.7 MB file). Five Steps arrays of 0.6 of the file each: refused at the second.
TEST_F(Integrity, ArraysThatTogetherClaimMoreThanTheFileAreRefused) {
  const std::string f = copy("claims.vtkhdf");
  const hsize_t each = hsize_t(fs::file_size(f)) / 8 * 6 / 10;
  for (const char* array : {"Values", "PointDataOffsets/u", "PointDataOffsets/u_prev", "PointDataOffsets/sos",
                            "PointDataOffsets/damp"})
    awave_test::replace_with_unwritten_array(f, std::string("/VTKHDF/Steps/") + array, each);
  ASSERT_LE(fs::file_size(f), fs::file_size(original()) + 4096) << "the arrays take nothing on disk";
  for (const char* mode : {"-verify claims.vtkhdf", "-restart claims.vtkhdf -impl cpu -nsteps 2 next"}) {
    const Outcome o = run(mode);
    EXPECT_EQ(o.status, 1) << mode;
    EXPECT_NE(o.err.find("with the arrays read before it is more than the file's"), std::string::npos) << o.err;
  }
}

// The groups' links walked and held to what awave writes (tests/tools/structure_fuzz.py found a group index damaged where
// awave's reads did not pass verify, while h5py could not walk the file): an object added anywhere is named.
TEST_F(Integrity, AGroupHoldingWhatAwaveNeverWritesIsRefused) {
  for (const char* group : {"/wave_params", "/VTKHDF/PointData", "/"}) {
    SCOPED_TRACE(group);
    const std::string f = copy("extra.vtkhdf");
    const hid_t file = H5Fopen(f.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    const hid_t g = H5Gopen2(file, group, H5P_DEFAULT);
    H5Gclose(H5Gcreate2(g, "extra", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    H5Gclose(g);
    ASSERT_GE(H5Fclose(file), 0);
    const Outcome v = run("-verify extra.vtkhdf");
    EXPECT_EQ(v.status, 1);
    EXPECT_NE(v.err.find(fmt::format("{} holds link 'extra', which awave never writes there", group)),
              std::string::npos)
        << v.err;
  }
  // An attribute gone (a .partial's complete read as "not complete") or one added.
  const std::string f = copy("attributes.vtkhdf");
  {
    const hid_t file = H5Fopen(f.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    const hid_t g = H5Gopen2(file, "/wave_params", H5P_DEFAULT);
    H5Adelete(g, "complete");
    H5Gclose(g);
    ASSERT_GE(H5Fclose(file), 0);
  }
  EXPECT_NE(run("-verify attributes.vtkhdf").err.find("/wave_params lacks attribute 'complete'"), std::string::npos);
  awave_test::set_int_attribute(copy("attributes.vtkhdf"), "/wave_params", "complete", 1);
  {
    const hid_t file = H5Fopen(f.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    const hid_t g = H5Gopen2(file, "/VTKHDF", H5P_DEFAULT);
    const hid_t space = H5Screate(H5S_SCALAR);
    H5Aclose(H5Acreate2(g, "TimeValue", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT));
    H5Sclose(space);
    H5Gclose(g);
    ASSERT_GE(H5Fclose(file), 0);
  }
  EXPECT_NE(run("-verify attributes.vtkhdf").err.find("/VTKHDF holds attribute 'TimeValue', which awave never writes"),
            std::string::npos);
}

TEST_F(Integrity, AFileWithNoIntactSnapshotIsRefused) {
  const std::string f = copy("damaged.vtkhdf");
  awave_test::set_dt(f, 0.0021);  // a parameter every snapshot's record covers
  const Outcome r = run("-restart damaged.vtkhdf -impl cpu -nsteps 3 next");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("awave: error: restart file 'damaged.vtkhdf' holds no intact snapshot", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(work() / "next.cpu.vtkhdf.partial"));
}

TEST_F(Integrity, ADamagedMiddleSnapshotDoesNotStopARestartFromTheLast) {
  const std::string f = copy("damaged.vtkhdf");
  awave_test::damage_slot(f, "u", 2, 800, 16);
  const Outcome r = run("-restart damaged.vtkhdf -impl cpu -nsteps 2 -quiet next");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("at step 23"), std::string::npos) << r.out;
}

// Random damage anywhere in the file, as a flaky copy makes it: every restart either refuses in
// one line or ends with the undamaged run's field at the same step (deterministic seeds).
TEST_F(Integrity, RandomDamageNeverRestartsIntoADifferentField) {
  ASSERT_EQ(run("-shape 20,16,12 -nsteps 30 -out_period 5 -impl cpu ref").status, 0);
  const std::vector<double> at30 = last_u(work() / "ref.cpu.vtkhdf");
  int refused = 0, continued = 0, fell_back = 0;
  for (unsigned seed = 1; seed <= 60; ++seed) {
    std::mt19937_64 rng(seed);
    const std::string f = copy("damaged.vtkhdf");
    const std::string what = awave_test::random_damage(f, rng);
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + what);
    // Where the restart would start (its first line says), then a run to step 30 from there.
    fs::remove_all(work() / "probe");
    const Outcome probe = run("-restart damaged.vtkhdf -impl cpu -nsteps 1 -no_output -no_check probe");
    if (probe.status != 0) {
      EXPECT_EQ(probe.status, 1) << probe.err;
      EXPECT_EQ(std::count(probe.err.begin(), probe.err.end(), '\n'), 1) << probe.err;
      ++refused;
      continue;
    }
    std::smatch m;
    ASSERT_TRUE(std::regex_search(probe.out, m, std::regex("at step ([0-9]+)"))) << probe.out;
    const int start = std::stoi(m[1]);
    fell_back += start != 23;
    fs::remove(work() / "next.cpu.vtkhdf");
    const Outcome r = run("-restart damaged.vtkhdf -impl cpu -nsteps " + std::to_string(30 - start) + " next");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(same_bits(last_u(work() / "next.cpu.vtkhdf"), at30)) << "exit 0 with a different field";
    ++continued;
  }
  std::cout << refused << " refused, " << continued << " continued (" << fell_back << " from an earlier snapshot)\n";
  EXPECT_GT(refused + fell_back, 0) << "no seed damaged anything that matters: the suite tests nothing";
}

TEST_F(Integrity, AFileWrittenBeforeChecksumsRestartsWithOneLine) {
  // What such a file looks like: this one without its checksums and its marker.
  const std::string f = copy("old.vtkhdf");
  const hid_t file = H5Fopen(f.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  H5Ldelete(file, "/awave_integrity", H5P_DEFAULT);
  const hid_t group = H5Gopen2(file, "/wave_params", H5P_DEFAULT);
  H5Adelete(group, "checksums");
  H5Gclose(group);
  H5Fclose(file);
  const Outcome r = run("-restart old.vtkhdf -impl cpu -nsteps 2 -quiet next");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("was written before awave kept checksums: its snapshots cannot be verified"), std::string::npos)
      << r.err;
  const Outcome v = run("-verify old.vtkhdf");
  EXPECT_EQ(v.status, 1);
  EXPECT_NE(v.err.find("cannot be verified"), std::string::npos) << v.err;
  // The checksums lost to damage (the marker stays): refused, not taken for an old file.
  const std::string g = copy("lost.vtkhdf");
  const hid_t lost = H5Fopen(g.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  H5Ldelete(lost, "/awave_integrity", H5P_DEFAULT);
  H5Fclose(lost);
  const Outcome l = run("-restart lost.vtkhdf -impl cpu -nsteps 2 next2");
  EXPECT_EQ(l.status, 1) << l.err;
  EXPECT_NE(l.err.find("/awave_integrity is missing"), std::string::npos) << l.err;
}

// awave -digest (io/integrity.hpp, field_digest): any one value's bits, the first and the last
// interior point included, change the digest; ghost points do not count.
TEST(FieldDigest, EveryInteriorBitCounts) {
  awave::WaveParams p;
  p.shape = {9, 8, 5};
  const awave::WaveProblem problem(p);
  const awave::PaddedGeometry g = problem.geometry();
  std::vector<double> u(g.size()), prev(g.size());
  problem.fill_start_state(u.data(), prev.data());
  const std::uint32_t digest = awave::field_digest(u.data(), g);
  for (const std::size_t at : {g.index(1, 1, 1), g.index(g.nx, g.ny, g.nz), g.index(5, 4, 3)}) {
    std::vector<double> damaged = u;
    damaged[at] = std::nextafter(damaged[at], 1e300);
    EXPECT_NE(awave::field_digest(damaged.data(), g), digest) << "point " << at;
  }
  std::vector<double> ghost = u;
  ghost[g.index(0, 0, 0)] += 1.0;
  EXPECT_EQ(awave::field_digest(ghost.data(), g), digest) << "a ghost point is not the field";
}

// Zeroed Steps arrays (the kind of damage a run of zero bytes leaves) make every snapshot slot 0 at
// time 0, whose record matches its checksum: the time counters that do not increase are what
// shows it. -verify names the first; a restart goes back to snapshot 0, saying so (it continued
// from step 0 without a word before).
TEST_F(Integrity, ZeroedStepsArraysAreNamedAndTheRestartSaysWhereItGoesBack) {
  const std::string f = copy("damaged.vtkhdf");
  for (hsize_t n = 0; n <= hsize_t(kLast); ++n)
    for (const char* array : {"Values", "PointDataOffsets/u", "PointDataOffsets/u_prev"})
      awave_test::set_steps_entry(f, array, n, 0);
  const Outcome v = run("-verify damaged.vtkhdf");
  EXPECT_EQ(v.status, 1);
  EXPECT_NE(v.err.find("snapshot 1 of 6 is DAMAGED: its time counter 0 does not follow the one before (0)"),
            std::string::npos)
      << v.err;
  const Outcome r = run("-restart damaged.vtkhdf -impl cpu -nsteps 1 -no_output -no_check -quiet probe");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.rfind("awave: warning: restart file 'damaged.vtkhdf': snapshot 5 (step 0) is damaged (its time "
                        "counter 0 does not follow the one before (0)); continuing from snapshot 0 (step 0)",
                        0),
            0u)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// The newest entry made a copy of an earlier valid one (its time and slots): its record matches, but its time
// does not follow the nearest earlier matching entry's; held to the first matching entry instead (issue 81:
// a weakening no test saw) it verified, and a restart went back to that step without a word.
TEST_F(Integrity, AnEntryRepeatingAnEarlierOneIsDamaged) {
  const std::string f = copy("damaged.vtkhdf");
  std::vector<std::int64_t> times(kLast + 1);
  {
    const hid_t file = H5Fopen(f.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t ds = H5Dopen2(file, "/VTKHDF/Steps/Values", H5P_DEFAULT);
    ASSERT_GE(H5Dread(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, times.data()), 0);
    H5Dclose(ds);
    H5Fclose(file);
  }
  awave_test::set_steps_entry(f, "Values", kLast, times[2]);
  awave_test::set_steps_entry(f, "PointDataOffsets/u", kLast, 2);
  awave_test::set_steps_entry(f, "PointDataOffsets/u_prev", kLast, 2);
  const Outcome v = run("-verify damaged.vtkhdf");
  EXPECT_EQ(v.status, 1) << v.out;
  EXPECT_NE(v.err.find(fmt::format("snapshot 5 of 6 is DAMAGED: its time counter {} does not follow the one before "
                                   "({})",
                                   times[2], times[kLast - 1])),
            std::string::npos)
      << v.err;
  const Outcome r = run("-restart damaged.vtkhdf -impl cpu -nsteps 1 -no_output -no_check -quiet probe");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find(fmt::format("continuing from snapshot 4 (step {})", times[kLast - 1])), std::string::npos)
      << r.err;
}

TEST_F(Integrity, OneDamagedTimeCounterCostsItsOwnSnapshotAlone) {
  // The time of the entry before the newest damaged: its record no longer matches, and the newest is held
  // to the entry before that, so it still verifies and the restart continues from it.
  const std::string f = copy("damaged.vtkhdf");
  awave_test::set_steps_entry(f, "Values", kLast - 1, 99);
  const Outcome v = run("-verify damaged.vtkhdf");
  EXPECT_EQ(v.status, 1);
  EXPECT_NE(v.err.find("snapshot 4 of 6 is DAMAGED: its record (time 99"), std::string::npos) << v.err;
  EXPECT_EQ(v.err.find("does not follow"), std::string::npos) << "no snapshot after it is blamed: " << v.err;
  const Outcome r = run("-restart damaged.vtkhdf -impl cpu -nsteps 1 -no_output -no_check -quiet probe");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("is damaged"), std::string::npos) << "the newest snapshot is intact: " << r.err;
}
