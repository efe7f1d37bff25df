#!/usr/bin/env python3
"""The CPU noise study's summary (README.md beside this: the question and the rule). For each plan and code:
the median of the runs' best chunks, their spread over the rounds (max / min), the spread of the chunks inside a
run (the median over runs of max / min), how the best chunk follows the triad read just before the run
(Pearson r over the rounds), and the spread of the two codes' ratio within a run; then the rule's verdict.

    python3 bench/studies/cpu-noise/summary.py OUT_DIR
"""
import os
import re
import statistics
import sys

from awave_bench.runs import files as runfiles  # (PYTHONPATH=bench, as the study's script sets it)

PLANS = ("study", "long", "close", "single")
CODES = ("cpu-openmp", "kokkos-openmp")
SETTLED = 1.10  # the rule: a plan whose runs spread at most this much (both codes) can carry a verdict
FOLLOWS = 0.7   # the rule: |r| at least this, the runs follow the machine's bandwidth


def pearson(xs, ys):
    if len(xs) < 3 or statistics.pstdev(xs) == 0 or statistics.pstdev(ys) == 0:
        return None
    mx, my = statistics.mean(xs), statistics.mean(ys)
    cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / len(xs)
    return cov / (statistics.pstdev(xs) * statistics.pstdev(ys))


def load(out):
    """{plan: {round: {code: (best SU/s, [chunk rates])}}} and {round: triad GB/s read before it}."""
    runs, triads = {}, {}
    for path in runfiles.glob(out, "*-r*.json"):
        name = os.path.basename(path)
        m = re.match(r"(\w+)-r(\d+)(\.end)?\.json$", name)
        if not m:
            continue
        plan, rnd = m.group(1), int(m.group(2))
        try:
            data = runfiles.load(path)
        except (OSError, ValueError):
            continue  # a run that wrote no JSON: its .txt says why
        if plan == "triad":
            if not m.group(3) and data.get("triad_bandwidth_gb_s"):
                triads[rnd] = data["triad_bandwidth_gb_s"]
            continue
        for impl in data.get("implementations", []):
            rates = [s / t for s, t in zip(impl.get("chunk_steps", []), impl.get("chunk_seconds", [])) if t > 0]
            runs.setdefault(plan, {}).setdefault(rnd, {})[impl["id"]] = (impl["best_su_per_s"], rates)
    return runs, triads


def summarise(runs, triads):
    """[(plan, code, runs, median, spread over runs, chunk spread in a run, r with the triad)], and per plan the
    spread of cpu-openmp / kokkos-openmp within a run."""
    rows, ratio_spread = [], {}
    for plan in PLANS:
        rounds = runs.get(plan, {})
        for code in CODES:
            got = [(rnd, v[code]) for rnd, v in sorted(rounds.items()) if code in v]
            if not got:
                continue
            best = [b for _, (b, _) in got]
            inside = [max(c) / min(c) for _, (_, c) in got if len(c) > 1]
            paired = [(triads[rnd], b) for rnd, (b, _) in got if rnd in triads]
            r = pearson([t for t, _ in paired], [b for _, b in paired])
            rows.append((plan, code, len(best), statistics.median(best), max(best) / min(best),
                         statistics.median(inside) if inside else None, r))
        ratios = [v[CODES[0]][0] / v[CODES[1]][0] for v in rounds.values() if all(c in v for c in CODES)]
        if len(ratios) > 1:
            ratio_spread[plan] = max(ratios) / min(ratios)
    return rows, ratio_spread


def verdict(rows, triads):
    """The rule's outcome, in a sentence."""
    spread = {(p, c): s for p, c, _, _, s, _, _ in rows}
    follows = [abs(r) for p, c, _, _, _, _, r in rows if p == "long" and r is not None]
    long_ok = all(spread.get(("long", c), 99) <= SETTLED for c in CODES)
    if long_ok:
        return (f"PASS: 8 chunks a run settle the CPU cells (spread <= {SETTLED} for both codes): the study's CPU runs "
                "take 8 chunks")
    triad = f"the triad itself moved {max(triads.values()) / min(triads.values()):.2f} x" if len(triads) > 1 else ""
    if follows and min(follows) >= FOLLOWS:
        return (f"NOISE-BOUND: 8 chunks do not settle the runs, which follow the triad read beside them "
                f"(|r| >= {FOLLOWS}; {triad}): the machine's memory bandwidth moves under the runs; CPU cells "
                "rank nothing inside that spread")
    return (f"NOISE-BOUND, cause not found: 8 chunks do not settle the runs and they do not follow the triad "
            f"(|r| < {FOLLOWS}; {triad}); CPU cells rank nothing inside that spread")


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    runs, triads = load(argv[0])
    rows, ratio_spread = summarise(runs, triads)
    if not rows:
        print(f"cpu-noise: no runs in {argv[0]}")
        return 1
    print("| plan | code | runs | median SU/s | spread over runs | chunk spread in a run | r with the triad |")
    print("|---|---|---|---|---|---|---|")
    for plan, code, n, median, spread, inside, r in rows:
        print(f"| {plan} | {code} | {n} | {median:.3g} | {spread:.2f} | "
              f"{'—' if inside is None else f'{inside:.2f}'} | {'—' if r is None else f'{r:+.2f}'} |")
    print()
    print("cpu-openmp / kokkos-openmp within a run, spread over runs: "
          + ", ".join(f"{plan} {s:.2f}" for plan, s in ratio_spread.items()))
    if triads:
        print(f"triad before each round: {min(triads.values()):.1f}-{max(triads.values()):.1f} GB/s over "
              f"{len(triads)} rounds")
    print(verdict(rows, triads))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
