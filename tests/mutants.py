#!/usr/bin/env python3
"""The mutation check, by hand (CI does not run it): each planted change to a checker must make
at least one test fail. It copies the working tree (git's tracked and untracked, not ignored
files) to a scratch folder, builds the host preset there once, then for each mutant: applies
it (an exact text replacement: a mutant whose text is gone is reported, not skipped), rebuilds
what it needs, runs the tests that should catch it, and puts the file back.

    python3 tests/mutants.py [SCRATCH_DIR] [--only NAME,...]     (default /tmp/awave-mutants)

Prints one line a mutant: "caught by N failing tests" or "SURVIVED"; exit 1 if any survived or
could not be applied. About 10 minutes on 2 cores (the first build), then seconds a mutant.
"""
import os
import shutil
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (name, file, text, replacement, ctest -R regex of the tests expected to catch it)
MUTANTS = [
    ("integrity: the static arrays (sos, damp) never checked", "src/io/integrity.cpp",
     "  if (!newest_only) {\n    for (int a = 0; a < 2", "  if (false) {\n    for (int a = 0; a < 2", "^Integrity\\."),
    ("integrity: the last x-plane never compared", "src/io/integrity.cpp",
     "  for (int i = 0; i < nx; ++i) {\n    uLong crc", "  for (int i = 0; i < nx - 1; ++i) {\n    uLong crc",
     "^Integrity\\."),
    ("approx_equal: the overflow guard removed", "src/core/approx_equal.cpp",
     "return diff / std::min(norm, std::numeric_limits<double>::max()) < tol;", "return diff / norm < tol;",
     "^ApproxEqual\\."),
    ("approx_equal: the tolerance against the larger value, not the sum", "src/core/approx_equal.cpp",
     "const double norm = std::fabs(a) + std::fabs(b);", "const double norm = std::max(std::fabs(a), std::fabs(b));",
     "^ApproxEqual\\."),
    ("portability: the ranking reversed", "bench/portability.py",
     "ranked = sorted(APPLICATIONS, key=lambda a: -(pp[a][shape] or 0))",
     "ranked = sorted(APPLICATIONS, key=lambda a: (pp[a][shape] or 0))", "^bench\\.portability$"),
    ("portability: the oldest result wins", "bench/portability.py",
     'r.get("date", "") >= runs[key][0].get("date", "")', 'r.get("date", "") <= runs[key][0].get("date", "")',
     "^bench\\.portability$"),
    ("portability: the unchecked mark dropped", "bench/portability.py",
     '"" if checked else "unchecked"', '""', "^bench\\.portability$"),
    ("portability: a failed run scored 0, not unknown", "bench/portability.py",
     'return None, r.get("status", "failed")', 'return 0.0, r.get("status", "failed")', "^bench\\.portability$"),
    ("code divergence: the Jaccard distance over one set, not the union", "bench/code_divergence.py",
     "return 1.0 - len(a & b) / len(union) if union else 0.0", "return 1.0 - len(a & b) / len(a) if a else 0.0",
     "^bench\\.portability$"),
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
]
TARGETS = ["awave", "test_model", "test_integrity", "test_host_impls"]


def sh(args, cwd, log=None):
    with open(log or os.devnull, "w") as out:
        return subprocess.run(args, cwd=cwd, stdout=out, stderr=subprocess.STDOUT).returncode


def main(argv):
    only = None
    if "--only" in argv:
        i = argv.index("--only")
        only = set(argv[i + 1].split(","))
        argv = argv[:i] + argv[i + 2:]
    scratch = os.path.abspath(argv[0] if argv else "/tmp/awave-mutants")
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=TOP,
                           capture_output=True, text=True, check=True).stdout.split("\0")
    src = os.path.join(scratch, "src-tree")
    os.makedirs(src, exist_ok=True)
    for f in filter(None, files):  # refresh the copy; the scratch build is kept between runs
        if os.path.isfile(os.path.join(TOP, f)):
            dest = os.path.join(src, f)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copy2(os.path.join(TOP, f), dest)
    build = os.path.join(src, "build", "host")
    print(f"mutants: building the host preset in {build} (the first time takes minutes)", flush=True)
    if sh(["cmake", "--preset", "host"], src, os.path.join(scratch, "configure.log")) or \
            sh(["cmake", "--build", build, "-j2", "--target"] + TARGETS, src, os.path.join(scratch, "build.log")):
        print(f"mutants: the unmutated build failed (see {scratch}/*.log)")
        return 1
    baseline = sh(["ctest", "--test-dir", build, "-R", "|".join(f"({m[4]})" for m in MUTANTS), "-j2"], src,
                  os.path.join(scratch, "baseline.log"))
    if baseline:
        print(f"mutants: the unmutated tests fail (see {scratch}/baseline.log): nothing to learn from mutants")
        return 1
    bad = 0
    for name, rel, text, replacement, tests in MUTANTS:
        if only and not any(o in name for o in only):
            continue
        path = os.path.join(src, rel)
        with open(path) as f:
            original = f.read()
        if original.count(text) != 1:
            print(f"NOT APPLIED  {name}: its text is in {rel} {original.count(text)} times (update tests/mutants.py)")
            bad += 1
            continue
        try:
            with open(path, "w") as f:
                f.write(original.replace(text, replacement))
            log = os.path.join(scratch, "mutant.log")
            if sh(["cmake", "--build", build, "-j2", "--target"] + TARGETS, src, log):
                print(f"caught       {name}: the build fails")
                continue
            sh(["ctest", "--test-dir", build, "-R", tests, "-j2"], src, log)
            with open(log) as f:
                failed = [line for line in f if "***Failed" in line or "***Exception" in line]
            if failed:
                print(f"caught       {name}: {len(failed)} failing tests, e.g. {failed[0].split(':')[1].split()[0]}")
            else:
                print(f"SURVIVED     {name}: every test matching {tests!r} passed")
                bad += 1
        finally:
            with open(path, "w") as f:
                f.write(original)
    sh(["cmake", "--build", build, "-j2", "--target"] + TARGETS, src)  # back to the unmutated build
    print(f"mutants: {len(MUTANTS) - bad if not only else 'the chosen'} caught, {bad} survived or not applied")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
