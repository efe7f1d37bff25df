#!/usr/bin/env python3
"""The lines of code (non-blank, non-comment) of the parts each application of the report is made of, of the
sweep's code, and of each layer folder of src/.

    python3 bench/count_loc.py OUT_JSON
"""
import json
import os
import re
import subprocess

from ..catalog import backends
from ..catalog.paths import TOP
# The parts the report's applications are made of beyond the core every code shares, the lines both Kokkos
# forms share counted once, apart: each backend folder names its own (backend.json); the core's are here.
CORE_PARTS = {
    "pointer fields": ["src/core/pointer_fields.hpp"],  # hand CUDA's and hand omp's field bundle
    "gpu sweep": ["src/core/sweep_march.hpp"],  # hand CUDA's, hand omp's and Kokkos' team sweep
    "cpu sweep": ["src/core/cache_sweep.hpp"],  # cpu-openmp's and Kokkos' host sweep
    "register march": ["src/core/register_march.hpp"],  # hand CUDA's and tuned Kokkos' march
    "march tiles": ["src/core/march_tiles.hpp"],  # hand omp's and tuned Kokkos' work-item layout
    "shared core": ["src/core/wave_update.hpp", "src/core/sponge.hpp", "src/core/step_plan.hpp", "src/core/wave_impl.hpp",
                    "src/core/wave_impl.cpp", "src/core/backend.hpp", "src/core/tuning.hpp", "src/core/tuning.cpp",
                    "src/core/time_ring.hpp"],
}
PARTS = {**backends.parts(), **CORE_PARTS}

# The sweep's code (issue 44, item 6): the shared sweeps and each model's part, a declaration by its first line.
SWEEP = {
    "GPU sweep, shared (hand CUDA, Kokkos-CUDA, hand omp)": [("src/core/sweep_march.hpp", None)],
    "CPU sweep, shared (cpu-openmp, Kokkos host backends)": [("src/core/cache_sweep.hpp", None)],
    "cuda": [("src/cuda/wave_cuda.cu", r"__global__ void __launch_bounds__\(SweepTile::kThreads, SweepTile::kTeamsAnSm\)"),
             ("src/cuda/wave_cuda.cu", r"void enqueue_sweep\(\)"),
             ("src/cuda/wave_cuda.cu", r"void enqueue_sweep_segments\(int begin, int end\) \{")],  # (its launch)
    "kokkos-cuda": [("src/kokkos/sweep_step.hpp", r"struct SweepStep \{"),
                    ("src/kokkos/wave_kokkos.hpp", r"void sweep\(\) \{")],
    "kokkos host": [("src/kokkos/sweep_step.hpp", r"struct CacheSweepStep \{"),
                    ("src/kokkos/wave_kokkos.hpp", r"void sweep\(\) \{")],
    "omp": [("src/omp/wave_omp.cpp", r"void sweep\(\) \{"), ("src/omp/wave_omp.cpp", r"void sweep_teams\(\) \{")],
    "cpu-openmp": [("src/cpu/wave_cpu.cpp", r"void WaveCpu::sweep\(\) \{")],
}


def declaration(text, start):
    """The declaration whose first line matches `start`, to the brace that closes its first one."""
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if re.search(start, line))
    depth, opened = 0, False
    for i in range(first, len(lines)):
        code = re.sub(r"//.*", "", lines[i])
        depth += code.count("{") - code.count("}")
        opened = opened or "{" in code
        if opened and depth <= 0:
            return "\n".join(lines[first:i + 1])
    raise ValueError(f"no end for {start!r}")


def sweep_lines():
    out = {}
    for name, regions in SWEEP.items():
        total = 0
        for path, start in regions:
            with open(os.path.join(TOP, path)) as f:
                text = f.read()
            total += code_lines(text if start is None else declaration(text, start))
        out[name] = {"regions": [f"{p}" + (f" ({s})" if s else "") for p, s in regions], "lines": total}
    return out


def code_lines(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    lines = [re.sub(r"//.*", "", line).strip() for line in text.splitlines()]
    return sum(1 for line in lines if line)


def main(argv):
    if len(argv) != 1:
        print(__doc__)
        return 2
    commit = subprocess.run(["git", "-C", TOP, "describe", "--always", "--dirty", "--abbrev=12"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    result = {"schema": "awave-loc/1", "git_commit": commit, "parts": {}, "layers": {}}
    for name, files in PARTS.items():
        result["parts"][name] = {"files": files,
                                 "lines": sum(code_lines(open(os.path.join(TOP, f)).read()) for f in files)}
    result["sweep"] = sweep_lines()
    src = os.path.join(TOP, "src")  # lines (all) per layer folder of src/, for the layout's balance
    for folder in sorted(os.listdir(src)):
        if os.path.isdir(os.path.join(src, folder)):
            result["layers"][folder] = sum(code_lines(open(os.path.join(src, folder, f)).read())
                                           for f in sorted(os.listdir(os.path.join(src, folder))))
    with open(argv[0], "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    print(json.dumps({name: part["lines"] for name, part in result["parts"].items()}))
    return 0

