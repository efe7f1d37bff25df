#!/usr/bin/python3
"""awave-view: pictures of an awave output file (complete, a killed run's .partial, or written over MPI).

    awave-view FILE [-o OUT.png] [--step N] [--slice I,J,K] [--diff OTHER] [--animate OUT.gif|OUT.mp4]

Draws the three central slices of u (or those through --slice, interior indices) at the last
snapshot or at time counter --step, with a diverging colour map centred on 0, axes in metres,
the step and time in the title and the sponge layers marked, beside the sound-speed profile and
the damping. --diff OTHER draws FILE - OTHER in the same layout (an implementation against the
reference, or single-precision snapshots against double ones) and prints the largest difference. --animate writes every snapshot with one colour scale (GIF; MP4 where ffmpeg is
present). Reads one slice at a time (h5py hyperslabs), so a 1000^3 file renders in little memory.
Errors are one line and exit 1.
"""
import argparse
import os
import shutil
import sys

try:
    import h5py
    import numpy as np
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import animation
except ImportError as e:  # pragma: no cover
    sys.exit(f"awave-view: error: {e.name} is missing (Debian: apt-get install python3-h5py python3-matplotlib)")


class ViewError(Exception):
    pass


class AwaveFile:
    """An awave VTKHDF file, read a slice at a time."""

    def __init__(self, path):
        if not os.path.isfile(path):
            raise ViewError(f"'{path}' does not exist or is not a file")
        try:
            self.h5 = h5py.File(path, "r")
        except OSError:
            raise ViewError(f"'{path}' is not an HDF5 file")
        if "VTKHDF" not in self.h5 or "wave_params" not in self.h5 or "u" not in self.h5.get("VTKHDF/PointData", {}):
            raise ViewError(f"'{path}' is not an awave output file (no /VTKHDF/PointData/u or /wave_params)")
        self.path = path
        wp = self.h5["wave_params"].attrs
        self.nx, self.ny, self.nz = (int(v) for v in wp["shape"])
        self.dx, self.dt = float(wp["dx"]), float(wp["dt"])
        self.nbl = int(wp["nBoundaryLayers"])
        steps = self.h5["VTKHDF/Steps"]
        n = min(int(steps.attrs["NSteps"]), len(steps["Values"]), len(steps["PointDataOffsets/u"]))
        if n < 1:
            raise ViewError(f"'{path}' holds no snapshot")
        self.values = [int(v) for v in steps["Values"][:n]]
        self.slots = [int(v) for v in steps["PointDataOffsets/u"][:n]]
        self.u = self.h5["VTKHDF/PointData/u"]  # [t][nz][ny][nx]

    def snapshot(self, step):
        """Index of the snapshot at time counter `step` (None: the last)."""
        if step is None:
            return len(self.values) - 1
        if step not in self.values:
            raise ViewError(f"'{self.path}' holds no snapshot at step {step} (it holds {self.values[0]}..."
                            f"{self.values[-1]}: {', '.join(map(str, self.values[:8]))}"
                            f"{', ...' if len(self.values) > 8 else ''})")
        return self.values.index(step)

    def slices(self, n, ijk):
        """The xy (at k), xz (at j) and yz (at i) slices of u at snapshot n: 2-D arrays."""
        i, j, k = ijk
        t = self.slots[n]
        return (self.u[t, k, :, :], self.u[t, :, j, :], self.u[t, :, :, i])

    def sos_profile(self, i, j):
        return self.h5["VTKHDF/PointData/sos"][0, :, j, i]

    def damp_x(self, j):
        return self.h5["VTKHDF/PointData/damp"][0, 0, j, :]


def centre(f, given):
    if given is None:
        return (f.nx // 2, f.ny // 2, f.nz // 2)
    try:
        ijk = tuple(int(v) for v in given.split(","))
    except ValueError:
        ijk = ()
    if len(ijk) != 3 or not all(0 <= v < m for v, m in zip(ijk, (f.nx, f.ny, f.nz))):
        raise ViewError(f"--slice needs I,J,K within 0..{f.nx - 1},0..{f.ny - 1},0..{f.nz - 1}, got '{given}'")
    return ijk


def draw(fig, f, planes, ijk, title, vmax, label):
    """The three slices, the sponge marked, and the side panel of sound speed and damping."""
    fig.clf()
    gs = fig.add_gridspec(2, 3, width_ratios=[1, 1, 0.6])
    ex, ey, ez = f.nx * f.dx, f.ny * f.dx, f.nz * f.dx
    i, j, k = ijk
    panels = [(gs[0, 0], planes[0], (0, ex, 0, ey), "x [m]", "y [m]", f"z = {k * f.dx:g} m (k = {k})", (True, True)),
              (gs[0, 1], planes[1], (0, ex, ez, 0), "x [m]", "depth z [m]", f"y = {j * f.dx:g} m (j = {j})",
               (True, False)),
              (gs[1, 0], planes[2], (0, ey, ez, 0), "y [m]", "depth z [m]", f"x = {i * f.dx:g} m (i = {i})",
               (True, False))]
    image = None
    sponge = f.nbl * f.dx
    for spec, data, extent, xl, yl, name, (sx, sy) in panels:
        ax = fig.add_subplot(spec)
        image = ax.imshow(data, origin="lower" if extent[2] < extent[3] else "upper", extent=extent,
                          cmap="RdBu_r", vmin=-vmax, vmax=vmax, aspect="auto", interpolation="nearest")
        ax.set_xlabel(xl)
        ax.set_ylabel(yl)
        ax.set_title(name, fontsize=9)
        # Sponge layers (x and y faces only): dashed lines nbl points in.
        for edge in (sponge, extent[1] - sponge):
            ax.axvline(edge, color="k", lw=0.7, ls="--")
        if sy:
            for edge in (sponge, extent[3] - sponge):
                ax.axhline(edge, color="k", lw=0.7, ls="--")
    slice_axes = list(fig.axes)
    fig.colorbar(image, ax=slice_axes, location="right", shrink=0.8, label=label)
    profile = fig.add_subplot(gs[0, 2])
    profile.plot(f.sos_profile(i, j), (np.arange(f.nz) + 0.5) * f.dx, color="tab:blue")
    profile.invert_yaxis()
    profile.set_xlabel("sound speed [m/s]")
    profile.set_ylabel("depth z [m]")
    profile.set_title("speed of sound", fontsize=9)
    damping = fig.add_subplot(gs[1, 2])
    damping.plot((np.arange(f.nx) + 0.5) * f.dx, f.damp_x(j), color="tab:red")
    damping.set_xlabel("x [m]")
    damping.set_ylabel("damping [1/s]")
    damping.set_title(f"sponge along x at y = {j * f.dx:g} m", fontsize=9)
    fig.suptitle(title)


def render(args):
    f = AwaveFile(args.file)
    ijk = centre(f, args.slice)
    other = AwaveFile(args.diff) if args.diff else None
    if other and (other.nx, other.ny, other.nz) != (f.nx, f.ny, f.nz):
        raise ViewError(f"'{args.diff}' is {other.nx}x{other.ny}x{other.nz}, '{args.file}' {f.nx}x{f.ny}x{f.nz}")

    def planes(n):
        p = f.slices(n, ijk)
        if other:
            q = other.slices(other.snapshot(f.values[n]), ijk)
            p = tuple(a - b for a, b in zip(p, q))
        return p

    name = os.path.basename(args.file) + (f" - {os.path.basename(args.diff)}" if other else "")
    label = "u difference" if other else "u"
    fig = plt.figure(figsize=(12, 7.5), dpi=100, layout="constrained")
    if args.animate:
        # One colour scale for every frame: the largest |u| of the slices over the run.
        vmax = max(float(np.abs(a).max()) for n in range(len(f.values)) for a in planes(n)) or 1.0

        def frame(n):
            draw(fig, f, planes(n), ijk, f"{name}: step {f.values[n]}, t = {f.values[n] * f.dt:.4g} s", vmax, label)
        movie = animation.FuncAnimation(fig, frame, frames=len(f.values))
        if args.animate.endswith(".mp4"):
            if not shutil.which("ffmpeg"):
                raise ViewError("MP4 needs ffmpeg, which is not installed: write a .gif instead")
            movie.save(args.animate, writer=animation.FFMpegWriter(fps=4))
        else:
            movie.save(args.animate, writer=animation.PillowWriter(fps=4))
        print(f"awave-view: {args.animate} ({len(f.values)} snapshots)")
        return
    n = f.snapshot(args.step)
    p = planes(n)
    vmax = max(float(np.abs(a).max()) for a in p) or 1.0
    draw(fig, f, p, ijk, f"{name}: step {f.values[n]}, t = {f.values[n] * f.dt:.4g} s", vmax, label)
    out = args.output or os.path.splitext(os.path.basename(args.file.replace(".partial", "")))[0] + ".png"
    fig.savefig(out)
    print(f"awave-view: {out} (step {f.values[n]}, slices through i,j,k = {ijk[0]},{ijk[1]},{ijk[2]})")
    if other:
        largest = max(float(np.abs(a).max()) for a in p)
        scale = max(float(np.abs(a).max()) for a in f.slices(n, ijk))
        print(f"awave-view: largest |difference| on these slices {largest:.6g} (largest |u| {scale:.6g}; "
              f"u is {f.u.dtype} in {os.path.basename(args.file)}, {other.u.dtype} in {os.path.basename(args.diff)})")


def main(argv):
    parser = argparse.ArgumentParser(prog="awave-view", description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("-o", "--output", help="PNG to write (default: the file's stem .png, here)")
    parser.add_argument("--step", type=int, help="the snapshot at this time counter (default: the last)")
    parser.add_argument("--slice", help="interior indices I,J,K of the three slices (default: the centre)")
    parser.add_argument("--diff", help="draw FILE - OTHER")
    parser.add_argument("--animate", help="write every snapshot to this .gif (or .mp4 with ffmpeg)")
    args = parser.parse_args(argv)
    try:
        render(args)
    except ViewError as e:
        print(f"awave-view: error: {e}", file=sys.stderr)
        return 1
    except (OSError, KeyError, ValueError) as e:
        print(f"awave-view: error: '{args.file}' cannot be read: {e}".replace("\n", " "), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
