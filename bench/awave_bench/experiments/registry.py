"""The experiments the report shows and the committed result folders each reads: the current study (DEFAULT_STUDY,
the first page) and PRODUCT, the report's sections on the product as it stands, one entry an experiment. Earlier
studies' folders are not read: their sections are in their READMEs."""
import glob
import os

from ..catalog.paths import BENCH as HERE
# The current portability study (bench/study.sh) at 557d8ff: five platforms (the Xeon of two machines, weighted
# alike: runs.study.machines_alike; each machine's newest folder counts), its lines of code and code divergence in
# each folder (computed on the build machine). The H200's GPU platforms were measured again at 557d8ff on
# 2026-12-02 (issue 80), with the H100's very Kokkos installations (results/h200-2026-12-02/study-557d8ff).
DEFAULT_STUDY = [os.path.join(HERE, "results", d) for d in
                 ("h200-2026-12-02/study-557d8ff", "h200-2026-11-27/study-557d8ff-cpu",
                  "h100-2026-11-27/study-557d8ff", "h100-2026-11-27/study-557d8ff-cpu")]
# Kokkos 5.1's release briefing: the OpenMPTarget backend removed, MDRange reworked (a 3D stencil on an A100 about
# 2.7 x faster with LayoutRight, 1.05 x with LayoutLeft, as issue 80 reads it; not measured here).
KOKKOS_51_BRIEFING = ("https://github.com/kokkos/kokkos-tutorials/blob/3f2477da774f4d61554dbcdc4cc6f4982b58f6dc/"
                      "Other/ReleaseBriefings/release-51.pdf")
# The lines and divergence the page reads are the last folder's with them: one made at the study's commit.
# What the first screen must say of that study that its run files cannot: (key, text). "cpu": the CPU's noise
# study, beside its machines' spread; "kokkos": Kokkos 5.x's facts with their sources.
STUDY_CAVEATS = [("cpu", "[noise study](../results/h100-2026-11-27/cpu-noise-82bd1ae/README.md)"),
                 ("kokkos", "Kokkos 5.0 is the last release with OpenMP offload "
                            "([5.1 removed it](https://github.com/kokkos/kokkos/pull/8717)): Kokkos then scores 0 on "
                            "offload rows. 5.1 reworked MDRange ([briefing](" + KOKKOS_51_BRIEFING + ")): the "
                            "idiomatic column may move.")]
# Section 2, over MPI: the product's present exchange (NCCL ordered on the GPU; the offload codes'),
# its checks (newest first) and the sweeps over MPI (issue 46, oldest first; the newest is shown).
DEFAULT_MPI = [os.path.join(HERE, "results", d) for d in
               ("h200x2-2026-11-24/nccl-order-9b9bd49/mpi-gpu", "h200x2-2026-11-24/nccl-omp-d9dae2a/mpi-omp")]
DEFAULT_NCCL = [os.path.join(HERE, "results", d, "summary.txt") for d in
                ("h200x2-2026-11-24/nccl-checks-eb38183/nccl-checks", "h200x2-2026-11-24/nccl-order-9b9bd49/nccl-checks",
                 "h200x2-2026-11-24/nccl-omp-d9dae2a/nccl-checks",
                 "h200x2-2026-11-23/nccl-checks", "h200x2-2026-11-23/nccl-checks-3529911", "h200-2026-11-23/nccl-1gpu")]
DEFAULT_SWEEP_MPI = [os.path.join(HERE, "results", "h200x2-2026-11-26", d)
                     for d in ("sweep-mpi-b9e2df9", "sweep-mpi-43a53a3", "sweep-mpi-cf9a00f", "sweep-mpi-3cea47b")]
# Section 3, bitwise: long runs against the reference, and what exact floating point costs.
DEFAULT_BITWISE = sorted(glob.glob(os.path.join(HERE, "results", "*", "bitwise")))
DEFAULT_FP_COST = sorted(glob.glob(os.path.join(HERE, "results", "*", "fp-cost")))
# Section 4, temporal blocking: the product's sweep beside its single steps (bench/device/sweep-checks.sh),
# oldest first, the machines of one day in the order they ran; Nsight Compute of the sweep and the
# single step on both GPUs, one clean build (issue 45); the sweep's lines per model.
DEFAULT_TEMPORAL_PRODUCT = [os.path.join(HERE, "results", "h100-2026-11-25", d)
                            for d in ("temporal-46ea31a", "temporal-dc054f9", "temporal-8f8395e",
                                      "temporal-23f8678")]
DEFAULT_NCU = [(os.path.join(HERE, "results", f"{gpu.lower()}-2026-11-26", "ncu-cf9a00f", f"ncu-{kernel}-512.txt"),
                f"{gpu}, {name}")
               for gpu in ("H100", "H200")
               for kernel, name in (("cuda", "hand CUDA sweep"), ("kokkos-cuda", "Kokkos-CUDA sweep"),
                                    ("cuda-single", "hand CUDA single step (interior)"))]
DEFAULT_SWEEP_LOC = os.path.join(HERE, "results", "build-machine-2026-11-27", "sweep-loc-65199cf", "loc.json")
# Section 5, energy a site update: bench/device/energy.sh on each GPU, one clean build (issue 58 item 6).
ENERGY_NOTE = ("Both GPUs' rows are the study's builds (557d8ff, both toolchains, Kokkos 3.4.01): the H100's of "
               "2026-11-27, the H200's of 2026-12-02 (two rounds of CUDA, one of offload on each).")
DEFAULT_ENERGY = [os.path.join(HERE, "results", d) for d in
                  ("h100-2026-11-27/study-557d8ff/energy-cuda", "h100-2026-11-27/study-557d8ff/energy-openmptarget",
                   "h200-2026-12-02/study-557d8ff/energy-cuda", "h200-2026-12-02/study-557d8ff/energy-openmptarget")]

# The product as it stands: one entry an experiment, in the report's order (sections numbered from 2, after the
# first page's evidence). An entry is data alone:
#   name     its row in the table of each section's commits ("Over MPI")
#   said     how the page's guide names it ("over MPI")
#   section  the renderer that writes it (render.report.SECTIONS: "mpi", "bitwise", "temporal", "energy", or
#            "runs": any folders of awave run files, as a table of each code's median rate by size)
#   folders  the result folders whose run files it reads (the table of commits reads them too)
#   inputs   what else its renderer takes, by name
# A new experiment is its folder (bench/studies/<experiment>/, its results under bench/results/) and one entry here.
PRODUCT = (
    {"name": "Over MPI", "said": "over MPI", "section": "mpi", "folders": DEFAULT_MPI + DEFAULT_SWEEP_MPI,
     "inputs": {"runs": DEFAULT_MPI, "nccl": DEFAULT_NCCL, "sweeps": DEFAULT_SWEEP_MPI}},
    {"name": "Bitwise", "said": "bitwise", "section": "bitwise", "folders": DEFAULT_BITWISE + DEFAULT_FP_COST,
     "inputs": {"runs": DEFAULT_BITWISE, "costs": DEFAULT_FP_COST}},
    {"name": "Temporal blocking", "said": "beyond the one-step limit (temporal blocking)", "section": "temporal",
     "folders": DEFAULT_TEMPORAL_PRODUCT,
     "inputs": {"runs": DEFAULT_TEMPORAL_PRODUCT, "ncu": DEFAULT_NCU, "sweep_loc": DEFAULT_SWEEP_LOC}},
    {"name": "Energy", "said": "energy a site update on the GPUs", "section": "energy", "folders": DEFAULT_ENERGY,
     "inputs": {"runs": DEFAULT_ENERGY, "note": ENERGY_NOTE}, "says_what_changed": True},
)
