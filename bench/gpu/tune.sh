#!/bin/bash
# On a GPU machine, from the repository root, with what bench/gpu/build.sh made (in $1, default .devcarry): unpacks
# aplc with its libraries (aplc.tar.xz), then runs the tuning benchmark, `bench/tune --aplc ...` (aplc tune on every
# program of bench/tuning/ with the jit backend on the machine's cores and the opencl backend on its GPU), one
# program at a time with `--runs 2`. aplc tune builds with the machine's C compiler (cc) and its own run-time library.
# Writes $OUT/tuning-<program>.md (each program's report) and $OUT/tune.log (the tuner's progress) as it goes.
D=$(pwd)/${1:-.devcarry}
R=${OUT:-/tmp}
L=$(ls /usr/lib/libnvidia-opencl.so.1 /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 2>/dev/null | head -1)
mkdir -p /tmp/icd /tmp/aplc; echo "$L" > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd APLC_DEVICE=nvidia
xz -dc "$D/aplc.tar.xz" | tar -C /tmp/aplc -xf -
[ -d "$D/lib" ] || xz -dc "$D/executables.tar.xz" | tar -C "$D" -xf -
cp "$D/lib/libOpenCL.so.1" /tmp/aplc/lib/
export LD_LIBRARY_PATH=/tmp/aplc/lib:${LD_LIBRARY_PATH:-}
log() { echo "$@" | tee -a "$R/tune.log"; }
log "cc: $(command -v cc) $(cc --version 2>&1 | head -1)"
log "aplc devices: $(/tmp/aplc/bin/aplc devices 2>&1 | tr '\n' ' ')"
# PROGRAMS: the programs, each with its time limit in seconds and, optionally, more options of bench/tune
# (`name:seconds` or `name:seconds:--skip-jit`); RUNS: timed runs per measurement (default 2).
for item in ${PROGRAMS:-matmul:200 rowsums:200 colsums:200}; do
  IFS=: read -r program limit options <<<"$item"
  start=$(date +%s); rm -f bench/out/results-tuning.md
  timeout "$limit" python3 bench/tune --aplc /tmp/aplc/bin/aplc --runs "${RUNS:-2}" --timeout "$limit" \
    --only "$program" $options >>"$R/tune.log" 2>&1
  log "TUNED $program status=$? seconds=$(($(date +%s) - start))"
  cp bench/out/results-tuning.md "$R/tuning-$program.md" 2>/dev/null
done
