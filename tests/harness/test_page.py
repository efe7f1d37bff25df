"""The first page and its evidence (awave_bench.render.page, .evidence) on the planted study, and the check
ctest runs on bench/study.sh's report."""
import os
import unittest

from awave_bench.render import page, screen as fs
from awave_bench.runs import study
from tests.harness.study_fixture import StudyFixture, run_file


class FirstPage(StudyFixture):
    """The first page of the planted study and its evidence."""

    def test_the_first_page_has_its_table_and_recommendation(self):
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        lines = []
        loc = {"git_commit": "abc", "parts": {k: {"lines": 10} for k in (
            "cpu-openmp", "cuda", "omp", "register march", "march tiles", "kokkos shared", "kokkos idiomatic",
            "kokkos tuned")}}
        page.first_page(lines.append, plt, [self.d], loc, None, self.d)
        text = "\n".join(lines)
        self.assertIn("No divergence: the builds' compilers were not on the study's machine", text)
        self.assertIn("| application | H100 CUDA | H100 OpenMP offload | CPU (16 cores) | PP | lines | convergence |",
                      text)
        self.assertIn("| Kokkos tuned | 0.90 | 0.40 | 0.80 | 0.62 | 50 |", text)
        # (b): against each platform's fastest cell (CUDA: hand CUDA 1e11; offload: omp 0.5e11; CPU: Kokkos 0.8e10)
        self.assertIn("| Kokkos tuned | 0.90 | 0.80 | 1.00 | 0.89 | 50 |", text)
        self.assertIn("| hand-written | 1.00 | 1.00 | 0.62 | 0.83 | 50 |", text)
        for part in ("### (a) The same algorithm", "### (b) The best each model", "**Recommendation (a).**",
                     "**Recommendation (b).**", "OpenMPTarget backend in 5.1"):
            self.assertIn(part, text)
        self.assertLess(text.index("**Recommendation (a).**"), text.index("### (b)"), "each question's own")
        for plot in ("cascade_512.png", "cascade_best_512.png"):
            self.assertTrue(os.path.exists(os.path.join(self.d, plot)), plot)

    def test_the_evidence_tables_take_the_median_of_the_rounds_and_hold_rounds_by_digest(self):
        from awave_bench.render import evidence as study_evidence
        # Three rounds of the CUDA run: the ladder's rungs are their medians, not round 1's.
        for name, k, checked in (("cuda_512x512x512.json", 1.0, True), ("cuda_512x512x512.r2.json", 1.2, False),
                                 ("cuda_512x512x512.r3.json", 1.1, False)):
            run_file(self.d, name, "cuda", "NVIDIA H100", {"cuda": k * 1e11, "kokkos-cuda": k * 0.9e11,
                                                             "kokkos-cuda-mdrange": k * 0.8e11},
                     checked=checked, digest="d1", reference="cuda" if checked else None)
        # A 4.6.01 build's plan held by digest (sweep.py --held) to the default plan's check: no † mark.
        for name, k in (("cuda-k46_512x512x512.json", 1.0), ("cuda-k46_512x512x512.r2.json", 3.0),
                        ("cuda-k46_512x512x512.r3.json", 2.0)):
            run_file(self.d, name, "cuda-k46", "NVIDIA H100", {"kokkos-cuda": k * 1e11, "kokkos-cuda-mdrange": 0.5e11},
                     checked=False, digest="d1", held=True, kokkos_version="4.6.1")
        rounds = study.load_study([self.d])[0]
        lines = []
        study_evidence.effort_ladder(lines.append, rounds, None, ["512x512x512"])
        # the rungs as fractions of hand CUDA's median (1.1e11, not round 1's 1e11), which the last column gives
        self.assertIn("| CUDA | H100 | 3.4.01 | — | — | 0.80 | 0.90 | 1.1e+11 |", "\n".join(lines))
        lines = []
        study_evidence.kokkos_versions(lines.append, rounds, ["512x512x512"])
        self.assertIn("| H100 | `kokkos-cuda` | 1.82 / 0.90 | `abc` |", "\n".join(lines), "median 2e11 over hand's 1.1e11")
        # A held round whose digest differs fails its check.
        run_file(self.d, "cuda-k46_512x512x512.r3.json", "cuda-k46", "NVIDIA H100",
                 {"kokkos-cuda": 2e11, "kokkos-cuda-mdrange": 0.5e11}, checked=False, digest="d2", held=True,
                 kokkos_version="4.6.1")
        lines = []
        study_evidence.kokkos_versions(lines.append, study.load_study([self.d])[0], ["512x512x512"])
        self.assertIn("| H100 | `kokkos-cuda` | 0 (fails its check) / 0.90 |", "\n".join(lines))

    def test_what_the_sweep_gives_is_a_ratio_of_medians_whose_range_tells_a_tie(self):
        from awave_bench.render import evidence as study_evidence
        for r, k in enumerate((1.0, 1.1, 0.9), 1):  # three rounds of each plan
            suffix = "" if r == 1 else f".r{r}"
            run_file(self.d, f"cuda_512x512x512{suffix}.json", "cuda", "NVIDIA H100",
                     {"cuda": k * 1.5e11, "kokkos-cuda": k * 1e11, "kokkos-cuda-mdrange": 0.8e11},
                     sweeps=("cuda", "kokkos-cuda"))
            run_file(self.d, f"cuda-single-steps_512x512x512{suffix}.json", "cuda", "NVIDIA H100",
                     {"cuda": k * 1e11, "kokkos-cuda": k * 0.95e11}, label="single-steps")
        lines = []
        study_evidence.sweep_gain(lines.append, study.load_study([self.d])[0], ["512x512x512"])
        text = "\n".join(lines)
        # hand CUDA: 1.5 x, its slowest sweep (1.35e11) over the fastest single step (1.1e11) to 1.65 / 0.9: apart
        self.assertIn("| H100 CUDA | cuda | 1.50 [1.23, 1.83] |", text)
        # Kokkos: 1.05 x, 0.9e11 / 1.045e11 to 1.1e11 / 0.855e11: the range holds 1, a tie
        self.assertIn("| H100 CUDA | kokkos-cuda | 1.05 [0.86, 1.29] tie |", text)
        self.assertNotIn("OpenMP offload |", text, "a platform where no code sweeps has no row")

    def test_a_build_against_another_kokkos_gets_its_own_column(self):
        run_file(self.d, "cuda-k46_512x512x512.json", "cuda-k46", "NVIDIA H100",
                 {"kokkos-cuda": 0.95e11, "kokkos-cuda-mdrange": 0.85e11}, kokkos_version="4.6.1")
        text = self.first_page_text(None, None)
        screen = text[:text.index(fs.SCREEN_END)]
        self.assertIn("| hand-written | Kokkos tuned (3.4.01) | Kokkos tuned (4.6.01) | Kokkos idiomatic (4.6.01) | choose |",
                      screen, "tuned under each Kokkos, idiomatic under the newest")
        self.assertIn("| NVIDIA GPUs, CUDA (x): H100, 512^3 | 1.00 | 0.90 | 0.95 | 0.85 |", screen)
        self.assertIn("| NVIDIA GPUs, OpenMP offload (x): H100, 512^3 | 1.00 | 0.80 | — | — |", screen, "not measured")
        self.assertEqual(fs.problems(text, [self.d]), [])
        from awave_bench.render import evidence as study_evidence  # the evidence's table of both versions: the host preset's codes too
        run_file(self.d, "host-k46_512x512x512.json", "host-k46", None,
                 {"kokkos-openmp": 0.4e10, "kokkos-openmp-mdrange": 0.3e10}, kokkos_version="4.6.1")
        lines = []
        study_evidence.kokkos_versions(lines.append, study.load_study([self.d])[0], ["512x512x512"])
        self.assertIn("| CPU (16 cores) | `kokkos-openmp` | 0.80 / 1.60 |", "\n".join(lines))
        os.remove(os.path.join(self.d, "host-k46_512x512x512.json"))
        # The faster build against another Kokkos is the platform's fastest code.
        run_file(self.d, "cuda-k46_512x512x512.json", "cuda-k46", "NVIDIA H100",
                 {"kokkos-cuda": 2e11, "kokkos-cuda-mdrange": 0.85e11}, kokkos_version="4.6.1")
        screen = self.first_page_text(None, None)
        self.assertIn("| NVIDIA GPUs, CUDA (x): H100, 512^3 | 0.50 | 0.45 | 1.00 | 0.42 |", screen)

    def test_what_the_run_files_cannot_show_lands_where_it_belongs(self):
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        run_file(self.d, "cuda_512x512x512.json", "cuda", "NVIDIA H100", {"cuda": 1e11, "kokkos-cuda": 0.9e11})
        lines = []
        page.first_page(lines.append, plt, [self.d], None, None, self.d,
                      [("commits", "The GPU code of `def`"), ("under five", "planned so"), ("noise", "A line.")])
        screen = "\n".join(lines)
        screen = screen[:screen.index(fs.SCREEN_END)]
        self.assertIn("- Built at commit `abc`. The GPU code of `def`. [Terms](#terms).", screen)
        self.assertRegex(screen, r"Fewer than five: H100 at 512\^3[^\n]* \(planned so\)\.")
        self.assertIn("- A line.", screen)
        self.assertEqual(screen.count("The GPU code of `def`"), 1, "said once, after the commits")

    def test_the_cpu_binding_is_said_and_the_unbound_runs_compared(self):
        text = self.first_page_text(None, None)
        self.assertIn("CPU cells: the runs do not record their threads' binding", text)
        self.assertIn("the unbound runs are not in this study", text)
        run_file(self.d, "host_512x512x512.json", "host", None,
                 {"cpu-openmp": 0.5e10, "kokkos-openmp": 0.8e10, "kokkos-openmp-mdrange": 0.6e10},
                 binding={"OMP_PROC_BIND": "spread"})
        run_file(self.d, "host-unbound_512x512x512.json", "host", None,
                 {"cpu-openmp": 0.4e10, "kokkos-openmp": 0.4e10, "kokkos-openmp-mdrange": 0.6e10},
                 label="unbound", env={"OMP_PROC_BIND": "false"})
        text = self.first_page_text(None, None)
        self.assertIn("CPU cells: the runs' OMP_PROC_BIND=spread (the README recommends spread); with "
                      "OMP_PROC_BIND=false (label unbound, the same rounds) each code ran at these times its bound median: "
                      "CPU (16 cores) at 512^3: hand-written 0.80, Kokkos idiomatic 1.00, Kokkos tuned 0.50.", text)
        self.assertIn("| Kokkos tuned | 0.90 | 0.40 | 0.80 |", text, "the first page's cells are the bound runs")
        # A second size every platform measured, without unbound runs: the ratios say their size, once.
        for build, gpu, impls in (("cuda", "NVIDIA H100", {"cuda": 1e11, "kokkos-cuda": 0.9e11, "kokkos-cuda-mdrange": 0.8e11}),
                                  ("openmptarget", "NVIDIA H100", {"omp": 0.5e11, "kokkos-openmptarget": 0.4e11,
                                                                   "kokkos-openmptarget-mdrange": 0.25e11}),
                                  ("host", None, {"cpu-openmp": 0.5e10, "kokkos-openmp": 0.8e10, "kokkos-openmp-mdrange": 0.6e10})):
            run_file(self.d, f"{build}_1000x1000x1000.json", build, gpu, impls, shape=(1000, 1000, 1000),
                     binding={"OMP_PROC_BIND": "spread"} if build == "host" else None)
        text = self.first_page_text(None, None)
        self.assertIn("its bound median: CPU (16 cores) at 512^3: hand-written 0.80, Kokkos idiomatic 1.00, Kokkos tuned "
                      "0.50.", text)


class FirstPageCheck(unittest.TestCase):
    """The check ctest runs on bench/study.sh's report (bench.study_report_first_page): it names what
    a first page lacks (planted)."""

    PAGE = ("# r\n## Which programming model? The answer on one page\n**In brief** x\n### (a) The same algorithm x\n"
            "![cascade 1](c.png)\n"
            "| application | A | PP | lines | convergence |\n**Recommendation (a).** x\n### (b) The best each model x\n"
            "Kokkos removed its OpenMPTarget backend in 5.1\n## Evidence\n")

    def test_a_complete_page_passes(self):
        self.assertEqual(page.first_page_problems(self.PAGE), [])

    def test_each_missing_part_is_named(self):
        self.assertEqual(page.first_page_problems(self.PAGE.replace("**Recommendation (a).**", "")), ["**Recommendation"])
        self.assertEqual(page.first_page_problems(self.PAGE.replace("### (b) The best each model x\n", "")),
                         ["### (b) The best each model"], "one question's part missing")
        self.assertEqual(page.first_page_problems(self.PAGE.replace("![cascade 1](c.png)", "")), ["![cascade"])
        # a table after the first page does not count
        moved = self.PAGE.replace("| application | A | PP | lines | convergence |\n", "") + "| application | PP | lines | convergence |\n"
        self.assertIn("| application |", page.first_page_problems(moved))
        self.assertEqual(page.first_page_problems("# nothing\n"), ["## Which programming model? The answer on one page"])
