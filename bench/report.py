#!/usr/bin/env python3
"""Turn awave benchmark result files into the portability report (Markdown + PNG plots).

    python3 bench/report.py [RESULTS_DIR ...] [-o OUT_DIR]
    python3 bench/report.py --study STUDY_DIR [--study ...] -o OUT_DIR     (bench/study.sh's report)

The first page answers (bench/portability.py: cascade plots, navigation chart, the table and
the recommendation, from the study directories); the evidence follows (bench/study_evidence.py,
then the sections below); the kernel-shape studies are an appendix; provenance comes last.

Defaults: the committed sweeps under bench/results/ (H100: Kokkos 3.4.01 and 4.6.01 builds; H200
and its 16-core CPU; the 2-core build machine), output bench/report/. Runs are keyed by
platform (the GPU a sweep ran on, or the build machine), build directory and shape; the first
GPU platform is the primary one of sections 1-6.
Every number in the report is read from (or computed from) those files; the same files give
the same report, byte for byte.
"""
import argparse
import glob
import json
import os
import sys

try:
    import matplotlib
except ImportError:  # a pyenv/venv python ahead of Debian's on PATH: use Debian's
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    raise
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import portability  # noqa: E402
import study_evidence  # noqa: E402
from report_sections import sweeps  # noqa: E402
from report_sections.bitwise import bitwise_section  # noqa: E402
from report_sections.common import KOKKOS_VARIANTS, load, load_all, mark_older_commits  # noqa: E402
from report_sections.inputs import (DEFAULT_ALIGN, DEFAULT_BITWISE, DEFAULT_CHECKSUM_COST, DEFAULT_COPY_BEFORE,  # noqa: E402
                                    DEFAULT_EFFORT, DEFAULT_EVERY_MODEL, DEFAULT_OUTPUT_LAYOUTS, DEFAULT_SWEEP_LOC,
                                    DEFAULT_TEMPORAL, DEFAULT_TEMPORAL_PRODUCT,
                                    DEFAULT_FP_COST, DEFAULT_IO, DEFAULT_KERNEL_SHAPES, DEFAULT_MPI,
                                    DEFAULT_OMP_BEFORE_AFTER, DEFAULT_OMP_SHAPES, DEFAULT_RESULTS, DEFAULT_STUDY, HERE)
from report_sections.kernel_shapes import omp_shapes_section  # noqa: E402
from report_sections.output import align_section, checksum_section, io_section, layouts_section  # noqa: E402
from report_sections.temporal import every_model_section, temporal_first_page, temporal_section  # noqa: E402
from report_sections.platforms import host_section, kokkos_versions_section, platforms_section, targets_section  # noqa: E402
from report_sections.provenance import provenance_section  # noqa: E402
from report_sections.scaling import mpi_section  # noqa: E402




def study_inputs(study_dirs, effort_dirs):
    """The lines-of-code and code-divergence files: a study's own, else the newest effort directory's
    (the first page uses either only where it was made at the study's commit)."""
    found = {}
    for d in list(effort_dirs) + list(study_dirs):  # later wins: the study's own
        for name in ("loc.json", "divergence.json"):
            path = os.path.join(d, name)
            if os.path.exists(path):
                with open(path) as f:
                    found[name] = json.load(f)
    return found.get("loc.json"), found.get("divergence.json")


def generate_study(study_dirs, out_dir, effort_dirs=()):
    """bench/study.sh's report: this machine's first page and its evidence alone."""
    os.makedirs(out_dir, exist_ok=True)
    md = ["# awave portability report (bench/study.sh)\n"]
    loc, divergence = study_inputs(study_dirs, effort_dirs)
    runs = portability.first_page(md.append, plt, study_dirs, loc, divergence, out_dir)
    study_evidence.evidence(md.append, study_dirs, loc)
    provenance_section(md.append, runs, loc, divergence)
    with open(os.path.join(out_dir, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    return os.path.join(out_dir, "report.md")


def generate(dirs, out_dir, io_dirs=None, align_dirs=None, mpi_dirs=None, bitwise_dirs=None, cost_dirs=None,
             study_dirs=None, effort_dirs=None):
    bitwise_dirs = DEFAULT_BITWISE if bitwise_dirs is None else bitwise_dirs
    cost_dirs = DEFAULT_FP_COST if cost_dirs is None else cost_dirs
    io_dirs = DEFAULT_IO if io_dirs is None else io_dirs
    mpi_dirs = DEFAULT_MPI if mpi_dirs is None else mpi_dirs
    align_dirs = DEFAULT_ALIGN if align_dirs is None else align_dirs
    runs, devbench, loc = load(dirs)
    main_commit = mark_older_commits(runs)
    os.makedirs(out_dir, exist_ok=True)
    study_dirs = DEFAULT_STUDY if study_dirs is None else study_dirs
    effort_dirs = DEFAULT_EFFORT if effort_dirs is None else effort_dirs
    md, older, appendix, earlier = [], [], [], []
    earlier_14, earlier_17, earlier_19 = [], [], []  # the earlier studies' sections, in their numbers' order
    md.append("# awave portability report\n")
    loc_study, divergence = study_inputs(study_dirs, effort_dirs)
    study_runs = portability.first_page(md.append, plt, study_dirs, loc_study, divergence, out_dir)
    temporal_first_page(md.append, DEFAULT_TEMPORAL_PRODUCT)
    md.append("Contents after this page: the evidence for it; the product as it stands, measured: over MPI "
              "(section 14), bitwise (section 15), temporal blocking (section 19); provenance. The earlier "
              "studies' measurements (sections 1-4, 6-10, 12, 13, 17, 18 and the kernel-shape studies, appendix A "
              "with section 16) are in [earlier-studies.md](earlier-studies.md), generated with this report from "
              "their results folders.\n")
    study_evidence.evidence(md.append, study_dirs, loc_study)
    w = older.append  # the earlier studies' header goes to the provenance at the end
    cuda_bench = devbench.get("cuda", {})
    any_gpu_run = next((r for (b, s), r in sorted(runs.items()) if b != "host" and r.get("status") == "ok"), None)
    gpu = (any_gpu_run or {}).get("gpu") or cuda_bench.get("gpu") or {}

    w("### Earlier studies' sweeps\n")
    w("Generated by `python3 bench/report.py` from the result files in " +
      ", ".join(f"`{os.path.relpath(d, os.path.dirname(HERE))}`" for d in dirs) +
      ". Every number below comes from those files.\n")
    if any_gpu_run:
        b = any_gpu_run["build"]
        commits = {}
        for (bb, s), r in sorted(runs.items()):
            if bb != "host" and r.get("status") == "ok":
                commits.setdefault(r["build"]["git_commit"], []).append(f"{bb} {s}")
        w(f"GPU: **{gpu.get('name', '?')}** ({gpu.get('memory', '?')}, driver {gpu.get('driver', '?')}). "
          f"Kokkos {b['kokkos_version']}; awave commits: " +
          "; ".join(f"`{c}` ({len(v)} runs{': ' + ', '.join(v) if len(v) <= 6 else ''})"
                    for c, v in sorted(commits.items(), key=lambda kv: -len(kv[1]))) +
          f"; sweep date {any_gpu_run['date'][:10]}.\n")
        for build in ("cuda", "openmptarget"):
            r = next((r for (bb, s), r in sorted(runs.items()) if bb == build and r.get("status") == "ok"), None)
            if r:
                w(f"- `{build}` preset: {r['build']['compiler']}; {r['build']['kokkos']}.")
        w("")
    w = earlier.append
    w("# awave: measurements of the earlier studies\n")
    w("Generated by `python3 bench/report.py` beside [report.md](report.md), whose first page answers from the "
      "current study; this document keeps the earlier studies' evidence, each section naming its results "
      "folder.\n")
    w("The first study's performance portability and recommendation (sections 5 and 11 of the earlier reports: "
      "PP over the H100's two toolchains at commit-old line counts, and a recommendation the data of one run a "
      "cell could not support) are left out: the first page answers both questions from the current study "
      "(issue 47). The sections below are the evidence of the earlier studies, each naming its results "
      "folder.\n")
    if main_commit:
        w(f"° marks runs of the `cuda` and `openmptarget` builds from another commit than `{main_commit}`, "
          "the one most of them come from (the header lists which).\n")
    w("Reading the tables: SU/s is the best chunk of the run (site updates per second); † marks runs "
      "not checked against the CPU reference (the sweeps check every run: GPU runs against the threaded "
      "CPU reference, host runs against the serial one); ‡ marks checked runs whose fields are not the "
      "reference's bits (within the spec's tolerance, but not bitwise: section 15); "
      "`failed` and `missing` are runs that were planned in a sweep manifest and produced no valid result. "
      "The results of 2026-11-22 (`results/*-2026-11-22`) were built from trees with uncommitted changes "
      "(their commits end in `-dirty`) and cannot be rebuilt exactly: where a section still shows them "
      "they are an indication, not evidence; every later result names a clean commit.\n")

    shapes, limit, ratio_series = sweeps.size_sections(w, runs, devbench, out_dir)
    all_runs, all_bench, _, cpus, platforms = load_all(dirs)
    for p in platforms:  # the same ° marks in the per-platform tables
        mark_older_commits({(b, s): r for (q, b, s), r in all_runs.items() if q == p})
    primary = next((p for p in platforms if p != "build machine"), None)
    # Kokkos versions side by side: only the directories holding the builds against another Kokkos,
    # so that each pair of builds is one session's (later sweeps of the base builds left out).
    variant_dirs = [d for d in dirs if any(glob.glob(os.path.join(d, f"{v}_*.json")) for v in KOKKOS_VARIANTS)]
    if variant_dirs:
        v_runs, v_bench, _, _, _ = load_all(variant_dirs)
        kokkos_versions_section(w, v_runs, v_bench, primary, variant_dirs)
    else:
        kokkos_versions_section(w, all_runs, all_bench, primary)
    platforms_section(w, all_runs, all_bench, platforms)
    host_section(w, all_runs, cpus, platforms)
    targets_section(w, all_runs, all_bench, platforms, primary)

    io_section(w, io_dirs)
    align_section(w, align_dirs)
    checksum_section(earlier_17.append, DEFAULT_CHECKSUM_COST)
    layouts_section(earlier_17.append, DEFAULT_OUTPUT_LAYOUTS, DEFAULT_COPY_BEFORE)
    appendix.append("# Appendix A. The GPU kernels' shapes (section 16)\n")
    omp_shapes_section(appendix.append, DEFAULT_OMP_SHAPES, DEFAULT_OMP_BEFORE_AFTER, DEFAULT_KERNEL_SHAPES)
    # The report: the product as it stands (over MPI, bitwise, temporal blocking), then provenance.
    w = md.append
    w("# The product as it stands\n")
    mpi_section(w, mpi_dirs, earlier_14.append)
    bitwise_section(w, bitwise_dirs, cost_dirs)
    temporal_section(w, DEFAULT_TEMPORAL, DEFAULT_TEMPORAL_PRODUCT, earlier_19.append)
    every_model_section(w, DEFAULT_EVERY_MODEL, DEFAULT_SWEEP_LOC, earlier_19.append)
    provenance_section(md.append, study_runs, loc_study, divergence)
    with open(os.path.join(out_dir, "earlier-studies.md"), "w") as f:
        f.write("\n".join(earlier + earlier_14 + earlier_17 + earlier_19 + appendix + older) + "\n")
    with open(os.path.join(out_dir, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    return os.path.join(out_dir, "report.md")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="*")
    parser.add_argument("--study", action="append", help="a study directory (bench/study.sh); alone: its report")
    parser.add_argument("-o", "--out", default=os.path.join(HERE, "report"))
    args = parser.parse_args(argv)
    if args.study and not args.results:
        print(generate_study(args.study, args.out))
    else:
        print(generate(args.results or DEFAULT_RESULTS, args.out, study_dirs=args.study))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
