#!/usr/bin/env python3
"""Structure-aware damage of awave files (issue 81 item 7): every field of the file's HDF5 structures damaged in
turn, and valid HDF5 files that lie, each through -verify, -restart and -compare; none may crash, hang, take
runaway memory, or pass a changed value off as intact.

    structure_fuzz.py AWAVE RUN_LIMITED WORK_DIR [--kinds double,single,partial[,mpi]] [--cases N] [--seed S]
                      [--jobs J] [--mpi-awave PATH] [--summary FILE] [--keep DIR]

The map (map_file): the superblock (version 0, as HDF5 1.10 writes awave's files), every object header (version
1: its messages' type, size and flags, and each message's body in 8-byte words), the symbol-table and chunk-index
B-tree nodes (version 1: keys, child pointers, siblings), the symbol nodes, the local heaps and the raw chunks.
Each field gets each of: zeroed, all ones, one bit flipped, moved by one, pointed at its own structure, pointed
past the file's end (the last two for 8-byte fields); each structure is cut at its start and its end; structures
of one size are swapped; bytes are appended. --cases N takes N of them, spread over the base files by a seeded
shuffle (0: all). Then the lying files (lying_files): values a reader or a restart uses changed through HDF5 itself,
the file valid: each must be refused by -verify and -compare and never restarted into another field.

Outcomes, per command: a signal, a time-out or memory beyond ten times the file plus the intact run's peak fail.
-verify exit 0 or -compare "identical" are checked against what a reader sees: h5py reads every attribute and
dataset of the damaged file and the base (run_limited, in a child); a difference is "silently wrong" and fails;
a reader that cannot read it is counted ("reader fails"). -restart exit 0 must give the undamaged run's digest one
step after the snapshot it names. Exit 1 on any failure; --summary writes the counts as JSON.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import time

from damaged_files import hard_failure, one_line_refusal, run

SHAPE = "24,20,16"
# (kind: awave's arguments for the base file, what it is)
BASES = {
    "double": (["-nsteps", "20", "-out_period", "5"], "snapshots of u and u_prev in double"),
    "single": (["-nsteps", "20", "-out_period", "5", "-snapshot_precision", "single", "-checkpoint_period", "10"],
               "single-precision snapshots with checkpoints in double"),
    "partial": (["-nsteps", "400000", "-out_period", "20000"], "a killed run's .partial"),
    "mpi": (["-nsteps", "20", "-out_period", "5"], "a file written by 3 MPI processes"),
}


# ---- the map of a file's HDF5 structures ---------------------------------------------------------------------

def u8(data, at):
    return data[at]


def u16(data, at):
    return struct.unpack_from("<H", data, at)[0]


def u32(data, at):
    return struct.unpack_from("<I", data, at)[0]


def u64(data, at):
    return struct.unpack_from("<Q", data, at)[0]


class FileMap:
    """fields: (name, offset, size) of every field found; structures: (name, offset, size)."""

    def __init__(self):
        self.fields, self.structures = [], []

    def field(self, name, at, size):
        self.fields.append((name, at, size))

    def words(self, name, at, size):  # a body of unknown layout: 8-byte words, the rest as one field
        for i in range(0, size - size % 8, 8):
            self.field(f"{name}+{i}", at + i, 8)
        if size % 8:
            self.field(f"{name}+{size - size % 8}", at + size - size % 8, size % 8)


def map_file(path, data):
    """The FileMap of an awave file: its superblock, object headers (from h5py's object addresses), B-tree nodes,
    symbol nodes, local heaps and chunks."""
    import h5py
    m = FileMap()
    if data[:8] != b"\x89HDF\r\n\x1a\n" or data[8] != 0:
        raise ValueError("not a version-0 superblock")
    m.structures.append(("superblock", 0, 96))
    for name, at, size in (("superblock version", 8, 1), ("free-space version", 9, 1), ("root table version", 10, 1),
                           ("header version", 12, 1), ("offset size", 13, 1), ("length size", 14, 1),
                           ("leaf K", 16, 2), ("internal K", 18, 2), ("flags", 20, 4), ("base address", 24, 8),
                           ("free-space address", 32, 8), ("end of file", 40, 8), ("driver address", 48, 8),
                           ("root link name", 56, 8), ("root header", 64, 8), ("root cache type", 72, 4),
                           ("root B-tree", 80, 8), ("root heap", 88, 8)):
        m.field(f"superblock {name}", at, size)
    headers, btrees, heaps = {}, [], []
    with h5py.File(path, "r") as f:
        def visit(name, obj):
            headers[h5py.h5o.get_info(obj.id).addr] = name
            if isinstance(obj, h5py.Dataset) and obj.chunks:
                for i in range(obj.id.get_num_chunks()):
                    info = obj.id.get_chunk_info(i)
                    if info.byte_offset is not None:
                        m.structures.append((f"chunk {i} of {name}", info.byte_offset, info.size))
        headers[h5py.h5o.get_info(f.id).addr] = "/"
        f.visititems(visit)
    for addr, name in headers.items():
        map_header(m, data, addr, name, btrees, heaps)
    seen = set()
    while btrees:
        addr, what, ndims = btrees.pop()
        if addr in seen or addr >= len(data) or data[addr:addr + 4] != b"TREE":
            continue
        seen.add(addr)
        map_btree(m, data, addr, what, ndims, btrees)
    for addr, what in heaps:
        if addr < len(data) and data[addr:addr + 4] == b"HEAP":
            m.structures.append((f"local heap of {what}", addr, 32))
            for name, at, size in (("version", 4, 1), ("data size", 8, 8), ("free list", 16, 8), ("data", 24, 8)):
                m.field(f"local heap of {what}: {name}", addr + at, size)
    return m


def map_header(m, data, addr, name, btrees, heaps):
    """A version-1 object header: its messages, continuation blocks followed."""
    if addr + 16 > len(data) or data[addr] != 1:
        return
    m.structures.append((f"header of {name}", addr, 16 + u32(data, addr + 8)))
    m.field(f"header of {name}: version", addr, 1)
    m.field(f"header of {name}: messages", addr + 2, 2)
    m.field(f"header of {name}: size", addr + 8, 4)
    blocks = [(addr + 16, u32(data, addr + 8))]
    while blocks:
        at, size = blocks.pop()
        end = min(at + size, len(data))
        while at + 8 <= end:
            kind, length = u16(data, at), u16(data, at + 2)
            what = f"{name}: message {kind:#x} at {at}"
            m.field(f"{what} type", at, 2)
            m.field(f"{what} size", at + 2, 2)
            m.field(f"{what} flags", at + 4, 1)
            body = at + 8
            if body + length > end:
                break
            m.words(f"{what} body", body, length)
            if kind == 0x10 and length >= 16:  # continuation
                blocks.append((u64(data, body), u64(data, body + 8)))
                m.structures.append((f"continuation of {name}", u64(data, body), u64(data, body + 8)))
            elif kind == 0x11 and length >= 16:  # symbol table: B-tree, local heap
                btrees.append((u64(data, body), f"group {name}", 0))
                heaps.append((u64(data, body + 8), f"group {name}"))
            elif kind == 0x08 and length >= 11 and data[body] == 3 and data[body + 1] == 2:  # chunked layout v3
                ndims = data[body + 2]
                btrees.append((u64(data, body + 3), f"chunks of {name}", ndims))
            at = body + length


def map_btree(m, data, addr, what, ndims, btrees):
    """A version-1 B-tree node: group nodes (type 0) lead to symbol nodes, chunk nodes (type 1) to chunks."""
    kind, level, used = u8(data, addr + 4), u8(data, addr + 5), u16(data, addr + 6)
    key = 8 if kind == 0 else 8 + 8 * ndims
    size = 24 + used * (key + 8) + key
    m.structures.append((f"B-tree node of {what}", addr, size))
    for name, at, n in (("type", 4, 1), ("level", 5, 1), ("entries", 6, 2), ("left sibling", 8, 8),
                        ("right sibling", 16, 8)):
        m.field(f"B-tree of {what}: {name}", addr + at, n)
    at = addr + 24
    for e in range(used):
        if at + key + 8 > len(data):
            return
        if kind == 1:
            m.field(f"B-tree of {what}: key {e} chunk size", at, 4)
            m.field(f"B-tree of {what}: key {e} filter mask", at + 4, 4)
            m.words(f"B-tree of {what}: key {e} offsets", at + 8, 8 * ndims)
        else:
            m.field(f"B-tree of {what}: key {e} heap offset", at, 8)
        child = u64(data, at + key)
        m.field(f"B-tree of {what}: child {e}", at + key, 8)
        if level > 0:
            btrees.append((child, what, ndims))
        elif kind == 0 and data[child:child + 4] == b"SNOD":
            n = u16(data, child + 6)
            m.structures.append((f"symbol node of {what}", child, 8 + 40 * n))
            m.field(f"symbol node of {what}: count", child + 6, 2)
            for s in range(n):
                base = child + 8 + 40 * s
                m.field(f"symbol {s} of {what}: name", base, 8)
                m.field(f"symbol {s} of {what}: header", base + 8, 8)
                m.field(f"symbol {s} of {what}: cache type", base + 16, 4)
                m.words(f"symbol {s} of {what}: scratch", base + 24, 16)
        at += key + 8


# ---- the damages ---------------------------------------------------------------------------------------------

def damages(m, data, rng):
    """Every damage of the map: (description, edit), an edit being ("set", at, bytes), ("cut", length),
    ("swap", a, b, size) or ("append", bytes); apply() makes the damaged file (kept as edits, not files: 6,000
    copies of a 0.7 MB file would take GBs)."""
    owner = sorted(m.structures, key=lambda s: s[1])

    def structure_of(at):
        found = [s for s in owner if s[1] <= at < s[1] + max(s[2], 1)]
        return found[-1][1] if found else 0

    out = []
    for name, at, size in m.fields:
        if at + size > len(data):
            continue
        old = int.from_bytes(data[at:at + size], "little")
        values = [("zeroed", 0), ("all ones", (1 << 8 * size) - 1), ("bit flipped", old ^ (1 << rng.randrange(8 * size))),
                  ("moved by one", (old + 1) % (1 << 8 * size))]
        if size == 8:
            values += [("pointed at itself", structure_of(at)), ("pointed past the end", len(data) + 4096)]
        out += [(f"{name} {how}", ("set", at, value.to_bytes(size, "little"))) for how, value in values if value != old]
    for name, at, size in m.structures:
        for cut in (at, at + size):
            if 0 < cut < len(data):
                out.append((f"cut at the {'start' if cut == at else 'end'} of {name}", ("cut", cut)))
    by_size = {}
    for s in m.structures:
        by_size.setdefault(s[2], []).append(s)
    for size, same in sorted(by_size.items()):
        for (na, a, _), (nb, b, _) in zip(same, same[1:]):
            if size and a + size <= b:
                out.append((f"{na} swapped with {nb}", ("swap", a, b, size)))
    out.append(("4 kB of zeros appended", ("append", bytes(4096))))
    out.append(("4 kB of noise appended", ("append", rng.randbytes(4096))))
    return out


def apply(data, edit):
    """The bytes of the file after one damage (damages' edits)."""
    kind = edit[0]
    if kind == "set":
        _, at, value = edit
        return data[:at] + value + data[at + len(value):]
    if kind == "cut":
        return data[:edit[1]]
    if kind == "swap":
        _, a, b, size = edit
        return data[:a] + data[b:b + size] + data[a + size:b] + data[a:a + size] + data[b + size:]
    return data + edit[1]


def lying_files(base, work):
    """Valid HDF5 files that lie, made through h5py: (description, path), at least 50."""
    import h5py
    import numpy as np
    edits = []
    for value in ([2, 2], [1, 0], [3, 0]):
        edits.append((f"Version {value}", lambda f, v=value: f["/VTKHDF"].attrs.modify("Version", np.array(v, "<i8"))))
    for attr, values in (("Origin", ([0, 0, 1], [10, 0, 0], [0.5, 0.5, 0.5])),
                         ("Spacing", ([10, 10, 20], [5, 5, 5], [10, 11, 10])),
                         ("Direction", ([0, 1, 0, 1, 0, 0, 0, 0, 1], [-1, 0, 0, 0, 1, 0, 0, 0, 1]))):
        for v in values:
            edits.append((f"{attr} {v}", lambda f, a=attr, v=v: f["/VTKHDF"].attrs.modify(a, np.array(v, "<f8"))))
    for v in ([0, 22, 0, 19, 0, 15], [0, 23, 0, 19, 0, 14], [1, 23, 0, 19, 0, 15]):
        edits.append((f"WholeExtent {v}", lambda f, v=v: f["/VTKHDF"].attrs.modify("WholeExtent", np.array(v, "<i8"))))
    for v in (0, 1, -1, 2, 1000):
        edits.append((f"NSteps {v}", lambda f, v=v: f["/VTKHDF/Steps"].attrs.modify("NSteps", np.int64(v))))
    for attr, v in (("dt", 0.0021), ("dx", 11.0), ("nsteps", 21), ("out_period", 4), ("nBoundaryLayers", 3),
                    ("complete", 0), ("complete", 2), ("checksums", 1), ("checksums", 3)):
        kind = "<f8" if attr in ("dt", "dx") else "<i4"
        edits.append((f"/wave_params {attr} {v}", lambda f, a=attr, v=v, k=kind: f["/wave_params"].attrs.modify(
            a, np.array(v, k).reshape(()))))
    edits.append(("shape 24,20,15", lambda f: f["/wave_params"].attrs.modify("shape", np.array([24, 20, 15], "<i4"))))

    def set_entry(array, n, value):
        def edit(f):
            d = f["/VTKHDF/Steps/" + array]
            if n >= d.shape[0] or d[n] == value:
                raise ValueError("changes nothing here")
            d[n] = value
        return edit

    for array in ("Values", "PointDataOffsets/u", "PointDataOffsets/u_prev", "PointDataOffsets/sos",
                  "PointDataOffsets/damp"):
        for n, v in ((0, 1), (1, 0), (2, 9), (3, -1)):
            edits.append((f"{array}[{n}] = {v}", set_entry(array, n, v)))

    def swap(paths, a, b):
        def edit(f):
            for p in paths:
                if p in f and f[p].shape[0] > max(a, b):
                    x, y = f[p][a], f[p][b]
                    f[p][a], f[p][b] = y, x
        return edit

    series = ["/VTKHDF/PointData/u", "/VTKHDF/PointData/u_prev", "/awave_integrity/planes"]
    edits.append(("slots 1 and 2 swapped with their plane checksums", swap(series, 1, 2)))
    edits.append(("slots 1 and 2 swapped with planes and records", swap(series + ["/awave_integrity/records"], 1, 2)))
    edits.append(("slots 1 and 2 and their times swapped",
                  swap(series + ["/awave_integrity/records", "/VTKHDF/Steps/Values"], 1, 2)))

    def fields_swapped(f):
        u, p = f["/VTKHDF/PointData/u"][1], f["/VTKHDF/PointData/u_prev"][1]
        f["/VTKHDF/PointData/u"][1], f["/VTKHDF/PointData/u_prev"][1] = p, u
        planes = f["/awave_integrity/planes"]
        row = planes[1]
        planes[1] = row[::-1] if row.shape[0] == 2 else row

    edits.append(("u and u_prev of slot 1 swapped with their checksums", fields_swapped))

    def value_changed(path, slot):
        def edit(f):
            d = f[path]
            x = d[slot]
            x.flat[x.size // 2] += 1.0
            d[slot] = x
        return edit

    for path, slot in (("/VTKHDF/PointData/u", 1), ("/VTKHDF/PointData/u_prev", 2), ("/VTKHDF/PointData/sos", 0),
                       ("/VTKHDF/PointData/damp", 0)):
        edits.append((f"a value of {path} slot {slot} changed", value_changed(path, slot)))
    edits.append(("committed record counts 99", lambda f: f["/awave_integrity"].attrs.modify(
        "committed", np.array([99] + list(f["/awave_integrity"].attrs["committed"][1:]), "<i8"))))
    out = []
    for i, (what, edit) in enumerate(edits):
        path = os.path.join(work, f"lie-{i}.vtkhdf")
        shutil.copy(base, path)
        try:
            with h5py.File(path, "r+") as f:
                edit(f)
        except (KeyError, ValueError, TypeError, OSError):
            os.remove(path)  # not applicable to this base (no such object)
            continue
        if subprocess.run([sys.executable, "-c", READER, path, base], capture_output=True,
                          text=True).stdout.startswith("same"):
            os.remove(path)  # changes nothing a reader sees here (e.g. complete 0 on a .partial)
            continue
        out.append((what, path))
    return out


# ---- the runs ------------------------------------------------------------------------------------------------

# What a reader takes from a file, by h5py: every attribute and every dataset, the time series only at the slots a
# reader uses (those the first NSteps entries of PointDataOffsets name; the checkpoints' committed ones): a .partial's
# slots past its count are not part of what it holds.
READER = r"""
import sys, h5py, numpy as np
def walk(path):
    f = h5py.File(path, "r")
    items = {"/": f}
    f.visititems(lambda name, obj: items.__setitem__(name, obj))
    out = {}
    for name, obj in sorted(items.items()):
        for k, v in obj.attrs.items():
            out[f"{name}@{k}"] = np.asarray(v)
        if isinstance(obj, h5py.Dataset):
            out[name] = obj[()]
    n = int(out["VTKHDF/Steps@NSteps"])
    used = sorted({int(x) for a in ("u", "u_prev") if f"VTKHDF/Steps/PointDataOffsets/{a}" in out
                   for x in out[f"VTKHDF/Steps/PointDataOffsets/{a}"][:max(n, 0)]})
    for a in ("VTKHDF/PointData/u", "VTKHDF/PointData/u_prev", "awave_integrity/planes", "awave_integrity/records"):
        if a in out:
            out[a] = out[a][[u for u in used if 0 <= u < len(out[a])]]
    if "awave_checkpoints/steps" in out:
        k = len(out["awave_checkpoints/steps"])
        for a in ("u", "u_prev", "planes", "records"):
            out[f"awave_checkpoints/{a}"] = out[f"awave_checkpoints/{a}"][:k]
    return out
a, b = (walk(p) for p in sys.argv[1:3])
if a.keys() != b.keys():
    print("differs: objects", sorted(set(a) ^ set(b))[:3]); sys.exit(0)
for k in a:
    x, y = np.asarray(a[k]), np.asarray(b[k])
    if x.shape != y.shape or x.dtype != y.dtype or x.tobytes() != y.tobytes():
        print("differs:", k); sys.exit(0)
print("same")
"""


def reader_view(runner, damaged, base, out_dir, limit):
    """"same", "differs: ...", or "reader fails (...)": what h5py reads from the damaged file against the base."""
    code, out, err, _ = run(runner, [sys.executable, "-c", READER, damaged, base], out_dir, limit)
    if code == 0 and out.startswith(("same", "differs")):
        return out.strip()
    return f"reader fails ({code})"


def digests_of(awave, runner, base_dir, steps, limit):
    """{step: the field's digest one step after it}, from runs from the start."""
    out = {}
    for s in steps:
        code, text, err, _ = run(runner, [awave, "-shape", SHAPE, "-nsteps", str(s + 1), "-impl", "cpu", "-no_output",
                                          "-no_check", "-digest", "-quiet"], base_dir, limit)
        found = re.search(r"digest of the final u: ([0-9a-f]{8})", text)
        if code != 0 or not found:
            raise RuntimeError(f"no digest of {s + 1} steps: {err}")
        out[s] = found.group(1)
    return out


def make_base(kind, awave, mpi_awave, runner, base_dir):
    """The base file of a kind: its path."""
    args = [awave, "-shape", SHAPE, "-impl", "cpu", "-quiet"] + BASES[kind][0] + [os.path.join(base_dir, "run")]
    if kind == "mpi":
        args = ["mpirun", "--oversubscribe", "-np", "3", mpi_awave] + args[1:]
    if kind == "partial":  # SIGKILL about a second after the file appears: a snapshot every ~0.5 s (3e8 SU/s)
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        partial = os.path.join(base_dir, "run.cpu.vtkhdf.partial")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None and not os.path.exists(partial):
            time.sleep(0.02)
        time.sleep(1.2)
        if proc.poll() is not None:
            raise RuntimeError("partial: the run ended before it was killed")
        proc.kill()
        proc.wait()
        return partial
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    if subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env).returncode != 0:
        raise RuntimeError(f"{kind}: awave could not write the base file")
    return os.path.join(base_dir, "run.cpu.vtkhdf")


def committed_steps(base):
    import h5py
    with h5py.File(base, "r") as f:
        n = int(f["/VTKHDF/Steps"].attrs["NSteps"])
        steps = [int(s) for s in f["/VTKHDF/Steps/Values"][:n]]
        if "awave_checkpoints" in f:
            steps += [int(s) for s in f["/awave_checkpoints/steps"][:]]
    return sorted(set(steps))


def classify(results, reader, digests, bound):
    """(verify, restart, compare) outcomes of one case."""
    v, r, c = results
    out = []
    for res in results:
        hard = hard_failure(res, bound)
        out.append(hard)
    vo, ro, co = out
    if not vo:
        vo = ("intact" if reader == "same" else "silently wrong" if reader.startswith("differs") else
              "intact; reader fails") if v[0] == 0 else "refused" if one_line_refusal(v[0], v[2]) else "bad"
    if not ro:
        if r[0] != 0:
            ro = "refused" if one_line_refusal(r[0], r[2]) else "bad"
        else:
            start = re.search(r"at step (\d+) \(its", r[1])
            digest = re.search(r"digest of the final u: ([0-9a-f]{8})", r[1])
            good = start and digest and digests.get(int(start.group(1))) == digest.group(1)
            ro = "silently wrong" if not good else "exact" if r[2] == "" else "earlier, with notice"
    if not co:
        if c[0] == 0:
            co = ("identical" if reader == "same" else "silently wrong" if reader.startswith("differs") else
                  "identical; reader fails")
        elif c[0] == 2:
            co = "differ" if not reader == "same" else "differ, reader sees the same"
        else:
            co = "refused" if one_line_refusal(c[0], c[2]) else "bad"
    return vo, ro, co


FAILING = ("signal", "timeout", "memory", "bad", "silently wrong")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("awave")
    ap.add_argument("run_limited")
    ap.add_argument("work")
    ap.add_argument("--kinds", default="double,single,partial")
    ap.add_argument("--cases", type=int, default=300, help="damages in all, spread over the kinds (0: every one)")
    ap.add_argument("--seed", type=int, default=81)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=20.0)
    ap.add_argument("--mpi-awave", help="an MPI build's awave, for the mpi kind")
    ap.add_argument("--summary")
    ap.add_argument("--keep")
    a = ap.parse_args(argv)
    kinds = a.kinds.split(",")
    if any(k not in BASES for k in kinds) or ("mpi" in kinds and not a.mpi_awave):
        print(f"structure_fuzz: --kinds takes {', '.join(BASES)} (mpi with --mpi-awave), not {a.kinds!r}")
        return 2
    awave, runner, work = (os.path.abspath(p) for p in (a.awave, a.run_limited, a.work))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    started = time.monotonic()
    rng = random.Random(a.seed)
    bases, plan = {}, []
    for kind in kinds:
        base_dir = os.path.join(work, kind)
        os.makedirs(base_dir)
        base = make_base(kind, awave, a.mpi_awave and os.path.abspath(a.mpi_awave), runner, base_dir)
        with open(base, "rb") as f:
            data = f.read()
        steps = committed_steps(base)
        if not steps:
            raise RuntimeError(f"{kind}: the base file holds no snapshot")
        digests = digests_of(awave, runner, base_dir, steps, 120)
        intact = [run(runner, argv, base_dir, a.time_limit) for argv in
                  ([awave, "-verify", base], [awave, "-restart", base, "-impl", "cpu", "-nsteps", "1", "-no_output",
                                               "-no_check", "-digest", "-quiet"])]
        bound = max(x[3] for x in intact) + 10 * len(data)
        fmap = map_file(base, data)
        cases = damages(fmap, data, random.Random(f"{a.seed}:{kind}"))
        bases[kind] = {"path": base, "data": data, "bytes": len(data), "snapshots_and_checkpoints": steps, "fields": len(fmap.fields),
                       "structures": len(fmap.structures), "damages": len(cases), "bound": bound, "digests": digests}
        plan += [(kind, what, edit) for what, edit in cases]
        plan += [(kind, f"lying: {what}", path) for what, path in lying_files(base, base_dir)]
    damaged_cases = [p for p in plan if not p[1].startswith("lying")]
    lying = [p for p in plan if p[1].startswith("lying")]
    rng.shuffle(damaged_cases)
    if a.cases:
        damaged_cases = damaged_cases[:a.cases]

    def one(item):
        i, (kind, what, damaged) = item
        b = bases[kind]
        case_dir = os.path.join(work, "cases", str(i))
        os.makedirs(case_dir)
        path = os.path.join(case_dir, "damaged.vtkhdf")
        if isinstance(damaged, tuple):
            with open(path, "wb") as f:
                f.write(apply(b["data"], damaged))
        else:
            shutil.copy(damaged, path)
        results = [run(runner, argv, case_dir, a.time_limit) for argv in
                   ([awave, "-verify", path],
                    [awave, "-restart", path, "-impl", "cpu", "-nsteps", "1", "-no_output", "-no_check", "-digest",
                     "-quiet"],
                    [awave, "-compare", b["path"], path])]
        reader = reader_view(runner, path, b["path"], case_dir, a.time_limit) if (
            results[0][0] == 0 or results[2][0] == 0) else "not needed"
        outcome = classify(results, reader, b["digests"], b["bound"])
        if what.startswith("lying") and outcome[0] not in ("refused",) + FAILING:
            outcome = ("silently wrong",) + outcome[1:]  # a lying file must not verify
        kept = None
        if any(o in FAILING for o in outcome):
            if a.keep:
                os.makedirs(a.keep, exist_ok=True)
                kept = os.path.join(a.keep, f"{kind}-{i}.vtkhdf")
                shutil.copy(path, kept)
        else:
            shutil.rmtree(case_dir)
        return kind, what, outcome, [res[0] for res in results], [res[2][-200:] for res in results], kept

    counts, failures, reader_fails = {}, [], []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for kind, what, outcome, codes, errs, kept in pool.map(one, enumerate(damaged_cases + lying)):
            group = "lying" if what.startswith("lying") else kind
            for name, o in zip(("verify", "restart", "compare"), outcome):
                key = f"{group} {name}"
                counts.setdefault(key, {})[o] = counts.setdefault(key, {}).get(o, 0) + 1
            if any("reader fails" in o for o in outcome):
                reader_fails.append(f"{kind}: {what}")
            if any(o in FAILING for o in outcome):
                failures.append({"kind": kind, "damage": what, "outcome": outcome, "exit": codes, "stderr": errs,
                                 "kept": kept})
    summary = {"awave": awave, "seed": a.seed, "kinds": kinds, "damaged_cases": len(damaged_cases),
               "lying_files": len(lying), "time_limit_s": a.time_limit, "jobs": a.jobs,
               "bases": {k: {x: y for x, y in v.items() if x not in ("digests", "data")} for k, v in bases.items()},
               "outcomes": counts, "failure_count": len(failures), "failures": failures[:100],
               "verified_but_h5py_cannot_read": reader_fails[:50],
               "wall_s": round(time.monotonic() - started, 1)}
    print(json.dumps({k: v for k, v in summary.items() if k != "failures"}, indent=1))
    for f in failures[:20]:
        print(f"FAILED {f['kind']}: {f['damage']}: {f['outcome']} exit {f['exit']} {f['stderr']}")
    if a.summary:
        with open(a.summary, "w") as f:
            json.dump(summary, f, indent=1)
            f.write("\n")
    if failures:
        print(f"structure_fuzz: {len(failures)} of {len(damaged_cases) + len(lying)} cases failed")
        return 1
    print(f"structure_fuzz: {len(damaged_cases)} damages and {len(lying)} lying files, none failed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
