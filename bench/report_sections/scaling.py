"""Section 14: MPI and NCCL over several GPUs."""
import os
import re
import sys

from .common import fmt_su, load_runs, runfiles, steady_su, steady_su_of, with_results
from .inputs import DEFAULT_NCCL, DEFAULT_SWEEP_MPI, HERE

sys.path.insert(0, HERE)
import scaling_model  # noqa: E402


def mpi_section(w, mpi_dirs):
    """Section 2: over MPI on several GPUs: checks, weak and strong scaling of the product's present
    exchange (the earlier machines' runs are in their results folders' READMEs)."""
    present = with_results(mpi_dirs)
    if not present:
        return
    w("## 2. Over MPI: several GPUs, one grid\n")
    w("`mpirun -np P awave`: slabs of x-planes, one GPU per process, the halo exchange once in the core "
      "(`src/parallel/halo_exchange.cpp`) by one of two paths, chosen with `-halo` and shown per run below: "
      "`nccl`, GPU to GPU (`ncclSend`/`ncclRecv` straight from and into the `now` field; the default in the "
      "GPU MPI builds where every process of a node has its own GPU), and `mpi`, through pinned host buffers "
      "and MPI (OpenMPI not being CUDA-aware; host builds, machines without NCCL, processes sharing a GPU). "
      "The planes travel while the bulk of the step computes (it reads no ghost plane); the edges follow "
      "their arrival. Through NCCL, hand CUDA and Kokkos-CUDA keep that order on the GPU (`nccl, GPU "
      "order`: CUDA events between their stream and NCCL's, the host a step ahead; since 8b49ef9/9b9bd49), "
      "the OpenMP offload codes, whose target regions are synchronous and have no stream to order, by "
      "host waits (`nccl, host order`; `AWAVE_NCCL_ORDER=host` forces it, to compare); one output file through parallel HDF5 "
      "(tested in CI: `tests/mpi_check.sh`). Runs by `bench/device/mpi-scaling.sh` (`HALO=nccl|mpi`, "
      "`SLAB=1`), per machine below, newest first. SU/s: the median of the chunks after the first (the "
      "first carries the exchange's warm-up; it is shown beside). Targets (issue 17, H200, 1024^3): strong "
      "scaling >= 97% at 2 GPUs, >= 90% at 4, >= 80% at 8; weak >= 97% at 2 and 4; the exchange's time not "
      "hidden by the bulk <= 0.2 ms a step; the same for the OpenMP offload builds.\n")
    for d in present:
        mpi_machine(w, d)
    w("The earlier machines' runs (the host-ordered exchange, the first NCCL and host-memory paths, 4 GPUs): "
      "`bench/results/h200x2-2026-11-23/README.md`.\n")
    w("What limits it. Through host memory (`mpi`), each 8.4 MB plane goes device -> pinned host -> "
      "shared memory -> host -> device: 2.3-2.6 ms of wait a step at 2 GPUs, as long as the shrunken bulk, "
      "and it does not shrink with more GPUs: 89-92% strong at 2 GPUs, 56-69% at 4 (turning "
      "OpenMPI's single-copy transfers off changed nothing, `results/h200x2-2026-11-22/mpi-vader-copy`). "
      "GPU to GPU (`nccl`, NVLink NV18 between the two H200s, `results/h200x2-2026-11-24/nccl-order-8b49ef9/topo.txt`) "
      "with the host ordering the exchange, hand CUDA and Kokkos-CUDA reached 94.7-95.8% strong and "
      "97.0-97.7% weak (`nccl-order-8b49ef9/mpi-host` and `mpi-host-r2`; 94.6-95.3% and 96.5-97.1% in "
      "the two sessions before). Each strong run's slab alone on one GPU (512x1024x1024, `slab_*`) runs at "
      "the whole grid's rate on one, so the slab's size costs nothing; what stood between 95% and 100% was "
      "a fixed 0.16-0.20 ms a step beyond the slab's own time, the same in the weak runs, so not a "
      "transfer the bulk failed to hide (a plane takes about 66 us over NVLink, the bulk 3.7 ms) but the "
      "host's part of each step: it waited for the previous step before queueing the planes, for the "
      "planes before queueing the edges, and for the step's end, and the GPU idled at each wait. "
      "Ordered on the GPU instead (CUDA events: the planes leave when the stream has finished the previous "
      "step, the edges wait for their arrival on the GPU, the host queues a step ahead and waits only for "
      "the step before; 9b9bd49, `nccl-order-9b9bd49/mpi-gpu` and `mpi-gpu-r2`), the same runs give "
      "98.5% strong for hand CUDA and 98.9-99.0% for Kokkos-CUDA, 0.03-0.04 ms a step beyond the slab alone, "
      "and 99.4-99.7% weak; hand CUDA alone measured the same at 8b49ef9 (98.5-98.6%, 99.5%; there "
      "Kokkos-CUDA was still ordered by the host: its default CUDA instance queues on the legacy default "
      "stream, whose null handle the first version took for no stream). The time the edges waited on the "
      "GPU for the planes after the bulk ended (CUDA event timing, the last column's exchange wait) is 0 "
      "in every such run: the planes always arrive within the bulk, and the 0.03-0.04 ms left is the split "
      "step itself (two kernel launches and four events a step against the single run's CUDA graph). "
      "Every file of 2 processes, through either order, is h5diff-identical to 1 process's, up to "
      "256x192x160 (`nccl-order-9b9bd49/nccl-checks`). Targets met at 2 GPUs: strong >= 97% and weak "
      ">= 97% for hand CUDA and Kokkos-CUDA, the exchange's time beyond the bulk <= 0.2 ms. Missed: the "
      "OpenMP offload rows (at d9dae2a, `nccl-omp-d9dae2a`: 93.8% and 94.5% strong, 96.6% and 97.9% weak "
      "for hand omp and Kokkos-OMPT; 85.6-94.5% and 89.1-99.0% in the sessions before): their target "
      "regions are synchronous and have no stream to order NCCL with, so they keep the host's order and "
      "its fixed cost (0.24-0.29 ms a step beyond the slab alone); an OpenMP interop object (`omp interop init(targetsync)`, "
      "the runtime's CUDA stream) with `nowait` regions is the route, not built. The 4-GPU rows above are the host-staged path's; "
      "the sweep's 4-GPU scaling over NCCL is below, and 3- and 4-process files through NCCL are checked by the soak "
      "(`results/h200x4-2026-11-26/soak-1c8c958`, `results/h200x4-2026-11-27/soak-8435e1c`: 33 of 33 runs of 2-4 "
      "processes, NCCL and host-MPI halos, every file equal to one process's). 8 GPUs: not lent.\n")
    nccl_paragraph(w, DEFAULT_NCCL)
    sweep_paragraph(w, DEFAULT_SWEEP_MPI)


def sweep_paragraph(w, folders):
    """Sweeps over MPI (issue 46): the measured runs of the newest commit, the commits before, and the model."""
    present = [d for d in folders if os.path.isdir(d)]
    if not present:
        return
    w("### Sweeps over MPI (issue 46)\n")
    w("Where an implementation sweeps (three steps a sweep), a slab also computes 3 planes of each neighbour's, "
      "and the exchange carries 3 planes of u(t) and 2 of u(t-1) a side once a sweep (`src/parallel/step_loop.cpp`, "
      "`docs/mpi.md`); every file of 1-4 processes is h5diff-identical to one process's (CI on the host; "
      "on 2 H200s for the GPU codes, `checks/` of each folder below). Hand CUDA computes the sweep's interior "
      "segments (which read no recomputed plane) while the planes travel, queued before NCCL's calls; Kokkos-CUDA "
      "sweeps whole after the exchange (its parts as a functor of their own ran at 0.83 x). 2 H200s, NVLink, "
      f"`{os.path.relpath(present[-1], HERE)}` (the commits before and their decisions: "
      "`results/h200x2-2026-11-26/README.md`):\n")
    w(runfiles.read_text(os.path.join(present[-1], "table.md")).rstrip() + "\n")
    w("Targets (>= 95% at 2 GPUs, strong at 1024^3 and weak at 512^3 a GPU): hand CUDA 97.4% and 95.7%, met; "
      "Kokkos-CUDA 95.3% strong, met, and 91.6% weak, missed (its exchange, 7.8% of the time, is not hidden: "
      "ordering it on the GPU before the whole sweep is the next lever). Single steps over MPI, as before this "
      "issue, ran 2.85e11 SU/s (hand CUDA) at 1024^3 on the 2 GPUs: the sweep is 1.35 x that. Through host "
      "memory (`-halo mpi`) a sweep's 42 MB a side cost 47-60% of the time (`sweep-mpi-43a53a3`).\n")
    w("A model beyond 2 GPUs (`bench/scaling_model.py`, inputs measured above: the one-GPU rates, an exchange "
      "of a fixed 0.18 ms and 240 GB/s over NVLink, a 400 Gb/s NIC a GPU between nodes): strong scaling of "
      "1024^3, the slowest slab (a middle one from 3 GPUs), the sweep's exchange overlapped with its interior "
      "segments (and not), single steps overlapped with their bulk. At 2 GPUs it gives 0.994 (0.953 without "
      "overlap) where 0.974 (0.937-0.944) was measured: the 2% it misses is the outer segments' own launch and the "
      "host's waits.\n")
    w(scaling_model.table() + "\n")
    w("What the sweep saves is messages and their fixed cost: one message a neighbour every 3 steps instead of "
      "3, so where the fixed cost dominates (NVLink, small slabs) it keeps its one-GPU advantage (1.30-1.36 x "
      "single steps to 8 GPUs in the model). It sends 5/3 the bytes a step (5 planes every 3 steps against 1 a "
      "step), so where bandwidth dominates (between nodes at 1024^3: 84 MB a sweep at 50 GB/s against 1.1 ms "
      "of sweep) single steps, whose plane hides under the bulk, win: 0.58-0.70 x in the model at 16-32 GPUs. "
      "The prev level's second plane could be left out (the sweep's level 2 is right one plane beyond the slab), "
      "4 planes instead of 5; not built.\n")


def nccl_paragraph(w, summaries):
    """The GPU-to-GPU path (src/parallel/nccl_link.cpp): what was measured of it."""
    w("The GPU-to-GPU path's checks (`bench/device/nccl-checks.sh`): on 2 H200s, `tests/mpi_check.sh` with "
      "`-halo nccl` on 2 processes, every implementation's file h5diff-identical to the single-process "
      "file (shapes 10x12x7, 61x23x19, 97x61x33 and, since the GPU order, 256x192x160 for the cuda-mpi "
      "build; fused and split steps; the host implementations of the "
      "same runs go through MPI, as `-h` says), and a stopped process ending its neighbour's run after `-halo_timeout` with one line. "
      "Their power over the GPU order (since eb38183, `nccl-checks-eb38183/nccl-checks`): with a planted fault that "
      "leaves its two event waits out (`AWAVE_FAULT_NCCL_UNORDERED`), 2 processes at 256x192x160 give "
      "files that differ from 1 process's and FAIL the check (88,629 of 8,108,424 points, both "
      "implementations), where the same runs ordered pass bit for bit. 3 and 4 processes through NCCL need "
      "as many GPUs (NCCL takes one process per GPU): the soak on 4 H200s checked them (above). "
      "The first run of these checks (`nccl-checks-3529911`) failed one: with hand CUDA alone and "
      "`-halo nccl`, both processes landed on GPU 0 (NCCL: *Duplicate GPU detected*), because the check "
      "for a GPU per process counted GPUs through CUDA before each process had chosen its own; since "
      "`6f13acb` the GPU list is read once without CUDA (`node_gpus()`, unit-tested) and the same checks "
      "pass (`nccl-checks`, 36 of 36 per build). (The scaling runs above stand: they ran hand CUDA beside "
      "Kokkos-CUDA, whose start chose a GPU per process; NCCL would have refused one GPU for both, and "
      "their rates are two GPUs'.) "
      "On one GPU, with the real NCCL of the machine: processes sharing it fall back to host memory, "
      "saying why, and `-halo nccl` is refused in one line (`results/h200-2026-11-23/nccl-1gpu`).\n")
    w("| summary | checks (ok, failures) | planted faults that ended as the check expects | status |")
    w("|---|---|---|---|")
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
    count = 0
    if gpus:
        count = sum(1 for line in runfiles.lines(gpus[0]) if line.strip())
    w(f"### {count} x {gpu} (`{os.path.relpath(d, HERE)}`)\n")
    checks = [(k, r) for k, r in sorted(runs.items()) if k.startswith("check_")]
    if checks:
        w("Checks (97x61x33, 7 steps, against the threaded CPU reference running distributed too; fused and "
          "split steps):\n")
        w("| run | processes | implementations: differences |")
        w("|---|---|---|")
        for k, r in checks:
            procs = next((i["mpi"]["processes"] for i in r["implementations"] if "mpi" in i), "?")
            w(f"| {k} | {procs} | " + ", ".join(f"{i['id']}: {i.get('differences', '—')}"
                                                  for i in r["implementations"] if not i["is_reference"]) + " |")
        w("")
    for kind, title in (("weak", "Weak scaling: 1024^3 per GPU"), ("strong", "Strong scaling: 1024^3 in all")):
        rows = []
        for k, r in sorted(runs.items()):
            if not (k.startswith(kind + "_") or (kind == "strong" and k.startswith("weak_") and k.endswith("_np1"))):
                continue
            build = k.split("_")[1]  # kind_BUILD_npP
            base = runs.get(f"weak_{build}_np1")
            for impl in r["implementations"]:
                mpi = impl.get("mpi") or {}
                procs = mpi.get("processes", 1)
                su, first = steady_su(r, impl)
                ref = steady_su_of(base, impl["id"])
                eff = su / (procs * ref) if ref else None
                chunk = mpi.get("chunks", [])
                last = chunk[-1] if chunk else None
                steps = impl["chunk_steps"][-1]
                breakdown = (f"{1e3 * last['step_seconds'] / steps:.2f} / {1e3 * last['halo_copy_seconds'] / steps:.2f} / "
                             f"{1e3 * last['mpi_seconds'] / steps:.2f}") if last else "—"
                halo = halo_label(mpi) if procs > 1 else "—"
                # The strong run's slab alone on one GPU (SLAB=1): the share the exchange costs.
                slab_run = runs.get(f"slab_{build}_np{procs}") if kind == "strong" and procs > 1 else None
                slab_su = steady_su_of(slab_run, impl["id"])
                points = r["params"]["shape"][0] * r["params"]["shape"][1] * r["params"]["shape"][2]
                extra_ms = 1e3 * (points / su - points / (procs * slab_su)) if slab_su else 0
                slab = (f"{fmt_su(slab_su)} ({100 * su / (procs * slab_su):.1f}%; {extra_ms:+.2f} ms a step)"
                        if slab_su else "—")
                rows.append((build, impl["id"], procs, halo, "x".join(map(str, r["params"]["shape"])), su, first, eff,
                             slab, breakdown))
        if not rows:
            continue
        w(f"{title}:\n")
        w("| build | implementation | GPUs | halo | grid | SU/s | first chunk | efficiency | one slab alone on 1 GPU "
          "(efficiency against it; the step's time beyond it) | last chunk per step: kernels not overlapped / halo copies / exchange wait [ms] |")
        w("|---|---|---|---|---|---|---|---|---|---|")
        for build, impl, procs, halo, shape, su, first, eff, slab, breakdown in sorted(rows, key=lambda r: r[:4]):
            w(f"| {build} | {impl} | {procs} | {halo} | {shape} | {fmt_su(su)} | {fmt_su(first)} | "
              f"{'—' if eff is None else f'{100 * eff:.1f}%'} | {slab} | {breakdown} |")
        w("")
    big = [(k, r) for k, r in sorted(runs.items()) if k.startswith("big_")]
    for k, r in big:
        shape = r["params"]["shape"]
        fields_gb = 3 * 8 * (shape[0] + 2) * (shape[1] + 2) * (shape[2] + 2) / 1e9
        for impl in r["implementations"]:
            su, first = steady_su(r, impl)
            w(f"A grid no single GPU holds: {'x'.join(map(str, shape))} ({fields_gb:.0f} GB of u fields) over "
              f"{impl['mpi']['processes']} GPUs, {impl['id']}: {fmt_su(su)} SU/s (first chunk {fmt_su(first)}), "
              f"{sum(impl['chunk_steps'])} steps, unchecked (`{k}.json`).\n")
