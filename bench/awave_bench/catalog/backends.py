"""The backend folders as the study's tools see them: each src/<folder>/backend.json, in the build's order
(AWAVE_BACKEND_FOLDERS); its backend.cpp is the C++ side, held to the same ids by tests/harness/test_catalog.py.
An implementation entry: {"id", and where the report compares it: "application", "toolchain" (cuda,
openmptarget, host), "parts" (count_loc.py's), optionally "label" (the sweep variant its results come from)
and "build" (the build that runs it there, where not the toolchain's)}.
"""
import json
import os

from . import cmake_lists, toolchains
from .paths import TOP

# The toolchains a backend.json names, in the report's order, with the words the report uses (cmake/toolchains/).
TOOLCHAINS = toolchains.WORDS


def folders(top=TOP):
    """AWAVE_BACKEND_FOLDERS, as src/CMakeLists.txt sets it."""
    found = cmake_lists.set_words(os.path.join(top, "src", "CMakeLists.txt"), "AWAVE_BACKEND_FOLDERS")
    if found is None:
        raise ValueError("src/CMakeLists.txt sets no AWAVE_BACKEND_FOLDERS")
    return found


def load(top=TOP):
    """[(folder, its backend.json)], in the build's order."""
    out = []
    for folder in folders(top):
        with open(os.path.join(top, "src", folder, "backend.json")) as f:
            out.append((folder, json.load(f)))
    return out


def implementation_ids(top=TOP):
    """{id: folder} of every implementation a backend may register."""
    return {i["id"]: folder for folder, b in load(top) for i in b["implementations"]}


def applications(top=TOP):
    """{application: {toolchain: entry + "folder"}}, applications in the order they first appear,
    toolchains in TOOLCHAINS' order."""
    apps = {}
    for folder, b in load(top):
        for i in b["implementations"]:
            if "application" in i:
                apps.setdefault(i["application"], {})[i["toolchain"]] = dict(i, folder=folder)
    return {a: {t: by[t] for t in TOOLCHAINS if t in by} for a, by in apps.items()}


def parts(top=TOP):
    """{part: [paths under the checkout]} of every backend's parts."""
    return {name: [f"src/{folder}/{f}" for f in files] for folder, b in load(top) for name, files in b["parts"].items()}


def not_in(top=TOP):
    """{application: [files its translation units compile for another application only]}."""
    out = {}
    for _, b in load(top):
        for app, files in b.get("not_in", {}).items():
            out.setdefault(app, []).extend(files)
    return out


def problems(listed_ids, top=TOP):
    """What disagrees between the backend folders and a build: an implementation the build lists
    (awave -list) that no backend.json names, a folder that defines no backend, a part's file that
    is missing, an application on a toolchain twice. [] where they agree."""
    found = []
    known = implementation_ids(top)
    found += [f"{i}: listed by the build, in no backend.json" for i in listed_ids if i not in known]
    for folder in folders(top):
        path = os.path.join(top, "src", folder)
        texts = [open(os.path.join(path, f)).read() for f in sorted(os.listdir(path)) if f.endswith((".cpp", ".cu"))]
        if not any(f"extern const Backend {folder}_backend" in t for t in texts):
            found.append(f"src/{folder}: defines no {folder}_backend (core/backend.hpp)")
    for name, files in parts(top).items():
        found += [f"part {name}: {f} does not exist" for f in files if not os.path.exists(os.path.join(top, f))]
    seen = set()
    for folder, b in load(top):
        for i in b["implementations"]:
            key = (i.get("application"), i.get("toolchain"))
            if key[0] and key in seen:
                found.append(f"{key[0]} on {key[1]}: two implementations")
            seen.add(key)
    return found


def catalog_problems(top=TOP):
    """What disagrees between the toolchain folders and the backend folders (and within the toolchains'): a
    toolchain's sweep naming an implementation no backend.json has, an implementation on a toolchain that has no
    folder. [] where they agree."""
    found = toolchains.problems(top)
    known = implementation_ids(top)
    chains = toolchains.load(top)
    for name, t in chains.items():
        sweep = t.get("sweep") if isinstance(t.get("sweep"), dict) else {}
        built = toolchains.backend_folders(name, top)
        if built is None:
            found.append(f"cmake/toolchains/{name}/toolchain.cmake sets no AWAVE_TOOLCHAIN_BACKEND_FOLDERS")
        for i in list(sweep.get("implementations", [])) + [sweep.get("reference")]:
            if i not in known:
                found.append(f"{name}: its sweep names {i!r}, which no backend.json has")
            elif built is not None and known[i] not in built:
                found.append(f"{name}: its sweep runs {i!r}, of src/{known[i]}, a folder the toolchain does not build")
    for folder, b in load(top):
        for i in b["implementations"]:
            if "toolchain" in i and i["toolchain"] not in chains:
                found.append(f"src/{folder}/backend.json: {i['id']} on toolchain {i['toolchain']!r}, which has no "
                             "cmake/toolchains/ folder")
            elif "toolchain" in i and folder not in (
                    toolchains.backend_folders(i.get("build", i["toolchain"]), top) or [folder]):
                found.append(f"src/{folder}/backend.json: {i['id']} on toolchain {i['toolchain']!r}, whose build does "
                             f"not build src/{folder}")
    return found


def sweepers(toolchain, top=TOP):
    """The codes of a toolchain's default sweep that have the sweep (hand-written and Kokkos tuned; the others take
    single steps anyway), in the sweep's order: bench/study.sh's single-step plan runs these."""
    apps = applications(top)
    ids = {by[toolchain]["id"] for app, by in apps.items()
           if app in ("hand-written", "Kokkos tuned") and toolchain in by}
    return [i for i in toolchains.SWEEP_IMPLEMENTATIONS[toolchain] if i in ids]
