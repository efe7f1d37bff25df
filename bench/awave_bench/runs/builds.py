"""What a study's runs record of their builds: the page's own builds and those against another Kokkos, the Kokkos
versions and compilers they name, the study's commits."""
import re

from .record import kokkos_release
from .study import SINGLE_STEPS, TOOLCHAINS, platform_name


def other_kokkos_builds(runs):
    """{build name: its Kokkos version} of the study's builds against another Kokkos (bench/study.sh
    OTHER_KOKKOS: a preset's name with a suffix, e.g. cuda-k46), from their runs' build records."""
    found = {}
    for (_, build, label, _), rounds in runs.items():
        preset, _, suffix = build.partition("-")
        if preset in TOOLCHAINS and suffix and label in ("", SINGLE_STEPS):
            for r, _ in rounds:
                if r.get("status") == "ok":
                    found[build] = kokkos_release(r.get("build", {}).get("kokkos_version", "?"))
    return found


def page_builds(runs):
    """{preset: [the build records of the page's own runs]} (the presets' default and single-step runs)."""
    found = {}
    for (_, build, label, _), rounds in runs.items():
        if build in TOOLCHAINS and label in ("", SINGLE_STEPS):
            found.setdefault(build, []).extend(r.get("build", {}) for r, _ in rounds if r.get("status") == "ok")
    return found


def kokkos_versions(runs, others=True):
    """The Kokkos versions of the page's own runs, and of the builds against another Kokkos (others)."""
    return sorted({kokkos_release(b.get("kokkos_version", "?"))
                   for builds in page_builds(runs).values() for b in builds}
                  | (set(other_kokkos_builds(runs).values()) if others else set()))


def compilers_by_toolchain(runs):
    """{toolchain: "nvcc 13.0.88"}: each toolchain's compilers in the page's own runs."""
    found, builds = {}, page_builds(runs)
    for preset in TOOLCHAINS:
        names = {re.sub(r" \(host .*\)$", "", b.get("compiler", "?")) for b in builds.get(preset, [])}
        if names:
            found[TOOLCHAINS[preset]] = " / ".join(sorted(names))
    return found


def compilers(runs):
    """Each toolchain's compilers in the page's own runs: "CUDA nvcc 13.0.88, OpenMP offload Clang 19.1.7, ..."."""
    return ", ".join(f"{toolchain} {names}" for toolchain, names in compilers_by_toolchain(runs).items())


def platforms_by_commit(runs):
    """{commit: [platform names]} of the first page's own runs (the presets' default builds, default and
    single-step plans; variants are evidence): the study's commits."""
    by_commit = {}
    for (hardware, build, label, _), rounds in runs.items():
        if build in TOOLCHAINS and label in ("", SINGLE_STEPS):
            for r, _ in rounds:
                names = by_commit.setdefault(r.get("build", {}).get("git_commit", "?"), [])
                if platform_name((hardware, build)) not in names:
                    names.append(platform_name((hardware, build)))
    return by_commit
