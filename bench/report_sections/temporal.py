"""Section 4: beyond the one-step limit, temporal blocking (issues 36, 44, 45): the product's sweep
beside its single steps (bench/device/sweep-checks.sh: temporal-* directories), the Nsight Compute
bounds, the levers measured, and the sweep in every model. The study's own calls (tblock-*) and
every model's run-by-run medians are in their results folders' READMEs."""
import os
import sys

from .common import fmt_su, runfiles
from .inputs import DEFAULT_NCU, DEFAULT_SWEEP_COUNT, HERE

sys.path.insert(0, os.path.join(HERE, "device"))
sys.path.insert(0, HERE)
import ncu_summary  # noqa: E402
import sweep_count_summary  # noqa: E402

# The H100's triad (results/h100-2026-11-24, awave-devbench), the bandwidth the limits below use.
H100_TRIAD_GB_S = 2896.0

# The sweep's levers (issues 45, 56, 57), in the order measured: (lever, code, result, verdict, results folder).
# A row is what its folder's README says; the reasoning behind the verdicts is in results/sweep-levers.md.
LEVERS = [
    ("the read-only data path for the sweep's loads (`__ldg`)", "hand CUDA",
     "1.000 x on the H100, the same instructions", "reverted (rule >= 1.03 x)", "results/h100-2026-11-26/ldg-4d8a58b"),
    ("the fields passed to the march by value (block-uniform arithmetic on the uniform datapath)", "hand CUDA",
     "1.18 / 1.20 x on the H200, 1.10 / 1.11 x on the H100", "taken (c456b6e)", "results/h200-2026-11-26/by-value"),
    ("no shared-memory cache preference under Kokkos 3.4.01 (a patch, as Kokkos 4.0: PR 5706)", "Kokkos-CUDA",
     "0.80 -> 0.85 of hand CUDA at 512^3 on the H100", "taken (`cmake/patches/kokkos-3.4.01/0005`)",
     "results/h100-2026-11-26/kokkos-sweep-fa89705"),
    ("a league of a power of two of teams a segment (no division), the fields by value", "Kokkos-CUDA",
     "0.961 / 0.963 of hand CUDA on the H100, 0.908 / 0.912 on the H200, under 3.4.01 and 4.6.01; at 512^3 on the "
     "H100 the divisions ran 0.88 and `LaunchBounds<640, 1>` 0.78 of it", "taken (8c45610)",
     "results/h100-2026-11-26/kokkos-sweep-8c45610"),
    ("the march's bulk planes (no live tests, damping or plane test where all are known)", "hand CUDA, hand omp",
     "hand CUDA 144 -> 100 slots a site update, 1.13 x on the H200 (three and two rounds), 0.98 / 0.95 x on the "
     "H100; hand omp 1.07 x on the H200", "taken on the H200 (the plan reads the GPU)",
     "results/h200-2026-11-26/march-ab-51e52dc"),
    ("the bulk planes for Kokkos' teams", "Kokkos-CUDA", "0.92 x its general march on the H200", "rejected",
     "results/h200-2026-11-26/march-ab-51e52dc"),
    ("the bulk planes for Kokkos' teams with the functor in constant memory (`HintHeavyWeight`)", "Kokkos-CUDA",
     "1.14 / 1.15 x its general march on the H200 (0.91 / 0.93 of hand CUDA), both Kokkos versions; the constant "
     "memory alone 0.85 x (44 B spilled); on the H100 0.95 x at 512^3", "taken on the H200 (cc2435a)",
     "results/h200-2026-11-27/kokkos-heavy-780cca0"),
    ("the same through `awave` (c844c5e against a6bc464)", "Kokkos-CUDA",
     "1.135 / 1.143 x on the H200, 0.915 / 0.927 of hand CUDA in the same rounds; 186 gpu tests pass", "confirmed",
     "results/h200-2026-11-27/kokkos-heavy-product-c844c5e"),
    ("Kokkos' league loop run once (a patch to its TeamPolicy launch, 3.4.01 and 4.6.01)", "Kokkos-CUDA",
     "0.906 / 0.872 x at 512^3 on the H200 (3.4.01 / 4.6.01): the general march back on the uniform datapath, the "
     "bulk planes not", "rejected (rule >= 1.03 x)", "results/h200-2026-11-27/league-once-c844c5e"),
    ("Kokkos' `team_barrier()` without its `blockDim.z` test", "Kokkos-CUDA",
     "1.007 / 1.012 x at 512^3 on the H200", "rejected (rule >= 1.03 x)",
     "results/h200-2026-11-27/team-barrier-plain-c844c5e"),
    ("the tile split by a reciprocal from the host instead of `%` and `/`", "Kokkos-CUDA",
     "16 B spilled; 0.73 x at 512^3 on the H200, 0.91 x with the bulk planes, both Kokkos versions (1000^3 cut by "
     "the call's limit)", "rejected", "results/h200-2026-11-27/kokkos-udiv-915de12"),
    ("the sweep in parts over MPI by filtering a whole league's teams", "Kokkos-CUDA",
     "ptxas: 16-28 B spilled against the product's 8", "not run", "results/build-machine-2026-11-27/kokkos-parts-filter"),
    ("two teams an SM for the offload code (`--minnctapersm=2`: 48 registers, 148 B spilled)", "hand omp",
     "0.56 x on the H200; Kokkos-OMPT, unchanged, a tie", "rejected", "results/h200-2026-11-27/omp-teams2-940fcd9"),
    ("the plane's loads issued two planes ahead, in registers", "hand CUDA",
     "ptxas: 20 B spilled at the 48-register cap", "not built", "results/build-machine-2026-11-27/loads-ahead-6255889"),
    ("the loads staged two planes ahead in shared memory by `cp.async`", "hand CUDA",
     "0.984 / 0.995 x on the H200 with the bulk planes, ranges apart", "rejected",
     "results/h200-2026-11-27/staged-loads-d2a16bb"),
    ("halos shared through distributed shared memory, priced first: the plane's barrier a cluster's (2, 4, 8 blocks)",
     "hand CUDA", "0.63 / 0.57 / 0.53 x on the H200 at both sizes: R x G 0.70-0.77, the rule 1.15",
     "rejected before the sharing kernel", "results/h200-2026-11-27/cluster-262e7cf"),
    ("two columns a thread in the shared march (the per-warp bookkeeping shared; four columns and three blocks an "
     "SM spill)", "hand CUDA",
     "0.956 x on the H200 with the bulk planes, 0.969 / 0.972 x in the general march: 10% fewer issue slots a site "
     "update at half the occupancy (92 registers)", "rejected", "results/h200-2026-11-27/columns-12e382a"),
    ("big tiles, one block an SM in the opt-in shared memory (64 or 96 KB), two to eight columns a thread, one or two "
     "planes a batch, three and four steps (EBISU's and PERKS' design; issue 73)", "hand CUDA",
     "best (64 x 32 columns, two a thread) 1.043 / 1.091 x on the H200, 1.092 / 1.071 x on the H100, bitwise: 68.0 "
     "issue slots a site update against 99.7 (H200) and 144.2 (H100), SM throughput 47% against 67% (H200); four "
     "steps 0.87 / 0.94 x on the H200", "rejected (rule >= 1.15 x on the H200)",
     "results/h200-2026-11-27/big-tiles-f7ed5df"),
    ("CPU tiles of four and six steps", "cpu-openmp, Kokkos host",
     "best 1.13 x at 512^3, 1.05 x at 1000^3 (rule 1.15 x); a tie against the best three-step tile", "rejected",
     "results/h100-2026-11-27/cpu-depth-149a035"),
    ("the CPU sweep's row loops cloned for AVX-512", "cpu-openmp, Kokkos-OpenMP",
     "every cell a tie (ranges overlap; cpu-openmp 0.97 x at 1000^3)", "rejected",
     "results/h200-2026-11-27/cpu-v4-clone-dfb1fcc"),
]

def bytes_per_update(steps_per_sweep):
    """Bytes a site update moves at the least: 24 for single steps (read now and prev, write next);
    a sweep of S steps reads two levels and writes two, 32 / S."""
    return 24.0 if steps_per_sweep == 1 else 32.0 / steps_per_sweep


def limit(steps_per_sweep):
    return H100_TRIAD_GB_S * 1e9 / bytes_per_update(steps_per_sweep)


def product_runs(d):
    """{(n, steps, id): {plan: (SU/s, steps a sweep run)}} from a temporal-* directory's
    sweep-N-PLAN-STEPS.json files, and the (GPU, commit) they name."""
    rows, gpu, commit = {}, None, None
    for p in runfiles.glob(d, "sweep-*.json"):
        n, plan, steps = os.path.basename(p)[len("sweep-"):-len(".json")].split("-")
        run = runfiles.load(p)
        gpu, commit = run["build"]["accelerator"], run["build"]["git_commit"]
        for impl in run["implementations"]:
            rows.setdefault((int(n), int(steps), impl["id"]), {})[int(plan)] = (
                impl["best_su_per_s"], impl.get("steps_per_sweep", 1))
    return rows, gpu, commit


def temporal_section(w, product_dirs):
    """Section 4: the limits per steps a sweep, the study's result, the product's sweep beside its single
    steps, what bounds each kernel and the levers measured. The study's calls, shape by shape, and its
    history are in their results folder's README."""
    if not product_dirs:
        return
    w("## 4. Beyond the one-step limit: temporal blocking\n")
    w("A single step reads `now` and `prev` and writes `next`: 24 B a site update. A sweep of S steps reads u(t-1) "
      "and u(t) and writes its last two levels, 32 B for S updates of a site: the limit rises with S. The study "
      "(`bench/studies/cuda-temporal-blocking/cuda_temporal_blocking.cu`, `awave-cuda-tblock`) timed two- to six-step shapes, sponge layers "
      "included, each checked bitwise against single steps of the shared formula on the GPU (a planted one-ulp "
      "difference is caught in every call), beside the product's hand CUDA with single steps in the same call. "
      "Decision rule (issue 36, stated before the runs): a shape enters the product at >= 1.15 x hand CUDA at "
      "512^3 and 1000^3 on the H100 and the H200. Limits on the H100's triad "
      f"({H100_TRIAD_GB_S:.0f} GB/s):\n")
    w("| steps a sweep | bytes a site update | limit (SU/s) |")
    w("|---|---|---|")
    for s in (1, 2, 3, 4):
        w(f"| {s} | {bytes_per_update(s):.2f} | {fmt_su(limit(s))} |")
    w("")
    w("**Result.** The rule is met by three steps a sweep (`reg3p`): a block of 32 x 20 threads is the columns "
      "of a 26 x 14 tile with a halo of 3, marches i over 64 planes keeping each column's levels in registers, "
      "passes only the (j, k) neighbours through shared memory (one plane a level, two buffers, one barrier a "
      "plane), and issues the next plane's loads before the barrier. It is in the product "
      "(`src/core/sweep_march.hpp`, written once; hand CUDA's thread block and Kokkos' TeamPolicy team with "
      "scratch memory run it) from 200^3 points, with a fourth field; over MPI a slab sweeps too, with halos of "
      "3 planes exchanged once a sweep (issue 46, section 2); single steps where nz <= 2 (the start has values "
      "on z ghosts). The threshold: at "
      "200^3 both sweeps beat their single steps (Kokkos-CUDA by 2%), at 192^3 Kokkos-CUDA's lost (the table "
      "below). The H200 could not be had: the three calls that asked for one ran on H100s (three machines; "
      "their sweeps agree as the table's caption says), so the H100 decides, as the issue allows.\n")
    # One table over the calls (oldest first): each size from the latest call that measured it; the
    # caption gives how far the calls' rates of one size differ.
    merged, seen, gpus, calls = {}, {}, set(), []
    for d in product_dirs:
        rows, gpu, commit = product_runs(d)
        for (n, steps) in {(n, s) for (n, s, _) in rows}:
            c, k = rows.get((n, steps, "cuda"), {}), rows.get((n, steps, "kokkos-cuda"), {})
            if 1 in c and 3 in c and 1 in k and 3 in k:
                merged[(n, steps)] = (commit, c, k)
                seen.setdefault((n, steps), []).append([c[1][0], c[3][0], k[1][0], k[3][0]])
                gpus.add(gpu)
                if d not in calls:
                    calls.append(d)
    if merged:
        def spread(columns):  # the largest relative difference between calls of one size, over the columns
            return max(max(v) / min(v) - 1 for rates in seen.values() for c, v in enumerate(zip(*rates))
                       if c in columns)
        w(f"The product, single steps (`-tune steps_per_sweep=1`) and the sweep, the same binary, unchecked runs "
          f"(the gpu tests and a checked 256^3 run are the bitwise evidence), over {len(calls)} calls "
          f"({', '.join(f'`{os.path.relpath(d, HERE)}`' for d in calls)}; {', '.join(sorted(gpus))}): each "
          f"size from the latest call that measured it (its commit in the last column); where calls measured the "
          f"same size their sweeps differ by at most {100 * spread((1, 3)):.1f}% and their single steps by at most "
          f"{100 * spread((0, 2)):.1f}%.\n")
        w("| N | steps (chunks of a third) | hand CUDA single | sweep | x | / 3-step limit | Kokkos-CUDA single | "
          "sweep | x | / 3-step limit | Kokkos / hand, sweep | call |")
        w("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for (n, steps), (commit, c, k) in sorted(merged.items()):
            w(f"| {n}^3 | {steps} | {fmt_su(c[1][0])} | {fmt_su(c[3][0])} | {c[3][0] / c[1][0]:.3f} | "
              f"{c[3][0] / limit(3):.2f} | {fmt_su(k[1][0])} | {fmt_su(k[3][0])} | {k[3][0] / k[1][0]:.3f} | "
              f"{k[3][0] / limit(3):.2f} | {k[3][0] / c[3][0]:.3f} | `{commit[:7]}` |")
        w("")
    if product_dirs:
        rows, gpu, _ = product_runs(product_dirs[-1])
        fractions = []
        for impl, name in (("cuda", "hand CUDA"), ("kokkos-cuda", "Kokkos-CUDA")):
            got = [rows[(n, 60, impl)] for n in (512, 1000) if 1 in rows.get((n, 60, impl), {})]
            if len(got) == 2 and all(3 in g for g in got):
                fractions.append(f"{name} {' / '.join(f'{g[1][0] / limit(1):.2f}' for g in got)} of the single-step "
                                 f"limit with single steps, {' / '.join(f'{g[3][0] / limit(3):.2f}' for g in got)} of "
                                 "the three-step limit with the sweep")
        if fractions:
            w(f"Each model's fraction of its limit at 512^3 / 1000^3 ({gpu.split(',')[0]}, 60 steps): "
              + "; ".join(fractions) + ".\n")
    w("What bounds each kernel on both GPUs (Nsight Compute at 512^3, one kernel of each after two launches, "
      "the same clean build at cf9a00f on each: `bench/device/sweep-counters.sh` with `SINGLE=1`, "
      "`results/h100-2026-11-26/ncu-cf9a00f` and `results/h200-2026-11-26/ncu-cf9a00f`; `bound`: the unit "
      "nearest its peak, `bench/ncu_summary.py`):\n")
    w(ncu_summary.table([(path, name) for path, name in DEFAULT_NCU if runfiles.exists(path)]) + "\n")
    w("Hand CUDA's sweep is bound by instruction issue on both GPUs (77% / 85% SM throughput, 0.77 / 0.86 "
      "warps issued a scheduler a cycle; the same 1.82e9 instructions: the two GPUs have the same SMs and "
      "clocks), with DRAM at 61% / 47%: the H200's 1.45 x bandwidth goes unused, which is why the sweep runs "
      "at nearly the same rate on both (2.27 / 2.04 ms). Its instructions are 3.7 updates a point for three "
      "steps (the halo recomputed) and their addressing; the L2 carries 2.0 x the DRAM bytes (the halos). "
      "Kokkos-CUDA's sweep executes 1% fewer instructions but moves 1.8 x hand CUDA's L2 bytes (Kokkos passes "
      "the functor through local memory, and the march reads its fields through it) and issues on 61-64% of "
      "the cycles: no unit is at its peak, its warps wait on those loads. The single step (hand CUDA's "
      "interior kernel) is bound by L2 throughput on both (93% / 96%; 2.1 x the DRAM bytes: each point's "
      "neighbour planes), which is why it stops at 0.96 / 0.85 of the DRAM limit. The register allocation "
      "matters as much as the bytes: the same arithmetic spelled differently ran at 1.46e11 SU/s at 512^3 "
      "(`reg3p-26x14`) and 1.75e11 (`reg3p-26x14-table`) on the H100; four steps a sweep lose to three "
      "(1.11 / 1.20 x hand CUDA at 512^3 / 1000^3: 5.7 updates a point on a 24 x 12 tile, and spills), two "
      "reach 1.09 / 1.10 x (`reg2p-28x16`), five 1.05 / 1.14 x, six 0.77 / 0.84 x.\n")
    counted = [(heading, os.path.join(d, f"count-{impl}-sass.csv")) for d, impl, heading in DEFAULT_SWEEP_COUNT
               if runfiles.exists(os.path.join(d, f"count-{impl}-sass.csv"))]
    if counted:
        w("Issue slots a site update of every model's sweep on the H200, the hand codes and Kokkos-CUDA before and after the bulk "
          "planes (issue 57, \"count first\": 32 x the warp instructions Nsight Compute's source page counts on each "
          "SASS line, over the sweep's 3 x 512^3 site updates; in brackets the predicated-on thread instructions; "
          "`bench/device/sweep-count.sh`, `bench/sweep_count_summary.py`, "
          "`results/h200-2026-11-27/sweep-count-models-915de12` and, for Kokkos-CUDA's bulk planes, `sweep-count-c844c5e`). "
          "The counts are the SASS's, not the GPU's: the H100's counts of hand CUDA are the same to the first decimal "
          "(`results/h100-2026-11-26/sweep-count-4c40a06`), and each GPU runs the columns its plan takes (the general "
          "march on the H100, the bulk planes on the H200). About 30 slots are the update's own work "
          "(fp64, shared, global and generic memory, the barrier); the rest is the march's bookkeeping, which the bulk "
          "planes cut by a third (hand CUDA) and a fifth (hand omp). Kokkos-CUDA keeps its team-uniform values in "
          "vector registers (integer slots 60.6 against hand CUDA's 37.4); with the bulk planes and its functor in "
          "constant memory it issues 112.7 slots against hand CUDA's 99.7, the difference still vector integer work "
          "(its plane counter is not on the uniform datapath: 41.4 integer slots against 23.5) and one 8-byte spill a "
          "plane. **The offload codes execute fewer "
          "instructions than hand CUDA but run slower**: clang's code has no uniform-datapath instruction, holds 86-90 "
          "registers and so runs one team of 640 threads an SM (31% occupancy): at each plane's barrier the SM has no "
          "second team to run. Kokkos-OMPT under 3.4.01 passes its planes through global memory (0 shared-memory "
          "slots, 8.0 global), under 4.6.01 through shared memory (hand omp's count).\n")
        w("\n".join(sweep_count_summary.table(counted)) + "\n")
    w("**The levers** (issues 45, 56, 57), in the order measured. Each rule was stated before its runs (in the "
      "folder's README, its script or its study branch's commit); unless the row says otherwise a result is the "
      "median of five interleaved rounds against the product's sweep in the same call, bitwise, at 512^3 / 1000^3. "
      "The reasoning behind each verdict, as the report last told it: `bench/results/sweep-levers.md`.\n")
    w("| lever | code | result | verdict | results |")
    w("|---|---|---|---|---|")
    for lever, code, result, verdict, folder in LEVERS:
        w(f"| {lever} | {code} | {result} | {verdict} | `{folder}` |")
    w("")
    w("**Where the targets stand.** Hand CUDA's sweep runs 1.78e11 SU/s on the H100 at 512^3 and 1000^3 "
      "(`results/h100-2026-11-27/energy-cb46677`, `results/h100-2026-11-27/study-8f9e458-cuda-1000`; issue 57's "
      "target 2.3e11) and 2.23e11 / 2.26e11 on the H200 (`results/h200-2026-11-27/staged-loads-d2a16bb`; target "
      "3.0e11): 0.66 and 0.58 of the three-step limit. What holds it, measured: in the general march (the H100's "
      "plan) instruction issue, 144 slots a site update, the 364 points of a 26 x 14 tile taking 640 threads (its "
      "halo of 3 recomputed); with the bulk planes (the H200's plan, 100 slots) the wait at the plane's "
      "barrier, two teams an SM under the 48-register cap. At that cap every lever that needs a register spills "
      "(the loads ahead, Kokkos' reciprocal, four columns a thread or two at three blocks an SM); those that trade registers for occupancy or shared memory lose (two "
      "teams an SM for the offload code, one for Kokkos, the staged loads); sharing the halo instead of "
      "recomputing it needs a cluster barrier a plane, which alone costs the sweep 37-47% of its rate; and two "
      "columns a thread, which cut the instructions by 10%, halve the warps that hide the latency and lose 3-4%. Big tiles "
      "at one block an SM (issue 73) cut them by a third, but issue falls from 67% to 47% of the SM's peak: 1.04 / "
      "1.09 x on the H200, under the rule's 1.15. Kokkos-CUDA's sweep "
      "(issue 56) is 0.96 of hand CUDA's on the H100 under 3.4.01 and 4.6.01 (the target, >= 0.95, met); on the "
      "H200, with the bulk planes and its functor in constant memory since cc2435a (0.80 before), 0.915 / 0.927 of "
      "hand's through `awave` at 512^3 / 1000^3 (`results/h200-2026-11-27/kokkos-heavy-product-c844c5e`) and 0.92 / "
      "0.93 in the study (the first page's cells; 0.91 / 0.92 under 4.6.01), short of 0.95. What holds it, "
      "measured: its plane counter steps in a vector register where hand CUDA's is uniform (112.7 issue slots a site "
      "update against 99.7), and each of Kokkos' league loop, its barrier's `blockDim.z` test and its team scratch "
      "at a run-time offset alone does that to hand CUDA's own march (`results/build-machine-2026-11-27/"
      "kokkos-launch-shapes`); removing the loop or the test from Kokkos lost 9-13% or gained 0-1%, and the scratch "
      "offset is not a local patch: Kokkos' CUDA team launch as shipped is the limit. On 4 H200s it scales 0.85 / 0.86 "
      "(strong 1024^3 / weak 512^3 a GPU; hand CUDA 0.91 / 0.94; issue 56's target 0.92): it sweeps whole after "
      "its halo arrives, and the same launch made its sweep in parts lose 8-20% "
      "(`results/h200x4-2026-11-27/chunk-barrier-625ab1d`). The CPUs' sweep is bound like the "
      "triad (it scales 0.39-0.48 of linear at 16 threads, the triad 0.41: "
      "`results/h100-2026-11-27/cpu-threads-8f9e458`), yet at its modelled 12.3 B a site update it moves 0.39-0.46 "
      "of the triad's bytes; what else it waits on cannot be counted there: the device machines' Xeons are KVM guests "
      "with no performance-monitoring unit (`results/h200-2026-11-27/team-barrier-plain-c844c5e/perf-probe.txt`). "
      "Tiles of four and six steps and an AVX-512 clone were ties, short of issue 57's 1.6 x the single-step limit.\n")
    w("The study's calls, shape by shape, and its history: `bench/results/h100-2026-11-25/README.md` (the calls of "
      "the H100 and the H200, `tblock-*`), as the report last showed them.\n")


# What each model needed for the sweep beyond its single step (issue 44, item 6), read from the code.
MODEL_NEEDS = [
    ("hand CUDA", "`__shared__` planes, `__syncthreads()`, `__launch_bounds__(640, 2)` (48 registers)"),
    ("Kokkos-CUDA", "a `TeamPolicy` with `LaunchBounds<640, 2>`, level-0 team scratch (`set_scratch_size`, "
     "`team_scratch(0).get_shmem`), `team_barrier()`; a league of a power of two of teams a segment (no "
     "division) and the fields by value; where it takes the bulk planes (the H200) the `HintHeavyWeight` "
     "property (`Kokkos::Experimental::require`: the functor in constant memory); under 3.4.01 a patch dropping "
     "its shared-memory cache preference (as 4.0)"),
    ("hand OpenMP offload", "a `target teams` region holding one `parallel` of 640 threads, a static array under "
     "`#pragma omp allocate(...) allocator(omp_pteam_mem_alloc)` (clang 19: GPU shared memory), `#pragma omp "
     "barrier`, and a check that the team got its 640 threads (OpenMP may give fewer); no register bound: "
     "`ompx_attribute(__attribute__((launch_bounds(640, 2))))` becomes a minimum team count in clang 19"),
    ("Kokkos OpenMPTarget", "the same `TeamPolicy` as Kokkos-CUDA, plus a check that each team got its 640 "
     "threads; under 3.x the policy without an instance (`TeamPolicy(instance, ...)` does not compile there) and "
     "the project's patch of 3.4.01's team scratch offset (upstream 17950d1c6, in 3.6.00)"),
    ("cpu-openmp", "per-thread level buffers, tiles of rows x planes (core/cache_sweep.hpp), `omp simd` rows and an "
     "AVX2 clone (`target_clones`)"),
    ("Kokkos host backends", "the same tile code in a `TeamPolicy` of one-thread teams, each tile's buffer its "
     "level-1 scratch (`PerTeam`)"),
]


def every_model_section(w, loc_json=None):
    """The sweep in hand OpenMP offload, Kokkos' OpenMPTarget backend and on the CPU: the decisions and
    what each model needed (every run's medians, folder by folder: the results' README)."""
    w("### The sweep in every model\n")
    w("Issue 44 took the sweep to the models beyond CUDA. Decision rules, stated in the scripts before the runs: "
      "on the GPU a sweep becomes its implementation's default where its median is >= 1.15 x its single steps' at "
      "512^3 and 1000^3 (`bench/device/offload-sweep.sh`); on the CPU from the smallest size where its median beats "
      "the single steps' by more than both spreads, with a target of >= 1.0 of the single-step limit at 512^3 and "
      "1000^3 (`bench/device/cpu-sweep.sh`, 24 B a site at the triad measured in the same call). Each row: the "
      "median over runs (separate processes, interleaved) of each run's best chunk, with the range; every run's "
      "bits the reference's (checked, or its `-digest` equal to a checked run's).\n")
    w("Every run's medians, folder by folder (`bench/device/sweep_study_summary.py` over the folders "
      "`offload-sweep-*`, `cpu-sweep-*`, `omp-sweep-copy-*` and the H200's): `bench/results/h100-2026-11-25/README.md`.\n")
    w("**Decisions.** Hand OpenMP offload's sweep met the rule on the H100: at 0232966 1.32 x its single steps at "
      "512^3 and 1.30 x at 1000^3 (five rounds each, ranges apart; 1.35e11 and 1.39e11 SU/s, 1.12 and 1.15 x the "
      "H100's single-step limit, 0.50 and 0.51 of its three-step limit; hand CUDA's sweep: 0.57). Between efcf452 "
      "and c93b2d0 it had lost 12% (1.12-1.16 x, below the rule at 1000^3): building its fields with "
      "`sweep_fields()` made the struct `const`, and clang 19 then read the `firstprivate` through the mapped copy, "
      "reloading its members from global memory after every store and barrier (25 global loads in the kernel's PTX "
      "against 11). A local copy inside the `parallel` region, as the step region has, restored it "
      "(`omp-sweep-copy-0232966`: 1.14e11 before, 1.35e11 after at 512^3). On the H200 (`h200-2026-11-26`, 69fe720) "
      "it gains less, 1.16 x at 512^3 and 1.13 x at 1000^3 (single steps there are nearer their limit), still "
      "faster in every round at every size; the sweep stays the default there, since the rule was whether it "
      "enters the product at all. Its threshold (item 5), measured on both GPUs: it pays from 128^3, the smallest "
      "size measured (2.07 x on the H100, 1.97 x on the H200: a single step there is one launch-bound target "
      "region), so both OpenMP-offload sweeps now start at 128^3 (`sweep_min_points` in `core/step_plan.hpp`, "
      "recorded in `-json`). The CUDA codes' threshold differs by GPU: 200^3 on the H100, 256^3 on the H200, "
      "where both lose at 192^3 (hand 0.96 x, Kokkos 0.79 x) and Kokkos-CUDA ties at 256^3 (`cuda-h200`); the plan "
      "reads the GPU's name.\n")
    w("Kokkos' OpenMPTarget backend sweeps under 3.4.01 since issue 56. Its earlier crash (an illegal memory "
      "access at 1000^3 and on every test grid of fewer than 260 teams, the sweep made without an instance since "
      "3.4.01's `TeamPolicy(instance, ...)` does not compile) was Kokkos' bug: `team_scratch(level)` passed the "
      "team's scratch size as the offset into the team's block, so `get_shmem` pointed past it; upstream fixed it "
      "in 17950d1c6 (PR 4359, 3.6.00) and the project's 3.4.01 carries that fix "
      "(`cmake/patches/kokkos-3.4.01/0004`). With it, at 8c45610 on the H100 (`h100-2026-11-26/kokkos-ompt-sweep-8c45610`): "
      "the openmptarget GPU suite 179 of 179 with the sweep forced on every test grid; bitwise at 512^3 and "
      "1000^3; 1.26 x and 1.24 x its single steps (1.03e11 / 1.06e11 SU/s, five rounds each, ranges apart): the "
      "rule holds, so it sweeps from 128^3 under both versions. Under 4.6.01 the same commit's sweep is bitwise on "
      "five grids from 33x17x9 to 512^3 and runs 1.21e11 SU/s at 512^3, 1.47 x its single steps (three rounds, "
      "`k46/`). The rest of this paragraph is the earlier measurement under 4.6.01. Under 4.6.01, whose OpenMPTarget `TeamPolicy` takes the "
      "instance, the unchanged `SweepStep` passes the openmptarget GPU suite with the sweep forced on every test "
      "grid (178 of 178, `offload-sweep-c93b2d0-k46/ctest-gpu.log`) and runs 1.30 x its single steps at 512^3 (five "
      "rounds) and 1000^3 (two); on the H200 1.14 x and 1.19 x (five and four rounds). In builds against Kokkos 4 it "
      "swept from 128^3 (1.76 x and 1.78 x there). In that call it was 0.94 of hand omp's sweep (before the fix above); its kernel's PTX "
      "shows the same reloads of the functor's members (26 global loads, counted as hand omp's 25), the lever hand omp's fix found, left "
      "to issue 45. Under 3.4.01 its team scratch is device memory: both levels sit in one HBM buffer, where "
      "Kokkos 4.3.00 takes level 0 from the GPU's shared memory with clang's extensions (PR 6380). Its sweep "
      "kernel's PTX has 14 global f64 loads and 3 stores under 3.4.01 (the level planes' neighbours and stores), "
      "2 and 0 under 4.6.01 as hand omp's (`results/build-machine-2026-11-27/omp-ptx-8f9e458`), which fits its "
      "sweep at 0.71 / 0.72 of hand omp's at 512^3 / 1000^3 on the H200 under 3.4.01 and 0.89 / 0.91 under "
      "4.6.01 (`h200-2026-11-27/study-8f9e458`). Nsight Compute shows it on the H200: 0 shared-memory and 8.0 "
      "global-memory issue slots a site update under 3.4.01, 7.8 and 0.1 under 4.6.01 "
      "(`h200-2026-11-27/sweep-count-models-915de12`). Kokkos 5.1 removed the OpenMPTarget "
      "backend: from 5.1 a Kokkos code has no OpenMP-offload path at all, sweep or single step.\n")
    w("The CPU's sweep is the host implementations' default from 128^3: cpu-openmp 1.5-2.3 x its single steps, "
      "Kokkos-OpenMP 1.2-3.1 x. The target (>= 1.0 of the single-step limit, median of five) is reached on the "
      "H100 machine's Xeon: at 512^3 with 32-row tiles (cpu-openmp 1.05, Kokkos-OpenMP 1.04, "
      "`cpu-sweep-c93b2d0/512`), at 1000^3 with 16-row tiles (1.05 and 1.03, `cpu-sweep-0232966/1000-rows`), where "
      "32 rows gave 0.98 and 0.94 in the same call (0.93 and 0.91, 0.78 and 0.75 in two others). At nz = 1000 a "
      "32-row tile's level buffer (1.8 MB) and the rows it reads (1.2 MB) overflow the 2 MB L2: the default rows "
      "now come from that model (`CacheSweep::default_rows`: the most rows, at most 32, whose 10 planes of rows "
      "+ 6 fit a core's L2; 32 at nz = 512, 16 at nz = 1000), and 16 beat 32 in 3 of 4 paired rounds there, the "
      "fourth a tie. Each fraction uses its own call's triad, which varied from 104 to 169 GB/s on the same CPU "
      "model between calls (a shared host); within a call runs spread up to 1.5 x at 512^3. Where the sweep stands "
      "against its own limit, modelled: 16-row tiles move about 12.3 B a site update (u(t) read on 22 rows for 16, "
      "u(t-1) on 20, two levels written), so 6.8e9 SU/s is 84 GB/s, about half of that call's triad; the row loop's "
      "AVX2 clone takes four updates in 19 instructions (`results/build-machine-2026-11-25/cpu-sweep-census-09e6ab3`), "
      "and the tiles' traffic through L2 and L3 is the likely bound (no counters on these VMs). Tried: rows of 16, "
      "32 and 64 (32-64 best at 512^3, 16 at 1000^3); the AVX2 clone (+14% on the build machine's 2 cores); the "
      "damped rows vectorised: a tie, not kept (`cpu-sweep-damped-rows-3a57115`). On the H200 machine's Xeon (the "
      "same model, `h200-2026-11-26/cpu-h200`) the sweep ran 3.8e9 SU/s at both sizes, 2.3-2.5 x cpu-openmp's "
      "single steps and 1.7-1.8 x Kokkos': 1.01 and 0.99 of the limit at 512^3 (triad 89.8 GB/s), 0.75 and 0.77 "
      "at 1000^3 against the triad measured minutes later in the same call (120.8 GB/s; 1.01 and 1.03 against "
      "the first). So the target holds at 512^3 on both CPUs and at 1000^3 on the H100's; on the H200's at "
      "1000^3 it is not shown, and the limit itself moved 35% within one call.\n")
    w("What binds the CPU's sweep (issue 57; `bench/studies/cpu-threads/cpu-threads.sh`, its rule stated before the runs: under "
      "0.6 x linear scaling at 16 threads the bound is shared, at or above it each core's work). On the H100 "
      "machine's Xeon at 512^3 (clean 8f9e458, two interleaved rounds, `results/h100-2026-11-27/cpu-threads-8f9e458`) "
      "one thread sweeps 5.2e8 SU/s (cpu-openmp) and 4.8e8 (Kokkos-OpenMP), 16 threads 3.3e9 and 3.7e9: 0.39 and "
      "0.48 of linear (single steps 0.39 and 0.42). The triad scales alike, 15 GB/s on one thread and 98 on 16 "
      "(0.41), and the sweep's modelled 12.3 B an update is 0.39-0.46 of the triad at one thread and at 16. So the "
      "bound is shared, the memory traffic, not each core's instructions: one Xeon core sweeps at 0.56 of the "
      "build machine's EPYC core (9.3e8, `results/build-machine-2026-11-27/cpu-threads-8f9e458`), not the 0.26 "
      "the 16-thread rate suggests. The lever left was fewer bytes an update (more steps a tile): tiles of four and "
      "six steps (`bench/studies/cpu-sweep-depth`, bitwise; rule: >= 1.15 x at 512^3 and 1000^3) ran 1.13 x the "
      "product's sweep at 512^3 and 1.05 x at 1000^3 on that Xeon, and tied the best three-step tile of the same "
      "call (16 rows): the halo they recompute and buffers past L2 take back the bytes they save "
      "(`results/h100-2026-11-27/cpu-depth-149a035`). The product keeps three steps.\n")
    w("What each model needed beyond its single step, and the lines of its sweep (non-blank, non-comment; "
      "`bench/count_loc.py`, its `sweep` entry):\n")
    lines = {}
    if loc_json and runfiles.exists(loc_json):
        loc = runfiles.load(loc_json)
        lines = {k: v["lines"] for k, v in loc.get("sweep", {}).items()}
        w(f"Counted at `{loc['git_commit']}`: the GPU sweep shared by hand CUDA, Kokkos-CUDA and hand omp "
          f"{lines.get('GPU sweep, shared (hand CUDA, Kokkos-CUDA, hand omp)', '-')} lines, the CPU's shared by "
          f"cpu-openmp and the Kokkos host backends {lines.get('CPU sweep, shared (cpu-openmp, Kokkos host backends)', '-')}.\n")
    w("| model | its own sweep lines | what it needed |")
    w("|---|---|---|")
    own = {"hand CUDA": "cuda", "Kokkos-CUDA": "kokkos-cuda", "hand OpenMP offload": "omp",
           "Kokkos OpenMPTarget": "kokkos-cuda", "cpu-openmp": "cpu-openmp", "Kokkos host backends": "kokkos host"}
    for model, needs in MODEL_NEEDS:
        w(f"| {model} | {lines.get(own[model], '-')} | {needs} |")
    w("")
