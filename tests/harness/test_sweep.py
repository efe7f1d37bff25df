"""bench/sweep.py and bench/study.sh on this build: variants, rounds, held plans, the manifest and the study's
options."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

from tests.harness.modules import TOP


class SweepVariants(unittest.TestCase):
    """sweep.py's variants reach the run: --env (over the sweep's own OMP_TARGET_OFFLOAD), --tune and
    --label, recorded in the result file (planted: the environment and tuning the run must report)."""

    def test_env_tune_and_label_reach_the_run(self):
        exe = os.environ.get("AWAVE_EXE", os.path.join(TOP, "build", "host", "src", "awave"))
        with tempfile.TemporaryDirectory() as d:
            proc = subprocess.run([sys.executable, os.path.join(TOP, "bench", "sweep.py"), "host", d, "--exe", exe,
                                   "--sizes", "12x10x5", "--impls", "cpu-openmp", "--env", "OMP_TARGET_OFFLOAD=DISABLED",
                                   "--tune", "kokkos.tile=0x0x0", "--label", "variant", "--no-check"],
                                  capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="2"))
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            with open(os.path.join(d, "host-variant_12x10x5.json")) as f:
                r = json.load(f)
        self.assertEqual(r["status"], "ok")
        self.assertEqual(r["environment"]["OMP_TARGET_OFFLOAD"], "DISABLED")
        self.assertEqual(r["tuning"]["kokkos.tile"], {"value": "0x0x0", "source": "-tune"})
        self.assertEqual(r["sweep"]["label"], "variant")
        self.assertIn("cores", r["host_cpu"])


class SweepRounds(unittest.TestCase):
    """sweep.py --round K runs round K of --rounds N alone (bench/study.sh interleaves its plans so):
    round 1 checked, later ones named .rK with a digest; a K outside 1..N is refused."""

    def sweep(self, d, *extra):
        exe = os.environ.get("AWAVE_EXE", os.path.join(TOP, "build", "host", "src", "awave"))
        return subprocess.run([sys.executable, os.path.join(TOP, "bench", "sweep.py"), "host", d, "--exe", exe,
                               "--sizes", "12x10x5", "--impls", "cpu-openmp", "--reference", "cpu", "--rounds", "3", *extra],
                              capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="2"))

    def test_one_round_at_a_time(self):
        with tempfile.TemporaryDirectory() as d:
            for k in (2, 1):
                proc = self.sweep(d, "--round", str(k))
                self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            files = sorted(f for f in os.listdir(d) if f.startswith("host_"))
            self.assertEqual(files, ["host_12x10x5.json", "host_12x10x5.r2.json"], "rounds 1 and 2, not 3")
            with open(os.path.join(d, "host_12x10x5.json")) as f:
                first = json.load(f)
            with open(os.path.join(d, "host_12x10x5.r2.json")) as f:
                second = json.load(f)
            self.assertTrue(first["checked_against_cpu"])
            self.assertNotIn("check_skipped_reason", first)
            self.assertIn("round 2", second["check_skipped_reason"])
            with open(os.path.join(d, "manifest-host.json")) as f:
                self.assertEqual(len(json.load(f)["runs"]), 3, "the manifest plans every round")
            for bad in ("0", "4"):
                proc = self.sweep(d, "--round", bad)
                self.assertEqual(proc.returncode, 2)
                self.assertIn(f"--round takes 1 to --rounds (3), not {bad}", proc.stderr)


class SweepHeld(unittest.TestCase):
    """sweep.py --held: round 1 too runs unchecked with -digest (held to another plan's checked run by the
    report); with --no-check it is refused."""

    def test_a_held_plan_runs_unchecked_with_its_digest_and_says_so(self):
        exe = os.environ.get("AWAVE_EXE", os.path.join(TOP, "build", "host", "src", "awave"))
        with tempfile.TemporaryDirectory() as d:
            args = [sys.executable, os.path.join(TOP, "bench", "sweep.py"), "host", d, "--exe", exe, "--sizes", "12x10x5",
                    "--impls", "cpu-openmp", "--reference", "cpu", "--held"]
            proc = subprocess.run(args, capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="2"))
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            with open(os.path.join(d, "host_12x10x5.json")) as f:
                r = json.load(f)
            self.assertTrue(r["sweep"]["held"])
            self.assertIn("-no_check", r["sweep"]["command"].split())
            self.assertTrue(r["check_skipped_reason"].startswith("held: its digest is held"))
            self.assertTrue(all(i.get("digest") for i in r["implementations"]))
            with open(os.path.join(d, "manifest-host.json")) as f:
                self.assertEqual([(x["checked"], x["held"]) for x in json.load(f)["runs"]], [(False, True)])
            proc = subprocess.run(args + ["--no-check"], capture_output=True, text=True)
            self.assertEqual(proc.returncode, 2)
            self.assertIn("--held and --no-check", proc.stderr)


class SweepManifest(unittest.TestCase):
    """A folder's manifest keeps every run planned into it: a study in parts by size (1000^3 with fewer
    rounds) adds its runs; a size planned again replaces that size's runs, not the others'."""

    def plan(self, d, sizes, rounds, round_=1):
        exe = os.path.abspath(os.environ.get("AWAVE_EXE", os.path.join(TOP, "build", "host", "src", "awave")))
        # The triad a part reads, from a planted awave-devbench where sweep.py looks (build/NAME/bench, from d).
        devbench = os.path.join(d, "build", "host", "bench", "awave-devbench")
        os.makedirs(os.path.dirname(devbench), exist_ok=True)
        with open(devbench, "w") as f:
            f.write('#!/bin/sh\necho \'{"model": "host-openmp", "threads": 2, "triad_bandwidth_gb_s": 7}\'\n')
        os.chmod(devbench, 0o755)
        proc = subprocess.run([sys.executable, os.path.join(TOP, "bench", "sweep.py"), "host", "out", "--exe", exe,
                               "--sizes", sizes, "--impls", "cpu-openmp", "--reference", "cpu", "--rounds", str(rounds),
                               "--round", str(round_), "--no-check"],
                              capture_output=True, text=True, cwd=d, env=dict(os.environ, OMP_NUM_THREADS="2"))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        with open(os.path.join(d, "out", "manifest-host.json")) as f:
            return sorted(run["name"] for run in json.load(f)["runs"])

    def test_parts_by_size_add_up_and_a_size_planned_again_is_replaced(self):
        with tempfile.TemporaryDirectory() as d:
            self.plan(d, "12x10x5", 3)
            self.assertEqual(self.plan(d, "8x8x8", 2), ["host_12x10x5", "host_12x10x5.r2", "host_12x10x5.r3",
                                                        "host_8x8x8", "host_8x8x8.r2"])
            self.assertEqual(self.plan(d, "12x10x5", 1), ["host_12x10x5", "host_8x8x8", "host_8x8x8.r2"])

    def test_a_part_run_again_keeps_the_earlier_triad_readings(self):
        with tempfile.TemporaryDirectory() as d:
            for sizes, round_ in (("12x10x5", 1), ("12x10x5", 2), ("8x8x8", 1), ("8x8x8", 2)):
                self.plan(d, sizes, 2, round_)
            self.assertEqual(sorted(f for f in os.listdir(os.path.join(d, "out")) if f.startswith("devbench")),
                             ["devbench-host.2.json", "devbench-host.end.2.json", "devbench-host.end.json",
                              "devbench-host.json"])


class StudyOptions(unittest.TestCase):
    """bench/study.sh refuses a malformed OTHER_KOKKOS entry and a missing build in one line, exit 2."""

    def test_bad_other_kokkos_entries_are_refused(self):
        for value, words in (("cuda", "takes PRESET-SUFFIX=DIR items"), ("gpu-k46=build/x", "takes PRESET-SUFFIX=DIR"),
                             ("cuda-k46=/nonexistent", "no /nonexistent/src/awave")):
            with tempfile.TemporaryDirectory() as d:
                proc = subprocess.run(["bash", os.path.join(TOP, "bench", "study.sh"), d], capture_output=True, text=True,
                                      env=dict(os.environ, OTHER_KOKKOS=value))
                self.assertEqual(proc.returncode, 2, value)
                self.assertIn(words, proc.stderr)
                self.assertEqual(proc.stderr.count("\n"), 1, proc.stderr)
                self.assertEqual(os.listdir(d), [], "nothing written")
