"""The run files: awave's result schema (on a real awave result, and planted faults) and results folders packed
(bench/pack_results.py) reading as they did loose."""
import copy
import json
import os
import subprocess
import tempfile
import unittest

from awave_bench.runs import files as runfiles, record
from awave_bench.tools import pack_results
from tests.harness.modules import TOP


class ResultSchema(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        exe = os.environ.get("AWAVE_EXE", os.path.join(TOP, "build", "host", "src", "awave"))
        impls = os.environ.get("AWAVE_TEST_IMPLS", "cpu")
        cls.tmp = tempfile.TemporaryDirectory()
        path = os.path.join(cls.tmp.name, "r.json")
        subprocess.run([exe, "-shape", "12,10,5", "-nsteps", "7", "-out_period", "3", "-no_output", "-impl", impls,
                        "-json", path], check=True, capture_output=True,
                       env=dict(os.environ, OMP_NUM_THREADS="2", AWAVE_TEST_MARKER="x=1", NOT_AWAVE_MARKER="2"))
        with open(path) as f:
            cls.result = json.load(f)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_awave_output_is_valid(self):
        self.assertEqual(record.validate_run(self.result), [])
        impl = self.result["implementations"][-1]
        self.assertEqual(impl["chunk_steps"], [3, 3, 1])
        self.assertAlmostEqual(impl["effective_bandwidth_gb_s"], impl["best_su_per_s"] * 24 / 1e9)

    def test_environment_recorded(self):
        env = self.result["environment"]
        self.assertEqual(env.get("OMP_NUM_THREADS"), "2")
        self.assertEqual(env.get("AWAVE_TEST_MARKER"), "x=1")  # the value after the first '='
        self.assertNotIn("NOT_AWAVE_MARKER", env)  # only the runtimes' prefixes

    def test_validator_catches_planted_faults(self):
        faults = {
            "no chunk times": lambda r: r["implementations"][0].pop("chunk_seconds"),
            "chunks do not add up": lambda r: r["implementations"][0]["chunk_steps"].append(5),
            "negative chunk time": lambda r: r["implementations"][0]["chunk_seconds"].__setitem__(0, -1.0),
            "no build compiler": lambda r: r["build"].pop("compiler"),
            "bad shape": lambda r: r["params"].__setitem__("shape", [12, 10]),
            "wrong schema": lambda r: r.__setitem__("schema", "awave-run/0"),
            "no date": lambda r: r.pop("date"),
        }
        for name, plant in faults.items():
            broken = copy.deepcopy(self.result)
            plant(broken)
            self.assertNotEqual(record.validate_run(broken), [], name)


class RunFiles(unittest.TestCase):
    """A results folder packed (bench/pack_results.py) reads as it did loose (bench/awave_bench/runs/files.py): the same
    names, records and texts, a half-written JSON failing as before; what a README names, a README and a
    kind's lone file stay files; a file differing from the packed one of its name is refused."""

    def plant(self, d):
        os.makedirs(os.path.join(d, "call", "part"))
        files = {"call/cuda_64x64x64.json": json.dumps({"a": 1, "x": [0.1, 1e300]}), "call/cuda_64x64x64.r2.json":
                 '{"a": 2}', "call/half.json": '{"a": ', "call/time-64-r1.txt": "line 1\r\nline 2\n",
                 "call/time-64-r2.txt": "é\n", "call/named.txt": "kept", "call/README.md": "see `named.txt`",
                 "call/part/one.log": "alone", "call/part/a.json": "[1]", "call/part/b.json": "[2]"}
        for name, text in files.items():
            with open(os.path.join(d, name), "w", newline="") as f:
                f.write(text)
        return os.path.join(d, "call")

    def read_all(self, folder):
        out = {}
        for path in runfiles.walk(folder, "*"):
            try:
                out[os.path.relpath(path, folder)] = runfiles.load(path)
            except ValueError:
                out[os.path.relpath(path, folder)] = ("not JSON", runfiles.read_text(path))
        return out

    def test_packed_reads_as_loose_and_what_is_named_stays(self):
        with tempfile.TemporaryDirectory() as d:
            call = self.plant(d)
            docs = {os.path.join(call, "README.md"): "see `named.txt`"}
            loose = self.read_all(call)
            self.assertEqual(loose["time-64-r1.txt"], ("not JSON", "line 1\nline 2\n"))
            removed = sum(pack_results.pack_folder(f, docs, root=d) for f in (call, os.path.join(call, "part")))
            self.assertEqual(removed, 7)
            self.assertEqual(sorted(os.listdir(call)), ["README.md", "logs.jsonl", "named.txt", "part", "runs.jsonl"])
            self.assertEqual(sorted(os.listdir(os.path.join(call, "part"))), ["one.log", "runs.jsonl"])
            self.assertEqual(self.read_all(call), loose)
            self.assertEqual(runfiles.glob(call, "cuda_*x*.json"),
                             [os.path.join(call, "cuda_64x64x64.json"), os.path.join(call, "cuda_64x64x64.r2.json")])
            self.assertEqual(runfiles.glob(call, os.path.join("p*", "*.json")),
                             [os.path.join(call, "part", n) for n in ("a.json", "b.json")])
            with self.assertRaises(ValueError):
                runfiles.load(os.path.join(call, "half.json"))
            with self.assertRaises(FileNotFoundError):
                runfiles.load(os.path.join(call, "gone.json"))
            with open(os.path.join(call, "logs.jsonl"), "rb") as f:  # the bytes kept, line ends and all
                self.assertIn(b'"line 1\\r\\nline 2\\n"', f.read())
            with open(os.path.join(call, "runs.jsonl"), "rb") as f:
                self.assertEqual(f.read().count(b"\n"), 2)  # half.json is kept as text
            # A loose file written after the pack is read first; packing it over a different record is refused.
            with open(os.path.join(call, "cuda_64x64x64.r2.json"), "w") as f:
                f.write('{"a": 3}')
            self.assertEqual(runfiles.load(os.path.join(call, "cuda_64x64x64.r2.json")), {"a": 3})
            with self.assertRaisesRegex(ValueError, "differs from the file of that name already in"):
                pack_results.pack_folder(call, docs, root=d)
            with open(os.path.join(call, "cuda_64x64x64.r2.json"), "w") as f:
                f.write('{"a": 2}')
            self.assertEqual(pack_results.pack_folder(call, docs, root=d), 1)  # the same record: packed again

    def test_a_pack_that_reads_back_different_is_caught_and_the_originals_kept(self):
        with tempfile.TemporaryDirectory() as d:
            call = self.plant(d)
            real = runfiles.packed
            runfiles.packed = lambda folder: {k: (p, line.replace('"a": 2', '"a": 9')) for k, (p, line)
                                              in real(folder).items()}
            try:
                with self.assertRaisesRegex(ValueError, "reads back different"):
                    pack_results.pack_folder(call, {}, root=d)
            finally:
                runfiles.packed = real
            self.assertTrue(os.path.exists(os.path.join(call, "cuda_64x64x64.r2.json")))
