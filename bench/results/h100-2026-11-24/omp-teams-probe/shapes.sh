# teams-once (out-of-line fallback: a call in the region), teams-inline (fallback inline),
# teams-flag (no fallback: a device flag) against tiled (worksharing) and bare (ompx_bare).
o=$1; mkdir -p $o
s=build/openmptarget/bench/awave-omp-shapes
timeout 150 $s 514 30 tiled,bare,teams-once,teams-inline,teams-flag > $o/omp-shapes.jsonl 2>&1
timeout 150 $s 1002 30 bare,teams-flag >> $o/omp-shapes.jsonl 2>&1
python3 -c "
import json,sys
for l in open(sys.argv[1]):
  try: r=json.loads(l)
  except Exception: print(l.strip()); continue
  print(r['n'],r['shape'],r['threads'],r['segment'],'%.3e'%r['su_per_s'],r['bitwise_with_three_region'])" $o/omp-shapes.jsonl
