"""What every section shares: loading and validating the result files, the platforms, the
bandwidth limit, number formats, the figures."""
import glob
import json
import os

import matplotlib.pyplot as plt  # the Agg backend: bench/report.py chose it


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


def per_step_us(runs, key, impl):
    r = impl_result(runs.get(key, {}), impl)
    if not r:
        return None
    times = sorted(t / n for t, n in zip(r["chunk_seconds"], r["chunk_steps"]))
    return times[len(times) // 2] * 1e6


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


def load_runs(d, prefix):
    """The awave-run JSON files NAME.json of a directory whose names start with prefix."""
    runs = {}
    for path in sorted(glob.glob(os.path.join(d, prefix + "*.json"))):
        with open(path) as f:
            runs[os.path.basename(path)[:-5]] = json.load(f)
    return runs
