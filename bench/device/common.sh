# What every device script shares; source it first: . "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# - offload that cannot run on the GPU fails, never runs on the host (OMP_TARGET_OFFLOAD);
# - the lines of awave's output the scripts count (awave-lines.sh);
# - record_machine FILE: the GPUs (name, memory, driver, largest SM clock) and the host's cores,
#   beside the results (tee'd where SHOW=1).
export OMP_TARGET_OFFLOAD=MANDATORY
. "$(dirname "${BASH_SOURCE[0]}")/awave-lines.sh"
record_machine() {
  { nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader 2>/dev/null ||
      echo "no GPU: nvidia-smi failed"
    echo "cores: $(nproc --all)"; } > "$1"
  [ "${SHOW:-0}" = 1 ] && cat "$1"
  return 0
}
