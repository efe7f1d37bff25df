"""The report's first page: performance portability (Pennycook's PP over the P3 methodology's efficiencies) for
two questions, (a) single steps against the triad and (b) each model's best against the platform's fastest code,
each with its table, ranges, cascade and navigation plots and recommendation; the page states the method.
It is written here (first_page) from the parts that live by concept: the runs (runs.study), the metrics
(metrics.pp), the verdicts and their wording (metrics.verdicts), the plots (render.plots). The first screen before
it is render.screen.
"""
import statistics

from ..metrics.pp import (application_lines, cell_run_counts, convergence, effort_at_study_commit, other_kokkos_pp,
                          platform_best_su, subset_leaders, table, table_ranges)
from ..metrics.verdicts import fastest_holders, fmt_eff, fmt_pp, other_kokkos_part, recommendation
from ..runs.builds import compilers, kokkos_versions, platforms_by_commit
from ..runs.study import (APPLICATIONS, QUESTIONS, load_study, page_shapes, platform_name, platforms_of, points,
                          size_name, su_samples)
from . import screen
from .markdown import table_head
from .plots import cascade_plot, navigation_chart, pp_over_sizes_plot


def first_page(w, plt, study_dirs, loc, divergence, out_dir, caveats=()):
    """Writes the first page: both questions, each with its table, PP, plots and recommendation.
    Returns the runs it used, for the provenance section and the evidence:
    {(hardware, build, label, shape): [(result, directory)]}, each folder's first (checked) round of that run (a
    pooled platform's machines each have theirs)."""
    runs, triads, cpus = load_study(study_dirs)
    used = {k: list({d: (r, d) for r, d in reversed(v)}.values()) for k, v in runs.items()}
    plats = platforms_of(runs)
    shapes = page_shapes(runs, plats)
    study_commits = sorted(platforms_by_commit(runs))
    loc, lines_note = effort_at_study_commit(loc, study_commits, "lines")
    lines = application_lines(loc)
    divergence, conv_note = effort_at_study_commit(divergence, study_commits, "divergence")
    conv, conv_program, conv_na = convergence(divergence)
    w("## Which programming model? The answer on one page\n")
    if not plats:
        w("No study results: run `bench/study.sh OUT` on a machine with a build (README).\n")
        return used
    parts, verdicts, leaders = [], [], []
    for question in QUESTIONS:
        verdict, effs = question_part(parts.append, plt, question, runs, triads, plats, shapes, lines, conv,
                                      conv_program, conv_na, out_dir)
        verdicts.append(verdict)
        leaders.append(effs)
    subsets_table(parts.append, leaders, plats, shapes[-1])
    screen.write(w, runs, triads, plats, shapes, loc, study_commits, caveats)
    w(f"Platforms: {', '.join(platform_name(p) for p in plats)}"
      + "".join(f"; {h} = {n}" for h, n in sorted(cpus.items())) + f"; compilers: {compilers(runs)}. "
      "Two questions, two tables: (a) the same algorithm in every model (single steps), against what the "
      "hardware allows; (b) the best each model can express (the three-step sweep where the code has one), "
      "against the fastest code measured on each platform. A cell is the median over its runs (separate "
      "processes, each its best chunk), in brackets the range (min-max) of its runs where it has two or more: "
      "a spread, not a confidence interval. "
      "PP: the harmonic mean over every platform, 0 where an application does not run on one (Pennycook). "
      f"Sizes {' / '.join(shapes)} (each cell: the sizes in that order; the two largest every platform measured)."
      + "".join(f" {s}: measured on {', '.join(platform_name(p) for p in plats if (*p, '', s) in runs)} only, no PP."
                for s in sorted({k[3] for k in runs}, key=points) if points(s) > points(shapes[-1])) +
      f" Runs a measured cell of these tables: {', '.join(map(str, cell_run_counts(runs, triads, plats, shapes)))}.\n")
    w(f"**In brief, over these {len(plats)} platforms at {' and '.join(shapes)}.** (a) The same algorithm "
      f"(single steps): {verdicts[0]}. (b) Each model's best: {verdicts[1]}. A winner is named only where its "
      "PP range lies above every other's at every size; the tables, plots and recommendations follow.\n")
    w(binding_sentence(runs, plats, shapes))
    for line in parts:
        w(line)
    w("Lines: non-blank, non-comment lines of every file the application compiles beyond the shared core "
      "(`bench/count_loc.py`); the Kokkos forms share their fields, class and registration, counted in both. "
      "Convergence: 1 - code divergence over the platforms' builds, for the kernels (the application's folder "
      "and the core) and the whole program (`bench/code_divergence.py`, preprocessed compile commands; it does "
      "not see `if constexpr`); n/a where an application has one build for every platform it runs on, or where "
      "it was not measured at the study's commit.\n" + "".join(f"{n}\n" for n in effort_notes(lines_note, conv_note)))
    offload = [platform_name(p) for p in plats if p[1] == "openmptarget"]
    w("**Kokkos versions.** Kokkos removed its OpenMPTarget backend in 5.1 (kokkos issue 8696, PR 8717: "
      "maintenance \"not justified by its current usage or performance\"). Every Kokkos OpenMP offload figure "
      f"here (Kokkos {' and '.join(kokkos_versions(runs))}) holds for Kokkos 5.0 and older only; on Kokkos 5.1 and "
      f"later the offload platforms ({', '.join(offload) or 'none measured here'}) have no Kokkos code, and "
      f"Kokkos' PP over these {len(plats)} platforms is then 0.\n")
    return used


def effort_notes(lines_note, conv_note):
    """The two files' notes, one where they say the same of both ("Lines and divergence counted at ...")."""
    notes = [n for n in (lines_note, conv_note) if n]
    if len(notes) == 2 and notes[0].split(" ", 1)[1] == notes[1].split(" ", 1)[1]:
        return [f"Lines and divergence {notes[0].split(' ', 1)[1]}"]
    return notes


def binding_sentence(runs, plats, shapes):
    """How the CPU cells' threads were bound (each run records it: bench/sweep.py), and where the study
    has the unbound runs too (label unbound), each CPU code's median unbound over bound, per CPU."""
    cpu = [p for p in plats if p[1] == "host"]
    if not cpu:
        return ""
    bindings = {r.get("sweep", {}).get("binding", {}).get("OMP_PROC_BIND") for h, _ in cpu for s in shapes
                for r, _ in runs.get((h, "host", "", s), [])}
    said = ", ".join(sorted(b for b in bindings if b)) or None
    text = (f"CPU cells: the runs' OMP_PROC_BIND={said} (the README recommends spread)" if said else
            "CPU cells: the runs do not record their threads' binding (runs before the study recorded it)")
    per_cpu = []
    for platform in cpu:
        ratios = {}  # app -> {size: unbound median over bound}, where the study has both
        for app, spec in APPLICATIONS.items():
            impl, label = spec.get("host", (None, None))
            if not impl or label:
                continue
            for s in shapes:
                bound, free = (su_samples(runs, platform, app, s, "best", v)[0] for v in ("", "unbound"))
                if bound and free and bound != [0.0]:
                    ratios.setdefault(app, {})[s] = statistics.median(free) / statistics.median(bound)
        # the sizes every code has both at (the unbound runs may stop short of the largest), named once
        sizes = [s for s in shapes if all(s in r for r in ratios.values())]
        if ratios and sizes:
            per_cpu.append(f"{platform[0]} at {' / '.join(size_name(s) for s in sizes)}: " + ", ".join(
                f"{app} " + " / ".join(f"{r[s]:.2f}" for s in sizes) for app, r in ratios.items()))
    if per_cpu:
        text += ("; with OMP_PROC_BIND=false (label unbound, the same rounds) each code ran at these times its bound "
                 "median: " + "; ".join(per_cpu))
    else:
        text += "; the unbound runs are not in this study"
    return text + ".\n"


def subsets_table(w, effs_by_question, plats, shape):
    """The cascade's reading, both questions in one table (each cell: (a) / (b))."""
    counts = [subset_leaders(effs, plats, shape) for effs in effs_by_question]
    w(f"Which application has the highest median PP over each subset of the platforms ({shape}; each cell (a) / "
      "(b); equal medians counted for each; an application not measured on a platform of a subset does not compete "
      "there). A lead here is no win where the ranges overlap: the recommendations say which are ties.\n")
    table_head(w, ["platforms in the subset", "subsets", *APPLICATIONS])
    for k, row in counts[0].items():
        w(f"| {k} | {row['subsets']} | " + " | ".join(" / ".join(str(c[k][a]) for c in counts) for a in APPLICATIONS)
          + " |")
    w("")


def question_part(w, plt, question, runs, triads, plats, shapes, lines, conv, conv_program, conv_na, out_dir):
    """One question's table, plots and recommendation."""
    best = {s: platform_best_su(runs, plats, s) for s in shapes}  # (b)'s reference, once for both
    _, effs, pp = table(runs, triads, shapes, question, best)
    pp_ci, cell_ci = table_ranges(runs, triads, plats, shapes, question, best)
    if question == "single":
        w("### (a) The same algorithm in every model: single steps\n")
        w("Architectural efficiency: SU/s x 24 B a site update over the best triad measured on that hardware in "
          "the same study (" + ", ".join(f"{h} {bw:.0f} GB/s"
                                         + (f" of {len(r)} readings from {min(r):.0f}" if len(r) > 1 else "")
                                         for h, (bw, _, r) in sorted(triads.items())) +
          "; both GPU toolchains against the GPU's CUDA triad; a CPU cell's range also holds its fastest run "
          "against the CPU's lowest triad reading where it was read more than once). The codes that sweep by "
          "default ran again with `-tune steps_per_sweep=1` for this table; a cell whose only runs swept is not "
          "measured here.\n")
    else:
        w("### (b) The best each model can express: the sweep where it has one\n")
        w("Application efficiency (the P3 methodology's): SU/s over the fastest code measured on that platform at "
          "that size, in either algorithm, so 1.00 is the platform's best. §: the cell's runs took the "
          "three-step sweep.\n")
    tag = "" if question == "single" else "_best"
    plots = [f"![cascade {s}]({cascade_plot(plt, plats, effs, pp, s, out_dir, f'cascade{tag}_' + s.split('x')[0] + '.png', question)})"
             for s in shapes]
    if conv:
        plots.append(f"![navigation chart]({navigation_chart(plt, pp, shapes, conv, out_dir, f'navigation{tag}.png', question)})")
    plots.append(f"![PP over the sizes]({pp_over_sizes_plot(plt, runs, triads, plats, question, out_dir, f'pp_sizes{tag}.png')})")
    w(" ".join(plots) + "\n")
    table_head(w, ["application", *(platform_name(p) for p in plats), "PP", "lines", "convergence"])
    for app in APPLICATIONS:
        cells = [" / ".join(fmt_eff(*effs[app][s][p], cell_ci[app][s][p]) for s in shapes) for p in plats]
        pps = " / ".join(fmt_pp(pp[app][s], pp_ci[app][s]) for s in shapes)
        conv_cell = f"{conv[app]:.2f} (program {conv_program[app]:.2f})" if app in conv else conv_na.get(app, "n/a")
        w(f"| {app} | " + " | ".join(cells) + f" | {pps} | {lines.get(app, 'n/a')} | {conv_cell} |")
    w("")
    if question == "best":
        w(fastest_holders(effs, plats, shapes))
    verdict = recommendation(w, plats, effs, pp, shapes, pp_ci, question)
    # The verdict is against every Kokkos the study built: where another's rows change it, both say so.
    changed = other_kokkos_part(w, other_kokkos_pp(runs, triads, plats, shapes, question, best), pp, pp_ci, shapes)
    return (f"{verdict} ({changed})" if changed else verdict), effs


FIRST_PAGE = ("## Which programming model? The answer on one page", "**In brief", "### (a) The same algorithm",
              "### (b) The best each model", "| application |", "| PP | lines | convergence |",
              "![cascade", "**Recommendation", "OpenMPTarget backend in 5.1")


def first_page_problems(report_text):
    """What a report's first page lacks (its first section, up to the next one): [] if complete."""
    start = report_text.find(FIRST_PAGE[0])
    if start < 0:
        return [FIRST_PAGE[0]]
    end = report_text.find("\n## ", start + len(FIRST_PAGE[0]))
    page = report_text[start:end if end > 0 else len(report_text)]
    return [item for item in FIRST_PAGE[1:] if item not in page]
