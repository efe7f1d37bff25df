"""Joules a site update on the GPUs (issue 58 item 6), from bench/device/energy.sh's runs: the report's
section 5, and a study's own report (bench/study.sh runs energy.sh into STUDY/energy-PRESET)."""
import os

from ..catalog.paths import BENCH as HERE
from ..runs import files as runfiles
from ..runs.energy import energy_rows, median_of
from ..runs.record import with_results
from .markdown import fmt_su, table_head


def energy_section(w, number, runs, note=""):
    """Section NUMBER: each GPU's table (size, code, plan) and, per size, what the sweep saves and
    what Kokkos costs; note: what changed in a measured code since its runs (a line)."""
    present = with_results(runs)
    if not present:
        return
    w(f"## {number}. Energy a site update on the GPUs\n")
    w("What a computing centre pays: the board's energy over the timed chunks (NVML's total-energy counter "
      "read around each chunk, `src/app/gpu_energy.hpp`), over the site updates they made. Runs of "
      "`bench/device/energy.sh`: each code long enough for 2-8 s of chunks (the counter is coarse), "
      "sweeps and single steps in interleaved rounds, one process a size and plan. Spread: min-max of the "
      "runs (one or two rounds: not an interval). Power is the chunks' mean, with the board's 700 W limit.\n")
    if note:
        w(note + "\n")
    for d in present:
        rows = energy_rows(d)
        build = runfiles.load(runfiles.glob(d, "energy-*.json")[0])["build"]
        w(f"### {build.get('accelerator', '?')}, `{build.get('name', '?')}` build of {build.get('git_commit', '?')} "
          f"(`{os.path.relpath(d, HERE)}`)\n")
        table_head(w, ["size", "code", "plan", "J a site update: median (min-max)", "runs", "W", "SU/s"])
        for (n, code, plan), v in sorted(rows.items()):
            j = [x[0] for x in v]
            w(f"| {n}^3 | {code} | {'sweep of 3' if plan == 3 else 'single steps'} | {median_of(v):.2e} "
              f"({min(j):.2e}-{max(j):.2e}) | {len(v)} | {median_of(v, 1):.0f} | {fmt_su(median_of(v, 2))} |")
        w("")
        sweep_saves, kokkos_costs = {}, {}  # size -> what the sweep saves hand CUDA, what Kokkos costs
        for n in sorted({k[0] for k in rows}):
            def best(code):  # the code's lowest median energy over its plans
                mine = [median_of(v) for (m, c, plan), v in rows.items() if m == n and c == code]
                return min(mine) if mine else None
            hand_single, hand_sweep = rows.get((n, "cuda", 1)), rows.get((n, "cuda", 3))
            if hand_single and hand_sweep:
                sweep_saves[n] = f"{median_of(hand_sweep) / median_of(hand_single):.2f}"
            if best("cuda") and best("kokkos-cuda"):
                kokkos_costs[n] = f"{best('kokkos-cuda') / best('cuda'):.2f}"
        sizes = sorted(set(sweep_saves) | set(kokkos_costs))
        said = [f"{text} {' / '.join(v.get(n, '—') for n in sizes)}{unit}" for text, v, unit in (
            ("hand CUDA's sweep takes", sweep_saves, " of its single steps' energy a site update"),
            ("Kokkos-CUDA at its best", kokkos_costs, " x hand CUDA's best")) if v]
        if said:
            w(f"At {' / '.join(f'{n}^3' for n in sizes)}: " + ", ".join(said) + ".\n")
