# What every device script shares; source it first: . "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# Offload that cannot run on the GPU fails, never runs on the host.
export OMP_TARGET_OFFLOAD=MANDATORY
# The lines of awave's output the scripts count (grep -E patterns); tests/harness/test_device_scripts.py runs
# awave and finds each, so they stay the lines it prints.
AWAVE_LINE_BITWISE='check: bitwise identical to the reference'
AWAVE_LINE_NOT_BITWISE='check: NOT BITWISE'
AWAVE_LINE_VERDICT='^(PASS|FAIL|UNCHECKED)'
AWAVE_LINE_WRITTEN='written: [0-9.]+ GB .* at [0-9.]+ GB/s of wall'
AWAVE_LINE_ONE_FILE_LONGER='only .* holds a snapshot at step'  # awave -compare: files equal where both hold

# record_machine FILE: the GPUs (name, memory, driver, largest SM clock) and the host's cores (shown where SHOW=1).
# The toolchains whose codes run on the GPU, as cmake/toolchains/ lists them (their builds: build/<name>).
device_toolchains() { python3 "$(dirname "${BASH_SOURCE[0]}")/../catalog.py" toolchains --on-device; }
record_machine() {
  { nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader 2>/dev/null ||
      echo "no GPU: nvidia-smi failed"
    echo "cores: $(nproc --all)"; } > "$1"
  [ "${SHOW:-0}" = 1 ] && cat "$1"
  return 0
}

# gpu_impls EXE: the build's GPU implementations and forms, one a line (awave -list less the CPU's).
gpu_impls() { "$1" -list | awk '$1 != "cpu" && $1 != "cpu-openmp" && $1 !~ /serial|openmp(-mdrange)?$/ {print $1}'; }

# timed_run DIR NAME SECONDS EXE ARGS...: one awave process under a time limit, its -json and output in
# DIR/NAME.json and DIR/NAME.txt; prints "NAME: exit STATUS VERDICT" and returns the exit status.
timed_run() {
  local dir=$1 name=$2 limit=$3 exe=$4
  shift 4
  timeout "$limit" "$exe" "$@" -json "$dir/$name.json" > "$dir/$name.txt" 2>&1
  local rc=$?
  echo "$name: exit $rc $(grep -E "$AWAVE_LINE_VERDICT" "$dir/$name.txt")"
  return $rc
}

# past_deadline SIZE ROUND: whether DEADLINE seconds (unset or 0: none) of the script have gone; if so,
# says that SIZE^3 stopped before ROUND in $out/summary.txt.
past_deadline() {
  [ "${DEADLINE:-0}" -gt 0 ] && [ "$SECONDS" -ge "$DEADLINE" ] || return 1
  echo "deadline: $1^3 stopped before round $2" | tee -a "$out/summary.txt"
}
