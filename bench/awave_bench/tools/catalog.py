"""What the project is made of, for the shell scripts (bench/study.sh) and by hand:

    python3 bench/catalog.py toolchains [--on-device]   the toolchains (cmake/toolchains/), in the report's order
    python3 bench/catalog.py implementations TOOLCHAIN   the codes its default sweep runs, a,b,c
    python3 bench/catalog.py sweepers TOOLCHAIN          those of them that have the sweep, a,b
    python3 bench/catalog.py code TOOLCHAIN APP[,APP]    each application's code on it ("Kokkos tuned": kokkos-cuda)
    python3 bench/catalog.py check                       exit 1 naming what disagrees between the toolchain
                                                         folders and the backend folders
"""
import sys

from ..catalog import backends, toolchains


def main(argv):
    if argv[:1] == ["toolchains"] and argv[1:] in ([], ["--on-device"]):
        print(" ".join(toolchains.ON_DEVICE if argv[1:] else toolchains.TOOLCHAINS))
        return 0
    if argv[:1] in (["sweepers"], ["implementations"]) and len(argv) == 2:
        if argv[1] not in toolchains.TOOLCHAINS:
            print(f"catalog: no toolchain {argv[1]!r} (cmake/toolchains/ has {', '.join(toolchains.TOOLCHAINS)})",
                  file=sys.stderr)
            return 2
        ids = backends.sweepers(argv[1]) if argv[0] == "sweepers" else toolchains.SWEEP_IMPLEMENTATIONS[argv[1]]
        print(",".join(ids))
        return 0
    if argv[:1] == ["code"] and len(argv) == 3:
        apps = backends.applications()
        wanted = argv[2].split(",")
        missing = [a for a in wanted if argv[1] not in apps.get(a, {})]
        if missing:
            print(f"catalog: no {', '.join(missing)} on toolchain {argv[1]!r} (src/*/backend.json)", file=sys.stderr)
            return 2
        print(",".join(apps[a][argv[1]]["id"] for a in wanted))
        return 0
    if argv == ["check"]:
        found = backends.catalog_problems()
        for p in found:
            print(f"catalog: {p}")
        return 1 if found else 0
    print(__doc__, file=sys.stderr)
    return 2
