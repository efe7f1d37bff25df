#!/usr/bin/env python3
"""The spill guard of a cuda build (issue 56): recompiles the translation units that hold the
step and sweep kernels with ptxas' report (-Xptxas=-v), reads every kernel's registers and spill
bytes, and fails when a kernel the limits name spills more than its limit. No GPU needed.

  check_spills.py BUILD_DIR [--limits FILE] [--json OUT] [--plant]

BUILD_DIR is a cuda build (its compile_commands.json). The limits (tests/tools/spill_limits.json) name
the translation units and, per kernel (a regular expression on the demangled name), the spill
bytes measured when the limit was set; a limit that matches no kernel fails too (a renamed
kernel must not slip out of the guard). --plant compiles a copy of src/ in which the sweep's
teams an SM (SweepTile::kTeamsAnSm) is 3 instead of 2, which caps registers at 32 and must
spill: the guard has to fail then.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

ENTRY = re.compile(r"Compiling entry function '([^']+)'")
SPILLS = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
REGISTERS = re.compile(r"Used (\d+) registers")
PLANT_FROM = "static constexpr int kTeamsAnSm = 2;"
PLANT_TO = "static constexpr int kTeamsAnSm = 3;"


def parse_ptxas(text):
    """Kernel -> {registers, stack, spill_stores, spill_loads} from ptxas -v output."""
    kernels, current = {}, None
    for line in text.splitlines():
        m = ENTRY.search(line)
        if m:
            current = m.group(1)
            kernels[current] = {"registers": 0, "stack": 0, "spill_stores": 0, "spill_loads": 0}
            continue
        if current is None:
            continue
        m = SPILLS.search(line)
        if m:
            kernels[current].update(stack=int(m.group(1)), spill_stores=int(m.group(2)), spill_loads=int(m.group(3)))
        m = REGISTERS.search(line)
        if m:
            kernels[current]["registers"] = int(m.group(1))
    return kernels


def demangle(names):
    if not names or not shutil.which("c++filt"):
        return {n: n for n in names}
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True, check=True).stdout
    return dict(zip(names, out.splitlines()))


def check(kernels, limits, others_max):
    """Failures (strings) of kernels (demangled name -> resources) against the limits; a kernel no
    limit names may spill others_max bytes."""
    failures = []
    named = {n for n in kernels for l in limits if re.search(l["kernel"], n)}
    for name in sorted(set(kernels) - named):
        k = kernels[name]
        spill = max(k["spill_stores"], k["spill_loads"])
        if spill > others_max:
            failures.append(f"{spill} bytes spilled, limit {others_max} ({k['registers']} registers; {name[:160]})")
    for limit in limits:
        pattern = re.compile(limit["kernel"])
        matched = [n for n in kernels if pattern.search(n)]
        if not matched:
            failures.append(f"no kernel matches '{limit['kernel']}' ({limit['what']})")
        for name in matched:
            k = kernels[name]
            spill = max(k["spill_stores"], k["spill_loads"])
            if spill > limit["max_spill_bytes"]:
                failures.append(f"{limit['what']}: {spill} bytes spilled, limit {limit['max_spill_bytes']} "
                                f"({k['registers']} registers; {name[:160]})")
    return failures


def source_dir(build_dir):
    """The project source tree a build compiles (its CMakeCache's CMAKE_HOME_DIRECTORY)."""
    with open(os.path.join(build_dir, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith("CMAKE_HOME_DIRECTORY:"):
                return line.split("=", 1)[1].strip()
    raise SystemExit(f"check_spills: no CMAKE_HOME_DIRECTORY in {build_dir}/CMakeCache.txt")


def compile_commands(build_dir, root, sources):
    with open(os.path.join(build_dir, "compile_commands.json")) as f:
        entries = json.load(f)
    found = {}
    for e in entries:
        rel = os.path.relpath(e["file"], root)
        if rel in sources:
            found[rel] = e
    missing = [s for s in sources if s not in found]
    if missing:
        raise SystemExit(f"check_spills: {build_dir} does not compile {', '.join(missing)} (a cuda build?)")
    return [found[s] for s in sources]


def ptxas_report(entry, root, source_root, out_dir):
    """ptxas -v output of one compile, its sources read from source_root (root's src/ or a copy)."""
    args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    src = os.path.join(root, "src")
    args = [a.replace(src, source_root) for a in args]
    if "-o" in args:
        args[args.index("-o") + 1] = os.path.join(out_dir, "kernel.o")
    r = subprocess.run(args + ["-Xptxas=-v"], cwd=entry["directory"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"check_spills: compiling {entry['file']} failed:\n{r.stderr[-3000:]}")
    return r.stdout + r.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build_dir")
    ap.add_argument("--limits", default=os.path.join(HERE, "spill_limits.json"))
    ap.add_argument("--json", help="write every kernel's registers and spills here")
    ap.add_argument("--plant", action="store_true", help="compile with a planted spill (the guard must fail)")
    a = ap.parse_args()
    with open(a.limits) as f:
        limits = json.load(f)
    root = source_dir(a.build_dir)
    with tempfile.TemporaryDirectory() as tmp:
        source_root = os.path.join(root, "src")
        if a.plant:
            source_root = os.path.join(tmp, "src")
            shutil.copytree(os.path.join(root, "src"), source_root)
            march = os.path.join(source_root, "core", "sweep_march.hpp")
            text = open(march).read()
            if PLANT_FROM not in text:
                raise SystemExit(f"check_spills: cannot plant: '{PLANT_FROM}' not in core/sweep_march.hpp")
            open(march, "w").write(text.replace(PLANT_FROM, PLANT_TO))
        raw = {}
        for entry in compile_commands(a.build_dir, root, limits["sources"]):
            raw.update(parse_ptxas(ptxas_report(entry, root, source_root, tmp)))
    names = demangle(sorted(raw))
    kernels = {names[n]: raw[n] for n in raw}
    if a.json:
        with open(a.json, "w") as f:
            json.dump(kernels, f, indent=1, sort_keys=True)
    for name in sorted(kernels):
        k = kernels[name]
        if k["spill_stores"] or k["spill_loads"] or any(re.search(l["kernel"], name) for l in limits["kernels"]):
            print(f"{k['registers']:3d} registers, {k['spill_stores']:3d} B spill stores, "
                  f"{k['spill_loads']:3d} B spill loads: {name[:140]}")
    failures = check(kernels, limits["kernels"], limits["other_kernels_max_spill_bytes"])
    for f in failures:
        print(f"check_spills: FAIL: {f}")
    if not failures:
        print(f"check_spills: ok: {len(kernels)} kernels read, {len(limits['kernels'])} limits held")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
