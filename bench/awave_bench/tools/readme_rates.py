#!/usr/bin/env python3
"""The README status table's rate column, from the report's study by the first page's sample rules: each
implementation's median single-step SU/s at 512^3 with its architectural efficiency, each machine named, then
its sweep's median where its default runs swept on every one. And the README's single-step limits: each
machine's triad over 24 B a site update.

    python3 bench/readme_rates.py                  each implementation's cell
    python3 bench/readme_rates.py --check README.md   exit 1 naming each row whose cell differs
"""
import argparse
import re
import statistics

from ..experiments.registry import DEFAULT_STUDY
from ..metrics import pp
from ..metrics.pp import BYTES_PER_SITE
from ..runs import study
from .sweep import IMPLS

SIZE = "512x512x512"


def sci(x, decimals=2):
    """1.94e9, as the README writes rates."""
    mantissa, exponent = f"{x:.{decimals}e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def load(study_dirs=None):
    """(runs, triads) of the report's study (or of STUDY_DIRS)."""
    return study.load_study(study_dirs or DEFAULT_STUDY)[:2]


def cells(study_dirs=None, loaded=None):
    """{implementation id: its cell}, for every implementation the study measured at SIZE: each machine named
    with its single-step median and efficiency ("H100 1.16e11 (0.96), H200 1.48e11 (0.85)"; a CPU by its
    model, its machines weighted alike), then its sweep's median on each where its default runs swept on every one.
    loaded: the study's load(), where the caller has it."""
    runs, triads = loaded or load(study_dirs)
    plats = study.platforms_of(runs)
    out = {}
    for build, impls in IMPLS.items():
        where = [p for p in plats if p[1] == build]
        for impl in impls:
            single, sweeps = [], []
            for platform in where:
                name = study.hardware_short(platform[0])
                su, _ = study.impl_samples(runs, platform, impl, "", SIZE, "single")
                best, note = study.impl_samples(runs, platform, impl, "", SIZE, "best")
                triad = triads.get(platform[0], (None,))[0]
                if su and su != [0.0] and triad:
                    median = statistics.median(su)
                    single.append(f"{name} {sci(median)} ({pp.architectural_efficiency(median, triad):.2f})")
                if best and best != [0.0] and "sweep" in note:
                    sweeps.append(f"{name} {sci(statistics.median(best))}" if len(where) > 1 else sci(statistics.median(best)))
            if not single:
                continue
            text = ", ".join(single)
            if len(sweeps) == len(where):
                text += "; sweep " + ", ".join(sweeps)
            out[impl] = text
    return out


LIMITS = "The single-step limit at the measured triad is "


def limit_problems(readme_text, study_dirs=None, loaded=None):
    """Each limit of the README's LIMITS sentence ("1.20e11 SU/s on the H100, ... and 4.9e9 on the Xeon") that is
    not its machine's triad over 24 B, rounded as written: [] if none."""
    triads = (loaded or load(study_dirs))[1]
    line = next((ln for ln in readme_text.splitlines() if ln.startswith(LIMITS)), None)
    said = re.findall(r"(\d\.(\d+)e(\d+))(?: SU/s)? on the (\w+)", line or "")
    if not said:
        return [f"no sentence starting {LIMITS!r} with its limits"]
    wrong = []
    for text, decimals, _, machine in said:
        triad = next((t[0] for hw, t in triads.items() if machine in study.hardware_short(hw) and t[0]), None)
        want = None if triad is None else sci(triad * 1e9 / BYTES_PER_SITE, len(decimals))
        if want != text:
            wrong.append(f"the {machine}'s single-step limit: {text} where its triad gives {want}")
    return wrong


def problems(readme_text, study_dirs=None):
    """Each README status row whose rate cell is not the study's, and each wrong limit: [] if none."""
    loaded = load(study_dirs)
    want = cells(loaded=loaded)
    found, wrong = set(), []
    for line in readme_text.splitlines():
        m = re.match(r"\| `([\w-]+)`", line)
        if not m or m.group(1) not in want:
            continue
        found.add(m.group(1))
        got = line.rstrip().rstrip("|").split("|")[-1].strip()
        if got != want[m.group(1)]:
            wrong.append(f"{m.group(1)}: {got!r} where the study gives {want[m.group(1)]!r}")
    missing = [f"{impl}: no row" for impl in sorted(set(want) - found)]
    return wrong + missing + limit_problems(readme_text, loaded=loaded)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", metavar="README", help="compare the README's rows with the study")
    args = parser.parse_args(argv)
    if args.check:
        with open(args.check) as f:
            wrong = problems(f.read())
        for item in wrong:
            print(f"{args.check}: {item}")
        return 1 if wrong else 0
    for impl, text in cells().items():
        print(f"{impl}: {text}")
    return 0

