"""Sections 1-4 and 6 (the bandwidth limit, SU/s against size, fraction of the limit, Kokkos against the
hand-written code, small problems), from the primary GPU's sweeps (the earlier reports' sections 5 and
11, the first study's PP and recommendation, are left out: the first page answers)."""
import matplotlib.pyplot as plt  # the Agg backend: bench/report.py chose it

from .common import (BYTES_CACHED, BYTES_NAIVE, BYTES_NAIVE_FULL, GPU_IMPLS, PAIRS, STEPS_LAUNCHES, cell, fmt_pct,
                     fmt_su, gpu_build_of, impl_result, ordered_shapes, points, savefig, su_limit)


def size_sections(w, runs, devbench, out_dir):
    """Sections 1-4 and 6; returns the shapes, the SU/s limit and the Kokkos ratios."""
    cuda_bench = devbench.get("cuda", {})
    omp_bench = devbench.get("openmptarget", {})
    bw = cuda_bench.get("triad_bandwidth_gb_s")
    any_gpu_run = next((r for (b, s), r in sorted(runs.items()) if b != "host" and r.get("status") == "ok"), None)
    gpu = (any_gpu_run or {}).get("gpu") or cuda_bench.get("gpu") or {}
    # (a) estimate
    w("## 1. The performance estimate\n")
    if bw:
        w("A site update reads `now` at 7 points and `prev` at 1, writes `next`, and reads the "
          "coefficients. Bytes per site that must cross device memory:\n")
        w("| access pattern | bytes/site | SU/s limit at the measured triad bandwidth |")
        w("|---|---|---|")
        for label, nbytes in (("naive, full 3-D cs2 and damp (the original layout), no reuse", BYTES_NAIVE_FULL),
                              ("naive, compressed coefficients (cs2 per depth, damp per column), no reuse", BYTES_NAIVE),
                              ("cached: each of now, prev read once, next written once", BYTES_CACHED)):
            w(f"| {label} | {nbytes} | {fmt_su(su_limit(bw, nbytes))} |")
        w("")
        w(f"Measured in the same session with `awave-devbench` (arrays of {cuda_bench['array_elements']} doubles, "
          f"best of {cuda_bench['repetitions']}): CUDA copy {cuda_bench['copy_bandwidth_gb_s']:.0f} GB/s, "
          f"CUDA triad **{bw:.0f} GB/s**"
          + (f"; the same kernels in OpenMP offload: copy {omp_bench['copy_bandwidth_gb_s']:.0f} GB/s, triad "
             f"{omp_bench['triad_bandwidth_gb_s']:.0f} GB/s" if "triad_bandwidth_gb_s" in omp_bench else "")
          + ". The limit used below is the cached pattern at the CUDA triad bandwidth: "
          f"**{fmt_su(su_limit(bw, BYTES_CACHED))} SU/s**.\n")
    else:
        w("No `devbench-cuda.json`: no measured bandwidth, so no limit.\n")
    limit = su_limit(bw, BYTES_CACHED) if bw else None

    # (b) SU/s vs size plot
    w("## 2. SU/s against problem size\n")
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for impl in GPU_IMPLS:
        build = gpu_build_of(impl)
        xs, ys = [], []
        for s in ordered_shapes(runs, build):
            r = impl_result(runs[(build, s)], impl)
            if r and len(set(s.split("x"))) == 1:
                xs.append(points(s))
                ys.append(r["best_su_per_s"])
        if xs:
            ax.plot(xs, ys, marker="o", label=impl)
    if limit:
        ax.axhline(limit, color="black", linestyle="--", label=f"limit {fmt_su(limit)} (24 B/site)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("interior points (cubes 32^3 ... 1000^3)")
    ax.set_ylabel("best-chunk SU/s")
    ax.set_title(f"awave on {gpu.get('name', 'GPU')}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    w(f"![SU/s against size]({savefig(fig, out_dir, 'su_vs_size.png')})\n")

    # (c) table
    w("## 3. SU/s and fraction of the limit\n")
    w("Grids whose three fields fit in the GPU's L2 cache (50 MB on the H100: 96^3 takes 3 x 98^3 x 8 B = "
      "23 MB) are not bound by device-memory bandwidth and can exceed the limit.\n")
    shapes = sorted({s for (b, s) in runs if b != "host"}, key=lambda s: (len(set(s.split("x"))) > 1, points(s), s))
    w("| shape | " + " | ".join(GPU_IMPLS) + " |")
    w("|---|" + "---|" * len(GPU_IMPLS))
    for s in shapes:
        row = []
        for impl in GPU_IMPLS:
            run = runs.get((gpu_build_of(impl), s))
            row.append(cell(run, impl, lambda r: fmt_su(r["best_su_per_s"]) +
                            (f" ({fmt_pct(r['best_su_per_s'] / limit)})" if limit else "")))
        w(f"| {s} | " + " | ".join(row) + " |")
    w("")

    # (d) Kokkos / hand-written
    w("## 4. Kokkos against the hand-written code, per backend\n")
    w("| shape | " + " | ".join(f"{k} / {h}" for k, h, _ in PAIRS) + " |")
    w("|---|" + "---|" * len(PAIRS))
    ratio_series = {k: ([], []) for k, _, _ in PAIRS}
    for s in shapes:
        row = []
        for k, h, _ in PAIRS:
            run = runs.get((gpu_build_of(k), s))
            kr, hr = (impl_result(run, k), impl_result(run, h)) if run else (None, None)
            if kr and hr:
                ratio = kr["best_su_per_s"] / hr["best_su_per_s"]
                row.append(f"{ratio:.2f}")
                if len(set(s.split("x"))) == 1:
                    ratio_series[k][0].append(points(s))
                    ratio_series[k][1].append(ratio)
            else:
                row.append(cell(run, k, lambda r: "-") if run else "missing")
        w(f"| {s} | " + " | ".join(row) + " |")
    w("")
    fig, ax = plt.subplots(figsize=(7.5, 3.5))
    for k, h, _ in PAIRS:
        if ratio_series[k][0]:
            ax.plot(*ratio_series[k], marker="o", label=f"{k} / {h}")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("interior points (cubes)")
    ax.set_ylabel("Kokkos / hand-written")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    w(f"![Kokkos / hand-written]({savefig(fig, out_dir, 'kokkos_ratio.png')})\n")

    # (f) small sizes
    w("## 6. Small problems: time per step against launch overheads\n")
    launch = {"cuda": cuda_bench.get("launch_overhead_seconds"), "openmptarget": omp_bench.get("launch_overhead_seconds")}
    if launch["cuda"] and launch["openmptarget"]:
        w(f"`awave-devbench` timed back-to-back empty launches: a CUDA kernel costs {launch['cuda'] * 1e6:.1f} µs, an "
          f"OpenMP target region {launch['openmptarget'] * 1e6:.1f} µs. A large grid's step is {STEPS_LAUNCHES} "
          f"launches (interior, x layers, y layers): at least {STEPS_LAUNCHES * launch['cuda'] * 1e6:.1f} µs (CUDA) "
          f"or {STEPS_LAUNCHES * launch['openmptarget'] * 1e6:.1f} µs (OpenMP offload) when launched from the host. "
          "Up to 128^3 every implementation fuses the step into one kernel (`src/core/step_plan.hpp`), and the "
          "hand-written CUDA replays three steps at a time from a CUDA graph, so those two bounds do not apply "
          "there; one synchronous target region per step still costs the OpenMP codes about one empty region. "
          "At 32^3 that step's time varies about 2x from run to run (25-47 us in repeated runs of the same "
          "build, against the sweep's 67 us: `results/h100-2026-11-23/small-omp-variance`).\n")
    w("| shape | " + " | ".join(f"{i} µs/step" for i in GPU_IMPLS) + " |")
    w("|---|" + "---|" * len(GPU_IMPLS))
    fig, ax = plt.subplots(figsize=(7.5, 4))
    small = [s for s in shapes if len(set(s.split("x"))) == 1 and points(s) <= 256 ** 3]
    series = {i: ([], []) for i in GPU_IMPLS}
    for s in small:
        row = []
        for impl in GPU_IMPLS:
            run = runs.get((gpu_build_of(impl), s))

            def per_step(r):
                times = sorted(t / n for t, n in zip(r["chunk_seconds"], r["chunk_steps"]))
                return times[len(times) // 2]
            r = impl_result(run, impl) if run else None
            if r:
                series[impl][0].append(points(s))
                series[impl][1].append(per_step(r) * 1e6)
            row.append(cell(run, impl, lambda r: f"{per_step(r) * 1e6:.1f}"))
        w(f"| {s} | " + " | ".join(row) + " |")
    w("")
    for impl in GPU_IMPLS:
        if series[impl][0]:
            ax.plot(*series[impl], marker="o", label=impl)
    for build, style in (("cuda", ":"), ("openmptarget", "--")):
        if launch[build]:
            ax.axhline(STEPS_LAUNCHES * launch[build] * 1e6, color="gray", linestyle=style,
                       label=f"{STEPS_LAUNCHES} empty launches ({'CUDA' if build == 'cuda' else 'OpenMP'})")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("interior points (cubes up to 256^3)")
    ax.set_ylabel("median time per step [µs]")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    w(f"![time per step]({savefig(fig, out_dir, 'small_sizes.png')})\n")

    return shapes, limit, ratio_series
