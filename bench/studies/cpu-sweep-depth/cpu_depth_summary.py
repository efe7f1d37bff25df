#!/usr/bin/env python3
"""The table of bench/studies/cpu-sweep-depth/cpu-depth.sh: at each size, each (steps a sweep, rows a tile) with its
runs' median SU/s and range, over the product's sweep (three steps, its default rows) in the same call;
then the decision rule stated in cpu-depth.sh. A run that is not bitwise (or a planted run that was
not caught) is named, and the exit status is 1.

    python3 bench/studies/cpu-sweep-depth/cpu_depth_summary.py DIR      (DIR/SIZE.jsonl: awave-cpu-depth's lines)
"""
import json
import os
import statistics
import sys

from awave_bench.runs import files as runfiles  # (PYTHONPATH=bench, as the study's script sets it)

RULE = 1.15  # cpu-depth.sh: a deeper sweep enters the product at >= 1.15 x the three-step sweep at both sizes
RULE_SIZES = ("512x512x512", "1000x1000x1000")


def load(d):
    """{size: {(steps, rows): [SU/s]}}, the product's rows at each size, and the faults (runs whose check
    went the wrong way)."""
    found, product_rows, faults = {}, {}, []
    for path in runfiles.glob(d, "*.jsonl"):
        for line in runfiles.lines(path):
            if not line.startswith("{"):
                continue
            r = json.loads(line)
            size = "x".join(map(str, r["shape"]))
            if r["planted"]:
                if r["bitwise"]:
                    faults.append(f"{size}: a planted ulp not caught")
                continue
            if not r["bitwise"]:
                faults.append(f"{size}: {r['depth']} steps, {r['rows']} rows: "
                              f"{r['differing_points']} points differ")
                continue
            found.setdefault(size, {}).setdefault((r["depth"], r["rows"]), []).append(r["su_per_s"])
            if r.get("default_rows"):
                product_rows[size] = r["rows"]
    return found, product_rows, faults


def summary(d):
    found, product_rows, faults = load(d)
    lines = ["| size | steps a sweep | rows | runs | SU/s median (min-max) | x the product's |",
             "|---|---|---|---|---|---|"]
    best = {}
    for size in sorted(found, key=lambda s: int(s.split("x")[0])):
        rows = product_rows.get(size)
        base = found[size].get((3, rows))
        base_median = statistics.median(base) if base else None
        for (steps, r), su in sorted(found[size].items()):
            m = statistics.median(su)
            ratio = m / base_median if base_median else None
            lines.append(f"| {size} | {steps} | {r}{' (default)' if r == rows else ''} | {len(su)} | "
                         f"{m:.3e} ({min(su):.3e}-{max(su):.3e}) | {'—' if ratio is None else f'{ratio:.2f}'} |")
            if steps != 3 and ratio is not None:
                best[size] = max(best.get(size, 0.0), ratio)
    missing = [s for s in RULE_SIZES if s not in best]
    verdict = (f"not decided ({', '.join(missing)} not measured)" if missing else
               "met" if all(best[s] >= RULE for s in RULE_SIZES) else "not met")
    lines += ["", f"Rule (>= {RULE} x the product's sweep at {' and '.join(RULE_SIZES)}): {verdict}"
              + (" (the best deeper sweep: " + ", ".join(f"{s} {best[s]:.2f} x" for s in RULE_SIZES if s in best) + ")"
                 if len(missing) < len(RULE_SIZES) else "") + "."]
    lines += [f"NOT BITWISE: {f}" for f in faults]
    return "\n".join(lines), not faults


def main(argv):
    if len(argv) != 1 or not os.path.isdir(argv[0]):
        print("usage: cpu_depth_summary.py DIR", file=sys.stderr)
        return 2
    text, ok = summary(argv[0])
    print(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
