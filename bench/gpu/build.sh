#!/bin/bash
# Builds what bench/gpu/run.sh runs on a GPU machine into the folder $1 (default .devcarry): each benchmark with
# `aplc build --gpu` and without (native code), the corpus programs of apl-tests/programs and apl-tests/memory with
# every construct on the device, each with jit's output beside it, and the OpenCL ICD loader (the GPU machine may lack
# it). The executables target x86-64-v3, so that they run on another x86 machine; they are stripped to travel light.
# All of it travels as one archive, executables.tar.xz. Last, unless NO_APLC_PACK is set, aplc itself with the shared
# libraries it needs (libLLVM and what that links, which the GPU machine lacks) as aplc.tar.xz, so that
# bench/gpu/tune.sh can run `aplc tune` there (about 50 MB: the device tool carries 64 MiB).
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
# With OLD_APLC (another aplc binary, such as the previous commit's), some benchmarks built by it too, into
# $out/old/, for run.sh's comparison of the two versions' kernels on the same device.
if [ -n "${OLD_APLC:-}" ]; then
  mkdir -p "$out/old"
  for program in signal sum blackscholes mandelbrot life hotspot; do
    "$OLD_APLC" build --gpu --target-cpu x86-64-v3 bench/programs/$program/$program.apl -o "$out/old/$program"
  done
fi
# Variants of signal's reduction kernel (bench/gpu/kernel_variants.py), which run.sh times through APLC_OPENCL_SOURCE.
mkdir -p "$out/variants"
$aplc dump --stage opencl bench/programs/signal/signal.apl > "$out/variants/signal.dump"
python3 bench/gpu/kernel_variants.py "$out/variants/signal.dump" "$out/variants" > /dev/null
strip "$out"/bin/* $(ls "$out"/corpus/* | grep -v '\.expected$') $(ls "$out"/old/* 2>/dev/null)
cp /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 "$out/lib/"
# The executables share their run-time library: one compressed archive is a tenth of their size (run.sh unpacks it).
tar -C "$out" -cf - bin corpus lib variants $(ls -d "$out"/old 2>/dev/null | xargs -r -n1 basename) |
  xz -T0 -6 > "$out/executables.tar.xz"
rm -rf "$out/bin" "$out/corpus" "$out/old" "$out/variants"
# aplc and every shared library it loads except the C and C++ run-time libraries (the GPU machine's own are newer,
# and compatible), compressed: libLLVM alone is 130 MB.
[ -n "${NO_APLC_PACK:-}" ] && rm -f "$out/aplc.tar.xz" && exit 0
rm -rf "$out/pack" && mkdir -p "$out/pack/bin" "$out/pack/lib"
cp "$aplc" "$out/pack/bin/aplc" && strip "$out/pack/bin/aplc"
ldd "$aplc" | awk '/=> \//{print $3}' | grep -vE '/(libc|libm|libgcc_s|libstdc\+\+|libpthread|libdl|ld-linux[^/]*)\.so' |
  while read -r library; do cp -L "$library" "$out/pack/lib/"; done
tar -C "$out/pack" -cf - bin lib | xz -T0 -6 > "$out/aplc.tar.xz"
rm -rf "$out/pack"

