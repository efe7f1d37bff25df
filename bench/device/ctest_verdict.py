#!/usr/bin/env python3
"""The verdict on a ctest log from the GPU machine, counted: a GPU whose tests all skip reads "100% passed".

    ctest_verdict.py LOG EXPECTED [MUST_RUN_FILE]

EXPECTED: the tests the build holds for the labels run (`ctest -N -L ...`); MUST_RUN_FILE: the tests that may
not skip here, one a line. Exit 0 only where ctest reports EXPECTED tests, none failed and none of MUST_RUN
skipped; one line either way.
"""
import re
import sys

# "Test #49: NAME[  # GetParam() = ...] ....***Skipped" (a parameterised test's display name
# carries its parameter after "  # ").
RESULT = re.compile(r"Test +#\d+: ([^\n]+?) \.{2,}[ ]*(\*\*\*)?(Passed|Failed|Skipped|Not Run|Timeout|Exception|[^ .\n][^ \n]*)")


def test_name(display):
    return display.split("  # ")[0].strip()
# "100% tests passed, 0 tests failed out of 6" (CMake 3.25); newer ctest leaves out ", 0 tests failed".
TOTAL = re.compile(r"(\d+)% tests passed(?:, (\d+) tests? failed)? out of (\d+)")


def verdict(log_text, expected, must_run=()):
    """(ok, line)."""
    outcomes = {}
    for m in RESULT.finditer(log_text):
        outcomes[test_name(m.group(1))] = m.group(3)
    total = TOTAL.search(log_text)
    problems = []
    if not total:
        problems.append("no ctest summary line")
    ran = int(total.group(3)) if total else len(outcomes)
    failed = sum(o not in ("Passed", "Skipped") for o in outcomes.values())
    if total and total.group(2) is not None:
        failed = max(failed, int(total.group(2)))
    skipped = sorted(n for n, o in outcomes.items() if o == "Skipped")
    if expected <= 0:
        problems.append("the build holds no test for these labels")
    if ran != expected:
        problems.append(f"{ran} tests ran of the {expected} the build holds")
    if failed:
        problems.append(f"{failed} failed")
    must_skip = [n for n in skipped if n in {test_name(m) for m in must_run}]
    if must_skip:
        problems.append(f"{len(must_skip)} GPU tests skipped on a GPU machine (e.g. {must_skip[0]})")
    counts = f"{ran} tests, {ran - failed - len(skipped)} passed, {len(skipped)} skipped, {failed} failed"
    if problems:
        return False, f"ctest: FAILED: {'; '.join(problems)} ({counts})"
    return True, f"ctest: ok: {counts}" + (f" (skipped: {', '.join(skipped)})" if skipped else "")


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[0], errors="replace") as f:
        text = f.read()
    must_run = []
    if len(argv) == 3:
        with open(argv[2]) as f:
            must_run = [test_name(line) for line in f if line.strip()]
    ok, line = verdict(text, int(argv[1]), must_run)
    print(line)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
