#!/usr/bin/env python3
"""Check that src/ keeps its layers: dependencies point one way and no folder holds most of the code.

    check_layers.py [SRC_DIR]          check the tree (default: this checkout's src/)
    check_layers.py --self-test        plant violations in a copy and see each one caught

Rules: a folder includes (with #include "folder/...") only from itself and the folders below it:
core <- parallel <- io <- app, and each backend folder (cpu, cuda, omp, kokkos: bench/awave_bench/catalog/backends.py) from
core alone;
app may include anything. No folder holds more than 40% of src/'s lines.
"""
import os
import re
import shutil
import sys
import tempfile

from awave_bench.catalog import backends

ALLOWED = {
    "core": {"core"},
    "parallel": {"core", "parallel"},
    "io": {"core", "parallel", "io"},
    **{folder: {"core", folder} for folder in backends.folders()},  # each backend (src/CMakeLists.txt)
    "app": None,  # the top: anything
    "view": set(),  # awave-view (Python): reads files, includes nothing
}
MAX_SHARE = 0.40
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
SOURCES = (".hpp", ".cpp", ".cu", ".cuh", ".h", ".in")


def problems(src):
    found, lines = [], {}
    for folder in sorted(os.listdir(src)):
        path = os.path.join(src, folder)
        if not os.path.isdir(path):
            continue
        if folder not in ALLOWED:
            found.append(f"src/{folder}/ is not a known layer (add it to tests/tools/check_layers.py)")
            continue
        for name in sorted(os.listdir(path)):
            if not name.endswith(SOURCES):
                continue
            with open(os.path.join(path, name)) as f:
                text = f.read()
            lines[folder] = lines.get(folder, 0) + text.count("\n")
            allowed = ALLOWED[folder]
            for target in INCLUDE.findall(text):
                top = target.split("/")[0] if "/" in target else folder  # "x.hpp": its own folder
                if top not in ALLOWED:
                    continue  # generated headers (build_info.hpp, git_commit.hpp), system-like paths
                if allowed is not None and top not in allowed:
                    found.append(f"src/{folder}/{name} includes \"{target}\": {folder}/ may include only "
                                 f"{', '.join(sorted(allowed))}")
    total = sum(lines.values())
    for folder, n in lines.items():
        if total and n / total > MAX_SHARE:
            found.append(f"src/{folder}/ holds {100 * n / total:.0f}% of src/'s lines (at most {100 * MAX_SHARE:.0f}%)")
    return found, lines, total


def self_test(src):
    """Each planted violation must be reported; the untouched copy must pass."""
    plants = [
        ("core/planted.hpp", '#include "kokkos/wave_kokkos.hpp"\n'),
        ("core/planted.hpp", '#include "app/driver.hpp"\n'),
        ("io/planted.hpp", '#include "app/cli.hpp"\n'),
        ("cuda/planted.hpp", '#include "io/vtkhdf.hpp"\n'),
        ("parallel/planted.hpp", '#include "io/vtkhdf.hpp"\n'),
        ("core/planted.cpp", "int x;\n" * 200000),  # one folder with most of the lines
    ]
    failures = 0
    for rel, text in plants:
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "src")
            shutil.copytree(src, copy)
            with open(os.path.join(copy, rel), "w") as f:
                f.write(text)
            found, _, _ = problems(copy)
            caught = any("planted" in p or "% of src/" in p for p in found)
            print(f"{'caught' if caught else 'MISSED'}: {rel} {text[:40].strip()!r}")
            failures += not caught
    clean, _, _ = problems(src)
    print("untouched tree:", "clean" if not clean else clean)
    return 1 if failures or clean else 0


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    src = os.path.join(os.path.dirname(os.path.dirname(here)), "src")
    if argv and argv[0] == "--self-test":
        return self_test(src)
    if argv:
        src = argv[0]
    found, lines, total = problems(src)
    for folder, n in sorted(lines.items(), key=lambda kv: -kv[1]):
        print(f"src/{folder}/: {n} lines ({100 * n / total:.0f}%)")
    for p in found:
        print("layer violation:", p)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
