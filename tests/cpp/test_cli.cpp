// Parsing and validation of the command line (no process, no files).
#include "app/cli.hpp"

#include <gtest/gtest.h>

#include <initializer_list>

using namespace awave;

namespace {
ParsedCommandLine parse(std::initializer_list<const char*> args) {
  std::vector<const char*> argv{"awave"};
  argv.insert(argv.end(), args.begin(), args.end());
  return parse_command_line(int(argv.size()), argv.data());
}
}  // namespace

TEST(CommandLine, Defaults) {
  const ParsedCommandLine r = parse({});
  ASSERT_FALSE(r.error) << *r.error;
  const WaveParams& p = r.options.params;
  EXPECT_EQ(p.shape, (std::array<int, 3>{32, 32, 32}));
  EXPECT_EQ(p.dx, 10.0);
  EXPECT_EQ(p.dt, 0.002);
  EXPECT_EQ(p.nsteps, 100);
  EXPECT_EQ(p.out_period, 10);
  EXPECT_EQ(r.options.output_base, "test");
  EXPECT_TRUE(r.options.write_output);
  EXPECT_TRUE(r.options.check);
  EXPECT_FALSE(r.options.digest);
}

TEST(CommandLine, OriginalSingleDashInterface) {
  const ParsedCommandLine r =
      parse({"-shape", "40,24,64", "-dx", "5", "-dt", "0.001", "-nsteps", "50", "-out_period", "7", "run1"});
  ASSERT_FALSE(r.error) << *r.error;
  EXPECT_EQ(r.options.params.shape, (std::array<int, 3>{40, 24, 64}));
  EXPECT_EQ(r.options.params.dx, 5.0);
  EXPECT_EQ(r.options.params.dt, 0.001);
  EXPECT_EQ(r.options.params.nsteps, 50);
  EXPECT_EQ(r.options.params.out_period, 7);
  EXPECT_EQ(r.options.output_base, "run1");
}

TEST(CommandLine, DoubleDashAndExtras) {
  const ParsedCommandLine r = parse({"--nsteps", "3", "-impl", "kokkos-serial,cpu", "-json", "r.json", "-no_output",
                                     "-no_check", "-digest", "--kokkos-threads=2"});
  ASSERT_FALSE(r.error) << *r.error;
  EXPECT_TRUE(r.options.digest);
  EXPECT_EQ(r.options.params.nsteps, 3);
  EXPECT_EQ(r.options.impls, (std::vector<std::string>{"kokkos-serial", "cpu"}));
  EXPECT_EQ(r.options.json_path, "r.json");
  EXPECT_FALSE(r.options.write_output);
  EXPECT_FALSE(r.options.check);
}

// Snapshots and checkpoints (io/output_layout.hpp): the default is the spec's file (every
// snapshot a checkpoint); checkpoints apart fall every checkpoint_period steps after the start and
// at the end, and the bytes add up.
TEST(CommandLine, OutputLayoutOptions) {
  const ParsedCommandLine defaults = parse({"-nsteps", "200", "-out_period", "10"});
  ASSERT_FALSE(defaults.error) << *defaults.error;
  const OutputLayout& d = defaults.options.output;
  EXPECT_TRUE(d.snapshots_are_checkpoints());
  EXPECT_EQ(d.checkpoint_period, 10);
  EXPECT_EQ(d.checkpoints(defaults.options.params), 0);
  const ParsedCommandLine r =
      parse({"-shape", "512,512,512", "-nsteps", "205", "-out_period", "10", "-snapshot_precision", "single",
             "-snapshot_fields", "u", "-checkpoint_period", "100"});
  ASSERT_FALSE(r.error) << *r.error;
  const OutputLayout& o = r.options.output;
  const WaveParams& p = r.options.params;
  EXPECT_FALSE(o.snapshots_are_checkpoints());
  EXPECT_FALSE(o.is_checkpoint(p, 0)) << "the start can be run again";
  EXPECT_TRUE(o.is_checkpoint(p, 100));
  EXPECT_FALSE(o.is_checkpoint(p, 110));
  EXPECT_TRUE(o.is_checkpoint(p, 205)) << "the end";
  EXPECT_EQ(o.checkpoints(p), 3);  // 100, 200, 205
  const double points = 512.0 * 512 * 512;
  EXPECT_EQ(o.snapshot_bytes(p), points * 4);  // 0.54 GB: the target
  EXPECT_EQ(o.checkpoint_bytes(p), points * 16);
  EXPECT_EQ(o.run_bytes(p), 22 * points * 4 + 3 * points * 16 + points * 16);  // 22 snapshots, sos and damp
  EXPECT_NE(o.describe(p).find("checkpoints (u, u_prev, double) every 100 steps"), std::string::npos) << o.describe(p);
}

TEST(CommandLine, HaloPathAndTimeOut) {
  const ParsedCommandLine defaults = parse({});
  ASSERT_FALSE(defaults.error) << *defaults.error;
  EXPECT_EQ(defaults.options.halo.path, HaloPath::fastest);
  EXPECT_EQ(defaults.options.halo.timeout_seconds, 120);
  for (const auto& [word, path] : {std::pair{"mpi", HaloPath::mpi}, std::pair{"nccl", HaloPath::nccl}}) {
    const ParsedCommandLine r = parse({"-halo", word, "-halo_timeout", "2.5"});
    ASSERT_FALSE(r.error) << *r.error;
    EXPECT_EQ(r.options.halo.path, path);
    EXPECT_EQ(r.options.halo.timeout_seconds, 2.5);
  }
}

TEST(CommandLine, BadInputsGiveOneLineErrors) {
  const std::vector<std::pair<std::vector<const char*>, std::string>> cases = {
      {{"-shape", "0,32,32"}, "at least 8"},
      {{"-shape", "32,32"}, "three integers"},
      {{"-shape", "32,32,32,4"}, "three integers"},
      {{"-shape", "32,x,32"}, "three integers"},
      {{"-shape", "8,8,0"}, "nz must be at least 1"},
      {{"-dt", "-1"}, "dt must be a positive"},
      {{"-dt", "nan"}, "dt must be a positive"},
      {{"-dx", "inf"}, "dx must be a positive"},
      {{"-dt", "0.05"}, "largest stable dt"},
      {{"-nsteps", "abc"}, "needs an integer"},
      {{"-nsteps", "0"}, "nsteps must be at least 1"},
      {{"-nsteps", "99999999999"}, "needs an integer"},
      {{"-out_period", "0"}, "out_period must be at least 1"},
      {{"-out_period", "2.5"}, "needs an integer"},
      {{"-bogus"}, "unknown option"},
      {{"-nsteps"}, "needs a value"},
      {{"a", "b"}, "more than one output_base"},
      {{"-impl", "cpu,,x"}, "comma-separated"},
      {{"-reference", "cuda"}, "-reference is cpu (serial) or cpu-openmp"},
      {{"-halo", "nvlink"}, "-halo is mpi or nccl"},
      {{"-halo"}, "needs a value"},
      {{"-halo_timeout", "0"}, "-halo_timeout needs seconds > 0"},
      {{"-halo_timeout", "-3"}, "-halo_timeout needs seconds > 0"},
      {{"-halo_timeout", "nan"}, "-halo_timeout needs seconds > 0"},
      {{"-snapshot_precision", "half"}, "-snapshot_precision is double or single"},
      {{"-snapshot_fields", "u_prev"}, "-snapshot_fields is u,u_prev or u"},
      {{"-checkpoint_period", "0"}, "-checkpoint_period needs a positive integer"},
      {{"-checkpoint_period", "x"}, "-checkpoint_period needs a positive integer"},
      {{"-snapshot_fields", "u", "-checkpoint_period", "15"}, "must be a positive multiple of -out_period 10"},
      {{"-checkpoint_period", "20"}, "snapshots of u and u_prev in double are checkpoints already"},
  };
  for (const auto& [args, expected] : cases) {
    std::vector<const char*> argv{"awave"};
    argv.insert(argv.end(), args.begin(), args.end());
    const ParsedCommandLine r = parse_command_line(int(argv.size()), argv.data());
    ASSERT_TRUE(r.error) << "accepted: " << args[0];
    EXPECT_NE(r.error->find(expected), std::string::npos) << *r.error;
    EXPECT_EQ(r.error->find('\n'), std::string::npos) << "not one line: " << *r.error;
  }
}

TEST(CommandLine, OutputNames) {
  EXPECT_EQ(output_path("test", "cpu"), "test.cpu.vtkhdf");
  EXPECT_EQ(output_path("out/run.vtkhdf", "kokkos-cuda"), "out/run.kokkos-cuda.vtkhdf");
  EXPECT_EQ(output_path("a.b/run", "cpu"), "a.b/run.cpu.vtkhdf");
}

TEST(CommandLine, OutputLocationsAreCheckedWithoutCreatingFiles) {
  Options o;
  o.output_base = "/nonexistent-dir-awave/x";
  ASSERT_TRUE(check_output_locations(o, {"cpu"}));
  EXPECT_NE(check_output_locations(o, {"cpu"})->find("does not exist"), std::string::npos);
  o.write_output = false;
  EXPECT_FALSE(check_output_locations(o, {"cpu"}));
  o.json_path = "/nonexistent-dir-awave/r.json";
  EXPECT_TRUE(check_output_locations(o, {"cpu"}));
}
