"""Section 15: bitwise results and what floating-point contraction costs."""
import os
import statistics

from .common import fmt_su, load_runs, runfiles, with_results
from .inputs import HERE


def bitwise_section(w, bitwise_dirs, cost_dirs):
    """Section 15: the bitwise promise on long runs, and what exact floating point costs."""
    present = with_results(bitwise_dirs)
    costs = with_results(cost_dirs)
    if not present and not costs:
        return
    w("## 3. Bitwise: the reference's bits on every GPU, any run length\n")
    w("Every implementation computes the reference's operations in the reference's order; the builds "
      "forbid floating-point contraction (FMA) on every compiler (`cmake/AwaveExactFP.cmake`: nvcc and "
      "nvcc_wrapper `--fmad=false`, gcc and clang `-ffp-contract=off`, fast-math flags refused at "
      "configure). The `-contract` builds (`-DAWAVE_EXACT_FP=OFF`, the compilers' defaults) show what "
      "that prevents. Runs by `bench/device/bitwise-checks.sh`, every GPU implementation against the "
      "threaded CPU reference.\n")
    for d in present:
        runs = load_runs(d, "long_")
        gpu = next((r["build"]["accelerator"] for r in runs.values()), "?")
        w(f"### {gpu} (`{os.path.relpath(d, HERE)}`)\n")
        w("| run | build | exact FP | implementation | bitwise | points differing | largest relative difference | spec's check |")
        w("|---|---|---|---|---|---|---|---|")
        for name, r in runs.items():
            sh = "x".join(str(x) for x in r["params"]["shape"])
            plan = " (three-kernel step)" if "three-kernel" in name else ""
            for i in r["implementations"]:
                if not i.get("checked"):
                    continue
                rel = i.get("max_relative_difference")
                w(f"| {sh} x {r['params']['nsteps']} steps{plan} | {r['build']['name']} | "
                  f"{'yes' if r['build'].get('exact_fp') else '**no**'} | {i['id']} | "
                  f"{'yes' if i.get('bitwise') else '**no**'} | {i.get('bitwise_differences', '?')} | "
                  f"{'-' if not rel else f'{rel:.2g}'} | "
                  f"{'PASS' if i.get('differences', 1) == 0 else '**FAIL** (' + str(i['differences']) + ')'} |")
        w("")
        summary = os.path.join(d, "summary.txt")
        if runfiles.exists(summary):
            lines = [line.strip() for line in runfiles.lines(summary) if line.startswith(("ctest", "kill"))]
            for line in lines:
                w(f"- {line}")
            w("")
    for d in costs:
        runs = load_runs(d, "cost_")
        gpu = next((r["build"]["accelerator"] for r in runs.values()), "?")
        w(f"### What exact floating point costs: {gpu} (`{os.path.relpath(d, HERE)}`)\n")
        w("Median SU/s of each run's chunks (50 steps in chunks of 10), rounds interleaved (exact, "
          "contracting, exact, ...); `bench/device/fp-cost.sh`. Ratio > 1: the exact build is faster.\n")
        table = {}  # (impl, n) -> {"exact": [...], "contract": [...]}
        for name, r in runs.items():
            n = r["params"]["shape"][0]
            kind = "exact" if r["build"].get("exact_fp") else "contract"
            for i in r["implementations"]:
                table.setdefault((i["id"], n), {"exact": [], "contract": []})[kind].append(i["median_su_per_s"])
        w("| implementation | size | exact (each round) | contracting (each round) | exact / contracting (medians) |")
        w("|---|---|---|---|---|")
        for (impl, n), v in sorted(table.items()):
            ratio = (statistics.median(v["exact"]) / statistics.median(v["contract"])
                     if v["exact"] and v["contract"] else None)
            w(f"| {impl} | {n}^3 | {', '.join(fmt_su(x) for x in v['exact'])} | "
              f"{', '.join(fmt_su(x) for x in v['contract'])} | {'-' if ratio is None else f'{ratio:.3f}'} |")
        w("")
