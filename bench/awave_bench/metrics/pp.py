"""The metrics of the first page: efficiencies (architectural, against the triad; application, against the
platform's fastest code), Pennycook's PP and its range (PP of the cells' minima to PP of their maxima), the
tables of both questions, the subsets' leaders, lines and code convergence (bench/count_loc.py,
bench/code_divergence.py)."""
import itertools
import statistics

from ..runs.screen_cells import screen_apps, screen_samples
from ..runs.study import APPLICATION_PARTS, APPLICATIONS, QUESTIONS, platforms_of, su_samples


BYTES_PER_SITE = 24  # read now and prev once, write next once


def platform_best_su(runs, plats, shape):
    """{platform: the fastest cell (median SU/s) of any application in either algorithm, the builds against
    another Kokkos included}: the reference of (b)'s application efficiency."""
    best = {}
    for p in plats:
        medians = [statistics.median(su) for _, app, suffix in screen_apps(runs) for q in QUESTIONS
                   for su in [screen_samples(runs, p, app, suffix, shape, q)] if su and su != [0.0]]
        best[p] = max(medians) if medians else None
    return best


def architectural_efficiency(su, triad_gb_s):
    """(a)'s measure: SU/s x 24 B a site update over the triad (GB/s)."""
    return su * BYTES_PER_SITE / 1e9 / triad_gb_s


def efficiency_samples(runs, triads, platform, app, shape, question="single", best=None):
    """([efficiency of each run], note), as su_samples: (a) against the hardware's triad (24 B a
    site), (b) against the platform's fastest cell at that size (best: platform_best_su's)."""
    return as_efficiency(*su_samples(runs, platform, app, shape, question), triads, platform, question, best)


def as_efficiency(samples, note, triads, platform, question, best):
    """A cell's SU/s samples (and note) as efficiencies, efficiency_samples' measures."""
    if not samples or samples == [0.0]:
        return samples, note
    if question == "best":
        top = (best or {}).get(platform)
        return ([su / top for su in samples], note) if top else ([], "no fastest code")
    triad = triads.get(platform[0])
    if not triad:
        return [], "no triad"
    return [architectural_efficiency(su, triad[0]) for su in samples], note


def efficiency(runs, triads, platform, app, shape, question="single", best=None):
    """(the median efficiency over the cell's runs, or 0, or None; note): None where not measured; 0
    where unsupported, refused or wrong."""
    samples, note = efficiency_samples(runs, triads, platform, app, shape, question, best)
    return (statistics.median(samples) if samples else None), note


def triad_spread(samples, triads, platform, question):
    """A CPU cell of (a), its runs' efficiencies against the best triad, widened by the triad's own
    spread: the fastest run also against the lowest reading (a CPU's triad moved 35% within one
    call, issue 58), so the range holds both; GPU cells and (b) as they are."""
    readings = triads.get(platform[0], (0, "", []))[2]
    if question != "single" or platform[1] != "host" or len(readings) < 2 or not samples or samples == [0.0]:
        return samples
    return samples + [max(samples) * max(readings) / min(readings)]


def run_range(samples):
    """The range (min, max) of a cell's runs, or None for fewer than two. What it is: with the
    study's four or five runs a cell, a 95% percentile bootstrap of the median is this same range,
    and the range covers the true median only about 94% (5 runs) or 88% (4) of the time; the report
    says range, not interval."""
    return (min(samples), max(samples)) if len(samples) >= 2 else None


def pp_range(cells):
    """PP's range over cells (one list of run efficiencies a platform): PP of the cells' minima to PP
    of their maxima (PP rises with every cell, so no choice of one run a cell leaves it); (0, 0) where
    a cell is 0, None where a cell has fewer than two runs."""
    if any(c == [0.0] for c in cells):
        return 0.0, 0.0
    if not cells or any(len(c) < 2 for c in cells):
        return None
    return pennycook([min(c) for c in cells]), pennycook([max(c) for c in cells])


def cell_run_counts(runs, triads, plats, shapes):
    """The numbers of runs behind the first page's measured cells (both questions, the sizes shown;
    a code that does not run on a platform is a 0, not a run)."""
    counts = set()
    for s in shapes:
        best = platform_best_su(runs, plats, s)
        for question in QUESTIONS:
            for app in APPLICATIONS:
                for p in plats:
                    samples, _ = efficiency_samples(runs, triads, p, app, s, question, best)
                    if samples and samples != [0.0]:
                        counts.add(len(samples))
    return sorted(counts)


def pennycook(effs):
    if not effs or any(e is None or e <= 0 for e in effs):
        return 0.0
    return len(effs) / sum(1.0 / e for e in effs)


def effort_at_study_commit(data, study_commits, what):
    """The lines-of-code or divergence file where it was made at one of the study's commits (a clean tree),
    else None; and a sentence: why its numbers are left out (lines and runs of different code do not go
    together), or, for a study of several commits (a platform measured again after a change), at which one
    they were counted."""
    if not data:
        why = ("the builds' compilers were not on the study's machine (`bench/code_divergence.py`)"
               if what == "divergence" else "no lines-of-code file with the study")
        return None, f"No {what}: {why}."
    made = str(data.get("git_commit", "?"))
    commits = ", ".join(f"`{c}`" for c in study_commits)
    if not made.endswith("-dirty") and any(made[:12] == c[:12] for c in study_commits):
        return data, ("" if len(study_commits) == 1 else
                      f"{what.capitalize()} counted at `{made}`, one of the study's commits ({commits}); "
                      "the provenance section gives each run's.")
    return None, f"No {what}: counted at `{made}`, the study ran at {commits}."


def convergence(divergence):
    """{app: kernels' convergence}, {app: program's}, {app: "n/a: why"} (1 - divergence, Harrell)."""
    conv, program, na = {}, {}, {}
    for app, r in (divergence or {}).get("applications", {}).items():
        if r.get("why") or r["kernels"]["divergence"] is None:
            na[app] = r.get("why", "n/a")
        else:
            conv[app], program[app] = 1 - r["kernels"]["divergence"], 1 - r["program"]["divergence"]
    return conv, program, na


def application_lines(loc):
    if not loc or "parts" not in loc:
        return {}
    parts = loc["parts"]
    return {app: sum(parts[p]["lines"] for p in ps if p in parts) for app, ps in APPLICATION_PARTS.items()}


def table(runs, triads, shapes, question="single", best=None):
    """{app: {shape: {platform: (eff, note)}}} and {app: {shape: PP}} (None where a platform is
    not measured), for the question ("single" or "best"); best: {shape: platform_best_su}, made
    here where not given."""
    plats = platforms_of(runs)
    effs, pp = {}, {}
    best = best or {s: platform_best_su(runs, plats, s) for s in shapes}
    for app in APPLICATIONS:
        effs[app], pp[app] = {}, {}
        for s in shapes:
            row = {p: efficiency(runs, triads, p, app, s, question, best[s]) for p in plats}
            effs[app][s] = row
            values = [e for e, _ in row.values()]
            # 0 on one platform is PP 0 whatever the others (Pennycook), so an unmeasured cell leaves it known.
            pp[app][s] = 0.0 if 0 in values else None if any(v is None for v in values) else pennycook(values)
    return plats, effs, pp


def table_ranges(runs, triads, plats, shapes, question="single", best=None):
    """{app: {shape: PP range or None}} and {app: {shape: {platform: cell range or None}}}."""
    pp_ci, cell_ci = {}, {}
    best = best or {s: platform_best_su(runs, plats, s) for s in shapes}
    for app in APPLICATIONS:
        pp_ci[app], cell_ci[app] = {}, {}
        for s in shapes:
            cells = {p: triad_spread(efficiency_samples(runs, triads, p, app, s, question, best[s])[0],
                                     triads, p, question) for p in plats}
            cell_ci[app][s] = {p: run_range(c) for p, c in cells.items()}
            pp_ci[app][s] = ((0.0, 0.0) if [0.0] in cells.values() else
                             None if any(not c for c in cells.values()) else pp_range(list(cells.values())))
    return pp_ci, cell_ci


def subset_leaders(effs, plats, shape):
    """{k: {app: the k-platform subsets where it has the highest PP (ties count for each)}}: how the
    ranking depends on the platforms chosen, as the P3 cascade reads. An application with an unmeasured
    cell in a subset does not compete there; a subset where none is measured everywhere is not counted."""
    counts = {}
    for k in range(1, len(plats) + 1):
        counts[k] = {app: 0 for app in APPLICATIONS}
        counts[k]["subsets"] = 0
        for subset in itertools.combinations(plats, k):
            pps = {app: pennycook([effs[app][shape][p][0] for p in subset]) for app in APPLICATIONS
                   if all(effs[app][shape][p][0] is not None for p in subset)}
            if not pps:
                continue
            counts[k]["subsets"] += 1
            top = max(pps.values())
            for app, v in pps.items():
                if top > 0 and v >= top - 1e-12:
                    counts[k][app] += 1
    return counts


def other_kokkos_pp(runs, triads, plats, shapes, question, best):
    """{row label: {shape: (PP, PP range)}} of the Kokkos rows built against another Kokkos (the first
    screen's, e.g. "Kokkos tuned (4.6.01)"), measured as the table's cells are; (None, None) where a
    platform is not measured."""
    rows = {}
    for label, app, suffix in screen_apps(runs):
        if suffix is None:
            continue
        rows[label] = {}
        for s in shapes:
            medians, cells = [], []
            for p in plats:
                samples, _ = as_efficiency(screen_samples(runs, p, app, suffix, s, question), "", triads, p, question,
                                           best[s])
                medians.append(statistics.median(samples) if samples else None)
                cells.append(triad_spread(samples, triads, p, question))
            known = all(m is not None for m in medians)
            rows[label][s] = (pennycook(medians) if known else None, pp_range(cells) if known else None)
    return rows
