"""One run record (awave-run/1, as awave -json writes it): its schema and validation, loading a folder's
records, the steady rate of an MPI run, and Kokkos' release names."""
import json
import os

from ..catalog import paths
from . import files as runfiles

# The record's keys and types, declared once beside the code that writes them (src/app/driver.cpp).
SCHEMA_FILE = os.path.join(paths.TOP, "src", "app", "run_record.schema.json")
_TYPES = {"string": str, "object": dict, "array": list, "boolean": bool, "number": (int, float)}


def _schema():
    with open(SCHEMA_FILE) as f:
        declared = json.load(f)
    keys = {part: {k: _TYPES[t] for k, t in declared[part].items()} for part in ("run", "build", "implementation")}
    return declared["schema"], keys["run"], keys["build"], keys["implementation"]


SCHEMA, RUN_KEYS, BUILD_KEYS, IMPL_KEYS = _schema()


def validate_run(result):
    """Problems with one awave result (awave-run/1, as written by awave -json); [] when valid."""
    problems = []
    for key, kind in RUN_KEYS.items():
        if not isinstance(result.get(key), kind):
            problems.append(f"missing or mistyped '{key}'")
    if problems:
        return problems
    if result["schema"] != SCHEMA:
        problems.append(f"unknown schema {result['schema']}")
    for key, kind in BUILD_KEYS.items():
        if not isinstance(result["build"].get(key), kind):
            problems.append(f"build: missing or mistyped '{key}'")
    shape = result["params"].get("shape")
    if not (isinstance(shape, list) and len(shape) == 3 and all(isinstance(n, int) and n > 0 for n in shape)):
        problems.append("params: shape is not three positive integers")
    for impl in result["implementations"]:
        for key, kind in IMPL_KEYS.items():
            if not isinstance(impl.get(key), kind):
                problems.append(f"implementation {impl.get('id')}: missing or mistyped '{key}'")
        steps, seconds = impl.get("chunk_steps", []), impl.get("chunk_seconds", [])
        if len(steps) != len(seconds) or not steps or sum(steps) != result["params"].get("nsteps"):
            problems.append(f"implementation {impl.get('id')}: chunks do not add up to nsteps")
        if any(not (isinstance(s, (int, float)) and s > 0) for s in seconds):
            problems.append(f"implementation {impl.get('id')}: a chunk time is not positive")
        if impl.get("checked") and not isinstance(impl.get("differences"), int):
            problems.append(f"implementation {impl.get('id')}: checked but no difference count")
    return problems


def steady_su(run, impl):
    """Median SU/s of the chunks after the first (which carries MPI's and the halo buffers'
    warm-up), and the first chunk's."""
    shape = run["params"]["shape"]
    n = shape[0] * shape[1] * shape[2]
    su = [n * s / t for s, t in zip(impl["chunk_steps"], impl["chunk_seconds"])]
    later = sorted(su[1:]) or su
    m = len(later)
    return (later[m // 2] if m % 2 else 0.5 * (later[m // 2 - 1] + later[m // 2])), su[0]


def steady_su_of(run, impl_id):
    """steady_su's median for the implementation impl_id of a run, or None where the run (or the
    implementation in it) is missing."""
    impl = next((i for i in run["implementations"] if i["id"] == impl_id), None) if run else None
    return steady_su(run, impl)[0] if impl else None


def with_results(dirs):
    """The directories that hold JSON result files."""
    return [d for d in dirs if runfiles.glob(d, "*.json")]


def load_runs(d, prefix):
    """The awave-run JSON files NAME.json of a directory whose names start with prefix."""
    runs = {}
    for path in runfiles.glob(d, prefix + "*.json"):
        runs[os.path.basename(path)[:-5]] = runfiles.load(path)
    return runs


def kokkos_release(version):
    """A Kokkos version as its release is named ("4.6.1", as Kokkos 4's CMake package says it, is 4.6.01)."""
    parts = version.split(".")
    if len(parts) == 3 and all(p.isdigit() for p in parts):
        return f"{int(parts[0])}.{int(parts[1])}.{int(parts[2]):02d}"
    return version
