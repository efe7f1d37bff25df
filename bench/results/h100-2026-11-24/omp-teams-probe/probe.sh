# What clang 19's offload runtime gives a `target teams num_teams(T) thread_limit(L)` region holding
# one `parallel` (awave-omp-shapes probe), and the launches it reports (LIBOMPTARGET_INFO=16).
o=$1; mkdir -p $o; nvidia-smi --query-gpu=name --format=csv,noheader > $o/gpu.txt
s=build/openmptarget/bench/awave-omp-shapes
for tl in "100 128" "8192 128" "65536 128" "65537 128" "500000 128" "8192 256" "8192 64"; do timeout 30 $s probe $tl; done 2>&1 | tee $o/probe.jsonl
LIBOMPTARGET_INFO=16 timeout 60 $s 130 3 tiled,teams-parallel,teams-once,bare > $o/shapes-info.txt 2>&1
grep -i "launching kernel" $o/shapes-info.txt | sed 's/__omp_offloading_[0-9a-f]*_[0-9a-f]*_//' | sort | uniq -c | tee $o/launches.txt
LIBOMPTARGET_INFO=16 AWAVE_FUSED_STEP_POINTS=0 timeout 60 build/openmptarget/src/awave -shape 256,256,256 -nsteps 2 -no_output -no_check -impl omp > $o/awave-info.txt 2>&1
grep -i "launching kernel" $o/awave-info.txt | sed 's/__omp_offloading_[0-9a-f]*_[0-9a-f]*_//' | sort | uniq -c | tee -a $o/launches.txt
