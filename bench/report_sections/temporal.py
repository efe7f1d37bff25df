"""Section 19 and a paragraph of the first page: beyond the one-step limit, temporal blocking
(issue 36). The study's runs (bench/studies/cuda-temporal-blocking/cuda_temporal_blocking.cu through bench/device/tblock.sh:
tblock-* directories) and the product's (bench/device/sweep-checks.sh: temporal-* directories)."""
import glob
import json
import os

from .common import fmt_su
from .inputs import HERE

# The H100's triad (results/h100-2026-11-24, awave-devbench), the bandwidth the limits below use.
H100_TRIAD_GB_S = 2896.0


def bytes_per_update(steps_per_sweep):
    """Bytes a site update moves at the least: 24 for single steps (read now and prev, write next);
    a sweep of S steps reads two levels and writes two, 32 / S."""
    return 24.0 if steps_per_sweep == 1 else 32.0 / steps_per_sweep


def limit(steps_per_sweep):
    return H100_TRIAD_GB_S * 1e9 / bytes_per_update(steps_per_sweep)


def product_runs(d):
    """{(n, steps, id): {plan: (SU/s, steps a sweep run)}} from a temporal-* directory's
    sweep-N-PLAN-STEPS.json files, and the (GPU, commit) they name."""
    rows, gpu, commit = {}, None, None
    for p in sorted(glob.glob(os.path.join(d, "sweep-*.json"))):
        n, plan, steps = os.path.basename(p)[len("sweep-"):-len(".json")].split("-")
        with open(p) as f:
            run = json.load(f)
        gpu, commit = run["build"]["accelerator"], run["build"]["git_commit"]
        for impl in run["implementations"]:
            rows.setdefault((int(n), int(steps), impl["id"]), {})[int(plan)] = (
                impl["best_su_per_s"], impl.get("steps_per_sweep", 1))
    return rows, gpu, commit


def _ratio(rows, n, steps, impl):
    r = rows.get((n, steps, impl), {})
    return r[3][0] / r[1][0] if 1 in r and 3 in r else None


def temporal_first_page(w, product_dirs, sizes=(512, 1000), steps=60):
    """The first page's paragraph: what the sweep does to the answer, from the newest product run."""
    if not product_dirs:
        return
    rows, gpu, commit = product_runs(product_dirs[-1])
    have = [n for n in sizes if (n, steps, "cuda") in rows and (n, steps, "kokkos-cuda") in rows]
    if not have:
        return

    def each(f):
        return " / ".join(f"{f(n):.2f}" for n in have)

    def su(n, impl, plan):
        return rows[(n, steps, impl)][plan][0]
    w(f"**Three steps a sweep.** From 200^3 points hand CUDA and the tuned Kokkos form on CUDA take three time "
      f"steps in one sweep of the grid (temporal blocking, section 19), bit for bit. On the {gpu.split(',')[0]} at "
      f"{' / '.join(f'{n}^3' for n in have)} (commit `{commit}`, chunks of 20 steps) hand CUDA runs "
      f"{each(lambda n: _ratio(rows, n, steps, 'cuda'))} x its single steps and Kokkos-CUDA "
      f"{each(lambda n: _ratio(rows, n, steps, 'kokkos-cuda'))} x its own, so Kokkos-CUDA is "
      f"{each(lambda n: su(n, 'kokkos-cuda', 3) / su(n, 'cuda', 3))} of hand CUDA with the sweep "
      f"({each(lambda n: su(n, 'kokkos-cuda', 1) / su(n, 'cuda', 1))} with single steps): the portable team form "
      "of the algorithm gives up about a tenth of it. Those rates pass the single-step bandwidth limit that the "
      "efficiencies above are measured against (24 B a site update): the table above describes single steps, as "
      "measured by its study. OpenMP offload has no sweep yet (section 19 says why).\n")


def temporal_section(w, study_dirs, product_dirs):
    """Section 19: the limits per steps a sweep, the product's sweep beside its single steps, and
    the study's shapes beside the product's hand CUDA."""
    if not study_dirs and not product_dirs:
        return
    w("## 19. Beyond the one-step limit: temporal blocking\n")
    w("A single step reads `now` and `prev` and writes `next`: 24 B a site update. A sweep of S steps reads u(t-1) "
      "and u(t) and writes its last two levels, 32 B for S updates of a site: the limit rises with S. The study "
      "(`bench/studies/cuda-temporal-blocking/cuda_temporal_blocking.cu`, `awave-cuda-tblock`) timed two- to six-step shapes, sponge layers "
      "included, each checked bitwise against single steps of the shared formula on the GPU (a planted one-ulp "
      "difference is caught in every call), beside the product's hand CUDA with single steps in the same call. "
      "Decision rule (issue 36, stated before the runs): a shape enters the product at >= 1.15 x hand CUDA at "
      "512^3 and 1000^3 on the H100 and the H200. Limits on the H100's triad "
      f"({H100_TRIAD_GB_S:.0f} GB/s):\n")
    w("| steps a sweep | bytes a site update | limit (SU/s) |")
    w("|---|---|---|")
    for s in (1, 2, 3, 4):
        w(f"| {s} | {bytes_per_update(s):.2f} | {fmt_su(limit(s))} |")
    w("")
    w("**Result.** The rule is met by three steps a sweep (`reg3p`): a block of 32 x 20 threads is the columns "
      "of a 26 x 14 tile with a halo of 3, marches i over 64 planes keeping each column's levels in registers, "
      "passes only the (j, k) neighbours through shared memory (one plane a level, two buffers, one barrier a "
      "plane), and issues the next plane's loads before the barrier. It is in the product "
      "(`src/core/sweep_march.hpp`, written once; hand CUDA's thread block and Kokkos' TeamPolicy team with "
      "scratch memory run it) from 200^3 points, with a fourth field; over MPI the product keeps single steps "
      "(the halo exchange is per step; one line says so, and 2 processes' files are `h5diff`-identical to one "
      "process's sweeps: `results/h100-2026-11-25/mpi-sweep-bda145d`), as where nz <= 2 (the start has values "
      "on z ghosts). The threshold: at "
      "200^3 both sweeps beat their single steps (Kokkos-CUDA by 2%), at 192^3 Kokkos-CUDA's lost (the tables "
      "below). The H200 could not be had: the three calls that asked for one ran on H100s (three machines, "
      "within 1% of each other), so the H100 decides, as the issue allows.\n")
    for d in product_dirs:
        rows, gpu, commit = product_runs(d)
        if not rows:
            continue
        w(f"The product, single steps (`-tune steps_per_sweep=1`) and the sweep, the same binary, unchecked runs "
          f"(the gpu tests and a checked 256^3 run are the bitwise evidence), `{os.path.relpath(d, HERE)}` "
          f"({gpu}; `{commit}`):\n")
        w("| N | steps (chunks of a third) | hand CUDA single | sweep | x | / 3-step limit | Kokkos-CUDA single | "
          "sweep | x | / 3-step limit | Kokkos / hand, sweep |")
        w("|---|---|---|---|---|---|---|---|---|---|---|")
        for (n, steps) in sorted({(n, s) for (n, s, _) in rows}):
            c, k = rows.get((n, steps, "cuda"), {}), rows.get((n, steps, "kokkos-cuda"), {})
            if 1 not in c or 3 not in c or 1 not in k or 3 not in k:
                continue
            w(f"| {n}^3 | {steps} | {fmt_su(c[1][0])} | {fmt_su(c[3][0])} | {c[3][0] / c[1][0]:.3f} | "
              f"{c[3][0] / limit(3):.2f} | {fmt_su(k[1][0])} | {fmt_su(k[3][0])} | {k[3][0] / k[1][0]:.3f} | "
              f"{k[3][0] / limit(3):.2f} | {k[3][0] / c[3][0]:.3f} |")
        w("")
    if product_dirs:
        rows, gpu, _ = product_runs(product_dirs[-1])
        fractions = []
        for impl, name in (("cuda", "hand CUDA"), ("kokkos-cuda", "Kokkos-CUDA")):
            got = [rows[(n, 60, impl)] for n in (512, 1000) if 1 in rows.get((n, 60, impl), {})]
            if len(got) == 2 and all(3 in g for g in got):
                fractions.append(f"{name} {' / '.join(f'{g[1][0] / limit(1):.2f}' for g in got)} of the single-step "
                                 f"limit with single steps, {' / '.join(f'{g[3][0] / limit(3):.2f}' for g in got)} of "
                                 "the three-step limit with the sweep")
        if fractions:
            w(f"Each model's fraction of its limit at 512^3 / 1000^3 ({gpu.split(',')[0]}, 60 steps): "
              + "; ".join(fractions) + ". Hand OpenMP offload and Kokkos' OpenMPTarget backend take single steps "
              "(sections 3 and 8).\n")
    w("What bounds the sweep (Nsight Compute at 512^3, `results/h100-2026-11-25/ncu-sweep-6a683b2`): hand CUDA's "
      "kernel moves 1.08 x the model's bytes at 57% of the DRAM bandwidth, while its schedulers issue on 77% of "
      "the cycles at 62% occupancy (48 registers): it is bound by instruction issue (3.7 updates a point for "
      "three steps, the halo's included) and the L2 traffic of the halos (2.4 x the DRAM bytes, L2 at 81%), not "
      "by DRAM. Kokkos' team form executes 8% fewer instructions but moves 1.5 x hand CUDA's L2 bytes (Kokkos 3.4 "
      "passes the functor through local memory; 24 B of spill against 8) and issues on 61% of the cycles: its "
      "sweep takes 1.16 x hand CUDA's time. The register allocation matters as much: the same arithmetic "
      "spelled differently ran at "
      "1.46e11 SU/s at 512^3 (`reg3p-26x14`: a branch the block takes to the undamped update beside the full "
      "one) and 1.75e11 (`reg3p-26x14-table`: the update's own test), and the product's kernel at 1.46e11 with "
      "`next_value` alone (16 B of spill, `temporal-46ea31a`) and 1.54e11 with the table's spelling (8 B, "
      "`temporal-dc054f9`; its chunks of 20 steps end with two single steps). Four steps a sweep lose to three "
      "(1.11 / 1.20 x hand CUDA at 512^3 / 1000^3): the halo recomputed grows (5.7 updates a point for 4 steps "
      "on a 24 x 12 tile) and the registers spill; two steps reach 1.09 / 1.10 x (`reg2p-28x16`), five 1.05 / "
      "1.14 x, six 0.77 / 0.84 x. Not written: "
      "the sweep in hand OpenMP offload (it needs a team-shared plane and a barrier a plane among 640 threads of "
      "a team, which clang 19's offload can express with `omp_pteam_mem_alloc` and `#pragma omp barrier`; not "
      "tried), and in Kokkos' OpenMPTarget backend (the sweep's team of 640 threads and its scratch were not "
      "tried there; the backend is removed in Kokkos 5.1).\n")
    w("The study's calls, best segment per shape (`/ its limit`: the fraction of the limit of the shape's steps "
      "a sweep):\n")
    for d in study_dirs:
        path = os.path.join(d, "tblock.jsonl")
        if not os.path.exists(path):
            continue
        rows = [json.loads(line) for line in open(path) if line.strip()]
        product = {}
        for p in glob.glob(os.path.join(d, "product-*.json")):
            with open(p) as f:
                run = json.load(f)
            product[run["params"]["shape"][0]] = (run["implementations"][0]["best_su_per_s"], run["build"]["git_commit"])
        if not product:
            continue
        w(f"`{os.path.relpath(d, HERE)}` ({rows[0]['gpu']}; hand CUDA of awave "
          f"`{next(iter(product.values()))[1]}`, single steps):\n")
        w("| N | hand CUDA | shape | steps a sweep | best segment | SU/s | / hand CUDA | / its limit | bitwise |")
        w("|---|---|---|---|---|---|---|---|---|")
        for n in sorted({r["n"] for r in rows}):
            best = {}
            for r in rows:
                if r["n"] == n and r["shape"] != "single" and not r["shape"].startswith("planted"):
                    if r["shape"] not in best or r["su_per_s"] > best[r["shape"]]["su_per_s"]:
                        best[r["shape"]] = r
            for shape, r in sorted(best.items()):
                su_hand = product.get(n, (None,))[0]
                ratio = f"{r['su_per_s'] / su_hand:.3f}" if su_hand else "-"
                s = r.get("steps_per_sweep", 2)
                bitwise = all(x["bitwise"] for x in rows if x["n"] == n and x["shape"] == shape)
                w(f"| {n}^3 | {fmt_su(su_hand) if su_hand else '-'} | {shape} | {s} | {r['segment']} | "
                  f"{fmt_su(r['su_per_s'])} | {ratio} | {r['su_per_s'] / limit(s):.2f} | {'yes' if bitwise else 'NO'} |")
        w("")
    w("History: the first two-step shapes (`tile2`, 2.5-D with both levels' planes in shared memory, two barriers "
      "a plane) ran 0.70-0.79 x hand CUDA; `reg2` (the marched axis in registers, one barrier a plane) 1.03-1.06 "
      "x, latency-bound (Nsight Compute, `results/h100-2026-11-25/ncu-reg2-8e10cb7`: 57% of DRAM bandwidth, 35% "
      "of the cycles between a warp's instructions at the barrier, 30% waiting for global loads issued after "
      "it). Issuing the next plane's loads before the barrier (`reg2p`) and taking three steps (`reg3p`) are what "
      "moved it.\n")
