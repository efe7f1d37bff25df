"""The first screen's cells as runs: its rows (every application, and each Kokkos one again for each other Kokkos),
each cell's samples (checked, or held by digest to a checked run; none where unchecked), its runs per machine, and how
far a pooled platform's machines differ."""
import statistics

from .builds import kokkos_versions, other_kokkos_builds
from .study import APPLICATIONS, QUESTIONS, impl_samples


def screen_apps(runs):
    """The first screen's rows: (label, app, suffix or None): every application, then each Kokkos
    application again for each other Kokkos (the builds of one suffix, one row over their presets:
    cuda-k46, openmptarget-k46, host-k46), the Kokkos rows labelled with their versions."""
    others = {}
    for build, version in other_kokkos_builds(runs).items():
        others.setdefault(build.partition("-")[2], set()).add(version)
    own_versions = kokkos_versions(runs, others=False)
    own = " (" + " / ".join(own_versions) + ")" if others else ""
    rows = [(app + (own if app.startswith("Kokkos") else ""), app, None) for app in APPLICATIONS]
    for suffix, versions in sorted(others.items(), key=lambda x: sorted(x[1])):
        # (the suffix too where the version alone does not tell the rows apart)
        said = " / ".join(sorted(versions)) + (f", {suffix}" if sorted(versions) == own_versions else "")
        rows += [(f"{app} ({said})", app, suffix) for app in APPLICATIONS if app.startswith("Kokkos")]
    return rows


def screen_samples(runs, platform, app, suffix, size, question, by_machine=False):
    """A first-screen cell's runs: su_samples, or the same code's in the platform's build against
    another Kokkos (its preset's name with that suffix); none where they are unchecked (a held plan whose checked
    run failed or is missing), so that the screen shows "—" rather than an unchecked number."""
    if suffix is None:
        spec = APPLICATIONS[app].get(platform[1])
        if spec is None:
            return [0.0]  # does not run here (su_samples)
        samples, note = impl_samples(runs, platform, *spec, size, question, by_machine=by_machine)
    elif platform[1] not in APPLICATIONS[app]:
        return []
    else:
        impl, label = APPLICATIONS[app][platform[1]]
        samples, note = impl_samples(runs, platform, impl, label, size, question, build_name=f"{platform[1]}-{suffix}",
                                     by_machine=by_machine)
    return [] if "unchecked" in note else samples  # runs held to no checked run: not evidence


def run_count(runs, platform, app, suffix, size, question):
    """[the runs of each machine] behind a first-screen cell (e.g. [3, 3]: two machines of three runs); [] where
    it has none (not measured, or a code that does not run there)."""
    cells = screen_samples(runs, platform, app, suffix, size, question, by_machine=True)
    return [len(v) for v in cells.values()] if isinstance(cells, dict) else []


def machine_spread(runs, platform, shapes):
    """(fewest machines, most machines, the largest ratio of one cell's machine medians, the largest ratio of
    one machine's fastest run over its slowest) over a platform's cells at the page's sizes (every application
    and question; the Kokkos builds against another Kokkos included): how far a pooled platform's machines
    differ beside how far their runs spread. None where the platform has one machine."""
    machines, between, within = set(), [], []
    for _, app, suffix in screen_apps(runs):
        for s in shapes:
            for q in QUESTIONS:
                cells = screen_samples(runs, platform, app, suffix, s, q, by_machine=True)
                if not isinstance(cells, dict) or not cells:
                    continue
                machines.add(len(cells))
                medians = [statistics.median(v) for v in cells.values()]
                if len(medians) > 1 and min(medians) > 0:
                    between.append(max(medians) / min(medians))
                within += [max(v) / min(v) for v in cells.values() if len(v) > 1 and min(v) > 0]
    if not between:
        return None
    return min(machines), max(machines), max(between), max(within, default=1.0)
