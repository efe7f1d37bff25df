"""Joules a site update on the GPUs (issue 58 item 6), from bench/device/energy.sh's runs: the report's
section 5, and a study's own report (bench/study.sh runs energy.sh into STUDY/energy-PRESET)."""
import os
import sys

from .common import fmt_su, runfiles, with_results
from .inputs import HERE

sys.path.insert(0, HERE)
from energy_summary import energy_rows, median_of  # noqa: E402


def energy_section(w, energy_dirs, number, note=""):
    """Section NUMBER: each GPU's table (size, code, plan) and, per size, what the sweep saves and
    what Kokkos costs; note: what changed in a measured code since its runs (a line)."""
    present = with_results(energy_dirs)
    if not present:
        return
    w(f"## {number}. Energy a site update on the GPUs\n")
    w("What a computing centre pays: the board's energy over the timed chunks (NVML's total-energy counter "
      "read around each chunk, `src/app/gpu_energy.hpp`), over the site updates they made. Runs of "
      "`bench/device/energy.sh`: each code long enough for 2-8 s of chunks (the counter is coarse), "
      "sweeps and single steps in interleaved rounds, one process a size and plan. Spread: min-max of the "
      "runs (two rounds: not an interval). Power is the chunks' mean, with the board's 700 W limit.\n")
    if note:
        w(note + "\n")
    for d in present:
        rows = energy_rows(d)
        build = runfiles.load(runfiles.glob(d, "energy-*.json")[0])["build"]
        w(f"### {build.get('accelerator', '?')}, `{build.get('name', '?')}` build of {build.get('git_commit', '?')} "
          f"(`{os.path.relpath(d, HERE)}`)\n")
        w("| size | code | plan | J a site update: median (min-max) | runs | W | SU/s |")
        w("|---|---|---|---|---|---|---|")
        for (n, code, plan), v in sorted(rows.items()):
            j = [x[0] for x in v]
            w(f"| {n}^3 | {code} | {'sweep of 3' if plan == 3 else 'single steps'} | {median_of(v):.2e} "
              f"({min(j):.2e}-{max(j):.2e}) | {len(v)} | {median_of(v, 1):.0f} | {fmt_su(median_of(v, 2))} |")
        w("")
        for n in sorted({k[0] for k in rows}):
            def best(code):  # the code's lowest median energy over its plans, and that plan
                mine = [(median_of(v), plan) for (m, c, plan), v in rows.items() if m == n and c == code]
                return min(mine) if mine else None
            hand_single, hand_sweep = rows.get((n, "cuda", 1)), rows.get((n, "cuda", 3))
            hand, kokkos = best("cuda"), best("kokkos-cuda")
            parts = []
            if hand_single and hand_sweep:
                parts.append(f"hand CUDA's sweep takes {median_of(hand_sweep) / median_of(hand_single):.2f} of its "
                             "single steps' energy a site update")
            if hand and kokkos:
                parts.append(f"Kokkos-CUDA at its best takes {kokkos[0] / hand[0]:.2f} x hand CUDA's best")
            if parts:
                w(f"- {n}^3: " + "; ".join(parts) + ".")
        w("")
