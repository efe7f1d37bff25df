#!/usr/bin/env python3
"""What clang's OpenMP offload makes of each target region of an openmptarget-build executable (no GPU needed):
relinks it with -save-temps (device code is compiled at link time), counts each region's generic and global
loads and stores of doubles in the PTX, and reads the registers and spills the link's own ptxas reports (with
-c, as the product's link; ptxas on the PTX without -c gives fewer).

    python3 bench/omp_ptx_census.py BUILD_DIR TARGET SOURCE     e.g.
    python3 bench/omp_ptx_census.py build/openmptarget bench/awave-omp-shapes bench/studies/omp-stencil-shapes/omp_stencil_shapes.cpp
"""
import os
import re
import subprocess
import sys
import tempfile


PATTERNS = [r"\bld\.f64", r"ld\.global\.f64", r"\bst\.f64", r"st\.global\.f64"]
# More ptxas options for the relink, each passed as -Xcuda-ptxas OPTION (PTXAS_ARGS="--minnctapersm=8").
PTXAS_ARGS = os.environ.get("PTXAS_ARGS", "").split()


def link_command(build_dir, target):
    cmds = subprocess.run(["ninja", "-C", build_dir, "-t", "commands", target], capture_output=True, text=True,
                          check=True).stdout.strip().splitlines()
    link = cmds[-1]
    return link.removeprefix(": && ").removesuffix(" && :")


def region_names(source):
    """Source line of each `#pragma omp target` -> the nearest preceding shape (a branch on
    `shape == Shape::X`, or `} else {  // x`) or function name."""
    names, context = {}, "?"
    with open(source) as f:
        for n, line in enumerate(f, 1):
            if "#pragma omp target" in line:
                names[n] = context
                continue
            branch = re.search(r"shape == Shape::(\w+)\)|\} else \{\s*// (\w+)", line)
            function = re.match(r"\s*(?:[\w:<>&*]+\s+)+(\w+)\(.*\)\s*(?:const\s*)?\{$", line)
            if branch:
                context = branch.group(1) or branch.group(2)
            elif function:
                context = function.group(1)
    return names


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    build_dir, target, source = argv
    cmd = link_command(build_dir, target)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "exe")
        cmd = re.sub(r" -o \S+", f" -o {out}", cmd, count=1) + " -save-temps -Xcuda-ptxas -v" + \
            "".join(f" -Xcuda-ptxas {a}" for a in PTXAS_ARGS)
        link = subprocess.run(cmd, shell=True, cwd=os.path.abspath(build_dir), check=True,
                              capture_output=True, text=True, env=dict(os.environ, TMPDIR=tmp))
        ptx = [f for f in os.listdir(os.path.abspath(build_dir)) if f.startswith("exe.") and f.endswith(".s")]
        ptx_dir = os.path.abspath(build_dir)
        if not ptx:  # -save-temps writes next to the output or into the working directory
            ptx = [f for f in os.listdir(tmp) if f.endswith(".s")]
            ptx_dir = tmp
        if not ptx:
            print("omp_ptx_census: no PTX from the relink", file=sys.stderr)
            return 1
        text = open(os.path.join(ptx_dir, ptx[0])).read()
        for f in os.listdir(os.path.abspath(build_dir)):  # what -save-temps left in the build directory
            if f.startswith("exe."):
                os.remove(os.path.join(os.path.abspath(build_dir), f))
    regs, spills, current = {}, {}, None
    for line in (link.stdout + link.stderr).splitlines():
        m = re.search(r"entry function '(\S+)'", line)
        if m:
            current = m.group(1)
        m = re.search(r"Used (\d+) registers", line)
        if m and current:
            regs[current] = int(m.group(1))
        m = re.search(r"(\d+) bytes spill stores", line)
        if m and current:
            spills[current] = int(m.group(1))
    if not regs:
        print("omp_ptx_census: the link's ptxas reported no registers", file=sys.stderr)
        return 1
    names = region_names(source)
    with open(source) as f:
        source_text = f.read()
    extra = f", ptxas {' '.join(PTXAS_ARGS)}" if PTXAS_ARGS else ""
    print(f"# {target}: PTX of each target region (clang offload, sm_90; registers from the device "
          f"link's ptxas{extra}), from `{' '.join(['bench/omp_ptx_census.py'] + argv)}`")
    print("| source line | function | region | generic ld.f64 | ld.global.f64 | generic st.f64 | st.global.f64 | "
          "registers | spill stores [bytes] |")
    print("|---|---|---|---|---|---|---|---|---|")
    for part in re.split(r"(?=\.visible \.entry|\.entry )", text):
        m = re.search(r"\.entry\s+(\S+)\(", part)
        if not m:
            continue
        kernel = m.group(1)
        line = int(re.search(r"_l(\d+)$", kernel).group(1))
        # __omp_offloading_<device>_<file>_<function>_l<line>: the enclosing function says which
        # file a region is in (a line number alone could be any file's, Kokkos' headers included)
        mangled = re.sub(r"^__omp_offloading_[0-9a-f]+_[0-9a-f]+_(.*)_l\d+$", r"\1", kernel)
        function = subprocess.run(["c++filt", mangled], capture_output=True, text=True).stdout.strip()
        function = function.replace("(anonymous namespace)::", "")
        short = re.sub(r"<.*", "", re.sub(r"\(.*", "", function).split(" ")[-1]).split("::")[-1]
        region = names.get(line, "?") if short and re.search(rf"\b{re.escape(short)}\(", source_text) \
            else "(another file)"
        tag = re.search(r"(?:kokkos|tuned|idiomatic)_regions::(\w+)", function)  # a Kokkos kernel: its region tag names it
        if tag:
            region = f"Kokkos {tag.group(1)}"
        counts = [len(re.findall(pattern, part)) for pattern in PATTERNS]
        print(f"| {line} | `{function[:70]}` | {region} | " + " | ".join(str(c) for c in counts) +
              f" | {regs.get(kernel, '?')} | {spills.get(kernel, '?')} |")
    return 0

