#!/usr/bin/env python3
"""One-off reader of `cuobjdump -sass` for this folder's diagnostic (session 14, issue 56), not a tool of the
project: per sweep kernel, its SASS instructions, how many are uniform-datapath (U*), its local-memory
spills (STL / LDL), and whether its plane counter steps in a vector register (`VIADD Rn, Rn, 0x1`: vinc) or
a uniform one (`UIADD3 URn, URn, 0x1`: uinc). Usage: sass_summary.py FILE.sass ..."""
import collections
import re
import sys

KERNELS = ("weep", "league", "once", "noloop", "assumed", "fast", "bar", "base", "cmem", "param", "shm")


def functions(path):
    current, out = None, {}
    for line in open(path):
        m = re.match(r"\s*Function : (\S+)", line)
        if m:
            current = m.group(1)
            out[current] = []
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
        if m and current:
            out[current].append(m.group(2).strip())
    return out


for path in sys.argv[1:]:
    for name, code in functions(path).items():
        if "cache_sweep" in name or not any(k in name for k in KERNELS):
            continue
        ops = collections.Counter((i.split()[1] if i.startswith("@") else i.split()[0]).split(".")[0] for i in code)
        uniform = sum(n for op, n in ops.items() if op.startswith("U"))
        vinc = sum(bool(re.match(r"(VIADD|IADD3) (R\d+), \2, 0x1\b", i)) for i in code)
        uinc = sum(bool(re.match(r"UIADD3 (UR\d+), (UP\d, )?\1, 0x1\b", i)) for i in code)
        print(f"{path[:18]:18s} {name[:70]:70s} n={len(code):5d} U={uniform:4d} STL={ops['STL']} LDL={ops['LDL']} "
              f"vinc={vinc} uinc={uinc} S2R={ops['S2R']}")
