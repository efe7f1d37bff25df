"""The verdicts and their wording: a ranking that names a winner only where its PP range lies above every
other's (ranges_apart, the one tie rule), the recommendation of each question, what the builds against another
Kokkos change of it, and whose code is the fastest on how many platforms."""

from ..runs.study import APPLICATIONS, platform_name, size_name


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
    below the leader's as the page prints PP and ratios (two decimals; raw SU/s are unaffected), so that a reader
    can check each lead: touching, overlapping or unknown ranges are a tie, whatever the medians say."""
    return leader is not None and other is not None and round(other[1], 2) < round(leader[0], 2)


def said_once(facts):
    """[(size, fact)] said once per fact, the sizes that share one named together:
    'at 512x512x512 and 1000x1000x1000 A and B tie; at 256x256x256 A leads'."""
    sizes = {}
    for size, fact in facts:
        sizes.setdefault(fact, []).append(size)
    return "; ".join(f"at {' and '.join(s)} {fact}" for fact, s in sizes.items())


def ranges_tie(a, b):
    """Two sets of runs the tie rule cannot tell apart (a sweep against single steps, exact against contracting
    floating point): neither's range (min-max) lies above the other's."""
    ra, rb = (min(a), max(a)), (min(b), max(b))
    return not ranges_apart(ra, rb) and not ranges_apart(rb, ra)


def recommendation(w, plats, effs, pp, shapes, pp_ci=None, question="single"):
    """A winner only where one application's PP range is above every other's at every size shown;
    else the applications the data cannot separate at some size, as a tie. The PP figures are the table's
    and the brief's: the recommendation says the verdict and why."""
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
    where = 'this platform' if len(plats) == 1 else f'these {len(plats)} platforms'
    at = " and ".join(shapes)
    facts = [(x, f"{r[0]} leads, its range above every other's" if len(t) == 1
              else f"{' and '.join(t)} tie, their ranges overlapping") for x, (r, t, _) in zip(shapes, per_size)]
    uniform = len({f for _, f in facts}) == 1
    # Undecided where no PP is known at a size (a platform some code was not measured on), else where the
    # first has no range (cells of one run).
    unknown = [x for x in shapes if any(pp[a][x] is None for a in pp)]
    unmeasured = [platform_name(p) for p in plats if any(effs[a][x][p][0] is None for a in pp for x in unknown)]
    if not decided and unmeasured:
        text = (f"{head} Over {where} no winner is named: PP is unknown where a code was not measured on "
                f"{', '.join(unmeasured)} (at {' and '.join(unknown)}). ")
        verdict = f"no winner named (PP unknown: not measured on {', '.join(unmeasured)})"
    elif not decided:
        said = [f"{a} {pps(a)}" for a in tied] + [f"at {at}"]
        text = (f"{head} Over {where} no winner is named: the cells are single runs, so PP has "
                f"no range to tell a difference from noise ({'; '.join(said)}). ")
        verdict = "no winner named (cells of one run)"
    elif len(tied) > 1:
        names, numbers = " and ".join(tied), "; ".join(f"{a} {pps(a)}" for a in tied)
        text = (f"{head} Over {where}, {names} tie for the highest PP"
                + (f" at {at}, their ranges overlapping. " if uniform else f": {said_once(facts)}. "))
        verdict = (f"{names} **tie**, their ranges overlapping (PP {numbers})" if uniform
                   else f"{names} **tie** (PP {numbers}; {said_once(facts)})")
    else:
        verdict = f"**{best}** leads (PP {pps(best)}, its range above every other's)"
        text = f"{head} Over {where}, {best} has the highest PP at {at}, its range above every other's. "
    if not decided or len(tied) > 1:
        text += "These numbers do not choose between them: decide on lines, convergence and the platforms you need."
    elif best.startswith("Kokkos"):
        text += ("Choose Kokkos for one source over GPUs and CPUs; start from the idiomatic form and tune only where "
                 "the table shows the gap is worth the lines.")
    else:
        text += f"On these numbers {best} is the choice; no single-source code matches it here."
    w(text + "\n")
    return verdict


def other_kokkos_part(w, others, pp, pp_ci, shapes):
    """The other Kokkos' rows beside the table's verdict: their PP, and where the table's leader (one
    application whose range lies above every other's) no longer leads against them. Returns those notes
    ("" where the leader still leads)."""
    if not others:
        return ""
    said = "; ".join(f"{label} {' and '.join(fmt_pp(*v[s]) for s in shapes)}" for label, v in others.items())
    notes, lost = [], []
    for s in shapes:
        ranked, tied, decided = ranking(pp, s, pp_ci)
        if not decided:
            continue
        top = (pp_ci or {}).get(ranked[0], {}).get(s)
        close = [label for label, v in others.items() if v[s][0] is None or not ranges_apart(top, v[s][1])]
        if len(tied) > 1:
            notes.append((s, f"{' and '.join(close) or 'none of them'} within the tie's ranges"))
        elif close:
            notes.append((s, f"{ranked[0]} does not lead {' or '.join(close)}: their ranges overlap or are unknown"))
            lost.append(s)
        else:
            notes.append((s, f"{ranked[0]}'s range lies above theirs"))
    w(f"The same Kokkos codes built against another Kokkos (the first screen's rows): {said}"
      + (f"; {said_once(notes)}" if notes else "") + ".\n")
    return said_once([(s, f) for s, f in notes if s in lost])


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
