"""The committed result directories each section of the report reads (the defaults of
bench/report.py)."""
import glob
import os


HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # bench/
# Later directories replace earlier ones' runs of the same build on the same GPU: the 2026-11-23
# sweeps (clean commits, every run bitwise) replace the cuda and openmptarget builds of the
# 2026-11-22 ones, which keep the Kokkos 4.6 builds (-k46) and the lines-of-code count. The newest
# (commit 3529911): the H200's on the 2-H200 machine (one build per GPU, side by side), the
# H100's cuda build whole and its openmptarget build from 256^3 (the device time left); the
# openmptarget build's smaller H100 runs are c547332's. The header lists every commit used.
DEFAULT_RESULTS = [os.path.join(HERE, "results", d) for d in
                   ("h100-2026-11-22/sweep", "h100-2026-11-23/sweep", "h100-2026-11-23/sweep-c547332",
                    "h100-2026-11-23/sweep-3529911", "h200-2026-11-22/sweep", "h200-2026-11-23/sweep",
                    "h200x2-2026-11-23/sweep", "host-2core-2026-11-22", "h100-2026-11-24/sweep-68fdb71",
                    "h100-2026-11-24/sweep-99be1ee", "h200-2026-11-24/sweep", "h100-2026-11-24/sweep-3e7614a",
                    "h200-2026-11-24/sweep-3e7614a", "h100-2026-11-24/sweep-6f9c835", "h200-2026-11-24/sweep-6f9c835",
                    "h100-2026-11-24/sweep-e6f9f03", "h200-2026-11-24/sweep-e6f9f03",
                    "h100-2026-11-24/sweep-ed62ef4", "h200-2026-11-24/sweep-ed62ef4",
                    "h100-2026-11-24/sweep-5f4d0b8", "h200-2026-11-24/sweep-5f4d0b8")]
# The portability study (bench/study.sh) of each GPU machine, newest last; the lines of code and
# the code divergence of the measured commit (computed on the build machine, which has the compilers).
DEFAULT_STUDY = sorted(glob.glob(os.path.join(HERE, "results", "*", "study-*")))
# The lines of code and code divergence of the product as it stands (regenerated when its code
# changes; earlier effort-* directories are history).
DEFAULT_EFFORT = [os.path.join(HERE, "results", "build-machine-2026-11-25", "effort-21c26e0")]
# The newest sweep of each GPU, for the targets of section 16 (one directory per GPU).
DEFAULT_NEWEST_SWEEPS = [os.path.join(HERE, "results", d) for d in
                         ("h100-2026-11-24/sweep-5f4d0b8", "h200-2026-11-24/sweep-5f4d0b8")]
# Issue 16's shape study before the product moved (bench/device/kernel-shapes.sh).
DEFAULT_KERNEL_SHAPES = sorted(glob.glob(os.path.join(HERE, "results", "*", "kernel-shapes", "shapes.log")))
# Output overlapping compute (io-overlap.sh) and the row-alignment lever (row-alignment.sh).
DEFAULT_IO = [os.path.join(HERE, "results", "h100-2026-11-22", "io")]
DEFAULT_ALIGN = [os.path.join(HERE, "results", "h100-2026-11-22", "alignment")]
DEFAULT_BITWISE = sorted(glob.glob(os.path.join(HERE, "results", "*", "bitwise")))
DEFAULT_FP_COST = sorted(glob.glob(os.path.join(HERE, "results", "*", "fp-cost")))
DEFAULT_OMP_SHAPES = sorted(glob.glob(os.path.join(HERE, "results", "*", "omp-shapes*", "*.txt")) +
                            glob.glob(os.path.join(HERE, "results", "*", "omp-shapes*", "*.jsonl")) +
                            glob.glob(os.path.join(HERE, "results", "*", "kernel-shapes", "*.jsonl")) +
                            glob.glob(os.path.join(HERE, "results", "*", "omp-teams*", "omp-shapes.jsonl")) +
                            glob.glob(os.path.join(HERE, "results", "*", "kokkos-ompt-team*", "omp-shapes.jsonl")))
DEFAULT_CUDA_SHAPES = sorted(glob.glob(os.path.join(HERE, "results", "*", "cuda-shapes*", "cuda-shapes.jsonl")))
DEFAULT_OMP_BEFORE_AFTER = [(os.path.join(HERE, "results", "h200-2026-11-23", "fp-cost", "cost_openmptarget_[0-9]*.json"),
                             os.path.join(HERE, "results", "h200-2026-11-23", "omp-new", "*.json"))]
DEFAULT_CHECKSUM_COST = sorted(glob.glob(os.path.join(HERE, "results", "*", "checksum-cost")))
# Snapshots and checkpoints (issue 35, bench/device/output-layouts.sh), and the copies back before
# pinned buffers (5e07c1d: pageable, as at 045c7fa).
DEFAULT_OUTPUT_LAYOUTS = sorted(glob.glob(os.path.join(HERE, "results", "*", "output-layouts-*")))
# Temporal blocking (issue 36): the study's calls, each with hand CUDA beside it.
# Nsight Compute of the sweep and the single step on both GPUs, one clean build (issue 45, item 4).
DEFAULT_NCU = [(os.path.join(HERE, "results", f"{gpu.lower()}-2026-11-26", "ncu-cf9a00f", f"ncu-{kernel}-512.txt"),
                f"{gpu}, {name}")
               for gpu in ("H100", "H200")
               for kernel, name in (("cuda", "hand CUDA sweep"), ("kokkos-cuda", "Kokkos-CUDA sweep"),
                                    ("cuda-single", "hand CUDA single step (interior)"))]
DEFAULT_TEMPORAL = sorted(glob.glob(os.path.join(HERE, "results", "*", "tblock-*")))
# The product's sweep beside its single steps (bench/device/sweep-checks.sh), oldest first: the
# machines of one day in the order they ran (the newest is the first page's).
DEFAULT_TEMPORAL_PRODUCT = [os.path.join(HERE, "results", "h100-2026-11-25", d)
                            for d in ("temporal-46ea31a", "temporal-dc054f9", "temporal-8f8395e",
                                      "temporal-23f8678")]
# The sweep in every model (issue 44: bench/device/offload-sweep.sh and cpu-sweep.sh), oldest first.
DEFAULT_EVERY_MODEL = [os.path.join(HERE, "results", "h100-2026-11-25", d)
                       for d in ("offload-sweep-b7d26f3", "offload-sweep-efcf452", "cpu-sweep-b7d26f3",
                                 "cpu-sweep-efcf452/128-256", "cpu-sweep-efcf452/512", "offload-sweep-c93b2d0-k46",
                                 "omp-sweep-copy-0232966/before-c93b2d0/omp-k34",
                                 "omp-sweep-copy-0232966/before-c93b2d0/omp-k46",
                                 "omp-sweep-copy-0232966/before-c93b2d0/omp-1000", "omp-sweep-copy-0232966/after-0232966",
                                 "cpu-sweep-c93b2d0/512", "cpu-sweep-c93b2d0/1000", "cpu-sweep-0232966/1000",
                                 "cpu-sweep-0232966/1000-rows")] + [
    os.path.join(HERE, "results", d) for d in
    ("h100-2026-11-26/offload-h100-128-256", "h200-2026-11-26/offload-h200-128", "h200-2026-11-26/offload-h200",
     "h200-2026-11-26/cuda-h200", "h200-2026-11-26/cpu-h200/512", "h200-2026-11-26/cpu-h200/1000")]
# The sweep's lines per model (bench/count_loc.py, its sweep entry).
DEFAULT_SWEEP_LOC = os.path.join(HERE, "results", "build-machine-2026-11-25", "sweep-loc", "loc.json")
DEFAULT_COPY_BEFORE = os.path.join(HERE, "results", "h100-2026-11-25", "output-pinned-019aaa2", "io-m5e07-cuda-512.json")
DEFAULT_NCCL = [os.path.join(HERE, "results", d, "summary.txt") for d in
                ("h200x2-2026-11-24/nccl-checks-eb38183/nccl-checks", "h200x2-2026-11-24/nccl-order-9b9bd49/nccl-checks",
                 "h200x2-2026-11-24/nccl-omp-d9dae2a/nccl-checks",
                 "h200x2-2026-11-23/nccl-checks", "h200x2-2026-11-23/nccl-checks-3529911", "h200-2026-11-23/nccl-1gpu")]
# Newest first: NCCL ordered on the GPU (9b9bd49) and by the host (8b49ef9; the OpenMP offload build
# at d9dae2a) on 2 H200s, GPU to GPU
# through NCCL (both paths at 3529911, NCCL with each strong run's slab alone at f8efcc7), then the
# host-staged path on 4 and 2 H200s (2026-11-22).
# Sweeps over MPI (issue 46), oldest first; the newest is the one shown.
DEFAULT_SWEEP_MPI = [os.path.join(HERE, "results", "h200x2-2026-11-26", d)
                     for d in ("sweep-mpi-b9e2df9", "sweep-mpi-43a53a3", "sweep-mpi-cf9a00f", "sweep-mpi-3cea47b")]
DEFAULT_MPI = [os.path.join(HERE, "results", d) for d in
               ("h200x2-2026-11-24/nccl-order-9b9bd49/mpi-gpu", "h200x2-2026-11-24/nccl-omp-d9dae2a/mpi-omp",
                "h200x2-2026-11-24/nccl-order-8b49ef9/mpi-host",
                "h200x2-2026-11-23/mpi-f8efcc7", "h200x2-2026-11-23/mpi", "h200x4-2026-11-22/mpi", "h200x2-2026-11-22/mpi")]
