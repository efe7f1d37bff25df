"""The report's first screen (issue 70): what to write for which hardware, by how much and how sure, in one
table and at most SCREEN_WORDS words of prose; the evidence follows it (page.first_page).

Rows are the targets a reader has (TARGETS), at the page's two sizes; columns the hand-written codes, Kokkos
tuned under each Kokkos the study built, Kokkos idiomatic under the newest; each cell PP over the row's platforms
of each model's best, with its range (the terms the screen links say the rest). The last column applies the one
tie rule (verdicts.ranges_apart) to each model's best and to single steps. render.check_page holds a report to it.
"""
import re
import statistics

from ..catalog import backends, toolchains
from ..metrics import pp, verdicts
from ..runs import builds, screen_cells, study
from .markdown import table_head

SCREEN_END = "<!-- end of the first screen -->"
SCREEN_WORDS = 160  # issue 80: the legend a reader needs to defend the choice (what is measured, PP, the terms)
HEADING = "## Which programming model? The answer on one page"

# (row name, the toolchains whose platforms it spans): each toolchain's platforms alone (its toolchain.json's
# "target"), then the sets one source must cover: GPUs through CUDA with the CPUs, and every toolchain.
TARGETS = tuple((t["target"], (name,)) for name, t in toolchains.TOOLCHAINS.items()) + (
    ("NVIDIA GPUs (CUDA) and x86 CPUs", ("cuda", "host")),
    ("all of these", tuple(toolchains.TOOLCHAINS)),
)


def version_key(label):
    """'Kokkos tuned (4.6.01)' -> (4, 6, 1), for the newest Kokkos."""
    found = re.search(r"\(([\d.]+)", label)
    return tuple(int(n) for n in found.group(1).split(".")) if found else ()


def columns(runs):
    """[(heading, application, suffix)]: hand-written; Kokkos tuned under each Kokkos the study built;
    Kokkos idiomatic under the newest (its other versions are in the evidence)."""
    apps = screen_cells.screen_apps(runs)
    tuned = [a for a in apps if a[1] == "Kokkos tuned"]
    idiomatic = sorted((a for a in apps if a[1] == "Kokkos idiomatic"), key=lambda a: version_key(a[0]))
    return [("hand-written", "hand-written", None)] + tuned + idiomatic[-1:]


def platform_fastest(runs, plats, size):
    return pp.platform_best_su(runs, plats, size)


def cell(runs, triads, plats, app, suffix, size, question, fastest):
    """(PP, PP range or None, {platform: [its cell's runs on each machine]}) of one application over plats; None
    where a platform is not measured (PP unknown)."""
    medians, spreads, counts = [], [], {}
    for p in plats:
        samples, _ = pp.as_efficiency(screen_cells.screen_samples(runs, p, app, suffix, size, question), "", triads, p,
                                      question, fastest)
        if not samples:
            return None
        medians.append(statistics.median(samples))
        spreads.append(pp.triad_spread(samples, triads, p, question))
        if samples != [0.0]:
            counts[p] = screen_cells.run_count(runs, p, app, suffix, size, question)
    return pp.pennycook(medians), pp.pp_range(spreads), counts


def printed(x):
    """A PP as the screen prints it (two decimals), so that a lead recomputes from the page."""
    return float(f"{x:.2f}")


def verdict(named):
    """The choice among [(name, (PP, range, runs) or None)]: ("lead", leader, how much ahead (its printed
    median PP over the runner-up's, less 1), the runner-up) where the leader's range lies above every other's; ("tie",
    [the leader and those its range cannot tell from it, in the given order]); ("none", why)."""
    known = [(n, c) for n, c in named if c is not None]
    if len(known) < len(named) or len(known) < 2:
        return "none", "a platform not measured"
    ranked = sorted(known, key=lambda nc: -nc[1][0])
    (lead, top), (second, runner) = ranked[0], ranked[1]
    if top[0] == 0:
        return "none", "none runs on every platform"
    if top[1] is None:
        return "none", "cells of one run"
    tied = {n for n, c in ranked[1:] if not verdicts.ranges_apart(top[1], c[1])}
    if tied:  # in the table's order: a tie names no first
        return "tie", [n for n, _ in named if n == lead or n in tied]
    return "lead", lead, (printed(top[0]) / printed(runner[0]) - 1 if printed(runner[0]) > 0 else None), second


def percent(x):
    return f"{100 * x:.1f}%" if x < 0.1 else f"{100 * x:.0f}%"


def families(names):
    """Names with every version of a family said once: 'Kokkos tuned (3.4.01), Kokkos tuned (4.6.01)' ->
    'Kokkos tuned (3.4.01 and 4.6.01)'."""
    out, by_family = [], {}
    for n in names:
        by_family.setdefault(n.split(" (")[0], []).append(n)
    for n in names:
        family = n.split(" (")[0]
        if len(by_family[family]) > 1:
            if by_family[family][0] == n:
                versions = [re.search(r"\(([^)]*)\)", m).group(1) for m in by_family[family] if "(" in m]
                out.append(f"{family} ({' and '.join(versions)})")
        else:
            out.append(n)
    return out


def choice_text(best, single):
    """The last column: the choice on each model's best, by how much, and single steps' in brackets (who leads,
    not by how much: their PP are the evidence's table (a), not on the screen)."""
    kind, *what = best
    if kind == "lead":
        lead, ahead, second = what
        text = f"**{lead}**" + (f", {percent(ahead)} ahead of {second}" if ahead is not None else "")
    elif kind == "tie":
        text = "tie: " + ", ".join(families(what[0]))
    else:
        text = f"none named: {what[0]}"
    kind, *what = single
    said = {"lead": lambda: f"{what[0]} ahead", "tie": lambda: "tie", "none": lambda: "n/a"}[kind]()
    return f"{text} (single steps: {said})"


def lines_of(loc, app, toolchains):
    """(sources, lines) of an application's codes on these toolchains: its backend folders, and the lines of
    their parts (count_loc.py's, beyond the shared core); lines None without a lines-of-code file."""
    entries = [e for t, e in backends.applications().get(app, {}).items() if t in toolchains]
    parts = {p for e in entries for p in e["parts"]}
    lines = sum(loc["parts"][p]["lines"] for p in parts if p in loc["parts"]) if loc and "parts" in loc else None
    return len({e["folder"] for e in entries}), lines


def rows(runs, triads, plats, shapes, loc=None):
    """The table: (header, [(row label, [cell text], choice, sources and lines)]) and the runs behind each
    measured platform's cell {(platform, size, column heading): runs}."""
    cols = columns(runs)
    header = ["target: platforms, size"] + [c[0] for c in cols] + ["choose", "sources / lines"]
    out, runs_of = [], {}
    fastest = {s: platform_fastest(runs, plats, s) for s in shapes}
    compilers = builds.compilers_by_toolchain(runs)
    for name, spanned in TARGETS:
        members = [p for p in plats if p[1] in spanned]
        if not members or any(not any(p[1] == t for p in members) for t in spanned):
            continue
        hardware = weights_said(members)
        for size in shapes:
            best = [(h, cell(runs, triads, members, app, suffix, size, "best", fastest[size])) for h, app, suffix in cols]
            single = [(h, cell(runs, triads, members, app, suffix, size, "single", None)) for h, app, suffix in cols]
            compiler = compilers.get(study.TOOLCHAINS[spanned[0]]) if len(spanned) == 1 else None
            label = f"{name}{f' ({compiler})' if compiler else ''}: {hardware}, {study.size_name(size)}"
            texts = []
            for h, c in best:
                texts.append("—" if c is None else verdicts.fmt_pp(c[0], c[1]) if c[0] else "0")
                for p, n in (c[2] if c else {}).items():
                    runs_of[(p, size, h)] = n
            choice = choice_text(verdict(best), verdict(single)) + one_source(loc, cols, best, spanned)
            out.append((label, texts, choice, sources_lines(loc, cols, spanned)))
    return header, out, runs_of


def weights_said(members):
    """The row's platforms and the weight each has in its PP: 'H100, H200 (1/2 each)'; each platform named with
    its toolchain where a GPU is there through two: 'H100 CUDA, H100 OpenMP offload, ..., 16-core Xeon (1/5
    each)'."""
    names = [study.hardware_short(p[0]) for p in members]
    if len(set(names)) < len(names):
        names = [study.hardware_short(study.platform_name(p)) for p in members]
    return names[0] if len(names) == 1 else f"{', '.join(names)} (1/{len(names)} each)"


def one_source(loc, cols, best, toolchains):
    """A row over several toolchains asks for one source: where the choice names a code of more sources, the
    best code of one source beside it ('; one source: Kokkos tuned (4.6.01), 0.94'); '' otherwise."""
    if len(toolchains) < 2:
        return ""
    single = [(h, c) for (h, app, _), (_, c) in zip(cols, best)
              if c is not None and lines_of(loc, app, toolchains)[0] == 1]
    if not single or all(lines_of(loc, app, toolchains)[0] == 1 for _, app, _ in cols):
        return ""
    name, c = max(single, key=lambda hc: hc[1][0])
    return f"; one source: {name}, {c[0]:.2f}"


def sources_lines(loc, cols, toolchains):
    """'hand 2 / 1,053; Kokkos 1 / 1,156': each family's sources (backend folders) and lines on the row."""
    said = []
    for family, app in (("hand", "hand-written"), ("Kokkos", "Kokkos tuned")):
        n, lines = lines_of(loc, app, toolchains)
        said.append(f"{family} {n} / {lines if lines is not None else '?'}")
    return "; ".join(said)


def runs_said(runs_of, pooled=None):
    """'H100 5, H200 5, 16-core Xeon 3 + 3': each hardware's runs a cell on each of its machines (the distinct
    counts of its cells, fewest first), in the platforms' order, with pooled's note after a hardware it names
    ({hardware: text}); and [(hardware, size)] of the cells of fewer than five runs in all."""
    by_hardware, under = {}, set()
    for (p, size, _), machines in sorted(runs_of.items(), key=lambda item: study.platforms_order(item[0][0])):
        name = study.hardware_short(p[0])
        by_hardware.setdefault(name, set()).add(tuple(sorted(machines)))
        if sum(machines) < 5:
            under.add((name, size))
    order = list(by_hardware)
    said = [f"{h} " + " or ".join(" + ".join(map(str, c)) for c in sorted(by_hardware[h], key=sum))
            + (f" ({(pooled or {})[h]})" if h in (pooled or {}) else "") for h in order]
    return ", ".join(said), [(h, study.size_name(size)) for h, size in
                             sorted(under, key=lambda hs: (order.index(hs[0]), study.points(hs[1])))]


def write(w, runs, triads, plats, shapes, loc, study_commits, known=()):
    """The first screen: one table, then its legend (what is measured, PP, the terms, the runs a cell and how a
    CPU model's machines weigh, the build); `known`: [(key, text)] of what the run files cannot show ("under
    five": why cells have fewer than five runs; "commits": a sentence on the study's commits, after them; "cpu":
    a source for the CPU's noise, after its machines' spread; any other key, a line of its own, e.g. Kokkos 5.x's
    facts). The terms follow the screen (#terms)."""
    header, table, runs_of = rows(runs, triads, plats, shapes, loc)
    table_head(w, header)
    for label, texts, choice, effort in table:
        w(f"| {label} | " + " | ".join(texts) + f" | {choice} | {effort} |")
    w("")
    said = dict(known)
    pooled = {}
    for p in plats:
        spread = screen_cells.machine_spread(runs, p, shapes) if p[1] == "host" else None
        if spread:
            _, most, between, within = spread
            pooled[study.hardware_short(p[0])] = (
                f"{most} machines weighted alike: medians up to {between:.2f} x apart, one machine's runs "
                f"{within:.2f} x{'; ' + said['cpu'] if 'cpu' in said else ''}")
    counts, under = runs_said(runs_of, pooled)
    taken = study.interleaving(runs)
    lines = [
        "awave: a double-precision 7-point acoustic stencil, second order in time; cells: site updates/s (points x "
        "steps / s, no I/O), N^3 points.",
        "PP = n / Σ(1/e) over the row's platforms; e = a code's median over the fastest code's (above 1.00: faster); "
        "[PP of slowest runs, of fastest]; overlap: tie; % ahead: printed PPs' ratio; lines: shared parts once.",
        "Best: the three-step sweep (hand-written, Kokkos tuned) or single steps (idiomatic): what to choose. Single "
        "steps: one algorithm everywhere: what the model costs.",
        "Kokkos tuned: TeamPolicy, a k-column a thread; idiomatic: MDRange, a point a work item; Views LayoutRight.",
        f"Runs a cell{', interleaved' if taken == 'interleaved' else ''}: {counts or 'none'}."
        + (f" Fewer than five: {', '.join(f'{h} at {s}' for h, s in under)} ({said.get('under five', 'why not recorded')})."
           if under else ""),
    ]
    lines += [text for key, text in known if key not in ("under five", "commits", "cpu")]
    lines.append(f"Built at {study_said(runs, study_commits)}.{' ' + said['commits'] + '.' if 'commits' in said else ''} "
                 "[Terms](#terms).")
    w("\n".join(f"- {ln}" for ln in lines) + "\n")
    w(SCREEN_END + "\n")
    w("### Terms\n")
    w("\n".join(f"- **{term}**: {meaning}" for term, meaning in TERMS) + "\n")


# The screen's words, each defined once (the screen links here).
TERMS = (
    ("PP", "performance portability (Pennycook): the harmonic mean of a code's efficiencies over a set of "
           "platforms, 0 where it does not run on one; its range is PP of the cells' slowest runs to PP of their "
           "fastest (a spread of a few runs, not a confidence interval)"),
    ("best", "each model's fastest form: the three-step sweep (temporal blocking) where the code has one, "
             "else single steps; single steps: one time step a pass over the grid, the same algorithm in every "
             "model (the evidence's table (a) gives them against the memory bandwidth)"),
    ("hand-written", "`cuda` (CUDA C++), `omp` (OpenMP offload) and `cpu-openmp` (OpenMP threads): one code a "
                     "toolchain"),
    ("Kokkos tuned", "`kokkos-*`: one Kokkos source, TeamPolicy with a column of k values a thread and the "
                     "sweep; idiomatic: `kokkos-*-mdrange`, MDRange, one grid point a work item, as the tutorials "
                     "write it"),
    ("n% ahead", "the leader's PP over the runner-up's, both as printed (two decimals), less 1; a lead only where "
                 "the leader's range lies above every other's, else a tie"),
    ("all of these", "every platform: each GPU once through CUDA and once through OpenMP offload, and the CPU, so a "
                     "GPU counts 2/5 and the CPU 1/5 (the row says so); each row names its weights"),
    ("machines weighted alike", "a CPU model measured on two machines is one platform whose cell takes each "
                                "machine's median, then their mean (its range the mean of their slowest runs to the "
                                "mean of their fastest): a machine with more runs does not count more "
                                "(`bench/awave_bench/runs/study.py`, `machines_alike`)"),
    ("sources / lines", "backend folders, and their non-comment lines beyond the shared core, a part two codes "
                        "share counted once (`bench/count_loc.py`)"),
    ("CPU runs", "threads bound (OMP_PROC_BIND=spread, OMP_PLACES=threads), as the README advises; the same codes "
                 "unbound (label unbound) ran in the same rounds as evidence, not as codes of their own, so a platform's "
                 "fastest code is of its bound runs (the page's CPU sentence gives each code's unbound over bound)"),
    ("Views", "every Kokkos View is LayoutRight (k contiguous, `src/kokkos/step_fields.hpp`) on every backend"),
    ("run", "one process, timed as its fastest chunk of steps (I/O excluded); the codes compared run "
            "interleaved, round by round (every code once before any runs again); the device machines give a call "
            "10 minutes"),
    ("commit", "the source revision (`git show HASH`) the runs' binaries were built from, clean; each results "
               "folder's name carries it (study-HASH, study-HASH-part)"),
)


def study_said(runs, study_commits):
    """The study's commits, each said for what it is."""
    if len(study_commits) <= 1:
        return f"commit `{study_commits[0][:7]}`" if study_commits else "no commit recorded"
    by_commit = builds.platforms_by_commit(runs)
    (most, _), *others = sorted(by_commit.items(), key=lambda item: (-len(item[1]), item[0]))
    return f"commit `{most[:7]}`" + "".join(f"; {', '.join(names)} at `{c[:7]}`" for c, names in others)


def screen_words(text):
    """Words of prose: whitespace-separated tokens with a letter or digit ("runs," is one word)."""
    return len([t for t in text.replace("**", " ").split() if any(c.isalnum() for c in t)])


def problems(report_text, study_dirs, loc=None):
    """What is wrong with a report's first screen against its study's run files: [] if nothing. It must hold
    at most SCREEN_WORDS words of prose and one table, every row and cell of that table as the run files give
    it."""
    start = report_text.find(HEADING)
    end = report_text.find(SCREEN_END)
    if start < 0 or end < start:
        return ["no first screen (its heading, then the end marker)"]
    lines = report_text[start + len(HEADING):end].splitlines()
    table = [ln for ln in lines if ln.startswith("|")]
    prose = " ".join(ln for ln in lines if not ln.startswith("|"))
    found = []
    if screen_words(prose) > SCREEN_WORDS:
        found.append(f"{screen_words(prose)} words of prose (at most {SCREEN_WORDS})")
    blocks = sum(1 for i, ln in enumerate(lines) if ln.startswith("|") and (i == 0 or not lines[i - 1].startswith("|")))
    if blocks != 1:
        found.append(f"{blocks} tables (one)")
    runs, triads, _ = study.load_study(study_dirs)
    plats = study.platforms_of(runs)
    loc, _ = pp.effort_at_study_commit(loc, sorted(builds.platforms_by_commit(runs)), "lines")
    header, want, _ = rows(runs, triads, plats, study.page_shapes(runs, plats), loc)
    printed = {}
    for ln in table[2:]:
        cells = [c.strip() for c in ln.strip().strip("|").split("|")]
        printed[cells[0]] = cells[1:]
    if table and [c.strip() for c in table[0].strip().strip("|").split("|")] != header:
        found.append("the table's columns are not the study's")
    for label, texts, choice, effort in want:
        if label not in printed:
            found.append(f"row {label!r} missing")
            continue
        for name, value, got in zip(header[1:], texts + [choice, effort], printed.pop(label)):
            if value != got:
                found.append(f"{label}, {name}: {got!r} where the run files give {value!r}")
    found += [f"row {label!r} not in the run files" for label in printed]
    return found
