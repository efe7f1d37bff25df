"""The summaries the device scripts' results pass through, each on planted inputs: energy, issue slots, the sweep
variants' rule, sweeps over MPI, the MPI scaling model, Nsight Compute, and device code compared."""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from awave_bench.runs import energy as energy_summary, files as runfiles
from tests.harness.modules import TOP, module_at


class EnergySummary(unittest.TestCase):
    """bench/energy_summary.py (energy.sh's table, the report's section 5) on planted runs."""
    SOURCE = os.path.join(TOP, "bench", "results", "h200-2026-11-27", "energy-cb46677", "energy-512-plan3-r1.json")

    def plant(self, d, name, joules, seconds=2.0, drop=False):
        run = runfiles.load(self.SOURCE)  # packed in its folder's runs.jsonl
        run["implementations"] = run["implementations"][:1]  # hand CUDA
        i = run["implementations"][0]
        if drop:
            del i["energy"]
        else:
            updates = 128e6 * 3
            i["energy"] = {"joules": joules, "seconds": seconds, "joules_per_site_update": joules / updates}
        run["params"]["shape"] = [128, 128, 128]
        with open(os.path.join(d, name + ".json"), "w") as f:
            json.dump(run, f)

    def test_medians_windows_and_planted_values(self):
        with tempfile.TemporaryDirectory() as d:
            for r, joules in enumerate((3.0, 6.0, 4.5)):
                self.plant(d, f"energy-128-plan3-r{r}", joules)
            self.plant(d, "energy-128-plan3-r9", 0, drop=True)  # a run without energy counts for nothing
            rows = energy_summary.energy_rows(d)
            self.assertEqual(list(rows), [(128, "cuda", 3)])
            v = rows[(128, "cuda", 3)]
            self.assertEqual(len(v), 3)
            self.assertAlmostEqual(energy_summary.median_of(v), 4.5 / (128e6 * 3))
            self.assertAlmostEqual(energy_summary.median_of(v, 1), 2.25)  # watts: joules over seconds
            self.assertNotIn("under 1 s", "\n".join(energy_summary.table(rows)))
            self.plant(d, "energy-128-plan3-r3", 60.0, seconds=0.5)  # a planted high reading, on a short window
            rows = energy_summary.energy_rows(d)
            self.assertAlmostEqual(energy_summary.median_of(rows[(128, "cuda", 3)]), (4.5 + 6.0) / 2 / (128e6 * 3))
            self.assertIn("under 1 s", "\n".join(energy_summary.table(rows)))


class SweepCountSummary(unittest.TestCase):
    """bench/sweep_count_summary.py on a planted source page whose slots a site update are known."""

    def test_planted_counts(self):
        from awave_bench.runs import sass as sweep_count_summary
        n = 2  # 3 x 2^3 = 24 site updates
        header = ["Address", "Source", "Instructions Executed", "Predicated-On Thread Instructions Executed"]
        rows = [["0x10", "IMAD.MOV.U32 R1, RZ, RZ, R2", "6", "96"],   # a move: 32 x 6 / 24 = 8 slots
                ["0x20", "IMAD.WIDE.U32 R4, R3, R5, RZ", "3", "48"],  # integer: 4 slots
                ["0x30", "DADD R6, R6, R8", "12", "384"],             # fp64: 16 slots
                ["0x40", "@!P1 BRA 0x10", "3", "24"],                 # a branch: 4 slots
                ["0x50", "UISETP.GE.AND UP0, UPT, UR5, UR6, UPT", "3", "96"],  # uniform: 4 slots
                ["0x60", "@P2 LD.E.64 R8, desc[UR4][R2.64]", "3", "64"],  # generic: 4 slots
                ["0x70", "LDS.64 R10, [R7+0x8]", "3", "96"]]              # shared: 4 slots
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "count-cuda-sass.csv"), "w", newline="") as f:
                import csv
                w = csv.writer(f)
                w.writerow(["Kernel Name", "sweep_kernel"])
                w.writerow(header)
                w.writerows(rows)
            name, kinds = sweep_count_summary.read(os.path.join(d, "count-cuda-sass.csv"))
            slots = {k: 32 * v[0] / (3 * n ** 3) for k, v in kinds.items()}
            self.assertEqual(name, "sweep_kernel")
            self.assertEqual(slots["register moves and zeroing"], 8)
            self.assertEqual(slots["integer: indices, addresses, predicates"], 4)
            self.assertEqual(slots["fp64 arithmetic"], 16)
            self.assertEqual(slots["branches and reconvergence"], 4)
            self.assertEqual(slots["uniform datapath (loop bounds, live tests)"], 4)
            self.assertEqual(slots["generic loads and stores"], 4)
            self.assertEqual(slots["shared memory"], 4)
            self.assertEqual(kinds["fp64 arithmetic"][1], 384)


class SweepVariantsSummary(unittest.TestCase):
    """bench/sweep_variants_summary.py (the sweep studies' rule) on planted rounds: a variant 1.16 x at both sizes
    holds on the H200; one under 1.15 x at one size, one not bitwise in a round, and one run at 512^3 alone fail;
    on the H100 a median under the product's slowest round fails; a library's kernel shows no register count."""

    @staticmethod
    def line(gpu, n, rnd, variant, su, bitwise=True, registers=48):
        return json.dumps({"gpu": gpu, "n": n, "round": rnd, "variant": variant, "su_per_s": su,
                           "bitwise": bitwise, "registers": registers, "spill_bytes": 0 if registers > 0 else -1})

    def test_planted_rounds(self):
        from awave_bench.tools import sweep_variants_summary as summary
        lines = []
        for gpu in ("NVIDIA H200", "NVIDIA H100 80GB HBM3"):
            for n in (512, 1000):
                for rnd in range(3):
                    lines.append(self.line(gpu, n, rnd, "product", 1.00e11 + rnd * 1e8))
                    lines.append(self.line(gpu, n, rnd, "fast", 1.161e11))
                    lines.append(self.line(gpu, n, rnd, "short", 1.20e11 if n == 512 else 1.14e11))
                    lines.append(self.line(gpu, n, rnd, "unchecked", 1.30e11, bitwise=rnd != 1))
                    lines.append(self.line(gpu, n, rnd, "library", 0.999e11, registers=-1))
                    if n == 512:
                        lines.append(self.line(gpu, n, rnd, "half", 1.30e11))
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "timing.jsonl"), "w") as f:
                f.write("\n".join(lines) + "\n")
            stats = summary.table(summary.rows(d))
            verdicts = summary.verdicts(stats)
            self.assertTrue(verdicts[("NVIDIA H200", "fast")][0])
            for variant in ("short", "unchecked", "half", "library"):
                self.assertFalse(verdicts[("NVIDIA H200", variant)][0], variant)
            self.assertTrue(verdicts[("NVIDIA H100 80GB HBM3", "fast")][0])
            self.assertFalse(verdicts[("NVIDIA H100 80GB HBM3", "library")][0])  # under the slowest product round
            self.assertEqual(summary.best(stats), "half")  # the fastest bitwise variant at 512^3
            out = subprocess.run([sys.executable, os.path.join(TOP, "bench", "sweep_variants_summary.py"), d],
                                 capture_output=True, text=True, check=True).stdout
            library_row = next(r for r in out.splitlines() if "| 512 | library |" in r and "H200" in r)
            self.assertIn("| - | - |", library_row)  # registers and spills unknown, not -1 and 0


class SweepMpiSummary(unittest.TestCase):
    """bench/sweep_mpi_summary.py on planted runs whose rates and efficiencies are known."""

    @staticmethod
    def run_doc(shape, seconds_per_chunk, processes=1):
        impl = {"id": "cuda", "chunk_steps": [12, 12, 12], "chunk_seconds": [9.0] + seconds_per_chunk,
                "steps_per_sweep": 3, "recomputed_halo": 3 if processes > 1 else 0}
        if processes > 1:
            chunk = {"step_seconds": 0.9, "halo_copy_seconds": 0.0, "mpi_seconds": 0.1}
            first = {"step_seconds": 0.9, "halo_copy_seconds": 0.0, "mpi_seconds": 5.0}  # a warm-up, left out
            impl["mpi"] = {"chunks": [first, chunk, chunk], "halo": "nccl", "processes": processes}
        return {"params": {"shape": shape}, "implementations": [impl],
                "build": {"name": "cuda-mpi", "git_commit": "abc", "compiler": "nvcc", "kokkos_version": "3.4.01",
                          "accelerator": "H100"}}

    def test_planted_rates(self):
        from awave_bench.tools import sweep_mpi_summary
        with tempfile.TemporaryDirectory() as d:
            n = 1024 ** 3
            docs = {"one-1024_r1": self.run_doc([1024, 1024, 1024], [12 * n / 1e11, 12 * n / 1e11]),
                    "one-1024_r2": self.run_doc([1024, 1024, 1024], [12 * n / 1.2e11, 12 * n / 1.2e11]),
                    # 1.9e11 and 2.0e11 in the two rounds' chunks: median 1.95e11 against 2 x 1.1e11
                    "strong-sweep_r1": self.run_doc([1024, 1024, 1024], [12 * n / 1.9e11] * 2, 2),
                    "strong-sweep_r2": self.run_doc([1024, 1024, 1024], [12 * n / 2.0e11] * 2, 2)}
            for name, doc in docs.items():
                with open(os.path.join(d, name + ".json"), "w") as f:
                    json.dump(doc, f)
            runs, build = sweep_mpi_summary.collect(d)
            self.assertAlmostEqual(runs["one-1024"]["cuda"][0][0] / 1e11, 1.0)
            text = sweep_mpi_summary.table(runs, build)
            row = next(line for line in text.splitlines() if line.startswith("| strong-sweep |"))
            self.assertIn("1.950e+11 (1.900e+11-2.000e+11, 2 rounds)", row)
            self.assertIn(f"| {1.95 / 2.2:.3f} (2) |", row)
            self.assertIn("exchange 10.0% (nccl)", row)
            self.assertIn("3 a sweep, halo 3", row)
            # On four GPUs the same rates are against four times one GPU's.
            for r in (1, 2):
                doc = self.run_doc([1024, 1024, 1024], [12 * n / (1.9e11 + 0.1e11 * (r - 1))] * 2, 4)
                with open(os.path.join(d, f"strong-sweep_r{r}.json"), "w") as f:
                    json.dump(doc, f)
            row = next(line for line in sweep_mpi_summary.table(*sweep_mpi_summary.collect(d)).splitlines()
                       if line.startswith("| strong-sweep |"))
            self.assertIn(f"| {1.95 / 4.4:.3f} (4) |", row)
            self.assertTrue(text.startswith("Build cuda-mpi at abc, nvcc, Kokkos 3.4.01, H100.\n"), text)
            # The 4-GPU runs from another commit (an A/B whose one-GPU bases are the other build's): both named.
            for r in (1, 2):
                doc = self.run_doc([1024, 1024, 1024], [12 * n / 2e11] * 2, 4)
                doc["build"]["git_commit"] = "def"
                with open(os.path.join(d, f"strong-sweep_r{r}.json"), "w") as f:
                    json.dump(doc, f)
            text = sweep_mpi_summary.table(*sweep_mpi_summary.collect(d))
            self.assertTrue(text.startswith("Builds: cuda-mpi at abc, nvcc, Kokkos 3.4.01, H100 (one-1024); "
                                            "cuda-mpi at def, nvcc, Kokkos 3.4.01, H100 (strong-sweep).\n"), text)


class ScalingModel(unittest.TestCase):
    """bench/studies/mpi-scaling-model/scaling_model.py on inputs whose answers can be written down."""

    def test_free_exchange_leaves_the_recomputed_planes(self):
        scaling_model = module_at(os.path.join(TOP, "bench", "studies", "mpi-scaling-model", "scaling_model.py"))
        # No latency, infinite bandwidth: a middle slab of 128 planes computes 134, an end slab of 512, 515.
        self.assertAlmostEqual(scaling_model.sweep_efficiency(1024, 8, 1e11, 0, math.inf), 128 / 134)
        self.assertAlmostEqual(scaling_model.sweep_efficiency(1024, 2, 1e11, 0, math.inf), 512 / 515)
        self.assertEqual(scaling_model.sweep_efficiency(1024, 1, 1e11, 1, 1), 1.0)

    def test_exchange_hidden_by_the_interior_or_not(self):
        scaling_model = module_at(os.path.join(TOP, "bench", "studies", "mpi-scaling-model", "scaling_model.py"))
        n, rate = 1024, 1e11
        plane_time = n * n * 3 / rate  # one plane of a sweep
        # An exchange shorter than the interior (518 computed planes, interior segments 1-7: 448 planes) is hidden.
        self.assertEqual(scaling_model.interior_planes(518, 3, 3), 448)
        e = scaling_model.sweep_efficiency(n, 2, rate, 100 * plane_time, math.inf)
        self.assertAlmostEqual(e, 512 / 515)
        # Without overlap it adds its whole time.
        e0 = scaling_model.sweep_efficiency(n, 2, rate, 100 * plane_time, math.inf, overlap=False)
        self.assertAlmostEqual(e0, 512 / (515 + 100))


class NcuSummary(unittest.TestCase):
    """bench/ncu_summary.py on a planted Nsight Compute report."""

    TEXT = """    dram__bytes_read.sum          Gbyte          2.48
    dram__bytes_write.sum         Mbyte        140.00
    lts__t_bytes.sum              Gbyte          9.51
    smsp__inst_executed.sum        inst 1,815,067,840
    DRAM Throughput                   %        47.02
    Duration                         us       864.03
    L1/TEX Cache Throughput           %        57.43
    L2 Cache Throughput               %        92.34
    Compute (SM) Throughput           %        85.07
    Issued Warp Per Scheduler                        0.86
    Achieved Occupancy                        %        61.73
"""

    def test_planted_report(self):
        from awave_bench.runs import ncu as ncu_summary
        r = ncu_summary.parse(self.TEXT)
        self.assertAlmostEqual(r["duration_ms"], 0.86403)
        self.assertEqual(r["instructions"], 1815067840)
        self.assertAlmostEqual(r["dram_read_gb"] + r["dram_write_gb"], 2.62)
        self.assertEqual(r["issued"], 0.86)
        self.assertEqual(ncu_summary.bound(r), "L2")
        r["l2_pct"] = 50
        self.assertEqual(ncu_summary.bound(r), "issue (SM)")


class SameGpuCode(unittest.TestCase):
    """bench/same_gpu_code.py: planted device-code sections in copies of one ELF file (objcopy)."""

    def planted(self, d, name, sections):
        path = os.path.join(d, name)
        args = ["objcopy"]
        for i, (section, blob) in enumerate(sections.items()):
            blob_path = os.path.join(d, f"{name}.{i}")
            with open(blob_path, "wb") as f:
                f.write(blob)
            args += ["--add-section", f"{section}={blob_path}", "--set-section-flags", f"{section}=alloc,readonly"]
        subprocess.run(args + [sys.executable, path], check=True)
        return path

    def test_same_differing_missing_and_none(self):
        from awave_bench.tools import same_gpu_code
        code = bytes(range(256)) * 40
        changed = code[:5000] + b"\xff" + code[5001:]
        with tempfile.TemporaryDirectory() as d:
            a = self.planted(d, "a", {".nv_fatbin": code})
            same = self.planted(d, "same", {".nv_fatbin": code})
            other = self.planted(d, "other", {".nv_fatbin": changed})
            both = self.planted(d, "both", {".nv_fatbin": code, ".llvm.offloading": code})
            none = self.planted(d, "none", {})
            status, line = same_gpu_code.compare(a, same)
            self.assertEqual(status, 0, line)
            self.assertIn(f".nv_fatbin {len(code)} bytes", line)
            status, line = same_gpu_code.compare(a, other)
            self.assertEqual(status, 2, line)
            self.assertIn("first at byte 5000", line)
            status, line = same_gpu_code.compare(a, both)
            self.assertEqual(status, 2, line)
            self.assertIn(".llvm.offloading only in", line)
            self.assertEqual(same_gpu_code.compare(none, none)[0], 1)
            self.assertEqual(same_gpu_code.compare(a, os.path.join(TOP, "README.md"))[0], 1)
            self.assertEqual(same_gpu_code.compare(a, os.path.join(d, "absent"))[0], 1)

    def test_build_trees_pair_their_objects(self):
        from awave_bench.tools import same_gpu_code
        code = bytes(range(256)) * 40
        with tempfile.TemporaryDirectory() as d:
            for tree in ("a", "b"):
                os.makedirs(os.path.join(d, tree, "src", "cuda"))
            for tree, name, sections in (("a", "kernels", {".nv_fatbin": code}), ("b", "kernels", {".nv_fatbin": code}),
                                         ("a", "host", {}), ("b", "host", {})):
                shutil.move(self.planted(d, f"{tree}-{name}", sections), os.path.join(d, tree, "src", "cuda", f"{name}.o"))
            a, b = os.path.join(d, "a"), os.path.join(d, "b")
            status, lines = same_gpu_code.compare_trees(a, b)
            self.assertEqual(status, 0, lines)
            self.assertEqual(len(lines), 2, lines)  # the kernels' object and the count; host code is no line
            self.assertTrue(lines[0].startswith("same: src/cuda/kernels.o"), lines)
            # An object in one build whose GPU code is a paired object's adds none; host code alone is no line.
            shutil.copy(os.path.join(b, "src", "cuda", "kernels.o"), os.path.join(b, "src", "boilerplate.o"))
            shutil.copy(os.path.join(b, "src", "cuda", "host.o"), os.path.join(b, "src", "host_only.o"))
            status, lines = same_gpu_code.compare_trees(a, b)
            self.assertEqual(status, 0, lines)
            self.assertTrue(any(line.startswith("adds no GPU code: src/boilerplate.o") for line in lines), lines)
            self.assertFalse(any("host_only" in line for line in lines), lines)
            # New GPU code in an object of one build alone is a difference by itself.
            shutil.move(self.planted(d, "added", {".nv_fatbin": code[2:]}), os.path.join(b, "src", "added.o"))
            status, lines = same_gpu_code.compare_trees(a, b)
            self.assertEqual(status, 2, lines)
            self.assertTrue(any(line.startswith(f"only in {b}: src/added.o") for line in lines), lines)
            shutil.move(self.planted(d, "new", {".nv_fatbin": code[1:]}), os.path.join(b, "src", "cuda", "kernels.o"))
            status, lines = same_gpu_code.compare_trees(a, b)
            self.assertEqual(status, 2, lines)
            self.assertTrue(any(line.startswith("DIFFERS: src/cuda/kernels.o") for line in lines), lines)
            # An object that cannot be read makes the answer "cannot tell", not "the same".
            with open(os.path.join(b, "src", "cuda", "host.o"), "wb") as f:
                f.write(b"\x7fELF truncated")
            status, lines = same_gpu_code.compare_trees(a, b)
            self.assertEqual(status, 1, lines)
            self.assertIn("cannot tell", lines[0])
            self.assertEqual(same_gpu_code.compare_trees(os.path.join(d, "none"), os.path.join(d, "none"))[0], 1)

    def test_host_code_is_said_apart(self):
        from awave_bench.tools import same_gpu_code
        code = bytes(range(256)) * 40
        with tempfile.TemporaryDirectory() as d:
            for tree, host in (("a", b"launch(teams)"), ("b", b"launch(heavy)")):
                os.makedirs(os.path.join(d, tree, "src"))
                shutil.move(self.planted(d, f"{tree}-kernels", {".nv_fatbin": code, ".rodata.planted": host}),
                            os.path.join(d, tree, "src", "kernels.o"))
            status, lines = same_gpu_code.compare_trees(os.path.join(d, "a"), os.path.join(d, "b"), host=True)
            self.assertEqual(status, 0, lines)  # the exit status is the GPU code's
            self.assertIn("host code DIFFERS in 1 of", lines[0])
            self.assertIn("(first .rodata.planted)", lines[0])
            status, lines = same_gpu_code.compare_trees(os.path.join(d, "a"), os.path.join(d, "a"), host=True)
            self.assertRegex(lines[0], r"host code same \(\d+ sections\)$")
