"""What crash safety costs in HDF5, and what SWMR would do after a crash (h5py; run inside the
Debian trixie root that cmake/scripts/make-trixie-root.sh makes, which has h5py):

    python3 bench/studies/hdf5-commit-cost/commit_cost.py DIR

appends 40 snapshots of 2 x 128^3 doubles three ways (no flush; a flush per snapshot, as awave;
SWMR writing with a flush per snapshot), then kills a SWMR writer with SIGKILL and tries to open
its file as VTK's reader and h5py do. Prints one line per measurement.
"""
import os
import signal
import sys
import time

try:
    import h5py
    import numpy as np
except ImportError as missing:
    sys.exit(f"commit_cost: no {missing.name} here: run it in the trixie root (cmake/scripts/make-trixie-root.sh)")

N, SHAPE = 40, (128, 128, 128)


def append_run(path, mode):
    data = np.random.default_rng(1).random(SHAPE)
    start = time.perf_counter()
    f = h5py.File(path, "w", libver="latest" if mode == "swmr" else "earliest")
    u = f.create_dataset("u", (0,) + SHAPE, maxshape=(None,) + SHAPE, chunks=(1,) + SHAPE)
    v = f.create_dataset("u_prev", (0,) + SHAPE, maxshape=(None,) + SHAPE, chunks=(1,) + SHAPE)
    if mode == "swmr":
        f.swmr_mode = True
    flush_time = 0.0
    for t in range(N):
        for ds in (u, v):
            ds.resize((t + 1,) + SHAPE)
            ds[t] = data
        if mode != "none":
            s = time.perf_counter()
            f.flush()
            flush_time += time.perf_counter() - s
    f.close()
    total = time.perf_counter() - start
    os.remove(path)
    return total, flush_time


def killed_swmr_file(path):
    pid = os.fork()
    if pid == 0:
        f = h5py.File(path, "w", libver="latest")
        d = f.create_dataset("x", (0, 1000), maxshape=(None, 1000), chunks=(1, 1000))
        f.swmr_mode = True
        for t in range(3):
            d.resize((t + 1, 1000))
            d[t] = t
            f.flush()
        os.kill(os.getpid(), signal.SIGKILL)
    os.waitpid(pid, 0)
    for how, kwargs in (("plain open (as VTK's vtkHDFReader)", {}), ("SWMR-read open", {"libver": "latest", "swmr": True})):
        try:
            with h5py.File(path, "r", **kwargs) as f:
                print(f"after SIGKILL of a SWMR writer, {how}: opens, {f['x'].shape[0]} rows")
        except Exception as e:  # noqa: BLE001 - the message is the measurement
            print(f"after SIGKILL of a SWMR writer, {how}: fails: {e}")
    os.remove(path)


def main(directory):
    print(f"h5py {h5py.__version__}, HDF5 {h5py.version.hdf5_version}; {N} snapshots of 2 x {SHAPE} doubles "
          f"({2 * N * np.prod(SHAPE) * 8 / 1e9:.2f} GB) into {directory}")
    for mode in ("none", "flush", "swmr"):
        runs = [append_run(os.path.join(directory, f"cost-{mode}.h5"), mode) for _ in range(3)]
        best = min(runs)
        print(f"{mode:>5}: best of 3 {best[0]:.3f} s total, {1e3 * best[1] / N:.3f} ms flushing per snapshot")
    killed_swmr_file(os.path.join(directory, "killed-swmr.h5"))


if __name__ == "__main__":
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: commit_cost.py DIR (an existing folder)")
    main(sys.argv[1])
