#!/usr/bin/env python3
"""What bounds a kernel, from Nsight Compute's text output (bench/device/sweep-counters.sh): its time,
instructions, DRAM and L2 bytes and throughputs, SM throughput, warps issued a scheduler a cycle,
the L1/shared pipes and occupancy. One row a file; the largest throughput names the bound.

    python3 bench/ncu_summary.py FILE...
"""
import re

from . import files as runfiles

FIELDS = {  # name: (line label, unit scale to the row's unit)
    "duration_ms": (r"Duration", {"ms": 1.0, "us": 1e-3, "s": 1e3}),
    "instructions": (r"smsp__inst_executed\.sum", None),
    "dram_read_gb": (r"dram__bytes_read\.sum", {"Gbyte": 1.0, "Mbyte": 1e-3}),
    "dram_write_gb": (r"dram__bytes_write\.sum", {"Gbyte": 1.0, "Mbyte": 1e-3}),
    "l2_gb": (r"lts__t_bytes\.sum", {"Gbyte": 1.0, "Mbyte": 1e-3}),
    "dram_pct": (r"DRAM Throughput", None),
    "l2_pct": (r"L2 Cache Throughput", None),
    "l1_pct": (r"L1/TEX Cache Throughput", None),
    "sm_pct": (r"Compute \(SM\) Throughput", None),
    "issued": (r"Issued Warp Per Scheduler", None),
    "occupancy_pct": (r"Achieved Occupancy", None),
}


def parse(text):
    """The FIELDS found in one kernel's report (the first occurrence of each)."""
    row = {}
    for name, (label, units) in FIELDS.items():
        m = re.search(rf"^\s*{label}\s+(\S+)?\s+([\d,.]+)\s*$", text, re.M)
        if not m:
            continue
        unit, value = m.group(1), float(m.group(2).replace(",", ""))
        if units and unit in units:
            value *= units[unit]
        row[name] = value
    return row


def bound(row):
    """The unit nearest its peak: issue (SM), L2, DRAM or L1/shared."""
    candidates = {"issue (SM)": row.get("sm_pct", 0), "L2": row.get("l2_pct", 0), "DRAM": row.get("dram_pct", 0),
                  "L1/shared": row.get("l1_pct", 0)}
    return max(candidates, key=candidates.get)


def table(paths_and_names):
    lines = ["| GPU, kernel | time | instructions | DRAM GB (of peak) | L2 GB (of peak) | L1/shared | SM | "
             "issued / scheduler | occupancy | bound |", "|---|---|---|---|---|---|---|---|---|---|"]
    for path, name in paths_and_names:
        r = parse(runfiles.read_text(path))
        dram = r.get("dram_read_gb", 0) + r.get("dram_write_gb", 0)
        lines.append(f"| {name} | {r['duration_ms']:.2f} ms | {r['instructions']:.3g} | {dram:.2f} ({r['dram_pct']:.0f}%) | "
                     f"{r['l2_gb']:.2f} ({r['l2_pct']:.0f}%) | {r['l1_pct']:.0f}% | {r['sm_pct']:.0f}% | "
                     f"{r['issued']:.2f} | {r['occupancy_pct']:.0f}% | {bound(r)} |")
    return "\n".join(lines)


def main(argv):
    """bench/ncu_summary.py FILE [FILE ...]"""
    print(table([(p, p) for p in argv]))
    return 0
