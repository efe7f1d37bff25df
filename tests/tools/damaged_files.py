#!/usr/bin/env python3
"""Damaged files never crash awave, hang it, or make it allocate what the file cannot hold.

    damaged_files.py AWAVE RUN_LIMITED WORK_DIR [--cases N] [--seed S] [--jobs J] [--first K]
                     [--time-limit SECONDS] [--summary FILE] [--keep DIR]

Writes a small run's file with AWAVE (20x16x12, 20 steps, a snapshot every 5: about 400 kB), then
damages copies of it with a seeded corruptor, each case one of three classes as disks and copies
damage files: 32 bytes overwritten at a random offset, a run of 8-4096 bytes zeroed, a run of
8-512 bytes of random noise. Case k of seed S is the same damage on every machine (--first K
--cases 1 reruns case K alone). Each case goes through `awave -verify` and `awave -restart ...
-nsteps 1 -digest` with a time limit, an address-space limit and its peak resident memory
measured (RUN_LIMITED: tests/cpp/run_limited.cpp), and must end as one of:
  verify:  exit 0 saying every checksum verifies, or exit non-zero with one line on stderr;
  restart: exit 0 with the digest of the undamaged run's field one step after the snapshot it
           says it started from (the last: "exact"; an earlier, intact one: "earlier"), or exit
           non-zero with one line on stderr.
Anything else fails the test: a signal, a time-out, memory beyond the intact file's peak plus ten
times the file's size (or an allocation the address-space limit refused), more lines, a wrong
field. Prints the count of each outcome and writes them to --summary as JSON. Exit 1 on any failure.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import sys
import threading
import time

SHAPE, NSTEPS, OUT_PERIOD = "20,16,12", 20, 5
CLASSES = ("overwrite32", "zero_run", "noise_run")
AS_LIMIT = 1 << 30  # bytes of address space: an allocation sized from a damaged extent fails, not the machine
FAILURES = ("signal", "timeout", "memory", "bad")


def run(runner, argv, out_dir, time_limit):
    """Runs argv through `runner` (tests/cpp/run_limited.cpp: limits, peak memory) with stdout and stderr
    to files in out_dir; returns (status, out, err, peak_rss_bytes), status being the exit code, -N
    for signal N, or "timeout"."""
    paths = [os.path.join(out_dir, name) for name in ("stdout", "stderr", "result")]
    actions = [(os.POSIX_SPAWN_OPEN, fd, path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
               for fd, path in ((1, paths[0]), (2, paths[1]))]
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    pid = os.posix_spawn(runner, [runner, paths[2], str(AS_LIMIT), str(time_limit)] + argv, env,
                         file_actions=actions)
    if os.waitpid(pid, 0)[1] != 0:
        raise RuntimeError(f"{runner} could not run {argv}")
    texts = []
    for path in paths:
        with open(path, errors="replace") as f:
            texts.append(f.read())
    result = texts[2].split()
    code = "timeout" if result[0] == "timeout" else -int(result[1]) if result[0] == "signal" else int(result[1])
    return code, texts[0], texts[1], int(result[-1]) * 1024


def damage(data, seed, case):
    """Case `case` of `seed`: (class, description, damaged bytes)."""
    rng = random.Random(f"{seed}:{case}")
    kind = CLASSES[case % 3]
    n = {"overwrite32": 32, "zero_run": rng.randint(8, 4096), "noise_run": rng.randint(8, 512)}[kind]
    n = min(n, len(data))
    at = rng.randrange(len(data) - n + 1)
    bytes_ = bytes(n) if kind == "zero_run" else rng.randbytes(n)
    return kind, f"{kind} of {n} bytes at {at}", data[:at] + bytes_ + data[at + n:]


# Two damages planted where each check of the reader's (src/io/vtkhdf.cpp, "checked reads") is the
# only guard, each of which the reader must refuse in one line; found by their bytes in the file's
# object headers (HDF5's earliest format, which awave writes: attribute messages of version 1, names
# padded to 8 bytes; dataspace messages of version 1).
#  - type: /wave_params nsteps (int32) with bit offset and precision 0xffff: HDF5's integer
#    conversion of it ran off its buffers (a segmentation fault in H5T__conv_i_i).
#  - extent: the first Steps array's length 2^26 (512 MiB of int64 in a 400 kB file).
NSTEPS_TYPE = bytes.fromhex("1008000004000000" "00002000")  # fixed-point v1, signed LE, 4 bytes, offset 0, 32 bits
STEPS_SPACE = bytes.fromhex("0100180000000000" "0101010000000000") + (NSTEPS // OUT_PERIOD + 1).to_bytes(8, "little")


def planted(data, which):
    d = bytearray(data)
    if which == "type":
        name = d.find(b"nsteps\x00")
        at = name + 8
        if d.count(b"nsteps\x00") != 1 or d[at:at + len(NSTEPS_TYPE)] != NSTEPS_TYPE:
            raise RuntimeError("/wave_params nsteps's datatype is not where it was: the file format changed")
        d[at + 8:at + 12] = b"\xff\xff\xff\xff"
    else:
        at = d.find(STEPS_SPACE)
        if at < 0:
            raise RuntimeError("no Steps array's dataspace message where it was: the file format changed")
        d[at + 16:at + 24] = (1 << 26).to_bytes(8, "little")
    return f"planted {which}", f"planted damage of the {which} check", bytes(d)


def one_line_refusal(code, err):
    return isinstance(code, int) and code > 0 and err.count("\n") == 1 and err.endswith("\n")


def memory_failure(rss, err, bound):
    """Resident memory beyond the bound, or awave's own allocation refused by the address-space limit.
    (HDF5's refused allocations are counted apart: it sizes some buffers from the file's structure
    before awave can look, docs/output.md, and they fail without taking memory.)"""
    return rss > bound or "bad_alloc" in err


def hard_failure(result, bound):
    """"timeout", "signal" or "memory" where a run failed so (either command), else None."""
    code, _, err, rss = result
    if code == "timeout":
        return "timeout"
    if code < 0:
        return "signal"
    return "memory" if memory_failure(rss, err, bound) else None


def classify_verify(result, bound):
    code, out, err, _ = result
    if hard_failure(result, bound):
        return hard_failure(result, bound)
    if code == 0 and err == "" and "every checksum verifies" in out:
        return "intact"
    return "refused" if one_line_refusal(code, err) else "bad"


def classify_restart(result, bound, digests):
    code, out, err, _ = result
    if hard_failure(result, bound):
        return hard_failure(result, bound)
    if code != 0:
        return "refused" if one_line_refusal(code, err) else "bad"
    start = re.search(r"at step (\d+) \(its", out)
    digest = re.search(r"digest of the final u: ([0-9a-f]{8})", out)
    if not start or not digest or digests.get(int(start.group(1))) != digest.group(1):
        return "wrong_field"
    if int(start.group(1)) == NSTEPS and err == "":
        return "exact"
    return "earlier" if int(start.group(1)) < NSTEPS and err.count("\n") == 1 else "bad"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("awave")
    ap.add_argument("run_limited")
    ap.add_argument("work")
    ap.add_argument("--cases", type=int, default=1500)
    ap.add_argument("--first", type=int, default=0, help="the first case's number")
    ap.add_argument("--seed", type=int, default=74)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=20.0, help="seconds a run may take")
    ap.add_argument("--summary", help="write the counts as JSON here")
    ap.add_argument("--keep", help="copy each failing case's file here")
    a = ap.parse_args(argv)
    awave = os.path.abspath(a.awave)
    runner = os.path.abspath(a.run_limited)
    work = os.path.abspath(a.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    started = time.monotonic()

    # The file, and the field one step after each snapshot (a run from the start to there).
    base_dir = os.path.join(work, "base")
    os.makedirs(base_dir)
    code, _, err, _ = run(runner, [awave, "-shape", SHAPE, "-nsteps", str(NSTEPS), "-out_period", str(OUT_PERIOD), "-impl",
                           "cpu", "-quiet", os.path.join(base_dir, "run")], base_dir, 120)
    base = os.path.join(base_dir, "run.cpu.vtkhdf")
    if code != 0:
        print(f"damaged_files: awave could not write the file ({code}): {err}")
        return 1
    with open(base, "rb") as f:
        data = f.read()
    digests = {}
    for step in range(0, NSTEPS + 1, OUT_PERIOD):
        code, out, err, _ = run(runner, [awave, "-shape", SHAPE, "-nsteps", str(step + 1), "-out_period", str(OUT_PERIOD),
                                 "-impl", "cpu", "-no_output", "-no_check", "-digest", "-quiet"], base_dir, 120)
        m = re.search(r"digest of the final u: ([0-9a-f]{8})", out)
        if code != 0 or not m:
            print(f"damaged_files: no digest of a run of {step + 1} steps ({code}): {err}")
            return 1
        digests[step] = m.group(1)

    verify_argv = lambda f: [awave, "-verify", f]
    restart_argv = lambda f: [awave, "-restart", f, "-impl", "cpu", "-nsteps", "1", "-no_output", "-no_check",
                              "-digest", "-quiet"]
    # The peak memory a run reports, in bytes: a process that touches 64 MiB must read as 64 MiB to 1 GiB (read in the
    # wrong unit, every case's memory passed the bound: issue 81, "Why" 7).
    calibration = run(runner, [sys.executable, "-c", "x = b'\\1' * (64 << 20)"], base_dir, a.time_limit)
    if calibration[0] != 0 or not 64 << 20 <= calibration[3] < 1 << 30:
        print(f"damaged_files: a run touching 64 MiB reads as {calibration[3]} bytes of peak memory ({calibration[0]})")
        return 1
    # The undamaged file: what every case is held to, and the memory it takes.
    intact_v = run(runner, verify_argv(base), base_dir, a.time_limit)
    intact_r = run(runner, restart_argv(base), base_dir, a.time_limit)
    baseline_rss = max(intact_v[3], intact_r[3])
    bound = baseline_rss + 10 * len(data)
    if classify_verify(intact_v, bound) != "intact" or classify_restart(intact_r, bound, digests) != "exact":
        print(f"damaged_files: the undamaged file does not verify and restart exactly: {intact_v} {intact_r}")
        return 1

    def one(case):
        case_dir = os.path.join(work, f"case-{threading.get_ident()}")
        os.makedirs(case_dir, exist_ok=True)
        kind, what, damaged = planted(data, case) if isinstance(case, str) else damage(data, a.seed, case)
        path = os.path.join(case_dir, "damaged.vtkhdf")
        with open(path, "wb") as f:
            f.write(damaged)
        v = run(runner, verify_argv(path), case_dir, a.time_limit)
        r = run(runner, restart_argv(path), case_dir, a.time_limit)
        outcome = (classify_verify(v, bound), classify_restart(r, bound, digests))
        if isinstance(case, str) and outcome != ("refused", "refused"):  # a planted case must be refused
            outcome = tuple(o if o in FAILURES else "bad" for o in outcome)
        kept = None
        if a.keep and (outcome[0] in FAILURES or outcome[1] in FAILURES + ("wrong_field",)):
            os.makedirs(a.keep, exist_ok=True)
            kept = os.path.join(a.keep, f"seed{a.seed}-case{case}.vtkhdf")
            shutil.copy(path, kept)
        return case, kind, what, outcome, v, r, kept

    cases = ["type", "extent"] + list(range(a.first, a.first + a.cases))
    verify_counts, restart_counts, by_class = {}, {}, {k: {} for k in CLASSES + ("planted type", "planted extent")}
    failures, peak_rss, peak_case, exit_codes, hdf5_alloc = [], baseline_rss, "the undamaged file", {}, {}
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for case, kind, what, (vo, ro), v, r, kept in pool.map(one, cases):
            verify_counts[vo] = verify_counts.get(vo, 0) + 1
            restart_counts[ro] = restart_counts.get(ro, 0) + 1
            key = f"verify {vo}, restart {ro}"
            by_class[kind][key] = by_class[kind].get(key, 0) + 1
            if max(v[3], r[3]) > peak_rss:
                peak_rss, peak_case = max(v[3], r[3]), f"{case}: {what}"
            for name, res, o in (("verify", v, vo), ("restart", r, ro)):
                if o == "refused":
                    exit_codes[f"{name} {res[0]}"] = exit_codes.get(f"{name} {res[0]}", 0) + 1
                    if "memory allocation failed" in res[2]:
                        hdf5_alloc[name] = hdf5_alloc.get(name, 0) + 1
            if vo in FAILURES or ro in FAILURES + ("wrong_field",):
                failures.append({"case": case, "damage": what, "verify": [vo, v[0], v[2][-300:]],
                                 "restart": [ro, r[0], r[2][-300:]], "kept": kept})
    summary = {
        "awave": awave, "seed": a.seed, "first": a.first, "cases": a.cases, "jobs": a.jobs,
        "file_bytes": len(data), "shape": SHAPE, "nsteps": NSTEPS, "out_period": OUT_PERIOD,
        "verify": dict(sorted(verify_counts.items())), "restart": dict(sorted(restart_counts.items())),
        "by_class": by_class, "refusal_exit_codes": dict(sorted(exit_codes.items())),
        "refused_as_hdf5_could_not_allocate": hdf5_alloc,
        "intact_peak_rss_bytes": baseline_rss, "peak_rss_bytes": peak_rss,
        "peak_rss_over_intact_bytes": peak_rss - baseline_rss, "peak_rss_case": peak_case, "memory_bound_bytes": 10 * len(data),
        "address_space_limit_bytes": AS_LIMIT, "time_limit_s": a.time_limit,
        "wall_s": round(time.monotonic() - started, 1), "failures": failures[:50], "failure_count": len(failures),
    }
    print(json.dumps({k: v for k, v in summary.items() if k != "failures"}, indent=1))
    for f in failures[:20]:
        print(f"FAILED case {f['case']} ({f['damage']}): verify {f['verify']}, restart {f['restart']}")
    if a.summary:
        with open(a.summary, "w") as f:
            json.dump(summary, f, indent=1)
            f.write("\n")
    # Not vacuous: the damage must reach what matters, in each way a run can answer it.
    vacuous = [o for o, counts in (("a refused verify", verify_counts.get("refused")),
                                   ("a refused restart", restart_counts.get("refused")),
                                   ("a restart from an earlier snapshot", restart_counts.get("earlier"))) if not counts]
    if vacuous and a.cases >= 300:
        print(f"damaged_files: no case gave {', '.join(vacuous)}: the corruptor tests nothing")
        return 1
    if failures:
        print(f"damaged_files: {len(failures)} of {len(cases)} cases failed (seed {a.seed}; rerun one with --first K --cases 1)")
        return 1
    print(f"damaged_files: {len(cases)} cases ({a.cases} seeded, 2 planted), none crashed, hung or took more memory than allowed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
