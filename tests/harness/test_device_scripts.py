"""The GPU machine's scripts count what ran (bench/device/ctest_verdict.py), on planted ctest
logs: a GPU whose tests all skip, fewer tests than the build holds, a failure, a missing summary;
and the lines of awave's output they grep (bench/device/common.sh, AWAVE_LINE_*) are the lines awave
prints today (a run of the host build's awave, AWAVE_EXE)."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from awave_bench.tools import refactor_summary as rs, sweep_study_summary as sss
from tests.harness.modules import TOP, module_at

HERE = os.path.dirname(os.path.abspath(__file__))
DEVICE = os.path.join(TOP, "bench", "device")
STUDIES = os.path.join(TOP, "bench", "studies")  # the experiments, each its scripts
cv = module_at(os.path.join(DEVICE, "ctest_verdict.py"))


def log(outcomes, summary=True, newer_ctest=False):
    """A ctest log with one line per (name, outcome), as ctest prints them; the summary as CMake
    3.25 prints it, or as newer ctest does where nothing failed (no ", 0 tests failed")."""
    lines = ["Test project /b"]
    for n, (name, outcome) in enumerate(outcomes, 1):
        lines.append(f"        Start {n:3d}: {name}")
        mark = "   Passed" if outcome == "Passed" else "***" + outcome
        lines.append(f"{n:3d}/{len(outcomes)} Test #{n}: {name} .........{mark}    0.10 sec")
    failed = sum(o not in ("Passed", "Skipped") for _, o in outcomes)
    if summary:
        pct = round(100 * (len(outcomes) - failed) / max(len(outcomes), 1))
        counts = "" if newer_ctest and not failed else f", {failed} tests failed"
        lines.append(f"\n{pct}% tests passed{counts} out of {len(outcomes)}")
    return "\n".join(lines) + "\n"


# Display names as ctest prints them: a parameterised test's parameter after "  # ".
GPU = ["Implementations/MatchesCpuReference.EveryPointOfNowAndPrev/cuda_8x8x1  # GetParam() = cuda 8x8x1",
       "sweep.LongRun/cuda"]


class Verdict(unittest.TestCase):
    def test_every_test_ran_and_passed(self):
        for newer in (False, True):
            ok, line = cv.verdict(log([(GPU[0], "Passed"), (GPU[1], "Passed"), ("ApproxEqual.X", "Passed")],
                                      newer_ctest=newer), 3, GPU)
            self.assertTrue(ok, line)
            self.assertEqual(line, "ctest: ok: 3 tests, 3 passed, 0 skipped, 0 failed")

    def test_a_real_ctest_log(self):  # CMake 3.25's, with a parameterised test, a skip and a failure
        with open(os.path.join(HERE, "fixtures", "ctest-planted.log")) as f:
            ok, line = cv.verdict(f.read(), 6, ["Planted.SkipsIsSkipped"])
        self.assertFalse(ok)
        self.assertIn("3 failed", line)
        self.assertIn("1 GPU tests skipped", line)
        self.assertIn("(6 tests, 1 passed, 2 skipped, 3 failed)", line)

    def test_a_gpu_whose_tests_all_skip_fails(self):
        ok, line = cv.verdict(log([(GPU[0], "Skipped"), (GPU[1], "Skipped"), ("ApproxEqual.X", "Passed")]), 3, GPU)
        self.assertFalse(ok)
        self.assertIn("2 GPU tests skipped on a GPU machine", line)

    def test_a_non_gpu_skip_is_named_not_failed(self):
        ok, line = cv.verdict(log([(GPU[0], "Passed"), ("Restart.FullDisk", "Skipped")]), 2, GPU)
        self.assertTrue(ok, line)
        self.assertIn("(skipped: Restart.FullDisk)", line)

    def test_fewer_tests_than_the_build_holds_fails(self):
        ok, line = cv.verdict(log([(GPU[0], "Passed")]), 2, GPU)
        self.assertFalse(ok)
        self.assertIn("1 tests ran of the 2 the build holds", line)

    def test_no_test_at_all_fails(self):
        ok, line = cv.verdict("Test project /b\nNo tests were found!!!\n", 0, [])
        self.assertFalse(ok)
        self.assertIn("no ctest summary line", line)
        self.assertIn("the build holds no test", line)

    def test_a_failure_fails(self):
        ok, line = cv.verdict(log([(GPU[0], "Passed"), (GPU[1], "Failed")]), 2, GPU)
        self.assertFalse(ok)
        self.assertIn("1 failed", line)

    def test_the_command_line(self):
        with tempfile.TemporaryDirectory() as d:
            path, must = os.path.join(d, "log"), os.path.join(d, "must")
            with open(path, "w") as f:
                f.write(log([(GPU[0], "Skipped")]))
            with open(must, "w") as f:
                f.write(GPU[0] + "\n")
            r = subprocess.run([sys.executable, os.path.join(DEVICE, "ctest_verdict.py"), path, "1", must],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 1, r.stdout)
            self.assertTrue(r.stdout.startswith("ctest: FAILED"), r.stdout)


class RefactorSummary(unittest.TestCase):
    def test_medians_and_ratio_against_the_baseline(self):
        import io
        from contextlib import redirect_stdout
        with tempfile.TemporaryDirectory() as d:
            for version, rates in (("cuda", [1.0e11, 1.2e11, 1.1e11]), ("cuda-base", [1.0e11, 1.0e11, 0.9e11])):
                for r, su in enumerate(rates, 1):
                    with open(os.path.join(d, f"time-{version}-512-r{r}.json"), "w") as f:
                        json.dump({"implementations": [{"id": "cpu", "is_reference": True, "best_su_per_s": 1},
                                                       {"id": "cuda", "best_su_per_s": su}]}, f)
            text = io.StringIO()
            with redirect_stdout(text):
                self.assertEqual(rs.main([d]), 0)
        self.assertIn("| cuda | 512^3 | 1.1e+11 (1e+11-1.2e+11, 3 runs) | 1e+11 (9e+10-1e+11, 3 runs) | 1.100 |", text.getvalue())
        self.assertIn("lowest ratio: 1.100", text.getvalue())


class SweepStudySummary(unittest.TestCase):
    """bench/sweep_study_summary.py on planted results: medians, the limit and the ratio;
    every run's bits held (checked runs bitwise, unchecked ones by a reference run's digest)."""

    def run_summary(self, digest="0a0b0c0d", bitwise=True):
        import io
        from contextlib import redirect_stdout

        def run(impls, plan):
            return {"params": {"shape": [512, 512, 512], "nsteps": 12},
                    "tuning": {"steps_per_sweep": {"value": str(plan)}, "cache_sweep.rows": {"value": "16"}},
                    "implementations": impls}
        ref = {"id": "cpu-openmp", "is_reference": True, "steps_per_sweep": 1, "best_su_per_s": 2e9,
               "digest": "0a0b0c0d"}
        with tempfile.TemporaryDirectory() as d:
            files = {"triad": {"triad_bandwidth_gb_s": 96.0}}  # limit 4e9 SU/s
            for r, (single, sweep) in enumerate(((2.0e9, 4.0e9), (2.2e9, 4.4e9), (2.4e9, 4.8e9)), 1):
                files[f"single-512-r{r}"] = run([ref, {"id": "kokkos-openmp", "checked": True, "bitwise": True,
                                                      "steps_per_sweep": 1, "best_su_per_s": single}], 1)
                files[f"sweep-512-r{r}"] = run([ref, {"id": "kokkos-openmp", "checked": True, "bitwise": bitwise,
                                                     "steps_per_sweep": 3, "best_su_per_s": sweep}], 3)
            files["cpusweep-512-r1"] = run([{"id": "cpu-openmp", "checked": False, "steps_per_sweep": 3,
                                             "best_su_per_s": 4e9, "digest": digest}], 3)
            for name, content in files.items():
                with open(os.path.join(d, name + ".json"), "w") as f:
                    json.dump(content, f)
            text = io.StringIO()
            with redirect_stdout(text):
                rc = sss.summary(d)
        return rc, text.getvalue()

    def test_medians_limit_and_ratio(self):
        rc, text = self.run_summary()
        self.assertEqual(rc, 0, text)
        self.assertIn("single-step limit 4.000e+09", text)
        self.assertRegex(text, r"512\^3 kokkos-openmp +single +3 +2\.200e\+09 +2\.000e\+09-2\.400e\+09 +0\.55 +-")
        self.assertRegex(text, r"512\^3 kokkos-openmp +sweep cache_sweep.rows=16 +3 +4\.400e\+09 .* 1\.10 +2\.000")
        self.assertRegex(text, r"512\^3 cpu-openmp +single +6 +2\.000e\+09")  # the reference's rows: one plan
        self.assertIn("every one the reference's", text)

    def test_a_digest_that_differs_fails(self):
        rc, text = self.run_summary(digest="ffffffff")
        self.assertEqual(rc, 1, text)
        self.assertIn("cpusweep-512-r1: cpu-openmp digest ffffffff is no reference run's (0a0b0c0d)", text)

    def test_a_checked_run_not_bitwise_fails(self):
        rc, text = self.run_summary(bitwise=False)
        self.assertEqual(rc, 1, text)
        self.assertIn("sweep-512-r1: kokkos-openmp not bitwise", text)


class BuildAbRatios(unittest.TestCase):
    """build-ab.sh's ratios (sweep_study_summary.ratios): a build that differs from A by a tuning value
    alone (its plan's label longer) is still matched, on size, implementation and plan."""

    def test_a_build_differing_by_tuning_is_matched(self):
        with tempfile.TemporaryDirectory() as d:
            for name, tuning, rates in (("a", {}, (2.0e11, 2.1e11, 2.2e11)),
                                        ("c2", {"cuda.cluster": {"value": "2"}}, (1.0e11, 1.05e11, 1.1e11)),
                                        ("single", None, (1.0e11,))):
                os.makedirs(os.path.join(d, name))
                for r, su in enumerate(rates, 1):
                    plan = 1 if tuning is None else 3
                    run = {"params": {"shape": [512, 512, 512], "nsteps": 36},
                           "tuning": dict(tuning or {}, steps_per_sweep={"value": str(plan)}),
                           "implementations": [{"id": "cuda", "checked": True, "bitwise": True,
                                                "steps_per_sweep": plan, "best_su_per_s": su}]}
                    with open(os.path.join(d, name, f"time-512-r{r}.json"), "w") as f:
                        json.dump(run, f)
            lines = sss.ratios(d, ["a", "c2"])
            self.assertEqual(len(lines), 1, lines)
            self.assertRegex(lines[0], r"^B/A +512\^3 cuda +sweep cuda.cluster=2 0\.500 \(ranges apart\)$")
            self.assertEqual(sss.ratios(d, ["a", "single"]), [])  # single steps against sweeps: nothing in common
            three = sss.ratios(d, ["a", "c2", "a"])
            self.assertRegex(three[0], r"^c2/a ")
            self.assertRegex(three[1], r"^a/a .* 1\.000 \(ranges overlap: a tie\)$")


def awave_lines():
    with open(os.path.join(DEVICE, "common.sh")) as f:
        return dict(re.findall(r"^(AWAVE_LINE_\w+)='([^']*)'", f.read(), re.M))


class AwaveLines(unittest.TestCase):
    def test_the_patterns_match_what_awave_prints(self):
        exe = os.environ.get("AWAVE_EXE", os.path.join(TOP, "build", "host", "src", "awave"))
        lines = awave_lines()
        self.assertEqual(set(lines), {"AWAVE_LINE_BITWISE", "AWAVE_LINE_NOT_BITWISE", "AWAVE_LINE_VERDICT",
                                      "AWAVE_LINE_WRITTEN", "AWAVE_LINE_ONE_FILE_LONGER"})
        with tempfile.TemporaryDirectory() as d:
            r = subprocess.run([exe, "-shape", "12,10,5", "-nsteps", "3", "-impl", "cpu-openmp", "run"],
                               cwd=d, capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="2"))
        self.assertEqual(r.returncode, 0, r.stderr)
        out = r.stdout.splitlines()
        for name in ("AWAVE_LINE_BITWISE", "AWAVE_LINE_VERDICT", "AWAVE_LINE_WRITTEN"):
            self.assertTrue(any(re.search(lines[name], line) for line in out), f"{name}: no line of\n{r.stdout}")
        self.assertFalse(any(re.search(lines["AWAVE_LINE_NOT_BITWISE"], line) for line in out))
        # The failing line's words are the driver's, which tests/cpp/test_driver.cpp plants a difference for.
        with open(os.path.join(TOP, "src", "app", "driver.cpp")) as f:
            self.assertIn(lines["AWAVE_LINE_NOT_BITWISE"].replace("check: ", ""), f.read())

    def test_compare_names_the_steps_only_one_file_holds(self):  # bitwise-checks.sh: a continuation cut short
        exe = os.environ.get("AWAVE_EXE", os.path.join(TOP, "build", "host", "src", "awave"))
        pattern = awave_lines()["AWAVE_LINE_ONE_FILE_LONGER"]
        with tempfile.TemporaryDirectory() as d:
            for name, steps in (("long", "20"), ("short", "10"), ("same", "20")):
                subprocess.run([exe, "-shape", "12,10,5", "-nsteps", steps, "-out_period", "5", "-impl", "cpu",
                                "-no_check", "-quiet", name], cwd=d, check=True, capture_output=True)
            cut = subprocess.run([exe, "-compare", "long.cpu.vtkhdf", "short.cpu.vtkhdf"], cwd=d,
                                 capture_output=True, text=True)
            whole = subprocess.run([exe, "-compare", "long.cpu.vtkhdf", "same.cpu.vtkhdf"], cwd=d,
                                   capture_output=True, text=True)
        self.assertEqual((cut.returncode, whole.returncode), (0, 0), cut.stderr + whole.stderr)
        self.assertRegex(cut.stdout + cut.stderr, pattern)
        self.assertNotRegex(whole.stdout + whole.stderr, pattern)

    def test_the_scripts_grep_no_other_line_of_awave(self):
        stale = ("check: 0 differences", "bitwise identical", "NOT BITWISE")
        for script in glob.glob(os.path.join(DEVICE, "*.sh")) + glob.glob(os.path.join(STUDIES, "*", "*.sh")):
            if script.endswith(os.path.join("device", "common.sh")):
                continue
            with open(script) as f:
                text = f.read()
            for words in stale:
                self.assertFalse(words in text, f"{os.path.basename(script)} greps {words!r}: use common.sh's AWAVE_LINE_*")


class StudyCommand(unittest.TestCase):
    def test_a_gpu_build_it_does_not_know_is_refused_before_anything_is_written(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "study")
            r = subprocess.run(["bash", os.path.join(TOP, "bench", "study.sh"), out],
                               capture_output=True, text=True, env=dict(os.environ, GPU_BUILDS="cuda cdua"))
            self.assertEqual(r.returncode, 2)
            self.assertEqual(r.stderr.strip(), "study: GPU_BUILDS takes cuda and openmptarget, not 'cdua'")
            self.assertFalse(os.path.exists(out))

    def test_a_bad_knob_is_refused_in_one_line_before_anything_is_written(self):
        for knob, value, words in (("ROUNDS", "0", "ROUNDS takes a count of 1 or more, not '0'"),
                                   ("ROUNDS", "5x", "ROUNDS takes a count of 1 or more, not '5x'"),
                                   ("UNBOUND", "no", "UNBOUND takes 0 or 1, not 'no'"),
                                   ("VARIANTS", "2", "VARIANTS takes 0 or 1, not '2'"),
                                   ("ENERGY", "off", "ENERGY takes 0 or 1, not 'off'")):
            with tempfile.TemporaryDirectory() as d:
                out = os.path.join(d, "study")
                r = subprocess.run(["bash", os.path.join(TOP, "bench", "study.sh"), out],
                                   capture_output=True, text=True, env=dict(os.environ, **{knob: value}))
                self.assertEqual(r.returncode, 2, knob)
                self.assertEqual(r.stderr.strip(), "study: " + words)
                self.assertFalse(os.path.exists(out))

    def test_build_ab_refuses_one_build_or_two_of_one_name_before_anything_is_written(self):
        script = os.path.join(DEVICE, "build-ab.sh")
        for builds, words in ((["build/cuda"], "build-ab: give two builds or more"),
                              (["build/cuda", "other/cuda"], "build-ab: two builds share the folder name cuda")):
            with tempfile.TemporaryDirectory() as d:
                out = os.path.join(d, "ab")
                r = subprocess.run(["bash", script, out, "512", "5", "36"] + builds, capture_output=True, text=True)
                self.assertEqual(r.returncode, 2, builds)
                self.assertEqual(r.stderr.strip(), words)
                self.assertFalse(os.path.exists(out))

    def test_study_parts_refuses_a_part_it_does_not_know_before_running_any(self):
        script = os.path.join(DEVICE, "study-parts.sh")
        for items in (["cuda:200", "gpu:100"], ["cuda:2x"], ["cpu"]):
            r = subprocess.run([shutil.which("bash"), script] + items, capture_output=True, text=True,
                               env=dict(os.environ, SIZES="64", PATH="/nonexistent"))  # no nvidia-smi reached
            self.assertEqual(r.returncode, 2, items)
            self.assertIn("is not PART:SECONDS (cuda, openmptarget or cpu)", r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)


class CpuDepthSummary(unittest.TestCase):
    """bench/studies/cpu-sweep-depth/cpu_depth_summary.py on planted awave-cpu-depth lines: medians over the product's sweep,
    the decision rule at 512^3 and 1000^3, a run not bitwise and a planted ulp not caught named (exit 1)."""

    @staticmethod
    def line(n, depth, rows, su, default=False, bitwise=True, planted=False):
        return json.dumps({"shape": [n, n, n], "depth": depth, "rows": rows, "default_rows": default, "su_per_s": su,
                           "bitwise": bitwise, "planted": planted, "differing_points": 0 if bitwise else 7}) + "\n"

    def write(self, d, n, lines):
        with open(os.path.join(d, f"{n}.jsonl"), "w") as f:
            f.write("".join(lines))

    def test_the_rule_on_planted_medians(self):
        cds = module_at(os.path.join(STUDIES, "cpu-sweep-depth", "cpu_depth_summary.py"))
        with tempfile.TemporaryDirectory() as d:
            self.write(d, 512, [self.line(512, 3, 32, su, default=True) for su in (1.0e9, 1.1e9, 0.9e9)]
                       + [self.line(512, 6, 16, su) for su in (1.3e9, 1.2e9, 1.1e9)])
            text, ok = cds.summary(d)
            self.assertTrue(ok)
            self.assertIn("| 512x512x512 | 3 | 32 (default) | 3 | 1.000e+09 (9.000e+08-1.100e+09) | 1.00 |", text)
            self.assertIn("| 512x512x512 | 6 | 16 | 3 | 1.200e+09 (1.100e+09-1.300e+09) | 1.20 |", text)
            self.assertIn("not decided (1000x1000x1000 not measured)", text)
            self.write(d, 1000, [self.line(1000, 3, 16, 1.0e9, default=True), self.line(1000, 6, 16, 1.1e9)])
            self.assertIn("not met (the best deeper sweep: 512x512x512 1.20 x, 1000x1000x1000 1.10 x)",
                          cds.summary(d)[0])
            self.write(d, 1000, [self.line(1000, 3, 16, 1.0e9, default=True), self.line(1000, 6, 16, 1.2e9)])
            self.assertIn("): met (", cds.summary(d)[0])

    def test_a_run_not_bitwise_and_a_planted_ulp_not_caught_are_named(self):
        cds = module_at(os.path.join(STUDIES, "cpu-sweep-depth", "cpu_depth_summary.py"))
        with tempfile.TemporaryDirectory() as d:
            self.write(d, 512, [self.line(512, 3, 32, 1e9, default=True), self.line(512, 6, 16, 9e9, bitwise=False),
                                self.line(512, 3, 32, 1e9, planted=True)])
            text, ok = cds.summary(d)
            self.assertFalse(ok)
            self.assertIn("NOT BITWISE: 512x512x512: 6 steps, 16 rows: 7 points differ", text)
            self.assertIn("NOT BITWISE: 512x512x512: a planted ulp not caught", text)
            self.assertNotIn("9.000e+09", text, "a wrong run is no rate")
            r = subprocess.run([sys.executable, os.path.join(STUDIES, "cpu-sweep-depth", "cpu_depth_summary.py"), d],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 1)

    def test_the_script_refuses_a_bad_depth_in_one_line(self):
        r = subprocess.run(["bash", os.path.join(STUDIES, "cpu-sweep-depth", "cpu-depth.sh"), "/nonexistent/out", "3,9"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr.strip(), "cpu-depth: DEPTHS takes steps 2-8, comma-separated, not '3,9'")


class CpuThreadsSummary(unittest.TestCase):
    """bench/studies/cpu-threads/cpu_threads_summary.py on planted runs: medians a thread count, the rate a thread,
    the scaling against one thread, the triad; a run whose digest is not the first run's is left out, named."""

    def test_the_table_of_planted_runs(self):
        cts = module_at(os.path.join(STUDIES, "cpu-threads", "cpu_threads_summary.py"))
        with tempfile.TemporaryDirectory() as d:
            def run(t, plan, r, su, digest="aa"):
                with open(os.path.join(d, f"run-t{t}-s{plan}-r{r}.json"), "w") as f:
                    json.dump({"implementations": [{"id": "cpu-openmp", "best_su_per_s": su, "digest": digest}]}, f)
            run(1, 3, 1, 1.0e9)
            run(1, 3, 2, 1.2e9)
            run(4, 3, 1, 2.0e9)
            run(4, 3, 2, 2.4e9)
            run(4, 3, 3, 9.9e9, digest="bb")  # a wrong result: out of the median
            for t, bw in ((1, 20), (4, 60)):
                with open(os.path.join(d, f"triad-t{t}.json"), "w") as f:
                    json.dump({"triad_bandwidth_gb_s": bw}, f)
            lines = cts.table(d)
            self.assertIn("| cpu-openmp | 3 | 1 | 2 | 1.100e+09 | 1.100e+09 | 1.00 | 20 |", lines)
            self.assertIn("| cpu-openmp | 3 | 4 | 2 | 2.200e+09 | 5.500e+08 | 0.50 | 60 |", lines)
            self.assertEqual([x for x in lines if x.startswith("- left out")],
                             ["- left out: run-t4-s3-r3.json cpu-openmp: digest bb, the first run's aa"])

    def test_the_script_refuses_a_bad_thread_count_in_one_line(self):
        r = subprocess.run(["bash", os.path.join(STUDIES, "cpu-threads", "cpu-threads.sh"), "/nonexistent/out", "64", "1", "1 x"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr.strip(), "cpu-threads: THREADS takes counts, not 'x'")


if __name__ == "__main__":
    unittest.main()


class CollectParts(unittest.TestCase):
    """bench/device/collect-parts.sh joins an archive carried in parts over several device calls
    (stage.sh's AWAVE_STAGE_PARTS_MB), and refuses a gap, a damaged part and another archive's."""
    SCRIPT = os.path.join(DEVICE, "collect-parts.sh")

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)
        self.archive = os.path.join(self.dir, "awave-device.tar.xz")
        with open(self.archive, "wb") as f:
            f.write(os.urandom(250000))
        with open(os.path.join(self.dir, "awave-device.sha256"), "w") as f:
            subprocess.run(["sha256sum", "awave-device.tar.xz"], cwd=self.dir, check=True, stdout=f)
        subprocess.run(["split", "-b", "100000", "awave-device.tar.xz", "part."], cwd=self.dir, check=True)
        self.keep = os.path.join(self.dir, "keep")

    def carry(self, name, parts, damage=None):
        """A carried folder NAME with the sha256 file and PARTS; collect-parts.sh's exit and output."""
        d = os.path.join(self.dir, name)
        os.makedirs(d)
        shutil.copy(os.path.join(self.dir, "awave-device.sha256"), d)
        for p in parts:
            shutil.copy(os.path.join(self.dir, p), d)
        if damage:
            with open(os.path.join(d, damage), "r+b") as f:
                f.write(b"\0\0\0\0")
        r = subprocess.run(["bash", self.SCRIPT, d, self.keep], capture_output=True, text=True)
        return r.returncode, r.stdout.strip() + r.stderr.strip()

    def test_two_calls_join_the_archive(self):
        self.assertEqual(self.carry("a", ["part.aa"])[0], 3)
        rc, out = self.carry("b", ["part.ab", "part.ac"])
        self.assertEqual(rc, 0, out)
        with open(out, "rb") as joined, open(self.archive, "rb") as original:
            self.assertEqual(joined.read(), original.read())

    def test_a_gap_is_missing_not_joined(self):
        rc, out = self.carry("a", ["part.aa", "part.ac"])
        self.assertEqual(rc, 3)
        self.assertIn("part.ab missing", out)

    def test_a_damaged_part_is_refused(self):
        rc, out = self.carry("a", ["part.aa", "part.ab", "part.ac"], damage="part.ab")
        self.assertEqual(rc, 1)
        self.assertIn("damaged", out)

    def test_another_archives_parts_are_refused(self):
        self.assertEqual(self.carry("a", ["part.aa"])[0], 3)
        other = os.path.join(self.dir, "b")
        os.makedirs(other)
        with open(os.path.join(self.dir, "awave-device.sha256")) as f:
            digest = f.read()
        with open(os.path.join(other, "awave-device.sha256"), "w") as f:  # same first 16 hex digits, other archive
            f.write(digest[:16] + ("0" if digest[16] != "0" else "1") + digest[17:])
        r = subprocess.run(["bash", self.SCRIPT, other, self.keep], capture_output=True, text=True)
        self.assertEqual(r.returncode, 1, r.stderr)
