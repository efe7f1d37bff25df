"""The evidence behind the first page, from the study directories (bench/study.sh and the
device scripts): the Kokkos effort ladder, the Kokkos 4.6.01 builds beside 3.4.01, the
hardware counters (bench/device/counters.sh) and compute-sanitizer's verdicts
(bench/device/sanitize.sh)."""
import csv
import os
import statistics

import portability as pp
import runfiles
from report_sections.inputs import HERE

HAND = {"cuda": "cuda", "openmptarget": "omp", "host": "cpu-openmp"}
KOKKOS_BACKEND = {"cuda": "cuda", "openmptarget": "openmptarget", "host": "openmp"}  # a preset's Kokkos codes


def su(runs, hardware, build, label, shape, impl):
    entry = runs.get((hardware, build, label, shape))
    if not entry or entry[0].get("status") != "ok":
        return None, None
    r = entry[0]
    res = next((i for i in r["implementations"] if i["id"] == impl), None)
    return (res, r) if res else (None, None)


def cell(rounds, hardware, build, label, shape, impl, question="single"):
    """(median SU/s over the run's rounds, mark), or (None, "") where not measured: the first page's
    samples (pp.impl_samples; question "single": single steps where the code sweeps; a later or held
    round counts as checked where its digest equals the checked run's). † unchecked, ‡ a check not bitwise."""
    preset = build.split("-")[0]
    samples, note = pp.impl_samples(rounds, (hardware, preset), impl, label, shape, question, build_name=build)
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
      f"toolchain (hand-written: `cuda`, `omp`), each cell {' / '.join(pp.size_name(s) for s in shapes)}. Rungs: "
      "the idiomatic form (`kokkos-*-mdrange`) with Kokkos' "
      "default tiles (in the axis order the backend needs: k first on CUDA), the idiomatic form with the policy "
      "file's tile, the tuned form (`kokkos-*`, the march); every rung takes single steps (question (a)). "
      "† unchecked run (a variant of a checked build), ‡ checked but not bitwise.\n")
    w("| backend | GPU | Kokkos | naive axes (i, j, k), default tiles | idiomatic, default tiles | "
      "idiomatic, policy tile | tuned | hand-written SU/s |")
    w("|---|---|---|---|---|---|---|---|")
    hardware = sorted({k[0] for k in rounds if not k[0].startswith("CPU")})
    for build in ("cuda", "openmptarget"):
        kid = f"kokkos-{build}"
        for h in hardware:
            measured = [s for s in shapes if (h, build, "", s) in rounds]
            hands = {s: cell(rounds, h, build, "", s, HAND[build]) for s in measured}
            sizes = [s for s in measured if hands[s][0] is not None]
            if not sizes:
                continue
            rungs = [" / ".join(fmt_rung(cell(rounds, h, build, label, s, impl), hands[s]) if s in sizes else "—"
                             for s in shapes)
                     for label, impl in (("naive-axes", f"{kid}-mdrange"), ("default-tiles", f"{kid}-mdrange"),
                                         ("", f"{kid}-mdrange"), ("", kid))]
            versions = sorted({pp.kokkos_release(rounds[(h, build, "", s)][0][0].get("build", {})
                                                 .get("kokkos_version", "?")) for s in sizes})
            w(f"| {pp.TOOLCHAINS[build]} | {h} | "
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
        hand = cell(rounds, h, base_build, "", s, HAND[base], "best")
        for impl in (f"kokkos-{KOKKOS_BACKEND[base]}-mdrange", f"kokkos-{KOKKOS_BACKEND[base]}"):
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
    w("| platform | implementation | " + " | ".join(shapes) + " | commits |")
    w("|---" * (len(shapes) + 3) + "|")
    for (h, impl), (cells, commits) in rows.items():
        w(f"| {h} | `{impl}` | " + " | ".join(cells.get(s, "—") for s in shapes) + f" | {', '.join(sorted(commits))} |")
    w("")


UNITS = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "nsecond": 1e-9, "usecond": 1e-6, "msecond": 1e-3,
         "ns": 1e-9, "us": 1e-6, "ms": 1e-3, "second": 1.0, "s": 1.0, "KB": 1e3, "MB": 1e6, "GB": 1e9, "B": 1.0}


def read_ncu(path):
    """{kernel name: {metric: [values per launch]}} from one ncu --csv file."""
    kernels = {}
    text = [line for line in runfiles.lines(path) if line.startswith('"')]
    for row in csv.DictReader(text):
        name, metric = row.get("Kernel Name"), row.get("Metric Name")
        if not name or not metric:
            continue
        unit = row.get("Metric Unit", "")
        if unit not in UNITS and unit not in ("", "%", "register/thread"):
            raise ValueError(f"{path}: unknown unit '{unit}' of {metric}")
        value = float(row["Metric Value"].replace(",", "")) * UNITS.get(unit, 1.0)
        kernels.setdefault(name, {}).setdefault(metric, []).append(value)
    return kernels


def study_files(dirs, pattern):
    return sorted(f for d in dirs for f in runfiles.glob(d, pattern))


def counters(w, dirs, runs):
    files = study_files(dirs, os.path.join("counters*", "ncu_*.csv"))
    if not files:
        return
    w("### Why the ratios are what they are: the hardware counters\n")
    w("Nsight Compute (`bench/device/counters.sh`: 9 step-kernel launches after 3, clocks and caches as the run "
      "leaves them) per GPU step: DRAM bytes read and written per site, their time and the bandwidth they reach, "
      "the main kernel's registers per thread and achieved occupancy, and the time between kernels (the sweep's "
      "best-chunk step time minus the kernels' sum).\n")
    w("| GPU | implementation | size | bytes/site | kernel time per step [ms] | DRAM TB/s | registers | "
      "occupancy | sweep step [ms] | between kernels |")
    w("|---|---|---|---|---|---|---|---|---|---|")
    gpu_of_dir = {d: h for (h, b, l, sh), (r, d) in runs.items() if not h.startswith("CPU")}
    rows = {}  # (hardware, impl, n) -> figures, for the explanation below the table
    for path in files:
        d = os.path.dirname(os.path.dirname(path))
        impl, n = os.path.basename(path)[len("ncu_"):-len(".csv")].rsplit("_", 1)
        kernels = read_ncu(path)
        if not kernels:
            w(f"| ? | `{impl}` | {n}^3 | no kernel profiled | | | | | | |")
            continue
        mean = {k: {m: sum(v) / len(v) for m, v in ms.items()} for k, ms in kernels.items()}
        sites = int(n) ** 3
        nbytes = sum(m.get("dram__bytes_read.sum", 0) + m.get("dram__bytes_write.sum", 0) for m in mean.values())
        seconds = sum(m.get("gpu__time_duration.sum", 0) for m in mean.values())
        main = max(mean.values(), key=lambda m: m.get("gpu__time_duration.sum", 0))
        build = "cuda" if impl in ("cuda", "kokkos-cuda", "kokkos-cuda-mdrange") else "openmptarget"
        hardware = gpu_of_dir.get(d, "?")
        res, _ = su(runs, hardware, build, "", f"{n}x{n}x{n}", impl)
        step = sites / res["best_su_per_s"] if res else None
        between = f"{(step - seconds) * 1e3:+.3f} ms ({100 * (step - seconds) / step:+.0f}%)" if step else "—"
        fig = {"bytes": nbytes / sites, "tbs": nbytes / seconds / 1e12, "regs": main.get("launch__registers_per_thread", 0),
               "occ": main.get("sm__warps_active.avg.pct_of_peak_sustained_active", 0),
               "gap": (step - seconds) / step if step else None}
        rows[(hardware, impl, int(n))] = fig
        w(f"| {hardware} | `{impl}` | {n}^3 | {fig['bytes']:.1f} | {seconds * 1e3:.3f} | {fig['tbs']:.2f} | "
          f"{fig['regs']:.0f} | {fig['occ']:.0f}% | {step * 1e3 if step else float('nan'):.3f} | {between} |")
    w("")
    explain(w, rows)


def explain(w, rows):
    """The table read for the first page's ratios (each number is in the table above)."""
    for h in sorted({k[0] for k in rows}):
        r = {(i, n): v for (hh, i, n), v in rows.items() if hh == h}
        need = [("cuda", 1000), ("cuda", 512), ("kokkos-cuda-mdrange", 1000), ("kokkos-cuda-mdrange", 512), ("omp", 512),
                ("kokkos-openmptarget", 512), ("kokkos-openmptarget-mdrange", 512), ("omp", 256)]
        if not all(k in r for k in need):
            continue
        c, m, m5 = r[("cuda", 1000)], r[("kokkos-cuda-mdrange", 1000)], r[("kokkos-cuda-mdrange", 512)]
        o, kt, km, o2 = (r[("omp", 512)], r[("kokkos-openmptarget", 512)], r[("kokkos-openmptarget-mdrange", 512)],
                         r[("omp", 256)])
        w(f"Read on the {h}: every code moves close to the 24 bytes a site of the model, except the idiomatic form "
          f"at 1000^3: {m['bytes']:.1f} B/site against hand CUDA's {c['bytes']:.1f} ({m5['bytes']:.1f} at 512^3). "
          "With one point per thread a point's x neighbours are other blocks' points; the likely cause is that at "
          "8 MB planes they leave the 50 MB L2 before that reuse (the excess is about half a field), where the "
          f"march keeps them in registers. There the forms differ in bytes, not in bandwidth ({m['tbs']:.2f} against "
          f"{c['tbs']:.2f} TB/s); at 512^3 in bandwidth, not in bytes ({m5['tbs']:.2f} against "
          f"{r[('cuda', 512)]['tbs']:.2f} TB/s). The OpenMP offload codes move the model's bytes too "
          f"({o['bytes']:.1f}, {kt['bytes']:.1f} and {km['bytes']:.1f} B/site at 512^3 for hand omp, tuned and "
          f"idiomatic Kokkos) but reach less bandwidth: {o['tbs']:.2f}, {kt['tbs']:.2f} and {km['tbs']:.2f} TB/s, "
          f"at {o['regs']:.0f}, {kt['regs']:.0f} and {km['regs']:.0f} registers ({o['occ']:.0f}%, {kt['occ']:.0f}% "
          f"and {km['occ']:.0f}% occupancy), and each synchronous target region adds time between kernels: "
          f"{100 * o['gap']:.0f}% of hand omp's step at 512^3, {100 * o2['gap']:.0f}% at 256^3.\n")


def sanitizer(w, dirs):
    files = study_files(dirs, os.path.join("sanitize*", "summary.txt"))
    if not files:
        return
    w("### compute-sanitizer\n")
    w("`bench/device/sanitize.sh`: memcheck, racecheck, initcheck and synccheck on every GPU implementation and "
      "form, 40x24x30, 4 steps, fused steps and split (three-kernel) steps, each run checked against the CPU "
      "reference. Verdicts as the tools printed them:\n")
    w("| implementation | tool | steps | exit | tool's summary | check |")
    w("|---|---|---|---|---|---|")
    for path in files:
        for line in runfiles.lines(path):
            parts = line.split()
            if len(parts) < 4:
                continue
            impl, tool, plan, status = parts[:4]
            rest = " ".join(parts[4:])
            check = "PASS" if "PASS" in rest else ("FAIL" if "FAIL" in rest else "—")
            summary = rest.split("PASS")[0].split("FAIL")[0].strip() or "—"
            w(f"| `{impl}` | {tool} | {plan} | {status.split('=')[1]} | {summary} | {check} |")
    w("")


def sweep_gain(w, rounds, shapes):
    """The two applications whose codes sweep, per platform and size: their cell of question (b) (the default
    plan, the sweep from its threshold) over their cell of (a) (single steps), the samples the first page takes
    (portability.su_samples): what (b) adds to (a)."""
    w("### What the sweep gives\n")
    w("Each sweeping code's median SU/s with its default plan (the three-step sweep) over its median with single "
      "steps (`-tune steps_per_sweep=1`), each over its rounds; in brackets the slowest sweep over the fastest single "
      "step to the fastest over the slowest: a range holding 1 is a tie. — where the code takes single steps by "
      "default or was not measured.\n")
    w("| platform | code | " + " | ".join(shapes) + " |")
    w("|---" * (len(shapes) + 2) + "|")
    for platform in sorted(pp.platforms_of(rounds), key=lambda p: (p[0].startswith("CPU"), p)):
        for app in ("hand-written", "Kokkos tuned"):
            cells = []
            for s in shapes:
                one, _ = pp.su_samples(rounds, platform, app, s, "single")
                best, note = pp.su_samples(rounds, platform, app, s, "best")
                if (*platform, pp.SINGLE_STEPS, s) not in rounds or not one or "sweep" not in note:
                    cells.append("—")
                    continue
                cells.append(f"{statistics.median(best) / statistics.median(one):.2f} "
                             f"[{min(best) / max(one):.2f}, {max(best) / min(one):.2f}]"
                             + (" tie" if pp.ranges_tie(best, one) else ""))
            if any(c != "—" for c in cells):
                w(f"| {pp.platform_name(platform)} | {pp.APPLICATIONS[app][platform[1]][0]} | " + " | ".join(cells) + " |")
    w("")


def census(w, study_dirs):
    """Every run the study's manifests planned: present or missing, and how its bits were held to the
    reference (checked point by point; a later round's -digest equal to its first round's reference
    digest, or a held run's to a checked run's at its size and steps; unchecked, marked †), refused,
    failed or not awave's result format."""
    w("### Every run, checked or marked\n")
    w("| results | planned | checked | held by digest | digest differs | unchecked † | refused | failed or invalid | "
      "missing |")
    w("|---|---|---|---|---|---|---|---|---|")
    for d in study_dirs:
        counts = dict.fromkeys(("planned", "checked", "digest", "differs", "unchecked", "refused", "failed",
                                "missing"), 0)
        references = {}  # run name without the round -> round 1's reference digests
        planned = []
        for path in runfiles.glob(d, "manifest-*.json"):
            planned += runfiles.load(path)["runs"]
        held_refs = pp.held_references(pp.load_study([d])[0])  # a held run's (sweep.py --held) references
        for run in sorted(planned, key=lambda r: r.get("round", 1)):
            counts["planned"] += 1
            path = os.path.join(d, run["name"] + ".json")
            if not runfiles.exists(path):
                counts["missing"] += 1
                continue
            r = pp.load_run(path)
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
    rounds, _, _ = pp.load_study(study_dirs)
    runs = {k: v[0] for k, v in rounds.items()}  # each run's first (checked) round
    w("## 1. Evidence for the first page\n")
    effort_ladder(w, rounds, loc, [s for s in shapes if any(k[3] == s for k in runs)])
    sweep_gain(w, rounds, shapes)
    census(w, study_dirs)
    kokkos_versions(w, rounds, shapes)
    counters(w, study_dirs, runs)
    sanitizer(w, study_dirs)
