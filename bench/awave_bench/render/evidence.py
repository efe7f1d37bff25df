"""The evidence behind the first page, from the study directories (bench/study.sh): the Kokkos effort ladder,
what the sweep gives, the census of every run, the Kokkos 4.6.01 builds beside 3.4.01. (The hardware counters and
compute-sanitizer's verdicts of an earlier study, bench/studies/gpu-counters-sanitizer/, are in its README:
results/h100-2026-11-25/study-a4ec059.)"""
import os
import statistics

from ..catalog import toolchains
from ..catalog.paths import BENCH as HERE
from ..metrics import pp, verdicts
from ..runs import files as runfiles, record, study
from .markdown import table_head



def code(application, toolchain):
    """The implementation id of an application on a toolchain (the backend folders' backend.json)."""
    return study.APPLICATIONS[application][toolchain][0]


def cell(rounds, hardware, build, label, shape, impl, question="single"):
    """(median SU/s over the run's rounds, mark), or (None, "") where not measured: the first page's
    samples (study.impl_samples; question "single": single steps where the code sweeps; a later or held
    round counts as checked where its digest equals the checked run's). † unchecked, ‡ a check not bitwise."""
    preset = build.split("-")[0]
    samples, note = study.impl_samples(rounds, (hardware, preset), impl, label, shape, question, build_name=build)
    if not samples:
        return None, ""
    if "FAILS" in note:
        return 0.0, " (fails its check)"
    results = [i for r, _ in rounds.get((hardware, build, label, shape), []) for i in r.get("implementations", [])
               if i["id"] == impl]
    mark = " ‡" if any(i.get("checked") and not i.get("bitwise", True) for i in results) else ""
    return statistics.median(samples), mark or (" †" if "unchecked" in note else "")


def fmt_rung(value, hand):
    """A cell as its fraction of the hand-written code's (value, hand: cell()'s pairs), with its mark."""
    su_s, mark = value
    if su_s is None:
        return "—"
    if not su_s:
        return f"0{mark}"
    return (f"{su_s / hand[0]:.2f}" if hand and hand[0] else f"{su_s:.3g}") + mark


def effort_ladder(w, rounds, loc, shapes):
    lines = pp.application_lines(loc)
    parts = {k: v["lines"] for k, v in (loc or {}).get("parts", {}).items()}
    w("### The Kokkos effort ladder\n")
    w(f"Each rung's median SU/s over its rounds as a fraction of the hand-written code's on the same GPU and "
      f"toolchain (hand-written: `cuda`, `omp`), each cell {' / '.join(study.size_name(s) for s in shapes)}. Rungs: "
      "the idiomatic form (`kokkos-*-mdrange`) with Kokkos' "
      "default tiles (in the axis order the backend needs: k first on CUDA), the idiomatic form with the policy "
      "file's tile, the tuned form (`kokkos-*`, the march); every rung takes single steps (question (a)). "
      "† unchecked run (a variant of a checked build), ‡ checked but not bitwise.\n")
    table_head(w, ["backend", "GPU", "Kokkos", "naive axes (i, j, k), default tiles", "idiomatic, default tiles",
                      "idiomatic, policy tile", "tuned", "hand-written SU/s"])
    hardware = sorted({k[0] for k in rounds if not k[0].startswith("CPU")})
    for build in toolchains.ON_DEVICE:
        tuned, idiomatic = code("Kokkos tuned", build), code("Kokkos idiomatic", build)
        for h in hardware:
            measured = [s for s in shapes if (h, build, "", s) in rounds]
            hands = {s: cell(rounds, h, build, "", s, code("hand-written", build)) for s in measured}
            sizes = [s for s in measured if hands[s][0] is not None]
            if not sizes:
                continue
            rungs = [" / ".join(fmt_rung(cell(rounds, h, build, label, s, impl), hands[s]) if s in sizes else "—"
                             for s in shapes)
                     for label, impl in (("naive-axes", idiomatic), ("default-tiles", idiomatic), ("", idiomatic),
                                         ("", tuned))]
            versions = sorted({record.kokkos_release(rounds[(h, build, "", s)][0][0].get("build", {})
                                                 .get("kokkos_version", "?")) for s in sizes})
            w(f"| {study.TOOLCHAINS[build]} | {h} | "
              f"{', '.join(versions)} | " + " | ".join(rungs) + " | "
              + " / ".join(f"{hands[s][0]:.3g}" if s in sizes else "—" for s in shapes) + " |")
    w("")
    if any(k[1] == "openmptarget" for k in rounds):
        w("Kokkos 3.4's OpenMPTarget MDRange ignores tiles (one `collapse(3)` loop over the axes), and its needed "
          "order is (i, j, k): the first three rungs coincide there (the table shows the runs as measured).\n")
    if parts:
        idio = parts.get("kokkos shared", 0) + parts.get("kokkos idiomatic", 0)
        w("Lines of code (non-blank, non-comment, `bench/count_loc.py`): both forms share "
          f"{parts.get('kokkos shared', '?')} (the class, fields, registration, policy); the idiomatic step adds "
          f"{parts.get('kokkos idiomatic', '?')} ({idio} in all), the tuned step {parts.get('kokkos tuned', '?')} "
          f"more, the register march it shares with hand CUDA {parts.get('register march', '?')} and "
          f"the work-item tiles it shares with hand omp {parts.get('march tiles', '?')} "
          f"({lines.get('Kokkos tuned', '?')} in all, the idiomatic step included: small grids run it); hand CUDA "
          f"{parts.get('cuda', '?')}, hand OpenMP offload {parts.get('omp', '?')} (+{parts.get('march tiles', '?')} "
          f"tiles; its own march, measured in `march-once`), the threaded CPU code {parts.get('cpu-openmp', '?')}; "
          f"the core every code shares "
          f"{parts.get('shared core', '?')} (counted at `{loc.get('git_commit', '?')}`).\n")


def plain(r):
    """A run of the build as it is: no tuning key, no environment variant."""
    return not r.get("tuning") and not r.get("sweep", {}).get("env")


def kokkos_versions(w, rounds, shapes):
    rows = {}  # (hardware, implementation) -> {size: cell}, and the commits of its runs
    for (h, build, label, s), runs in sorted(rounds.items()):
        r, d = runs[0]
        if not build.endswith("-k46") or r.get("status") != "ok" or not plain(r):
            continue
        base = build[:-4]
        # The 3.4.01 build run beside it in the same call (named -k34), else the study's.
        same_call = rounds.get((h, base + "-k34", "", s))
        base_build = base + "-k34" if same_call and same_call[0][1] == d else base
        old_run = (rounds.get((h, base_build, "", s)) or [({}, "")])[0][0]
        hand = cell(rounds, h, base_build, "", s, code("hand-written", base), "best")
        for impl in (code("Kokkos idiomatic", base), code("Kokkos tuned", base)):
            new = cell(rounds, h, build, label, s, impl, "best")
            if new[0] is not None:
                row = rows.setdefault((h, impl), ({}, set()))
                row[0][s] = f"{fmt_rung(new, hand)} / {fmt_rung(cell(rounds, h, base_build, '', s, impl, 'best'), hand)}"
                commits = (r["build"]["git_commit"], old_run.get("build", {}).get("git_commit", "—"))
                row[1].add(f"`{commits[0]}`" if commits[0] == commits[1] else f"`{commits[0]}` / `{commits[1]}`")
    if not rows:
        return
    w("### Kokkos 4.6.01 beside 3.4.01\n")
    w("The same sources built against Kokkos 4.6.01 (upstream, with the CUDA 13 API guards docs/kokkos.md names) and "
      "against the bootstrapped 3.4.01, on the same platform, in the same device call where the 3.4.01 build ran beside "
      "it: each one's median SU/s over its rounds as a fraction of the 3.4.01 build's hand-written code's, each cell "
      "4.6.01 / 3.4.01; the commits of both builds' runs (4.6.01 / 3.4.01 where they differ):\n")
    table_head(w, ["platform", "implementation", *shapes, "commits"])
    for (h, impl), (cells, commits) in rows.items():
        w(f"| {h} | `{impl}` | " + " | ".join(cells.get(s, "—") for s in shapes) + f" | {', '.join(sorted(commits))} |")
    w("")


def sweep_gain(w, rounds, shapes):
    """The two applications whose codes sweep, per platform and size: their cell of question (b) (the default
    plan, the sweep from its threshold) over their cell of (a) (single steps), the samples the first page takes
    (study.su_samples): what (b) adds to (a)."""
    w("### What the sweep gives\n")
    w("Each sweeping code's median SU/s with its default plan (the three-step sweep) over its median with single "
      "steps (`-tune steps_per_sweep=1`), each over its rounds; in brackets the slowest sweep over the fastest single "
      "step to the fastest over the slowest: a range holding 1 is a tie. — where the code takes single steps by "
      "default or was not measured.\n")
    table_head(w, ["platform", "code", *shapes])
    for platform in sorted(study.platforms_of(rounds), key=lambda p: (p[0].startswith("CPU"), p)):
        for app in ("hand-written", "Kokkos tuned"):
            cells = []
            for s in shapes:
                one, _ = study.su_samples(rounds, platform, app, s, "single")
                best, note = study.su_samples(rounds, platform, app, s, "best")
                if (*platform, study.SINGLE_STEPS, s) not in rounds or not one or "sweep" not in note:
                    cells.append("—")
                    continue
                cells.append(f"{statistics.median(best) / statistics.median(one):.2f} "
                             f"[{min(best) / max(one):.2f}, {max(best) / min(one):.2f}]"
                             + (" tie" if verdicts.ranges_tie(best, one) else ""))
            if any(c != "—" for c in cells):
                w(f"| {study.platform_name(platform)} | {study.APPLICATIONS[app][platform[1]][0]} | " + " | ".join(cells) + " |")
    w("")


def census(w, study_dirs):
    """Every run the study's manifests planned: present or missing, and how its bits were held to the
    reference (checked point by point; a later round's -digest equal to its first round's reference
    digest, or a held run's to a checked run's at its size and steps; unchecked, marked †), refused,
    failed or not awave's result format."""
    w("### Every run, checked or marked\n")
    table_head(w, ["results", "planned", "checked", "held by digest", "digest differs", "unchecked †", "refused",
                      "failed or invalid", "missing"])
    for d in study_dirs:
        counts = dict.fromkeys(("planned", "checked", "digest", "differs", "unchecked", "refused", "failed",
                                "missing"), 0)
        references = {}  # run name without the round -> round 1's reference digests
        planned = []
        for path in runfiles.glob(d, "manifest-*.json"):
            planned += runfiles.load(path)["runs"]
        held_refs = study.held_references(study.load_study([d])[0])  # a held run's (sweep.py --held) references
        for run in sorted(planned, key=lambda r: r.get("round", 1)):
            counts["planned"] += 1
            path = os.path.join(d, run["name"] + ".json")
            if not runfiles.exists(path):
                counts["missing"] += 1
                continue
            r = study.load_run(path)
            status = r.get("status")
            if status != "ok":
                counts["refused" if status == "refused" else "failed"] += 1
                continue
            impls = r["implementations"]
            base = run["name"].split(".r")[0]
            if run.get("round", 1) == 1:
                references[base] = {i.get("digest") for i in impls if i.get("is_reference")}
            if run["checked"]:
                counts["checked"] += 1
            elif run.get("held") and held_refs.get(("x".join(map(str, run.get("shape", ()))), run.get("nsteps"))):
                refs = held_refs[("x".join(map(str, run["shape"])), run["nsteps"])]
                same = all(i.get("digest") in refs for i in impls)
                counts["digest" if same else "differs"] += 1
            elif run.get("round", 1) > 1 and references.get(base):
                same = all(i.get("digest") in references[base] for i in impls if not i.get("is_reference"))
                counts["digest" if same else "differs"] += 1
            else:
                counts["unchecked"] += 1
        w(f"| `{os.path.relpath(d, os.path.dirname(HERE))}` | " + " | ".join(str(v) for v in counts.values()) + " |")
    w("")


def evidence(w, study_dirs, loc, shapes=("256x256x256", "512x512x512", "1000x1000x1000")):
    rounds, _, _ = study.load_study(study_dirs)
    w("## 1. Evidence for the first page\n")
    effort_ladder(w, rounds, loc, [s for s in shapes if any(k[3] == s for k in rounds)])
    sweep_gain(w, rounds, shapes)
    census(w, study_dirs)
    kokkos_versions(w, rounds, shapes)
