#!/usr/bin/env python3
"""The table of a folder of rounds (build-ab.sh, offload-sweep.sh, ../studies/cpu-sweep): for each size, code and plan,
the median over the rounds (files ending -rN.json) of each run's best chunk, its range, its fraction of the
single-step limit where the folder has triad.json (24 B a site), and the sweep over the single steps. Every
file's bits are held: a checked run bitwise, an unchecked one carrying a reference run's digest at its size
and steps. Exit 1 where a run's bits are not the reference's, or where no run is timed.
    sweep_study_summary.py OUT_DIR
    sweep_study_summary.py --ratios OUT_DIR A B [C ...]    (build-ab.sh: each later folder over A's)"""
import os
import re
import statistics

from ..runs import files as runfiles


def plan_label(impl, tuning):
    sweeps = impl["steps_per_sweep"] > 1
    extra = ",".join(f"{k}={v['value']}" for k, v in sorted(tuning.items())
                     if k != "steps_per_sweep" and (sweeps or not k.startswith("cache_sweep.")))
    return ("sweep" if sweeps else "single") + (f" {extra}" if extra else "")


def collect(out):
    """The folder's timing rates {(points, size, implementation, plan): [best chunk of each run]}, the
    single-step limit (None without triad.json), the lines naming runs whose bits are not the
    reference's, and the number of runs."""
    runs = {os.path.basename(p)[:-5]: runfiles.load(p) for p in runfiles.glob(out, "*.json")
            if os.path.basename(p) != "triad.json"}
    reference = {}  # (shape, steps) -> digests of reference runs
    for run in runs.values():
        key = (tuple(run["params"]["shape"]), run["params"]["nsteps"])
        for impl in run["implementations"]:
            if impl.get("is_reference") and impl.get("digest"):
                reference.setdefault(key, set()).add(impl["digest"])
    bad, rates = [], {}
    for name, run in runs.items():
        shape, steps = tuple(run["params"]["shape"]), run["params"]["nsteps"]
        for impl in run["implementations"]:
            if impl.get("is_reference"):
                pass
            elif impl.get("checked"):
                if not impl.get("bitwise"):
                    bad.append(f"{name}: {impl['id']} not bitwise")
            elif impl.get("digest") not in reference.get((shape, steps), set()):
                bad.append(f"{name}: {impl['id']} digest {impl.get('digest')} is no reference run's "
                           f"({', '.join(sorted(reference.get((shape, steps), set()))) or 'none'})")
            if re.search(r"-r\d+$", name):
                size = "x".join(map(str, shape)) if len(set(shape)) > 1 else f"{shape[0]}^3"
                key = (shape[0] * shape[1] * shape[2], size, impl["id"], plan_label(impl, run.get("tuning", {})))
                rates.setdefault(key, []).append(impl["best_su_per_s"])
    limit = None
    if runfiles.exists(os.path.join(out, "triad.json")):
        limit = runfiles.load(os.path.join(out, "triad.json"))["triad_bandwidth_gb_s"] * 1e9 / 24.0
    return rates, limit, bad, len(runs)


def summary(out):
    rates, limit, bad, runs = collect(out)
    if limit:
        print(f"triad {limit * 24 / 1e9:.1f} GB/s: single-step limit {limit:.3e} SU/s (24 B a site)")
    print(f"{'size':>8} {'implementation':20} {'plan':28} {'runs':>4} {'median SU/s':>11} {'range':>21} "
          f"{'of limit':>8} {'x single':>8}")
    medians = {k: statistics.median(v) for k, v in rates.items()}
    for key in sorted(rates):
        points, size, impl, plan = key
        r = rates[key]
        single = medians.get((points, size, impl, "single"))
        of_limit = f"{medians[key] / limit:8.2f}" if limit else f"{'-':>8}"
        ratio = f"{medians[key] / single:8.3f}" if single and plan != "single" else f"{'-':>8}"
        print(f"{size:>8} {impl:20} {plan:28} {len(r):>4} {medians[key]:11.3e} {min(r):10.3e}-{max(r):.3e} "
              f"{of_limit} {ratio}")
    print(f"bits: {runs} runs, " + ("every one the reference's (checked, or by its digest)" if not bad
                                   else f"{len(bad)} NOT the reference's:"))
    for line in bad:
        print("  " + line)
    return 1 if bad or not rates else 0


def ratios(out, names):
    """Lines of each later folder's medians over the first's (build-ab.sh's builds). Runs are matched
    on size, implementation and plan (single or sweep), not on the tuning values a plan's label adds:
    a build may differ from A by its tuning alone (a wrapper setting an AWAVE_ variable)."""
    def keyed(folder):
        return {(k[0], k[1], k[2], k[3].split()[0]): (k[3], v) for k, v in collect(folder)[0].items()}
    a, lines = keyed(os.path.join(out, names[0])), []
    for name in names[1:]:
        b = keyed(os.path.join(out, name))
        for key in sorted(set(a) & set(b)):
            (_, ra), (plan, rb) = a[key], b[key]
            apart = max(ra) < min(rb) or max(rb) < min(ra)
            label = "B/A" if len(names) == 2 else f"{name}/{names[0]}"
            lines.append(f"{label} {key[1]:>7} {key[2]:14} {plan:8} {statistics.median(rb) / statistics.median(ra):.3f} "
                         f"({'ranges apart' if apart else 'ranges overlap: a tie'})")
    return lines


def main(argv):
    """The module's docstring says how to call it."""
    if argv[0] == "--ratios":
        lines = ratios(argv[1], [os.path.basename(b.rstrip("/")) for b in argv[2:]])
        print("\n".join(lines) if lines else "no size, implementation and plan in common with the first build")
        return 0 if lines else 1
    return summary(argv[0])
