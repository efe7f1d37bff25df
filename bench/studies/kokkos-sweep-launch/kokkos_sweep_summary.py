#!/usr/bin/env python3
"""The summary of bench/studies/kokkos-sweep-launch/kokkos-sweep.sh's product runs: for each build, size and
implementation the median over rounds of its best-chunk SU/s with the min-max of the rounds, and
Kokkos-CUDA's median over hand CUDA's of the same build (both ran in each round's one process).

    kokkos_sweep_summary.py OUT_DIR
"""
import os
import re
import statistics
import sys

from awave_bench.runs import files as runfiles  # (PYTHONPATH=bench, as the study's script sets it)


def main(argv):
    rates = {}  # (build, size, impl) -> [SU/s per round]
    meta = {}
    for path in runfiles.glob(argv[0], "time-*.json"):
        m = re.match(r"time-(.+)-(\d+)-r\d+\.json$", os.path.basename(path))
        if not m:
            continue
        r = runfiles.load(path)
        meta[m.group(1)] = r.get("build", {})
        for impl in r["implementations"]:
            rates.setdefault((m.group(1), int(m.group(2)), impl["id"]), []).append(impl["best_su_per_s"])
    if not rates:
        print("kokkos_sweep_summary: no time-*.json runs")
        return 1
    print("| build (Kokkos) | size | cuda: median (min-max, runs) | kokkos-cuda: median (min-max, runs) | kokkos / hand |")
    print("|---|---|---|---|---|")
    for build, size in sorted({(b, s) for b, s, _ in rates}):
        cells = []
        for impl in ("cuda", "kokkos-cuda"):
            v = rates.get((build, size, impl), [])
            cells.append(f"{statistics.median(v):.4g} ({min(v):.4g}-{max(v):.4g}, {len(v)})" if v else "—")
        hand, kokkos = rates.get((build, size, "cuda")), rates.get((build, size, "kokkos-cuda"))
        ratio = f"{statistics.median(kokkos) / statistics.median(hand):.3f}" if hand and kokkos else "—"
        version = meta[build].get("kokkos_version", "?")
        print(f"| {build} ({version}) | {size}^3 | {cells[0]} | {cells[1]} | {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
