#!/usr/bin/env python3
"""Runs Python unittest cases for ctest, where the outcome means what it says.

    run_python_tests.py NAME [NAME ...]    (a module, module.Class or module.Class.test, e.g. tests.harness.test_view.View)

Exit 0 when every test ran and passed; 1 on a failure, an error, no test at all, or a test that
skipped: a case that does not apply to every build is registered as its own ctest entry where
it applies (tests/CMakeLists.txt), so a skip inside a run can only hide a check that did not run. The names are
found on PYTHONPATH (ctest sets it to bench/ and the checkout: PYTHONPATH=bench:. by hand, from the checkout).
"""
import sys
import unittest


def main(names):
    if not names:
        print(__doc__, file=sys.stderr)
        return 2
    suite = unittest.defaultTestLoader.loadTestsFromNames(names)
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    if result.testsRun == 0:
        print("run_python_tests: no test ran")
        return 1
    for test, why in result.skipped:
        print(f"run_python_tests: {test.id()} skipped ({why}): a skip inside a run counts as a failure")
    return 0 if result.wasSuccessful() and not result.skipped else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
