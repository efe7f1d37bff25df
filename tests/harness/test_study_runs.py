"""A study's table of runs (awave_bench.runs.study) on planted run files: platforms and machines, CPU models,
rounds, sizes, cells and the census of planned runs."""
import json
import os
import shutil
import tempfile
import unittest

from awave_bench.metrics import pp, verdicts
from awave_bench.render import page, screen as fs
from awave_bench.runs import screen_cells, study
from tests.harness.study_fixture import StudyFixture, run_file


class StudyTable(StudyFixture):
    """Platforms, machines and cells of the planted study."""

    def test_one_cpu_model_on_two_machines_is_one_platform_its_runs_pooled(self):
        other = tempfile.mkdtemp()
        os.remove(os.path.join(self.d, "openmptarget-offload-disabled_512x512x512.json"))  # a CPU of no name
        try:
            for d, gpu, bw, su in ((self.d, "NVIDIA H100", 240, 0.8e10), (other, "NVIDIA H200", 480, 0.4e10)):
                with open(os.path.join(d, "devbench-host.json"), "w") as f:
                    json.dump({"model": "host-openmp", "triad_bandwidth_gb_s": bw, "threads": 16,
                               "machine_gpu": {"name": gpu}}, f)
                for r in ("", ".r2"):
                    run_file(d, f"host_512x512x512{r}.json", "host", None,
                             {"cpu-openmp": 0.5e10, "kokkos-openmp": su, "kokkos-openmp-mdrange": 0.6e10},
                             machine_gpu=gpu, cpu_name="Intel(R) Xeon(R) Processor")
            runs, triads, cpus = study.load_study([self.d, other])
            plats = study.platforms_of(runs)
            self.assertEqual([study.platform_name(p) for p in plats if p[1] == "host"], ["CPU (16-core Xeon)"])
            self.assertEqual(cpus, {"CPU (16-core Xeon)": "Intel(R) Xeon(R) Processor"})
            self.assertEqual(triads["CPU (16-core Xeon)"][0], 480, "the best reading of either machine")
            self.assertEqual(sorted(triads["CPU (16-core Xeon)"][2]), [240, 480])
            cpu = next(p for p in plats if p[1] == "host")
            self.assertEqual(study.su_samples(runs, cpu, "Kokkos tuned", "512x512x512", "best")[0], [0.6e10] * 3,
                             "both machines' rounds, one cell, each machine weighted alike")
            self.assertEqual(study.interleaving(runs), "interleaved", "each machine's rounds on their own")
            # The provenance names both machines' folders of the pooled platform.
            import matplotlib.pyplot as plt
            from awave_bench.catalog.paths import BENCH as HERE
            from awave_bench.render.provenance_section import provenance_section
            text = []
            provenance_section(text.append, page.first_page([].append, plt, [self.d, other], None, None, other), None, None)
            for d in (self.d, other):
                self.assertIn(f"| `{os.path.relpath(d, os.path.dirname(HERE))}` | CPU (16-core Xeon) |", "\n".join(text))
        finally:
            shutil.rmtree(other)

    def test_two_machines_of_one_cpu_that_differ_by_1_2x_weigh_alike(self):
        """Issue 80: the pooled Xeon was two machines 1.08-1.23 x apart, and a code with fewer runs on the fast one
        lost to one it beat on each machine. Planted: machine A 1.2 x machine B; hand-written ahead on each; its
        round 1 on A took single steps (so its sweep has 2 runs there, 3 on B), as a checked reference's does."""
        other = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, other)
        os.remove(os.path.join(self.d, "openmptarget-offload-disabled_512x512x512.json"))  # a CPU of no name
        plan = ((self.d, "NVIDIA H100", 1.2, (0.5, 1.21, 1.22), (1.17, 1.18, 1.19)),
                (other, "NVIDIA H200", 1.0, (1.00, 1.01, 1.02), (0.97, 0.98, 0.99)))
        for d, gpu, k, hand, kokkos in plan:
            with open(os.path.join(d, "devbench-host.json"), "w") as f:
                json.dump({"model": "host-openmp", "triad_bandwidth_gb_s": 240 * k, "threads": 16,
                           "machine_gpu": {"name": gpu}}, f)
            for r, (h, kk) in enumerate(zip(hand, kokkos), 1):
                sweeps = ("cpu-openmp", "kokkos-openmp") if h > 0.6 else ("kokkos-openmp",)
                run_file(d, f"host_512x512x512{'.r%d' % r if r > 1 else ''}.json", "host", None,
                         {"cpu-openmp": h * 1e10, "kokkos-openmp": kk * 1e10, "kokkos-openmp-mdrange": 0.5e10},
                         machine_gpu=gpu, cpu_name="Intel(R) Xeon(R) Processor", sweeps=sweeps)
        runs, _, _ = study.load_study([self.d, other])
        cpu = next(p for p in study.platforms_of(runs) if p[1] == "host")
        import statistics
        by_machine = screen_cells.screen_samples(runs, cpu, "hand-written", None, "512x512x512", "best", by_machine=True)
        self.assertEqual(sorted(map(len, by_machine.values())), [2, 3], "the single-step round left out of (b)")
        pooled = sorted(su for v in by_machine.values() for su in v)
        hand = statistics.median(screen_cells.screen_samples(runs, cpu, "hand-written", None, "512x512x512", "best"))
        kokkos = statistics.median(screen_cells.screen_samples(runs, cpu, "Kokkos tuned", None, "512x512x512", "best"))
        self.assertLess(statistics.median(pooled), kokkos, "pooled, hand-written would trail (1.02 against 1.08)")
        self.assertAlmostEqual(hand, (1.215e10 + 1.01e10) / 2, delta=1e3, msg="each machine's median, then the mean")
        self.assertAlmostEqual(kokkos, (1.18e10 + 0.98e10) / 2, delta=1e3)
        self.assertGreater(hand, kokkos, "ahead on each machine, ahead on the platform")
        samples = screen_cells.screen_samples(runs, cpu, "Kokkos tuned", None, "512x512x512", "best")
        self.assertAlmostEqual(min(samples), (1.17e10 + 0.97e10) / 2, delta=1e3, msg="the mean of the slowest runs")
        self.assertAlmostEqual(max(samples), (1.19e10 + 0.99e10) / 2, delta=1e3, msg="the mean of the fastest runs")
        low, high, between, within = screen_cells.machine_spread(runs, cpu, ["512x512x512"])
        self.assertEqual((low, high), (2, 2))
        self.assertAlmostEqual(between, 1.18 / 0.98, places=4, msg="Kokkos tuned's machines differ most")
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        text = []
        page.first_page(text.append, plt, [self.d, other], None, None, other)
        screen = "\n".join(text)
        screen = screen[:screen.index(fs.SCREEN_END)]
        self.assertIn("16-core Xeon 2 + 3 or 3 + 3", screen, "the runs a cell on each machine")
        self.assertIn("16-core Xeon 2 + 3 or 3 + 3 (2 machines weighted alike: medians up to 1.20 x apart", screen)
        self.assertRegex(screen, r"\| x86 CPUs \(x\): 16-core Xeon, 512\^3 \| 1\.00 \[[^|]*\] \| 0\.97 ",
                         "hand-written the fastest code, Kokkos 1.08 / 1.1125 of it")

    def test_machines_alike_averages_the_machines_quantiles(self):
        self.assertEqual(study.machines_alike([[3.0, 1.0, 2.0]]), [3.0, 1.0, 2.0], "one machine: as it is")
        self.assertEqual(study.machines_alike([[1.0, 2.0, 3.0], [5.0, 6.0, 7.0]]), [3.0, 4.0, 5.0])
        self.assertEqual(study.machines_alike([[2.0], [4.0]]), [3.0])
        # five runs on one machine, two on the other: the median is the mean of the two medians, not the pool's
        merged = study.machines_alike([[10.0, 11.0, 12.0, 13.0, 14.0], [1.0, 3.0]])
        self.assertEqual(len(merged), 5)
        self.assertEqual(sorted(merged), merged)
        self.assertAlmostEqual(merged[2], (12.0 + 2.0) / 2)
        self.assertEqual((merged[0], merged[-1]), ((10.0 + 1.0) / 2, (14.0 + 3.0) / 2))
        merged = study.machines_alike([[1.0, 2.0, 3.0, 4.0], [10.0, 20.0, 30.0, 40.0]])  # even counts: made odd
        self.assertEqual(len(merged), 5)
        self.assertAlmostEqual(merged[2], (2.5 + 25.0) / 2)

    def test_cpu_models_in_a_word(self):
        self.assertEqual(study.cpu_model("Intel(R) Xeon(R) Processor"), "Xeon")
        self.assertEqual(study.cpu_model("AMD EPYC 7763 64-Core Processor"), "EPYC 7763")
        self.assertEqual(study.cpu_hardware(16, None), "CPU (16 cores)")

    def test_rounds_interleaved_or_back_to_back_by_their_dates(self):
        def rounds(dates_a, dates_b):
            d = tempfile.mkdtemp()
            try:
                for name, dates in (("cuda", dates_a), ("cuda-single-steps", dates_b)):
                    for k, date in enumerate(dates, start=1):
                        path = f"{name}_512x512x512{'.r%d' % k if k > 1 else ''}.json"
                        run_file(d, path, "cuda", "NVIDIA H100", {"cuda": 1e11},
                                 label="single-steps" if "single" in name else "")
                        with open(os.path.join(d, path)) as f:
                            r = json.load(f)
                        r["date"] = date
                        with open(os.path.join(d, path), "w") as f:
                            json.dump(r, f)
                return study.interleaving(study.load_study([d])[0])
            finally:
                shutil.rmtree(d)
        t = ["2026-11-26T00:00:0%dZ" % i for i in range(6)]
        self.assertEqual(rounds([t[0], t[2], t[4]], [t[1], t[3], t[5]]), "interleaved")  # ABABAB
        self.assertEqual(rounds([t[0], t[1], t[2]], [t[3], t[4], t[5]]), "back to back")  # AAABBB
        self.assertIsNone(rounds([t[0]], [t[1]]), "one run a cell: nothing to interleave")
        # Codes compared with each other are interleaved; another platform or size may run after them (a
        # study in parts): the offload platform's ABAB after the CUDA platform's ABAB is still interleaved.
        d = tempfile.mkdtemp()
        try:
            for name, build, label, dates in (("cuda", "cuda", "", t[0:2]), ("cuda-single-steps", "cuda", "single-steps", t[0:2]),
                                              ("openmptarget", "openmptarget", "", t[4:6]),
                                              ("openmptarget-single-steps", "openmptarget", "single-steps", t[4:6])):
                for k, date in enumerate(dates, start=1):
                    path = f"{name}_512x512x512{'.r%d' % k if k > 1 else ''}.json"
                    impls = {"cuda": 1e11} if build == "cuda" else {"omp": 1e11}
                    run_file(d, path, build, "NVIDIA H100", impls, label=label)
                    with open(os.path.join(d, path)) as f:
                        r = json.load(f)
                    r["date"] = date
                    with open(os.path.join(d, path), "w") as f:
                        json.dump(r, f)
            self.assertEqual(study.interleaving(study.load_study([d])[0]), "interleaved")
        finally:
            shutil.rmtree(d)

    def test_the_page_takes_the_sizes_every_platform_measured_and_names_the_others(self):
        run_file(self.d, "cuda_1000x1000x1000.json", "cuda", "NVIDIA H100",
                 {"cuda": 1e11, "kokkos-cuda": 0.9e11, "kokkos-cuda-mdrange": 0.8e11}, shape=(1000, 1000, 1000))
        text = self.first_page_text(None, None)
        self.assertIn("Sizes 512x512x512 (each cell: the sizes in that order; the two largest every platform measured). "
                      "1000x1000x1000: measured on H100 CUDA only, no PP.", text)
        self.assertIn("Runs a measured cell of these tables: 1.", text, "the 1000^3 file is no cell of the page; a 0 is no run")

    def test_the_runs_a_cell_counts_the_pages_cells(self):
        for r in (2, 3):  # a second and third round of the CUDA cells only
            run_file(self.d, f"cuda_512x512x512.r{r}.json", "cuda", "NVIDIA H100",
                     {"cuda": 1e11, "kokkos-cuda": 0.9e11, "kokkos-cuda-mdrange": 0.8e11})
        self.assertIn("Runs a measured cell of these tables: 1, 3.", self.first_page_text(None, None))


class Census(unittest.TestCase):
    def test_every_planned_run_is_counted_once_in_its_column(self):
        from awave_bench.render import evidence as study_evidence
        d = tempfile.mkdtemp()
        try:
            names = ["host_512x512x512", "host_512x512x512.r2", "host_512x512x512.r3", "host_512x512x512.r4",
                     "host-v_512x512x512", "openmptarget-off_512x512x512"]
            runs = [{"name": n, "round": int(n.split(".r")[1]) if ".r" in n else 1,
                     "checked": n == "host_512x512x512"} for n in names]
            with open(os.path.join(d, "manifest-host.json"), "w") as f:
                json.dump({"runs": runs}, f)
            run_file(d, "host_512x512x512.json", "host", None, {"cpu-openmp": 1e9, "kokkos-openmp": 2e9}, digest="aa",
                     reference="cpu-openmp")
            run_file(d, "host_512x512x512.r2.json", "host", None, {"kokkos-openmp": 2e9}, checked=False, digest="aa")
            # r3: one code held to the reference, the other not (a round is held only if every code is)
            run_file(d, "host_512x512x512.r3.json", "host", None, {"kokkos-openmp": 2e9, "cpu-openmp": 1e9},
                     checked=False, digest="aa")
            with open(os.path.join(d, "host_512x512x512.r3.json")) as f:
                r3 = json.load(f)
            r3["implementations"][1]["digest"] = "bb"
            with open(os.path.join(d, "host_512x512x512.r3.json"), "w") as f:
                json.dump(r3, f)
            # r4 missing
            run_file(d, "host-v_512x512x512.json", "host", None, {"kokkos-openmp": 2e9}, checked=False)
            run_file(d, "openmptarget-off_512x512x512.json", "openmptarget", None, {}, status="refused")
            lines = []
            study_evidence.census(lines.append, [d])
            row = next(line for line in lines if line.startswith("| `"))
            # planned 6: checked 1, held 1, differs 1, unchecked 1, refused 1, failed 0, missing 1
            self.assertTrue(row.endswith("| 6 | 1 | 1 | 1 | 1 | 1 | 0 | 1 |"), row)
            # Held plans (sweep.py --held): held to the checked run at their size and steps, or differing.
            with open(os.path.join(d, "manifest-host-single-steps.json"), "w") as f:
                json.dump({"runs": [{"name": n, "round": 1, "checked": False, "held": True, "shape": [512, 512, 512],
                                     "nsteps": 12} for n in ("host-single-steps_512x512x512", "host-other_512x512x512")]},
                          f)
            with open(os.path.join(d, "manifest-host-mixed.json"), "w") as f:  # two codes, one digest off
                json.dump({"runs": [{"name": "host-mixed_512x512x512", "round": 1, "checked": False, "held": True,
                                     "shape": [512, 512, 512], "nsteps": 12}]}, f)
            run_file(d, "host-mixed_512x512x512.json", "host", None, {"kokkos-openmp": 1e9, "cpu-openmp": 1e9},
                     checked=False, digest="aa", label="mixed")
            with open(os.path.join(d, "host-mixed_512x512x512.json")) as f:
                mixed = json.load(f)
            mixed["implementations"][1]["digest"] = "dd"
            with open(os.path.join(d, "host-mixed_512x512x512.json"), "w") as f:
                json.dump(mixed, f)
            with open(os.path.join(d, "manifest-host.json")) as f:
                m = json.load(f)
            for run in m["runs"]:
                run.update(shape=[512, 512, 512], nsteps=12)
            with open(os.path.join(d, "manifest-host.json"), "w") as f:
                json.dump(m, f)
            run_file(d, "host-single-steps_512x512x512.json", "host", None, {"kokkos-openmp": 1e9}, checked=False,
                     digest="aa", label="single-steps")
            run_file(d, "host-other_512x512x512.json", "host", None, {"kokkos-openmp": 1e9}, checked=False,
                     digest="cc", label="other")
            lines = []
            study_evidence.census(lines.append, [d])
            row = next(line for line in lines if line.startswith("| `"))
            # held: single-steps; differs: r3, other, and mixed (held only if every code's digest is)
            self.assertTrue(row.endswith("| 9 | 1 | 2 | 3 | 1 | 1 | 0 | 1 |"), row)
        finally:
            shutil.rmtree(d)


class LoadStudy(unittest.TestCase):
    """Which result a cell takes: the newest of the same run; an unchecked run marked; a failed
    run unknown, not 0."""

    def setUp(self):
        self.dirs = [tempfile.mkdtemp(), tempfile.mkdtemp()]
        for d in self.dirs:
            with open(os.path.join(d, "devbench-host.json"), "w") as f:
                json.dump(dict(model="host-openmp", triad_bandwidth_gb_s=240, threads=16), f)

    def tearDown(self):
        for d in self.dirs:
            shutil.rmtree(d)

    def write(self, d, date, su, **kw):
        run_file(d, "host_512x512x512.json", "host", None, {"kokkos-openmp": su}, **kw)
        path = os.path.join(d, "host_512x512x512.json")
        with open(path) as f:
            r = json.load(f)
        r["date"] = date
        with open(path, "w") as f:
            json.dump(r, f)

    def cell(self, dirs):
        runs, triads, _ = study.load_study(dirs)
        plat = ("CPU (16 cores)", "host")
        return pp.efficiency(runs, triads, plat, "Kokkos tuned", "512x512x512")

    def test_the_newest_result_wins_in_either_order(self):
        self.write(self.dirs[0], "2026-11-20T00:00:00Z", 0.4e10)
        self.write(self.dirs[1], "2026-11-24T00:00:00Z", 0.6e10)
        self.assertAlmostEqual(self.cell(self.dirs)[0], 0.6)
        self.assertAlmostEqual(self.cell(self.dirs[::-1])[0], 0.6)

    def test_an_unchecked_run_is_marked(self):
        self.write(self.dirs[0], "2026-11-20T00:00:00Z", 0.4e10, checked=False)
        e, note = self.cell(self.dirs[:1])
        self.assertAlmostEqual(e, 0.4)
        self.assertEqual(note, "unchecked")
        self.assertEqual(verdicts.fmt_eff(e, note), "0.40 †")
        self.write(self.dirs[0], "2026-11-20T00:00:00Z", 0.4e10, checked=True)
        self.assertEqual(self.cell(self.dirs[:1])[1], "")

    def test_a_failed_run_is_unknown_and_leaves_pp_unknown(self):
        self.write(self.dirs[0], "2026-11-20T00:00:00Z", 0.4e10, status="failed")
        self.assertEqual(self.cell(self.dirs[:1]), (None, "failed"))
        runs, triads, _ = study.load_study(self.dirs[:1])
        _, _, ppv = pp.table(runs, triads, ["512x512x512"])
        self.assertIsNone(ppv["Kokkos tuned"]["512x512x512"])
