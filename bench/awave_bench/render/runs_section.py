"""The section any experiment gets without code of its own (a registry entry whose section is "runs"): for each of
its folders, every awave run file's code and size, as the median of the runs' best-chunk rates with their range and
count, and whether the checked ones matched their reference."""
import os
import statistics

from ..catalog.paths import BENCH as HERE
from ..runs import files as runfiles
from ..runs.record import validate_run
from ..runs.study import points
from .markdown import fmt_su, table_head


def runs_section(w, number, name, folders):
    """Section NUMBER, NAME: one table a folder of awave run files (awave-run/1); a file in another format is left
    out and counted."""
    w(f"## {number}. {name}\n")
    for d in folders:
        cells, other = {}, 0
        for path in runfiles.walk(d, "*.json"):
            try:
                run = runfiles.load(path)
            except (OSError, ValueError):
                other += 1
                continue
            if not isinstance(run, dict) or validate_run(run):
                other += 1
                continue
            size = "x".join(str(n) for n in run["params"]["shape"])
            for impl in run["implementations"]:
                cell = cells.setdefault((size, impl["id"]), {"su": [], "checked": 0, "differ": 0})
                cell["su"].append(impl["best_su_per_s"])
                if impl.get("checked"):
                    cell["checked"] += 1
                    cell["differ"] += impl.get("differences", 0) != 0
        w(f"`{os.path.relpath(d, HERE)}`: the median of each run's best chunk (site updates/s), in brackets the "
          "range (min-max) of the runs: a spread, not an interval"
          + (f"; {other} file(s) not awave run records left out" if other else "") + ".\n")
        if not cells:
            w("No awave run records.\n")
            continue
        table_head(w, ["size", "code", "median SU/s", "range", "runs", "checked runs matching"])
        for (size, impl), c in sorted(cells.items(), key=lambda kv: (points(kv[0][0]), kv[0][1])):
            w(f"| {size} | {impl} | {fmt_su(statistics.median(c['su']))} | [{fmt_su(min(c['su']))}, "
              f"{fmt_su(max(c['su']))}] | {len(c['su'])} | "
              f"{c['checked'] - c['differ']} of {c['checked']} |")
        w("")

