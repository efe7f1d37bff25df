"""awave-view on real awave files: the picture exists, is not blank, and follows the field (a
planted change in the file changes it); animations; the difference view; a killed run's
.partial and an MPI run's file; one-line errors. Run by ctest (label view) with AWAVE_EXE,
AWAVE_VIEW and, where they exist, AWAVE_KILLED_FILE and AWAVE_MPIRUN."""
import os
import shutil
import subprocess
import tempfile
import unittest

import h5py
import numpy as np
from matplotlib import image as mpimg

EXE = os.environ.get("AWAVE_EXE", "")
VIEW = os.environ.get("AWAVE_VIEW", "")


def run(*args, cwd):
    return subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, timeout=300)


def colours(png):
    """Counts of clearly red and clearly blue pixels (the diverging map's two signs)."""
    rgb = mpimg.imread(png)[..., :3]
    red = int(((rgb[..., 0] - rgb[..., 2]) > 0.05).sum())
    blue = int(((rgb[..., 2] - rgb[..., 0]) > 0.05).sum())
    return red, blue, float(rgb.std())


class ViewFixture(unittest.TestCase):
    """A 40x32x24 run's file, and the colours of a zero field's picture; no tests of its own."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="awave-view-")
        r = run(EXE, "-shape", "40,32,24", "-nsteps", "30", "-out_period", "10", "-impl", "cpu", "-quiet", "run",
                cwd=cls.dir)
        assert r.returncode == 0, r.stderr
        cls.file = os.path.join(cls.dir, "run.cpu.vtkhdf")
        # The picture of a zero field: only the colour bar and the side panels' curves are
        # coloured. Counts below are over this baseline: what the field itself colours.
        zero = os.path.join(cls.dir, "zero.vtkhdf")
        shutil.copy(cls.file, zero)
        with h5py.File(zero, "r+") as f:
            f["VTKHDF/PointData/u"][...] = 0.0
        assert run(VIEW, zero, "-o", "zero.png", cwd=cls.dir).returncode == 0
        cls.baseline = colours(os.path.join(cls.dir, "zero.png"))

    def field_colours(self, png):
        red, blue, spread = colours(os.path.join(self.dir, png))
        return red - self.baseline[0], blue - self.baseline[1], spread

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def view(self, *args):
        return run(VIEW, *args, cwd=self.dir)


class View(ViewFixture):

    def test_picture_exists_is_not_blank_and_follows_the_field(self):
        r = self.view(self.file, "-o", "a.png")
        self.assertEqual(r.returncode, 0, r.stderr)
        red, blue, spread = self.field_colours("a.png")
        self.assertGreater(spread, 0.05, "a blank picture")
        self.assertGreater(red + blue, 500, "the wave should colour the slices")
        # Planted: the last snapshot's u made +1 in the half x < nx/2 and 0 elsewhere: red there
        # and no blue; the same with -1: blue and no red. The picture follows the field's sign.
        for sign, name in ((1.0, "pos"), (-1.0, "neg")):
            path = os.path.join(self.dir, name + ".vtkhdf")
            shutil.copy(self.file, path)
            with h5py.File(path, "r+") as f:
                last = int(f["VTKHDF/Steps/PointDataOffsets/u"][-1])
                field = np.zeros(f["VTKHDF/PointData/u"].shape[1:])
                field[:, :, : field.shape[2] // 2] = sign
                f["VTKHDF/PointData/u"][last] = field
            self.assertEqual(self.view(path, "-o", name + ".png").returncode, 0)
            pred, pblue, _ = self.field_colours(name + ".png")
            hot, cold = (pred, pblue) if sign > 0 else (pblue, pred)
            self.assertGreater(hot, 5000, name)
            self.assertLessEqual(cold, 0, name)
        # Planted: the field zeroed: no colour left in the slices.
        self.assertEqual(self.field_colours("zero.png")[:2], (0, 0))

    def test_a_chosen_step_and_slices(self):
        r = self.view(self.file, "--step", "10", "--slice", "5,6,7", "-o", "s.png")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("step 10, slices through i,j,k = 5,6,7", r.stdout)

    def test_difference_of_a_file_with_itself_is_empty_and_with_another_is_not(self):
        self.assertEqual(self.view(self.file, "--diff", self.file, "-o", "d0.png").returncode, 0)
        red, blue, _ = self.field_colours("d0.png")
        self.assertEqual((red, blue), (0, 0))
        other = os.path.join(self.dir, "other.vtkhdf")
        shutil.copy(self.file, other)
        with h5py.File(other, "r+") as f:
            last = int(f["VTKHDF/Steps/PointDataOffsets/u"][-1])
            f["VTKHDF/PointData/u"][last, 12, 16, 20] += 1.0  # one point: a difference at the centre
        self.assertEqual(self.view(self.file, "--diff", other, "-o", "d1.png").returncode, 0)
        red, blue, _ = self.field_colours("d1.png")
        self.assertGreater(blue, 0, "file - other is -1 at the planted point: blue")

    def test_single_precision_snapshots_differ_from_double_by_rounding_only(self):
        r = run(EXE, "-shape", "40,32,24", "-nsteps", "30", "-out_period", "10", "-impl", "cpu", "-quiet",
                "-snapshot_precision", "single", "-snapshot_fields", "u", "-checkpoint_period", "20", "single",
                cwd=self.dir)
        self.assertEqual(r.returncode, 0, r.stderr)
        single = os.path.join(self.dir, "single.cpu.vtkhdf")
        r = self.view(single, "--diff", self.file, "-o", "ds.png")
        self.assertEqual(r.returncode, 0, r.stderr)
        line = next(x for x in r.stdout.splitlines() if "largest |difference|" in x)
        largest = float(line.split("slices ")[1].split()[0])
        scale = float(line.split("largest |u| ")[1].split(";")[0])
        self.assertIn("float32 in single.cpu.vtkhdf, float64 in run.cpu.vtkhdf", line)
        # float32 rounds to nearest: |x - float(x)| <= |x| * 2^-24, and a wave is not all representable
        self.assertGreater(largest, 0.0, line)
        self.assertLessEqual(largest, scale * 2.0**-24, line)

    def test_animation_has_every_snapshot(self):
        r = self.view(self.file, "--animate", "a.gif")
        self.assertEqual(r.returncode, 0, r.stderr)
        from PIL import Image
        with Image.open(os.path.join(self.dir, "a.gif")) as gif:
            self.assertEqual(gif.n_frames, 4)  # steps 0, 10, 20, 30

    def test_errors_are_one_line(self):
        text = os.path.join(self.dir, "text.txt")
        with open(text, "w") as f:
            f.write("not a file of awave's\n")
        other = os.path.join(self.dir, "other.h5")
        with h5py.File(other, "w") as f:
            f["x"] = np.arange(3)
        for args, expected in (((os.path.join(self.dir, "missing.vtkhdf"),), "does not exist"),
                               ((text,), "is not an HDF5 file"),
                               ((other,), "is not an awave output file"),
                               ((self.file, "--step", "7"), "holds no snapshot at step 7"),
                               ((self.file, "--slice", "99,0,0"), "--slice needs")):
            r = self.view(*args)
            self.assertEqual(r.returncode, 1, args)
            self.assertTrue(r.stderr.startswith("awave-view: error: "), r.stderr)
            self.assertIn(expected, r.stderr)
            self.assertEqual(r.stderr.count("\n"), 1, r.stderr)

    def test_a_killed_runs_partial_file(self):
        killed = os.environ.get("AWAVE_KILLED_FILE", "")
        self.assertTrue(os.path.exists(killed), f"no killed run's file at {killed!r} (ctest's killed_file fixture)")
        r = self.view(killed, "-o", "killed.png")
        self.assertEqual(r.returncode, 0, r.stderr)
        red, blue, _ = self.field_colours("killed.png")
        self.assertGreater(red + blue, 100)



class ViewOfAnMpiRun(ViewFixture):
    """Registered by ctest in MPI builds only (view.awave_view_of_an_mpi_run), with AWAVE_MPIRUN."""

    def test_an_mpi_runs_file(self):
        self.assertTrue(os.environ.get("AWAVE_MPIRUN"), "AWAVE_MPIRUN is not set")
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMP_NUM_THREADS="1")
        r = subprocess.run([os.environ["AWAVE_MPIRUN"], "-np", "2", "--oversubscribe", EXE, "-shape", "40,32,24",
                            "-nsteps", "30", "-out_period", "10", "-impl", "cpu", "-quiet", "mpi"],
                           cwd=self.dir, capture_output=True, text=True, env=env, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        r = self.view("mpi.cpu.vtkhdf", "-o", "mpi.png")
        self.assertEqual(r.returncode, 0, r.stderr)
        # The same field as the single-process file: the same picture's colours.
        self.assertEqual(self.view(self.file, "-o", "single.png").returncode, 0)
        self.assertEqual(colours(os.path.join(self.dir, "mpi.png"))[:2],
                         colours(os.path.join(self.dir, "single.png"))[:2])


if __name__ == "__main__":
    unittest.main()
