"""Section 3: bitwise results and what floating-point contraction costs."""
import os
import statistics

from ..catalog.paths import BENCH as HERE
from ..metrics.verdicts import ranges_tie
from ..runs import files as runfiles
from ..runs.record import load_runs, with_results
from .markdown import table_head


def outcome(i):
    """One implementation's long run against the reference, in a cell."""
    rel = i.get("max_relative_difference")
    said = "bitwise" if i.get("bitwise") else (f"**not bitwise**: {i.get('bitwise_differences', '?')} points, largest "
                                               f"relative difference {'-' if not rel else f'{rel:.2g}'}")
    return said + "; " + ("PASS" if i.get("differences", 1) == 0 else f"**FAIL** ({i['differences']})")


def bitwise_section(w, number, runs, costs):
    """Section NUMBER: the bitwise promise on long runs (runs), and what exact floating point costs (costs)."""
    present = with_results(runs)
    costs = with_results(costs)
    if not present and not costs:
        return
    w(f"## {number}. Bitwise: the reference's bits on every GPU, any run length\n")
    w("Every implementation computes the reference's operations in the reference's order; the builds "
      "forbid floating-point contraction (FMA) on every compiler (`cmake/AwaveExactFP.cmake`: nvcc and "
      "nvcc_wrapper `--fmad=false`, gcc and clang `-ffp-contract=off`, fast-math flags refused at "
      "configure). The `-contract` builds (`-DAWAVE_EXACT_FP=OFF`, the compilers' defaults) show what "
      "that prevents. Runs by `bench/device/bitwise-checks.sh`, every GPU implementation against the "
      "threaded CPU reference; implementations of one outcome share a row.\n")
    for d in present:
        runs = load_runs(d, "long_")
        gpu = next((r["build"]["accelerator"] for r in runs.values()), "?")
        cells = {}  # (run, build, implementation) -> {exact FP: outcome}
        for name, r in runs.items():
            run = f"{'x'.join(str(x) for x in r['params']['shape'])} x {r['params']['nsteps']} steps" + \
                (" (three-kernel step)" if "three-kernel" in name else "")
            for i in r["implementations"]:
                if i.get("checked"):
                    cells.setdefault((run, r["build"]["name"], i["id"]), {})[bool(r["build"].get("exact_fp"))] = outcome(i)
        rows = {}
        for (run, build, impl), v in cells.items():
            rows.setdefault((run, build, v.get(True, "—"), v.get(False, "—")), []).append(impl)
        w(f"### {gpu} (`{os.path.relpath(d, HERE)}`)\n")
        table_head(w, ["run", "build", "implementations", "exact FP: bitwise; spec's check", "contracting"])
        for (run, build, exact, contract), impls in rows.items():
            w(f"| {run} | {build} | {', '.join(impls)} | {exact} | {contract} |")
        w("")
        summary = os.path.join(d, "summary.txt")
        if runfiles.exists(summary):
            w("\n".join(f"- {line.strip()}" for line in runfiles.lines(summary) if line.startswith(("ctest", "kill")))
              + "\n")
    if costs:
        fp_cost(w, costs)


def fp_cost(w, costs):
    """Each GPU's exact build over its contracting one, implementation by implementation, size by size."""
    table, sizes = {}, set()  # (GPU, impl) -> {n: {exact FP: [each round's median SU/s]}}
    for d in costs:
        runs = load_runs(d, "cost_")
        # a folder is one machine: its GPU as its first run names it (the offload builds name no GPU)
        gpu = next((r["build"]["accelerator"].split(",")[0] for r in runs.values()), "?")
        for r in runs.values():
            n = r["params"]["shape"][0]
            sizes.add(n)
            for i in r["implementations"]:
                table.setdefault((gpu, i["id"]), {}).setdefault(n, {True: [], False: []})[
                    bool(r["build"].get("exact_fp"))].append(i["median_su_per_s"])
    w("### What exact floating point costs\n")
    w("Each exact build's median SU/s over the contracting build's, each over its rounds (each run the median of its "
      "chunks; rounds interleaved, exact, contracting, exact, ...; `bench/device/fp-cost.sh`, "
      + ", ".join(f"`{os.path.relpath(d, HERE)}`" for d in costs) + "): > 1, the exact build is faster; a tie where "
      "the rounds' ranges overlap.\n")
    table_head(w, ["GPU", "implementation", *(f"{n}^3" for n in sorted(sizes))])
    for (gpu, impl), by_n in sorted(table.items()):
        cells = []
        for n in sorted(sizes):
            exact, contract = by_n.get(n, {}).get(True), by_n.get(n, {}).get(False)
            if not exact or not contract:
                cells.append("—")
                continue
            cells.append(f"{statistics.median(exact) / statistics.median(contract):.3f}"
                         + (" tie" if ranges_tie(exact, contract) else ""))
        w(f"| {gpu} | {impl} | " + " | ".join(cells) + " |")
    w("")
