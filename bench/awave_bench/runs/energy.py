#!/usr/bin/env python3
"""Joules a site update from awave's -json files (app/gpu_energy.hpp; bench/device/energy.sh's runs).

    python3 bench/energy_summary.py DIR      the table of DIR's energy-*.json

A row a size, code and plan: the median over the runs of joules a site update with its min-max, the mean power
and SU/s, and the shortest window of chunks (NVML's counter is coarse: under 1 s is marked)."""
import os
import statistics
import sys

from . import files as runfiles


def energy_rows(d):
    """{(size, code, steps a sweep): [(J a site update, W, SU/s, seconds), ...]} of DIR's runs."""
    rows = {}
    for path in runfiles.glob(d, "energy-*.json"):
        run = runfiles.load(path)
        n = run["params"]["shape"][0]
        for i in run["implementations"]:
            e = i.get("energy")
            if e:
                rows.setdefault((n, i["id"], i["steps_per_sweep"]), []).append(
                    (e["joules_per_site_update"], e["joules"] / e["seconds"], i["median_su_per_s"], e["seconds"]))
    return rows


def median_of(runs, k=0):
    return statistics.median(r[k] for r in runs)


def table(rows):
    lines = [f"{'size':>6} {'code':24} {'plan':>4} {'runs':>4} {'J a site update: median (min-max)':>36} "
             f"{'W':>6} {'SU/s':>10} {'s':>5}"]
    for (n, code, plan), v in sorted(rows.items()):
        j = [x[0] for x in v]
        short = min(x[3] for x in v)
        lines.append(f"{n:>5}^3 {code:24} {plan:>4} {len(v):>4} {statistics.median(j):>12.3e} "
                     f"({min(j):.3e}-{max(j):.3e}) {median_of(v, 1):>6.0f} {median_of(v, 2):>10.3e} "
                     f"{short:>5.1f}{' (under 1 s)' if short < 1.0 else ''}")
    return lines


def main(argv):
    """bench/energy_summary.py DIR"""
    if len(argv) != 1 or not os.path.isdir(argv[0]):
        sys.exit("usage: energy_summary.py DIR")
    rows = energy_rows(argv[0])
    if not rows:
        sys.exit(f"energy_summary: no run with an energy in {argv[0]}")
    print("\n".join(table(rows)))
    return 0
