"""Sections 12, 13 and 17: output (I/O overlap), row alignment, checksum cost."""
import glob
import json
import os
import statistics

from .common import fmt_su, load_runs, with_results
from .inputs import HERE


def io_section(w, io_dirs):
    """Section 12: the writer thread against the compute, per run of io-overlap.sh."""
    rows = []
    for d in io_dirs:
        for path in sorted(glob.glob(os.path.join(d, "io_*.json"))):
            with open(path) as f:
                run = json.load(f)
            shape = run["params"]["shape"]
            for impl in run["implementations"]:
                if "io" in impl:
                    rows.append((os.path.relpath(path, HERE), run, shape, impl))
    if not rows:
        return
    w("## 12. Output: crash-safe, and overlapping the compute\n")
    w("Each snapshot is copied into one of two host buffer pairs; a writer thread transposes it into the "
      "file's x-fastest layout and writes it while the next chunk computes, and commits it with one flush "
      "(crash safety: README, \"Output, crashes and restart\"). Target: wall <= 1.1 x max(compute, write). "
      "Write = the writer thread's busy time (creating the file with its static arrays, then every snapshot); "
      "copy = copying snapshots back between chunks (outside the timed chunks). Every run checked against "
      "the threaded CPU reference, which writes its own file in the same way.\n")
    w("| run | implementation | snapshots | GB written | compute [s] | copy [s] | write [s] | wall [s] | "
      "wall / max(compute, write) | write GB/s | longest commit flush [ms] |")
    w("|---|---|---|---|---|---|---|---|---|---|---|")
    for path, run, shape, impl in rows:
        io = impl["io"]
        snaps = len(impl["chunk_steps"]) + 1
        nbytes = 2 * 8 * shape[0] * shape[1] * shape[2] * (snaps + 1)  # u, u_prev per snapshot; sos, damp once
        bound = max(io["compute_seconds"], io["write_seconds"])
        w(f"| {run['build']['name']} {shape[0]}^3, {run['params']['nsteps']} steps | {impl['id']} | {snaps} | "
          f"{nbytes / 1e9:.1f} | {io['compute_seconds']:.3f} | {io['copy_seconds']:.2f} | {io['write_seconds']:.2f} | "
          f"{io['wall_seconds']:.2f} | {io['wall_seconds'] / bound:.3f} | {nbytes / 1e9 / io['write_seconds']:.2f} | "
          f"{1e3 * io['longest_commit_flush_seconds']:.3f} |")
    w("")
    for d in io_dirs:
        disk = os.path.join(d, "disk.txt")
        if os.path.exists(disk):
            with open(disk) as f:
                lines = [line.strip() for line in f if "copied" in line]
            if len(lines) == 2:
                w(f"The disk of that machine (`{os.path.relpath(disk, HERE)}`, dd of 4 GiB): {lines[0].split(',')[-1].strip()} "
                  f"through the page cache, {lines[1].split(',')[-1].strip()} with fdatasync. The 512^3 runs write "
                  "more than the page cache absorbs, so their writer runs at the disk's speed; the GPU computes "
                  "its 40 steps in a fraction of that, and the wall time is the writer's.\n")


def align_section(w, align_dirs):
    """Section 13: does a 128-byte-aligned row (a padded device layout) pay? Measured by shape."""
    runs = []
    for d in align_dirs:
        for path in sorted(glob.glob(os.path.join(d, "align_*.json"))):
            with open(path) as f:
                runs.append(json.load(f))
    if not runs:
        return
    w("## 13. A padded, 128-byte-aligned device layout?\n")
    w("The lever was measured without building the layout: the same builds on shapes whose padded row "
      "(nz + 2 doubles) is a multiple of 128 bytes (nz + 2 = 512, 528, 1008) and is not (514, 1002). "
      "Best chunk SU/s, 40 steps (`bench/device/row-alignment.sh`, data in "
      f"`{os.path.relpath(align_dirs[0], HERE)}`):\n")
    impls = []
    for run in runs:
        for i in run["implementations"]:
            if i["id"] not in impls:
                impls.append(i["id"])
    w("| shape | nz + 2 | row aligned to 128 B | " + " | ".join(impls) + " |")
    w("|---|---|---|" + "---|" * len(impls))
    by_shape = {}
    for run in runs:
        by_shape.setdefault(tuple(run["params"]["shape"]), {}).update(
            {i["id"]: i["best_su_per_s"] for i in run["implementations"]})
    for shape in sorted(by_shape, key=lambda t: (t[0] * t[1], t[2])):
        nz2 = shape[2] + 2
        vals = by_shape[shape]
        w(f"| {'x'.join(map(str, shape))} | {nz2} | {'yes' if (nz2 * 8) % 128 == 0 else 'no'} | " +
          " | ".join(fmt_su(vals[i]) if i in vals else "—" for i in impls) + " |")
    w("")
    w("Aligned rows change no implementation by more than the run-to-run spread (a few per cent either "
      "way), so the padded layout, with its extra copies to and from the host layout, was not built.\n")


def checksum_section(w, dirs):
    """Section 17: what the snapshot checksums cost, with and without, interleaved."""
    present = with_results(dirs)
    if not present:
        return
    w("## 17. Snapshots that prove their integrity: the cost\n")
    w("Every snapshot carries a CRC-32 per x-plane of `u` and `u_prev` and a record of what locates it "
      "(`src/io/integrity.hpp`); restart and `awave -verify` check them. A build without checksums (`old`) "
      "and one with them (`new`), interleaved (`bench/checksum-cost.sh`; steps and snapshot period per row). "
      "Output overlaps compute, so the run's wall time (file created to file committed) is what a user "
      "pays; the writer's busy time shows the checksums' own cost. Target: wall within 2%.\n")
    w("What the checksums themselves cost, computed: zlib's CRC-32 runs at 5.5 GB/s on one core of the build "
      "machine (`results/build-machine-2026-11-23/checksum-cost/crc32-throughput.txt`), and the writer "
      "checksums the planes of a snapshot on every OpenMP thread. A 256^3 run at the sweep's output period "
      "writes 6 snapshots of `u` and `u_prev` (1.6 GB): 0.3 s of one core, 0.02 s on the H100 machine's 16, "
      "about 1% of its 1.4 s wall; 512^3 (5 snapshots, 10.7 GB): 0.12 s on 16 cores, under 1% of 15 s. The "
      "measured wall times below move by more than that from run to run (the writer is disk-bound: the GPU "
      "computes for 0.02 s and 0.05 s of those runs), so three rounds cannot resolve 2%; their medians "
      "differ by +9% (256^3) and -3% (512^3), both inside the spread of the runs without checksums.\n")
    for d in present:
        runs = load_runs(d, "cost_")
        first = next(iter(runs.values()))
        w(f"{first['build']['accelerator'] if first['build']['accelerator'] != 'none' else 'host'} "
          f"(`{os.path.relpath(d, HERE)}`; old `{next(r['build']['git_commit'] for k, r in runs.items() if '_old_' in k)}`, "
          f"new `{next(r['build']['git_commit'] for k, r in runs.items() if '_new_' in k)}`):\n")
        w("| size | steps / snapshot every | implementation | wall old [s] | wall new [s] | new / old (medians) | "
          "writer busy old [s] | writer busy new [s] |")
        w("|---|---|---|---|---|---|---|---|")
        table = {}
        for name, r in runs.items():
            kind = "old" if "_old_" in name else "new"
            for i in r["implementations"]:
                if "io" in i:
                    key = (r["params"]["shape"][0], f"{r['params']['nsteps']} / {r['params']['out_period']}", i["id"])
                    e = table.setdefault(key, {"old": [], "new": [], "wold": [], "wnew": []})
                    e[kind].append(i["io"]["wall_seconds"])
                    e["w" + kind].append(i["io"]["write_seconds"])
        for (n, steps, impl), e in sorted(table.items()):
            ratio = statistics.median(e["new"]) / statistics.median(e["old"]) if e["old"] and e["new"] else None
            w(f"| {n}^3 | {steps} | {impl} | {', '.join(f'{x:.2f}' for x in e['old'])} | {', '.join(f'{x:.2f}' for x in e['new'])} | "
              f"{'-' if ratio is None else f'{ratio:.3f}'} | {', '.join(f'{x:.2f}' for x in e['wold'])} | "
              f"{', '.join(f'{x:.2f}' for x in e['wnew'])} |")
        w("")
