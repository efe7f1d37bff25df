"""The report's first page: performance portability as the field computes it, for two questions.

(a) The same algorithm in every model, single steps: architectural efficiency, each run's
best-chunk SU/s x 24 B/site over the best triad measured on that hardware in the same study (the
runs labelled single-steps where the default would sweep). (b) The best each model expresses, the
sweep where it has one (its default runs): application efficiency, SU/s over the fastest code
measured on that platform at that size, in either algorithm (the P3 methodology's). For each: a cell
is the median over its runs, with the range (min-max) of its runs where it has two or more (not a
confidence interval: a few runs a cell); Pennycook's PP per application with its range (PP of the
cells' minima to PP of their maxima); a ranking that names a winner only where the ranges do not
overlap, size by size; the cascade plot (Sewall, Pennycook et al., P3HPC 2020); the navigation chart (PP against
code convergence, 1 - code divergence: Harrell et al., P3HPC 2018); and a recommendation, every
number of which is in its table. Read from study directories (bench/study.sh), a lines-of-code file
(bench/count_loc.py) and a code-divergence file (bench/code_divergence.py).
"""
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import backends  # noqa: E402
import runfiles  # noqa: E402
from report_sections.common import kokkos_release, validate_run  # noqa: E402

BYTES_PER_SITE = 24  # read now and prev once, write next once

# Platform: (hardware, toolchain). Toolchain = the build that runs there.
TOOLCHAINS = backends.TOOLCHAINS
# What each application runs on each toolchain: an implementation id, with the sweep variant
# (label) it comes from; where a CPU-platform result comes from another build than the host one;
# the lines each application is made of (count_loc.py's parts). All from the backend folders'
# backend.json (bench/backends.py): the CPU runs the offload build's codes with OMP_TARGET_OFFLOAD=DISABLED.
_APPS = backends.applications()
APPLICATIONS = {a: {t: (e["id"], e.get("label", "")) for t, e in by.items()} for a, by in _APPS.items()}
CPU_BUILD = {e["label"]: e["build"] for by in _APPS.values() for e in by.values() if "build" in e}
APPLICATION_PARTS = {a: list(dict.fromkeys(p for e in by.values() for p in e["parts"])) for a, by in _APPS.items()}

def points(shape):
    nx, ny, nz = (int(n) for n in shape.split("x"))
    return nx * ny * nz


def gpu_short(name):
    words = [w for w in (name or "").split() if w not in ("NVIDIA", "Tesla")]
    return words[0] if words else None


def cpu_model(name):
    """A CPU's model in a word or two: "Intel(R) Xeon(R) Processor" -> "Xeon"."""
    words = re.sub(r"\((R|TM)\)|@.*$", " ", name or "").split()
    words = [w for w in words if w not in ("Intel", "AMD", "Processor", "CPU") and not re.match(r"^\d+-Core$", w)]
    return " ".join(words)


def cpu_hardware(cores, name=None):
    """A CPU platform's name: its model and cores. One model on several machines (the H100 and H200 device
    machines carry the same 16-core Xeon) is one platform, its machines' runs pooled (load_study), so that
    PP weighs each piece of hardware once (issue 70)."""
    model = cpu_model(name)
    return f"CPU ({cores}-core {model})" if model else f"CPU ({cores} cores)"


def hardware_short(hardware):
    """'CPU (16-core Xeon)' -> '16-core Xeon'; a GPU as it is."""
    return hardware[5:-1] if hardware.startswith("CPU (") else hardware


def machine_of(r):
    """The machine a run (or a triad reading) was taken on: the GPU machine it is part of, else its GPU."""
    return ((r.get("machine_gpu") or r.get("gpu") or {}).get("name")) or "?"


def load_run(path):
    """One run file of a study; status "invalid" (no number from it) where awave's result is not in
    awave's format (validate_run)."""
    r = runfiles.load(path)
    problems = validate_run(r) if r.get("status") == "ok" else []
    return dict(r, status="invalid", problems=problems) if problems else r


def load_study(dirs):
    """Runs keyed by (hardware, build, label, shape) -> [(result, directory), ...]: the rounds of
    that run (bench/sweep.py --rounds: NAME_SHAPE.json, NAME_SHAPE.r2.json, ...), on each machine from
    the one directory whose newest round is newest (a platform measured again replaces its earlier
    runs), pooled over the machines of one hardware (cpu_hardware); triads keyed by hardware -> (the
    best GB/s, its file, every reading: bench/sweep.py reads it before a build's first round and after
    its last); {hardware: CPU name}."""
    groups, triads, cpus, cpu_of_machine = {}, {}, {}, {}
    for d in dirs:
        for path in runfiles.glob(d, "*_*x*x*.json"):
            r = load_run(path)
            sweep = r.get("sweep", {})
            build_name = sweep.get("build") or os.path.basename(path).split("_")[0]
            preset = build_name.split("-")[0] if build_name.split("-")[0] in TOOLCHAINS else build_name
            label = sweep.get("label", "")
            env = sweep.get("env", {})
            if preset == "host" or env.get("OMP_TARGET_OFFLOAD") == "DISABLED":
                cpu = r.get("host_cpu") or {}
                hardware = cpu_hardware(cpu.get("cores", "?"), cpu.get("name"))
                cpus[hardware] = cpu.get("name", "?")
                cpu_of_machine[(d, machine_of(r))] = hardware
            else:
                hardware = gpu_short((r.get("gpu") or {}).get("name"))
            if not hardware:
                continue
            shape = "x".join(str(n) for n in r["params"]["shape"])
            groups.setdefault((hardware, build_name, label, shape), {}).setdefault(d, []).append((r, d))
        for path in runfiles.glob(d, "devbench-*.json"):
            b = runfiles.load(path)
            bw = b.get("triad_bandwidth_gb_s")
            if not bw:
                continue
            if b.get("model") == "host-openmp":  # the CPU of the folder's runs on that machine
                hardware = cpu_of_machine.get((d, machine_of(b)), cpu_hardware(b.get("threads", "?")))
            else:
                hardware = gpu_short((b.get("gpu") or {}).get("name"))
            if not hardware:
                continue
            readings = triads.get(hardware, (0, "", []))[2] + [bw]
            if bw > triads.get(hardware, (0, ""))[0]:
                where = os.path.relpath(path, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
                triads[hardware] = (bw, where, readings)
            else:
                triads[hardware] = triads[hardware][:2] + (readings,)
    runs = {}
    for key, by_dir in groups.items():
        newest = {}  # machine -> the rounds of its newest folder
        for rounds in by_dir.values():
            machine = machine_of(rounds[0][0])
            if machine not in newest or newest_date(rounds) > newest_date(newest[machine]):
                newest[machine] = rounds
        runs[key] = [x for machine in sorted(newest) for x in newest[machine]]
    return runs, triads, cpus


def newest_date(rounds):
    return max(r.get("date", "") for r, _ in rounds)


def platforms_order(platform):
    """A platform's place in the report: GPUs first (CUDA, then OpenMP offload), the CPU last."""
    hardware, build = platform
    return hardware.startswith("CPU"), hardware, list(TOOLCHAINS).index(build)


def platforms_of(runs):
    """The platforms of the hardware measured, GPUs first (CUDA, then OpenMP offload), the CPU
    last: every toolchain of each, measured or not (a missing run leaves PP unknown)."""
    hardware = {h for h, *_ in runs}
    return sorted(((h, b) for h in hardware for b in (("host",) if h.startswith("CPU") else ("cuda", "openmptarget"))),
                  key=platforms_order)


def platform_name(platform):
    hardware, build = platform
    return hardware if build == "host" else f"{hardware} {TOOLCHAINS[build]}"


# The study's runs of the sweeping codes with -tune steps_per_sweep=1 carry this label (after the
# variant's own, if any: offload-disabled-single-steps).
SINGLE_STEPS = "single-steps"
QUESTIONS = ("single", "best")


def single_steps_label(label):
    return f"{label}-{SINGLE_STEPS}" if label else SINGLE_STEPS


def su_samples(runs, platform, app, shape, question="single", variant=""):
    """([SU/s of each run], note): [] where not measured, [0.0] where unsupported, refused or wrong.
    question "single": the single-step runs where the study has them, else the default ones if they
    took single steps; "best": the default runs (the sweep where the code has one); variant: another
    label's runs instead of the default ones (e.g. unbound), for a code whose default has none. A run after the
    first (its rounds run unchecked) holds the reference's bits by its digest (awave -digest) equal
    to the checked round's reference digest, a held run (sweep.py --held) to a checked run's at its size
    and steps; one that differs fails."""
    spec = APPLICATIONS[app].get(platform[1])
    if spec is None:
        return [0.0], "does not run here"
    return impl_samples(runs, platform, *spec, shape, question, variant)


def held_references(runs):
    """{(shape, nsteps): the reference digests of the study's checked runs}: what a held run's digest must
    equal (sweep.py --held: a platform's other plans at a size are held to its default plan's check)."""
    refs = {}
    for (_, _, _, shape), rounds in runs.items():
        for r, _ in rounds:
            for i in r.get("implementations", []) if r.get("status") == "ok" else []:
                if i.get("is_reference") and i.get("digest"):
                    refs.setdefault((shape, r["params"]["nsteps"]), set()).add(i["digest"])
    return refs


def impl_samples(runs, platform, impl, label, shape, question="single", variant="", build_name=None):
    """su_samples of one implementation id, from the runs of its variant `label` ("" the default);
    build_name: another build of the platform's preset (e.g. cuda-k46, against another Kokkos)."""
    hardware, build = platform
    source_build = build_name or (CPU_BUILD.get(label, build) if build == "host" else build)
    label = variant or label
    rounds = runs.get((hardware, source_build, label, shape))
    if question == "single":
        single = runs.get((hardware, source_build, single_steps_label(label), shape))
        if single and any(i["id"] == impl for r, _ in single for i in r.get("implementations", [])):
            rounds = single
    if not rounds:
        return [], "not measured"
    reference_digests = {i.get("digest") for r, _ in rounds for i in r.get("implementations", [])
                         if i.get("is_reference") and i.get("digest")}
    samples, notes = [], set()  # samples: (SU/s, steps a sweep)
    for r, _ in rounds:
        if r.get("status") == "refused":
            return [0.0], "refused"
        if r.get("status") != "ok":
            return [], r.get("status", "failed")
        res = next((i for i in r["implementations"] if i["id"] == impl), None)
        if res is None:
            return [], "not run"
        if res.get("checked") and res.get("differences", 0) != 0:
            return [0.0], "FAILS the check"
        # The threaded CPU code is the check's reference in the CPU sweeps (bitwise the serial one's: tested).
        checked = res.get("checked") or res.get("is_reference")
        references = reference_digests
        if not checked and not references and r.get("sweep", {}).get("held"):
            references = held_references(runs).get((shape, r.get("params", {}).get("nsteps")), set())
        if not checked and res.get("digest") and references:
            if res["digest"] not in references:
                return [0.0], "FAILS the check"
            checked = True
        if not checked:
            notes.add("unchecked")
        if res.get("steps_per_sweep", 1) > 1 and question == "single":
            return [], "swept; no single-step run"
        samples.append((res["best_su_per_s"], res.get("steps_per_sweep", 1)))
    # One algorithm a cell: where the code is the check's reference (round 1 of the CPU sweeps), that
    # round ran the reference's single steps, beside rounds that swept; (b) keeps the sweeps alone.
    steps = max(k for _, k in samples)
    if steps > 1:
        notes.add("sweep")
    return [su for su, k in samples if k == steps], ", ".join(sorted(notes))


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


QUESTION_WORDS = {
    "single": ("architectural efficiency", "single steps: SU/s x 24 B / best triad"),
    "best": ("application efficiency", "each model's best: SU/s / the platform's fastest"),
}


def cascade_plot(plt, plats, effs, pp, shape, out_dir, name, question="single"):
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    for idx, app in enumerate(APPLICATIONS):
        row = sorted(((e or 0.0, platform_name(p)) for p, (e, _) in effs[app][shape].items()), reverse=True)
        xs = list(range(1, len(row) + 1))
        ys = [e for e, _ in row]
        line, = ax.plot(xs, ys, marker="o", label=f"{app} (PP {pp[app][shape] or 0:.2f})")
        running = [pennycook(ys[:k]) for k in xs]
        ax.plot(xs, running, linestyle="--", color=line.get_color(), linewidth=1)
        for x, (e, label) in zip(xs, row):
            ax.annotate(label, (x, e), textcoords="offset points", xytext=(4, -9 - 2 * idx), fontsize=5.5,
                        color=line.get_color())
    ax.set_xticks(range(1, len(plats) + 1))
    ax.set_xlabel("platforms, each application's in descending order of efficiency")
    ax.set_ylabel(f"{QUESTION_WORDS[question][0]} (dashed: PP so far)")
    ax.set_ylim(0, max(1.05, max((e or 0.0 for app in APPLICATIONS for e, _ in effs[app][shape].values()),
                                 default=0) + 0.05))
    ax.set_title(f"Cascade, {shape} ({QUESTION_WORDS[question][1]})")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="lower left")
    path = os.path.join(out_dir, name)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return name


def navigation_chart(plt, pp, shapes, convergence, out_dir, name, question="single"):
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    markers = ["o", "s", "^", "D"]
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]  # as the cascade plots colour them
    for idx, app in enumerate(APPLICATIONS):
        c = convergence.get(app)
        if c is None:
            continue
        for m, s in zip(markers, shapes):
            ax.scatter([c], [pp[app][s] or 0.0], marker=m, s=40, color=colors[idx % len(colors)])
        ax.annotate(app, (c, max(pp[app][s] or 0.0 for s in shapes)), textcoords="offset points", xytext=(5, 4),
                    fontsize=8)
    for m, s in zip(markers, shapes):
        ax.scatter([], [], marker=m, color="gray", label=s)
    ax.set_xlim(-0.02, 1.05)
    ax.set_ylim(-0.02, 1.05)
    ax.set_xlabel("code convergence (1 - divergence, kernels)")
    ax.set_ylabel("performance portability (PP)")
    ax.set_title(f"Navigation chart ({QUESTION_WORDS[question][1].split(':')[0]}): up is faster everywhere, "
                 "right is one code", fontsize=9)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, name), dpi=110)
    plt.close(fig)
    return name


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


def page_shapes(runs, plats):
    """The first page's two sizes: the two largest that every platform measured (its default runs),
    so that each has a PP; the two largest measured anywhere where no size has every platform."""
    present = {k[3] for k in runs}
    everywhere = [s for s in present if all((h, b, "", s) in runs for h, b in plats)]
    return sorted(everywhere or present, key=points)[-2:]


def first_page(w, plt, study_dirs, loc, divergence, out_dir, caveats=()):
    """Writes the first page: both questions, each with its table, PP, plots and recommendation.
    Returns the runs it used, for the provenance section and the evidence:
    {(hardware, build, label, shape): (result, directory)} of each run's first (checked) round."""
    runs, triads, cpus = load_study(study_dirs)
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
        return {k: v[0] for k, v in runs.items()}
    parts, verdicts, shorts = [], [], []
    for question in QUESTIONS:
        verdict, short = question_part(parts.append, plt, question, runs, triads, plats, shapes, lines, conv,
                                       conv_program, conv_na, out_dir)
        verdicts.append(verdict)
        shorts.append(short)
    import first_screen  # the screen reads this module's metrics
    first_screen.write(w, runs, triads, plats, shapes, loc, study_commits, caveats)
    w(f"Platforms: {', '.join(platform_name(p) for p in plats)}"
      + "".join(f"; {h} = {n}" for h, n in sorted(cpus.items())) + ". "
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
      "it was not measured at the study's commit.\n" + "".join(f"{n}\n" for n in (lines_note, conv_note) if n))
    offload = [platform_name(p) for p in plats if p[1] == "openmptarget"]
    w("**Kokkos versions.** Kokkos removed its OpenMPTarget backend in 5.1 (kokkos issue 8696, PR 8717: "
      "maintenance \"not justified by its current usage or performance\"). Every Kokkos OpenMP offload figure "
      f"here (Kokkos {' and '.join(kokkos_versions(runs))}) holds for Kokkos 5.0 and older only; on Kokkos 5.1 and "
      f"later the offload platforms ({', '.join(offload) or 'none measured here'}) have no Kokkos code, and "
      f"Kokkos' PP over these {len(plats)} platforms is then 0.\n")
    return {k: v[0] for k, v in runs.items()}


def other_kokkos_builds(runs):
    """{build name: its Kokkos version} of the study's builds against another Kokkos (bench/study.sh
    OTHER_KOKKOS: a preset's name with a suffix, e.g. cuda-k46), from their runs' build records."""
    found = {}
    for (_, build, label, _), rounds in runs.items():
        preset, _, suffix = build.partition("-")
        if preset in TOOLCHAINS and suffix and label in ("", SINGLE_STEPS):
            for r, _ in rounds:
                if r.get("status") == "ok":
                    found[build] = kokkos_release(r.get("build", {}).get("kokkos_version", "?"))
    return found


def screen_apps(runs):
    """The first screen's rows: (label, app, suffix or None): every application, then each Kokkos
    application again for each other Kokkos (the builds of one suffix, one row over their presets:
    cuda-k46, openmptarget-k46, host-k46), the Kokkos rows labelled with their versions."""
    others = {}
    for build, version in other_kokkos_builds(runs).items():
        others.setdefault(build.partition("-")[2], set()).add(version)
    own_versions = kokkos_versions(runs, others=False)
    own = " (" + " / ".join(own_versions) + ")" if others else ""
    rows = [(app + (own if app.startswith("Kokkos") else ""), app, None) for app in APPLICATIONS]
    for suffix, versions in sorted(others.items(), key=lambda x: sorted(x[1])):
        # (the suffix too where the version alone does not tell the rows apart)
        said = " / ".join(sorted(versions)) + (f", {suffix}" if sorted(versions) == own_versions else "")
        rows += [(f"{app} ({said})", app, suffix) for app in APPLICATIONS if app.startswith("Kokkos")]
    return rows


def screen_samples(runs, platform, app, suffix, size, question):
    """A first-screen cell's runs: su_samples, or the same code's in the platform's build against
    another Kokkos (its preset's name with that suffix)."""
    if suffix is None:
        return su_samples(runs, platform, app, size, question)[0]
    if platform[1] not in APPLICATIONS[app]:
        return []
    impl, label = APPLICATIONS[app][platform[1]]
    return impl_samples(runs, platform, impl, label, size, question, build_name=f"{platform[1]}-{suffix}")[0]


def interleaving(runs):
    """How the repeated runs were taken, by their files' dates, each group of codes compared with each
    other on its own (a study folder's platform at one size: its builds, one machine, one part):
    "interleaved" where every plan's round k ran before any plan's round k + 1, "back to back" where
    some plan ran its rounds in a row past another's, None where no cell has two runs."""
    by_group = {}
    for (hardware, build, _, shape), rounds in runs.items():
        for folder in {d for _, d in rounds}:  # a pooled platform's machines each on their own
            dates = sorted(r.get("date", "") for r, d in rounds if d == folder)
            for k, date in enumerate(dates if len(dates) > 1 else []):
                group = (folder, hardware, build.partition("-")[0], shape)
                by_group.setdefault(group, {}).setdefault(k, []).append(date)
    if not by_group:
        return None
    for ks in by_group.values():
        if any(max(ks[k]) > min(ks[k + 1]) for k in range(len(ks) - 1)):
            return "back to back"
    return "interleaved"


def page_builds(runs):
    """{preset: [the build records of the page's own runs]} (the presets' default and single-step runs)."""
    found = {}
    for (_, build, label, _), rounds in runs.items():
        if build in TOOLCHAINS and label in ("", SINGLE_STEPS):
            found.setdefault(build, []).extend(r.get("build", {}) for r, _ in rounds if r.get("status") == "ok")
    return found


def kokkos_versions(runs, others=True):
    """The Kokkos versions of the page's own runs, and of the builds against another Kokkos (others)."""
    return sorted({kokkos_release(b.get("kokkos_version", "?"))
                   for builds in page_builds(runs).values() for b in builds}
                  | (set(other_kokkos_builds(runs).values()) if others else set()))


def compilers_by_toolchain(runs):
    """{toolchain: "nvcc 13.0.88"}: each toolchain's compilers in the page's own runs."""
    found, builds = {}, page_builds(runs)
    for preset in TOOLCHAINS:
        names = {re.sub(r" \(host .*\)$", "", b.get("compiler", "?")) for b in builds.get(preset, [])}
        if names:
            found[TOOLCHAINS[preset]] = " / ".join(sorted(names))
    return found


def compilers(runs):
    """Each toolchain's compilers in the page's own runs: "CUDA nvcc 13.0.88, OpenMP offload Clang 19.1.7, ..."."""
    return ", ".join(f"{toolchain} {names}" for toolchain, names in compilers_by_toolchain(runs).items())


def platforms_by_commit(runs):
    """{commit: [platform names]} of the first page's own runs (the presets' default builds, default and
    single-step plans; variants are evidence): the study's commits."""
    by_commit = {}
    for (hardware, build, label, _), rounds in runs.items():
        if build in TOOLCHAINS and label in ("", SINGLE_STEPS):
            for r, _ in rounds:
                names = by_commit.setdefault(r.get("build", {}).get("git_commit", "?"), [])
                if platform_name((hardware, build)) not in names:
                    names.append(platform_name((hardware, build)))
    return by_commit


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
        ratios = []
        for app, spec in APPLICATIONS.items():
            impl, label = spec.get("host", (None, None))
            if not impl or label:
                continue
            got = [(s, su_samples(runs, platform, app, s, "best")[0],
                    su_samples(runs, platform, app, s, "best", "unbound")[0]) for s in shapes]
            got = [(s, bound, free) for s, bound, free in got if bound and free and bound != [0.0]]
            if got:  # the sizes where the study has both (the unbound runs may stop short of the largest)
                ratios.append(f"{app} " + " / ".join(f"{statistics.median(free) / statistics.median(bound):.2f}"
                                                     + ("" if len(got) == len(shapes) else f" at {size_name(s)}")
                                                     for s, bound, free in got))
        if ratios:
            per_cpu.append(f"{platform[0]}: " + ", ".join(ratios))
    if per_cpu:
        text += (f"; with OMP_PROC_BIND=false (label unbound, the same rounds) each code ran at these times its bound "
                 f"median ({' / '.join(size_name(s) for s in shapes)}): " + "; ".join(per_cpu))
    else:
        text += "; the unbound runs are not in this study"
    return text + ".\n"


def pp_over_sizes_plot(plt, runs, triads, plats, question, out_dir, name):
    """PP of each application at every size the study ran (all platforms), one line each."""
    sizes = sorted({k[3] for k in runs}, key=points)
    _, _, pp = table(runs, triads, sizes, question)
    fig, ax = plt.subplots(figsize=(6.5, 3.6))
    for app in APPLICATIONS:
        xs = [round(points(s) ** (1 / 3)) for s in sizes if pp[app][s] is not None]
        ys = [pp[app][s] for s in sizes if pp[app][s] is not None]
        ax.plot(xs, ys, marker="o", label=app)
    ax.set_xlabel("grid edge (cubes; interior points^(1/3))")
    ax.set_ylabel(f"PP ({QUESTION_WORDS[question][0]})")
    ax.set_ylim(0, 1.05 if question == "single" else 1.1)
    ax.set_title(f"PP over the sizes ({QUESTION_WORDS[question][1].split(':')[0]})", fontsize=9)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, name), dpi=110)
    plt.close(fig)
    return name


def subset_leaders(effs, plats, shape):
    """{k: {app: the k-platform subsets where it has the highest PP (ties count for each)}}: how the
    ranking depends on the platforms chosen, as the P3 cascade reads. An application with an unmeasured
    cell in a subset does not compete there; a subset where none is measured everywhere is not counted."""
    import itertools
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


def subsets_table(w, effs, plats, shape):
    counts = subset_leaders(effs, plats, shape)
    w(f"Which application has the highest median PP over each subset of the platforms ({shape}; equal "
      "medians counted for each; the cascade's reading; an application not measured on a platform of a subset "
      "does not compete there). A lead here is no win where the ranges overlap: the recommendation below says "
      "which are ties.\n")
    w("| platforms in the subset | subsets | " + " | ".join(APPLICATIONS) + " |")
    w("|---" * (len(APPLICATIONS) + 2) + "|")
    for k, row in counts.items():
        w(f"| {k} | {row['subsets']} | " + " | ".join(str(row[a]) for a in APPLICATIONS) + " |")
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
    for s in shapes:
        name = cascade_plot(plt, plats, effs, pp, s, out_dir, f"cascade{tag}_" + s.split("x")[0] + ".png", question)
        w(f"![cascade {s}]({name})")
    if conv:
        w(f"![navigation chart]({navigation_chart(plt, pp, shapes, conv, out_dir, f'navigation{tag}.png', question)})")
    w("")
    w("| application | " + " | ".join(platform_name(p) for p in plats) + " | PP | lines | convergence |")
    w("|---" * (len(plats) + 4) + "|")
    for app in APPLICATIONS:
        cells = [" / ".join(fmt_eff(*effs[app][s][p], cell_ci[app][s][p]) for s in shapes) for p in plats]
        pps = " / ".join(fmt_pp(pp[app][s], pp_ci[app][s]) for s in shapes)
        conv_cell = f"{conv[app]:.2f} (program {conv_program[app]:.2f})" if app in conv else conv_na.get(app, "n/a")
        w(f"| {app} | " + " | ".join(cells) + f" | {pps} | {lines.get(app, 'n/a')} | {conv_cell} |")
    w("")
    if question == "best":
        w(fastest_holders(effs, plats, shapes))
    w(f"![PP over the sizes]({pp_over_sizes_plot(plt, runs, triads, plats, question, out_dir, f'pp_sizes{tag}.png')})\n")
    subsets_table(w, effs, plats, shapes[-1])
    verdict, short = recommendation(w, plats, effs, pp, shapes, lines, conv, pp_ci, question)
    # The verdict is against every Kokkos the study built: where another's rows change it, both say so.
    changed, rows = other_kokkos_part(w, other_kokkos_pp(runs, triads, plats, shapes, question, best), pp, pp_ci,
                                      shapes)
    if changed:
        verdict, short = f"{verdict} ({changed})", f"{short}, but not over {rows}"
    return verdict, short


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


def size_name(shape):
    n = shape.split("x")
    return f"{n[0]}^3" if len(set(n)) == 1 else shape


def short_verdict(shapes, per_size):
    """The ranking in a few words, size by size where it differs (the first screen's)."""
    said = [(f"{r[0]} leads" if len(t) == 1 else f"{' and '.join(t)} tie") for r, t, _ in per_size]
    if len(set(said)) == 1:
        return f"{said[0]} at {' and '.join(size_name(x) for x in shapes)}"
    return "; ".join(f"at {size_name(x)} {v}" for x, v in zip(shapes, said))


