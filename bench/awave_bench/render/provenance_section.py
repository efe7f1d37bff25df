"""The last section: where every number of the first page comes from."""
import os

from ..catalog.paths import BENCH as HERE
from ..runs.record import kokkos_release
from .markdown import table_head


def provenance_section(w, study_runs, loc, divergence):
    w("## Provenance\n")
    w("Every number above is read from committed result files; `python3 bench/report.py` regenerates this "
      "report from them, byte for byte. The first page's runs, one row a folder, machine, commit and compiler; "
      "each build with its Kokkos and its runs' labels (default: the build as it is):\n")
    rows = {}  # (folder, hardware, commit, compiler) -> {(build, Kokkos): {labels}}
    for (h, build, label, s), firsts in sorted(study_runs.items()):
        for r, d in firsts:
            b = r.get("build") or {}
            none = f"— ({r.get('status')}: awave wrote no result)" if r.get("status") != "ok" else "?"
            key = (os.path.relpath(d, os.path.dirname(HERE)), h, b.get("git_commit", none), b.get("compiler", "—"))
            rows.setdefault(key, {}).setdefault((build, kokkos_release(b.get("kokkos_version", "—"))), set()).add(
                label or "default")
    table_head(w, ["results", "hardware", "commit", "compiler", "builds (Kokkos: labels)"])
    for (d, h, commit, cc), builds in sorted(rows.items()):
        w(f"| `{d}` | {h} | `{commit}` | {cc} | "
          + "; ".join(f"{build} ({kv}: {', '.join(sorted(labels))})" for (build, kv), labels in sorted(builds.items()))
          + " |")
    w("")
    if loc:
        w(f"Lines of code: `bench/count_loc.py` at `{loc.get('git_commit', '?')}`. "
          + (f"Code divergence: `bench/code_divergence.py` at `{divergence.get('git_commit', '?')}` over "
             + ", ".join(f"{p} (`{b}`)" for p, b in divergence.get("builds", {}).items()) + "." if divergence else ""))
        w("")
