"""The verdicts and their wording: a ranking that names a winner only where its PP range lies above every
other's (ranges_apart, the one tie rule), the recommendation of each question, what the builds against another
Kokkos change of it, and whose code is the fastest on how many platforms."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from study_runs import APPLICATIONS, platform_name, size_name  # noqa: E402


def fmt_eff(e, note, spread=None):
    if e is None:
        return note or "—"
    if note and e == 0:
        return f"0 ({note})"
    notes = (note or "").split(", ")
    return f"{e:.2f}" + (f" [{spread[0]:.2f}, {spread[1]:.2f}]" if spread else "") + \
        (" †" if "unchecked" in notes else "") + (" §" if "sweep" in notes else "")


def fmt_pp(value, spread):
    if value is None:
        return "—"
    return f"{value:.2f}" + (f" [{spread[0]:.2f}, {spread[1]:.2f}]" if spread and value else "")


def ranking(pp, shape, pp_ci=None):
    """(the applications from the highest PP at `shape` down, those the data cannot separate from
    the first, whether ranges decided): a winner is named only where its PP range lies above
    every other's; where the first has no range (a cell of one run) none is. An application
    whose PP is unknown (a platform not measured) competes with none."""
    ranked = sorted(APPLICATIONS, key=lambda a: -(pp[a][shape] or 0))
    top = (pp_ci or {}).get(ranked[0], {}).get(shape)
    if top is None:
        return ranked, [a for a in ranked if pp[a][shape] is not None], False

    def apart(a):
        return pp[a][shape] is None or ranges_apart(top, pp_ci[a][shape])
    return ranked, [a for a in ranked if a == ranked[0] or not apart(a)], True


def ranges_apart(leader, other):
    """The tie rule, every verdict's: a lead only where the other's whole PP range (its runs' min-max) lies
    below the leader's; overlapping or unknown ranges are a tie, whatever the medians say."""
    return leader is not None and other is not None and other[1] < leader[0]


def recommendation(w, plats, effs, pp, shapes, lines, conv, pp_ci=None, question="single"):
    """A winner only where one application's PP range is above every other's at every size shown;
    else the applications the data cannot separate at some size, as a tie."""
    head = f"**Recommendation ({'a' if question == 'single' else 'b'}).**"
    per_size = [ranking(pp, x, pp_ci) for x in shapes]
    ranked, _, _ = per_size[-1]
    decided = all(d for _, _, d in per_size)
    tied = [a for a in ranked if any(a in t for _, t, _ in per_size)]
    if len({r[0] for r, _, _ in per_size}) > 1:  # a different first at another size
        tied = [a for a in ranked if any(a == r[0] or a in t for r, t, _ in per_size)]
    best = ranked[0]

    def pps(app):
        return " and ".join(fmt_pp(pp[app][x], (pp_ci or {}).get(app, {}).get(x)) for x in shapes)
    gpu_cuda = [p for p in plats if p[1] == "cuda"]

    def eff_range(app, ps):
        vals = [effs[app][x][p][0] for x in shapes for p in ps if effs[app][x][p][0] is not None]
        if not vals:
            return "—"
        return f"{min(vals):.2f}" if f"{min(vals):.2f}" == f"{max(vals):.2f}" else f"{min(vals):.2f}-{max(vals):.2f}"
    where = 'this platform' if len(plats) == 1 else f'these {len(plats)} platforms'
    at = " and ".join(shapes)
    # Undecided where no PP is known at a size (a platform some code was not measured on), else where the
    # first has no range (cells of one run).
    unknown = [x for x in shapes if any(pp[a][x] is None for a in pp)]
    unmeasured = [platform_name(p) for p in plats if any(effs[a][x][p][0] is None for a in pp for x in unknown)]
    if not decided and unmeasured:
        text = (f"{head} Over {where} no winner is named: PP is unknown where a code was not measured on "
                f"{', '.join(unmeasured)} (at {' and '.join(unknown)}). ")
        verdict = f"no winner named (PP unknown: not measured on {', '.join(unmeasured)})"
        short = "no winner (PP unknown: a platform not measured)"
    elif not decided:
        said = [f"{a} {pps(a)}" for a in tied] + [f"at {at}"]
        text = (f"{head} Over {where} no winner is named: the cells are single runs, so PP has "
                f"no range to tell a difference from noise ({'; '.join(said)}). ")
        verdict = "no winner named (cells of one run)"
        short = "no winner (cells of one run)"
    elif len(tied) > 1:
        by_size = "; ".join(
            f"at {x} {r[0]} leads, its range above every other's" if len(t) == 1
            else f"at {x} {' and '.join(t)} tie, their ranges overlapping" for x, (r, t, _) in zip(shapes, per_size))
        text = (f"{head} Over {where}, {' and '.join(tied)} tie for the highest PP: {by_size} "
                f"({'; '.join(f'{a} {pps(a)}' for a in tied)}). ")
        verdict = f"{' and '.join(tied)} **tie** (PP {'; '.join(f'{a} {pps(a)}' for a in tied)}; {by_size})"
        short = short_verdict(shapes, per_size)
    else:
        verdict = f"**{best}** leads (PP {pps(best)}, its range above every other's)"
        short = short_verdict(shapes, per_size)
        text = f"{head} Over {where}, {best} has the highest PP ({pps(best)} at {at}), its range above every other's"
        if best in lines:
            text += f", in {lines[best]} lines"
        if best in conv:
            text += f", convergence {conv[best]:.2f}"
        text += ". "
    if "Kokkos idiomatic" in pp and "Kokkos tuned" in pp:
        text += (f"Idiomatic Kokkos (the tutorials' MDRange form, {lines.get('Kokkos idiomatic', 'n/a')} lines) "
                 f"reaches PP {pps('Kokkos idiomatic')}; tuning it inside Kokkos ({lines.get('Kokkos tuned', 'n/a')} "
                 f"lines) gives {pps('Kokkos tuned')}")
        if gpu_cuda:
            text += (f", and on the CUDA platforms {eff_range('Kokkos tuned', gpu_cuda)} against the idiomatic form's "
                     f"{eff_range('Kokkos idiomatic', gpu_cuda)} and hand CUDA's {eff_range('hand-written', gpu_cuda)}")
        text += ". "
    text += (f"The hand-written family (three codes, {lines.get('hand-written', 'n/a')} lines) has PP {pps('hand-written')}; "
             f"hand OpenMP offload alone, one source, has PP {pps('hand OpenMP offload')}: it has no CUDA-toolchain "
             "build and does not run its target regions on the CPU. ")
    if not decided or len(tied) > 1:
        text += "These numbers do not choose between them: decide on lines, convergence and the platforms you need."
    elif best.startswith("Kokkos"):
        text += ("Choose Kokkos for one source over GPUs and CPUs; start from the idiomatic form and tune only where "
                 "the table shows the gap is worth the lines.")
    else:
        text += f"On these numbers {best} is the choice; no single-source code matches it here."
    w(text + "\n")
    return verdict, short


def short_verdict(shapes, per_size):
    """The ranking in a few words, size by size where it differs (the first screen's)."""
    said = [(f"{r[0]} leads" if len(t) == 1 else f"{' and '.join(t)} tie") for r, t, _ in per_size]
    if len(set(said)) == 1:
        return f"{said[0]} at {' and '.join(size_name(x) for x in shapes)}"
    return "; ".join(f"at {size_name(x)} {v}" for x, v in zip(shapes, said))


def other_kokkos_part(w, others, pp, pp_ci, shapes):
    """The other Kokkos' rows beside the table's verdict: their PP, and where the table's leader (one
    application whose range lies above every other's) no longer leads against them. Returns those notes
    and the rows they name ("" and "" where the leader still leads)."""
    if not others:
        return "", ""
    said = "; ".join(f"{label} {' and '.join(fmt_pp(*v[s]) for s in shapes)}" for label, v in others.items())
    notes = []
    for s in shapes:
        ranked, tied, decided = ranking(pp, s, pp_ci)
        if not decided:
            continue
        top = (pp_ci or {}).get(ranked[0], {}).get(s)
        close = [label for label, v in others.items() if v[s][0] is None or not ranges_apart(top, v[s][1])]
        if len(tied) > 1:
            notes.append(f"at {s} {' and '.join(close) or 'none of them'} within the tie's ranges")
        else:
            notes.append(f"at {s} {ranked[0]}'s range lies above theirs" if not close else
                         f"at {s} {ranked[0]} does not lead {' or '.join(close)}: their ranges overlap or are unknown")
    w(f"The same Kokkos codes built against another Kokkos (the first screen's rows): {said}"
      + (f"; {'; '.join(notes)}" if notes else "") + ".\n")
    leader_notes = [n for n in notes if "does not lead" in n]
    close = [label for label in others if any(label in n for n in leader_notes)]
    return "; ".join(leader_notes), " or ".join(close)


def fastest_holders(effs, plats, shapes):
    """(b)'s reference said plainly: whose code is the fastest measured on how many platforms, size by size
    (its cells are 1.00 by construction, so that family's PP is near 1 by construction too)."""
    said = []
    for s in shapes:
        count = {}
        for p in plats:
            for app in APPLICATIONS:
                e = effs[app][s][p][0]
                if e is not None and abs(e - 1.0) < 1e-12:
                    count[app] = count.get(app, 0) + 1
                    break  # one holder a platform (a family before its member: APPLICATIONS' order)
        said.append(f"at {size_name(s)} " + ", ".join(f"{app}'s on {n} of {len(plats)}"
                                                      for app, n in sorted(count.items(), key=lambda x: -x[1])))
    return ("1.00 is the fastest code measured on the platform: " + "; ".join(said) + ". So the application that holds "
            "it on most platforms has a PP near 1.00 by construction; (b) tells how far each other model's best is "
            "from it.\n")
