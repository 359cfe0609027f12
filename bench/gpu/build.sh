#!/bin/bash
# Builds what bench/gpu/run.sh runs on a GPU machine into the folder $1 (default .devcarry): each benchmark with
# `aplc build --gpu` and without (native code), the corpus programs of apl-tests/programs and apl-tests/memory with
# every construct on the device, each with jit's output beside it, and the OpenCL ICD loader (the GPU machine may lack
# it). The executables target x86-64-v3, so that they run on another x86 machine; they are stripped to travel light.
set -e
cd "$(dirname "$0")/../.."
out=${1:-.devcarry}
aplc=target/release/aplc
mkdir -p "$out/bin" "$out/corpus" "$out/lib"
for program in signal easter blackscholes primes life hotspot mandelbrot matmul sum sobol optionpricer; do
  $aplc build --gpu --target-cpu x86-64-v3 bench/programs/$program/$program.apl -o "$out/bin/$program-gpu"
  $aplc build --target-cpu x86-64-v3 bench/programs/$program/$program.apl -o "$out/bin/$program-cpu"
done
for file in apl-tests/programs/*.apl apl-tests/memory/*.apl; do
  name=$(basename "$(dirname "$file")")-$(basename "$file" .apl)
  if $aplc build --gpu --opencl-min-work 0 --target-cpu x86-64-v3 "$file" -o "$out/corpus/$name" 2>/dev/null; then
    { timeout 20 $aplc run --backend jit "$file" 2>/dev/null; echo "rc=$?"; } > "$out/corpus/$name.expected"
  fi
done
strip "$out"/bin/* $(ls "$out"/corpus/* | grep -v '\.expected$')
cp /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 "$out/lib/"
