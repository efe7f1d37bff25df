#!/usr/bin/env python3
"""A sweep study's summary (bench/device/sweep-variants.sh; the studies cuda-big-tiles and cuda-bulk-copy,
whose READMEs state the rule): per GPU, size and variant the median SU/s (best 12-step
chunk) over the rounds with its min-max, the ratio of medians to the product's sweep in the same
rounds, whether every round was bitwise, and the README's rule for this GPU; then, where the script
counted them, issue slots a site update (bench/sweep_count_summary.py's reading of Nsight Compute's
source page) and DRAM / SM throughput (% of peak).

  sweep_variants_summary.py OUT_DIR          prints Markdown
  sweep_variants_summary.py --best OUT_DIR   prints the fastest bitwise variant at 512^3 (the script counts it)
"""
import csv
import json
import os
import statistics
import sys

from ..runs.sass import read as read_sass  # (one reading of the source page)

RATIO = 1.15  # the studies' rule (their READMEs): on the H200 at 512^3 and 1000^3
RULE_SIZES = (512, 1000)


def rows(folder):
    path = os.path.join(folder, "timing.jsonl")
    out = []
    if os.path.exists(path):
        for line in open(path):
            line = line.strip()
            if line.startswith("{"):
                out.append(json.loads(line))
    return out


def table(data):
    """{(gpu, n, variant): stats} from the timing lines."""
    groups = {}
    for r in data:
        groups.setdefault((r["gpu"], r["n"], r["variant"]), []).append(r)
    stats = {}
    for key, rs in groups.items():
        su = [r["su_per_s"] for r in rs]
        stats[key] = {"median": statistics.median(su), "min": min(su), "max": max(su), "rounds": len(rs),
                      "bitwise": all(r["bitwise"] for r in rs), "row": rs[0]}
    for (gpu, n, variant), s in stats.items():
        product = stats.get((gpu, n, "product"))
        s["ratio"] = s["median"] / product["median"] if product else float("nan")
        # not slower: the median at or above the product's slowest round (a tie within its spread)
        s["not_slower"] = bool(product) and s["median"] >= product["min"]
    return stats


def verdicts(stats):
    """{(gpu, variant): (holds, why)} for the rule's part on this GPU."""
    out = {}
    for gpu in sorted({k[0] for k in stats}):
        h200 = "H200" in gpu
        for variant in sorted({k[2] for k in stats if k[0] == gpu and k[2] != "product"}):
            cells = [stats.get((gpu, n, variant)) for n in RULE_SIZES]
            if any(c is None for c in cells):
                out[(gpu, variant)] = (False, "not run at both 512^3 and 1000^3")
            elif not all(c["bitwise"] for c in cells):
                out[(gpu, variant)] = (False, "not bitwise")
            elif h200:
                ok = all(c["ratio"] >= RATIO for c in cells)
                out[(gpu, variant)] = (ok, f">= {RATIO} x at both sizes" if ok else f"under {RATIO} x")
            else:
                ok = all(c["not_slower"] for c in cells)
                out[(gpu, variant)] = (ok, "not slower at both sizes" if ok else "slower")
    return out


def best(stats, n=512):
    candidates = [(s["ratio"], k[2]) for k, s in stats.items() if k[1] == n and k[2] != "product" and s["bitwise"]]
    return max(candidates)[1] if candidates else ""


def counts(folder, stats):
    lines = []
    for name in sorted(f[len("count-"):-len("-sass.csv")] for f in os.listdir(folder) if f.endswith("-sass.csv")):
        steps = 3
        for k, s in stats.items():
            if k[2] == name and k[2] != "product":
                steps = s["row"].get("steps_per_sweep", 3)
        try:
            _, kinds = read_sass(os.path.join(folder, f"count-{name}-sass.csv"))
        except (ValueError, IndexError, OSError) as e:
            lines.append(f"| {name} | unreadable source page ({e}) | | |")
            continue
        slots = 32 * sum(v[0] for v in kinds.values()) / (steps * 512.0 ** 3)
        raw = {}
        raw_path = os.path.join(folder, f"count-{name}-raw.csv")
        if os.path.exists(raw_path):
            with open(raw_path, newline="") as f:
                r = [row for row in csv.reader(f)]
            if len(r) >= 3:
                raw = dict(zip(r[0], r[2]))
        dram = raw.get("dram__throughput.avg.pct_of_peak_sustained_elapsed", "?")
        sm = raw.get("sm__throughput.avg.pct_of_peak_sustained_elapsed", "?")
        lines.append(f"| {name} | {slots:.1f} | {dram} | {sm} |")
    if not lines:
        return []
    return ["", "Nsight Compute at 512^3, one sweep (sweep-variants.sh):", "",
            "| kernel | issue slots a site update | DRAM % of peak | SM % of peak |", "|---|---:|---:|---:|"] + lines


def main(argv):
    args = argv
    if not args or args[0] in ("-h", "--help"):
        sys.exit(__doc__)
    if args[0] == "--best":
        if len(args) < 2:
            sys.exit(__doc__)
        print(best(table(rows(args[1]))))
        return 0
    folder = args[0]
    stats = table(rows(folder))
    if not stats:
        sys.exit(f"sweep_variants_summary.py: no timing lines in {folder}/timing.jsonl")
    print("| GPU | N | variant | rounds | median SU/s | min-max | x product | bitwise | registers | spill B | shared B | blocks an SM |")
    print("|---|---:|---|---:|---:|---|---:|---|---:|---:|---:|---:|")
    for (gpu, n, variant), s in sorted(stats.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2] != "product", kv[0][2])):
        r = s["row"]
        known = r.get("registers", -1) != -1  # (-1: a library's kernel, its numbers not known to the program)
        cells = [r.get(k, "-") if known else "-" for k in ("registers", "spill_bytes")]
        print(f"| {gpu} | {n} | {variant} | {s['rounds']} | {s['median']:.3e} | {s['min']:.3e}-{s['max']:.3e} | "
              f"{s['ratio']:.3f} | {'yes' if s['bitwise'] else 'NO'} | {cells[0]} | "
              f"{cells[1]} | {r.get('shared_bytes', '-')} | {r.get('blocks_an_sm', '-') if known else '-'} |")
    print()
    print("The rule on this GPU (README: H200 >= 1.15 x at 512^3 and 1000^3; H100 not slower; bitwise always):")
    for (gpu, variant), (ok, why) in sorted(verdicts(stats).items()):
        print(f"- {gpu}, {variant}: {'holds' if ok else 'fails'} ({why})")
    print("\n".join(counts(folder, stats)))
    return 0
