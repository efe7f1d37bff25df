#!/usr/bin/env python3
"""The output-rate benchmark's table (output-rate.sh): per launch, shape and process count, the median over
rounds of the writer's rate (GB written over the writer's busy seconds), its ratio to one process's under the
same launch, the wall time and its ratio, the writer's HDF5 seconds, the steps' MPI seconds (the slowest
process's), and whether every multi-process file equalled the one-process file (awave -compare).

  output_rate_summary.py OUT_DIR     prints Markdown
"""
import glob
import json
import os
import re
import statistics
import sys


def runs(folder):
    out = []
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        m = re.match(r"(\w+)-(\w+)-np(\d+)-r(\d+)\.json$", os.path.basename(path))
        if not m:
            continue
        launch, shape, np_, rnd = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
        stem = path[:-len(".json")]
        wall_text = open(stem + ".wall").read() if os.path.exists(stem + ".wall") else ""
        wall = float(wall_text.split()[0]) if wall_text else float("nan")
        try:
            impl = json.load(open(path))["implementations"][0]
        except (OSError, ValueError, KeyError, IndexError):
            out.append({"launch": launch, "shape": shape, "np": np_, "round": rnd, "wall": wall, "failed": True})
            continue
        io = impl.get("io", {})
        written = io.get("snapshot_bytes", 0) + io.get("checkpoint_bytes", 0)
        compare = stem + ".compare"
        same = None
        if os.path.exists(compare):
            same = "identical" in open(compare).read() and np_ > 1
        out.append({"launch": launch, "shape": shape, "np": np_, "round": rnd, "wall": wall, "failed": False,
                    "written": written, "writer": io.get("write_seconds", float("nan")),
                    "hdf5": io.get("hdf5_write_seconds", float("nan")), "wait": io.get("wait_seconds", float("nan")),
                    "mpi": impl.get("mpi", {}).get("mpi_seconds", 0.0),
                    "steps": impl.get("mpi", {}).get("step_seconds", float("nan")), "same": same})
    return out


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        sys.exit(__doc__)
    data = runs(sys.argv[1])
    if not data:
        sys.exit(f"output_rate_summary.py: no run files in {sys.argv[1]}")
    groups = {}
    for r in data:
        groups.setdefault((r["launch"], r["shape"], r["np"]), []).append(r)
    med = {}
    for key, rs in groups.items():
        ok = [r for r in rs if not r["failed"]]
        med[key] = {"runs": len(rs), "ok": len(ok),
                    "rate": statistics.median(r["written"] / r["writer"] / 1e9 for r in ok) if ok else float("nan"),
                    "wall": statistics.median(r["wall"] for r in rs),
                    "hdf5": statistics.median(r["hdf5"] for r in ok) if ok else float("nan"),
                    "mpi": statistics.median(r["mpi"] for r in ok) if ok else float("nan"),
                    "same": [r["same"] for r in ok if r["same"] is not None]}
    print("| launch | shape | processes | runs | writer GB/s | x one process | wall s | x one process | "
          "HDF5 writes s | steps' MPI s | files equal one process's |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for key in sorted(med):
        m, one = med[key], med.get((key[0], key[1], 1))
        rate_x = m["rate"] / one["rate"] if one else float("nan")
        wall_x = m["wall"] / one["wall"] if one else float("nan")
        same = "—" if key[2] == 1 else ("yes" if m["same"] and all(m["same"]) else "NO" if m["same"] else "not compared")
        print(f"| {key[0]} | {key[1]} | {key[2]} | {m['ok']}/{m['runs']} | {m['rate']:.3f} | {rate_x:.2f} | "
              f"{m['wall']:.1f} | {wall_x:.2f} | {m['hdf5']:.2f} | {m['mpi']:.2f} | {same} |")


if __name__ == "__main__":
    main()
