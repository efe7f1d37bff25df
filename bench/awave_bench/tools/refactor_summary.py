#!/usr/bin/env python3
"""refactor-check.sh's timing runs: for each implementation and size, the median over rounds of its best-chunk
SU/s in the build and in the baseline (`<preset>-base`), their min-max, and their ratio.

    refactor_summary.py OUT_DIR
"""
import os
import re
import statistics

from ..runs import files as runfiles


def main(argv):
    out = argv[0]
    rates = {}  # (impl, size, baseline?) -> [SU/s per round]
    for path in runfiles.glob(out, "time-*.json"):
        m = re.match(r"time-(.+?)(-base)?-(\d+)-r\d+\.json$", os.path.basename(path))
        if not m:
            continue
        r = runfiles.load(path)
        for impl in r["implementations"]:
            if impl.get("is_reference"):
                continue
            rates.setdefault((impl["id"], int(m.group(3)), bool(m.group(2))), []).append(impl["best_su_per_s"])
    print("| implementation | size | this build (median, min-max) | baseline (median, min-max) | ratio |")
    print("|---|---|---|---|---|")
    worst = None
    for (impl, size, base) in sorted(k for k in rates if not k[2]):
        new, old = rates[(impl, size, False)], rates.get((impl, size, True), [])
        if not old:
            print(f"| {impl} | {size}^3 | {statistics.median(new):.4g} | — | — |")
            continue
        ratio = statistics.median(new) / statistics.median(old)
        worst = ratio if worst is None else min(worst, ratio)
        print(f"| {impl} | {size}^3 | {statistics.median(new):.4g} ({min(new):.4g}-{max(new):.4g}, {len(new)} runs) | "
              f"{statistics.median(old):.4g} ({min(old):.4g}-{max(old):.4g}, {len(old)} runs) | {ratio:.3f} |")
    print(f"lowest ratio: {worst:.3f}" if worst is not None else "no baseline runs")
    return 0 if worst is not None else 1

