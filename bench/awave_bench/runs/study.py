"""A study's runs as the report reads them: the run files of its folders (bench/study.sh, bench/awave_bench/runs/files.py)
keyed by platform, build, plan and size, each cell's samples (checked, or held by digest to a checked run), the
platforms (one per hardware and toolchain; a CPU model's machines one platform, weighted alike), and what the runs record of their
builds (Kokkos versions, compilers, commits)."""
import os
import re

from ..catalog import backends, paths, toolchains
from . import files as runfiles
from .record import validate_run


# Platform: (hardware, toolchain). Toolchain = the build that runs there.
TOOLCHAINS = backends.TOOLCHAINS


# What each application runs on each toolchain: an implementation id, with the sweep variant
# (label) it comes from; where a CPU-platform result comes from another build than the host one;
# the lines each application is made of (count_loc.py's parts). All from the backend folders'
# backend.json (bench/awave_bench/catalog/backends.py): the CPU runs the offload build's codes with OMP_TARGET_OFFLOAD=DISABLED.
_APPS = backends.applications()


APPLICATIONS = {a: {t: (e["id"], e.get("label", "")) for t, e in by.items()} for a, by in _APPS.items()}


CPU_BUILD = {e["label"]: e["build"] for by in _APPS.values() for e in by.values() if "build" in e}


APPLICATION_PARTS = {a: list(dict.fromkeys(p for e in by.values() for p in e["parts"])) for a, by in _APPS.items()}


def points(shape):
    nx, ny, nz = (int(n) for n in shape.split("x"))
    return nx * ny * nz


def size_name(shape):
    n = shape.split("x")
    return f"{n[0]}^3" if len(set(n)) == 1 else shape


def gpu_short(name):
    words = [w for w in (name or "").split() if w not in ("NVIDIA", "Tesla")]
    return words[0] if words else None


def cpu_model(name):
    """A CPU's model in a word or two: "Intel(R) Xeon(R) Processor" -> "Xeon"."""
    words = re.sub(r"\((R|TM)\)|@.*$", " ", name or "").split()
    words = [w for w in words if w not in ("Intel", "AMD", "Processor", "CPU") and not re.match(r"^\d+-Core$", w)]
    return " ".join(words)


def cpu_hardware(cores, name=None):
    """A CPU platform's name: its model and cores. One model on several machines (the H100 and H200 device
    machines carry the same 16-core Xeon) is one platform, its machines' runs pooled (load_study) and weighted
    alike (machines_alike), so that PP weighs each piece of hardware once (issues 70, 80)."""
    model = cpu_model(name)
    return f"CPU ({cores}-core {model})" if model else f"CPU ({cores} cores)"


def hardware_short(hardware):
    """'CPU (16-core Xeon)' -> '16-core Xeon'; a GPU as it is."""
    return hardware[5:-1] if hardware.startswith("CPU (") else hardware


def machine_of(r):
    """The machine a run (or a triad reading) was taken on: the GPU machine it is part of, else its GPU."""
    return ((r.get("machine_gpu") or r.get("gpu") or {}).get("name")) or "?"


def load_run(path):
    """One run file of a study; status "invalid" (no number from it) where awave's result is not in
    awave's format (validate_run)."""
    r = runfiles.load(path)
    problems = validate_run(r) if r.get("status") == "ok" else []
    return dict(r, status="invalid", problems=problems) if problems else r


def load_study(dirs):
    """Runs keyed by (hardware, build, label, shape) -> [(result, directory), ...]: the rounds of
    that run (bench/sweep.py --rounds: NAME_SHAPE.json, NAME_SHAPE.r2.json, ...), on each machine from
    the one directory whose newest round is newest (a platform measured again replaces its earlier
    runs), pooled over the machines of one hardware (cpu_hardware); triads keyed by hardware -> (the
    best GB/s, its file, every reading: bench/sweep.py reads it before a build's first round and after
    its last); {hardware: CPU name}."""
    groups, triads, cpus, cpu_of_machine = {}, {}, {}, {}
    for d in dirs:
        for path in runfiles.glob(d, "*_*x*x*.json"):
            r = load_run(path)
            sweep = r.get("sweep", {})
            build_name = sweep.get("build") or os.path.basename(path).split("_")[0]
            preset = build_name.split("-")[0] if build_name.split("-")[0] in TOOLCHAINS else build_name
            label = sweep.get("label", "")
            env = sweep.get("env", {})
            if preset == "host" or env.get("OMP_TARGET_OFFLOAD") == "DISABLED":
                cpu = r.get("host_cpu") or {}
                hardware = cpu_hardware(cpu.get("cores", "?"), cpu.get("name"))
                cpus[hardware] = cpu.get("name", "?")
                cpu_of_machine[(d, machine_of(r))] = hardware
            else:
                hardware = gpu_short((r.get("gpu") or {}).get("name"))
            if not hardware:
                continue
            shape = "x".join(str(n) for n in r["params"]["shape"])
            groups.setdefault((hardware, build_name, label, shape), {}).setdefault(d, []).append((r, d))
        for path in runfiles.glob(d, "devbench-*.json"):
            b = runfiles.load(path)
            bw = b.get("triad_bandwidth_gb_s")
            if not bw:
                continue
            if b.get("model") == "host-openmp":  # the CPU of the folder's runs on that machine
                hardware = cpu_of_machine.get((d, machine_of(b)), cpu_hardware(b.get("threads", "?")))
            else:
                hardware = gpu_short((b.get("gpu") or {}).get("name"))
            if not hardware:
                continue
            readings = triads.get(hardware, (0, "", []))[2] + [bw]
            if bw > triads.get(hardware, (0, ""))[0]:
                where = os.path.relpath(path, paths.TOP)
                triads[hardware] = (bw, where, readings)
            else:
                triads[hardware] = triads[hardware][:2] + (readings,)
    runs = {}
    for key, by_dir in groups.items():
        newest = {}  # machine -> the rounds of its newest folder
        for rounds in by_dir.values():
            machine = machine_of(rounds[0][0])
            if machine not in newest or newest_date(rounds) > newest_date(newest[machine]):
                newest[machine] = rounds
        runs[key] = [x for machine in sorted(newest) for x in newest[machine]]
    return runs, triads, cpus


def newest_date(rounds):
    return max(r.get("date", "") for r, _ in rounds)


def platforms_order(platform):
    """A platform's place in the report: GPUs first (CUDA, then OpenMP offload), the CPU last."""
    hardware, build = platform
    return hardware.startswith("CPU"), hardware, list(TOOLCHAINS).index(build)


def platforms_of(runs):
    """The platforms of the hardware measured, GPUs first (CUDA, then OpenMP offload), the CPU
    last: every toolchain of each, measured or not (a missing run leaves PP unknown)."""
    hardware = {h for h, *_ in runs}
    on_cpu = [t for t in toolchains.TOOLCHAINS if t not in toolchains.ON_DEVICE]
    return sorted(((h, b) for h in hardware for b in (on_cpu if h.startswith("CPU") else toolchains.ON_DEVICE)),
                  key=platforms_order)


def platform_name(platform):
    hardware, build = platform
    return hardware if build == "host" else f"{hardware} {TOOLCHAINS[build]}"


# The study's runs of the sweeping codes with -tune steps_per_sweep=1 carry this label (after the
# variant's own, if any: offload-disabled-single-steps).
SINGLE_STEPS = "single-steps"


QUESTIONS = ("single", "best")


def single_steps_label(label):
    return f"{label}-{SINGLE_STEPS}" if label else SINGLE_STEPS


def su_samples(runs, platform, app, shape, question="single", variant=""):
    """([SU/s of each run], note): [] where not measured, [0.0] where unsupported, refused or wrong.
    question "single": the single-step runs where the study has them, else the default ones if they
    took single steps; "best": the default runs (the sweep where the code has one); variant: another
    label's runs instead of the default ones (e.g. unbound), for a code whose default has none. A run after the
    first (its rounds run unchecked) holds the reference's bits by its digest (awave -digest) equal
    to the checked round's reference digest, a held run (sweep.py --held) to a checked run's at its size
    and steps; one that differs fails."""
    spec = APPLICATIONS[app].get(platform[1])
    if spec is None:
        return [0.0], "does not run here"
    return impl_samples(runs, platform, *spec, shape, question, variant)


def held_references(runs):
    """{(shape, nsteps): the reference digests of the study's checked runs}: what a held run's digest must
    equal (sweep.py --held: a platform's other plans at a size are held to its default plan's check)."""
    refs = {}
    for (_, _, _, shape), rounds in runs.items():
        for r, _ in rounds:
            for i in r.get("implementations", []) if r.get("status") == "ok" else []:
                if i.get("is_reference") and i.get("digest"):
                    refs.setdefault((shape, r["params"]["nsteps"]), set()).add(i["digest"])
    return refs


def impl_samples(runs, platform, impl, label, shape, question="single", variant="", build_name=None,
                 by_machine=False):
    """su_samples of one implementation id, from the runs of its variant `label` ("" the default);
    build_name: another build of the platform's preset (e.g. cuda-k46, against another Kokkos). A platform of
    several machines (one CPU model, pooled by load_study) weighs them alike (machines_alike); by_machine: the
    samples as {machine: [SU/s of its runs]} instead."""
    hardware, build = platform
    source_build = build_name or (CPU_BUILD.get(label, build) if build == "host" else build)
    label = variant or label
    rounds = runs.get((hardware, source_build, label, shape))
    if question == "single":
        single = runs.get((hardware, source_build, single_steps_label(label), shape))
        if single and any(i["id"] == impl for r, _ in single for i in r.get("implementations", [])):
            rounds = single
    if not rounds:
        return [], "not measured"
    reference_digests = {i.get("digest") for r, _ in rounds for i in r.get("implementations", [])
                         if i.get("is_reference") and i.get("digest")}
    samples, notes = [], set()  # samples: (SU/s, steps a sweep, machine)
    for r, _ in rounds:
        if r.get("status") == "refused":
            return [0.0], "refused"
        if r.get("status") != "ok":
            return [], r.get("status", "failed")
        res = next((i for i in r["implementations"] if i["id"] == impl), None)
        if res is None:
            return [], "not run"
        if res.get("checked") and res.get("differences", 0) != 0:
            return [0.0], "FAILS the check"
        # The threaded CPU code is the check's reference in the CPU sweeps (bitwise the serial one's: tested).
        checked = res.get("checked") or res.get("is_reference")
        references = reference_digests
        if not checked and not references and r.get("sweep", {}).get("held"):
            references = held_references(runs).get((shape, r.get("params", {}).get("nsteps")), set())
        if not checked and res.get("digest") and references:
            if res["digest"] not in references:
                return [0.0], "FAILS the check"
            checked = True
        if not checked:
            notes.add("unchecked")
        if res.get("steps_per_sweep", 1) > 1 and question == "single":
            return [], "swept; no single-step run"
        samples.append((res["best_su_per_s"], res.get("steps_per_sweep", 1), machine_of(r)))
    # One algorithm a cell: where the code is the check's reference (round 1 of the CPU sweeps), that
    # round ran the reference's single steps, beside rounds that swept; (b) keeps the sweeps alone.
    steps = max(k for _, k, _ in samples)
    if steps > 1:
        notes.add("sweep")
    machines = {}
    for su, k, machine in samples:
        if k == steps:
            machines.setdefault(machine, []).append(su)
    return (machines if by_machine else machines_alike(list(machines.values()))), ", ".join(sorted(notes))


def machines_alike(by_machine):
    """A cell's runs on several machines of one model as one sample, each machine weighted alike however many
    runs it has (issue 80: the two 16-core Xeons differ by up to 1.23 x, more than their runs spread): quantile q
    of the result is the mean of the machines' quantiles q (linear interpolation), at as many points as the
    machine with the most runs, made odd. So the cell's median is the mean of the machines' medians, its min
    the mean of their slowest runs, its max the mean of their fastest. One machine: its runs as they are."""
    if len(by_machine) == 1:
        return by_machine[0]
    n = max(len(s) for s in by_machine)
    n += 1 - n % 2
    if n == 1:
        return [sum(s[0] for s in by_machine) / len(by_machine)]

    def quantile(values, q):
        x = q * (len(values) - 1)
        lo = int(x)
        return values[lo] if lo + 1 >= len(values) else values[lo] + (x - lo) * (values[lo + 1] - values[lo])

    ordered = [sorted(s) for s in by_machine]
    return [sum(quantile(s, i / (n - 1)) for s in ordered) / len(ordered) for i in range(n)]


def effort_files(study_dirs):
    """(lines of code, code divergence) of the study: the last folder's that has each, loose or packed (the first
    page uses either only where it was made at the study's commit). The report and the screen's check read them here."""
    found = {}
    for d in study_dirs:
        for name in ("loc.json", "divergence.json"):
            if runfiles.exists(os.path.join(d, name)):
                found[name] = runfiles.load(os.path.join(d, name))
    return found.get("loc.json"), found.get("divergence.json")


def interleaving(runs):
    """How the repeated runs were taken, by their files' dates, each group of codes compared with each
    other on its own (a study folder's platform at one size: its builds, one machine, one part):
    "interleaved" where every plan's round k ran before any plan's round k + 1, "back to back" where
    some plan ran its rounds in a row past another's, None where no cell has two runs."""
    by_group = {}
    for (hardware, build, _, shape), rounds in runs.items():
        for folder in {d for _, d in rounds}:  # a pooled platform's machines each on their own
            dates = sorted(r.get("date", "") for r, d in rounds if d == folder)
            for k, date in enumerate(dates if len(dates) > 1 else []):
                group = (folder, hardware, build.partition("-")[0], shape)
                by_group.setdefault(group, {}).setdefault(k, []).append(date)
    if not by_group:
        return None
    for ks in by_group.values():
        if any(max(ks[k]) > min(ks[k + 1]) for k in range(len(ks) - 1)):
            return "back to back"
    return "interleaved"


def page_shapes(runs, plats):
    """The first page's two sizes: the two largest that every platform measured (its default runs),
    so that each has a PP; the two largest measured anywhere where no size has every platform."""
    present = {k[3] for k in runs}
    everywhere = [s for s in present if all((h, b, "", s) in runs for h, b in plats)]
    return sorted(everywhere or present, key=points)[-2:]
