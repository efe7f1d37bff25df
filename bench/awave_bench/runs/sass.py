#!/usr/bin/env python3
"""Issue slots a site update of the sweep, by kind of instruction, from bench/device/sweep-count.sh's source
pages (count-IMPL-sass.csv). A warp instruction takes one issue slot whatever its lanes do: slots are 32 x warp
instructions over the kernel's site updates (N^3 x 3); in brackets the predicated-on thread instructions, the
lanes' work. The sweep is issue-bound (results/h*/ncu-cf9a00f): fewer slots is what makes it faster.

  sweep_count_summary.py DIR [N]      (N: the grid's edge, default 512)   prints a Markdown table
"""
import csv
import os
import re
import sys

from . import files as runfiles

KINDS = [  # (kind, opcodes or a test on the opcode), first match wins
    ("fp64 arithmetic", {"DADD", "DMUL", "DFMA", "DSETP"}),
    ("shared memory", {"LDS", "STS"}),
    ("global memory", {"LDG", "STG"}),
    # clang's offload code reaches the fields through generic addresses, where nvcc issues LDG/STG
    ("generic loads and stores", {"LD", "ST"}),
    ("spills (local memory)", {"LDL", "STL"}),
    ("barrier", {"BAR"}),
    ("branches and reconvergence", {"BRA", "BSSY", "BSYNC", "EXIT", "WARPSYNC", "RET", "CALL"}),
    ("register moves and zeroing", {"MOV", "IMAD.MOV", "CS2R", "S2R", "LDC", "R2UR"}),
    ("uniform datapath (loop bounds, live tests)", lambda op: op.startswith("U") or op in {"S2UR", "VOTEU"}),
    ("integer: indices, addresses, predicates", lambda op: True),
]
LINE = re.compile(r"^(@!?U?P[T0-9]+\s+)?([A-Z0-9_]+)")  # (a predicate, then the opcode without modifiers)


def kind_of(op):
    for kind, test in KINDS:
        if (op in test) if isinstance(test, set) else test(op):
            return kind
    return "other"


def read(path):
    """{kind: (warp instructions, predicated-on thread instructions)}, and the kernel's name."""
    rows = list(csv.reader(runfiles.lines(path)))
    name = rows[0][1] if rows and len(rows[0]) > 1 else "?"
    header = rows[1]
    warp = header.index("Instructions Executed")
    lanes = header.index("Predicated-On Thread Instructions Executed")
    source = header.index("Source")
    out = {}
    for r in rows[2:]:
        if len(r) <= max(warp, lanes, source):
            continue
        text = r[source].strip()
        m = LINE.match(text)
        if not m:
            continue
        op = m.group(2)
        k = kind_of("IMAD.MOV" if op == "IMAD" and ".MOV" in text else op)  # (IMAD.MOV: a move)
        w, t = out.get(k, (0.0, 0.0))
        out[k] = (w + float(r[warp] or 0), t + float(r[lanes] or 0))
    return name, out


def table(columns, n=512):
    """The Markdown table of issue slots a site update by kind, one column a (heading, count-IMPL-sass.csv)."""
    updates = 3.0 * n ** 3
    data = [read(path)[1] for _, path in columns]
    lines = ["| kind | " + " | ".join(h for h, _ in columns) + " |", "|---|" + "---:|" * len(columns)]
    for kind, _ in KINDS:
        cells = [f"{32 * d.get(kind, (0.0, 0.0))[0] / updates:.1f} ({d.get(kind, (0.0, 0.0))[1] / updates:.1f})"
                 for d in data]
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    totals = [f"**{32 * sum(v[0] for v in d.values()) / updates:.1f}** ({sum(v[1] for v in d.values()) / updates:.1f})"
              for d in data]
    lines.append("| **all** | " + " | ".join(totals) + " |")
    return lines


def main(argv):
    if len(argv) < 1:
        sys.exit(__doc__)
    folder = argv[0]
    n = int(argv[1]) if len(argv) > 1 else 512
    impls = sorted(os.path.basename(f)[len("count-"):-len("-sass.csv")] for f in runfiles.glob(folder, "count-*-sass.csv"))
    if not impls:
        sys.exit(f"sweep_count_summary: no count-*-sass.csv in {folder}")
    print(f"Issue slots (32 x warp instructions) a site update, one sweep at {n}^3; in brackets the")
    print("predicated-on thread instructions a site update (what the lanes did).\n")
    print("\n".join(table([(i, os.path.join(folder, f"count-{i}-sass.csv")) for i in impls], n)))
    return 0
