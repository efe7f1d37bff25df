#!/usr/bin/env python3
"""Turn awave's committed result files into the portability report (Markdown + PNG plots).

    python3 bench/report.py [-o OUT_DIR]                                    (bench/report/report.md)
    python3 bench/report.py --study STUDY_DIR [--study ...] -o OUT_DIR     (bench/study.sh's report)

The report is one current study (experiments.registry, DEFAULT_STUDY: five platforms): the first screen decides
(render.screen), the first page answers (render.page), section 1 is its evidence (render.evidence); sections 2-5
measure the product as it stands (over MPI, bitwise, temporal blocking, energy); provenance comes last. Earlier
studies keep their data and their sections in their results folders' READMEs. Every number is read from (or
computed from) those files; the same files give the same report, byte for byte.
"""
import argparse
import glob
import os

import matplotlib

from ..catalog.paths import BENCH as HERE
from ..experiments import registry
from ..experiments.registry import DEFAULT_STUDY, STUDY_CAVEATS
from ..runs import files as runfiles, study
from . import evidence, page
from .bitwise_section import bitwise_section
from .energy_section import energy_section
from .provenance_section import provenance_section
from .runs_section import runs_section
from .mpi_section import mpi_section
from .temporal_section import every_model_section, temporal_section

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend that needs no display)


def generate_study(study_dirs, out_dir):
    """bench/study.sh's report: this machine's first page and its evidence alone."""
    os.makedirs(out_dir, exist_ok=True)
    md = ["# awave portability report (bench/study.sh)\n"]
    loc, divergence = study.effort_files(study_dirs)
    runs = page.first_page(md.append, plt, study_dirs, loc, divergence, out_dir)
    evidence.evidence(md.append, study_dirs, loc)
    energy_section(md.append, 2, [e for d in study_dirs for e in sorted(glob.glob(os.path.join(d, "energy-*")))])
    provenance_section(md.append, runs, loc, divergence)
    with open(os.path.join(out_dir, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    return os.path.join(out_dir, "report.md")


def generate(out_dir, study_dirs=None, product=None):
    """The report: the current study's first page and evidence, the product as it stands (product: the registry's
    experiments, registry.PRODUCT), provenance."""
    study_dirs = DEFAULT_STUDY if study_dirs is None else study_dirs
    product = registry.PRODUCT if product is None else product
    os.makedirs(out_dir, exist_ok=True)
    md = ["# awave portability report\n"]
    w = md.append
    loc, divergence = study.effort_files(study_dirs)
    runs = page.first_page(w, plt, study_dirs, loc, divergence, out_dir,
                           STUDY_CAVEATS if study_dirs == DEFAULT_STUDY else ())
    numbered = list(enumerate(product, start=2))
    w("After this page: 1. its evidence; the product as it stands, measured: "
      + ", ".join(f"{n}. {e['said']}" for n, e in numbered) + "; provenance. The earlier studies keep their data and "
      "their sections in their results folders' READMEs (`bench/results/README.md` lists them).\n")
    evidence.evidence(w, study_dirs, loc)
    w("# The product as it stands\n")
    w(product_builds([(f"{n}. {e['name']}", e["folders"]) for n, e in numbered],
                     next((n for n, e in numbered if e.get("says_what_changed")), None)))
    unknown = [e["name"] for e in product if e.get("section") not in SECTIONS]
    if unknown:
        raise ValueError(f"experiments.registry: {', '.join(unknown)}: no renderer of that section "
                         f"(render.report.SECTIONS has {', '.join(SECTIONS)})")
    context = {"triads": study.load_study(study_dirs)[1]}
    for n, e in numbered:
        SECTIONS[e["section"]](w, n, e, context)
    provenance_section(w, runs, loc, divergence)
    with open(os.path.join(out_dir, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    return os.path.join(out_dir, "report.md")


def product_builds(sections, changed_section=None):
    """Which builds each section of "the product as it stands" ran: the commits its run files record, so that
    no figure is read as the study's code when it is an earlier one; changed_section: the section that says where
    a code it measured changed since."""
    rows = []
    for name, dirs in sections:
        commits = set()
        for d in dirs:
            for path in runfiles.walk(d, "*.json"):
                try:
                    build = runfiles.load(path).get("build") or {}
                except (OSError, ValueError, AttributeError):
                    continue
                if isinstance(build, dict) and build.get("git_commit"):
                    commits.add(str(build["git_commit"])[:7])
        rows.append(f"| {name} | {', '.join(f'`{c}`' for c in sorted(commits)) or 'not recorded in its files'} |")
    return ("Each section below measured the product at its own clean commits (those its run files record), not "
            "the study's." + (f" Section {changed_section} says where a code it measured changed since."
                              if changed_section else "") + "\n\n"
            "| section | commits of its runs |\n|---|---|\n" + "\n".join(rows) + "\n")


def temporal(w, number, entry, context):
    """Section NUMBER, temporal blocking, and its part on the sweep in every model."""
    inputs = entry["inputs"]
    temporal_section(w, number, inputs["runs"], inputs["ncu"], inputs["sweep_loc"], context["triads"])
    every_model_section(w, inputs["sweep_loc"])


# The renderers a registry entry names (experiments.registry.PRODUCT): each writes section NUMBER of its entry.
SECTIONS = {
    "mpi": lambda w, number, entry, context: mpi_section(w, number, **entry["inputs"]),
    "bitwise": lambda w, number, entry, context: bitwise_section(w, number, **entry["inputs"]),
    "temporal": temporal,
    "energy": lambda w, number, entry, context: energy_section(w, number, **entry["inputs"]),
    "runs": lambda w, number, entry, context: runs_section(w, number, entry["name"], entry["folders"]),
}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--study", action="append", help="a study directory (bench/study.sh); alone: its report")
    parser.add_argument("-o", "--out", help="the output folder (default bench/report; required with --study)")
    args = parser.parse_args(argv)
    if args.study:
        if not args.out:
            parser.error("--study takes -o OUT_DIR (the committed report is the current study's)")
        print(generate_study(args.study, args.out))
    else:
        print(generate(args.out or os.path.join(HERE, "report")))
    return 0
