#!/bin/bash
# On a GPU machine, from the repository root, with what bench/gpu/build.sh made (in $1, default .devcarry): the
# corpus programs built with --gpu (every construct on the device) against jit's output, then the benchmarks (--gpu
# executables against native executables on all cores, then one profiled run), then the kernels of another aplc
# against this one's, then variants of signal's kernel, then the on-disk program cache. STAGES chooses among corpus,
# bench, forms, variants and cache (all by default). Writes $OUT/gpu.txt as it goes.
D=$(pwd)/${1:-.devcarry}
[ -d $D/bin ] || xz -dc $D/executables.tar.xz | tar -C $D -xf -
L=$(ls /usr/lib/libnvidia-opencl.so.1 /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 2>/dev/null | head -1)
mkdir -p /tmp/icd; echo "$L" > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd LD_LIBRARY_PATH=$D/lib:${LD_LIBRARY_PATH:-} APLC_DEVICE=nvidia
R=${OUT:-/tmp}/gpu.txt
log() { echo "$@" | tee -a $R; }
log "$(nvidia-smi --query-gpu=name,memory.total,clocks.max.mem --format=csv,noheader)"
STAGES=${STAGES:-corpus bench forms variants cache}
stage() { [[ " $STAGES " == *" $1 "* ]]; }
# The corpus against jit's output; $1 names the pass (the second runs every program from the cached binaries).
corpus() {
  local pass=0 fail=0
  for exe in $(ls $D/corpus/* | grep -v expected); do
    got=$(cd $D/.. && timeout 20 $exe 2>/dev/null; echo "rc=$?")
    if [ "$got" == "$(cat $exe.expected)" ]; then pass=$((pass+1)); else fail=$((fail+1)); log "CORPUS DIFF $(basename $exe)"; fi
  done
  log "CORPUS $1 pass=$pass fail=$fail"
}
export APLC_OPENCL_CACHE=/tmp/aplc-opencl-cache
rm -rf $APLC_OPENCL_CACHE
stage corpus && corpus "(programs built from source)" && corpus "(programs from the cache)"
now() { date +%s.%N; }
measure() {
  local name=$1 variant=$2; shift 2
  local exe=$D/bin/$name-$variant
  local out; out=$(timeout 30 $exe "$@" 2>/tmp/err); local rc=$?
  local times=""
  for r in 1 2; do local s=$(now); timeout 30 $exe "$@" >/dev/null 2>&1; local e=$(now); times="$times $(awk -v a=$s -v b=$e 'BEGIN{printf "%.3f", b-a}')"; done
  log "RUN $name $variant args=[$*] rc=$rc out=[$(echo $out | tr '\n' ' ')] times=[$times ]"
  if [ $rc != 0 ]; then head -c 600 /tmp/err | tee -a $R; fi
  if [ $variant = gpu ]; then APLC_OPENCL_STATS=1 APLC_OPENCL_PROFILE=1 timeout 30 $exe "$@" 2>&1 >/dev/null | sed "s/^/PROFILE $name [$*] /" | tee -a $R; fi
}
stage bench && for spec in "signal 50000000" "sum 100000000" "blackscholes 10000000" "life 4000 100" "mandelbrot 2048 100" \
  "hotspot 2048 360" "sobol 10000000" "easter 3000 300" "primes 10000" "matmul 512" "life 1000 100" "optionpricer 1048576"; do
  set -- $spec; name=$1; shift
  measure $name gpu "$@"
  measure $name cpu "$@"
done
# Kernels against those of another aplc (OLD_APLC in build.sh, into $D/old/), kernel times from a profiled run of
# each: two of each, alternated.
if stage forms && [ -d $D/old ]; then
  for spec in "signal 50000000" "sum 100000000" "blackscholes 10000000" "signal 500000000" "mandelbrot 2048 100" \
    "mandelbrot 1024 100" "life 4000 100" "hotspot 2048 360"; do
    set -- $spec; name=$1; shift
    for variant in old/$name bin/$name-gpu bin/$name-gpu old/$name; do
      env APLC_OPENCL_STATS=1 APLC_OPENCL_PROFILE=1 timeout 30 $D/$variant "$@" 2>&1 | tr '\n' ' ' |
        sed "s|^|FORM $variant [$*] |" | tee -a $R; echo | tee -a $R
    done
  done
fi
# signal's kernel variants (bench/gpu/kernel_variants.py): each built in place of the program's own kernel, two
# profiled runs each, alternated with the kernel as generated.
if stage variants && [ -d $D/variants ]; then
  for round in 1 2; do
    for cl in $D/variants/*.cl; do
      env APLC_OPENCL_SOURCE=$cl APLC_OPENCL_PROFILE=1 timeout 30 $D/bin/signal-gpu 50000000 2>&1 | tr '\n' ' ' |
        sed "s|^|VARIANT $(basename $cl .cl) round $round |" | tee -a $R; echo | tee -a $R
    done
  done
fi
# The on-disk program cache: each program's build from source, then from the cache (the profile's `programs` line),
# and whole-process times without the cache and with it.
if stage cache; then
  for spec in "signal 50000000" "life 1000 100" "mandelbrot 2048 100" "optionpricer 1048576"; do
    set -- $spec; name=$1; shift
    rm -rf $APLC_OPENCL_CACHE
    for round in source cache; do
      APLC_OPENCL_PROFILE=1 timeout 30 $D/bin/$name-gpu "$@" 2>&1 | grep "programs:" | sed "s|^|CACHE $name [$*] $round |" | tee -a $R
    done
    times=""
    for setting in off $APLC_OPENCL_CACHE off $APLC_OPENCL_CACHE; do
      s=$(now); APLC_OPENCL_CACHE=$setting timeout 30 $D/bin/$name-gpu "$@" >/dev/null 2>&1; e=$(now)
      times="$times $setting=$(awk -v a=$s -v b=$e 'BEGIN{printf "%.3f", b-a}')"
    done
    log "CACHE $name [$*] wall:$times"
  done
fi
