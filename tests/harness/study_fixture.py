"""The planted study the harness suites share: run files as bench/sweep.py writes them (run_file), and a study of
two GPU platforms of one GPU and the CPU whose triads make the efficiencies round (StudyFixture)."""
import json
import os
import shutil
import tempfile
import unittest

from awave_bench.metrics import pp
from awave_bench.render import page
from awave_bench.runs import study


def run_file(d, name, build, gpu, impls, status="ok", label="", env=None, cores=16, checked=True, differences=0,
             digest=None, sweeps=(), binding=None, machine_gpu=None, shape=(512, 512, 512), kokkos_version="3.4.1",
             nsteps=12, held=False, reference=None, commit="abc", cpu_name=None):
    """A study run file as bench/sweep.py writes it, awave's result format complete (validate_run);
    reference: the implementation that is the check's reference (is_reference, itself unchecked)."""
    result = {"schema": "awave-run/1", "status": status, "date": "2026-11-25T00:00:00Z",
              "params": {"shape": list(shape), "nsteps": nsteps}, "passed": differences == 0,
              "checked_against_cpu": checked, "bytes_per_site_model": 24,
              "sweep": {"build": build, "label": label, "env": env or {}, **({"binding": binding} if binding else {}),
                        **({"held": True} if held else {})},
              "gpu": {"name": gpu} if gpu else None,
              "host_cpu": {"cores": cores, **({"name": cpu_name} if cpu_name else {})},
              "build": {"name": build, "git_commit": commit, "kokkos_version": kokkos_version, "compiler": "x", "kokkos": "x",
                        "accelerator": gpu or "none"},
              "implementations": [{"id": i, "best_su_per_s": su, "median_su_per_s": su, "checked": checked,
                                   "differences": differences, "chunk_steps": [nsteps // 2] * 2, "chunk_seconds": [1.0, 1.0],
                                   "effective_bandwidth_gb_s": 1.0, "on_device": gpu is not None,
                                   "uses_kokkos": i.startswith("kokkos"),
                                   "bitwise": differences == 0, **({"digest": digest} if digest else {}),
                                   "steps_per_sweep": 3 if i in sweeps else 1,
                                   **({"is_reference": True, "checked": False} if i == reference else {})}
                                  for i, su in impls.items()]}
    if machine_gpu:
        result["machine_gpu"] = {"name": machine_gpu}
    with open(os.path.join(d, name), "w") as f:
        json.dump(result, f)


class StudyFixture(unittest.TestCase):
    """Two GPU platforms of one GPU and the CPU; triads chosen so efficiencies are round."""

    def setUp(self):
        self.d = tempfile.mkdtemp()
        # triads: GPU 2400 GB/s (so 1e11 SU/s = 1.0), CPU 240 GB/s (1e10 SU/s = 1.0)
        for name, model, bw, extra in (("devbench-cuda.json", "cuda", 2400, {"gpu": {"name": "NVIDIA H100"}}),
                                       ("devbench-openmptarget.json", "openmp-offload", 1800,
                                        {"gpu": {"name": "NVIDIA H100"}}),
                                       ("devbench-host.json", "host-openmp", 240, {"threads": 16})):
            with open(os.path.join(self.d, name), "w") as f:
                json.dump(dict(model=model, triad_bandwidth_gb_s=bw, **extra), f)
        run_file(self.d, "cuda_512x512x512.json", "cuda", "NVIDIA H100",
                 {"cuda": 1e11, "kokkos-cuda": 0.9e11, "kokkos-cuda-mdrange": 0.8e11})
        run_file(self.d, "openmptarget_512x512x512.json", "openmptarget", "NVIDIA H100",
                 {"omp": 0.5e11, "kokkos-openmptarget": 0.4e11, "kokkos-openmptarget-mdrange": 0.25e11})
        run_file(self.d, "host_512x512x512.json", "host", None,
                 {"cpu-openmp": 0.5e10, "kokkos-openmp": 0.8e10, "kokkos-openmp-mdrange": 0.6e10},
                 differences=0)
        run_file(self.d, "openmptarget-offload-disabled_512x512x512.json", "openmptarget", None, {},
                 status="refused", label="offload-disabled", env={"OMP_TARGET_OFFLOAD": "DISABLED"})

    def tearDown(self):
        shutil.rmtree(self.d)

    def table(self):
        runs, triads, _ = study.load_study([self.d])
        return pp.table(runs, triads, ["512x512x512"])

    def first_page_text(self, loc, divergence):
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        lines = []
        page.first_page(lines.append, plt, [self.d], loc, divergence, self.d)
        return "\n".join(lines)
