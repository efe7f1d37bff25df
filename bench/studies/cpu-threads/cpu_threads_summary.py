#!/usr/bin/env python3
"""The table of bench/studies/cpu-threads/cpu-threads.sh: each code's median SU/s at each thread count (sweeps and
single steps), its rate a thread, and the scaling (SU/s over threads x the one-thread SU/s); the triad
at each count. A run whose digest is not the first run's (every one gives the reference's bits) is left
out and named.

    python3 bench/studies/cpu-threads/cpu_threads_summary.py DIR
"""
import os
import re
import statistics
import sys

from awave_bench.runs import files as runfiles  # (PYTHONPATH=bench, as the study's script sets it)

RUN = re.compile(r"run-t(\d+)-s(\d+)-r(\d+)\.json$")


def runs(d):
    """{(code, steps a sweep, threads): [SU/s of each round]}, and the runs left out (no result, or a digest
    not the first run's: every code, plan and thread count gives the reference's bits)."""
    found, first, dropped = {}, None, []
    for path in sorted(runfiles.glob(d, "run-t*-s*-r*.json"), key=lambda p: int(RUN.search(p).group(3))):
        t, plan, r = (int(x) for x in RUN.search(path).groups())
        try:
            result = runfiles.load(path)
        except (OSError, ValueError):
            dropped.append(f"{os.path.basename(path)}: no result")
            continue
        for i in result.get("implementations", []):
            key = (i["id"], plan, t)
            digest = i.get("digest")
            first = first or digest
            if not digest or digest != first:
                dropped.append(f"{os.path.basename(path)} {i['id']}: digest {digest}, the first run's {first}")
                continue
            found.setdefault(key, []).append(i["best_su_per_s"])
    return found, dropped


def triads(d):
    out = {}
    for path in runfiles.glob(d, "triad-t*.json"):
        t = int(re.search(r"triad-t(\d+)\.json$", path).group(1))
        try:
            out[t] = runfiles.load(path).get("triad_bandwidth_gb_s")
        except (OSError, ValueError):
            out[t] = None
    return out


def table(d):
    found, dropped = runs(d)
    bw = triads(d)
    lines = ["| code | steps a sweep | threads | runs | SU/s (median) | a thread | scaling | triad GB/s |",
             "|---|---|---|---|---|---|---|---|"]
    for code, plan in sorted({(c, p) for c, p, _ in found}):
        counts = sorted(t for c, p, t in found if (c, p) == (code, plan))
        one = statistics.median(found[(code, plan, 1)]) if 1 in counts else None
        for t in counts:
            su = statistics.median(found[(code, plan, t)])
            scaling = f"{su / (t * one):.2f}" if one else "—"
            triad = f"{bw[t]:.0f}" if bw.get(t) else "—"
            lines.append(f"| {code} | {plan} | {t} | {len(found[(code, plan, t)])} | {su:.3e} | {su / t:.3e} | "
                         f"{scaling} | {triad} |")
    return lines + [f"- left out: {x}" for x in dropped]


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    print("\n".join(table(sys.argv[1])))
