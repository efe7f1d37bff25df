"""The report from the committed results (same files, same bytes; its sections in order, its first page
complete), its sections on planted runs, and the README's rates held to the study."""
import filecmp
import json
import os
import re
import shutil
import tempfile
import unittest
from unittest import mock

from awave_bench.experiments import registry
from awave_bench.experiments.registry import DEFAULT_STUDY
from awave_bench.metrics import verdicts
from awave_bench.render import page, report, screen as fs
from awave_bench.runs import study
from awave_bench.tools import readme_rates
from tests.harness.modules import TOP
from tests.harness.study_fixture import run_file


class Report(unittest.TestCase):
    """bench/report.py on the committed results (the current study and the product's sections)."""

    def test_same_files_same_report_in_order_and_its_first_page_complete(self):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            report.generate(a)
            report.generate(b)
            names = sorted(os.listdir(a))
            self.assertEqual(names, sorted(os.listdir(b)))
            match, mismatch, errors = filecmp.cmpfiles(a, b, names, shallow=False)
            self.assertEqual(mismatch + errors, [])
            with open(os.path.join(a, "report.md")) as f:
                text = f.read()
        with open(os.path.join(TOP, "bench", "report", "report.md")) as f:
            self.assertEqual(f.read(), text, "the committed report is stale: run python3 bench/report.py")
        self.assertEqual(page.first_page_problems(text), [])
        loc, _ = study.effort_files(DEFAULT_STUDY)
        self.assertEqual(fs.problems(text, DEFAULT_STUDY, loc), [], "the first screen, against the study")
        numbered = [int(m) for m in re.findall(r"^## (\d+)\. ", text, re.M)]
        self.assertEqual(numbered, list(range(1, len(numbered) + 1)), "sections in order, none missing")
        # Every document and results path the report names is in the repository (as given, from the
        # report's folder, from bench/ or from the top).
        named = set(re.findall(r"[\w./-]+\.md\b", text)) | set(re.findall(r"`((?:bench/)?results/[\w./-]+)`", text))
        for path in named:
            self.assertTrue(any(os.path.exists(os.path.join(base, path)) for base in
                                (os.path.join(TOP, "bench", "report"), os.path.join(TOP, "bench"), TOP)), path)
        for png in re.findall(r"\]\(([\w.]+\.png)\)", text):
            self.assertIn(png, names, "every plot the report shows is made with it")


class ProductSections(unittest.TestCase):
    """Section 3's tables on planted runs: the cost of exact floating point, and the bitwise runs' rows."""

    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.d)

    def plant(self, name, exact, impls, shape=(512, 512, 512), nsteps=10):
        with open(os.path.join(self.d, name), "w") as f:
            json.dump({"params": {"shape": list(shape), "nsteps": nsteps},
                       "build": {"name": "cuda", "exact_fp": exact, "accelerator": "NVIDIA H100 80GB HBM3, 79.2 GiB"},
                       "implementations": impls}, f)

    def test_the_tie_rule_of_two_sets_of_runs(self):
        self.assertFalse(verdicts.ranges_tie([1.0, 2.0], [2.5, 3.0]))
        self.assertFalse(verdicts.ranges_tie([3.0], [1.0, 2.0]), "either way round")
        self.assertTrue(verdicts.ranges_tie([1.0, 2.0], [1.5, 3.0]))

    def test_exact_fp_costs_a_ratio_of_medians_a_tie_where_the_rounds_overlap(self):
        from awave_bench.render import bitwise_section as bitwise
        # cuda: exact 1.10-1.12 against 1.00-1.02, apart; kokkos-cuda: 0.99-1.03 against 1.00-1.02, a tie
        for r, (c_exact, c_contract, k_exact) in enumerate(((1.10, 1.00, 1.00), (1.12, 1.01, 1.03), (1.11, 1.02, 0.99))):
            for exact, c in ((True, c_exact), (False, c_contract)):
                self.plant(f"cost_cuda-{exact}_512_r{r}.json", exact,
                           [{"id": "cuda", "median_su_per_s": c * 1e11},
                            {"id": "kokkos-cuda", "median_su_per_s": (k_exact if exact else 1.0 + r / 100) * 1e11}])
        lines = []
        bitwise.fp_cost(lines.append, [self.d])
        text = "\n".join(lines)
        self.assertIn("| NVIDIA H100 80GB HBM3 | cuda | 1.099 |", text, "1.11 / 1.01")
        self.assertIn("| NVIDIA H100 80GB HBM3 | kokkos-cuda | 0.990 tie |", text, "1.00 / 1.01, the ranges overlapping")

    def test_codes_of_one_outcome_share_a_row_and_a_failure_keeps_its_own(self):
        from awave_bench.render import bitwise_section as bitwise
        for exact, differences in ((True, 0), (False, 7)):
            self.plant(f"long_cuda-{exact}.json", exact, [
                {"id": i, "checked": True, "bitwise": d == 0, "bitwise_differences": d, "differences": d,
                 "max_relative_difference": 1e-6 if d else 0} for i, d in
                (("cuda", differences), ("kokkos-cuda", differences), ("kokkos-cuda-mdrange", 0))])
        lines = []
        bitwise.bitwise_section(lines.append, 3, [self.d], [])
        text = "\n".join(lines)
        self.assertIn("| 512x512x512 x 10 steps | cuda | cuda, kokkos-cuda | bitwise; PASS | **not bitwise**: 7 points, "
                      "largest relative difference 1e-06; **FAIL** (7) |", text)
        self.assertIn("| 512x512x512 x 10 steps | cuda | kokkos-cuda-mdrange | bitwise; PASS | bitwise; PASS |", text)


class StudyEnergy(unittest.TestCase):
    """A study's report gives its GPU builds' energy (bench/study.sh runs energy.sh into STUDY/energy-PRESET)."""

    def test_a_studys_energy_folder_makes_its_section(self):
        results = os.path.join(TOP, "bench", "results")
        with tempfile.TemporaryDirectory() as d:
            study = os.path.join(d, "study")
            shutil.copytree(os.path.join(results, "h200-2026-11-26", "study-9295f57"), study)
            report.generate_study([study], os.path.join(d, "without"))
            shutil.copytree(os.path.join(results, "h200-2026-11-27", "energy-cb46677"), os.path.join(study, "energy-cuda"))
            report.generate_study([study], os.path.join(d, "with"))
            with open(os.path.join(d, "without", "report.md")) as f:
                self.assertNotIn("Energy a site update", f.read())
            with open(os.path.join(d, "with", "report.md")) as f:
                text = f.read()
            self.assertIn("## 2. Energy a site update on the GPUs", text)
            self.assertIn("| 512^3 | cuda | sweep of 3 | 3.17e-09", text)


class ReadmeRates(unittest.TestCase):
    """The README's status table gives the report's study's rates (bench/readme_rates.py), checked
    on the committed README; a planted wrong number and a lost row are caught."""

    def test_the_readme_gives_the_triads_limits_and_a_wrong_one_is_caught(self):
        with open(os.path.join(TOP, "README.md")) as f:
            text = f.read()
        self.assertEqual(readme_rates.limit_problems(text), [])
        line = next(ln for ln in text.splitlines() if ln.startswith(readme_rates.LIMITS))
        h200 = re.search(r"(\S+) on the H200", line).group(1)
        planted = text.replace(f"{h200} on the H200", "9.99e11 on the H200")
        self.assertEqual(readme_rates.limit_problems(planted),
                         [f"the H200's single-step limit: 9.99e11 where its triad gives {h200}"])
        self.assertEqual(len(readme_rates.limit_problems(text.replace(readme_rates.LIMITS, "Limits: "))), 1)
        # one in the last digit: the README once said 1.74e11 where the triad gave 1.73e11 (a check within 5% passed it)
        mantissa, exponent = h200.split("e")
        near = f"{float(mantissa) + 0.01:.2f}e{exponent}"
        self.assertEqual(readme_rates.limit_problems(text.replace(f"{h200} on the H200", f"{near} on the H200")),
                         [f"the H200's single-step limit: {near} where its triad gives {h200}"])

    def test_the_readme_gives_the_studys_rates_and_a_wrong_one_is_caught(self):
        with open(os.path.join(TOP, "README.md")) as f:
            text = f.read()
        self.assertEqual(readme_rates.problems(text), [], "run python3 bench/readme_rates.py and copy its cells")
        cell = readme_rates.cells()["kokkos-cuda"]
        self.assertIn(cell, text)
        wrong = text.replace(cell, cell.replace("(0.93)", "(0.94)"))
        self.assertEqual(readme_rates.problems(wrong),
                         [f"kokkos-cuda: {cell.replace('(0.93)', '(0.94)')!r} where the study gives {cell!r}"])
        row = next(line for line in text.splitlines() if line.startswith("| `omp` |"))
        self.assertEqual(readme_rates.problems(text.replace(row + "\n", "")), ["omp: no row"])


class ExperimentRegistry(unittest.TestCase):
    """An experiment reaches the report through its folder and one registry entry (experiments.registry.PRODUCT):
    planted here, a folder of two run files and an entry naming it, the report gets its section, its row of commits
    and its place in the page's guide; an entry whose section has no renderer is refused by name."""

    def test_a_folder_and_one_entry_make_a_section(self):
        with tempfile.TemporaryDirectory() as d:
            runs = os.path.join(d, "planted-experiment")
            os.makedirs(runs)
            for r, su in ((1, 1e9), (2, 3e9)):
                run_file(runs, f"host_512x512x512.r{r}.json", "host", None, {"cpu-openmp": su}, commit="def4567abc")
            entry = {"name": "Planted experiment", "said": "a planted experiment", "section": "runs",
                     "folders": [runs]}
            with mock.patch.object(registry, "PRODUCT", registry.PRODUCT + (entry,)):
                report.generate(os.path.join(d, "report"))
            with open(os.path.join(d, "report", "report.md")) as f:
                text = f.read()
        number = len(registry.PRODUCT) + 2
        self.assertIn(f"{number}. a planted experiment; provenance.", text)
        self.assertIn(f"| {number}. Planted experiment | `def4567` |", text)
        section = text[text.index(f"## {number}. Planted experiment\n"):text.index("## Provenance")]
        self.assertIn("| 512x512x512 | cpu-openmp | 2.00e+09 | [1.00e+09, 3.00e+09] | 2 | 2 of 2 |", section)

    def test_an_entry_without_a_renderer_is_refused(self):
        entry = {"name": "Planted", "said": "planted", "section": "no-such-section", "folders": []}
        with tempfile.TemporaryDirectory() as d, mock.patch.object(registry, "PRODUCT", (entry,)):
            with self.assertRaisesRegex(ValueError, "Planted: no renderer of that section"):
                report.generate(d)
