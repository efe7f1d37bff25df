#!/usr/bin/env python3
"""Turn awave benchmark result files into the portability report (Markdown + PNG plots).

    python3 bench/report.py [RESULTS_DIR ...] [-o OUT_DIR]
    python3 bench/report.py --study STUDY_DIR [--study ...] -o OUT_DIR     (bench/study.sh's report)

The first page answers (bench/portability.py: cascade plots, navigation chart, the table and
the recommendation, from the study directories); the evidence follows (bench/study_evidence.py,
then the sections below); the kernel-shape studies are an appendix; provenance comes last.

Defaults: the committed sweeps under bench/results/ (H100: Kokkos 3.4.01 and 4.6.01 builds; H200
and its 16-core CPU; the 2-core build machine), output bench/report/. Runs are keyed by
platform (the GPU a sweep ran on, or the build machine), build directory and shape; the first
GPU platform is the primary one of sections 1-6.
Every number in the report is read from (or computed from) those files; the same files give
the same report, byte for byte.
"""
import argparse
import glob
import json
import re
import math
import os
import statistics
import sys

try:
    import matplotlib
except ImportError:  # a pyenv/venv python ahead of Debian's on PATH: use Debian's
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    raise
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import portability  # noqa: E402
import study_evidence  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# Later directories replace earlier ones' runs of the same build on the same GPU: the 2026-11-23
# sweeps (clean commits, every run bitwise) replace the cuda and openmptarget builds of the
# 2026-11-22 ones, which keep the Kokkos 4.6 builds (-k46) and the lines-of-code count. The newest
# (commit 3529911): the H200's on the 2-H200 machine (one build per GPU, side by side), the
# H100's cuda build whole and its openmptarget build from 256^3 (the device time left); the
# openmptarget build's smaller H100 runs are c547332's. The header lists every commit used.
DEFAULT_RESULTS = [os.path.join(HERE, "results", d) for d in
                   ("h100-2026-11-22/sweep", "h100-2026-11-23/sweep", "h100-2026-11-23/sweep-c547332",
                    "h100-2026-11-23/sweep-3529911", "h200-2026-11-22/sweep", "h200-2026-11-23/sweep",
                    "h200x2-2026-11-23/sweep", "host-2core-2026-11-22", "h100-2026-11-24/sweep-68fdb71",
                    "h100-2026-11-24/sweep-99be1ee", "h200-2026-11-24/sweep", "h100-2026-11-24/sweep-3e7614a",
                    "h200-2026-11-24/sweep-3e7614a", "h100-2026-11-24/sweep-6f9c835", "h200-2026-11-24/sweep-6f9c835",
                    "h100-2026-11-24/sweep-e6f9f03", "h200-2026-11-24/sweep-e6f9f03",
                    "h100-2026-11-24/sweep-ed62ef4", "h200-2026-11-24/sweep-ed62ef4",
                    "h100-2026-11-24/sweep-5f4d0b8", "h200-2026-11-24/sweep-5f4d0b8")]
# The portability study (bench/study.sh) of each GPU machine, newest last; the lines of code and
# the code divergence of the measured commit (computed on the build machine, which has the compilers).
DEFAULT_STUDY = sorted(glob.glob(os.path.join(HERE, "results", "*", "study-*")))
DEFAULT_EFFORT = sorted(glob.glob(os.path.join(HERE, "results", "build-machine-*", "effort-*")))
# The newest sweep of each GPU, for the targets of section 16 (one directory per GPU).
DEFAULT_NEWEST_SWEEPS = [os.path.join(HERE, "results", d) for d in
                         ("h100-2026-11-24/sweep-5f4d0b8", "h200-2026-11-24/sweep-5f4d0b8")]
# Issue 16's shape study before the product moved (bench/device/kernel-shapes.sh).
DEFAULT_KERNEL_SHAPES = sorted(glob.glob(os.path.join(HERE, "results", "*", "kernel-shapes", "shapes.log")))
# Output overlapping compute (io-overlap.sh) and the row-alignment lever (row-alignment.sh).
DEFAULT_IO = [os.path.join(HERE, "results", "h100-2026-11-22", "io")]
DEFAULT_ALIGN = [os.path.join(HERE, "results", "h100-2026-11-22", "alignment")]
DEFAULT_BITWISE = sorted(glob.glob(os.path.join(HERE, "results", "*", "bitwise")))
DEFAULT_FP_COST = sorted(glob.glob(os.path.join(HERE, "results", "*", "fp-cost")))
DEFAULT_OMP_SHAPES = sorted(glob.glob(os.path.join(HERE, "results", "*", "omp-shapes*", "*.txt")) +
                            glob.glob(os.path.join(HERE, "results", "*", "omp-shapes*", "*.jsonl")) +
                            glob.glob(os.path.join(HERE, "results", "*", "kernel-shapes", "*.jsonl")) +
                            glob.glob(os.path.join(HERE, "results", "*", "omp-teams*", "omp-shapes.jsonl")) +
                            glob.glob(os.path.join(HERE, "results", "*", "kokkos-ompt-team*", "omp-shapes.jsonl")))
DEFAULT_CUDA_SHAPES = sorted(glob.glob(os.path.join(HERE, "results", "*", "cuda-shapes*", "cuda-shapes.jsonl")))
DEFAULT_OMP_BEFORE_AFTER = [(os.path.join(HERE, "results", "h200-2026-11-23", "fp-cost", "cost_openmptarget_[0-9]*.json"),
                             os.path.join(HERE, "results", "h200-2026-11-23", "omp-new", "*.json"))]
DEFAULT_CHECKSUM_COST = sorted(glob.glob(os.path.join(HERE, "results", "*", "checksum-cost")))
DEFAULT_NCCL = [os.path.join(HERE, "results", d, "summary.txt") for d in
                ("h200x2-2026-11-24/nccl-checks-eb38183/nccl-checks", "h200x2-2026-11-24/nccl-order-9b9bd49/nccl-checks",
                 "h200x2-2026-11-24/nccl-omp-d9dae2a/nccl-checks",
                 "h200x2-2026-11-23/nccl-checks", "h200x2-2026-11-23/nccl-checks-3529911", "h200-2026-11-23/nccl-1gpu")]
# Newest first: NCCL ordered on the GPU (9b9bd49) and by the host (8b49ef9; the OpenMP offload build
# at d9dae2a) on 2 H200s, GPU to GPU
# through NCCL (both paths at 3529911, NCCL with each strong run's slab alone at f8efcc7), then the
# host-staged path on 4 and 2 H200s (2026-11-22).
DEFAULT_MPI = [os.path.join(HERE, "results", d) for d in
               ("h200x2-2026-11-24/nccl-order-9b9bd49/mpi-gpu", "h200x2-2026-11-24/nccl-order-8b49ef9/mpi-host",
                "h200x2-2026-11-24/nccl-omp-d9dae2a/mpi-omp",
                "h200x2-2026-11-23/mpi-f8efcc7", "h200x2-2026-11-23/mpi", "h200x4-2026-11-22/mpi", "h200x2-2026-11-22/mpi")]
# Builds against another Kokkos: build directory -> the preset build it is compared with.
KOKKOS_VARIANTS = {"cuda-k46": "cuda", "openmptarget-k46": "openmptarget"}
GPU_IMPLS = ["cuda", "kokkos-cuda", "omp", "kokkos-openmptarget"]
HOST_IMPLS = ["cpu", "kokkos-serial", "kokkos-openmp"]
# Which hand-written code each Kokkos backend is compared with, and the toolchain "platform".
PAIRS = [("kokkos-cuda", "cuda", "CUDA (nvcc)"), ("kokkos-openmptarget", "omp", "OpenMP offload (clang)")]
PLATFORM_OF = {"cuda": "CUDA (nvcc)", "kokkos-cuda": "CUDA (nvcc)", "omp": "OpenMP offload (clang)",
               "kokkos-openmptarget": "OpenMP offload (clang)"}
CODE_OF = {"cuda": "hand-written CUDA", "omp": "hand-written OpenMP offload", "kokkos-cuda": "Kokkos",
           "kokkos-openmptarget": "Kokkos"}
BYTES_NAIVE_FULL = 88  # 7 reads of now, prev, full 3-D cs2 and damp, write next: 11 doubles
BYTES_NAIVE = 72       # the same with per-depth cs2 and per-column damp (negligible traffic)
BYTES_CACHED = 24      # now, prev read once, next written once
STEPS_LAUNCHES = 3     # kernels (target regions) per time step: interior, x layers, y layers

RUN_KEYS = {"schema": str, "date": str, "build": dict, "params": dict, "implementations": list, "passed": bool,
            "checked_against_cpu": bool, "bytes_per_site_model": (int, float)}
IMPL_KEYS = {"id": str, "chunk_steps": list, "chunk_seconds": list, "best_su_per_s": (int, float),
             "median_su_per_s": (int, float), "effective_bandwidth_gb_s": (int, float), "checked": bool,
             "on_device": bool, "uses_kokkos": bool}
BUILD_KEYS = {"name": str, "compiler": str, "kokkos_version": str, "git_commit": str, "kokkos": str, "accelerator": str}


# ---- loading and validation -----------------------------------------------------------------

def validate_run(result):
    """Problems with one awave result (awave-run/1, as written by awave -json); [] when valid."""
    problems = []
    for key, kind in RUN_KEYS.items():
        if not isinstance(result.get(key), kind):
            problems.append(f"missing or mistyped '{key}'")
    if problems:
        return problems
    if result["schema"] != "awave-run/1":
        problems.append(f"unknown schema {result['schema']}")
    for key, kind in BUILD_KEYS.items():
        if not isinstance(result["build"].get(key), kind):
            problems.append(f"build: missing or mistyped '{key}'")
    shape = result["params"].get("shape")
    if not (isinstance(shape, list) and len(shape) == 3 and all(isinstance(n, int) and n > 0 for n in shape)):
        problems.append("params: shape is not three positive integers")
    for impl in result["implementations"]:
        for key, kind in IMPL_KEYS.items():
            if not isinstance(impl.get(key), kind):
                problems.append(f"implementation {impl.get('id')}: missing or mistyped '{key}'")
        steps, seconds = impl.get("chunk_steps", []), impl.get("chunk_seconds", [])
        if len(steps) != len(seconds) or not steps or sum(steps) != result["params"].get("nsteps"):
            problems.append(f"implementation {impl.get('id')}: chunks do not add up to nsteps")
        if any(not (isinstance(s, (int, float)) and s > 0) for s in seconds):
            problems.append(f"implementation {impl.get('id')}: a chunk time is not positive")
        if impl.get("checked") and not isinstance(impl.get("differences"), int):
            problems.append(f"implementation {impl.get('id')}: checked but no difference count")
    return problems


def shape_key(shape):
    return "x".join(str(n) for n in shape)


def platform_of(gpu):
    """Short platform name from nvidia-smi's GPU name: 'NVIDIA H100 80GB HBM3' -> 'H100'."""
    if not gpu or not gpu.get("name"):
        return None
    words = [w for w in gpu["name"].split() if w not in ("NVIDIA", "Tesla")]
    return words[0] if words else gpu["name"]


def load_all(dirs):
    """Runs keyed by (platform, build, shape), with the manifests' planned runs marked
    missing/failed; devbench keyed by (platform, build); the CPU each directory's host runs
    used (machine.txt), the lines-of-code count, and the platforms in order of appearance."""
    runs, devbench, loc, cpus, platforms = {}, {}, None, {}, []
    for d in dirs:
        manifests = []
        for path in sorted(glob.glob(os.path.join(d, "manifest-*.json"))):
            with open(path) as f:
                manifests.append(json.load(f))
        gpu = next((m["gpu"] for m in manifests if m.get("gpu")), None)
        for path in sorted(glob.glob(os.path.join(d, "*.json"))):  # else the GPU a run or devbench names
            if gpu:
                break
            with open(path) as f:
                data = json.load(f)
            gpu = data.get("gpu") if isinstance(data.get("gpu"), dict) else None
        platform = platform_of(gpu) or "build machine"
        if platform not in platforms:
            platforms.append(platform)
        if os.path.exists(os.path.join(d, "machine.txt")):
            with open(os.path.join(d, "machine.txt")) as f:
                text = f.read()
            cores = next((line.split(":")[1].strip() for line in text.splitlines() if line.startswith("CPU(s):")), "?")
            cpus[platform] = f"{cores}-core CPU of the {platform} machine"
        planned = [(platform, m["build"], shape_key(r["shape"])) for m in manifests for r in m["runs"]]
        for path in sorted(glob.glob(os.path.join(d, "devbench-*.json"))):
            with open(path) as f:
                devbench[(platform, os.path.basename(path)[len("devbench-"):-len(".json")])] = json.load(f)
        if os.path.exists(os.path.join(d, "loc.json")):
            with open(os.path.join(d, "loc.json")) as f:
                loc = json.load(f)
        for path in sorted(glob.glob(os.path.join(d, "*_*x*x*.json"))):
            with open(path) as f:
                result = json.load(f)
            build = result.get("sweep", {}).get("build") or os.path.basename(path).split("_")[0]
            shape = shape_key(result["params"]["shape"])
            if result.get("status") == "ok":
                problems = validate_run(result)
                if problems:
                    result = {"status": "failed", "error": "invalid result file: " + "; ".join(problems),
                              "params": result["params"]}
            runs[(platform, build, shape)] = result
        for key in planned:
            runs.setdefault(key, {"status": "missing"})
    return runs, devbench, loc, cpus, platforms


def load(dirs):
    """The primary GPU platform's runs keyed by (build, shape), as sections 1-6 use them."""
    runs, devbench, loc, _, platforms = load_all(dirs)
    primary = next((p for p in platforms if p != "build machine"), platforms[0] if platforms else None)
    return ({(b, s): r for (p, b, s), r in runs.items() if p == primary},
            {b: v for (p, b), v in devbench.items() if p == primary}, loc)


# ---- the numbers ----------------------------------------------------------------------------

def pennycook(efficiencies):
    """Pennycook's performance portability: the harmonic mean of the efficiencies over the
    platform set, 0 if any platform is unsupported (None or 0)."""
    if not efficiencies or any(e is None or e <= 0 for e in efficiencies):
        return 0.0
    return len(efficiencies) / sum(1.0 / e for e in efficiencies)


def su_limit(bandwidth_gb_s, bytes_per_site):
    return bandwidth_gb_s * 1e9 / bytes_per_site


def impl_result(run, impl_id):
    if run.get("status") != "ok":
        return None
    return next((i for i in run["implementations"] if i["id"] == impl_id), None)


def points(shape):
    nx, ny, nz = (int(n) for n in shape.split("x"))
    return nx * ny * nz


def fmt_su(x):
    return f"{x:.2e}"


def fmt_pct(fraction):
    pct = 100 * fraction
    return f"{pct:.0f}%" if pct >= 10 else f"{pct:.1f}%"


def cell(run, impl_id, fn):
    """A table cell: fn(impl result) for a good run, else what happened to the run."""
    if run is None:
        return "missing"
    if run.get("status") != "ok":
        return run.get("status", "missing")
    r = impl_result(run, impl_id)
    if r is None:
        return "not run"
    mark = "" if r["checked"] or r.get("is_reference") else "†"
    if r["checked"] and r.get("bitwise") is False:
        mark = "‡"
    if r["checked"] and r.get("differences", 0) != 0:
        mark = f" **FAIL ({r['differences']} differences)**"
    if run.get("older_commit"):  # set by mark_older_commits (in memory only)
        mark += "°"
    return fn(r) + mark


def mark_older_commits(runs):
    """Where the GPU preset builds' runs (keyed by (build, shape)) come from more than one commit (a
    later sweep replacing only some of an earlier one's), marks those not from the most common
    commit (cell() adds °); returns that commit, or None where there is one."""
    counts = {}
    for (b, s), r in runs.items():
        if b in ("cuda", "openmptarget") and r.get("status") == "ok":
            counts[r["build"]["git_commit"]] = counts.get(r["build"]["git_commit"], 0) + 1
    if len(counts) < 2:
        return None
    main = max(counts, key=counts.get)
    for (b, s), r in runs.items():
        if b in ("cuda", "openmptarget") and r.get("status") == "ok" and r["build"]["git_commit"] != main:
            r["older_commit"] = True
    return main



# ---- sections over several builds and platforms ---------------------------------------------

KOKKOS_OF = {"cuda": "kokkos-cuda", "openmptarget": "kokkos-openmptarget"}
HAND_OF = {"cuda": "cuda", "openmptarget": "omp"}


def best(runs, key, impl):
    r = impl_result(runs.get(key, {}), impl)
    return r["best_su_per_s"] if r else None


def kokkos_version_of(runs, platform, build):
    return next((r["build"]["kokkos_version"] for (p, b, s), r in sorted(runs.items())
                 if p == platform and b == build and r.get("status") == "ok"), "?")


def platform_limit(bench, platform):
    bw = bench.get((platform, "cuda"), {}).get("triad_bandwidth_gb_s")
    return su_limit(bw, BYTES_CACHED) if bw else None


def gpu_shapes(runs, platform, builds):
    shapes = {s for (p, b, s) in runs if p == platform and b in builds}
    return sorted(shapes, key=lambda s: (len(set(s.split("x"))) > 1, points(s), s))


def ratio_cell(a, b):
    return f"{a / b:.2f}" if a and b else "-"


def kokkos_versions_section(w, runs, bench, platform, dirs=()):
    w("## 7. Kokkos versions side by side\n")
    pairs = [(v, base) for v, base in KOKKOS_VARIANTS.items()
             if any(p == platform and b == v for (p, b, s) in runs)]
    if not platform or not pairs:
        w("No builds against a second Kokkos version in these results.\n")
        return
    limit = platform_limit(bench, platform)
    commits = sorted({r["build"]["git_commit"] for (p, b, s), r in runs.items()
                      if p == platform and r.get("status") == "ok" and b in [x for pair in pairs for x in pair]})
    w(f"The same awave sources built against two Kokkos installations on the {platform}, each build run "
      "over the whole sweep in one session" +
      (f" (`{'`, `'.join(os.path.relpath(d, HERE) for d in dirs)}`; commits `{'`, `'.join(commits)}`: "
       "before the kernels of section 16, so the Kokkos 3.4.01 numbers here are not the newest sweep's" +
       ("; a commit marked `-dirty` was built from a tree with uncommitted changes, so those builds cannot be "
        "rebuilt exactly: an indication, not evidence" if any(c.endswith("-dirty") for c in commits) else "") +
       ")" if dirs else "") +
      ". The hand-written code is identical in both builds, so the ratio of its two measurements shows the "
      "run-to-run spread that a Kokkos difference must exceed.\n")
    versions = {}
    for variant, base in pairs:
        va, vb = kokkos_version_of(runs, platform, base), kokkos_version_of(runs, platform, variant)
        versions[base], versions[variant] = va, vb
        k, h = KOKKOS_OF[base], HAND_OF[base]
        w(f"### {k}: Kokkos {va} (`{base}`) against Kokkos {vb} (`{variant}`)\n")
        w(f"| shape | {k} {va} | {k} {vb} | {vb} / {va} | {h} / {h} (same code) | {k} / {h}, {va} | "
          f"{k} / {h}, {vb} |")
        w("|---|---|---|---|---|---|---|")
        for s in gpu_shapes(runs, platform, (base, variant)):
            ka, kb = best(runs, (platform, base, s), k), best(runs, (platform, variant, s), k)
            ha, hb = best(runs, (platform, base, s), h), best(runs, (platform, variant, s), h)
            w(f"| {s} | {cell(runs.get((platform, base, s)), k, lambda r: fmt_su(r['best_su_per_s']))} | "
              f"{cell(runs.get((platform, variant, s)), k, lambda r: fmt_su(r['best_su_per_s']))} | "
              f"{ratio_cell(kb, ka)} | {ratio_cell(hb, ha)} | {ratio_cell(ka, ha)} | {ratio_cell(kb, hb)} |")
        w("")
    if limit:
        w(f"Performance portability of Kokkos over {{CUDA, OpenMP offload}} on the {platform}, per Kokkos "
          "version (efficiency: best-chunk SU/s over the 24 B/site limit of section 1):\n")
        cols = [(base, variant) for variant, base in pairs]
        labels = sorted({versions[b] for b in versions})
        w("| shape | " + " | ".join(f"PP, Kokkos {v}" for v in labels) + " |")
        w("|---|" + "---|" * len(labels))
        for s in gpu_shapes(runs, platform, tuple(versions)):
            row = []
            for v in labels:
                effs = []
                for build, ver in versions.items():
                    if ver == v:
                        b = best(runs, (platform, build, s), KOKKOS_OF[KOKKOS_VARIANTS.get(build, build)])
                        effs.append(b / limit if b else None)
                row.append(f"{pennycook(effs):.2f}" if len(effs) == 2 else "-")
            w(f"| {s} | " + " | ".join(row) + " |")
        w("")
        del cols


def platforms_section(w, runs, bench, platforms):
    gpus = [p for p in platforms if p != "build machine"]
    w("## 8. Platforms: every GPU measured\n")
    if len(gpus) < 2:
        w("Only one GPU platform in these results.\n")
    for p in gpus:
        limit = platform_limit(bench, p)
        cb, ob = bench.get((p, "cuda"), {}), bench.get((p, "openmptarget"), {})
        w(f"### {p}\n")
        if limit:
            w(f"Measured with `awave-devbench`: CUDA triad {cb['triad_bandwidth_gb_s']:.0f} GB/s (limit "
              f"{fmt_su(limit)} SU/s at 24 B/site)" + (f"; OpenMP offload triad {ob['triad_bandwidth_gb_s']:.0f} GB/s "
                                                       f"({ob['triad_bandwidth_gb_s'] / cb['triad_bandwidth_gb_s']:.2f} of CUDA's)"
                                                       if "triad_bandwidth_gb_s" in ob else "") + ".\n")
        impls = [("cuda", "cuda"), ("cuda", "kokkos-cuda"), ("openmptarget", "omp"), ("openmptarget", "kokkos-openmptarget")]
        w("| shape | " + " | ".join(i for _, i in impls) + " | omp / cuda |")
        w("|---|" + "---|" * (len(impls) + 1))
        for s in gpu_shapes(runs, p, ("cuda", "openmptarget")):
            row = [cell(runs.get((p, b, s)), i, lambda r: fmt_su(r["best_su_per_s"]) +
                        (f" ({fmt_pct(r['best_su_per_s'] / limit)})" if limit else "")) for b, i in impls]
            row.append(ratio_cell(best(runs, (p, "openmptarget", s), "omp"), best(runs, (p, "cuda", s), "cuda")))
            w(f"| {s} | " + " | ".join(row) + " |")
        w("")
    if len(gpus) >= 2 and all(platform_limit(bench, p) for p in gpus):
        version = kokkos_version_of(runs, gpus[0], "cuda")
        w(f"Performance portability over {{{', '.join(gpus)}}} x {{CUDA, OpenMP offload}} ({len(gpus) * 2} "
          f"platforms; Kokkos {version} builds; efficiency against each GPU's own measured limit). A "
          "hand-written code runs on half of them, so its PP over this set is 0; the last columns give its "
          "PP over the platforms it supports.\n")
        w("| shape | Kokkos | hand-written CUDA, over its GPUs | hand-written OpenMP, over its GPUs |")
        w("|---|---|---|---|")
        shapes = sorted(set.intersection(*(set(gpu_shapes(runs, p, ("cuda", "openmptarget"))) for p in gpus)),
                        key=lambda s: (len(set(s.split("x"))) > 1, points(s), s))
        for s in shapes:
            eff = {}
            for impl, b in (("kokkos-cuda", "cuda"), ("kokkos-openmptarget", "openmptarget"), ("cuda", "cuda"),
                            ("omp", "openmptarget")):
                vals = []
                for p in gpus:
                    x = best(runs, (p, b, s), impl)
                    vals.append(x / platform_limit(bench, p) if x else None)
                eff[impl] = vals
            w(f"| {s} | {pennycook(eff['kokkos-cuda'] + eff['kokkos-openmptarget']):.2f} | "
              f"{pennycook(eff['cuda']):.2f} | {pennycook(eff['omp']):.2f} |")
        w("")


def host_section(w, runs, cpus, platforms):
    w("## 9. Host backends\n")
    impls = ["cpu", "cpu-openmp", "kokkos-serial", "kokkos-openmp"]
    found = False
    for p in platforms:
        shapes = sorted({s for (pp, b, s) in runs if pp == p and b == "host"}, key=points)
        if not shapes:
            continue
        found = True
        r0 = next((runs[(p, "host", s)] for s in shapes if runs[(p, "host", s)].get("status") == "ok"), None)
        where = cpus.get(p, "the 2-core build machine (OMP_NUM_THREADS=2)" if p == "build machine" else p)
        w(f"### {where}\n")
        if r0:
            w(f"`host` preset: {r0['build']['compiler']}; {r0['build']['kokkos']}; {r0['params']['nsteps']} steps "
              f"in chunks of {r0['params']['out_period']}; checked against the serial CPU reference (`cpu`), "
              "whose own timing is the baseline.\n")
        w("| shape | " + " | ".join(f"{i} SU/s" for i in impls) + " | kokkos-serial / cpu | kokkos-openmp / cpu |")
        w("|---|" + "---|" * (len(impls) + 2))
        for s in shapes:
            run = runs[(p, "host", s)]
            row = [cell(run, i, lambda r: fmt_su(r["best_su_per_s"])) for i in impls]
            cpu = best(runs, (p, "host", s), "cpu")
            for k in ("kokkos-serial", "kokkos-openmp"):
                row.append(ratio_cell(best(runs, (p, "host", s), k), cpu))
            w(f"| {s} | " + " | ".join(row) + " |")
        w("")
    if not found:
        w("No host results.\n")


def per_step_us(runs, key, impl):
    r = impl_result(runs.get(key, {}), impl)
    if not r:
        return None
    times = sorted(t / n for t, n in zip(r["chunk_seconds"], r["chunk_steps"]))
    return times[len(times) // 2] * 1e6


def targets_section(w, runs, bench, platforms, primary):
    w("## 10. Performance targets: measured against the goals\n")
    gpus = [p for p in platforms if p != "build machine"]
    if not primary:
        w("No GPU results.\n")
        return
    rows = []

    def span(values):
        values = [v for v in values if v is not None]
        return (min(values), max(values)) if values else None

    def fmt_span(sp, f="{:.2f}"):
        return "-" if not sp else (f.format(sp[0]) if sp[0] == sp[1] else f"{f.format(sp[0])}-{f.format(sp[1])}")

    for p in gpus:
        lim = platform_limit(bench, p)
        if lim:
            shares = [best(runs, (p, "cuda", s), "cuda") for s in ("512x512x512", "1000x1000x1000")]
            rows.append((f"hand CUDA, 512^3 and 1000^3, share of the 24 B/site limit ({p})",
                         " / ".join(fmt_pct(x / lim) if x else "-" for x in shares), ">= 95%",
                         all(x and x / lim >= 0.95 for x in shares)))
        cb, ob = bench.get((p, "cuda"), {}), bench.get((p, "openmptarget"), {})
        if "triad_bandwidth_gb_s" in cb and "triad_bandwidth_gb_s" in ob:
            r = ob["triad_bandwidth_gb_s"] / cb["triad_bandwidth_gb_s"]
            rows.append((f"OpenMP offload triad / CUDA triad ({p})", f"{r:.3f}", ">= 0.90", r >= 0.90))
        big = [s for s in gpu_shapes(runs, p, ("cuda",)) if points(s) >= 256 ** 3]
        sp = span([ratio_value(best(runs, (p, "openmptarget", s), "omp"), best(runs, (p, "cuda", s), "cuda")) for s in big])
        rows.append((f"hand OMP / hand CUDA, >= 256^3 ({p})", fmt_span(sp), ">= 0.90", bool(sp) and sp[0] >= 0.90))
        for base in [b for b in ("cuda", "cuda-k46") if any(pp == p and bb == b for (pp, bb, s) in runs)]:
            sp = span([ratio_value(best(runs, (p, base, s), "kokkos-cuda"), best(runs, (p, base, s), "cuda"))
                       for s in gpu_shapes(runs, p, (base,))])
            rows.append((f"Kokkos-CUDA / hand CUDA, every size (Kokkos {kokkos_version_of(runs, p, base)}, {p})",
                         fmt_span(sp), ">= 0.95 each", bool(sp) and sp[0] >= 0.95))
        for base in [b for b in ("openmptarget", "openmptarget-k46") if any(pp == p and bb == b for (pp, bb, s) in runs)]:
            sp = span([ratio_value(best(runs, (p, base, s), "kokkos-openmptarget"), best(runs, (p, base, s), "omp"))
                       for s in gpu_shapes(runs, p, (base,))])
            rows.append((f"Kokkos-OMPT / hand OMP, every size (Kokkos {kokkos_version_of(runs, p, base)}, {p})",
                         fmt_span(sp), ">= 0.95 each", bool(sp) and sp[0] >= 0.95))
    for impl, build, goal in (("cuda", "cuda", 3), ("kokkos-cuda", "cuda", 4), ("omp", "openmptarget", 30),
                              ("kokkos-openmptarget", "openmptarget", 30)):
        t = per_step_us(runs, (primary, build, "32x32x32"), impl)
        rows.append((f"time per step at 32^3, {impl} ({primary})", f"{t:.1f} us" if t else "-", f"<= {goal} us",
                     bool(t) and t <= goal))
    for p in platforms:
        shapes = [s for (pp, b, s) in runs if pp == p and b == "host"]
        if not shapes:
            continue
        if p == "build machine":
            sp = span([ratio_value(best(runs, (p, "host", s), "kokkos-serial"), best(runs, (p, "host", s), "cpu"))
                       for s in shapes])
            rows.append(("Kokkos-Serial / CPU reference (2-core build machine)", fmt_span(sp), ">= 0.9",
                         bool(sp) and sp[0] >= 0.9))
        else:
            x = ratio_value(best(runs, (p, "host", "256x256x256"), "kokkos-openmp"),
                            best(runs, (p, "host", "256x256x256"), "cpu"))
            rows.append((f"Kokkos-OpenMP on the {p} machine's CPU / serial CPU reference, 256^3",
                         f"{x:.1f}x" if x else "-", ">= 12x", bool(x) and x >= 12))
    lim = platform_limit(bench, primary)
    if lim:
        for base in ("cuda", "cuda-k46"):
            other = {"cuda": "openmptarget", "cuda-k46": "openmptarget-k46"}[base]
            kc, ko = best(runs, (primary, base, "512x512x512"), "kokkos-cuda"), best(runs, (primary, other, "512x512x512"),
                                                                                   "kokkos-openmptarget")
            if kc or ko:
                pp = pennycook([kc / lim if kc else None, ko / lim if ko else None])
                rows.append((f"PP of Kokkos {kokkos_version_of(runs, primary, base)} over {{CUDA, OpenMP offload}} "
                             f"on {primary}, 512^3", f"{pp:.2f}", ">= 0.85", pp >= 0.85))
    w("| what | measured | target | reached |")
    w("|---|---|---|---|")
    for what, measured, target, ok in rows:
        w(f"| {what} | {measured} | {target} | {'yes' if ok else '**no**'} |")
    w("")


def ratio_value(a, b):
    return a / b if a and b else None


# ---- the report -----------------------------------------------------------------------------

def ordered_shapes(runs, build):
    shapes = {s for (b, s) in runs if b == build}
    cubes = sorted((s for s in shapes if len(set(s.split("x"))) == 1), key=points)
    others = sorted((s for s in shapes if len(set(s.split("x"))) > 1), key=lambda s: (points(s), s))
    return cubes + others


def savefig(fig, out_dir, name):
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, name), dpi=110, metadata={"Software": None})
    plt.close(fig)
    return name


def gpu_build_of(impl_id):
    return "cuda" if impl_id in ("cuda", "kokkos-cuda") else "openmptarget"


def io_section(w, io_dirs):
    """Section 12: the writer thread against the compute, per run of io-overlap.sh."""
    rows = []
    for d in io_dirs:
        for path in sorted(glob.glob(os.path.join(d, "io_*.json"))):
            with open(path) as f:
                run = json.load(f)
            shape = run["params"]["shape"]
            for impl in run["implementations"]:
                if "io" in impl:
                    rows.append((os.path.relpath(path, HERE), run, shape, impl))
    if not rows:
        return
    w("## 12. Output: crash-safe, and overlapping the compute\n")
    w("Each snapshot is copied into one of two host buffer pairs; a writer thread transposes it into the "
      "file's x-fastest layout and writes it while the next chunk computes, and commits it with one flush "
      "(crash safety: README, \"Output, crashes and restart\"). Target: wall <= 1.1 x max(compute, write). "
      "Write = the writer thread's busy time (creating the file with its static arrays, then every snapshot); "
      "copy = copying snapshots back between chunks (outside the timed chunks). Every run checked against "
      "the threaded CPU reference, which writes its own file in the same way.\n")
    w("| run | implementation | snapshots | GB written | compute [s] | copy [s] | write [s] | wall [s] | "
      "wall / max(compute, write) | write GB/s | longest commit flush [ms] |")
    w("|---|---|---|---|---|---|---|---|---|---|---|")
    for path, run, shape, impl in rows:
        io = impl["io"]
        snaps = len(impl["chunk_steps"]) + 1
        nbytes = 2 * 8 * shape[0] * shape[1] * shape[2] * (snaps + 1)  # u, u_prev per snapshot; sos, damp once
        bound = max(io["compute_seconds"], io["write_seconds"])
        w(f"| {run['build']['name']} {shape[0]}^3, {run['params']['nsteps']} steps | {impl['id']} | {snaps} | "
          f"{nbytes / 1e9:.1f} | {io['compute_seconds']:.3f} | {io['copy_seconds']:.2f} | {io['write_seconds']:.2f} | "
          f"{io['wall_seconds']:.2f} | {io['wall_seconds'] / bound:.3f} | {nbytes / 1e9 / io['write_seconds']:.2f} | "
          f"{1e3 * io['longest_commit_flush_seconds']:.3f} |")
    w("")
    for d in io_dirs:
        disk = os.path.join(d, "disk.txt")
        if os.path.exists(disk):
            with open(disk) as f:
                lines = [line.strip() for line in f if "copied" in line]
            if len(lines) == 2:
                w(f"The disk of that machine (`{os.path.relpath(disk, HERE)}`, dd of 4 GiB): {lines[0].split(',')[-1].strip()} "
                  f"through the page cache, {lines[1].split(',')[-1].strip()} with fdatasync. The 512^3 runs write "
                  "more than the page cache absorbs, so their writer runs at the disk's speed; the GPU computes "
                  "its 40 steps in a fraction of that, and the wall time is the writer's.\n")


def align_section(w, align_dirs):
    """Section 13: does a 128-byte-aligned row (a padded device layout) pay? Measured by shape."""
    runs = []
    for d in align_dirs:
        for path in sorted(glob.glob(os.path.join(d, "align_*.json"))):
            with open(path) as f:
                runs.append(json.load(f))
    if not runs:
        return
    w("## 13. A padded, 128-byte-aligned device layout?\n")
    w("The lever was measured without building the layout: the same builds on shapes whose padded row "
      "(nz + 2 doubles) is a multiple of 128 bytes (nz + 2 = 512, 528, 1008) and is not (514, 1002). "
      "Best chunk SU/s, 40 steps (`bench/device/row-alignment.sh`, data in "
      f"`{os.path.relpath(align_dirs[0], HERE)}`):\n")
    impls = []
    for run in runs:
        for i in run["implementations"]:
            if i["id"] not in impls:
                impls.append(i["id"])
    w("| shape | nz + 2 | row aligned to 128 B | " + " | ".join(impls) + " |")
    w("|---|---|---|" + "---|" * len(impls))
    by_shape = {}
    for run in runs:
        by_shape.setdefault(tuple(run["params"]["shape"]), {}).update(
            {i["id"]: i["best_su_per_s"] for i in run["implementations"]})
    for shape in sorted(by_shape, key=lambda t: (t[0] * t[1], t[2])):
        nz2 = shape[2] + 2
        vals = by_shape[shape]
        w(f"| {'x'.join(map(str, shape))} | {nz2} | {'yes' if (nz2 * 8) % 128 == 0 else 'no'} | " +
          " | ".join(fmt_su(vals[i]) if i in vals else "—" for i in impls) + " |")
    w("")
    w("Aligned rows change no implementation by more than the run-to-run spread (a few per cent either "
      "way), so the padded layout, with its extra copies to and from the host layout, was not built.\n")


def steady_su(run, impl):
    """Median SU/s of the chunks after the first (which carries MPI's and the halo buffers'
    warm-up), and the first chunk's."""
    shape = run["params"]["shape"]
    n = shape[0] * shape[1] * shape[2]
    su = [n * s / t for s, t in zip(impl["chunk_steps"], impl["chunk_seconds"])]
    later = sorted(su[1:]) or su
    m = len(later)
    return (later[m // 2] if m % 2 else 0.5 * (later[m // 2 - 1] + later[m // 2])), su[0]


def steady_su_of(run, impl_id):
    """steady_su's median for the implementation impl_id of a run, or None where the run (or the
    implementation in it) is missing."""
    impl = next((i for i in run["implementations"] if i["id"] == impl_id), None) if run else None
    return steady_su(run, impl)[0] if impl else None


def with_results(dirs):
    """The directories that hold JSON result files."""
    return [d for d in dirs if glob.glob(os.path.join(d, "*.json"))]


def mpi_section(w, mpi_dirs):
    """Section 14: over MPI on several GPUs: checks, weak and strong scaling, a grid no GPU holds."""
    present = with_results(mpi_dirs)
    if not present:
        return
    w("## 14. Over MPI: several GPUs, one grid\n")
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
      "the runtime's CUDA stream) with `nowait` regions is the route, not built. 4 and 8 GPUs: not lent "
      "in any session since the NCCL path was built (the 4-GPU rows are the host-staged path's), so 3- and "
      "4-process files through NCCL are not checked either (NCCL needs a GPU per process).\n")
    nccl_paragraph(w, DEFAULT_NCCL)


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
      "as many GPUs (NCCL takes one process per GPU); the 4-GPU machine was not lent, so they were "
      "checked through host memory only (`results/h200-2026-11-23/mpi-bitwise`, 2026-11-22's 4-GPU checks). "
      "The first run of these checks (`nccl-checks-3529911`) failed one: with hand CUDA alone and "
      "`-halo nccl`, both processes landed on GPU 0 (NCCL: *Duplicate GPU detected*), because the check "
      "for a GPU per process counted GPUs through CUDA before each process had chosen its own; since "
      "`6f13acb` the GPU list is read once without CUDA (`node_gpus()`, unit-tested) and the same checks "
      "pass (`nccl-checks`, 36 of 36 per build). (The scaling runs above stand: they ran hand CUDA beside "
      "Kokkos-CUDA, whose start chose a GPU per process; NCCL would have refused one GPU for both, and "
      "their rates are two GPUs'.) "
      "On one GPU, with the real NCCL of the machine: processes sharing it fall back to host memory, "
      "saying why, and `-halo nccl` is refused in one line (`results/h200-2026-11-23/nccl-1gpu`).\n")
    for path in summaries:
        if not os.path.exists(path):
            continue
        w(f"`{os.path.relpath(path, HERE)}`:\n")
        w("```")
        with open(path) as f:
            w(f.read().rstrip())
        w("```\n")


def load_runs(d, prefix):
    """The awave-run JSON files NAME.json of a directory whose names start with prefix."""
    runs = {}
    for path in sorted(glob.glob(os.path.join(d, prefix + "*.json"))):
        with open(path) as f:
            runs[os.path.basename(path)[:-5]] = json.load(f)
    return runs


def bitwise_section(w, bitwise_dirs, cost_dirs):
    """Section 15: the bitwise promise on long runs, and what exact floating point costs."""
    present = with_results(bitwise_dirs)
    costs = with_results(cost_dirs)
    if not present and not costs:
        return
    w("## 15. Bitwise: the reference's bits on every GPU, any run length\n")
    w("Every implementation computes the reference's operations in the reference's order; the builds "
      "forbid floating-point contraction (FMA) on every compiler (`cmake/AwaveExactFP.cmake`: nvcc and "
      "nvcc_wrapper `--fmad=false`, gcc and clang `-ffp-contract=off`, fast-math flags refused at "
      "configure). The `-contract` builds (`-DAWAVE_EXACT_FP=OFF`, the compilers' defaults) show what "
      "that prevents. Runs by `bench/device/bitwise-checks.sh`, every GPU implementation against the "
      "threaded CPU reference.\n")
    for d in present:
        runs = load_runs(d, "long_")
        gpu = next((r["build"]["accelerator"] for r in runs.values()), "?")
        w(f"### {gpu} (`{os.path.relpath(d, HERE)}`)\n")
        w("| run | build | exact FP | implementation | bitwise | points differing | largest relative difference | spec's check |")
        w("|---|---|---|---|---|---|---|---|")
        for name, r in runs.items():
            sh = "x".join(str(x) for x in r["params"]["shape"])
            plan = " (three-kernel step)" if "three-kernel" in name else ""
            for i in r["implementations"]:
                if not i.get("checked"):
                    continue
                rel = i.get("max_relative_difference")
                w(f"| {sh} x {r['params']['nsteps']} steps{plan} | {r['build']['name']} | "
                  f"{'yes' if r['build'].get('exact_fp') else '**no**'} | {i['id']} | "
                  f"{'yes' if i.get('bitwise') else '**no**'} | {i.get('bitwise_differences', '?')} | "
                  f"{'-' if not rel else f'{rel:.2g}'} | "
                  f"{'PASS' if i.get('differences', 1) == 0 else '**FAIL** (' + str(i['differences']) + ')'} |")
        w("")
        summary = os.path.join(d, "summary.txt")
        if os.path.exists(summary):
            with open(summary) as f:
                lines = [line.strip() for line in f if line.startswith(("ctest", "kill"))]
            for line in lines:
                w(f"- {line}")
            w("")
    for d in costs:
        runs = load_runs(d, "cost_")
        gpu = next((r["build"]["accelerator"] for r in runs.values()), "?")
        w(f"### What exact floating point costs: {gpu} (`{os.path.relpath(d, HERE)}`)\n")
        w("Median SU/s of each run's chunks (50 steps in chunks of 10), rounds interleaved (exact, "
          "contracting, exact, ...); `bench/device/fp-cost.sh`. Ratio > 1: the exact build is faster.\n")
        table = {}  # (impl, n) -> {"exact": [...], "contract": [...]}
        for name, r in runs.items():
            n = r["params"]["shape"][0]
            kind = "exact" if r["build"].get("exact_fp") else "contract"
            for i in r["implementations"]:
                table.setdefault((i["id"], n), {"exact": [], "contract": []})[kind].append(i["median_su_per_s"])
        w("| implementation | size | exact (each round) | contracting (each round) | exact / contracting (medians) |")
        w("|---|---|---|---|---|")
        for (impl, n), v in sorted(table.items()):
            ratio = (statistics.median(v["exact"]) / statistics.median(v["contract"])
                     if v["exact"] and v["contract"] else None)
            w(f"| {impl} | {n}^3 | {', '.join(fmt_su(x) for x in v['exact'])} | "
              f"{', '.join(fmt_su(x) for x in v['contract'])} | {'-' if ratio is None else f'{ratio:.3f}'} |")
        w("")


SHAPE_ORDER = ("three-region", "flat", "one-region", "split", "unrolled", "pairs", "batched", "restrict", "tiled",
               "tiled-local", "bare", "bare-3", "teams-parallel", "teams-inline", "teams-once", "teams-flag",
               "teams-nowait")


def gpu_of_result_dir(d):
    """The GPU a result directory's runs used: its gpu.txt (nvidia-smi's name), else its date
    directory's name (h100-..., h200-...)."""
    path = os.path.join(d, "gpu.txt")
    if os.path.exists(path):
        with open(path) as f:
            return f.read().split(",")[0].strip()
    top = os.path.relpath(d, os.path.join(HERE, "results")).split(os.sep)[0]
    return {"h100": "NVIDIA H100 80GB HBM3", "h200": "NVIDIA H200"}.get(top.split("-")[0], top)


def kernel_shapes_runs(path):
    """bench/device/kernel-shapes.sh's log: (impl, size, setting) -> best chunk SU/s. A run's line
    ends in `best X SU/s`; the first H200 log also printed the progress line's whole-run average
    after `best` and the best chunk alone on the next line (`Y SU/s`), which is then the number."""
    runs = {}
    with open(path) as f:
        lines = f.read().splitlines()
    for n, line in enumerate(lines):
        m = re.match(r"^(\S+)\s+(\d+)\s+(.*?)\s+(-no_check|checked) best (\S+)( SU/s)?$", line)
        if not m:
            continue
        value = m.group(5)
        nxt = lines[n + 1] if n + 1 < len(lines) else ""
        if not m.group(6) and re.match(r"^[0-9.e+]+ SU/s$", nxt):
            value = nxt.split()[0]
        try:
            runs[(m.group(1), int(m.group(2)), m.group(3).strip())] = float(value)
        except ValueError:
            pass  # a run the call's time limit cut
    return runs


CUDA_SHAPE_ORDER = ("march", "prefetch", "two-j", "two-k", "ldg", "evict-first", "evict-first-ldg", "shared-y", "no-y",
                    "no-yz", "stream")


def shapes_in_order(order, rows):
    """The shapes of rows in the given order, any shape the order does not name yet after them
    (shown, never dropped)."""
    return tuple(order) + tuple(sorted({r["shape"] for r in rows} - set(order)))


def cuda_shapes_tables(w, files):
    """Section 16: hand CUDA's interior kernel in shapes with more bytes in flight, and the
    diagnostics that drop the neighbour loads (bench/cuda_stencil_shapes.cu)."""
    if not files:
        return
    w("`awave-cuda-shapes` (`bench/cuda_stencil_shapes.cu`, the cuda build's flags; `bench/device/cuda-shapes.sh`) "
      "times hand CUDA's interior kernel alone (SU/s over the interior region's points, best of 3 runs of 30 "
      "steps; the median over rounds where a folder has several) in shapes that keep more bytes in flight, "
      "each checked bitwise against *march* (the product's kernel): *prefetch* (the next point's six loads "
      "issued before this point's store), *two-j* (two rows per thread, sharing their y loads), *two-k* (two "
      "columns k, k+32 per thread), *ldg* (every load of `now` through the read-only path), *evict-first* (`prev` loaded and `next` "
      "stored with evict-first hints, `__ldcs` and `__stcs`, so that the lines of `now` stay cached longer), "
      "*evict-first-ldg* (evict-first, `now` through the read-only path too), *shared-y* (the "
      "y neighbours from a double-buffered shared-memory tile of the plane). Diagnostics, not the update "
      "(so not bitwise): *no-y* (march without the y neighbours' loads), *no-yz* (without the z ones "
      "too), *stream* (next = 2 now - prev along the same march: 24 B a point and no stencil). A planted "
      "shape (one point off by one ulp) is reported as differing in every run (`cuda-shapes-planted.jsonl`).\n")
    for path in files:
        with open(path) as f:
            rows = [json.loads(line) for line in f if line.startswith("{")]
        gpu_file = os.path.join(os.path.dirname(path), "cuda-shapes-gpu.txt")
        gpu = open(gpu_file).read().split(",")[0].strip() if os.path.exists(gpu_file) else "?"
        for n in sorted({r["n"] for r in rows}):
            sel = [r for r in rows if r["n"] == n]
            segs = sorted({r["segment"] for r in sel})
            rounds = len({r.get("round", 1) for r in sel})
            w(f"{n}^3 interior, {gpu} (`{os.path.relpath(path, HERE)}`, {rounds} round{'s' if rounds > 1 else ''}):\n")
            w("| shape | registers | " + " | ".join(f"segment {g}" for g in segs) + " | bitwise with march |")
            w("|---|---|" + "---|" * len(segs) + "---|")
            for shape in shapes_in_order(CUDA_SHAPE_ORDER, sel):
                cells = [r for r in sel if r["shape"] == shape]
                if not cells:
                    continue
                per_seg = {g: statistics.median(r["su_per_s"] for r in cells if r["segment"] == g)
                           for g in segs if any(r["segment"] == g for r in cells)}
                bitwise = ("diagnostic" if cells[0].get("diagnostic") else
                           "yes" if all(r["bitwise_with_march"] for r in cells) else "**no**")
                w(f"| {shape} | {cells[0]['registers']} | " +
                  " | ".join(fmt_su(per_seg[g]) if g in per_seg else "-" for g in segs) + f" | {bitwise} |")
            w("")


def kernel_shapes_tables(w, logs):
    """Section 16: Kokkos-CUDA's MDRange kernels against its flat march, hand CUDA's block shapes
    with and without restrict kernel parameters (bench/device/kernel-shapes.sh)."""
    for path in logs:
        runs = kernel_shapes_runs(path)
        if not runs:
            continue
        where = f"{gpu_of_result_dir(os.path.dirname(path))}, `{os.path.relpath(path, HERE)}`"
        sizes = sorted({n for (i, n, _) in runs if i == "kokkos-cuda" and n >= 256})
        teams = sorted((st, su) for (i, n, st), su in runs.items() if i == "kokkos-openmptarget" and "TEAMS" in st)
        if teams:
            w(f"Kokkos-OMPT's team size through the runtime ({where}; 512^3, best chunk SU/s): " +
              ", ".join(f"`{st}` {fmt_su(su)}" for st, su in teams) + ".\n")
        if not sizes:
            continue
        w(f"Kokkos-CUDA: its rank-3 MDRange kernels against the flat marching kernel "
          f"(`AWAVE_KOKKOS_MARCH_PLANE_BYTES=0`), per segment, beside hand CUDA ({where}; best chunk SU/s, "
          "20 steps in chunks of 5, unchecked; one checked march at 192^3: bitwise):\n")
        w("| size | MDRange | march 8 | march 16 | march 32 | hand CUDA |")
        w("|---|---|---|---|---|---|")
        for n in sizes:
            # MDRange: the threshold at its maximum (the first H200 log: the default, MDRange then)
            md = runs.get(("kokkos-cuda", n, "AWAVE_KOKKOS_MARCH_PLANE_BYTES=18446744073709551615")) or \
                runs.get(("kokkos-cuda", n, "AWAVE_KOKKOS_MARCH_PLANE_BYTES="))
            ms = [runs.get(("kokkos-cuda", n, f"AWAVE_KOKKOS_MARCH_PLANE_BYTES=0 AWAVE_KOKKOS_SEGMENT={g}"))
                  for g in (8, 16, 32)]
            c = runs.get(("cuda", n, "AWAVE_CUDA_RESTRICT=0")) or runs.get(("cuda", n, "AWAVE_CUDA_BLOCK="))
            w(f"| {n}^3 | " + " | ".join(fmt_su(x) if x else "-" for x in [md] + ms + [c]) + " |")
        w("")
        blocks = sorted({st.split()[0].split("=")[1] for (i, n, st) in runs if i == "cuda" and "BLOCK=" in st} - {""},
                        key=lambda b: [int(x) for x in b.split(",")])
        if blocks:
            # The first H200 study also ran an interior kernel with restrict parameters (since removed).
            restrict = any("RESTRICT=1" in st for (i, n, st) in runs if i == "cuda")
            variants = [" AWAVE_CUDA_RESTRICT=0", " AWAVE_CUDA_RESTRICT=1"] if restrict else [""]
            w("Hand CUDA: block (k, j) and interior segment (`AWAVE_CUDA_BLOCK=k,j,segment`)" +
              (", the interior kernel as it is and with the fields as restrict kernel parameters "
               "(`AWAVE_CUDA_RESTRICT=1`, at `e37ef7f`)" if restrict else "") + f" ({where}):\n")
            cuda_sizes = sorted({n for (i, n, st) in runs if i == "cuda" and "BLOCK=" in st})
            w("| block | " + " | ".join(f"{n}^3" + (f" | {n}^3 restrict" if restrict else "") for n in cuda_sizes) + " |")
            w("|---|" + "---|" * (len(cuda_sizes) * len(variants)))
            for b in blocks:
                cells = []
                for n in cuda_sizes:
                    for v in variants:
                        x = runs.get(("cuda", n, f"AWAVE_CUDA_BLOCK={b}{v}"))
                        cells.append(fmt_su(x) if x else "-")
                w(f"| {b} | " + " | ".join(cells) + " |")
            w("")


def omp_shapes_section(w, shape_files, before_after, kernel_shape_logs=()):
    """Section 16: OpenMP offload kernel shapes (bench/omp_stencil_shapes.cpp), the product
    before/after the one-region step, the shape study of Kokkos-CUDA and hand CUDA, the targets."""
    rows = []
    # A run's console copy (*.txt) holds the same lines as its .jsonl where both were kept.
    with_jsonl = {os.path.dirname(p) for p in shape_files if p.endswith(".jsonl")}
    for path in shape_files:
        if path.endswith(".txt") and os.path.dirname(path) in with_jsonl:
            continue
        with open(path) as f:
            rows += [(path, json.loads(line)) for line in f if line.startswith("{")]
    pairs = [(b, a) for b, a in before_after if glob.glob(b) and glob.glob(a)]
    if not rows and not pairs:
        return
    w("## 16. The GPU kernels' shapes, measured\n")
    w("`awave-omp-shapes` (`bench/omp_stencil_shapes.cpp`, the openmptarget build's offload flags) times a whole "
      "step (interior and both sponges) in several shapes, each checked bitwise against the first: "
      "*three-region* (what the project ran before: three synchronous `collapse(3)` regions per step, the "
      "interior marching i over segments), *flat* (the same regions over one flat 32-bit index), "
      "*one-region* (one region per step over every plane, flat 32-bit index, each work item marching i "
      "with the sponge tested at every point: the product's shape), *split* (one-region, the sponge tested "
      "once per work item, a branch-free loop where it meets no layer), *unrolled* (split, a whole segment's "
      "undamped loop unrolled at compile time), *pairs* (split, two rows j, j+1 per work item), *batched* "
      "(split, four points' loads before their stores), *restrict* (split, the undamped march a function "
      "of restrict pointers), *tiled* (one-region with one work item per thread through `num_teams`, work "
      "items in (k, j) tiles of 32 x 4: the product's shape from c82a63d to 5f4d0b8), *tiled-local* (tiled, the "
      "region's firstprivate struct copied into a local), *bare* (tiled as an LLVM `ompx_bare` region: "
      "no worksharing loop code, ids by hand), *bare-3* (hand CUDA's three kernels as `ompx_bare` regions), "
      "*teams-parallel* (tiled in standard OpenMP without a worksharing loop: `target teams` holding one "
      "`parallel`, ids from `omp_get_team_num()` and `omp_get_thread_num()`, a loop striding by the threads "
      "given), *teams-inline* (the same, one item per thread where the threads given cover the items, the "
      "strided loop inline otherwise), *teams-once* (the same with that loop out of line: a call in the "
      "region), *teams-flag* (one item per thread and no loop, a device flag where the runtime gave fewer "
      "threads: the product's shape since 5f4d0b8), *teams-nowait* (teams-flag queued with `nowait`, each "
      "step's region depending on the one before, one `taskwait` after the last). SU/s, 30 steps, best of 3; "
      "bitwise in every one of the runs since 83fc81a (in the last one before). "
      "`awave-omp-shapes N+2 30 [SHAPE,...]`; `bench/device/omp-shapes.sh`, `bench/device/kernel-shapes.sh`.\n")
    for path in sorted({p for p, _ in rows}):
        sel_file = [r for p, r in rows if p == path]
        for n in sorted({r["n"] for r in sel_file}):
            sel = [r for r in sel_file if r["n"] == n]
            segs = sorted({r["segment"] for r in sel})
            w(f"{n}^3, {gpu_of_result_dir(os.path.dirname(path))} (`{os.path.relpath(path, HERE)}`):\n")
            w("| shape | threads | " + " | ".join(f"segment {g}" for g in segs) + " | bitwise |")
            w("|---|---|" + "---|" * len(segs) + "---|")
            for shape in shapes_in_order(SHAPE_ORDER, sel):
                for t in (128, 256):
                    cells = {r["segment"]: r for r in sel if r["shape"] == shape and r["threads"] == t}
                    if cells:
                        w(f"| {shape} | {t} | " + " | ".join(fmt_su(cells[g]["su_per_s"]) if g in cells else "-"
                                                          for g in segs) +
                          f" | {'yes' if all(c['bitwise_with_three_region'] for c in cells.values()) else '**no**'} |")
            w("")
    for before, after in pairs:
        b_runs = [json.load(open(p)) for p in sorted(glob.glob(before))]
        a_runs = [json.load(open(p)) for p in sorted(glob.glob(after))]
        gpu = a_runs[0]["build"]["accelerator"]
        w(f"The product before (commit `{b_runs[0]['build']['git_commit']}`, three regions) and after "
          f"(`{a_runs[0]['build']['git_commit']}`, one region, 256-thread teams) on {gpu}, best chunk SU/s, "
          f"50 steps in chunks of 10 (`{os.path.relpath(os.path.dirname(after), HERE)}`):\n")
        w("| implementation | size | before (each run) | after |")
        w("|---|---|---|---|")
        for impl in ("omp", "kokkos-openmptarget"):
            for n in sorted({r["params"]["shape"][0] for r in a_runs}):
                bv = [i["best_su_per_s"] for r in b_runs if r["params"]["shape"][0] == n
                      for i in r["implementations"] if i["id"] == impl]
                av = [i["best_su_per_s"] for r in a_runs if r["params"]["shape"][0] == n
                      for i in r["implementations"] if i["id"] == impl]
                w(f"| {impl} | {n}^3 | {', '.join(fmt_su(x) for x in bv)} | {', '.join(fmt_su(x) for x in av)} |")
        w("")
    kernel_shapes_tables(w, kernel_shape_logs)
    cuda_shapes_tables(w, DEFAULT_CUDA_SHAPES)
    w("What moved into the product from these (commit `1cc8092`): Kokkos-CUDA runs the flat marching kernel, "
      "32 planes a work item, on every grid that is not fused (`src/kokkos/kokkos_policy.hpp`; the sponge "
      "tested once per march there); hand OpenMP offload keeps the one-region shape with teams of 128 threads "
      "instead of 256; Kokkos-OpenMPTarget keeps the sponge test at every point (once per march, *split*, "
      "was slower with clang: in the table above and in the product); hand CUDA is unchanged (no block shape "
      "beat the default, restrict parameters lost 2.4%). Since 3e7614a Kokkos-CUDA marches 8 planes where a plane "
      "is at most 4 MiB, and since e6f9f03 16 planes elsewhere (below).\n")
    newest_sweep_targets(w, DEFAULT_NEWEST_SWEEPS)


def newest_sweep_targets(w, dirs):
    """Section 16's targets, from the newest sweep of each GPU (every run checked and bitwise)."""
    rows = []
    for d in dirs:  # "A+B": B's runs replace A's of the same build
        parts = [os.path.join(HERE, "results", x) if i else x for i, x in enumerate(d.split("+"))]
        if not all(os.path.isdir(x) for x in parts):
            continue
        runs, bench, _, _, platforms = load_all(parts)
        gpus = [p for p in platforms if p != "build machine"]
        if gpus:
            rows.append((d, gpus[0], runs, bench))
    if not rows:
        return
    w("The targets, from the newest sweep of each GPU (best chunk SU/s, every run checked against the CPU "
      "reference and bitwise; `bench/device/sweeps.sh OUT cuda:cuda` and `... openmptarget:openmptarget`; "
      "a size is left out where one of the two builds' runs is missing):\n")
    sizes = [f"{n}x{n}x{n}" for n in (256, 384, 512, 768, 1000)]
    w("| GPU | commit (sweep) | size | hand OMP / hand CUDA | Kokkos-OMPT / hand OMP | Kokkos-CUDA / hand CUDA | "
      "hand CUDA, share of the limit | PP of Kokkos over {CUDA, OpenMP offload} |")
    w("|---|---|---|---|---|---|---|---|")
    for d, p, runs, bench in rows:
        lim = platform_limit(bench, p)
        for s in sizes:
            c, kc = best(runs, (p, "cuda", s), "cuda"), best(runs, (p, "cuda", s), "kokkos-cuda")
            o, ko = best(runs, (p, "openmptarget", s), "omp"), best(runs, (p, "openmptarget", s), "kokkos-openmptarget")
            if not (c and o):
                continue
            commit = ", ".join(sorted({runs[(p, b, s)]["build"]["git_commit"] for b in ("cuda", "openmptarget")}))
            pp = pennycook([kc / lim if kc and lim else None, ko / lim if ko and lim else None])
            w(f"| {p} | `{commit}` (`{os.path.relpath(d.split('+')[0], HERE)}`{' + ' + d.split('+')[1] if '+' in d else ''}) | {s.split('x')[0]}^3 | {o / c:.2f} | {ko / o:.2f} | "
              f"{kc / c:.2f} | {fmt_pct(c / lim) if lim else '-'} | {pp:.2f} |")
    w("")
    w(NEWEST_TARGETS_TEXT)


# What the newest sweeps (above) and the shape study say about each target of issue 16.
NEWEST_TARGETS_TEXT = (
    "Targets: hand OMP / hand CUDA >= 0.80 at 256^3 and 384^3, >= 0.85 from 512^3; Kokkos-OMPT / hand OMP "
    ">= 0.95; Kokkos-CUDA / hand CUDA >= 0.95; hand CUDA >= 95% of the limit on the H100 and >= 90% on "
    "the H200 at 512^3 and 1000^3; PP >= 0.85 at 512^3. Both GPUs' rows are sweeps of 2026-11-24 of the "
    "cuda and openmptarget builds of `5f4d0b8` (`sweep-5f4d0b8` on each GPU, every run checked and "
    "bitwise): Kokkos-CUDA's branch-free march indexing through one offset, 16 planes a work item "
    "(below); work items in (k, j) tiles (`core/march_tiles.hpp`), hand omp with one work item per "
    "thread in a step region without a worksharing loop (below), Kokkos-OMPT in rows of k with clang's "
    "team cap lifted by the build and its march with sponge layers indexed through one offset (below). One sweep run per size moves by 5-10% between sessions for the offload builds; changes "
    "to them were measured interleaved instead (the tile layout: on the H100 at 1000^3 hand omp 9.11e10 "
    "and 9.17e10 against 7.78e10 and 7.78e10 with the layout before, "
    "`results/h100-2026-11-24/sweep-99be1ee/ab-1000`; at 512^3 8.54-8.89e10 against 7.87-7.93e10, "
    "`results/h100-2026-11-24/march-tiles-c82a63d`). Met: Kokkos-CUDA / hand CUDA at every size on "
    "both GPUs (H100 0.97-1.00, H200 0.97-0.98; how, after this list); hand OMP / hand CUDA at 384^3, "
    "768^3 and 1000^3 on the H100 (0.80, 0.95, 0.96) and at 768^3 and 1000^3 on the H200 (0.85, 0.91); "
    "hand CUDA's share at 384^3 and 512^3 on the H100 (95-96%). Missed, and what limits each, measured:\n\n"
    "- Hand CUDA's share of the limit (H100 91% at 1000^3, 90% at 768^3; H200 85% at 512^3, 82% at 1000^3). The limit is the "
    "triad's bandwidth over 24 B a site; `awave-cuda-shapes` (above) measured what the march's own access "
    "pattern reaches when it streams those 24 B and computes nothing (*stream*): on the H100 1.20e11 at "
    "512^3 (100% of the limit) but 1.12e11 at 1000^3 (93%), on the H200 1.72e11 at 512^3 (99%) and "
    "1.62e11 at 1000^3 (94%). On the H100 the interior kernel is at that ceiling: 1.165e11 at 512^3 (97% "
    "of *stream*), 1.100e11 at 1000^3 (98% of *stream*'s best), so what is left at 1000^3 is the access "
    "pattern of three 8 GB fields marched plane by plane, not the stencil. On the H200 it is not: 1.489e11 "
    "at 512^3 and 1.438e11 at 1000^3 against *stream*'s 1.72e11 and 1.62e11, and dropping the y "
    "neighbours' loads alone (*no-y*) gives 1.67e11 and 1.55e11: the two loads of rows j-1, j+1 cost 11% "
    "and 8% on the H200 (3% at 512^3 on the H100, whose memory is slower behind the same SMs), the z "
    "neighbours' under 1% more. Shapes with more bytes in flight recover little of it: *prefetch* +3% at 512^3 and +2% at "
    "1000^3 on the H200 but 0% to -5% on the H100 at the product's segments, *two-j* +1-2% on the H200 "
    "(-12% on the H100 at 1000^3, segment 16), *ldg* up to +2%, *two-k* (66 registers) -13% to -18%, and "
    "*shared-y* (the rows from shared memory, one barrier a plane) -5% to -8% on both GPUs. Evict-first hints "
    "for the fields touched once a step, to keep the lines of `now` cached (*evict-first*: `prev` through "
    "`__ldcs`, `next` through `__stcs`), lost 13-14% on the H200, and 2-4% with `now` through `__ldg` as well "
    "(*evict-first-ldg*; `results/h200-2026-11-24/cuda-shapes-28d45d5`, two rounds, medians). The block shapes and segments of the first study (above) were within 1%. None "
    "moved into the product: none gains on both GPUs.\n"
    "- Hand OpenMP offload against hand CUDA (H100 0.73 at 256^3 and 0.83 at 512^3; H200 0.72-0.73 at "
    "256^3-384^3 and 0.83 at 512^3; 0.65-0.85 and 0.58-0.76 in the sweeps of `ed62ef4`). Not the memory "
    "system: the offload triad reaches 0.93-0.94 (H100) and 0.89-0.90 (H200) of CUDA's "
    "(`devbench-*.json`). What moved it: the worksharing loop's code. The same march and tiles as an LLVM "
    "`ompx_bare` region (no worksharing code, ids by hand) ran 9.87e10 against 9.12e10 on the H100 at "
    "512^3 (`results/h100-2026-11-24/omp-shapes-bare`) and 1.21-1.23e11 against 1.03-1.11e11 on the H200 "
    "(`results/h200-2026-11-24/omp-shapes-99be1ee`), with 70 registers against 56. The same is reached in "
    "standard OpenMP by a `target teams` region holding one `parallel`, each thread's work item from "
    "`omp_get_team_num()` and `omp_get_thread_num()` (clang runs it SPMD; the runtime gives exactly the "
    "teams and threads asked, `results/h100-2026-11-24/omp-teams-probe/probe.jsonl`), provided the region "
    "holds no fallback for fewer threads: *teams-flag* (one item per thread, a device flag raised where "
    "the runtime gave fewer) 9.81e10 against *bare* 9.75e10 and *tiled* 8.95e10 (H100, 512^3, segment 16, "
    "56 registers); the fallback loop inline (*teams-inline*, 72 registers) 8.84e10; out of line, a call in "
    "the region, 4.6e10 (`results/h100-2026-11-24/omp-teams-probe`, `omp-teams-b568ac5`). Since `5f4d0b8` "
    "the product's step region has that form and refuses a field computed with fewer threads than asked "
    "(`AWAVE_OMP_LOOP=worksharing` runs the loop instead; GPU tests plant both). Interleaved against the "
    "worksharing loop in the same build: H100 +15-17% at 256^3, +13-15% at 512^3, +15% at 1000^3 "
    "(`results/h100-2026-11-24/omp-teams-5f4d0b8`); H200 +13%, +22-25%, +19-20% "
    "(`results/h200-2026-11-24/omp-teams-5f4d0b8`). What is left at 512^3 is clang's march itself (as "
    "*bare*: 0.86 of hand CUDA on the H100, 0.82 on the H200; 56 registers against nvcc's 32). At 256^3 "
    "the launch adds to that: an empty synchronous target region costs 25 us on the H100 and 45 us on "
    "the H200 (`devbench-openmptarget.json`) against 3-4 us for a CUDA launch, on steps of 150-200 us. Queueing the regions with `nowait` and ordering them "
    "by dependences (which would hide that cost) gave wrong results with clang 19's runtime (745 of 7315 "
    "points at 33x17x9, every run; `src/omp/wave_omp.cpp`), and so it did again with the product's region "
    "since `5f4d0b8`: *teams-nowait* (*teams-flag* queued with `nowait`, every step `depend(inout)` on one "
    "host variable, one `taskwait` after the last) missed the reference's bits in every setting at every "
    "size from 33^3 to 512^3 (and in 30 of 30 settings of 200 steps at 33^3), and it was faster only at "
    "33^3 (H100, `results/h100-2026-11-24/kokkos-ompt-team-83fc81a`: 1.05e9 against 5.4e8 SU/s; at "
    "256^3 6.3e10 against 7.4e10). Not the hidden helper threads that run such tasks racing on several "
    "streams: with one helper it missed the bits as well; with the helpers off it kept them, but the "
    "tasks then run undeferred and hide nothing (7.73e10 against 7.98e10 at 256^3; "
    "`results/h100-2026-11-24/omp-nowait-helpers-83fc81a`). The segment, 32 instead of 16 in the product, "
    "interleaved on the H200 (`results/h200-2026-11-24/omp-segment-99be1ee`, two rounds each): hand omp "
    "1.116/1.109e11 against 1.069/1.088e11 at 1000^3 (+3%), 1.044/0.974e11 against 1.046/1.031e11 at "
    "512^3 and 8.13/7.89e10 against 8.53/8.39e10 at 256^3 (-5%): not moved.\n"
    "- Kokkos-OMPT against hand OMP (H100 0.80-0.86, H200 0.75-0.83; 0.90-0.97 and 0.80-0.90 before hand "
    "omp's region lost its worksharing loop). Kokkos 3.4's RangePolicy region is the `distribute parallel "
    "for` that hand omp left (13-25% slower in the A/Bs above), and Kokkos' own form without it, the "
    "TeamPolicy region (`target teams` holding a `parallel`), runs at most 166400 threads "
    "(`MAX_ACTIVE_THREADS`: 1300 teams of 128, each looping over leagues). Measured at `83fc81a` "
    "(the Marched kernel through a TeamPolicy, one work item per member: 60 registers against 85; "
    "bitwise in the GPU tests; H100, interleaved with the RangePolicy, two rounds, best, "
    "`results/h100-2026-11-24/kokkos-ompt-team-83fc81a`): teams of 128 5.3/5.6e10 against 6.5/6.1e10 at "
    "256^3, 7.8/7.7e10 against 8.0/8.1e10 at 512^3, 6.4/6.4e10 against 8.6/8.6e10 at 1000^3 (teams of "
    "256 alike): fewer registers did not pay for the league loop, so the code was not kept. In Kokkos' own "
    "loop form hand omp is no faster: against hand omp's worksharing loop (`AWAVE_OMP_LOOP=worksharing`), "
    "interleaved in one call, Kokkos-OMPT was at 1.05/0.95 at 256^3, 0.96/0.97 at 512^3 and 0.94/0.94 at "
    "1000^3, against 0.79-0.86 of hand omp's default (H100, `results/h100-2026-11-24/omp-nowait-helpers-83fc81a`). "
    "On the H200 the same call gave 0.83-0.92 against the worksharing loop and 0.72-0.78 against the "
    "default (`results/h200-2026-11-24/omp-nowait-helpers-83fc81a`): there Kokkos' region code costs "
    "beside the form (it maps the functor to the device at every launch, `map(to: functor)`, and holds "
    "85 registers against the hand worksharing region's 76). Kokkos 4.6's RangePolicy region is the same "
    "`distribute parallel for`. So what is left is the region Kokkos generates, which a policy choice "
    "of awave's cannot change. The launch, now mended: Kokkos "
    "3.4's RangePolicy gives the region no `num_teams`, and clang 19's offload runtime then caps it at "
    "3200 teams (`LIBOMPTARGET_INFO=16`), so each thread loops over several work items where hand omp's "
    "have one. `LIBOMPTARGET_REUSE_BLOCKS_FOR_HIGH_TRIP_COUNT=0` lifts the cap, and the runtime reads it "
    "while the program loads, from the offload registration clang puts among the executable's "
    "constructors at priority 1: a constructor of awave's was too late, and a setenv from "
    "`.preinit_array` is lost when the C library sets up the environment. Since `8aee5b1` the "
    "openmptarget build sets it (unless the environment does) from the constructor of a shared "
    "library, `libawave_offload_team_cap.so` (`src/kokkos/offload_team_cap.cpp`), which runs before "
    "any of the executable's; the implementation's description says so, and `-json` records the "
    "variable. On the H100, interleaved (`results/h100-2026-11-24/kokkos-ompt-cap-8aee5b1`, two rounds, "
    "best): 8.62e10 and 8.68e10 against 8.08e10 and 8.07e10 with the cap set again at 1000^3 (+6%), "
    "level at 512^3; the runtime launched 7859469 blocks where it had launched 3200. What remains is "
    "the code inside the region: Kokkos 3.4 maps the functor (`map(to: functor)`) at every launch and "
    "indexes through its Views; its `Marched` kernel gets 89 registers against hand omp's 71-76 "
    "(`bench/omp_ptx_census.py`), and capping registers (`--minnctapersm` 7 and 8: 72 and 64 with "
    "spills) was slower (`results/h100-2026-11-24/omp-ptxas-8b49ef9`: 0.81-0.95 of no cap). Indexing "
    "the march with sponge layers (Kokkos-OMPT's only march) through one offset, as hand omp does, gives "
    "85 registers; on the H100 +1-8% to 512^3 and level at 1000^3 (`results/h100-2026-11-24/kokkos-ompt-offset-a407c5b`), "
    "on the H200 0 to +5% (`results/h200-2026-11-24/kokkos-ompt-offset-852e267`, both interleaved, two "
    "rounds; 0.88-0.92 of hand omp there). That march is also Kokkos-CUDA's for marches that meet a "
    "layer, and with one offset Kokkos-CUDA was 5-9% lower at every size from 256^3 in the H200 sweep of "
    "`4130739` (`results/h200-2026-11-24/sweep-4130739`; ptxas: 48 registers either way), so since "
    "`852e267` the indexing is the backend's choice (`march_one_offset`, `src/kokkos/kokkos_policy.hpp`): "
    "one offset for OpenMPTarget, the Views for CUDA, whose device code is then byte-identical to "
    "`ed62ef4`'s. "
    "Tiles of 4 rows for Kokkos-OMPT, slower under the cap, were level with it lifted "
    "(same H100 A/B, `AWAVE_KOKKOS_MARCH_ROWS=4`).\n"
    "- PP at 512^3 (H100 0.79, H200 0.65): the harmonic mean over the four platforms is held down by "
    "Kokkos-OMPT's share of the limit, bounded as above.\n\n"
    "How Kokkos-CUDA reached hand CUDA: the branch-free march (`undamped_march`, "
    "`src/kokkos/wave_kokkos.hpp`) indexes the three levels through one offset and two strides, as hand "
    "CUDA does, instead of each View's index arithmetic (`6f9c835`). On the H200, in two device calls of the same "
    "day, not interleaved (`results/h200-2026-11-24/kokkos-unroll-cbb39ec`, setting *range*, against "
    "*range* of `kokkos-launch-9ab3bfd`, medians; hand CUDA 1.478-1.487e11 and 1.442e11 in the first, 1.472-1.473e11 and 1.432-1.433e11 in the second), that took Kokkos-CUDA from 1.385e11 to 1.436e11 at 512^3 and "
    "from 1.363e11 to 1.407e11 at 1000^3, and the sweeps of `6f9c835` "
    "gave 0.97-0.99 on the H200 and 0.97-1.00 up to 512^3 on the H100 (0.94-0.96 and 0.94-0.98 before). But "
    "on the H100 the 32-plane march of large planes lost with it: 1.014e11 against 1.089e11 at 768^3 and "
    "9.80e10 against 1.080e11 at 1000^3 (sweeps of `6f9c835` and `3e7614a`). Interleaved on the H100 "
    "with the `6f9c835` build (`results/h100-2026-11-24/kokkos-segment-6f9c835`, `AWAVE_KOKKOS_SEGMENT`, "
    "two rounds, medians): 16 planes gave 1.083e11 and 1.085e11 at 768^3, 1.097e11 twice at 1000^3, "
    "against 1.002e11 and 9.76e10 with 32 (hand CUDA 1.085-1.088e11, 1.095-1.096e11). On the H200, "
    "interleaved with the `e6f9f03` build (`results/h200-2026-11-24/kokkos-segment-e6f9f03`, two rounds, "
    "medians), 16 planes cost under 1%: 1.428e11 and 1.429e11 against 1.441e11 and 1.436e11 with 32 at "
    "768^3, 1.395e11 and 1.397e11 against 1.408e11 and 1.406e11 at 1000^3 (8 planes 1.384e11, 1.364e11; "
    "hand CUDA 1.461e11, 1.434e11). So `e6f9f03` marches 16 planes (`src/kokkos/kokkos_policy.hpp`): "
    "+9% on the H100 for -1% on the H200, 0.97 of hand CUDA or more on both. What was ruled out, on the H200 "
    "(`results/h200-2026-11-24/kokkos-launch-9ab3bfd`, `kokkos-split-ab7ba5e`, `kokkos-unroll-cbb39ec`, "
    "every setting checked bitwise at 192^3; the code is on branch `exp/kokkos-split-march`): Kokkos 3.4 "
    "runs the step kernel (48 registers) in 64-thread blocks, the smallest block of its best occupancy, "
    "and hand CUDA in 64-thread blocks is 2-3.5% slower than in its 256 (1.444e11 against 1.478e11 at "
    "512^3); teams of 128-512 threads (`TeamPolicy`, which asks for shared memory before L1) were 17-25% "
    "slower; launch bounds for full occupancy spilled and halved the rate; a step split into a branch-free "
    "interior kernel at 32 registers (unrolled twice) and the two layer kernels reached 1.493e11 at 512^3, "
    "above hand CUDA, but 1.232e11 at 1000^3 and 1.247e11 at 256^3, below the one-kernel step.\n\n")


def checksum_section(w, dirs):
    """Section 17: what the snapshot checksums cost, with and without, interleaved."""
    present = with_results(dirs)
    if not present:
        return
    w("## 17. Snapshots that prove their integrity: the cost\n")
    w("Every snapshot carries a CRC-32 per x-plane of `u` and `u_prev` and a record of what locates it "
      "(`src/io/integrity.hpp`); restart and `awave -verify` check them. A build without checksums (`old`) "
      "and one with them (`new`), interleaved (`bench/checksum-cost.sh`; steps and snapshot period per row). "
      "Output overlaps compute, so the run's wall time (file created to file committed) is what a user "
      "pays; the writer's busy time shows the checksums' own cost. Target: wall within 2%.\n")
    w("What the checksums themselves cost, computed: zlib's CRC-32 runs at 5.5 GB/s on one core of the build "
      "machine (`results/build-machine-2026-11-23/checksum-cost/crc32-throughput.txt`), and the writer "
      "checksums the planes of a snapshot on every OpenMP thread. A 256^3 run at the sweep's output period "
      "writes 6 snapshots of `u` and `u_prev` (1.6 GB): 0.3 s of one core, 0.02 s on the H100 machine's 16, "
      "about 1% of its 1.4 s wall; 512^3 (5 snapshots, 10.7 GB): 0.12 s on 16 cores, under 1% of 15 s. The "
      "measured wall times below move by more than that from run to run (the writer is disk-bound: the GPU "
      "computes for 0.02 s and 0.05 s of those runs), so three rounds cannot resolve 2%; their medians "
      "differ by +9% (256^3) and -3% (512^3), both inside the spread of the runs without checksums.\n")
    for d in present:
        runs = load_runs(d, "cost_")
        first = next(iter(runs.values()))
        w(f"{first['build']['accelerator'] if first['build']['accelerator'] != 'none' else 'host'} "
          f"(`{os.path.relpath(d, HERE)}`; old `{next(r['build']['git_commit'] for k, r in runs.items() if '_old_' in k)}`, "
          f"new `{next(r['build']['git_commit'] for k, r in runs.items() if '_new_' in k)}`):\n")
        w("| size | steps / snapshot every | implementation | wall old [s] | wall new [s] | new / old (medians) | "
          "writer busy old [s] | writer busy new [s] |")
        w("|---|---|---|---|---|---|---|---|")
        table = {}
        for name, r in runs.items():
            kind = "old" if "_old_" in name else "new"
            for i in r["implementations"]:
                if "io" in i:
                    key = (r["params"]["shape"][0], f"{r['params']['nsteps']} / {r['params']['out_period']}", i["id"])
                    e = table.setdefault(key, {"old": [], "new": [], "wold": [], "wnew": []})
                    e[kind].append(i["io"]["wall_seconds"])
                    e["w" + kind].append(i["io"]["write_seconds"])
        for (n, steps, impl), e in sorted(table.items()):
            ratio = statistics.median(e["new"]) / statistics.median(e["old"]) if e["old"] and e["new"] else None
            w(f"| {n}^3 | {steps} | {impl} | {', '.join(f'{x:.2f}' for x in e['old'])} | {', '.join(f'{x:.2f}' for x in e['new'])} | "
              f"{'-' if ratio is None else f'{ratio:.3f}'} | {', '.join(f'{x:.2f}' for x in e['wold'])} | "
              f"{', '.join(f'{x:.2f}' for x in e['wnew'])} |")
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
    gpus = sorted(glob.glob(os.path.join(d, "gpu-*.txt")))
    count = 0
    if gpus:
        with open(gpus[0]) as f:
            count = sum(1 for line in f if line.strip())
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


def study_inputs(study_dirs, effort_dirs):
    """The lines-of-code and code-divergence files: the newest effort directory's, else a study's."""
    loc = divergence = None
    for d in list(study_dirs) + list(effort_dirs):
        for name in ("loc.json", "divergence.json"):
            path = os.path.join(d, name)
            if os.path.exists(path):
                with open(path) as f:
                    data = json.load(f)
                if name == "loc.json":
                    loc = data
                else:
                    divergence = data
    return loc, divergence


def provenance_section(w, study_runs, loc, divergence):
    w("## Provenance\n")
    w("Every number above is read from committed result files; `python3 bench/report.py` regenerates this "
      "report from them, byte for byte. The first page's runs:\n")
    by_dir = {}
    for (h, build, label, s), (r, d) in sorted(study_runs.items()):
        b = r.get("build") or {}
        none = f"— ({r.get('status')}: awave wrote no result)" if r.get("status") != "ok" else "?"
        by_dir.setdefault(os.path.relpath(d, os.path.dirname(HERE)), set()).add(
            (h, build + (f" ({label})" if label else ""), b.get("git_commit", none), b.get("kokkos_version", "—"),
             b.get("compiler", "—")))
    w("| results | hardware | build | commit | Kokkos | compiler |")
    w("|---|---|---|---|---|---|")
    for d, rows in sorted(by_dir.items()):
        for h, build, commit, kv, cc in sorted(rows):
            w(f"| `{d}` | {h} | {build} | `{commit}` | {kv} | {cc} |")
    w("")
    if loc:
        w(f"Lines of code: `bench/count_loc.py` at `{loc.get('git_commit', '?')}`. "
          + (f"Code divergence: `bench/code_divergence.py` at `{divergence.get('git_commit', '?')}` over "
             + ", ".join(f"{p} (`{b}`)" for p, b in divergence.get("builds", {}).items()) + "." if divergence else ""))
        w("")


def generate_study(study_dirs, out_dir, effort_dirs=()):
    """bench/study.sh's report: this machine's first page and its evidence alone."""
    os.makedirs(out_dir, exist_ok=True)
    md = ["# awave portability report (bench/study.sh)\n"]
    loc, divergence = study_inputs(study_dirs, effort_dirs)
    runs = portability.first_page(md.append, plt, study_dirs, loc, divergence, out_dir)
    study_evidence.evidence(md.append, study_dirs, loc)
    provenance_section(md.append, runs, loc, divergence)
    with open(os.path.join(out_dir, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    return os.path.join(out_dir, "report.md")


def generate(dirs, out_dir, io_dirs=None, align_dirs=None, mpi_dirs=None, bitwise_dirs=None, cost_dirs=None,
             study_dirs=None, effort_dirs=None):
    bitwise_dirs = DEFAULT_BITWISE if bitwise_dirs is None else bitwise_dirs
    cost_dirs = DEFAULT_FP_COST if cost_dirs is None else cost_dirs
    io_dirs = DEFAULT_IO if io_dirs is None else io_dirs
    mpi_dirs = DEFAULT_MPI if mpi_dirs is None else mpi_dirs
    align_dirs = DEFAULT_ALIGN if align_dirs is None else align_dirs
    runs, devbench, loc = load(dirs)
    main_commit = mark_older_commits(runs)
    os.makedirs(out_dir, exist_ok=True)
    study_dirs = DEFAULT_STUDY if study_dirs is None else study_dirs
    effort_dirs = DEFAULT_EFFORT if effort_dirs is None else effort_dirs
    md, older, appendix = [], [], []
    md.append("# awave portability report\n")
    loc_study, divergence = study_inputs(study_dirs, effort_dirs)
    study_runs = portability.first_page(md.append, plt, study_dirs, loc_study, divergence, out_dir)
    md.append("Contents after this page: the evidence for it; then the measurements of the earlier studies "
              "(sections 1-15 and 17: sizes, platforms, Kokkos versions, output, MPI, bitwise results); the "
              "kernel-shape studies (appendix A, section 16); provenance.\n")
    study_evidence.evidence(md.append, study_dirs, loc_study)
    w = older.append  # the earlier studies' header goes to the provenance at the end
    cuda_bench = devbench.get("cuda", {})
    omp_bench = devbench.get("openmptarget", {})
    bw = cuda_bench.get("triad_bandwidth_gb_s")
    any_gpu_run = next((r for (b, s), r in sorted(runs.items()) if b != "host" and r.get("status") == "ok"), None)
    gpu = (any_gpu_run or {}).get("gpu") or cuda_bench.get("gpu") or {}

    w("### Earlier studies' sweeps\n")
    w("Generated by `python3 bench/report.py` from the result files in " +
      ", ".join(f"`{os.path.relpath(d, os.path.dirname(HERE))}`" for d in dirs) +
      ". Every number below comes from those files.\n")
    if any_gpu_run:
        b = any_gpu_run["build"]
        commits = {}
        for (bb, s), r in sorted(runs.items()):
            if bb != "host" and r.get("status") == "ok":
                commits.setdefault(r["build"]["git_commit"], []).append(f"{bb} {s}")
        w(f"GPU: **{gpu.get('name', '?')}** ({gpu.get('memory', '?')}, driver {gpu.get('driver', '?')}). "
          f"Kokkos {b['kokkos_version']}; awave commits: " +
          "; ".join(f"`{c}` ({len(v)} runs{': ' + ', '.join(v) if len(v) <= 6 else ''})"
                    for c, v in sorted(commits.items(), key=lambda kv: -len(kv[1]))) +
          f"; sweep date {any_gpu_run['date'][:10]}.\n")
        for build in ("cuda", "openmptarget"):
            r = next((r for (bb, s), r in sorted(runs.items()) if bb == build and r.get("status") == "ok"), None)
            if r:
                w(f"- `{build}` preset: {r['build']['compiler']}; {r['build']['kokkos']}.")
        w("")
    w = md.append
    w("# Measurements of the earlier studies\n")
    if main_commit:
        w(f"° marks runs of the `cuda` and `openmptarget` builds from another commit than `{main_commit}`, "
          "the one most of them come from (the header lists which).\n")
    w("Reading the tables: SU/s is the best chunk of the run (site updates per second); † marks runs "
      "not checked against the CPU reference (the sweeps check every run: GPU runs against the threaded "
      "CPU reference, host runs against the serial one); ‡ marks checked runs whose fields are not the "
      "reference's bits (within the spec's tolerance, but not bitwise: section 15); "
      "`failed` and `missing` are runs that were planned in a sweep manifest and produced no valid result. "
      "The results of 2026-11-22 (`results/*-2026-11-22`) were built from trees with uncommitted changes "
      "(their commits end in `-dirty`) and cannot be rebuilt exactly: where a section still shows them "
      "they are an indication, not evidence; every later result names a clean commit.\n")

    # (a) estimate
    w("## 1. The performance estimate\n")
    if bw:
        w("A site update reads `now` at 7 points and `prev` at 1, writes `next`, and reads the "
          "coefficients. Bytes per site that must cross device memory:\n")
        w("| access pattern | bytes/site | SU/s limit at the measured triad bandwidth |")
        w("|---|---|---|")
        for label, nbytes in (("naive, full 3-D cs2 and damp (the original layout), no reuse", BYTES_NAIVE_FULL),
                              ("naive, compressed coefficients (cs2 per depth, damp per column), no reuse", BYTES_NAIVE),
                              ("cached: each of now, prev read once, next written once", BYTES_CACHED)):
            w(f"| {label} | {nbytes} | {fmt_su(su_limit(bw, nbytes))} |")
        w("")
        w(f"Measured in the same session with `awave-devbench` (arrays of {cuda_bench['array_elements']} doubles, "
          f"best of {cuda_bench['repetitions']}): CUDA copy {cuda_bench['copy_bandwidth_gb_s']:.0f} GB/s, "
          f"CUDA triad **{bw:.0f} GB/s**"
          + (f"; the same kernels in OpenMP offload: copy {omp_bench['copy_bandwidth_gb_s']:.0f} GB/s, triad "
             f"{omp_bench['triad_bandwidth_gb_s']:.0f} GB/s" if "triad_bandwidth_gb_s" in omp_bench else "")
          + ". The limit used below is the cached pattern at the CUDA triad bandwidth: "
          f"**{fmt_su(su_limit(bw, BYTES_CACHED))} SU/s**.\n")
    else:
        w("No `devbench-cuda.json`: no measured bandwidth, so no limit.\n")
    limit = su_limit(bw, BYTES_CACHED) if bw else None

    # (b) SU/s vs size plot
    w("## 2. SU/s against problem size\n")
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for impl in GPU_IMPLS:
        build = gpu_build_of(impl)
        xs, ys = [], []
        for s in ordered_shapes(runs, build):
            r = impl_result(runs[(build, s)], impl)
            if r and len(set(s.split("x"))) == 1:
                xs.append(points(s))
                ys.append(r["best_su_per_s"])
        if xs:
            ax.plot(xs, ys, marker="o", label=impl)
    if limit:
        ax.axhline(limit, color="black", linestyle="--", label=f"limit {fmt_su(limit)} (24 B/site)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("interior points (cubes 32^3 ... 1000^3)")
    ax.set_ylabel("best-chunk SU/s")
    ax.set_title(f"awave on {gpu.get('name', 'GPU')}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    w(f"![SU/s against size]({savefig(fig, out_dir, 'su_vs_size.png')})\n")

    # (c) table
    w("## 3. SU/s and fraction of the limit\n")
    w("Grids whose three fields fit in the GPU's L2 cache (50 MB on the H100: 96^3 takes 3 x 98^3 x 8 B = "
      "23 MB) are not bound by device-memory bandwidth and can exceed the limit.\n")
    shapes = sorted({s for (b, s) in runs if b != "host"}, key=lambda s: (len(set(s.split("x"))) > 1, points(s), s))
    w("| shape | " + " | ".join(GPU_IMPLS) + " |")
    w("|---|" + "---|" * len(GPU_IMPLS))
    for s in shapes:
        row = []
        for impl in GPU_IMPLS:
            run = runs.get((gpu_build_of(impl), s))
            row.append(cell(run, impl, lambda r: fmt_su(r["best_su_per_s"]) +
                            (f" ({fmt_pct(r['best_su_per_s'] / limit)})" if limit else "")))
        w(f"| {s} | " + " | ".join(row) + " |")
    w("")

    # (d) Kokkos / hand-written
    w("## 4. Kokkos against the hand-written code, per backend\n")
    w("| shape | " + " | ".join(f"{k} / {h}" for k, h, _ in PAIRS) + " |")
    w("|---|" + "---|" * len(PAIRS))
    ratio_series = {k: ([], []) for k, _, _ in PAIRS}
    for s in shapes:
        row = []
        for k, h, _ in PAIRS:
            run = runs.get((gpu_build_of(k), s))
            kr, hr = (impl_result(run, k), impl_result(run, h)) if run else (None, None)
            if kr and hr:
                ratio = kr["best_su_per_s"] / hr["best_su_per_s"]
                row.append(f"{ratio:.2f}")
                if len(set(s.split("x"))) == 1:
                    ratio_series[k][0].append(points(s))
                    ratio_series[k][1].append(ratio)
            else:
                row.append(cell(run, k, lambda r: "-") if run else "missing")
        w(f"| {s} | " + " | ".join(row) + " |")
    w("")
    fig, ax = plt.subplots(figsize=(7.5, 3.5))
    for k, h, _ in PAIRS:
        if ratio_series[k][0]:
            ax.plot(*ratio_series[k], marker="o", label=f"{k} / {h}")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("interior points (cubes)")
    ax.set_ylabel("Kokkos / hand-written")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    w(f"![Kokkos / hand-written]({savefig(fig, out_dir, 'kokkos_ratio.png')})\n")

    # (e) performance portability
    w("## 5. Performance portability (Pennycook)\n")
    w("PP(a, p, H) is the harmonic mean over the platforms H of a code's efficiency, and 0 if the code "
      "does not run on one of them. Efficiency here is architectural: best-chunk SU/s over the 24 B/site "
      "limit above. The platform set H is the H100 reached through its two GPU toolchains: "
      f"{{{', '.join(sorted(set(PLATFORM_OF.values())))}}}. Kokkos runs on both; each hand-written code "
      "runs on one, so its PP over H is 0 at every size (not tabulated), and its PP over the platforms it "
      "supports is its efficiency there.\n")
    if limit:
        w("| shape | Kokkos, over H | hand-written CUDA, over {CUDA} | hand-written OpenMP, over {OpenMP offload} |")
        w("|---|---|---|---|")
        for s in shapes:
            effs = {}
            for impl in GPU_IMPLS:
                run = runs.get((gpu_build_of(impl), s))
                r = impl_result(run, impl) if run else None
                effs[impl] = r["best_su_per_s"] / limit if r else None
            kokkos = pennycook([effs["kokkos-cuda"], effs["kokkos-openmptarget"]])
            w(f"| {s} | {kokkos:.2f} | {pennycook([effs['cuda']]):.2f} | {pennycook([effs['omp']]):.2f} |")
        w("")

    # (f) small sizes
    w("## 6. Small problems: time per step against launch overheads\n")
    launch = {"cuda": cuda_bench.get("launch_overhead_seconds"), "openmptarget": omp_bench.get("launch_overhead_seconds")}
    if launch["cuda"] and launch["openmptarget"]:
        w(f"`awave-devbench` timed back-to-back empty launches: a CUDA kernel costs {launch['cuda'] * 1e6:.1f} µs, an "
          f"OpenMP target region {launch['openmptarget'] * 1e6:.1f} µs. A large grid's step is {STEPS_LAUNCHES} "
          f"launches (interior, x layers, y layers): at least {STEPS_LAUNCHES * launch['cuda'] * 1e6:.1f} µs (CUDA) "
          f"or {STEPS_LAUNCHES * launch['openmptarget'] * 1e6:.1f} µs (OpenMP offload) when launched from the host. "
          "Up to 128^3 every implementation fuses the step into one kernel (`src/core/step_plan.hpp`), and the "
          "hand-written CUDA replays three steps at a time from a CUDA graph, so those two bounds do not apply "
          "there; one synchronous target region per step still costs the OpenMP codes about one empty region. "
          "At 32^3 that step's time varies about 2x from run to run (25-47 us in repeated runs of the same "
          "build, against the sweep's 67 us: `results/h100-2026-11-23/small-omp-variance`).\n")
    w("| shape | " + " | ".join(f"{i} µs/step" for i in GPU_IMPLS) + " |")
    w("|---|" + "---|" * len(GPU_IMPLS))
    fig, ax = plt.subplots(figsize=(7.5, 4))
    small = [s for s in shapes if len(set(s.split("x"))) == 1 and points(s) <= 256 ** 3]
    series = {i: ([], []) for i in GPU_IMPLS}
    for s in small:
        row = []
        for impl in GPU_IMPLS:
            run = runs.get((gpu_build_of(impl), s))

            def per_step(r):
                times = sorted(t / n for t, n in zip(r["chunk_seconds"], r["chunk_steps"]))
                return times[len(times) // 2]
            r = impl_result(run, impl) if run else None
            if r:
                series[impl][0].append(points(s))
                series[impl][1].append(per_step(r) * 1e6)
            row.append(cell(run, impl, lambda r: f"{per_step(r) * 1e6:.1f}"))
        w(f"| {s} | " + " | ".join(row) + " |")
    w("")
    for impl in GPU_IMPLS:
        if series[impl][0]:
            ax.plot(*series[impl], marker="o", label=impl)
    for build, style in (("cuda", ":"), ("openmptarget", "--")):
        if launch[build]:
            ax.axhline(STEPS_LAUNCHES * launch[build] * 1e6, color="gray", linestyle=style,
                       label=f"{STEPS_LAUNCHES} empty launches ({'CUDA' if build == 'cuda' else 'OpenMP'})")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("interior points (cubes up to 256^3)")
    ax.set_ylabel("median time per step [µs]")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    w(f"![time per step]({savefig(fig, out_dir, 'small_sizes.png')})\n")

    all_runs, all_bench, _, cpus, platforms = load_all(dirs)
    for p in platforms:  # the same ° marks in the per-platform tables
        mark_older_commits({(b, s): r for (q, b, s), r in all_runs.items() if q == p})
    primary = next((p for p in platforms if p != "build machine"), None)
    # Kokkos versions side by side: only the directories holding the builds against another Kokkos,
    # so that each pair of builds is one session's (later sweeps of the base builds left out).
    variant_dirs = [d for d in dirs if any(glob.glob(os.path.join(d, f"{v}_*.json")) for v in KOKKOS_VARIANTS)]
    if variant_dirs:
        v_runs, v_bench, _, _, _ = load_all(variant_dirs)
        kokkos_versions_section(w, v_runs, v_bench, primary, variant_dirs)
    else:
        kokkos_versions_section(w, all_runs, all_bench, primary)
    platforms_section(w, all_runs, all_bench, platforms)
    host_section(w, all_runs, cpus, platforms)
    targets_section(w, all_runs, all_bench, platforms, primary)

    # (h) ease of implementation
    w("## 11. Ease of implementation, and a recommendation\n")
    if loc:
        w(f"Lines of code (non-blank, non-comment; counted by `bench/count_loc.py` at commit `{loc['git_commit']}`) "
          "that each implementation adds on top of the shared core (model, update formula, driver, I/O):\n")
        w("| implementation | files | lines |")
        w("|---|---|---|")
        for name, entry in loc["implementations"].items():
            w(f"| {name} | {', '.join(f'`{f}`' for f in entry['files'])} | {entry['lines']} |")
        w("")
    best = {}
    for impl in GPU_IMPLS:
        vals = [impl_result(runs[(gpu_build_of(impl), s)], impl) for s in shapes if (gpu_build_of(impl), s) in runs]
        vals = [v["best_su_per_s"] for v in vals if v]
        best[impl] = max(vals) if vals else None
    if limit and all(best.values()):
        lines = {k: v["lines"] for k, v in (loc or {}).get("implementations", {}).items()}
        w("What the measurements say:")
        w(f"- Peak SU/s over the sweep: " + ", ".join(f"{i} {fmt_su(best[i])} ({100 * best[i] / limit:.0f}% of the limit)"
                                                     for i in GPU_IMPLS) + ".")
        w(f"- One Kokkos source reached {100 * best['kokkos-cuda'] / best['cuda']:.0f}% of hand-written CUDA's peak "
          f"and {100 * best['kokkos-openmptarget'] / best['omp']:.0f}% of hand-written OpenMP offload's peak, and "
          "is the only code here with a non-zero performance portability over both toolchains.")
        for k, h, _ in PAIRS:
            ratios = sorted(ratio_series[k][1])
            if ratios:
                w(f"- {k} / {h} over the cubes: {ratios[0]:.2f} to {ratios[-1]:.2f}, median "
                  f"{ratios[len(ratios) // 2]:.2f} (section 4).")
        if lines:
            w(f"- Code size: Kokkos {lines.get('kokkos', '?')} lines for every backend; hand-written CUDA "
              f"{lines.get('cuda', '?')} and OpenMP offload {lines.get('omp', '?')} lines, one platform each.")
        w("- Small problems are launch-bound: see section 6; the OpenMP offload runtime's per-region cost, "
          "not the kernels, limits OpenMP (hand-written and Kokkos alike) there.")
        w("")
        w("Recommendation: write the solver once in Kokkos, with the backend-specific choices (the policy "
          "and loop shape, tiles, the march's segment, where the sponge is tested) in one policy file, as here: "
          "at the sizes that fill this GPU it stays within the ratios above of each hand-written code while "
          "being the only one that runs through both toolchains. Keep a hand-written version as the yardstick: "
          "it found the march that Kokkos-CUDA now runs (section 16), and it shows where the ratio still drops "
          "(OpenMP offload throughout: Kokkos 3.4's OpenMPTarget regions are the worksharing loop the hand-written code left, section 16).\n")
    io_section(w, io_dirs)
    align_section(w, align_dirs)
    mpi_section(w, mpi_dirs)
    bitwise_section(w, bitwise_dirs, cost_dirs)
    checksum_section(w, DEFAULT_CHECKSUM_COST)
    appendix.append("# Appendix A. The GPU kernels' shapes (section 16)\n")
    omp_shapes_section(appendix.append, DEFAULT_OMP_SHAPES, DEFAULT_OMP_BEFORE_AFTER, DEFAULT_KERNEL_SHAPES)
    tail = []
    provenance_section(tail.append, study_runs, loc_study, divergence)
    with open(os.path.join(out_dir, "report.md"), "w") as f:
        f.write("\n".join(md + appendix + tail + older) + "\n")
    return os.path.join(out_dir, "report.md")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="*")
    parser.add_argument("--study", action="append", help="a study directory (bench/study.sh); alone: its report")
    parser.add_argument("-o", "--out", default=os.path.join(HERE, "report"))
    args = parser.parse_args(argv)
    if args.study and not args.results:
        print(generate_study(args.study, args.out))
    else:
        print(generate(args.results or DEFAULT_RESULTS, args.out, study_dirs=args.study))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
