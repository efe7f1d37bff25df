#!/usr/bin/env python3
"""A model of the sweep over many GPUs (issue 46): what a slab of an N^3 grid on P GPUs
spends a sweep of 3 steps on, against single steps, from measured inputs (DEFAULT_INPUTS). Per process and sweep
(src/parallel/step_loop.cpp): its planes and 3 of each neighbour's at the one-GPU sweep rate; the exchange, 3
planes of u(t) and 2 of u(t-1) a side, costs latency + bytes / bandwidth and overlaps the interior segments
(core/sweep_march.hpp: sweep_segments). Single steps: a plane a side a step, overlapped with the step's bulk.

    python3 bench/studies/mpi-scaling-model/scaling_model.py     # the table of results/h200x2-2026-11-26/README.md
"""
import math
import sys

SEGMENT, STEPS = 64, 3  # SweepTile::kSegment, kSteps (core/sweep_march.hpp)

# Measured inputs (H200 x2, NVLink; bench/results/h200x2-2026-11-26/sweep-mpi-b9e2df9): hand CUDA's
# one-GPU sweep and single-step rates at 1024^3, and the host-ordered NCCL exchange of a sweep fitted
# to its two sizes (0.35 ms for 5 planes of 1026^2 a side, 0.225 ms for 5 of 514^2): a fixed
# 0.18 ms and 240 GB/s. Between nodes: a 400 Gb/s NIC a GPU (50 GB/s), the same fixed cost.
DEFAULT_INPUTS = {
    "sweep_su_per_s": 1.98e11,
    "single_su_per_s": 1.45e11,
    "latency_s": 0.18e-3,
    "nvlink_bytes_per_s": 240e9,
    "network_bytes_per_s": 50e9,
}


def interior_planes(nx, halo_lo, halo_hi):
    """Planes of the interior segments of a sweep of nx computed planes (sweep_segments)."""
    planes = 0
    for s in range(math.ceil(nx / SEGMENT)):
        i0, i1 = s * SEGMENT, min((s + 1) * SEGMENT, nx)
        if (halo_lo == 0 or i0 - STEPS >= halo_lo) and (halo_hi == 0 or i1 + STEPS <= nx - halo_hi):
            planes += i1 - i0
    return planes


def sweep_efficiency(n, p, sweep_rate, latency, bandwidth, overlap=True):
    """Efficiency of P GPUs against one, per sweep, of the slowest slab of an n^3 grid: a middle one
    (two neighbours) from 3 GPUs, an end one (one neighbour) at 2."""
    if p == 1:
        return 1.0
    own, sides = n / p, 1 if p == 2 else 2
    halo_lo, halo_hi = STEPS, STEPS if sides == 2 else 0
    computed = own + halo_lo + halo_hi
    plane_points = n * n
    t_own = own * plane_points * STEPS / sweep_rate
    t_computed = computed * plane_points * STEPS / sweep_rate
    exchange = latency + sides * (2 * STEPS - 1) * (n + 2) ** 2 * 8 / bandwidth  # 5 planes a side
    if not overlap:
        return t_own / (t_computed + exchange)
    inner = interior_planes(int(round(computed)), halo_lo, halo_hi) * plane_points * STEPS / sweep_rate
    return t_own / (max(inner, exchange) + t_computed - inner)


def single_step_efficiency(n, p, step_rate, latency, bandwidth):
    """Single steps: per step one plane a side, overlapped with the bulk (the slab less its 4-plane x
    layers at each end)."""
    if p == 1:
        return 1.0
    own, sides = n / p, 1 if p == 2 else 2
    plane_points = n * n
    t_step = own * plane_points / step_rate
    t_bulk = max(own - 8, 0) * plane_points / step_rate
    exchange = latency + sides * (n + 2) ** 2 * 8 / bandwidth
    return t_step / (max(t_bulk, exchange) + t_step - t_bulk)


def table(inputs=DEFAULT_INPUTS, n=1024, gpus=(2, 4, 8, 16, 32)):
    """Markdown: strong scaling of an n^3 grid, sweeps (with and without overlap) and single steps, over
    NVLink (one node, to 8) and the network (beyond), with messages and bytes a step."""
    lines = ["| GPUs | link | sweep: efficiency (no overlap) | single steps: efficiency | sweep / single steps "
             "(absolute) | messages a step, a GPU: sweep / single | bytes a step, a GPU: sweep / single |",
             "|---|---|---|---|---|---|---|"]
    plane = (n + 2) ** 2 * 8
    for p in gpus:
        link, bandwidth = ("NVLink", inputs["nvlink_bytes_per_s"]) if p <= 8 else ("network",
                                                                                  inputs["network_bytes_per_s"])
        e = sweep_efficiency(n, p, inputs["sweep_su_per_s"], inputs["latency_s"], bandwidth)
        e0 = sweep_efficiency(n, p, inputs["sweep_su_per_s"], inputs["latency_s"], bandwidth, overlap=False)
        s = single_step_efficiency(n, p, inputs["single_su_per_s"], inputs["latency_s"], bandwidth)
        ratio = e * inputs["sweep_su_per_s"] / (s * inputs["single_su_per_s"])
        lines.append(f"| {p} | {link} | {e:.3f} ({e0:.3f}) | {s:.3f} | {ratio:.2f} | {2 / STEPS:.2f} / 2 | "
                     f"{2 * (2 * STEPS - 1) * plane / STEPS / 1e6:.0f} MB / {2 * plane / 1e6:.0f} MB |")
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        sys.exit("usage: scaling_model.py (no arguments: it prints the model's table)")
    print(table())
