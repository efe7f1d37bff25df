"""What the project is made of (awave_bench.catalog): the backend folders agree with the build, and a planted
disagreement of each kind is caught."""
import json
import os
import shutil
import subprocess
import sys
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


class ToolchainFolders(unittest.TestCase):
    """The toolchain folders (cmake/toolchains/*/toolchain.json) agree with themselves and with the backend folders,
    and a planted disagreement of each kind is caught; bench/catalog.py lists them for the shell scripts."""

    def test_the_folders_agree(self):
        from awave_bench.catalog import backends
        self.assertEqual(backends.catalog_problems(), [])

    def plant(self, d, name, change):
        path = os.path.join(d, "cmake", "toolchains", name, "toolchain.json")
        with open(path) as f:
            t = json.load(f)
        change(t)
        with open(path, "w") as f:
            json.dump(t, f)

    def test_planted_disagreements_are_caught(self):
        from awave_bench.catalog import backends
        with tempfile.TemporaryDirectory() as d:
            shutil.copytree(os.path.join(TOP, "src"), os.path.join(d, "src"))
            shutil.copytree(os.path.join(TOP, "cmake", "toolchains"), os.path.join(d, "cmake", "toolchains"))
            self.assertEqual(backends.catalog_problems(top=d), [])
            self.plant(d, "cuda", lambda t: t["sweep"]["implementations"].append("kokkos-hip"))
            self.plant(d, "host", lambda t: t.update(order=1))
            self.plant(d, "openmptarget", lambda t: t.pop("words"))
            self.plant(d, "host", lambda t: t["sweep"]["implementations"].append("cuda"))
            path = os.path.join(d, "src", "cuda", "backend.json")
            with open(path) as f:
                b = json.load(f)
            b["implementations"].append(dict(b["implementations"][0], id="cuda-on-hip", toolchain="hip"))
            with open(path, "w") as f:
                json.dump(b, f)
            os.makedirs(os.path.join(d, "cmake", "toolchains", "empty"))
            self.assertEqual(sorted(backends.catalog_problems(top=d)), sorted([
                "cmake/toolchains/empty: no toolchain.cmake", "cmake/toolchains/empty: no toolchain.json",
                "openmptarget: 'words' missing or not str",
                "two toolchains share an order",
                "cuda: its sweep names 'kokkos-hip', which no backend.json has",
                "host: its sweep runs 'cuda', of src/cuda, a folder the toolchain does not build",
                "src/cuda/backend.json: cuda-on-hip on toolchain 'hip', which has no cmake/toolchains/ folder"]))

    def test_the_command_line_lists_them_and_refuses_an_unknown_one(self):
        from awave_bench.catalog import toolchains
        catalog = [sys.executable, os.path.join(TOP, "bench", "catalog.py")]
        out = subprocess.run(catalog + ["toolchains"], capture_output=True, text=True, check=True).stdout.split()
        self.assertEqual(out, list(toolchains.TOOLCHAINS))
        on_device = subprocess.run(catalog + ["toolchains", "--on-device"], capture_output=True, text=True,
                                   check=True).stdout.split()
        self.assertEqual(on_device, [n for n, t in toolchains.TOOLCHAINS.items() if t["on_device"]])
        bad = subprocess.run(catalog + ["sweepers", "hip"], capture_output=True, text=True)
        self.assertEqual((bad.returncode, bad.stdout, len(bad.stderr.splitlines())), (2, "", 1))
        self.assertIn("no toolchain 'hip'", bad.stderr)
