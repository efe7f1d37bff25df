#!/usr/bin/env python3
"""Run one awave build over sizes and write one JSON result a run.

    python3 bench/sweep.py PRESET OUT_DIR [--sizes 32,64,...] [--name NAME] [--exe PATH] [--no-check]
                           [--impls ID,...] [--reference cpu|cpu-openmp] [--tune KEY=VALUE,...]
                           [--env VAR=VALUE] [--label LABEL] [--rounds N [--round K]] [--held]

PRESET is a toolchain (cmake/toolchains/: cuda, openmptarget, host); the executable build/NAME/src/awave (NAME: default PRESET, e.g. cuda-k46).
Writes into OUT_DIR: manifest-NAME.json, every run planned into the folder (a missing result shows as missing;
a part run again at other sizes adds its runs); devbench-NAME.json, the triad before the first round (and
devbench-NAME.end.json after the last, where the rounds run one by one; .2, .3, ... where a part runs again);
NAME_NXxNYxNZ.json a run, awave's -json plus the sweep's (GPU, status, why unchecked; a failed run keeps the end
of its output), and NAME_NXxNYxNZ.rK.json for round K >= 2 of --rounds. NAME-LABEL where --label names a variant.
Round 1 is checked point by point (GPU runs against the threaded CPU reference, bitwise the serial one's; host
runs against the serial reference, their baseline); later rounds, and with --held round 1 too, carry awave's
-digest, which the report holds to a checked run's at the same size and steps. --round K runs round K alone, so
that bench/study.sh interleaves its plans round by round. Runs above BIG_POINTS take fewer steps (STEPS_BIG).
Every file records "gpu" (null for the host build) and "machine_gpu": two GPU machines' CPUs are two platforms.
"""
import argparse
import json
import os
import subprocess

from ..catalog import toolchains

GPU_SIZES = [(n, n, n) for n in (32, 64, 96, 128, 192, 256, 384, 512, 768, 1000)] + [(1000, 64, 1000), (64, 1000, 1000)]
HOST_SIZES = [(n, n, n) for n in (32, 64, 96, 128, 192, 256)]
# What each toolchain's build runs by default, and the reference it is checked against (cmake/toolchains/*/
# toolchain.json): GPU runs against the threaded CPU reference; host runs against the serial one, whose own timing
# is then the baseline the host backends are compared with.
IMPLS = toolchains.SWEEP_IMPLEMENTATIONS
REFERENCE = toolchains.SWEEP_REFERENCE
# nsteps, out_period (chunks of out_period steps): chunks of a multiple of 3 steps, so a sweeping
# code's chunk is sweeps alone (a chunk's remainder would take single steps).
STEPS = {"gpu": (96, 24), "host": (24, 6)}
BIG_POINTS = 256 ** 3
STEPS_BIG = {"gpu": (36, 12), "host": (12, 6)}
SCHEMA = "awave-sweep-run/1"


def size_of(run_name):
    """'cuda-single-steps_512x512x512.r3' -> '512x512x512': a run's size, whatever its round."""
    return run_name.rsplit("_", 1)[1].split(".")[0]


def gpu_info():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,memory.total,driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30).stdout.strip().splitlines()
        name, memory, driver = (x.strip() for x in out[0].split(","))
        return {"name": name, "memory": memory, "driver": driver}
    except (OSError, IndexError, ValueError, subprocess.SubprocessError):
        return None


def cpu_info():
    """The machine's CPU: model name and logical cores (the CPU platform of the report)."""
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), model)
    except OSError:
        pass
    return {"name": model, "cores": os.cpu_count()}


def plan(build, tag, sizes, rounds=1, check=True, impls=None, reference=None, tune="", env=None, label="",
         held=False):
    """Every run, round by round: round 1 checked (unless held or unchecked), later rounds held by -digest."""
    kind = "gpu" if build in toolchains.ON_DEVICE else "host"
    runs = []
    for r in range(1, rounds + 1):
        for shape in sizes:
            nsteps, out_period = (STEPS_BIG if shape[0] * shape[1] * shape[2] > BIG_POINTS else STEPS)[kind]
            runs.append({"name": f"{tag}_{shape[0]}x{shape[1]}x{shape[2]}" + (f".r{r}" if r > 1 else ""),
                         "preset": build, "shape": list(shape), "impls": impls or IMPLS[build], "nsteps": nsteps,
                         "out_period": out_period, "checked": check and not held and r == 1,
                         "reference": reference or REFERENCE[build], "tune": tune, "env": env or {}, "label": label,
                         **({"held": True} if held else {}), "round": r})
    return runs


def run_one(exe, build, run, out_dir, gpu, machine_gpu):
    shape = ",".join(str(n) for n in run["shape"])
    json_path = os.path.join(out_dir, run["name"] + ".json")
    args = [exe, "-shape", shape, "-nsteps", str(run["nsteps"]), "-out_period", str(run["out_period"]), "-no_output",
            "-impl", ",".join(run["impls"]), "-json", json_path]
    args += ["-reference", run.get("reference", REFERENCE[run["preset"]])] if run["checked"] else ["-no_check"]
    args += ["-digest"]
    if run.get("tune"):
        args += ["-tune", run["tune"]]
    env = dict(os.environ, OMP_TARGET_OFFLOAD="MANDATORY")
    env.update(run.get("env", {}))  # a variant's settings win (OMP_TARGET_OFFLOAD=DISABLED)
    proc = subprocess.run(args, capture_output=True, text=True, env=env)
    sweep = {"build": build, "command": " ".join(args[1:]), "exit_status": proc.returncode,
             "label": run.get("label", ""), "env": run.get("env", {}), **({"held": True} if run.get("held") else {}),
             # the threads' binding the run had (a CPU cell's rate depends on it: report, first page)
             "binding": {k: env.get(k, "") for k in ("OMP_PROC_BIND", "OMP_PLACES", "OMP_NUM_THREADS")}}
    if proc.returncode == 0 and os.path.exists(json_path):
        with open(json_path) as f:
            result = json.load(f)
        result["status"] = "ok"
    else:  # exit 3 with one line: the run was refused (no device, offload on the host), not broken
        refused = proc.returncode == 3 and proc.stderr.count("awave: error: ") == 1
        result = {"status": "refused" if refused else "failed",
                  "params": {"shape": run["shape"], "nsteps": run["nsteps"], "out_period": run["out_period"]},
                  "impls": run["impls"], "error": (proc.stdout + proc.stderr)[-2000:]}
    result["sweep_schema"] = SCHEMA
    result["sweep"] = sweep
    result["gpu"] = gpu
    result["machine_gpu"] = machine_gpu
    result["host_cpu"] = cpu_info()
    if not run["checked"]:
        result["check_skipped_reason"] = (
            "held: its digest is held to a checked run's reference at the same size and steps (--held)"
            if run.get("held") else f"round {run['round']}: its digest is held to round 1's reference"
            if run.get("round", 1) > 1 else "the sweep ran with --no-check")
    with open(json_path, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    return result


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", choices=sorted(IMPLS))
    parser.add_argument("out_dir")
    parser.add_argument("--sizes", help="comma-separated cube edges, or NXxNYxNZ items")
    parser.add_argument("--exe", help="awave executable (default build/BUILD/src/awave)")
    parser.add_argument("--name", help="name of the build in file names (default BUILD, e.g. cuda-k46)")
    parser.add_argument("--no-check", action="store_true", help="skip the CPU reference and the check")
    parser.add_argument("--held", action="store_true",
                        help="round 1 too unchecked, its -digest held to another plan's checked run")
    parser.add_argument("--impls", help="comma-separated implementations (default: the preset's)")
    parser.add_argument("--reference", choices=sorted(set(REFERENCE.values())), help="the CPU reference to check against")
    parser.add_argument("--tune", default="", help="awave's -tune value for every run")
    parser.add_argument("--env", action="append", default=[], help="VAR=VALUE for every run (repeatable)")
    parser.add_argument("--label", default="", help="a name for this variant, in the file names")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each size in separate processes")
    parser.add_argument("--round", type=int, help="run round K of --rounds alone (a study interleaves its plans)")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error(f"--rounds takes an integer >= 1, not {args.rounds}")
    if args.round is not None and not 1 <= args.round <= args.rounds:
        parser.error(f"--round takes 1 to --rounds ({args.rounds}), not {args.round}")
    if args.held and args.no_check:
        parser.error("--held and --no-check: a run is held to a reference's digest or unchecked, not both")
    if any("=" not in e for e in args.env):
        parser.error("--env takes VAR=VALUE")
    if args.label and not all(c.isalnum() or c in "-." for c in args.label):
        parser.error("--label takes letters, digits, '-' and '.'")
    on_device = args.build in toolchains.ON_DEVICE
    sizes = GPU_SIZES if on_device else HOST_SIZES
    if args.sizes:
        sizes = [tuple(int(v) for v in s.split("x")) if "x" in s else (int(s),) * 3 for s in args.sizes.split(",")]
    name = args.name or args.build
    exe = args.exe or os.path.join("build", name, "src", "awave")
    os.makedirs(args.out_dir, exist_ok=True)
    machine_gpu = gpu_info()
    gpu = machine_gpu if on_device else None
    tag = f"{name}-{args.label}" if args.label else name
    runs = plan(args.build, tag, sizes, args.rounds, check=not args.no_check,
                impls=args.impls.split(",") if args.impls else None, reference=args.reference, tune=args.tune,
                env=dict(e.split("=", 1) for e in args.env), label=args.label, held=args.held)
    # A folder's manifest keeps every run planned into it: the plan run again at other sizes (a study in parts,
    # 1000^3 with fewer rounds) adds its runs; a size planned again replaces that size's runs.
    manifest = os.path.join(args.out_dir, f"manifest-{tag}.json")
    kept = []
    if os.path.exists(manifest):
        sizes_now = {size_of(run["name"]) for run in runs}
        with open(manifest) as f:
            kept = [run for run in json.load(f)["runs"] if size_of(run["name"]) not in sizes_now]
    with open(manifest, "w") as f:
        json.dump({"schema": "awave-sweep-manifest/1", "build": name, "preset": args.build, "gpu": gpu,
                   "runs": kept + runs}, f, indent=1)
        f.write("\n")
    devbench = os.path.join("build", name, "bench", "awave-devbench")
    # The triad once a build: before its first round, and after its last where the rounds run one by one.
    reading = "" if args.round in (None, 1) else ".end" if args.round == args.rounds else None
    if os.path.exists(devbench) and not args.label and reading is not None:
        proc = subprocess.run([devbench], capture_output=True, text=True,
                              env=dict(os.environ, OMP_TARGET_OFFLOAD="MANDATORY"))
        bench = json.loads(proc.stdout) if proc.returncode == 0 else {"status": "failed", "error": proc.stderr[-2000:]}
        bench["gpu"] = gpu
        bench["machine_gpu"] = machine_gpu
        path, n = os.path.join(args.out_dir, f"devbench-{name}{reading}.json"), 2
        while os.path.exists(path):  # a part run again into the folder keeps the earlier readings
            path, n = os.path.join(args.out_dir, f"devbench-{name}{reading}.{n}.json"), n + 1
        with open(path, "w") as f:
            json.dump(bench, f, indent=1)
            f.write("\n")
        print(f"devbench {name}: {bench.get('triad_bandwidth_gb_s', 'failed')} GB/s triad", flush=True)
    failed = 0
    for run in runs:
        if args.round is not None and run["round"] != args.round:
            continue
        result = run_one(exe, name, run, args.out_dir, gpu, machine_gpu)
        if result["status"] != "ok":
            failed += result["status"] == "failed"
            print(f"{run['name']}: {result['status'].upper()} ({result['sweep']['exit_status']})", flush=True)
            continue
        best = {i["id"]: i["best_su_per_s"] for i in result["implementations"] if not i.get("is_reference")}
        print(f"{run['name']}: " + ", ".join(f"{k} {v:.3e}" for k, v in best.items()) +
              ("" if run["checked"] else " (unchecked)"), flush=True)
    return 1 if failed else 0

