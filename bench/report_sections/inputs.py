"""The committed result directories each part of the report reads (the defaults of bench/report.py).
Earlier studies' folders are not read: their sections are in their READMEs."""
import glob
import os


HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # bench/
# The current portability study (bench/study.sh): five platforms (the Xeon of two machines pooled; each machine's
# newest folder counts), its lines of code and code divergence in each folder (computed on the build machine).
DEFAULT_STUDY = [os.path.join(HERE, "results", d) for d in
                 ("h200-2026-11-27/study-8f9e458", "h200-2026-11-27/study-d66e879-cuda",
                  "h200-2026-11-27/study-557d8ff-cpu", "h100-2026-11-27/study-557d8ff",
                  "h100-2026-11-27/study-557d8ff-cpu")]
# The lines and divergence the page reads are the last folder's with them: one made at the study's commit.
# What the first screen must say of that study that its run files cannot: (key, text). "commits": the H200's GPU
# runs are earlier studies' (no H200 came after the Xeon part, h100-2026-11-27/study-557d8ff/README.md), whose
# builds, made again alike, hold 557d8ff's GPU kernels byte for byte (studies/gpu-code-identity). "under five":
# why some cells have fewer than five runs (study-d66e879-cuda planned 3 rounds at 1000^3, study-8f9e458's
# offload rounds were cut at 2 by a call's 10 minutes). "cpu": the CPU's noise.
STUDY_CAVEATS = [("commits", "Rebuilt, the H200 builds' GPU kernels are 557d8ff's, bitwise "
                              "([check](../studies/gpu-code-identity/README.md))"),
                 ("under five", "as planned (CUDA), cut short (offload)"),
                 ("cpu", "Xeon sweep runs spread 1.3-1.5 x "
                         "([noise study](../results/h100-2026-11-27/cpu-noise-82bd1ae/README.md)): "
                         "x86 rows rank nothing within it.")]
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
ENERGY_NOTE = ("The H100's rows are the study's builds (557d8ff, both toolchains). The H200's are of cb46677, before "
               "Kokkos-CUDA's sweep took the bulk planes there (cc2435a): its Kokkos-CUDA sweep row is the code before "
               "(section 1 has the study's); no H200 came for the study's GPU runs, so they are not measured again.")
DEFAULT_ENERGY = [os.path.join(HERE, "results", d) for d in
                  ("h100-2026-11-27/study-557d8ff/energy-cuda", "h100-2026-11-27/study-557d8ff/energy-openmptarget",
                   "h200-2026-11-27/energy-cb46677")]
