#!/usr/bin/env python3
"""Code divergence (Harrell et al., P3HPC 2018), computed as Intel's Code Base Investigator does.

    python3 bench/code_divergence.py OUT_JSON PLATFORM=BUILD_DIR ...
        e.g. cuda=build/cuda openmptarget=build/openmptarget host=build/host

Each platform's build's compile commands (compile_commands.json) go through their compiler's preprocessor
(-E, so KOKKOS_ENABLE_* resolve); the project's lines that survive, by the line markers, are the set that
platform compiles. An application's divergence is the mean over platform pairs of the Jaccard distance of
those sets (0: the same lines everywhere); its code convergence 1 - divergence. Like CBI it cannot see code a
compiler drops without the preprocessor (`if constexpr`, templates instantiated on one backend), nor outside src/.
"""
import itertools
import json
import os
import re
import shlex
import subprocess
import sys

from ..catalog import backends
from ..catalog.paths import TOP

# The translation units (paths under src/) an application compiles on each platform: its backend's folder
# (bench/awave_bench/catalog/backends.py); (build, prefixes) where it runs another platform's build (the CPU runs hand OpenMP
# offload's, its target regions on the host). A platform it does not run on is left out of its divergence.
APPLICATIONS = {a: {t: ((e["build"], [f"src/{e['folder']}/"]) if "build" in e else [f"src/{e['folder']}/"])
                    for t, e in by.items()} for a, by in backends.applications().items()}
# Files an application compiles for another application only (the Kokkos forms share theirs): not in its set.
NOT_IN = backends.not_in()


def preprocess_args(entry):
    """The entry's command with -E to stdout instead of compiling to a file."""
    args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if a in ("-c", "-MD", "-MMD") or a.startswith("-o") and len(a) > 2 and not a.startswith("-offload"):
            continue
        out.append(a)
    return out + ["-E"]


MARKER = re.compile(r'^#\s*(?:line\s+)?(\d+)\s+"([^"]*)"')


def relative(path, root):
    """path, its links resolved, relative to root (itself resolved, ending in a separator); None outside it."""
    full = os.path.realpath(path)
    return full[len(root):] if full.startswith(root) else None


def surviving_lines(text, root):
    """(path relative to root, line number) of every non-blank line of a file under root."""
    lines = set()
    file, number = None, 0
    root = os.path.realpath(root) + os.sep
    for line in text.splitlines():
        m = MARKER.match(line)
        if m:
            number = int(m.group(1))
            file = relative(m.group(2), root) if m.group(2) and not m.group(2).startswith("<") else None
            continue
        if file is not None and line.strip() and not line.lstrip().startswith("#pragma GCC"):
            lines.add((file, number))
        number += 1
    return lines


class CompilerMissing(Exception):
    """A build's compiler is not on this machine (a GPU machine has the binaries only)."""


def tu_lines(entry, root):
    args = preprocess_args(entry)
    try:
        proc = subprocess.run(args, cwd=entry.get("directory", "."), capture_output=True, text=True)
    except FileNotFoundError:
        raise CompilerMissing(f"{args[0]} is not on this machine") from None
    if proc.returncode != 0:
        raise RuntimeError(f"preprocessing {entry['file']} failed: {proc.stderr[-400:]}")
    return surviving_lines(proc.stdout, root)


def platform_lines(build_dir, root, tu_prefixes):
    """file -> set of line numbers, over the translation units under the given prefixes."""
    found = {}
    with open(os.path.join(build_dir, "compile_commands.json")) as f:
        entries = json.load(f)
    for entry in entries:
        rel = relative(os.path.join(entry.get("directory", "."), entry["file"]), os.path.realpath(root) + os.sep)
        if rel is None or not any(rel.startswith(p) or rel == p for p in tu_prefixes):
            continue
        for file, number in tu_lines(entry, root):
            found.setdefault(file, set()).add(number)
    return found


def jaccard_distance(a, b):
    union = a | b
    return 1.0 - len(a & b) / len(union) if union else 0.0


def divergence(sets):
    """Mean Jaccard distance over the pairs of platforms (Harrell et al.)."""
    pairs = list(itertools.combinations(sets, 2))
    return sum(jaccard_distance(a, b) for a, b in pairs) / len(pairs) if pairs else 0.0


def scoped(found, keep, drop=()):
    return {(f, n) for f, numbers in found.items() for n in numbers
            if any(f.startswith(k) for k in keep) and not any(f == d for d in drop)}


def application_sets(platform_builds, root=TOP, applications=APPLICATIONS):
    """{application: {"kernels": {platform: set}, "program": {platform: set}, "builds": {platform: build}}}."""
    cache = {}

    def lines_of(build, prefixes):  # a build's lines under prefixes, preprocessed once
        if (build, prefixes) not in cache:
            cache[(build, prefixes)] = platform_lines(build, root, prefixes)
        return cache[(build, prefixes)]

    shared = ("src/core/", "src/app/", "src/io/", "src/parallel/")
    result = {}
    for app, tus in applications.items():
        kernels, program, builds = {}, {}, {}
        for platform, build in platform_builds.items():
            prefixes = tus.get(platform, tus.get("*"))
            if prefixes is None:
                continue
            if isinstance(prefixes, tuple):  # (the platform whose build it compiles, prefixes)
                if prefixes[0] not in platform_builds:
                    continue
                build, prefixes = platform_builds[prefixes[0]], prefixes[1]
            builds[platform] = build
            own = sorted({p if p.endswith("/") else os.path.dirname(p) + "/" for p in prefixes})
            kernels[platform] = scoped(lines_of(build, tuple(prefixes)), own + ["src/core/"], NOT_IN.get(app, []))
            program[platform] = kernels[platform] | scoped(lines_of(build, shared), list(shared))
        result[app] = {"kernels": kernels, "program": program, "builds": builds}
    return result


def summarise(sets):
    """Each application's divergence per scope, or None with the reason where it has fewer than two
    builds: a code that one build compiles for every platform it runs on (hand OpenMP offload: the
    CPU runs the offload build) or that runs on one platform has no divergence to measure, and 0
    would read as perfect convergence."""
    out = {}
    for app, scopes in sets.items():
        builds = scopes.get("builds", {})
        distinct = sorted(set(builds.values()))
        why = None if len(distinct) >= 2 else (
            f"n/a: one build ({distinct[0]}) for {', '.join(sorted(builds))}" if distinct else "n/a: no build")
        out[app] = {scope: {"divergence": None if why else divergence(list(by_platform.values())),
                            "lines": {p: len(s) for p, s in by_platform.items()}}
                    for scope, by_platform in scopes.items() if scope != "builds"}
        if why:
            out[app]["why"] = why
    return out


def main(argv):
    if len(argv) < 2 or any("=" not in a for a in argv[1:]):
        print(__doc__)
        return 2
    builds = dict(a.split("=", 1) for a in argv[1:])
    for platform, build in builds.items():
        if not os.path.exists(os.path.join(build, "compile_commands.json")):
            print(f"code_divergence: {build}/compile_commands.json is missing (configure with the project's presets)",
                  file=sys.stderr)
            return 1
    commit = subprocess.run(["git", "-C", TOP, "describe", "--always", "--dirty", "--abbrev=12"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    try:
        applications = summarise(application_sets(builds))
    except CompilerMissing as e:
        print(f"code_divergence: {e}: no divergence measured here", file=sys.stderr)
        return 1
    result = {"schema": "awave-code-divergence/1", "git_commit": commit, "builds": builds, "applications": applications}
    with open(argv[0], "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    for app, r in result["applications"].items():
        if r.get("why"):
            print(f"{app}: divergence {r['why']}")
        else:
            print(f"{app}: divergence kernels {r['kernels']['divergence']:.3f}, program {r['program']['divergence']:.3f}")
    return 0

