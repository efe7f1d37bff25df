#!/usr/bin/env bash
# On the GPU machine: gathers the parts of an archive that stage.sh split (AWAVE_STAGE_PARTS_MB) as device calls
# carry them, in KEEP_DIR, outside the checkout (a carried folder is gone in the next call; /tmp stays while the
# machine is held). Once every part is there: joined, checked against its sha256, its path printed (exit 0);
# until then exit 3 naming what is missing; another archive's part or a damaged one: exit 1, nothing joined.
#   bench/device/collect-parts.sh CARRIED_DIR [KEEP_DIR]    (KEEP_DIR: /tmp/awave-parts)
#   e.g. call 1: collect-parts.sh .stage-a; call 2: archive=$(collect-parts.sh .stage-b) && on-device.sh "$archive" ...
set -euo pipefail
carried=${1:?usage: collect-parts.sh CARRIED_DIR [KEEP_DIR]}
keep=${2:-/tmp/awave-parts}
sum=$carried/awave-device.sha256
[ -f "$sum" ] || { echo "collect-parts: no $sum (carry the archive's sha256 file with its parts)" >&2; exit 1; }
id=$(cut -c1-16 "$sum")
mkdir -p "$keep/$id"
if [ -f "$keep/$id/awave-device.sha256" ] && ! cmp -s "$sum" "$keep/$id/awave-device.sha256"; then
  echo "collect-parts: $sum is not the archive whose parts are in $keep/$id" >&2; exit 1
fi
cp "$sum" "$keep/$id/"
shopt -s nullglob
for p in "$carried"/part.*; do cp "$p" "$keep/$id/"; done
parts=("$keep/$id"/part.*)
[ ${#parts[@]} -gt 0 ] || { echo "collect-parts: no part yet in $keep/$id" >&2; exit 3; }
# split names its parts aa, ab, ...: no gap. Joined and not yet the archive: more are to come where the last is as
# long as the first (split's size), a part is damaged where the last is shorter (the archive's end).
i=0
for name in $(printf '%s\n' {a..z}{a..z} | head -n ${#parts[@]}); do
  [ "$keep/$id/part.$name" = "${parts[$i]}" ] || { echo "collect-parts: part.$name missing in $keep/$id" >&2; exit 3; }
  i=$((i + 1))
done
joined=$(mktemp "$keep/$id/join.XXXXXX")
cat "${parts[@]}" > "$joined"
if [ "$(sha256sum < "$joined" | cut -d' ' -f1)" = "$(cut -d' ' -f1 "$sum")" ]; then
  mv "$joined" "$keep/$id/awave-device.tar.xz"
  echo "$keep/$id/awave-device.tar.xz"
  exit 0
fi
rm -f "$joined"
if [ "$(stat -c %s "${parts[-1]}")" -lt "$(stat -c %s "${parts[0]}")" ]; then
  echo "collect-parts: the joined parts' sha256 is not $sum's (a damaged part)" >&2; exit 1
fi
echo "collect-parts: ${#parts[@]} parts in $keep/$id so far, more to come" >&2
exit 3
