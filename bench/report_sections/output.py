"""Sections 12, 13, 17 and 18: output (I/O overlap), row alignment, checksum cost, snapshots and checkpoints."""
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


def dd_rates(path):
    """The dd rates (GB/s) in a disk.txt: through the page cache, with fdatasync."""
    rates = []
    with open(path) as f:
        for line in f:
            if "copied" in line:
                value, unit = line.strip().split(",")[-1].split()
                rates.append(float(value) * {"GB/s": 1.0, "MB/s": 1e-3}[unit])
    return rates


def layouts_section(w, dirs, copy_before):
    """Section 18: what a user's run with output costs, by layout (bench/device/output-layouts.sh)."""
    if not dirs:
        return
    w("## 18. Output a user can afford: snapshots and checkpoints\n")
    w("Snapshots for looking (`u` every `out_period`, in double or single precision), checkpoints for "
      "restarting (`u` and `u_prev` in double every `-checkpoint_period` steps and at the end; "
      "`src/io/output_layout.hpp`, docs/model.md). Each run below is one implementation on its own, "
      "unchecked, on the machine's local disk; `wall` runs from creating the file to committing it; "
      "`dd` is the time that disk takes to write the same bytes at its `dd conv=fdatasync` rate. "
      "Target (issue 35): a 512^3 run of 200 steps with single-precision `u` every 10 steps and a "
      "checkpoint every 100 within 1.2 x its `dd` time; the copy back at 20 GB/s or more. Nothing is "
      "fsync'ed: a run that ends within the page cache's room (128 GiB of RAM here) can beat `dd`.\n")
    w("**Result.** At `1744dbb` the issue's 512^3 run writes 17.7 GB (21 snapshots of 0.537 GB, two checkpoints "
      "of 2.15 GB, `sos` and `damp`) in 11.2 s with hand CUDA and 11.5 s with Kokkos-CUDA: 0.89 and 0.91 of "
      "the disk's `dd conv=fdatasync` time for those bytes (target 1.2); the spec's default file of 40 steps went "
      "from 25.5 to 9.6 s, and a 1000^3 run is within 1.2 x `dd` too. The copy back runs at 33-54 GB/s into "
      "pinned buffers (2.3 GB/s into pageable ones before). Three builds in order, each measured on its own "
      "machine: `cf1c173` (snapshots and checkpoints; the writer's HDF5 writes took 27 s of a 39 s run: slabs of "
      "4 k-planes written into 32 MiB chunks of another shape, i.e. 2 KiB pieces), `8b2d9ca` (chunks are the "
      "writer's slabs, one contiguous write each; the next slab transposed and the checksums computed while HDF5 "
      "writes: 21 s, the transpose now longest), `1744dbb` (slabs of at least 16 planes, the transpose's tile: "
      "11.2 s). What is left is the writer's own work, overlapped: transposing into the file's x-fastest order "
      "(5.5 s), HDF5's writes into the page cache (5.4 s), checksums (1.8 s). Not built: overlapping the copy back "
      "with the next chunk. Decision rule: only if the copies took 5% or more of the wall; they take 0.28 s "
      "(hand CUDA) and 0.45 s (Kokkos-CUDA) of 11.2-11.5 s, 2.5-3.9%. `awave -verify` reads the 17.7 GB file in "
      "12.5 s (`single-512-200-*.verify.txt`).\n")
    for d in dirs:
        rows = []
        for path in sorted(glob.glob(os.path.join(d, "*.json"))):
            with open(path) as f:
                run = json.load(f)
            for impl in run["implementations"]:
                if "io" in impl and "snapshot_bytes" in impl["io"]:
                    rows.append((run, impl))
        if not rows:
            continue
        rates = dd_rates(os.path.join(d, "disk.txt"))
        fdatasync = rates[1] if len(rates) == 2 else None
        b = rows[0][0]["build"]
        w(f"`{os.path.relpath(d, HERE)}`: {b['accelerator']}, awave `{b['git_commit']}`, {b['compiler']}, "
          f"Kokkos {b['kokkos_version']}; disk: dd {rates[0]:.2f} GB/s through the page cache, {fdatasync:.2f} GB/s with "
          "fdatasync.\n")
        w("| run | implementation | snapshots: fields, precision | GB per snapshot | checkpoints every | GB written | "
          "copy back GB/s | compute [s] | wall [s] | dd [s] | wall / dd | writer: scan, transpose, checksums, "
          "HDF5, flushes [s] |")
        w("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for run, impl in rows:
            io = impl["io"]
            shape, p = run["params"]["shape"], run["params"]
            statics = 16.0 * shape[0] * shape[1] * shape[2]
            written = io["snapshot_bytes"] + io["checkpoint_bytes"] + statics
            per_snapshot = io["snapshot_bytes"] / io["snapshots"]
            dd = written / 1e9 / fdatasync if fdatasync else None
            separate = io["snapshot_precision"] == "single" or io["snapshot_fields"] == "u"
            w(f"| {shape[0]}^3, {p['nsteps']} steps, every {p['out_period']} | {impl['id']} | "
              f"{io['snapshot_fields']}, {io['snapshot_precision']} | {per_snapshot / 1e9:.3f} | "
              f"{io['checkpoint_period'] if separate else 'each snapshot'} | {written / 1e9:.1f} | "
              f"{io['copy_gb_per_s']:.1f} | {io['compute_seconds']:.3f} | {io['wall_seconds']:.2f} | "
              f"{'-' if dd is None else f'{dd:.2f}'} | {'-' if dd is None else round(io['wall_seconds'] / dd, 2)} | "
              f"{io['scan_seconds']:.2f}, {io['transpose_seconds']:.2f}, {io['checksum_seconds']:.2f}, "
              f"{io['hdf5_write_seconds']:.2f}, {io['commit_flush_seconds']:.3f} |")
        w("")
    if os.path.exists(copy_before):
        with open(copy_before) as f:
            before = json.load(f)
        for impl in before["implementations"]:
            io = impl.get("io")
            if io:  # that build did not record copy_bytes: two padded fields per snapshot
                nx, ny, nz = before["params"]["shape"]
                copied = 2 * 8 * (nx + 2) * (ny + 2) * (nz + 2) * (len(impl["chunk_steps"]) + 1)
                w(f"Before pinned buffers (`{os.path.relpath(copy_before, HERE)}`, awave "
                  f"`{before['build']['git_commit']}`, {impl['id']}, {nx}^3, u and u_prev in double): the copy back "
                  f"ran at {copied / io['copy_seconds'] / 1e9:.1f} GB/s into pageable buffers, the wall was "
                  f"{io['wall_seconds']:.1f} s.\n")
