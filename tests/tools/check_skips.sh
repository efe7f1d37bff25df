#!/usr/bin/env bash
# The project's definition of a skip (tests/skip_properties.cmake) against planted tests
# (tests/projects/skip): ctest must report a test that fails and then skips as Failed, a runner
# that fails while printing "Skipped" as Failed, and only real skips as Skipped.
#   check_skips.sh WORK_DIR CMAKE_GENERATOR
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=${1:?usage: check_skips.sh WORK_DIR GENERATOR}
generator=${2:-Ninja}
rm -rf "$work"
cmake -S "$here/../projects/skip" -B "$work" -G "$generator" > "$work.configure.log" 2>&1 || { cat "$work.configure.log"; exit 1; }
cmake --build "$work" > "$work.build.log" 2>&1 || { cat "$work.build.log"; exit 1; }
(cd "$work" && ctest --no-tests=error) > "$work.ctest.log" 2>&1
failures=0
expect() {  # expect TEST OUTCOME: ctest's line for TEST says OUTCOME
  local line
  line=$(grep -E "Test +#[0-9]+: $1 " "$work.ctest.log")
  if [[ $line == *"$2"* ]]; then echo "ok: $1 is $2"; else echo "WRONG: $1: $line"; failures=$((failures + 1)); fi
}
expect Planted.FailsThenSkipsIsFailed "***Failed"
expect Planted.SkipsIsSkipped "***Skipped"
expect Planted.PassesIsPassed "Passed"
expect Planted.FailsIsFailed "***Failed"
expect runner.fails_saying_skipped "***Failed"
expect runner.skips_with_77 "***Skipped"
[ "$(grep -cE 'Test +#' "$work.ctest.log")" -eq 6 ] || { echo "WRONG: not 6 tests ran"; failures=$((failures + 1)); }
[ $failures -eq 0 ] || { cat "$work.ctest.log"; exit 1; }
echo "every planted outcome reported as it is"
