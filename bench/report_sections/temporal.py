"""Section 19: beyond the one-step limit, temporal blocking (issue 36; bench/cuda_temporal_blocking.cu)."""
import glob
import json
import os

from .common import fmt_su
from .inputs import HERE

# The H100's triad (results/h100-2026-11-24, awave-devbench), the bandwidth the limits below use.
H100_TRIAD_GB_S = 2896.0


def temporal_section(w, dirs):
    """The study's runs: per size, hand CUDA beside each two-step shape's best segment."""
    if not dirs:
        return
    w("## 19. Beyond the one-step limit: two steps per sweep (study in progress)\n")
    w("A single-step kernel reads `now` and `prev` and writes `next`: 24 B a site, a limit of "
      f"{fmt_su(H100_TRIAD_GB_S * 1e9 / 24)} SU/s on the H100's triad. Two steps per sweep read u(t-1), u(t) "
      f"and write u(t+1), u(t+2): 32 B for two site updates, a limit of {fmt_su(H100_TRIAD_GB_S * 1e9 / 16)}. "
      "`awave-cuda-tblock` (bench/cuda_temporal_blocking.cu) times two-step shapes, sponge layers included, each "
      "checked bitwise against single steps of the shared formula after 20 steps (a planted one-ulp difference "
      "is caught in every run), beside the product's hand CUDA in the same call. Decision rule: a shape enters "
      "the product at >= 1.15 x hand CUDA at 512^3 and 1000^3 (H100 and H200). `tile2`: 2.5-D tiles with u(t) "
      "and u(t+1) planes in shared memory, two barriers a plane; `reg2`: the marched axis in registers, one "
      "thread per column of the tile with its halo, only the (j, k) neighbours through shared memory, one "
      "barrier a plane.\n")
    for d in dirs:
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
          f"`{next(iter(product.values()))[1]}`):\n")
        w("| N | hand CUDA | shape | best segment | SU/s | / hand CUDA | / two-step limit | bitwise |")
        w("|---|---|---|---|---|---|---|---|")
        for n in sorted({r["n"] for r in rows}):
            best = {}
            for r in rows:
                if r["n"] == n and r["shape"] not in ("single",) and not r["shape"].startswith("planted"):
                    if r["shape"] not in best or r["su_per_s"] > best[r["shape"]]["su_per_s"]:
                        best[r["shape"]] = r
            for shape, r in sorted(best.items()):
                su_hand = product.get(n, (None,))[0]
                ratio = f"{r['su_per_s'] / su_hand:.3f}" if su_hand else "-"
                bitwise = all(x["bitwise"] for x in rows if x["n"] == n and x["shape"] == shape)
                w(f"| {n}^3 | {fmt_su(su_hand) if su_hand else '-'} | {shape} | {r['segment']} | {fmt_su(r['su_per_s'])} | "
                  f"{ratio} | {r['su_per_s'] / (H100_TRIAD_GB_S * 1e9 / 16):.2f} | {'yes' if bitwise else 'NO'} |")
        w("")
    w("So far no shape meets the rule: the best, `reg2` on 32 x 16 tiles with segments of 64 planes, runs "
      "1.03 x hand CUDA at 512^3 and 1.06 x at 1000^3 on the H100 (0.65 of the two-step limit); wider tiles "
      "lose (fewer blocks per SM), and `tile2` loses outright (0.70-0.79). What bounds `reg2` (Nsight Compute, "
      "`results/h100-2026-11-25/ncu-reg2-8e10cb7`): it moves the two-step model's bytes (4.5 GB a sweep at "
      "512^3) at 57% of the DRAM bandwidth, latency-bound: of the 20.2 cycles between a warp's instructions, "
      "35% are waits at the plane's barrier and 30% shared-memory waits, at 70% occupancy (40 registers, "
      "720-thread blocks). Not yet tried: more independent work per thread between barriers, fewer registers, "
      "a prefetch of the next plane, three or more steps per sweep; not yet measured: the H200. The product "
      "is unchanged.\n")
