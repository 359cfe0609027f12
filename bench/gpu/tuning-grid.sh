#!/bin/bash
# On a GPU machine, from the repository root: times the tuning benchmarks' --gpu executables (built by
#   for p in matmul rowsums colsums; do aplc build --gpu --target-cpu x86-64-v3 bench/tuning/$p/$p.apl \
#     -o .devcarry/tuning/$p-gpu; done
# with libOpenCL.so.1 in .devcarry/lib) on each dataset of bench/tuning/ with the default thresholds and with each
# version forced: every outer_ threshold 0 (loops with parallel constructs inside run as one kernel over their
# rows) and never reached (a kernel launch per row), and every offload_ threshold 0 (every construct on the device).
# One warm-up run, then one timed whole-process runs per setting. aplc itself cannot run there (no LLVM), so this is
# the grid of versions by hand, not `aplc tune`. Writes $OUT/tuning-grid.txt as it goes.
D=$(pwd)/.devcarry
L=$(ls /usr/lib/libnvidia-opencl.so.1 /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 2>/dev/null | head -1)
mkdir -p /tmp/icd; echo "$L" > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd LD_LIBRARY_PATH=$D/lib:${LD_LIBRARY_PATH:-} APLC_DEVICE=nvidia
R=${OUT:-/tmp}/tuning-grid.txt
log() { echo "$@" | tee -a $R; }
log "$(nvidia-smi --query-gpu=name --format=csv,noheader)"
now() { date +%s.%N; }
NEVER=9223372036854775807
for program in matmul rowsums colsums; do
  for dataset in bench/tuning/$program/*.txt; do
    args=$(grep -v '^#' $dataset | tr '\n' ' ')
    for setting in default outer=0 outer=$NEVER offload=0; do
      env_setting=""; [ $setting != default ] && env_setting="APLC_PARAM_$setting"
      out=$(env $env_setting timeout 5 $D/tuning/$program-gpu $args 2>&1 | tr '\n' ' '); rc=$?
      times=""
      for r in 1; do
        s=$(now); env $env_setting timeout 5 $D/tuning/$program-gpu $args >/dev/null 2>&1; e=$(now)
        times="$times $(awk -v a=$s -v b=$e 'BEGIN{printf "%.3f", b-a}')"
      done
      log "GRID $program $(basename $dataset .txt) $setting out=[$out] times=[$times ]"
    done
  done
done
