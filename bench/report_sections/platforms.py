"""Sections 7-10: Kokkos versions side by side, the GPUs and the CPU as platforms, the targets."""
import os

from .common import (HAND_OF, KOKKOS_OF, KOKKOS_VARIANTS, best, cell, fmt_pct, fmt_su, gpu_shapes, kokkos_version_of,
                     load_all, pennycook, per_step_us, platform_limit, points, ratio_cell, ratio_value)
from .inputs import HERE


def kokkos_versions_section(w, runs, bench, platform, dirs=()):
    w("## 7. Kokkos versions side by side\n")
    pairs = [(v, base) for v, base in KOKKOS_VARIANTS.items()
             if any(p == platform and b == v for (p, b, s) in runs)]
    if not platform or not pairs:
        w("No builds against a second Kokkos version in these results.\n")
        return
    limit = platform_limit(bench, platform)
    commits = sorted({r["build"]["git_commit"] for (p, b, s), r in runs.items()
                      if p == platform and r.get("status") == "ok" and b in [x for pair in pairs for x in pair]})
    w(f"The same awave sources built against two Kokkos installations on the {platform}, each build run "
      "over the whole sweep in one session" +
      (f" (`{'`, `'.join(os.path.relpath(d, HERE) for d in dirs)}`; commits `{'`, `'.join(commits)}`: "
       "before the kernels of section 16, so the Kokkos 3.4.01 numbers here are not the newest sweep's" +
       ("; a commit marked `-dirty` was built from a tree with uncommitted changes, so those builds cannot be "
        "rebuilt exactly: an indication, not evidence" if any(c.endswith("-dirty") for c in commits) else "") +
       ")" if dirs else "") +
      ". The hand-written code is identical in both builds, so the ratio of its two measurements shows the "
      "run-to-run spread that a Kokkos difference must exceed.\n")
    versions = {}
    for variant, base in pairs:
        va, vb = kokkos_version_of(runs, platform, base), kokkos_version_of(runs, platform, variant)
        versions[base], versions[variant] = va, vb
        k, h = KOKKOS_OF[base], HAND_OF[base]
        w(f"### {k}: Kokkos {va} (`{base}`) against Kokkos {vb} (`{variant}`)\n")
        w(f"| shape | {k} {va} | {k} {vb} | {vb} / {va} | {h} / {h} (same code) | {k} / {h}, {va} | "
          f"{k} / {h}, {vb} |")
        w("|---|---|---|---|---|---|---|")
        for s in gpu_shapes(runs, platform, (base, variant)):
            ka, kb = best(runs, (platform, base, s), k), best(runs, (platform, variant, s), k)
            ha, hb = best(runs, (platform, base, s), h), best(runs, (platform, variant, s), h)
            w(f"| {s} | {cell(runs.get((platform, base, s)), k, lambda r: fmt_su(r['best_su_per_s']))} | "
              f"{cell(runs.get((platform, variant, s)), k, lambda r: fmt_su(r['best_su_per_s']))} | "
              f"{ratio_cell(kb, ka)} | {ratio_cell(hb, ha)} | {ratio_cell(ka, ha)} | {ratio_cell(kb, hb)} |")
        w("")
    if limit:
        w(f"Performance portability of Kokkos over {{CUDA, OpenMP offload}} on the {platform}, per Kokkos "
          "version (efficiency: best-chunk SU/s over the 24 B/site limit of section 1):\n")
        labels = sorted({versions[b] for b in versions})
        w("| shape | " + " | ".join(f"PP, Kokkos {v}" for v in labels) + " |")
        w("|---|" + "---|" * len(labels))
        for s in gpu_shapes(runs, platform, tuple(versions)):
            row = []
            for v in labels:
                effs = []
                for build, ver in versions.items():
                    if ver == v:
                        b = best(runs, (platform, build, s), KOKKOS_OF[KOKKOS_VARIANTS.get(build, build)])
                        effs.append(b / limit if b else None)
                row.append(f"{pennycook(effs):.2f}" if len(effs) == 2 else "-")
            w(f"| {s} | " + " | ".join(row) + " |")
        w("")


def platforms_section(w, runs, bench, platforms):
    gpus = [p for p in platforms if p != "build machine"]
    w("## 8. Platforms: every GPU measured\n")
    if len(gpus) < 2:
        w("Only one GPU platform in these results.\n")
    for p in gpus:
        limit = platform_limit(bench, p)
        cb, ob = bench.get((p, "cuda"), {}), bench.get((p, "openmptarget"), {})
        w(f"### {p}\n")
        if limit:
            w(f"Measured with `awave-devbench`: CUDA triad {cb['triad_bandwidth_gb_s']:.0f} GB/s (limit "
              f"{fmt_su(limit)} SU/s at 24 B/site)" + (f"; OpenMP offload triad {ob['triad_bandwidth_gb_s']:.0f} GB/s "
                                                       f"({ob['triad_bandwidth_gb_s'] / cb['triad_bandwidth_gb_s']:.2f} of CUDA's)"
                                                       if "triad_bandwidth_gb_s" in ob else "") + ".\n")
        impls = [("cuda", "cuda"), ("cuda", "kokkos-cuda"), ("openmptarget", "omp"), ("openmptarget", "kokkos-openmptarget")]
        w("| shape | " + " | ".join(i for _, i in impls) + " | omp / cuda |")
        w("|---|" + "---|" * (len(impls) + 1))
        for s in gpu_shapes(runs, p, ("cuda", "openmptarget")):
            row = [cell(runs.get((p, b, s)), i, lambda r: fmt_su(r["best_su_per_s"]) +
                        (f" ({fmt_pct(r['best_su_per_s'] / limit)})" if limit else "")) for b, i in impls]
            row.append(ratio_cell(best(runs, (p, "openmptarget", s), "omp"), best(runs, (p, "cuda", s), "cuda")))
            w(f"| {s} | " + " | ".join(row) + " |")
        w("")
    if len(gpus) >= 2 and all(platform_limit(bench, p) for p in gpus):
        version = kokkos_version_of(runs, gpus[0], "cuda")
        w(f"Performance portability over {{{', '.join(gpus)}}} x {{CUDA, OpenMP offload}} ({len(gpus) * 2} "
          f"platforms; Kokkos {version} builds; efficiency against each GPU's own measured limit). A "
          "hand-written code runs on half of them, so its PP over this set is 0; the last columns give its "
          "PP over the platforms it supports.\n")
        w("| shape | Kokkos | hand-written CUDA, over its GPUs | hand-written OpenMP, over its GPUs |")
        w("|---|---|---|---|")
        shapes = sorted(set.intersection(*(set(gpu_shapes(runs, p, ("cuda", "openmptarget"))) for p in gpus)),
                        key=lambda s: (len(set(s.split("x"))) > 1, points(s), s))
        for s in shapes:
            eff = {}
            for impl, b in (("kokkos-cuda", "cuda"), ("kokkos-openmptarget", "openmptarget"), ("cuda", "cuda"),
                            ("omp", "openmptarget")):
                vals = []
                for p in gpus:
                    x = best(runs, (p, b, s), impl)
                    vals.append(x / platform_limit(bench, p) if x else None)
                eff[impl] = vals
            w(f"| {s} | {pennycook(eff['kokkos-cuda'] + eff['kokkos-openmptarget']):.2f} | "
              f"{pennycook(eff['cuda']):.2f} | {pennycook(eff['omp']):.2f} |")
        w("")


def host_section(w, runs, cpus, platforms):
    w("## 9. Host backends\n")
    impls = ["cpu", "cpu-openmp", "kokkos-serial", "kokkos-openmp"]
    found = False
    for p in platforms:
        shapes = sorted({s for (pp, b, s) in runs if pp == p and b == "host"}, key=points)
        if not shapes:
            continue
        found = True
        r0 = next((runs[(p, "host", s)] for s in shapes if runs[(p, "host", s)].get("status") == "ok"), None)
        where = cpus.get(p, "the 2-core build machine (OMP_NUM_THREADS=2)" if p == "build machine" else p)
        w(f"### {where}\n")
        if r0:
            w(f"`host` preset: {r0['build']['compiler']}; {r0['build']['kokkos']}; {r0['params']['nsteps']} steps "
              f"in chunks of {r0['params']['out_period']}; checked against the serial CPU reference (`cpu`), "
              "whose own timing is the baseline.\n")
        w("| shape | " + " | ".join(f"{i} SU/s" for i in impls) + " | kokkos-serial / cpu | kokkos-openmp / cpu |")
        w("|---|" + "---|" * (len(impls) + 2))
        for s in shapes:
            run = runs[(p, "host", s)]
            row = [cell(run, i, lambda r: fmt_su(r["best_su_per_s"])) for i in impls]
            cpu = best(runs, (p, "host", s), "cpu")
            for k in ("kokkos-serial", "kokkos-openmp"):
                row.append(ratio_cell(best(runs, (p, "host", s), k), cpu))
            w(f"| {s} | " + " | ".join(row) + " |")
        w("")
    if not found:
        w("No host results.\n")


def targets_section(w, runs, bench, platforms, primary):
    w("## 10. Performance targets: measured against the goals\n")
    gpus = [p for p in platforms if p != "build machine"]
    if not primary:
        w("No GPU results.\n")
        return
    rows = []

    def span(values):
        values = [v for v in values if v is not None]
        return (min(values), max(values)) if values else None

    def fmt_span(sp, f="{:.2f}"):
        return "-" if not sp else (f.format(sp[0]) if sp[0] == sp[1] else f"{f.format(sp[0])}-{f.format(sp[1])}")

    for p in gpus:
        lim = platform_limit(bench, p)
        if lim:
            shares = [best(runs, (p, "cuda", s), "cuda") for s in ("512x512x512", "1000x1000x1000")]
            rows.append((f"hand CUDA, 512^3 and 1000^3, share of the 24 B/site limit ({p})",
                         " / ".join(fmt_pct(x / lim) if x else "-" for x in shares), ">= 95%",
                         all(x and x / lim >= 0.95 for x in shares)))
        cb, ob = bench.get((p, "cuda"), {}), bench.get((p, "openmptarget"), {})
        if "triad_bandwidth_gb_s" in cb and "triad_bandwidth_gb_s" in ob:
            r = ob["triad_bandwidth_gb_s"] / cb["triad_bandwidth_gb_s"]
            rows.append((f"OpenMP offload triad / CUDA triad ({p})", f"{r:.3f}", ">= 0.90", r >= 0.90))
        big = [s for s in gpu_shapes(runs, p, ("cuda",)) if points(s) >= 256 ** 3]
        sp = span([ratio_value(best(runs, (p, "openmptarget", s), "omp"), best(runs, (p, "cuda", s), "cuda")) for s in big])
        rows.append((f"hand OMP / hand CUDA, >= 256^3 ({p})", fmt_span(sp), ">= 0.90", bool(sp) and sp[0] >= 0.90))
        for base in [b for b in ("cuda", "cuda-k46") if any(pp == p and bb == b for (pp, bb, s) in runs)]:
            sp = span([ratio_value(best(runs, (p, base, s), "kokkos-cuda"), best(runs, (p, base, s), "cuda"))
                       for s in gpu_shapes(runs, p, (base,))])
            rows.append((f"Kokkos-CUDA / hand CUDA, every size (Kokkos {kokkos_version_of(runs, p, base)}, {p})",
                         fmt_span(sp), ">= 0.95 each", bool(sp) and sp[0] >= 0.95))
        for base in [b for b in ("openmptarget", "openmptarget-k46") if any(pp == p and bb == b for (pp, bb, s) in runs)]:
            sp = span([ratio_value(best(runs, (p, base, s), "kokkos-openmptarget"), best(runs, (p, base, s), "omp"))
                       for s in gpu_shapes(runs, p, (base,))])
            rows.append((f"Kokkos-OMPT / hand OMP, every size (Kokkos {kokkos_version_of(runs, p, base)}, {p})",
                         fmt_span(sp), ">= 0.95 each", bool(sp) and sp[0] >= 0.95))
    for impl, build, goal in (("cuda", "cuda", 3), ("kokkos-cuda", "cuda", 4), ("omp", "openmptarget", 30),
                              ("kokkos-openmptarget", "openmptarget", 30)):
        t = per_step_us(runs, (primary, build, "32x32x32"), impl)
        rows.append((f"time per step at 32^3, {impl} ({primary})", f"{t:.1f} us" if t else "-", f"<= {goal} us",
                     bool(t) and t <= goal))
    for p in platforms:
        shapes = [s for (pp, b, s) in runs if pp == p and b == "host"]
        if not shapes:
            continue
        if p == "build machine":
            sp = span([ratio_value(best(runs, (p, "host", s), "kokkos-serial"), best(runs, (p, "host", s), "cpu"))
                       for s in shapes])
            rows.append(("Kokkos-Serial / CPU reference (2-core build machine)", fmt_span(sp), ">= 0.9",
                         bool(sp) and sp[0] >= 0.9))
        else:
            x = ratio_value(best(runs, (p, "host", "256x256x256"), "kokkos-openmp"),
                            best(runs, (p, "host", "256x256x256"), "cpu"))
            rows.append((f"Kokkos-OpenMP on the {p} machine's CPU / serial CPU reference, 256^3",
                         f"{x:.1f}x" if x else "-", ">= 12x", bool(x) and x >= 12))
    lim = platform_limit(bench, primary)
    if lim:
        for base in ("cuda", "cuda-k46"):
            other = {"cuda": "openmptarget", "cuda-k46": "openmptarget-k46"}[base]
            kc, ko = best(runs, (primary, base, "512x512x512"), "kokkos-cuda"), best(runs, (primary, other, "512x512x512"),
                                                                                   "kokkos-openmptarget")
            if kc or ko:
                pp = pennycook([kc / lim if kc else None, ko / lim if ko else None])
                rows.append((f"PP of Kokkos {kokkos_version_of(runs, primary, base)} over {{CUDA, OpenMP offload}} "
                             f"on {primary}, 512^3", f"{pp:.2f}", ">= 0.85", pp >= 0.85))
    w("| what | measured | target | reached |")
    w("|---|---|---|---|")
    for what, measured, target, ok in rows:
        w(f"| {what} | {measured} | {target} | {'yes' if ok else '**no**'} |")
    w("")


def newest_sweep_targets(w, dirs):
    """Section 16's targets, from the newest sweep of each GPU (every run checked and bitwise)."""
    rows = []
    for d in dirs:  # "A+B": B's runs replace A's of the same build
        parts = [os.path.join(HERE, "results", x) if i else x for i, x in enumerate(d.split("+"))]
        if not all(os.path.isdir(x) for x in parts):
            continue
        runs, bench, _, _, platforms = load_all(parts)
        gpus = [p for p in platforms if p != "build machine"]
        if gpus:
            rows.append((d, gpus[0], runs, bench))
    if not rows:
        return
    w("The targets, from the newest sweep of each GPU (best chunk SU/s, every run checked against the CPU "
      "reference and bitwise; `bench/device/sweeps.sh OUT cuda:cuda` and `... openmptarget:openmptarget`; "
      "a size is left out where one of the two builds' runs is missing):\n")
    sizes = [f"{n}x{n}x{n}" for n in (256, 384, 512, 768, 1000)]
    w("| GPU | commit (sweep) | size | hand OMP / hand CUDA | Kokkos-OMPT / hand OMP | Kokkos-CUDA / hand CUDA | "
      "hand CUDA, share of the limit | PP of Kokkos over {CUDA, OpenMP offload} |")
    w("|---|---|---|---|---|---|---|---|")
    for d, p, runs, bench in rows:
        lim = platform_limit(bench, p)
        for s in sizes:
            c, kc = best(runs, (p, "cuda", s), "cuda"), best(runs, (p, "cuda", s), "kokkos-cuda")
            o, ko = best(runs, (p, "openmptarget", s), "omp"), best(runs, (p, "openmptarget", s), "kokkos-openmptarget")
            if not (c and o):
                continue
            commit = ", ".join(sorted({runs[(p, b, s)]["build"]["git_commit"] for b in ("cuda", "openmptarget")}))
            pp = pennycook([kc / lim if kc and lim else None, ko / lim if ko and lim else None])
            w(f"| {p} | `{commit}` (`{os.path.relpath(d.split('+')[0], HERE)}`{' + ' + d.split('+')[1] if '+' in d else ''}) | {s.split('x')[0]}^3 | {o / c:.2f} | {ko / o:.2f} | "
              f"{kc / c:.2f} | {fmt_pct(c / lim) if lim else '-'} | {pp:.2f} |")
    w("")
    w(NEWEST_TARGETS_TEXT)


# What the newest sweeps (above) and the shape study say about each target of issue 16.
NEWEST_TARGETS_TEXT = (
    "Targets: hand OMP / hand CUDA >= 0.80 at 256^3 and 384^3, >= 0.85 from 512^3; Kokkos-OMPT / hand OMP "
    ">= 0.95; Kokkos-CUDA / hand CUDA >= 0.95; hand CUDA >= 95% of the limit on the H100 and >= 90% on "
    "the H200 at 512^3 and 1000^3; PP >= 0.85 at 512^3. Both GPUs' rows are sweeps of 2026-11-24 of the "
    "cuda and openmptarget builds of `5f4d0b8` (`sweep-5f4d0b8` on each GPU, every run checked and "
    "bitwise): Kokkos-CUDA's branch-free march indexing through one offset, 16 planes a work item "
    "(below); work items in (k, j) tiles (`core/march_tiles.hpp`), hand omp with one work item per "
    "thread in a step region without a worksharing loop (below), Kokkos-OMPT in rows of k with clang's "
    "team cap lifted by the build and its march with sponge layers indexed through one offset (below). One sweep run per size moves by 5-10% between sessions for the offload builds; changes "
    "to them were measured interleaved instead (the tile layout: on the H100 at 1000^3 hand omp 9.11e10 "
    "and 9.17e10 against 7.78e10 and 7.78e10 with the layout before, "
    "`results/h100-2026-11-24/sweep-99be1ee/ab-1000`; at 512^3 8.54-8.89e10 against 7.87-7.93e10, "
    "`results/h100-2026-11-24/march-tiles-c82a63d`). Met: Kokkos-CUDA / hand CUDA at every size on "
    "both GPUs (H100 0.97-1.00, H200 0.97-0.98; how, after this list); hand OMP / hand CUDA at 384^3, "
    "768^3 and 1000^3 on the H100 (0.80, 0.95, 0.96) and at 768^3 and 1000^3 on the H200 (0.85, 0.91); "
    "hand CUDA's share at 384^3 and 512^3 on the H100 (95-96%). Missed, and what limits each, measured:\n\n"
    "- Hand CUDA's share of the limit (H100 91% at 1000^3, 90% at 768^3; H200 85% at 512^3, 82% at 1000^3). The limit is the "
    "triad's bandwidth over 24 B a site; `awave-cuda-shapes` (above) measured what the march's own access "
    "pattern reaches when it streams those 24 B and computes nothing (*stream*): on the H100 1.20e11 at "
    "512^3 (100% of the limit) but 1.12e11 at 1000^3 (93%), on the H200 1.72e11 at 512^3 (99%) and "
    "1.62e11 at 1000^3 (94%). On the H100 the interior kernel is at that ceiling: 1.165e11 at 512^3 (97% "
    "of *stream*), 1.100e11 at 1000^3 (98% of *stream*'s best), so what is left at 1000^3 is the access "
    "pattern of three 8 GB fields marched plane by plane, not the stencil. On the H200 it is not: 1.489e11 "
    "at 512^3 and 1.438e11 at 1000^3 against *stream*'s 1.72e11 and 1.62e11, and dropping the y "
    "neighbours' loads alone (*no-y*) gives 1.67e11 and 1.55e11: the two loads of rows j-1, j+1 cost 11% "
    "and 8% on the H200 (3% at 512^3 on the H100, whose memory is slower behind the same SMs), the z "
    "neighbours' under 1% more. Shapes with more bytes in flight recover little of it: *prefetch* +3% at 512^3 and +2% at "
    "1000^3 on the H200 but 0% to -5% on the H100 at the product's segments, *two-j* +1-2% on the H200 "
    "(-12% on the H100 at 1000^3, segment 16), *ldg* up to +2%, *two-k* (66 registers) -13% to -18%, and "
    "*shared-y* (the rows from shared memory, one barrier a plane) -5% to -8% on both GPUs. Evict-first hints "
    "for the fields touched once a step, to keep the lines of `now` cached (*evict-first*: `prev` through "
    "`__ldcs`, `next` through `__stcs`), lost 13-14% on the H200, and 2-4% with `now` through `__ldg` as well "
    "(*evict-first-ldg*; `results/h200-2026-11-24/cuda-shapes-28d45d5`, two rounds, medians). The block shapes and segments of the first study (above) were within 1%. None "
    "moved into the product: none gains on both GPUs.\n"
    "- Hand OpenMP offload against hand CUDA (H100 0.73 at 256^3 and 0.83 at 512^3; H200 0.72-0.73 at "
    "256^3-384^3 and 0.83 at 512^3; 0.65-0.85 and 0.58-0.76 in the sweeps of `ed62ef4`). Not the memory "
    "system: the offload triad reaches 0.93-0.94 (H100) and 0.89-0.90 (H200) of CUDA's "
    "(`devbench-*.json`). What moved it: the worksharing loop's code. The same march and tiles as an LLVM "
    "`ompx_bare` region (no worksharing code, ids by hand) ran 9.87e10 against 9.12e10 on the H100 at "
    "512^3 (`results/h100-2026-11-24/omp-shapes-bare`) and 1.21-1.23e11 against 1.03-1.11e11 on the H200 "
    "(`results/h200-2026-11-24/omp-shapes-99be1ee`), with 70 registers against 56. The same is reached in "
    "standard OpenMP by a `target teams` region holding one `parallel`, each thread's work item from "
    "`omp_get_team_num()` and `omp_get_thread_num()` (clang runs it SPMD; the runtime gives exactly the "
    "teams and threads asked, `results/h100-2026-11-24/omp-teams-probe/probe.jsonl`), provided the region "
    "holds no fallback for fewer threads: *teams-flag* (one item per thread, a device flag raised where "
    "the runtime gave fewer) 9.81e10 against *bare* 9.75e10 and *tiled* 8.95e10 (H100, 512^3, segment 16, "
    "56 registers); the fallback loop inline (*teams-inline*, 72 registers) 8.84e10; out of line, a call in "
    "the region, 4.6e10 (`results/h100-2026-11-24/omp-teams-probe`, `omp-teams-b568ac5`). Since `5f4d0b8` "
    "the product's step region has that form and refuses a field computed with fewer threads than asked "
    "(`AWAVE_OMP_LOOP=worksharing` runs the loop instead; GPU tests plant both). Interleaved against the "
    "worksharing loop in the same build: H100 +15-17% at 256^3, +13-15% at 512^3, +15% at 1000^3 "
    "(`results/h100-2026-11-24/omp-teams-5f4d0b8`); H200 +13%, +22-25%, +19-20% "
    "(`results/h200-2026-11-24/omp-teams-5f4d0b8`). What is left at 512^3 is clang's march itself (as "
    "*bare*: 0.86 of hand CUDA on the H100, 0.82 on the H200; 56 registers against nvcc's 32). At 256^3 "
    "the launch adds to that: an empty synchronous target region costs 25 us on the H100 and 45 us on "
    "the H200 (`devbench-openmptarget.json`) against 3-4 us for a CUDA launch, on steps of 150-200 us. Queueing the regions with `nowait` and ordering them "
    "by dependences (which would hide that cost) gave wrong results with clang 19's runtime (745 of 7315 "
    "points at 33x17x9, every run; `src/omp/wave_omp.cpp`), and so it did again with the product's region "
    "since `5f4d0b8`: *teams-nowait* (*teams-flag* queued with `nowait`, every step `depend(inout)` on one "
    "host variable, one `taskwait` after the last) missed the reference's bits in every setting at every "
    "size from 33^3 to 512^3 (and in 30 of 30 settings of 200 steps at 33^3), and it was faster only at "
    "33^3 (H100, `results/h100-2026-11-24/kokkos-ompt-team-83fc81a`: 1.05e9 against 5.4e8 SU/s; at "
    "256^3 6.3e10 against 7.4e10). Not the hidden helper threads that run such tasks racing on several "
    "streams: with one helper it missed the bits as well; with the helpers off it kept them, but the "
    "tasks then run undeferred and hide nothing (7.73e10 against 7.98e10 at 256^3; "
    "`results/h100-2026-11-24/omp-nowait-helpers-83fc81a`). The segment, 32 instead of 16 in the product, "
    "interleaved on the H200 (`results/h200-2026-11-24/omp-segment-99be1ee`, two rounds each): hand omp "
    "1.116/1.109e11 against 1.069/1.088e11 at 1000^3 (+3%), 1.044/0.974e11 against 1.046/1.031e11 at "
    "512^3 and 8.13/7.89e10 against 8.53/8.39e10 at 256^3 (-5%): not moved.\n"
    "- Kokkos-OMPT against hand OMP (H100 0.80-0.86, H200 0.75-0.83; 0.90-0.97 and 0.80-0.90 before hand "
    "omp's region lost its worksharing loop). Kokkos 3.4's RangePolicy region is the `distribute parallel "
    "for` that hand omp left (13-25% slower in the A/Bs above), and Kokkos' own form without it, the "
    "TeamPolicy region (`target teams` holding a `parallel`), runs at most 166400 threads "
    "(`MAX_ACTIVE_THREADS`: 1300 teams of 128, each looping over leagues). Measured at `83fc81a` "
    "(the Marched kernel through a TeamPolicy, one work item per member: 60 registers against 85; "
    "bitwise in the GPU tests; H100, interleaved with the RangePolicy, two rounds, best, "
    "`results/h100-2026-11-24/kokkos-ompt-team-83fc81a`): teams of 128 5.3/5.6e10 against 6.5/6.1e10 at "
    "256^3, 7.8/7.7e10 against 8.0/8.1e10 at 512^3, 6.4/6.4e10 against 8.6/8.6e10 at 1000^3 (teams of "
    "256 alike): fewer registers did not pay for the league loop, so the code was not kept. In Kokkos' own "
    "loop form hand omp is no faster: against hand omp's worksharing loop (`AWAVE_OMP_LOOP=worksharing`), "
    "interleaved in one call, Kokkos-OMPT was at 1.05/0.95 at 256^3, 0.96/0.97 at 512^3 and 0.94/0.94 at "
    "1000^3, against 0.79-0.86 of hand omp's default (H100, `results/h100-2026-11-24/omp-nowait-helpers-83fc81a`). "
    "On the H200 the same call gave 0.83-0.92 against the worksharing loop and 0.72-0.78 against the "
    "default (`results/h200-2026-11-24/omp-nowait-helpers-83fc81a`): there Kokkos' region code costs "
    "beside the form (it maps the functor to the device at every launch, `map(to: functor)`, and holds "
    "85 registers against the hand worksharing region's 76). Kokkos 4.6's RangePolicy region is the same "
    "`distribute parallel for`. So what is left is the region Kokkos generates, which a policy choice "
    "of awave's cannot change. The launch, now mended: Kokkos "
    "3.4's RangePolicy gives the region no `num_teams`, and clang 19's offload runtime then caps it at "
    "3200 teams (`LIBOMPTARGET_INFO=16`), so each thread loops over several work items where hand omp's "
    "have one. `LIBOMPTARGET_REUSE_BLOCKS_FOR_HIGH_TRIP_COUNT=0` lifts the cap, and the runtime reads it "
    "while the program loads, from the offload registration clang puts among the executable's "
    "constructors at priority 1: a constructor of awave's was too late, and a setenv from "
    "`.preinit_array` is lost when the C library sets up the environment. Since `8aee5b1` the "
    "openmptarget build sets it (unless the environment does) from the constructor of a shared "
    "library, `libawave_offload_team_cap.so` (`src/kokkos/offload_team_cap.cpp`), which runs before "
    "any of the executable's; the implementation's description says so, and `-json` records the "
    "variable. On the H100, interleaved (`results/h100-2026-11-24/kokkos-ompt-cap-8aee5b1`, two rounds, "
    "best): 8.62e10 and 8.68e10 against 8.08e10 and 8.07e10 with the cap set again at 1000^3 (+6%), "
    "level at 512^3; the runtime launched 7859469 blocks where it had launched 3200. What remains is "
    "the code inside the region: Kokkos 3.4 maps the functor (`map(to: functor)`) at every launch and "
    "indexes through its Views; its `Marched` kernel gets 89 registers against hand omp's 71-76 "
    "(`bench/omp_ptx_census.py`), and capping registers (`--minnctapersm` 7 and 8: 72 and 64 with "
    "spills) was slower (`results/h100-2026-11-24/omp-ptxas-8b49ef9`: 0.81-0.95 of no cap). Indexing "
    "the march with sponge layers (Kokkos-OMPT's only march) through one offset, as hand omp does, gives "
    "85 registers; on the H100 +1-8% to 512^3 and level at 1000^3 (`results/h100-2026-11-24/kokkos-ompt-offset-a407c5b`), "
    "on the H200 0 to +5% (`results/h200-2026-11-24/kokkos-ompt-offset-852e267`, both interleaved, two "
    "rounds; 0.88-0.92 of hand omp there). That march is also Kokkos-CUDA's for marches that meet a "
    "layer, and with one offset Kokkos-CUDA was 5-9% lower at every size from 256^3 in the H200 sweep of "
    "`4130739` (`results/h200-2026-11-24/sweep-4130739`; ptxas: 48 registers either way), so since "
    "`852e267` the indexing is the backend's choice (`march_one_offset`, `src/kokkos/kokkos_policy.hpp`): "
    "one offset for OpenMPTarget, the Views for CUDA, whose device code is then byte-identical to "
    "`ed62ef4`'s. "
    "Tiles of 4 rows for Kokkos-OMPT, slower under the cap, were level with it lifted "
    "(same H100 A/B, `AWAVE_KOKKOS_MARCH_ROWS=4`).\n"
    "- PP at 512^3 (H100 0.79, H200 0.65): the harmonic mean over the four platforms is held down by "
    "Kokkos-OMPT's share of the limit, bounded as above.\n\n"
    "How Kokkos-CUDA reached hand CUDA: the branch-free march (`undamped_march`, "
    "`src/kokkos/wave_kokkos.hpp`) indexes the three levels through one offset and two strides, as hand "
    "CUDA does, instead of each View's index arithmetic (`6f9c835`). On the H200, in two device calls of the same "
    "day, not interleaved (`results/h200-2026-11-24/kokkos-unroll-cbb39ec`, setting *range*, against "
    "*range* of `kokkos-launch-9ab3bfd`, medians; hand CUDA 1.478-1.487e11 and 1.442e11 in the first, 1.472-1.473e11 and 1.432-1.433e11 in the second), that took Kokkos-CUDA from 1.385e11 to 1.436e11 at 512^3 and "
    "from 1.363e11 to 1.407e11 at 1000^3, and the sweeps of `6f9c835` "
    "gave 0.97-0.99 on the H200 and 0.97-1.00 up to 512^3 on the H100 (0.94-0.96 and 0.94-0.98 before). But "
    "on the H100 the 32-plane march of large planes lost with it: 1.014e11 against 1.089e11 at 768^3 and "
    "9.80e10 against 1.080e11 at 1000^3 (sweeps of `6f9c835` and `3e7614a`). Interleaved on the H100 "
    "with the `6f9c835` build (`results/h100-2026-11-24/kokkos-segment-6f9c835`, `AWAVE_KOKKOS_SEGMENT`, "
    "two rounds, medians): 16 planes gave 1.083e11 and 1.085e11 at 768^3, 1.097e11 twice at 1000^3, "
    "against 1.002e11 and 9.76e10 with 32 (hand CUDA 1.085-1.088e11, 1.095-1.096e11). On the H200, "
    "interleaved with the `e6f9f03` build (`results/h200-2026-11-24/kokkos-segment-e6f9f03`, two rounds, "
    "medians), 16 planes cost under 1%: 1.428e11 and 1.429e11 against 1.441e11 and 1.436e11 with 32 at "
    "768^3, 1.395e11 and 1.397e11 against 1.408e11 and 1.406e11 at 1000^3 (8 planes 1.384e11, 1.364e11; "
    "hand CUDA 1.461e11, 1.434e11). So `e6f9f03` marches 16 planes (`src/kokkos/kokkos_policy.hpp`): "
    "+9% on the H100 for -1% on the H200, 0.97 of hand CUDA or more on both. What was ruled out, on the H200 "
    "(`results/h200-2026-11-24/kokkos-launch-9ab3bfd`, `kokkos-split-ab7ba5e`, `kokkos-unroll-cbb39ec`, "
    "every setting checked bitwise at 192^3; the code is on branch `exp/kokkos-split-march`): Kokkos 3.4 "
    "runs the step kernel (48 registers) in 64-thread blocks, the smallest block of its best occupancy, "
    "and hand CUDA in 64-thread blocks is 2-3.5% slower than in its 256 (1.444e11 against 1.478e11 at "
    "512^3); teams of 128-512 threads (`TeamPolicy`, which asks for shared memory before L1) were 17-25% "
    "slower; launch bounds for full occupancy spilled and halved the rate; a step split into a branch-free "
    "interior kernel at 32 registers (unrolled twice) and the two layer kernels reached 1.493e11 at 512^3, "
    "above hand CUDA, but 1.232e11 at 1000^3 and 1.247e11 at 256^3, below the one-kernel step.\n\n")
