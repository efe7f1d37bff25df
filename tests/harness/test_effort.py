"""Effort: lines of code (bench/count_loc.py) and code divergence (bench/code_divergence.py) from real preprocessor
runs over planted sources (the Jaccard distances worked out by hand), and the effort a study's page takes."""
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

from awave_bench.tools import code_divergence as cd
from tests.harness.modules import TOP
from tests.harness.study_fixture import StudyFixture, run_file


class EffortAtTheStudysCommit(StudyFixture):
    """Which effort files the page takes."""

    def test_effort_from_another_commit_is_left_out(self):
        loc = {"git_commit": "def", "parts": {"cuda": {"lines": 10}}}
        divergence = {"git_commit": "abc-dirty", "applications": {
            "Kokkos tuned": {"kernels": {"divergence": 0.1}, "program": {"divergence": 0.2}}}}
        text = self.first_page_text(loc, divergence)
        self.assertIn("| Kokkos tuned | 0.90 | 0.40 | 0.80 | 0.62 | n/a | n/a |", text)
        self.assertIn("No lines: counted at `def`, the study ran at `abc`.", text)
        self.assertIn("No divergence: counted at `abc-dirty`", text, "a dirty tree is not the study's commit")

    def test_effort_of_a_study_over_two_commits_names_the_one_it_was_counted_at(self):
        # The CUDA platform measured again at a later commit: the study has two.
        run_file(self.d, "cuda_512x512x512.json", "cuda", "NVIDIA H100",
                 {"cuda": 1e11, "kokkos-cuda": 0.9e11, "kokkos-cuda-mdrange": 0.8e11}, commit="xyz")
        loc = {"git_commit": "xyz", "parts": {"cuda": {"lines": 10}}}
        text = self.first_page_text(loc, None)
        self.assertIn("Built at commit `abc`; H100 CUDA at `xyz`. [Terms]", text)
        self.assertIn("Lines counted at `xyz`, one of the study's commits (`abc`, `xyz`)", text)
        self.assertNotIn("No lines", text)
        text = self.first_page_text(loc, {"git_commit": "xyz", "applications": {}})
        self.assertIn("Lines and divergence counted at `xyz`, one of the study's commits (`abc`, `xyz`)", text,
                      "one note where both files were made at the same commit")
        for made in ("def", "xyz-dirty"):
            text = self.first_page_text(dict(loc, git_commit=made), None)
            self.assertIn(f"No lines: counted at `{made}`, the study ran at `abc`, `xyz`.", text)

    def test_a_code_of_one_build_has_no_convergence(self):
        divergence = {"git_commit": "abc", "applications": {
            "Kokkos tuned": {"kernels": {"divergence": 0.1}, "program": {"divergence": 0.2}},
            "hand OpenMP offload": {"kernels": {"divergence": None}, "program": {"divergence": None},
                                    "why": "n/a: one build (build/openmptarget) for host, openmptarget"}}}
        text = self.first_page_text({"git_commit": "abc", "parts": {}}, divergence)
        self.assertIn("| Kokkos tuned | 0.90 | 0.40 | 0.80 | 0.62 | 0 | 0.90 (program 0.80) |", text)
        self.assertIn("| n/a: one build (build/openmptarget) for host, openmptarget |", text)
        self.assertIn("| hand OpenMP offload | 0 (does not run here) | 0.50 | 0 (refused) | 0.00 | 0 | n/a: one build", text)


class SweepLines(unittest.TestCase):
    """bench/count_loc.py counts a declaration to the brace that closes it, comments left out."""

    def test_a_declaration_to_its_closing_brace(self):
        from awave_bench.tools import count_loc
        text = ("int before() { return 0; }\n"
                "void sweep() {  // why\n"
                "  if (a) {\n"
                "    b();  // } in a comment\n"
                "  }\n"
                "}\n"
                "int after() { return 1; }\n")
        got = count_loc.declaration(text, r"void sweep\(\) \{")
        self.assertTrue(got.startswith("void sweep()") and got.endswith("  }\n}"), got)
        self.assertEqual(count_loc.code_lines(got), 5)
        with self.assertRaises(StopIteration):
            count_loc.declaration(text, r"void missing")

    def test_every_sweep_region_is_found(self):
        from awave_bench.tools import count_loc
        lines = count_loc.sweep_lines()
        self.assertEqual(set(lines), set(count_loc.SWEEP))
        for name, got in lines.items():
            self.assertGreater(got["lines"], 5, name)


class CodeDivergence(unittest.TestCase):
    """Two planted platforms compile one source with different macros; the surviving lines and the
    divergence are counted by hand."""

    def setUp(self):
        self.root = tempfile.mkdtemp()
        src = os.path.join(self.root, "src", "model")
        os.makedirs(src)
        with open(os.path.join(src, "kernel.hpp"), "w") as f:
            f.write("int shared_a;\n"      # 1: both
                    "#if defined(ON_GPU)\n"
                    "int gpu_only;\n"      # 3: gpu
                    "#else\n"
                    "int cpu_only;\n"      # 5: cpu
                    "#endif\n"
                    "int shared_b;\n")     # 7: both
        with open(os.path.join(src, "main.cpp"), "w") as f:
            f.write('#include "kernel.hpp"\n'
                    "int main() { return 0; }\n")  # 2: both
        for platform, flags in (("gpu", ["-DON_GPU"]), ("cpu", [])):
            build = os.path.join(self.root, "build-" + platform)
            os.makedirs(build)
            with open(os.path.join(build, "compile_commands.json"), "w") as f:
                json.dump([{"directory": build, "file": os.path.join(src, "main.cpp"),
                            "arguments": ["g++"] + flags + ["-o", "main.o", "-c", os.path.join(src, "main.cpp")]}], f)

    def tearDown(self):
        shutil.rmtree(self.root)

    def sets(self):
        return {p: {(f, n) for f, ns in cd.platform_lines(os.path.join(self.root, "build-" + p), self.root,
                                                         ["src/model/"]).items() for n in ns}
                for p in ("gpu", "cpu")}

    def test_surviving_lines_follow_the_preprocessor(self):
        s = self.sets()
        self.assertEqual(s["gpu"], {("src/model/kernel.hpp", 1), ("src/model/kernel.hpp", 3),
                                    ("src/model/kernel.hpp", 7), ("src/model/main.cpp", 2)})
        self.assertEqual(s["cpu"], {("src/model/kernel.hpp", 1), ("src/model/kernel.hpp", 5),
                                    ("src/model/kernel.hpp", 7), ("src/model/main.cpp", 2)})

    def test_divergence_is_the_mean_jaccard_distance(self):
        s = self.sets()
        # 3 lines in common of 5 in the union: distance 2/5; one pair of platforms.
        self.assertAlmostEqual(cd.divergence([s["gpu"], s["cpu"]]), 0.4)
        self.assertAlmostEqual(cd.divergence([s["gpu"], s["gpu"], s["cpu"]]), (0 + 0.4 + 0.4) / 3)
        self.assertEqual(cd.divergence([s["cpu"]]), 0.0)

    def test_the_command_line_writes_the_applications(self):
        out = os.path.join(self.root, "div.json")
        proc = subprocess.run([sys.executable, os.path.join(TOP, "bench", "code_divergence.py"), out,
                               "gpu=" + os.path.join(self.root, "missing")], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("compile_commands.json is missing", proc.stderr)


class CodeDivergenceEndToEnd(unittest.TestCase):
    """Two planted builds of a planted tree (an application folder, the shared core it includes,
    a driver in src/app/) through application_sets and summarise, as the study runs them; the
    surviving lines and both divergences worked out by hand in the comments."""

    def setUp(self):
        self.root = tempfile.mkdtemp()
        files = {
            "src/core/common.hpp": "int core_a;\n#ifdef ON_GPU\nint core_gpu;\n#endif\n",  # 1 both, 3 gpu
            "src/model/kernel.hpp": "int k_a;\n#ifdef ON_GPU\nint k_gpu;\n#else\nint k_cpu;\n#endif\nint k_b;\n",
            "src/model/main.cpp": '#include "../core/common.hpp"\n#include "kernel.hpp"\nint main() { return 0; }\n',
            "src/app/driver.cpp": "int driver_a;\n#ifndef ON_GPU\nint driver_cpu;\n#endif\n",  # 1 both, 3 cpu
        }
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(self.root, rel)), exist_ok=True)
            with open(os.path.join(self.root, rel), "w") as f:
                f.write(text)
        self.builds = {}
        for platform, flags in (("gpu", ["-DON_GPU"]), ("cpu", [])):
            build = os.path.join(self.root, "build-" + platform)
            os.makedirs(build)
            commands = [{"directory": build, "file": os.path.join(self.root, tu),
                         "arguments": ["g++"] + flags + ["-c", os.path.join(self.root, tu)]}
                        for tu in ("src/model/main.cpp", "src/app/driver.cpp")]
            with open(os.path.join(build, "compile_commands.json"), "w") as f:
                json.dump(commands, f)
            self.builds[platform] = build

    def tearDown(self):
        shutil.rmtree(self.root)

    def test_kernels_and_program_divergence_by_hand(self):
        sets = cd.application_sets(self.builds, root=self.root, applications={"model": {"*": ["src/model/main.cpp"]}})
        kernels = sets["model"]["kernels"]
        # gpu: kernel 1 3 7, main 3, core 1 3; cpu: kernel 1 5 7, main 3, core 1.
        self.assertEqual(kernels["gpu"], {("src/model/kernel.hpp", 1), ("src/model/kernel.hpp", 3),
                                          ("src/model/kernel.hpp", 7), ("src/model/main.cpp", 3),
                                          ("src/core/common.hpp", 1), ("src/core/common.hpp", 3)})
        self.assertEqual(len(kernels["cpu"]), 5)
        summary = cd.summarise(sets)["model"]
        # Kernels: 4 lines in common of 7: 3/7. Program: the driver's line 1 on both and its line 3
        # on the CPU added: 5 in common of 9: 4/9.
        self.assertAlmostEqual(summary["kernels"]["divergence"], 3 / 7)
        self.assertEqual(summary["kernels"]["lines"], {"gpu": 6, "cpu": 5})
        self.assertAlmostEqual(summary["program"]["divergence"], 4 / 9)
        self.assertEqual(summary["program"]["lines"], {"gpu": 7, "cpu": 7})

    def test_a_platform_the_application_does_not_build_is_left_out(self):
        sets = cd.application_sets(self.builds, root=self.root,
                                   applications={"gpu only": {"gpu": ["src/model/main.cpp"]}})
        self.assertEqual(set(sets["gpu only"]["kernels"]), {"gpu"})
        summary = cd.summarise(sets)["gpu only"]
        self.assertIsNone(summary["kernels"]["divergence"], "one platform: no divergence to measure, not 0")
        self.assertIsNone(summary["program"]["divergence"])
        self.assertIn("n/a: one build", summary["why"])

    def test_two_platforms_of_one_build_have_no_divergence(self):
        # As hand OpenMP offload on the CPU: the cpu platform compiles the gpu platform's build.
        sets = cd.application_sets(self.builds, root=self.root,
                                   applications={"shared": {"gpu": ["src/model/main.cpp"],
                                                            "cpu": ("gpu", ["src/model/main.cpp"])}})
        self.assertEqual(set(sets["shared"]["kernels"]), {"gpu", "cpu"})
        summary = cd.summarise(sets)["shared"]
        self.assertIsNone(summary["kernels"]["divergence"], "the same build twice would read as divergence 0")
        self.assertEqual(summary["why"], f"n/a: one build ({self.builds['gpu']}) for cpu, gpu")

    def test_a_missing_compiler_is_one_line_and_no_file(self):
        # As on a GPU machine, which has the binaries but not the builds' compilers.
        for build in self.builds.values():
            path = os.path.join(build, "compile_commands.json")
            with open(path) as f:
                commands = json.load(f)
            for c in commands:
                c["arguments"][0] = "/nonexistent/nvcc_wrapper"
            with open(path, "w") as f:
                json.dump(commands, f)
        with self.assertRaises(cd.CompilerMissing):
            cd.application_sets(self.builds, root=self.root, applications={"model": {"*": ["src/model/main.cpp"]}})
        out = os.path.join(self.root, "divergence.json")
        err = io.StringIO()
        with mock.patch.object(cd, "application_sets", lambda builds: cd.tu_lines(
                {"directory": self.root, "file": "x.cpp", "arguments": ["/nonexistent/nvcc_wrapper", "-c", "x.cpp"]},
                self.root)), contextlib.redirect_stderr(err):
            rc = cd.main([out] + [f"{p}={b}" for p, b in self.builds.items()])
        self.assertEqual(rc, 1)
        self.assertEqual(err.getvalue().strip(), "code_divergence: /nonexistent/nvcc_wrapper is not on this machine: "
                                                 "no divergence measured here")
        self.assertFalse(os.path.exists(out))
