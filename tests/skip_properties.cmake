# The one definition of a skipped test, for every test the project registers: gtest's own marker
# of a skipped test (printed only when nothing failed before the skip: a test that fails an
# EXPECT and then skips prints "[  FAILED  ]"), or exit code 77 from a runner that names why in
# its own line (kokkos_test_main.cpp without a GPU, tests/tools/run_python_tests.py, mpi_check.sh).
# Never a bare "Skipped": gtest prints that for a failing test's skip too, and a match overrides
# the exit code. tests/projects/skip plants a fail-then-skip test against this definition.
set(AWAVE_SKIP_RETURN_CODE 77)
set(AWAVE_SKIP_PROPERTIES SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]" SKIP_RETURN_CODE ${AWAVE_SKIP_RETURN_CODE})
