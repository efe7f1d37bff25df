"""Section 4: beyond the one-step limit, temporal blocking (issues 36, 44, 45, 57): the product's sweep beside
its single steps (bench/device/sweep-checks.sh: temporal-* directories), what bounds each kernel (Nsight Compute)
and what each model's sweep needed. The design's study, the levers tried since, each decision and its reasoning
are in the results folders' READMEs the section cites."""
import os

from ..catalog.paths import BENCH as HERE
from ..runs import files as runfiles, study
from ..runs.ncu import table as ncu_table
from .markdown import fmt_su


def bytes_per_update(steps_per_sweep):
    """Bytes a site update moves at the least: 24 for single steps (read now and prev, write next);
    a sweep of S steps reads two levels and writes two, 32 / S."""
    return 24.0 if steps_per_sweep == 1 else 32.0 / steps_per_sweep


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


def temporal_section(w, number, runs, ncu, sweep_loc, triads):
    """Section 4: the limits per steps a sweep on the GPU the product's sweep ran on (its best triad in the
    study, triads: study.load_study's), the product's sweep beside its single steps, what bounds each
    kernel. The study's calls, shape by shape, the levers and the reasoning are in the READMEs it cites."""
    if not runs:
        return
    merged, seen, gpus, calls = {}, {}, set(), []
    for d in runs:  # one table over the calls, oldest first: each size from the latest call
        rows, gpu, commit = product_runs(d)
        for (n, steps) in {(n, s) for (n, s, _) in rows}:
            c, k = rows.get((n, steps, "cuda"), {}), rows.get((n, steps, "kokkos-cuda"), {})
            if 1 in c and 3 in c and 1 in k and 3 in k:
                merged[(n, steps)] = (commit, c, k)
                seen.setdefault((n, steps), []).append([c[1][0], c[3][0], k[1][0], k[3][0]])
                gpus.add(gpu)
                if d not in calls:
                    calls.append(d)
    triad = triads.get(study.gpu_short(sorted(gpus)[0]) if gpus else None)

    def limit(steps):
        return triad[0] * 1e9 / bytes_per_update(steps) if triad else None

    def of_limit(su, steps):
        return f"{su / limit(steps):.2f}" if triad else "—"
    w(f"## {number}. Beyond the one-step limit: temporal blocking\n")
    w("A single step reads `now` and `prev` and writes `next`: 24 B a site update. A sweep of S steps reads u(t-1) "
      "and u(t) and writes its last two levels, 32 B for S updates of a site, so the limit rises with S"
      + (f": on the {study.gpu_short(sorted(gpus)[0])}'s best triad of the study ({triad[0]:.0f} GB/s) {fmt_su(limit(1))} "
         f"SU/s for single steps, {fmt_su(limit(3))} for three steps a sweep" if triad else "")
      + ". The product sweeps three steps (`src/core/sweep_march.hpp`); the design, its decision rule (issue 36) and "
      "the study's calls, shape by shape: `bench/results/h100-2026-11-25/README.md`.\n")
    if merged:
        def spread(columns):  # the largest relative difference between calls of one size, over the columns
            return max(max(v) / min(v) - 1 for rates in seen.values() for c, v in enumerate(zip(*rates))
                       if c in columns)
        w(f"The product, single steps (`-tune steps_per_sweep=1`) and the sweep, the same binary, unchecked runs "
          f"(the gpu tests are the bitwise evidence), over {len(calls)} calls "
          f"({', '.join(f'`{os.path.relpath(d, HERE)}`' for d in calls)}): each size from the latest call that "
          f"measured it (its commit in the last column); where calls measured the same size their sweeps differ by "
          f"at most {100 * spread((1, 3)):.1f}% and their single steps by at most {100 * spread((0, 2)):.1f}%.\n")
        w("| N | steps (chunks of a third) | hand CUDA single | sweep | x | / 3-step limit | Kokkos-CUDA single | "
          "sweep | x | / 3-step limit | Kokkos / hand, sweep | call |")
        w("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for (n, steps), (commit, c, k) in sorted(merged.items()):
            w(f"| {n}^3 | {steps} | {fmt_su(c[1][0])} | {fmt_su(c[3][0])} | {c[3][0] / c[1][0]:.3f} | "
              f"{of_limit(c[3][0], 3)} | {fmt_su(k[1][0])} | {fmt_su(k[3][0])} | {k[3][0] / k[1][0]:.3f} | "
              f"{of_limit(k[3][0], 3)} | {k[3][0] / c[3][0]:.3f} | `{commit[:7]}` |")
        w("")
        rows, _, _ = product_runs(runs[-1])
        fractions = []
        for impl, name in (("cuda", "hand CUDA"), ("kokkos-cuda", "Kokkos-CUDA")):
            got = [rows[(n, 60, impl)] for n in (512, 1000) if 1 in rows.get((n, 60, impl), {})]
            if triad and len(got) == 2 and all(3 in g for g in got):
                fractions.append(f"{name} {' / '.join(of_limit(g[1][0], 1) for g in got)} and "
                                 f"{' / '.join(of_limit(g[3][0], 3) for g in got)}")
        if fractions:
            w("Each model's fraction of its limit at 512^3 / 1000^3 (60 steps), its single steps of the single-step "
              "limit and its sweep of the three-step one: " + "; ".join(fractions) + ".\n")
    ncu = [(path, name) for path, name in ncu if runfiles.exists(path)]
    if ncu:
        w("What bounds each kernel at 512^3 (Nsight Compute, one kernel of each after two launches, one clean build on "
          "each GPU: `bench/device/sweep-counters.sh` with `SINGLE=1`, "
          + ", ".join(sorted({f"`{os.path.relpath(os.path.dirname(p), HERE)}`" for p, _ in ncu}))
          + "; `bound`: the unit nearest its peak, `bench/ncu_summary.py`; the reading: "
          "`bench/results/h100-2026-11-26/README.md`):\n")
        w(ncu_table(ncu) + "\n")
    w("Since (issues 45, 56, 57): each lever tried on the sweep, its rule, result, verdict and folder, and where the "
      "targets stand: `bench/results/sweep-levers.md`; every model's sweep counted in issue slots a site update: "
      "`bench/results/h200-2026-11-27/README.md`.\n")


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
    """The sweep in every model (issue 44): where its decisions are, and what each model needed."""
    w("### The sweep in every model\n")
    w("Issue 44 took the sweep to hand OpenMP offload, Kokkos' OpenMPTarget backend and the CPU codes: the decision "
      "rules, each decision and every run's medians are in `bench/results/h100-2026-11-25/README.md`; what binds the "
      "CPU's sweep (issue 57), in `bench/results/h100-2026-11-27/README.md`. What each model needed beyond its single "
      "step, and the lines of its sweep (non-blank, non-comment; `bench/count_loc.py`, its `sweep` entry):\n")
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
