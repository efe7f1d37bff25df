"""Section 2: the product over MPI on several GPUs: weak and strong scaling of its present exchange, the
GPU-to-GPU path's checks, the sweep over MPI. What the runs show, the targets and the earlier machines' runs are
in the results folders' READMEs the section cites."""
import os
import re

from ..catalog.paths import BENCH as HERE
from ..runs import files as runfiles
from ..runs.record import load_runs, steady_su, steady_su_of, with_results
from .markdown import fmt_su, table_head


def mpi_section(w, number, runs, nccl, sweeps):
    """Section NUMBER: over MPI on several GPUs: each folder's scaling table (runs), the NCCL checks (nccl: their
    summaries), the sweep over MPI (sweeps)."""
    present = with_results(runs)
    if not present:
        return
    w(f"## {number}. Over MPI: several GPUs, one grid\n")
    w("`mpirun -np P awave`: slabs of x-planes, one GPU a process, the halo exchange once in the core "
      "(`src/parallel/halo_exchange.cpp`) by `-halo nccl` (GPU to GPU; `nccl, GPU order`: CUDA events order it with "
      "the kernels; `nccl, host order`: host waits, the offload codes' synchronous target regions having no stream) "
      "or `-halo mpi` (pinned host buffers); the planes travel while the bulk of the step computes; one output file "
      "through parallel HDF5 (`tests/tools/mpi_check.sh` in CI). Runs by `bench/device/mpi-scaling.sh`; SU/s: the median "
      "of the chunks after the first (the first, beside it, carries the exchange's warm-up); efficiency against the "
      "build's 1-GPU run. What they show, issue 17's targets and the runs before: "
      "`bench/results/h200x2-2026-11-24/README.md`; the earlier machines' (the first NCCL and host-memory paths, 4 "
      "GPUs): `bench/results/h200x2-2026-11-23/README.md`.\n")
    for d in present:
        mpi_machine(w, d)
    nccl_checks(w, nccl)
    sweep_paragraph(w, sweeps)


def sweep_paragraph(w, folders):
    """Sweeps over MPI (issue 46): the newest commit's measured runs; the commits before, the targets and the
    model beyond 2 GPUs are in the folders' README."""
    present = [d for d in folders if os.path.isdir(d)]
    if not present:
        return
    w("### Sweeps over MPI (issue 46)\n")
    w("Where an implementation sweeps, a slab also computes the sweep's depth of each neighbour's planes and the "
      "exchange carries them once a sweep (`src/parallel/step_loop.cpp`, `docs/mpi.md`); every file of 1-4 "
      f"processes is h5diff-identical to one process's (`checks/` of each folder). `{os.path.relpath(present[-1], HERE)}` "
      "(the commits before, the targets and a model beyond 2 GPUs: `bench/results/h200x2-2026-11-26/README.md`):\n")
    w(runfiles.read_text(os.path.join(present[-1], "table.md")).rstrip() + "\n")


def nccl_checks(w, summaries):
    """The GPU-to-GPU path's checks (bench/device/nccl-checks.sh): each summary's counts and planted faults."""
    w("The GPU-to-GPU path's checks (`bench/device/nccl-checks.sh`: `tests/tools/mpi_check.sh` with `-halo nccl`, each "
      "file h5diff-identical to one process's, and planted faults; what each showed: its folder's README):\n")
    table_head(w, ["summary", "checks (ok, failures)", "planted faults that ended as the check expects", "status"])
    for path in summaries:
        if not runfiles.exists(path):
            continue
        lines = runfiles.read_text(path).splitlines()
        checks = "; ".join(re.sub(r" on 2 processes", "", line.split(": ", 1)[0] + ": " + line.rsplit(": ", 1)[1])
                           for line in lines if "ok," in line and "failures" in line) or "—"
        planted = [line for line in lines if "planted" in line]
        caught = sum("caught" in line or "rc=3" in line or "PASS" in line for line in planted)
        status = next((line.split()[1] for line in lines if line.startswith("status ")), "?")
        w(f"| `{os.path.relpath(path, HERE)}` | {checks} | {f'{caught} of {len(planted)}' if planted else '—'} | "
          f"{status} |")
    w("")


def halo_label(mpi):
    """The path of a run over several processes, and for NCCL who ordered it with the kernels (runs
    before 8b49ef9 do not say: the host did)."""
    halo = mpi.get("halo", "mpi")
    path = mpi.get("halo_path", "")
    if halo == "nccl" and "ordered on the GPU" in path:
        return "nccl, GPU order"
    if halo == "nccl" and "ordered by the host" in path:
        return "nccl, host order"
    return halo


def mpi_machine(w, d):
    runs = load_runs(d, "")
    gpu = next((r["build"]["accelerator"] for r in runs.values()), "?")
    gpus = runfiles.glob(d, "gpu-*.txt")
    count = sum(1 for line in runfiles.lines(gpus[0]) if line.strip()) if gpus else 0
    rows = []
    for k, r in sorted(runs.items()):
        kind, build = k.split("_")[:2]  # KIND_BUILD_npP
        if kind not in ("weak", "strong"):
            continue
        base = runs.get(f"weak_{build}_np1")
        for impl in r["implementations"]:
            mpi = impl.get("mpi") or {}
            procs = mpi.get("processes", 1)
            if procs == 1 and kind == "strong":
                continue  # the 1-GPU run once (weak's)
            su, first = steady_su(r, impl)
            ref = steady_su_of(base, impl["id"])
            eff = su / (procs * ref) if ref else None
            chunk = mpi.get("chunks", [])
            last = chunk[-1] if chunk else None
            steps = impl["chunk_steps"][-1]
            breakdown = (f"{1e3 * last['step_seconds'] / steps:.2f} / {1e3 * last['halo_copy_seconds'] / steps:.2f} / "
                         f"{1e3 * last['mpi_seconds'] / steps:.2f}") if last else "—"
            # The strong run's slab alone on one GPU (SLAB=1): the share the exchange costs.
            slab_run = runs.get(f"slab_{build}_np{procs}") if kind == "strong" and procs > 1 else None
            slab_su = steady_su_of(slab_run, impl["id"])
            points = r["params"]["shape"][0] * r["params"]["shape"][1] * r["params"]["shape"][2]
            extra_ms = 1e3 * (points / su - points / (procs * slab_su)) if slab_su else 0
            slab = (f"{fmt_su(slab_su)} ({100 * su / (procs * slab_su):.1f}%; {extra_ms:+.2f} ms a step)"
                    if slab_su else "—")
            rows.append((build, impl["id"], procs, kind if procs > 1 else "—", halo_label(mpi) if procs > 1 else "—",
                         "x".join(map(str, r["params"]["shape"])), su, first, eff, slab, breakdown))
    if not rows:
        return
    w(f"### {count} x {gpu} (`{os.path.relpath(d, HERE)}`)\n")
    table_head(w, ["build", "implementation", "GPUs", "scaling", "halo", "grid", "SU/s", "first chunk", "efficiency",
                   "one slab alone on 1 GPU (efficiency against it; the step's time beyond it)",
                   "last chunk per step: kernels not overlapped / halo copies / exchange wait [ms]"])
    for build, impl, procs, kind, halo, shape, su, first, eff, slab, breakdown in sorted(rows, key=lambda r: r[:4]):
        w(f"| {build} | {impl} | {procs} | {kind} | {halo} | {shape} | {fmt_su(su)} | {fmt_su(first)} | "
          f"{'—' if eff is None else f'{100 * eff:.1f}%'} | {slab} | {breakdown} |")
    w("")
