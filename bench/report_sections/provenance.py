"""The last section: where every number of the first page comes from."""
import os

from .common import kokkos_release
from .inputs import HERE


def provenance_section(w, study_runs, loc, divergence):
    w("## Provenance\n")
    w("Every number above is read from committed result files; `python3 bench/report.py` regenerates this "
      "report from them, byte for byte. The first page's runs:\n")
    by_dir = {}
    for (h, build, label, s), (r, d) in sorted(study_runs.items()):
        b = r.get("build") or {}
        none = f"— ({r.get('status')}: awave wrote no result)" if r.get("status") != "ok" else "?"
        by_dir.setdefault(os.path.relpath(d, os.path.dirname(HERE)), set()).add(
            (h, build + (f" ({label})" if label else ""), b.get("git_commit", none),
             kokkos_release(b.get("kokkos_version", "—")), b.get("compiler", "—")))
    w("| results | hardware | build | commit | Kokkos | compiler |")
    w("|---|---|---|---|---|---|")
    for d, rows in sorted(by_dir.items()):
        for h, build, commit, kv, cc in sorted(rows):
            w(f"| `{d}` | {h} | {build} | `{commit}` | {kv} | {cc} |")
    w("")
    if loc:
        w(f"Lines of code: `bench/count_loc.py` at `{loc.get('git_commit', '?')}`. "
          + (f"Code divergence: `bench/code_divergence.py` at `{divergence.get('git_commit', '?')}` over "
             + ", ".join(f"{p} (`{b}`)" for p, b in divergence.get("builds", {}).items()) + "." if divergence else ""))
        w("")
