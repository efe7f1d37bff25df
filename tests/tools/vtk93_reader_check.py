"""Open an awave .vtkhdf file with VTK's own vtkHDFReader (VTK 9.3, as in ParaView 5.12) and
check what a user would see: image extent and spacing, every array, every time step, and the
values, compared with the raw HDF5 data read through h5py.

    python3 vtk93_reader_check.py FILE              check FILE, exit 1 on any problem
    python3 vtk93_reader_check.py --self-test FILE  plant faults in copies of FILE and make
                                                    sure each one is caught

Runs inside the Debian trixie root made by cmake/scripts/make-trixie-root.sh.
"""
import shutil
import sys
import tempfile

import h5py
import numpy as np
import vtk
from vtk.util.numpy_support import vtk_to_numpy


def check(path):
    """Return a list of problems (empty when the file reads correctly through VTK)."""
    problems = []
    with h5py.File(path, "r") as f:
        params = f["wave_params"].attrs
        nx, ny, nz = (int(v) for v in params["shape"])
        dx = float(params["dx"])
        values = np.asarray(f["VTKHDF/Steps/Values"])
        # Slots are allocated for the whole run; an interrupted run's file fills the first NSteps.
        n = int(f["VTKHDF/Steps"].attrs["NSteps"])
        u = np.asarray(f["VTKHDF/PointData/u"][:n])  # float64, or float32 (-snapshot_precision single)
        # u_prev is absent from files of -snapshot_fields u
        u_prev = np.asarray(f["VTKHDF/PointData/u_prev"][:n]) if "u_prev" in f["VTKHDF/PointData"] else None
        sos = np.asarray(f["VTKHDF/PointData/sos"])[0]
        damp = np.asarray(f["VTKHDF/PointData/damp"])[0]

    # What the data must be, independent of VTK: sos depends on depth only and lies in the
    # table's range, damp is 0 in the bulk, and the first step holds the initial pulse.
    nbl = 4
    if not (np.all(sos == sos[:, :1, :1]) and sos.min() >= 1516.2 and sos.max() <= 1541.0):
        problems.append("sos is not a depth-only speed within the table's range")
    if damp.min() < 0 or np.any(damp[:, nbl:ny - nbl, nbl:nx - nbl] != 0):
        problems.append("damp is negative somewhere or non-zero in the bulk")
    hx, hy, hz = (nx + 2) // 2 - 1, (ny + 2) // 2 - 1, (nz + 2) // 2 - 1
    if len(values) < 2 or values[0] != 0 or u[0, hz, hy, hx] != 50.0:
        problems.append("the first step is not the initial condition (t = 0, 50 at the centre)")

    reader = vtk.vtkHDFReader()
    if not reader.CanReadFile(path):
        return [f"vtkHDFReader cannot read {path}"]
    reader.SetFileName(path)
    reader.Update()
    nsteps = reader.GetNumberOfSteps()
    if nsteps != len(values):
        problems.append(f"VTK sees {nsteps} time steps, file has {len(values)}")
    for step in range(nsteps):
        reader.SetStep(step)
        reader.Update()
        image = reader.GetOutput()
        if image is None or image.GetNumberOfPoints() == 0:
            problems.append(f"step {step}: VTK produced no image")
            break
        if tuple(image.GetExtent()) != (0, nx - 1, 0, ny - 1, 0, nz - 1):
            problems.append(f"step {step}: extent {image.GetExtent()}")
        if not np.allclose(image.GetSpacing(), (dx, dx, dx)):
            problems.append(f"step {step}: spacing {image.GetSpacing()}")
        pd = image.GetPointData()
        expected = {"u": u[step], "sos": sos, "damp": damp}
        if u_prev is not None:
            expected["u_prev"] = u_prev[step]
        elif pd.GetArray("u_prev") is not None:
            problems.append(f"step {step}: VTK shows a u_prev the file does not hold")
        for name, want in expected.items():
            array = pd.GetArray(name)
            if array is None:
                problems.append(f"step {step}: no array {name}")
                continue
            got = vtk_to_numpy(array).reshape(nz, ny, nx)  # VTK point order: x fastest
            if got.dtype != want.dtype:
                problems.append(f"step {step}: array {name} is {got.dtype} in VTK, {want.dtype} in the file")
            elif not np.array_equal(got, want):
                problems.append(f"step {step}: array {name} differs from the file's data")
    return problems


def plant_faults(path, workdir):
    """Copies of `path`, each broken in a way that stops ParaView from loading it."""
    def variant(name, mutate):
        copy = f"{workdir}/{name}.vtkhdf"
        shutil.copy(path, copy)
        with h5py.File(copy, "r+") as f:
            mutate(f)
        return name, copy

    def variable_length_type(f):  # what the original program wrote
        del f["VTKHDF"].attrs["Type"]
        f["VTKHDF"].attrs.create("Type", "ImageData", dtype=h5py.string_dtype("ascii"))

    def one_step(f):  # a single step is taken as static data
        f["VTKHDF/Steps"].attrs["NSteps"] = 1

    def wrong_extent(f):
        f["VTKHDF"].attrs["WholeExtent"] = np.array(f["VTKHDF"].attrs["WholeExtent"]) + [0, 1, 0, 0, 0, 0]

    def corrupt_value(f):
        f["VTKHDF/PointData/sos"][0, 0, 0, 0] = -1.0

    def wrong_spacing(f):
        f["VTKHDF"].attrs["Spacing"] = np.array(f["VTKHDF"].attrs["Spacing"]) * 2

    return [variant("variable_length_type", variable_length_type), variant("one_step", one_step),
            variant("wrong_extent", wrong_extent), variant("corrupt_value", corrupt_value),
            variant("wrong_spacing", wrong_spacing)]


def main(argv):
    vtk.vtkObject.GlobalWarningDisplayOff()  # VTK's own error dumps; problems are listed below
    if len(argv) == 3 and argv[1] == "--self-test":
        problems = check(argv[2])
        if problems:
            print("self-test: the intact file fails:", *problems, sep="\n  ")
            return 1
        missed = []
        with tempfile.TemporaryDirectory() as workdir:
            for name, broken in plant_faults(argv[2], workdir):
                try:
                    found = check(broken)
                except Exception as e:  # the reader or h5py refusing the file is a catch too
                    found = [f"exception: {e}"]
                print(f"planted fault {name}: {'caught: ' + found[0] if found else 'MISSED'}")
                if not found:
                    missed.append(name)
        return 1 if missed else 0
    if len(argv) != 2:
        print(__doc__)
        return 2
    problems = check(argv[1])
    for p in problems:
        print("PROBLEM:", p)
    print(f"{argv[1]}: {'FAIL' if problems else 'OK: opens in VTK 9.3 vtkHDFReader with every step and array'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
