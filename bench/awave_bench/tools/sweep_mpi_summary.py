#!/usr/bin/env python3
"""The table of bench/device/sweep-mpi.sh (issue 46): each configuration's rate per implementation,
the median over rounds of each run's median chunk (the first chunk, with its warm-up, left out),
with the rounds' range; the scaling efficiencies against one GPU; where a run's time went.

    python3 bench/sweep_mpi_summary.py OUT_DIR
"""
import os
import re
import statistics

from ..runs import files as runfiles

# Strong: two GPUs at 1024^3 against one at 1024^3; weak: two at 1024x512x512 against one at 512^3.
EFFICIENCY = {**dict.fromkeys(("strong-sweep", "strong-single", "strong-sweep-mpi", "strong-sweep-serial"), "one-1024"),
              **dict.fromkeys(("weak-sweep", "weak-sweep-serial"), "one-512")}


def run_rates(doc):
    """{implementation: (median chunk SU/s without the first chunk, plan words, time split, processes)}."""
    p = doc["params"]["shape"]
    points = p[0] * p[1] * p[2]
    out = {}
    for r in doc["implementations"]:
        rates = [n * points / s for n, s in zip(r["chunk_steps"][1:], r["chunk_seconds"][1:])]
        plan = f"{r.get('steps_per_sweep', 1)} a sweep"
        if r.get("recomputed_halo"):
            plan += f", halo {r['recomputed_halo']}"
        mpi = r.get("mpi") or {}
        split = ""
        if mpi:  # the chunks after the first (which holds NCCL's and MPI's warm-up); each [copy, mpi, step]
            copy, wait, step = (sum(c[k] for c in mpi["chunks"][1:]) for k in ("halo_copy_seconds", "mpi_seconds", "step_seconds"))
            split = f"exchange {100 * (copy + wait) / (copy + wait + step):.1f}% ({mpi['halo']})"
        out[r["id"]] = (statistics.median(rates), plan, split, mpi.get("processes", 1))
    return out


def build_line(build):
    return (f"{build['name']} at {build['git_commit']}, {build['compiler']}, Kokkos {build['kokkos_version']}, "
            f"{build['accelerator']}")


def collect(folder):
    """{config: {implementation: [(rate, plan, split) per round]}}, and {build: [its configurations]} (a folder
    may hold two builds' runs, e.g. an A/B with one build's one-GPU bases)."""
    runs, builds = {}, {}
    for path in runfiles.glob(folder, "*_r*.json"):
        m = re.fullmatch(r"(.+)_r(\d+)\.json", os.path.basename(path))
        doc = runfiles.load(path)
        configs = builds.setdefault(build_line(doc["build"]), [])
        if m.group(1) not in configs:
            configs.append(m.group(1))
        for impl, value in run_rates(doc).items():
            runs.setdefault(m.group(1), {}).setdefault(impl, []).append(value)
    return runs, builds


def table(runs, builds):
    lines = []
    if len(builds) == 1:
        lines += [f"Build {next(iter(builds))}.", ""]
    elif builds:
        lines += ["Builds: " + "; ".join(f"{b} ({', '.join(sorted(c))})" for b, c in builds.items()) + ".", ""]
    lines.append("| configuration | implementation | plan | median SU/s (rounds' range) | of one GPU x GPUs | where the time went |")
    lines.append("|---|---|---|---|---|---|")
    for config in sorted(runs):
        for impl in sorted(runs[config]):
            values = runs[config][impl]
            rates = [v[0] for v in values]
            med = statistics.median(rates)
            eff = ""
            base = EFFICIENCY.get(config)
            if base in runs and impl in runs[base]:
                gpus = values[0][3]
                eff = f"{med / (gpus * statistics.median(v[0] for v in runs[base][impl])):.3f} ({gpus})"
            lines.append(f"| {config} | {impl} | {values[0][1]} | {med:.3e} ({min(rates):.3e}-{max(rates):.3e}, "
                         f"{len(rates)} rounds) | {eff} | {values[0][2]} |")
    return "\n".join(lines)


def main(argv):
    """bench/sweep_mpi_summary.py DIR"""
    print(table(*collect(argv[0])))
    return 0
