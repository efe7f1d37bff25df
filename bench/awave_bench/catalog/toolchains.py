"""The toolchains, each a folder cmake/toolchains/<name>/: its toolchain.cmake is what CMake loads by name
(AWAVE_BACKEND); its toolchain.json what the harness reads of it, listed nowhere else:

  order         its place in the report (tables, rows, the screen's targets)
  words         how the report names it ("CUDA", "OpenMP offload", "CPU")
  target        the screen's row of that toolchain's platforms alone ("NVIDIA GPUs, CUDA")
  on_device     whether its codes run on an accelerator (the sweep's step counts; study.sh's GPU builds)
  sweep         what bench/sweep.py runs by default: "implementations" (ids of the backend folders' backend.json)
                and the "reference" a checked run is compared with

The implementations themselves are the backend folders' (catalog.backends, which holds the two to each other).
"""
import json
import os

from . import cmake_lists
from .paths import TOP

KEYS = {"about": str, "order": int, "words": str, "target": str, "on_device": bool, "sweep": dict}


def folder(top=TOP):
    return os.path.join(top, "cmake", "toolchains")


def load(top=TOP):
    """{name: its toolchain.json}, in their order."""
    found = {}
    base = folder(top)
    for name in sorted(os.listdir(base)):
        path = os.path.join(base, name, "toolchain.json")
        if os.path.isfile(path):
            with open(path) as f:
                found[name] = json.load(f)
    return dict(sorted(found.items(), key=lambda kv: (kv[1].get("order", 0), kv[0])))


def problems(top=TOP):
    """What is wrong with the toolchain folders themselves; [] when nothing (backends.catalog_problems adds what
    disagrees with the backend folders)."""
    found = []
    base = folder(top)
    for name in sorted(os.listdir(base)):
        for f in ("toolchain.cmake", "toolchain.json"):
            if not os.path.isfile(os.path.join(base, name, f)):
                found.append(f"cmake/toolchains/{name}: no {f}")
    chains = load(top)
    for name, t in chains.items():
        for key, kind in KEYS.items():
            if not isinstance(t.get(key), kind):
                found.append(f"{name}: '{key}' missing or not {kind.__name__}")
    orders = [t.get("order") for t in chains.values()]
    if len(set(orders)) != len(orders):
        found.append("two toolchains share an order")
    return found


def backend_folders(name, top=TOP):
    """The src/ backend folders a toolchain builds, as its toolchain.cmake declares them
    (AWAVE_TOOLCHAIN_BACKEND_FOLDERS); None where it declares none."""
    path = os.path.join(folder(top), name, "toolchain.cmake")
    return cmake_lists.set_words(path, "AWAVE_TOOLCHAIN_BACKEND_FOLDERS") if os.path.isfile(path) else None


# (Read leniently, so that a broken toolchain.json reaches problems() and bench/catalog.py check, not a KeyError.)
TOOLCHAINS = load()
WORDS = {name: t.get("words", name) for name, t in TOOLCHAINS.items()}
ON_DEVICE = [name for name, t in TOOLCHAINS.items() if t.get("on_device")]
SWEEP_IMPLEMENTATIONS = {name: list((t.get("sweep") or {}).get("implementations", []))
                         for name, t in TOOLCHAINS.items()}
SWEEP_REFERENCE = {name: (t.get("sweep") or {}).get("reference") for name, t in TOOLCHAINS.items()}

