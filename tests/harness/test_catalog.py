"""What the project is made of (awave_bench.catalog): the backend folders agree with the build, and a planted
disagreement of each kind is caught."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from tests.harness.modules import TOP


class BackendFolders(unittest.TestCase):
    """The backend folders' backend.json (bench/awave_bench/catalog/backends.py) agree with the build: every implementation
    the host build lists is named, every folder defines its backend, every part's file exists; and a
    planted disagreement of each kind is caught."""

    def test_the_folders_agree_with_the_build(self):
        from awave_bench.catalog import backends
        exe = os.environ.get("AWAVE_EXE", os.path.join(TOP, "build", "host", "src", "awave"))
        listed = [line.split()[0] for line in subprocess.run([exe, "-list"], capture_output=True, text=True,
                                                                    check=True).stdout.splitlines()]
        self.assertIn("cpu", listed)
        self.assertEqual(backends.problems(listed), [])
        self.assertEqual(backends.folders()[0], "cpu", "the CPU reference's backend first")

    def test_planted_disagreements_are_caught(self):
        from awave_bench.catalog import backends
        with tempfile.TemporaryDirectory() as d:
            shutil.copytree(os.path.join(TOP, "src"), os.path.join(d, "src"))
            self.assertEqual(backends.problems(["cpu"], top=d), [])
            self.assertEqual(backends.problems(["cpu", "kokkos-hip"], top=d),
                             ["kokkos-hip: listed by the build, in no backend.json"])
            path = os.path.join(d, "src", "cuda", "backend.json")
            with open(path) as f:
                b = json.load(f)
            b["parts"]["cuda"].append("missing.cu")
            b["implementations"].append(dict(b["implementations"][0], id="cuda-again"))
            with open(path, "w") as f:
                json.dump(b, f)
            os.remove(os.path.join(d, "src", "omp", "backend.cpp"))
            self.assertEqual(sorted(backends.problems(["cpu"], top=d)),
                             ["hand-written on cuda: two implementations",
                              "part cuda: src/cuda/missing.cu does not exist",
                              "part omp: src/omp/backend.cpp does not exist",
                              "src/omp: defines no omp_backend (core/backend.hpp)"])
