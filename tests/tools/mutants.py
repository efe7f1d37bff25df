#!/usr/bin/env python3
"""The mutation check, by hand (CI does not run it): each planted change to a checker or a decision
must make at least one test fail. It copies the working tree (git's tracked and untracked, not
ignored files) to a scratch folder, builds there the presets the mutants name (host, host-mpi)
once, then for each mutant: applies it (an exact text replacement: a mutant whose text is gone is
reported, not skipped), rebuilds its preset, runs the tests that should catch it, and puts the file
back.

    python3 tests/tools/mutants.py [SCRATCH_DIR] [--only NAME,...]     (default /tmp/awave-mutants)

Prints one line a mutant: "caught by N failing tests" or "SURVIVED"; exit 1 if any survived or
could not be applied. About 15 minutes on 2 cores (the first builds), then a minute or less a mutant
(the MPI check's, a few).
"""
import os
import shutil
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (name, file, text, replacement, ctest -R regex of the tests expected to catch it[, preset]);
# the preset is host unless named.
MUTANTS = [
    ("integrity: the static arrays (sos, damp) never checked", "src/io/integrity.cpp",
     "  if (!newest_only) {\n    VtkHdfSlabReader statics", "  if (false) {\n    VtkHdfSlabReader statics", "^Integrity\\."),
    ("integrity: the last x-plane never compared", "src/io/integrity.cpp",
     "  for (int i = 0; i < nx; ++i) {\n    uLong crc", "  for (int i = 0; i < nx - 1; ++i) {\n    uLong crc",
     "^Integrity\\."),
    ("integrity: the slab digest reads its slab one plane off", "src/io/integrity.cpp",
     "plane_checksums<double>(buffer.data.get(), g, 0, n)", "plane_checksums<double>(buffer.data.get(), g, 1, n)",
     "SlabDigest\\."),
    ("integrity: the slab digest misses a NaN", "src/io/integrity.cpp",
     "if (first_non_finite_value(buffer.data.get(), values) != values) return field_digest(impl.now_on_host().data(), g);",
     "if (false) return 0;", "SlabDigest\\."),
    ("energy: a counter gone backwards taken as energy", "src/app/gpu_energy.cpp",
     "if (!start_ || !stop || *stop < *start_) {", "if (!start_ || !stop) {", "^GpuEnergy\\."),
    ("energy: a failed read skipped, the rest summed", "src/app/gpu_energy.cpp",
     "    known_ = false;\n    return;", "    return;", "^GpuEnergy\\."),
    ("portability: the first screen's check ignores its numbers", "bench/awave_bench/render/screen.py",
     "            if value != got:\n", "            if False:\n", "^bench\\.(metrics|study_runs|page|screen|effort|report)$"),
    ("approx_equal: the overflow guard removed", "src/core/approx_equal.cpp",
     "return diff / std::min(norm, std::numeric_limits<double>::max()) < tol;", "return diff / norm < tol;",
     "^ApproxEqual\\."),
    ("approx_equal: the tolerance against the larger value, not the sum", "src/core/approx_equal.cpp",
     "const double norm = std::fabs(a) + std::fabs(b);", "const double norm = std::max(std::fabs(a), std::fabs(b));",
     "^ApproxEqual\\."),
    ("integrity: a time counter checked against no earlier record", "src/io/integrity.cpp",
     "    nearest_match[std::size_t(e)] = last;\n", "", "^Integrity\\."),
    ("same GPU code: a changed byte not seen", "bench/awave_bench/tools/same_gpu_code.py",
     "        elif x != y:\n", "        elif False:\n", "^bench\\.(catalog|sweep|run_files|report|summaries|effort)$"),
    ("portability: the ranking reversed", "bench/awave_bench/metrics/verdicts.py",
     "ranked = sorted(APPLICATIONS, key=lambda a: -(pp[a][shape] or 0))",
     "ranked = sorted(APPLICATIONS, key=lambda a: (pp[a][shape] or 0))", "^bench\\.(metrics|study_runs|page|screen|effort|report)$"),
    ("portability: the oldest result wins", "bench/awave_bench/runs/study.py",
     "newest_date(rounds) > newest_date(newest[machine])", "newest_date(rounds) < newest_date(newest[machine])",
     "^bench\\.(metrics|study_runs|page|screen|effort|report)$"),
    ("portability: one CPU model on two machines counted as two platforms", "bench/awave_bench/runs/study.py",
     "cpu_of_machine[(d, machine_of(r))] = hardware", "cpu_of_machine[(d, machine_of(r))] = hardware = hardware + machine_of(r)",
     "^bench\\.(metrics|study_runs|page|screen|effort|report)$"),
    ("portability: the unchecked mark dropped", "bench/awave_bench/runs/study.py",
     '            notes.add("unchecked")\n', "            pass\n", "^bench\\.(metrics|study_runs|page|screen|effort|report)$"),
    ("portability: a failed run scored 0, not unknown", "bench/awave_bench/runs/study.py",
     'return [], r.get("status", "failed")', 'return [0.0], r.get("status", "failed")', "^bench\\.(metrics|study_runs|page|screen|effort|report)$"),
    ("code divergence: the Jaccard distance over one set, not the union", "bench/awave_bench/tools/code_divergence.py",
     "return 1.0 - len(a & b) / len(union) if union else 0.0", "return 1.0 - len(a & b) / len(a) if a else 0.0",
     "^bench\\.(metrics|study_runs|page|screen|effort|report)$"),
    ("skips: a loose pattern that takes a failure's skip", "tests/skip_properties.cmake",
     'SKIP_REGULAR_EXPRESSION "\\\\[  SKIPPED \\\\]"', 'SKIP_REGULAR_EXPRESSION "Skipped|SKIPPED"', "^skips\\."),
    ("device scripts: gpu tests allowed to skip on a GPU machine", "bench/device/ctest_verdict.py",
     "if must_skip:", "if False:", "^bench\\.device_scripts$"),
    ("three-kernel runs: their environment never reaches the tests", "tests/CMakeLists.txt",
     'set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${env_file}")', "",
     "^three_kernel_step\\.Implementations/MatchesCpuReference"),
    ("cache sweep: a ghost plane of a computed level left stale", "src/core/cache_sweep.hpp",
     "if (s < S) std::fill(level_row(s, p, j0 - S)", "if (false) std::fill(level_row(s, p, j0 - S)",
     "^sweep\\.Implementations/"),
    ("cache sweep: level 2 stored off the tile's last row", "src/core/cache_sweep.hpp",
     "const bool on_tile = j >= j0 && j < j1 && p >= i0 && p < i1;",
     "const bool on_tile = j >= j0 && j < j1 - 1 && p >= i0 && p < i1;", "^sweep\\.Implementations/"),
    ("cache sweep: the sweep's run never sweeps (its environment lost)", "tests/CMakeLists.txt",
     'LABELS "${_runs_label}"\n                     ENVIRONMENT "OMP_NUM_THREADS=2;OMP_PROC_BIND=false;AWAVE_STEPS_PER_SWEEP=3;',
     'LABELS "${_runs_label}"\n                     ENVIRONMENT "OMP_NUM_THREADS=2;OMP_PROC_BIND=false;',
     "^sweep\\.Implementations/"),
    # Issue 54's list: branches no test reached.
    ("restart: a contradicting -dx taken", "src/app/restart_options.cpp",
     "if (o.given.dx && given.dx != f.dx)", "if (false && given.dx != f.dx)", "^Restart\\.BadRestart"),
    ("restart: an option equal to the file's refused as a contradiction", "src/app/restart_options.cpp",
     "if (o.given.dt && given.dt != f.dt)", "if (o.given.dt)", "^Restart\\.BadRestart"),
    ("sweep over MPI: u(t-1)'s halo a plane shallow", "src/parallel/halo_exchange.hpp",
     "static HaloDepth sweep(int steps) { return {steps, steps - 1}; }",
     "static HaloDepth sweep(int steps) { return {steps, steps - 2}; }", "^mpi\\.files_equal", "host-mpi"),
    ("sweep segments: a segment counted interior one plane early", "src/core/sweep_march.hpp",
     "(halo_hi == 0 || i1 + T::kSteps <= nx - halo_hi)", "(halo_hi == 0 || i1 + T::kSteps - 1 <= nx - halo_hi)",
     "^SweepSegments\\."),
    ("study census: a round held to the reference if any code is", "bench/awave_bench/render/evidence.py",
     "same = all(i.get(\"digest\") in references[base]", "same = any(i.get(\"digest\") in references[base]",
     "^bench\\.(metrics|study_runs|page|screen|effort|report)$"),
    ("study census: a held run counted held whatever its digest", "bench/awave_bench/render/evidence.py",
     "same = all(i.get(\"digest\") in refs for i in impls)", "same = True", "^bench\\.(metrics|study_runs|page|screen|effort|report)$"),
    ("portability: a held run's digest not compared", "bench/awave_bench/runs/study.py",
     "if not checked and not references and r.get(\"sweep\", {}).get(\"held\"):", "if False:",
     "^bench\\.(metrics|study_runs|page|screen|effort|report)$"),
    ("tuning: a value one below a key's lower bound taken", "src/core/tuning.cpp",
     "return v >= s.min && v <= s.max", "return v >= s.min - 1 && v <= s.max", "^Tuning\\."),
    ("tuning: an integer's trailing characters ignored", "src/core/tuning.cpp",
     "if (*end != '\\0' || !(std::isdigit", "if (!(std::isdigit", "^Tuning\\."),
    ("tuning: a key given twice, the last taken", "src/core/tuning.cpp",
     "it != st.values.end() && it->second.source == \"-tune\")", "false)", "^Tuning\\."),
    ("checker: NOT BITWISE within the tolerance summed up as FAIL", "src/app/driver.cpp",
     "r.differences == 0 ? \"PASS\" : \"FAIL\"", "\"FAIL\"", "^Checker\\."),
    ("checker: the verdict forgets the codes that are not bitwise", "src/app/driver.cpp",
     "if (r.checked && !r.bitwise()) not_bitwise +=", "if (false) not_bitwise +=", "^Checker\\."),
    ("checker: the last padded plane never compared", "src/app/driver.cpp",
     "last = slab.last() ? slab.nx + 1 : slab.nx;", "last = slab.nx;", "^Checker\\."),
    ("output base: a directory taken as a file name's stem", "src/app/cli.cpp",
     "if (base.filename() == \".\" || base.filename() == \"..\" || fs::is_directory(base, ec))", "if (false)",
     "^AwaveProcess\\.BadInputFails"),
    ("MPI-IO: OMPIO left in (the heap corruption of issue 54)", "src/parallel/process_group.cpp",
     "setenv(\"OMPI_MCA_io\", \"^ompio\", 1);", "", "^mpi\\.output_beside", "host-mpi"),
    ("output over MPI: ROMIO's aggregators left as they are (one a node)", "src/parallel/process_group.cpp",
     "tuning_word(\"mpi_io.aggregators\").value_or(\"all\") == \"all\"", "false",
     "^mpi\\.output_hints", "host-mpi"),
    ("output over MPI: every commit flush syncs the file", "src/parallel/process_group.cpp",
     "if (!io_layer.file_sync) return MPI_SUCCESS;", "", "^mpi\\.output_hints", "host-mpi"),
    ("compare: sos and damp through the first file's checksums on both sides", "src/io/compare.cpp",
     "unbound(&b.sums.static_planes[std::size_t(s) * nx], b,", "unbound(&a.sums.static_planes[std::size_t(s) * nx], a,",
     "^Compare\\.AChangedSpeed"),
    ("compare: dx not compared", "src/io/compare.cpp",
     "  if (pa.dx != pb.dx) refuse(\"dx\", fmt::format(\"{}\", pa.dx), fmt::format(\"{}\", pb.dx));\n", "",
     "^Compare\\.FilesThatCannot"),
    ("over MPI: threads of two processes bound to the same CPUs, unsaid", "src/parallel/process_group.cpp",
     "g.binding_warning_ = binding_problem(node, g.local_size_);", "", "^mpi\\.output_hints", "host-mpi"),
    # Issue 71's list: decisions no test caught.
    ("energy: a counter that did not move taken as one gone backwards", "src/app/gpu_energy.cpp",
     "*stop < *start_", "*stop <= *start_", "^GpuEnergy\\."),
    ("energy over MPI: summed over the processes that read it", "src/app/gpu_energy.hpp",
     "if (group.min(mine.known() ? 1L : 0L) != 1) return std::nullopt;\n"
     "  return RunEnergy{double(group.sum(std::size_t(mine.millijoules())))",
     "if (group.max(mine.known() ? 1.0 : 0.0) != 1) return std::nullopt;\n"
     "  return RunEnergy{double(group.sum(std::size_t(mine.known() ? mine.millijoules() : 0)))", "^GpuEnergy\\."),
    ("tuning: -tune refused where the key's AWAVE_ variable is set", "src/core/tuning.cpp",
     "it != st.values.end() && it->second.source == \"-tune\")", "it != st.values.end())", "^Tuning\\."),
    # Issue 71's list, the bench's part.
    ("verdict: the evidence's tie rule against the leader's median, not its range", "bench/awave_bench/metrics/verdicts.py",
     "return pp[a][shape] is None or ranges_apart(top, pp_ci[a][shape])",
     "return pp[a][shape] is None or ranges_apart((pp[ranked[0]][shape],) * 2, pp_ci[a][shape])", "^bench\\.(metrics|study_runs|page|screen|effort|report)$"),
    ("verdict: the first screen's tie rule against the leader's median, not its range", "bench/awave_bench/render/screen.py",
     "if not verdicts.ranges_apart(top[1], c[1])", "if not verdicts.ranges_apart((top[0], top[0]), c[1])", "^bench\\.(metrics|study_runs|page|screen|effort|report)$"),
    ("verdict: a lead on ranges apart by less than the page prints", "bench/awave_bench/metrics/verdicts.py",
     "round(other[1], 2) < round(leader[0], 2)", "other[1] < leader[0]", "^bench\\.(metrics|study_runs|page|screen|effort|report)$"),
    ("verdict: the tie rule rounding the gap instead of the two bounds (issue 81)", "bench/awave_bench/metrics/verdicts.py",
     "round(other[1], 2) < round(leader[0], 2)", "round(leader[0] - other[1], 2) > 0", "^bench\\.(metrics|study_runs|page|screen|effort|report)$"),
    ("first screen: a held plan with no checked run shown as a measurement", "bench/awave_bench/runs/screen_cells.py",
     'return [] if "unchecked" in note else samples', "return samples", "^bench\\.(metrics|study_runs|page|screen|effort|report)$"),
    ("first screen: a word only a token wholly of letters and digits", "bench/awave_bench/render/screen.py",
     "if any(c.isalnum() for c in t)", "if t.isalnum()", "^bench\\.(metrics|study_runs|page|screen|effort|report)$"),
    ("study census: a held run of several codes held if any code is", "bench/awave_bench/render/evidence.py",
     "same = all(i.get(\"digest\") in refs for i in impls)", "same = any(i.get(\"digest\") in refs for i in impls)",
     "^bench\\.(metrics|study_runs|page|screen|effort|report)$"),
    # Issue 74: the reader's checked reads, each the only guard against one planted damage.
    ("checked reads: an extent larger than the file sized a buffer", "src/io/vtkhdf.cpp",
     "  if (!fits(dims, value_bytes, limit))\n    fail(", "  if (false)\n    fail(", "^damaged_files\\."),
    ("checked reads: an attribute's stored type not compared (HDF5 converts a damaged one)", "src/io/vtkhdf.cpp",
     "    require_stored_type(type, {stored_type<T>()}, what);", "    (void)type;", "^damaged_files\\."),
    ("checked reads: an array not held to the grid WholeExtent declares", "src/io/vtkhdf.cpp", "  if (grid &&\n",
     "  if (false &&\n", "^DamagedVtkHdf\\."),
    ("checked reads: a chunk index entry's size not held to the chunk's", "src/io/vtkhdf.cpp",
     "      if (addr != HADDR_UNDEF && (size != chunk_bytes", "      if (false && (size != chunk_bytes",
     "^DamagedVtkHdf\\."),
    # Issue 81's weakened checks of the checked-read layer, each failing ^DamagedVtkHdf.EachDataset.
    ("checked reads: a dataset's type matched by class and size", "src/io/vtkhdf.cpp",
     "    if (H5Tequal(type, t) > 0) return t;",
     "    if (H5Tget_class(type) == H5Tget_class(t) && H5Tget_size(type) == H5Tget_size(t)) return t;",
     "^DamagedVtkHdf\\.EachDataset"),
    ("checked reads: a larger rank accepted", "src/io/vtkhdf.cpp", "H5Sget_simple_extent_ndims(space) == rank))",
     "H5Sget_simple_extent_ndims(space) >= rank))", "^DamagedVtkHdf\\.EachDataset"),
    ("checked reads: filters not checked", "src/io/vtkhdf.cpp",
     "    if (H5Pget_nfilters(create) != 0) fail(path + \" has filters, which awave never writes\");", "",
     "^DamagedVtkHdf\\.EachDataset"),
    ("checked reads: an extent checked in values, not bytes", "src/io/vtkhdf.cpp", "  if (!fits(dims, value_bytes, limit))",
     "  if (!fits(dims, 1, limit))", "^DamagedVtkHdf\\.EachDataset"),
    # (the two above rewritten for 6539740's one-pass search of the nearest earlier matching record)
    ("integrity: a time held to the entry before even where that entry's record is damaged", "src/io/integrity.cpp",
     "    if (record_ok[std::size_t(e)]) last = e;", "    last = e;", "^Integrity\\."),
    ("integrity: the first matching record taken instead of the nearest", "src/io/integrity.cpp",
     "    if (record_ok[std::size_t(e)]) last = e;", "    if (record_ok[std::size_t(e)] && last < 0) last = e;",
     "^Integrity\\."),
    ("integrity: a time counter that does not increase taken as intact", "src/io/integrity.cpp",
     "    if (before >= 0 && time <= steps[std::size_t(before)]) {", "    if (false) {", "^Integrity\\."),
    # Issue 81 items 3 and 4: checksums bound to what they cover, counts that cannot shrink unsaid.
    ("integrity: plane checksums bound to no slot or field", "src/io/integrity.cpp",
     "  if (scheme < 2) return 0;\n", "  return 0;\n", "^Integrity\\.PlanesMoved"),
    ("integrity: the counts not held to the checksummed count", "src/io/integrity.cpp",
     "  if (r.scheme >= 2) r.count_damage = count_damage(c, *sums);\n", "", "^Integrity\\.ACountThatShrinks"),
    ("integrity: NSteps not among the counts checked", "src/io/integrity.cpp",
     "  if (c.nsteps != snapshots) off.push_back", "  if (false) off.push_back", "^Integrity\\.ACountThatShrinks"),
    ("output: HDF5's exit-time cleanup left on (SIGSEGV after a file that could not be made)", "src/io/vtkhdf.cpp",
     "    H5dont_atexit();\n", "", "^AwaveProcess\\.ADiskThatFills"),
    ("output: a file never made named as a .partial to restart from", "src/io/snapshot_writer.cpp",
     "    if (!created_)  // the file", "    if (false)  // the file", "^AwaveProcess\\.ADiskThatFills"),
    ("checked reads: the arrays' sum not held to the file's size", "src/io/vtkhdf.cpp",
     "    file_->take(n * sizeof(T), path);\n", "", "^Integrity\\.ArraysThatTogether"),
    ("integrity: what a reader takes (VTKHDF attributes, static offsets) not verified", "src/io/integrity.cpp",
     "  r.reader_damage = reader_damage(c);\n", "", "^Integrity\\.WhatAReaderTakes"),
    ("integrity: complete not in the committed record", "src/io/integrity.cpp",
     "    if (matches(!c.complete))\n", "    if (false)\n", "^Integrity\\.WhatAReaderTakes"),
    ("damaged files: peak memory read in bytes, not kB", "tests/tools/damaged_files.py",
     "int(result[-1]) * 1024", "int(result[-1])", "^damaged_files\\."),
    ("README limits: accepted within 5%", "bench/awave_bench/tools/readme_rates.py",
     "        if want != text:\n", "        if want is None or abs(float(want) / float(text) - 1) > 0.05:\n",
     "^bench\\.(catalog|sweep|run_files|report|summaries|effort)$"),
    ("checked reads: only the first chunk's index entry checked", "src/io/vtkhdf.cpp",
     "      if (a == 0) return;\n    }\n  }\n};", "      return;\n    }\n  }\n};",
     "^DamagedVtkHdf\\.TheLastOfSeveral"),
    ("checked reads: the groups' links and attributes not held to awave's", "src/io/vtkhdf.cpp",
     "      fail(fmt::format(\"{} holds {} '{}', which awave never writes there\", what, kind, name.substr(0, 64)));\n",
     "", "^Integrity\\.AGroupHolding"),
    ("checked reads: a complete of 2 read as not complete", "src/io/vtkhdf.cpp",
     "    if (complete != 0 && complete != 1) fail(", "    if (false) fail(", "^damaged_files\\.structure_aware"),
    ("integrity: the scheme descriptions not held to awave's", "src/io/integrity.cpp",
     "  if (r.scheme >= 2 && !r.reader_damage) {", "  if (false) {", "^damaged_files\\.structure_aware"),
    ("integrity: an unknown checksum scheme read as scheme 1", "src/io/integrity.cpp",
     "  if (r.scheme != 1 && r.scheme != kChecksumScheme)\n", "  if (false)\n",
     "^Integrity\\.AFileReadUnderTheOtherChecksumScheme"),
]


def sh(args, cwd, log=None):
    with open(log or os.devnull, "w") as out:
        return subprocess.run(args, cwd=cwd, stdout=out, stderr=subprocess.STDOUT).returncode


def main(argv):
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__.strip())
        return 0
    only = None
    if "--only" in argv:
        i = argv.index("--only")
        only = set(argv[i + 1].split(","))
        argv = argv[:i] + argv[i + 2:]
    chosen = [m for m in MUTANTS if not only or any(o in m[0] for o in only)]
    scratch = os.path.abspath(argv[0] if argv else "/tmp/awave-mutants")
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=TOP,
                           capture_output=True, text=True, check=True).stdout.split("\0")
    src = os.path.join(scratch, "src-tree")
    os.makedirs(src, exist_ok=True)
    for f in filter(None, files):  # refresh the copy; the scratch builds are kept between runs
        if os.path.isfile(os.path.join(TOP, f)):
            dest = os.path.join(src, f)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copy2(os.path.join(TOP, f), dest)
    presets = sorted({m[5] if len(m) > 5 else "host" for m in chosen})
    build = {p: os.path.join(src, "build", p) for p in presets}
    for p in presets:
        print(f"mutants: building the {p} preset in {build[p]} (the first time takes minutes)", flush=True)
        if sh(["cmake", "--preset", p], src, os.path.join(scratch, f"configure-{p}.log")) or \
                sh(["cmake", "--build", build[p], "-j2"], src, os.path.join(scratch, f"build-{p}.log")):
            print(f"mutants: the unmutated {p} build failed (see {scratch}/*.log)")
            return 1
        regex = "|".join(f"({m[4]})" for m in chosen if (m[5] if len(m) > 5 else "host") == p)
        if sh(["ctest", "--test-dir", build[p], "-R", regex, "-j2"], src, os.path.join(scratch, f"baseline-{p}.log")):
            print(f"mutants: the unmutated {p} tests fail (see {scratch}/baseline-{p}.log): nothing to learn from mutants")
            return 1
    bad = 0
    for mutant in chosen:
        name, rel, text, replacement, tests = mutant[:5]
        preset = mutant[5] if len(mutant) > 5 else "host"
        path = os.path.join(src, rel)
        with open(path) as f:
            original = f.read()
        if original.count(text) != 1:
            print(f"NOT APPLIED  {name}: its text is in {rel} {original.count(text)} times (update tests/tools/mutants.py)")
            bad += 1
            continue
        try:
            with open(path, "w") as f:
                f.write(original.replace(text, replacement))
            log = os.path.join(scratch, "mutant.log")
            if sh(["cmake", "--build", build[preset], "-j2"], src, log):
                print(f"caught       {name}: the build fails")
                continue
            sh(["ctest", "--test-dir", build[preset], "-R", tests, "-j2"], src, log)
            with open(log) as f:
                failed = [line for line in f if "***Failed" in line or "***Exception" in line or "***Timeout" in line]
            if failed:
                print(f"caught       {name}: {len(failed)} failing tests, e.g. {failed[0].split(':')[1].split()[0]}")
            else:
                print(f"SURVIVED     {name}: every test matching {tests!r} passed")
                bad += 1
        finally:
            with open(path, "w") as f:
                f.write(original)
    for p in presets:  # back to the unmutated builds
        sh(["cmake", "--build", build[p], "-j2"], src)
    print(f"mutants: {len(chosen) - bad} caught, {bad} survived or not applied")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
