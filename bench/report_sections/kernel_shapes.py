"""Appendix A (section 16): the GPU kernels' shapes, OpenMP offload and CUDA."""
import glob
import json
import os
import re
import statistics

from .common import fmt_su
from .inputs import DEFAULT_CUDA_SHAPES, DEFAULT_NEWEST_SWEEPS, HERE
from .platforms import newest_sweep_targets


SHAPE_ORDER = ("three-region", "flat", "one-region", "split", "unrolled", "pairs", "batched", "restrict", "tiled",
               "tiled-local", "bare", "bare-3", "teams-parallel", "teams-inline", "teams-once", "teams-flag",
               "teams-nowait")


def gpu_of_result_dir(d):
    """The GPU a result directory's runs used: its gpu.txt (nvidia-smi's name), else its date
    directory's name (h100-..., h200-...)."""
    path = os.path.join(d, "gpu.txt")
    if os.path.exists(path):
        with open(path) as f:
            return f.read().split(",")[0].strip()
    top = os.path.relpath(d, os.path.join(HERE, "results")).split(os.sep)[0]
    return {"h100": "NVIDIA H100 80GB HBM3", "h200": "NVIDIA H200"}.get(top.split("-")[0], top)


def kernel_shapes_runs(path):
    """bench/device/kernel-shapes.sh's log: (impl, size, setting) -> best chunk SU/s. A run's line
    ends in `best X SU/s`; the first H200 log also printed the progress line's whole-run average
    after `best` and the best chunk alone on the next line (`Y SU/s`), which is then the number."""
    runs = {}
    with open(path) as f:
        lines = f.read().splitlines()
    for n, line in enumerate(lines):
        m = re.match(r"^(\S+)\s+(\d+)\s+(.*?)\s+(-no_check|checked) best (\S+)( SU/s)?$", line)
        if not m:
            continue
        value = m.group(5)
        nxt = lines[n + 1] if n + 1 < len(lines) else ""
        if not m.group(6) and re.match(r"^[0-9.e+]+ SU/s$", nxt):
            value = nxt.split()[0]
        try:
            runs[(m.group(1), int(m.group(2)), m.group(3).strip())] = float(value)
        except ValueError:
            pass  # a run the call's time limit cut
    return runs


CUDA_SHAPE_ORDER = ("march", "prefetch", "two-j", "two-k", "ldg", "evict-first", "evict-first-ldg", "shared-y", "no-y",
                    "no-yz", "stream")


def shapes_in_order(order, rows):
    """The shapes of rows in the given order, any shape the order does not name yet after them
    (shown, never dropped)."""
    return tuple(order) + tuple(sorted({r["shape"] for r in rows} - set(order)))


def cuda_shapes_tables(w, files):
    """Section 16: hand CUDA's interior kernel in shapes with more bytes in flight, and the
    diagnostics that drop the neighbour loads (bench/studies/cuda-stencil-shapes/cuda_stencil_shapes.cu)."""
    if not files:
        return
    w("`awave-cuda-shapes` (`bench/studies/cuda-stencil-shapes/cuda_stencil_shapes.cu`, the cuda build's flags; `bench/device/cuda-shapes.sh`) "
      "times hand CUDA's interior kernel alone (SU/s over the interior region's points, best of 3 runs of 30 "
      "steps; the median over rounds where a folder has several) in shapes that keep more bytes in flight, "
      "each checked bitwise against *march* (the product's kernel): *prefetch* (the next point's six loads "
      "issued before this point's store), *two-j* (two rows per thread, sharing their y loads), *two-k* (two "
      "columns k, k+32 per thread), *ldg* (every load of `now` through the read-only path), *evict-first* (`prev` loaded and `next` "
      "stored with evict-first hints, `__ldcs` and `__stcs`, so that the lines of `now` stay cached longer), "
      "*evict-first-ldg* (evict-first, `now` through the read-only path too), *shared-y* (the "
      "y neighbours from a double-buffered shared-memory tile of the plane). Diagnostics, not the update "
      "(so not bitwise): *no-y* (march without the y neighbours' loads), *no-yz* (without the z ones "
      "too), *stream* (next = 2 now - prev along the same march: 24 B a point and no stencil). A planted "
      "shape (one point off by one ulp) is reported as differing in every run (`cuda-shapes-planted.jsonl`).\n")
    for path in files:
        with open(path) as f:
            rows = [json.loads(line) for line in f if line.startswith("{")]
        gpu_file = os.path.join(os.path.dirname(path), "cuda-shapes-gpu.txt")
        gpu = open(gpu_file).read().split(",")[0].strip() if os.path.exists(gpu_file) else "?"
        for n in sorted({r["n"] for r in rows}):
            sel = [r for r in rows if r["n"] == n]
            segs = sorted({r["segment"] for r in sel})
            rounds = len({r.get("round", 1) for r in sel})
            w(f"{n}^3 interior, {gpu} (`{os.path.relpath(path, HERE)}`, {rounds} round{'s' if rounds > 1 else ''}):\n")
            w("| shape | registers | " + " | ".join(f"segment {g}" for g in segs) + " | bitwise with march |")
            w("|---|---|" + "---|" * len(segs) + "---|")
            for shape in shapes_in_order(CUDA_SHAPE_ORDER, sel):
                cells = [r for r in sel if r["shape"] == shape]
                if not cells:
                    continue
                per_seg = {g: statistics.median(r["su_per_s"] for r in cells if r["segment"] == g)
                           for g in segs if any(r["segment"] == g for r in cells)}
                bitwise = ("diagnostic" if cells[0].get("diagnostic") else
                           "yes" if all(r["bitwise_with_march"] for r in cells) else "**no**")
                w(f"| {shape} | {cells[0]['registers']} | " +
                  " | ".join(fmt_su(per_seg[g]) if g in per_seg else "-" for g in segs) + f" | {bitwise} |")
            w("")


def kernel_shapes_tables(w, logs):
    """Section 16: Kokkos-CUDA's MDRange kernels against its flat march, hand CUDA's block shapes
    with and without restrict kernel parameters (bench/device/kernel-shapes.sh)."""
    for path in logs:
        runs = kernel_shapes_runs(path)
        if not runs:
            continue
        where = f"{gpu_of_result_dir(os.path.dirname(path))}, `{os.path.relpath(path, HERE)}`"
        sizes = sorted({n for (i, n, _) in runs if i == "kokkos-cuda" and n >= 256})
        teams = sorted((st, su) for (i, n, st), su in runs.items() if i == "kokkos-openmptarget" and "TEAMS" in st)
        if teams:
            w(f"Kokkos-OMPT's team size through the runtime ({where}; 512^3, best chunk SU/s): " +
              ", ".join(f"`{st}` {fmt_su(su)}" for st, su in teams) + ".\n")
        if not sizes:
            continue
        w(f"Kokkos-CUDA: its rank-3 MDRange kernels against the flat marching kernel "
          f"(`AWAVE_KOKKOS_MARCH_PLANE_BYTES=0`), per segment, beside hand CUDA ({where}; best chunk SU/s, "
          "20 steps in chunks of 5, unchecked; one checked march at 192^3: bitwise):\n")
        w("| size | MDRange | march 8 | march 16 | march 32 | hand CUDA |")
        w("|---|---|---|---|---|---|")
        for n in sizes:
            # MDRange: the threshold at its maximum (the first H200 log: the default, MDRange then)
            md = runs.get(("kokkos-cuda", n, "AWAVE_KOKKOS_MARCH_PLANE_BYTES=18446744073709551615")) or \
                runs.get(("kokkos-cuda", n, "AWAVE_KOKKOS_MARCH_PLANE_BYTES="))
            ms = [runs.get(("kokkos-cuda", n, f"AWAVE_KOKKOS_MARCH_PLANE_BYTES=0 AWAVE_KOKKOS_SEGMENT={g}"))
                  for g in (8, 16, 32)]
            c = runs.get(("cuda", n, "AWAVE_CUDA_RESTRICT=0")) or runs.get(("cuda", n, "AWAVE_CUDA_BLOCK="))
            w(f"| {n}^3 | " + " | ".join(fmt_su(x) if x else "-" for x in [md] + ms + [c]) + " |")
        w("")
        blocks = sorted({st.split()[0].split("=")[1] for (i, n, st) in runs if i == "cuda" and "BLOCK=" in st} - {""},
                        key=lambda b: [int(x) for x in b.split(",")])
        if blocks:
            # The first H200 study also ran an interior kernel with restrict parameters (since removed).
            restrict = any("RESTRICT=1" in st for (i, n, st) in runs if i == "cuda")
            variants = [" AWAVE_CUDA_RESTRICT=0", " AWAVE_CUDA_RESTRICT=1"] if restrict else [""]
            w("Hand CUDA: block (k, j) and interior segment (`AWAVE_CUDA_BLOCK=k,j,segment`)" +
              (", the interior kernel as it is and with the fields as restrict kernel parameters "
               "(`AWAVE_CUDA_RESTRICT=1`, at `e37ef7f`)" if restrict else "") + f" ({where}):\n")
            cuda_sizes = sorted({n for (i, n, st) in runs if i == "cuda" and "BLOCK=" in st})
            w("| block | " + " | ".join(f"{n}^3" + (f" | {n}^3 restrict" if restrict else "") for n in cuda_sizes) + " |")
            w("|---|" + "---|" * (len(cuda_sizes) * len(variants)))
            for b in blocks:
                cells = []
                for n in cuda_sizes:
                    for v in variants:
                        x = runs.get(("cuda", n, f"AWAVE_CUDA_BLOCK={b}{v}"))
                        cells.append(fmt_su(x) if x else "-")
                w(f"| {b} | " + " | ".join(cells) + " |")
            w("")


def omp_shapes_section(w, shape_files, before_after, kernel_shape_logs=()):
    """Section 16: OpenMP offload kernel shapes (bench/studies/omp-stencil-shapes/omp_stencil_shapes.cpp), the product
    before/after the one-region step, the shape study of Kokkos-CUDA and hand CUDA, the targets."""
    rows = []
    # A run's console copy (*.txt) holds the same lines as its .jsonl where both were kept.
    with_jsonl = {os.path.dirname(p) for p in shape_files if p.endswith(".jsonl")}
    for path in shape_files:
        if path.endswith(".txt") and os.path.dirname(path) in with_jsonl:
            continue
        with open(path) as f:
            rows += [(path, json.loads(line)) for line in f if line.startswith("{")]
    pairs = [(b, a) for b, a in before_after if glob.glob(b) and glob.glob(a)]
    if not rows and not pairs:
        return
    w("## 16. The GPU kernels' shapes, measured\n")
    w("`awave-omp-shapes` (`bench/studies/omp-stencil-shapes/omp_stencil_shapes.cpp`, the openmptarget build's offload flags) times a whole "
      "step (interior and both sponges) in several shapes, each checked bitwise against the first: "
      "*three-region* (what the project ran before: three synchronous `collapse(3)` regions per step, the "
      "interior marching i over segments), *flat* (the same regions over one flat 32-bit index), "
      "*one-region* (one region per step over every plane, flat 32-bit index, each work item marching i "
      "with the sponge tested at every point: the product's shape), *split* (one-region, the sponge tested "
      "once per work item, a branch-free loop where it meets no layer), *unrolled* (split, a whole segment's "
      "undamped loop unrolled at compile time), *pairs* (split, two rows j, j+1 per work item), *batched* "
      "(split, four points' loads before their stores), *restrict* (split, the undamped march a function "
      "of restrict pointers), *tiled* (one-region with one work item per thread through `num_teams`, work "
      "items in (k, j) tiles of 32 x 4: the product's shape from c82a63d to 5f4d0b8), *tiled-local* (tiled, the "
      "region's firstprivate struct copied into a local), *bare* (tiled as an LLVM `ompx_bare` region: "
      "no worksharing loop code, ids by hand), *bare-3* (hand CUDA's three kernels as `ompx_bare` regions), "
      "*teams-parallel* (tiled in standard OpenMP without a worksharing loop: `target teams` holding one "
      "`parallel`, ids from `omp_get_team_num()` and `omp_get_thread_num()`, a loop striding by the threads "
      "given), *teams-inline* (the same, one item per thread where the threads given cover the items, the "
      "strided loop inline otherwise), *teams-once* (the same with that loop out of line: a call in the "
      "region), *teams-flag* (one item per thread and no loop, a device flag where the runtime gave fewer "
      "threads: the product's shape since 5f4d0b8), *teams-nowait* (teams-flag queued with `nowait`, each "
      "step's region depending on the one before, one `taskwait` after the last). SU/s, 30 steps, best of 3; "
      "bitwise in every one of the runs since 83fc81a (in the last one before). "
      "`awave-omp-shapes N+2 30 [SHAPE,...]`; `bench/device/omp-shapes.sh`, `bench/device/kernel-shapes.sh`.\n")
    for path in sorted({p for p, _ in rows}):
        sel_file = [r for p, r in rows if p == path]
        for n in sorted({r["n"] for r in sel_file}):
            sel = [r for r in sel_file if r["n"] == n]
            segs = sorted({r["segment"] for r in sel})
            w(f"{n}^3, {gpu_of_result_dir(os.path.dirname(path))} (`{os.path.relpath(path, HERE)}`):\n")
            w("| shape | threads | " + " | ".join(f"segment {g}" for g in segs) + " | bitwise |")
            w("|---|---|" + "---|" * len(segs) + "---|")
            for shape in shapes_in_order(SHAPE_ORDER, sel):
                for t in (128, 256):
                    cells = {r["segment"]: r for r in sel if r["shape"] == shape and r["threads"] == t}
                    if cells:
                        w(f"| {shape} | {t} | " + " | ".join(fmt_su(cells[g]["su_per_s"]) if g in cells else "-"
                                                          for g in segs) +
                          f" | {'yes' if all(c['bitwise_with_three_region'] for c in cells.values()) else '**no**'} |")
            w("")
    for before, after in pairs:
        b_runs = [json.load(open(p)) for p in sorted(glob.glob(before))]
        a_runs = [json.load(open(p)) for p in sorted(glob.glob(after))]
        gpu = a_runs[0]["build"]["accelerator"]
        w(f"The product before (commit `{b_runs[0]['build']['git_commit']}`, three regions) and after "
          f"(`{a_runs[0]['build']['git_commit']}`, one region, 256-thread teams) on {gpu}, best chunk SU/s, "
          f"50 steps in chunks of 10 (`{os.path.relpath(os.path.dirname(after), HERE)}`):\n")
        w("| implementation | size | before (each run) | after |")
        w("|---|---|---|---|")
        for impl in ("omp", "kokkos-openmptarget"):
            for n in sorted({r["params"]["shape"][0] for r in a_runs}):
                bv = [i["best_su_per_s"] for r in b_runs if r["params"]["shape"][0] == n
                      for i in r["implementations"] if i["id"] == impl]
                av = [i["best_su_per_s"] for r in a_runs if r["params"]["shape"][0] == n
                      for i in r["implementations"] if i["id"] == impl]
                w(f"| {impl} | {n}^3 | {', '.join(fmt_su(x) for x in bv)} | {', '.join(fmt_su(x) for x in av)} |")
        w("")
    kernel_shapes_tables(w, kernel_shape_logs)
    cuda_shapes_tables(w, DEFAULT_CUDA_SHAPES)
    w("What moved into the product from these (commit `1cc8092`): Kokkos-CUDA runs the flat marching kernel, "
      "32 planes a work item, on every grid that is not fused (`src/kokkos/kokkos_policy.hpp`; the sponge "
      "tested once per march there); hand OpenMP offload keeps the one-region shape with teams of 128 threads "
      "instead of 256; Kokkos-OpenMPTarget keeps the sponge test at every point (once per march, *split*, "
      "was slower with clang: in the table above and in the product); hand CUDA is unchanged (no block shape "
      "beat the default, restrict parameters lost 2.4%). Since 3e7614a Kokkos-CUDA marches 8 planes where a plane "
      "is at most 4 MiB, and since e6f9f03 16 planes elsewhere (below).\n")
    newest_sweep_targets(w, DEFAULT_NEWEST_SWEEPS)
