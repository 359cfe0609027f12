#!/usr/bin/env bash
# Installs, idempotently, everything a fresh Debian 12 machine needs to build aplc, run its tests, its examples and its
# benchmarks. Debian packages come from apt; numpy (for the benchmark baselines) from Debian too (python3-numpy), or
# from pip when the active python3 is not Debian's. Runs as root or through sudo; skips whatever is already present.
set -euo pipefail

# LLVM 19 (inkwell links it dynamically), the C toolchain that links AOT executables, PoCL as a CPU OpenCL device with
# the ICD loader and clinfo, valgrind for the memory checks of AOT executables, tmux for the REPL's terminal test,
# perf for bench/profile, and what llvm-sys' build script probes.
packages=(
  llvm-19-dev libpolly-19-dev clang-19 libzstd-dev zlib1g-dev libxml2-dev libffi-dev
  gcc libc6-dev make pkg-config
  ocl-icd-libopencl1 ocl-icd-opencl-dev pocl-opencl-icd clinfo
  valgrind tmux linux-perf python3 python3-numpy
)

fail() { echo "setup.sh: $*" >&2; exit 1; }

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  as_root=()
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -gt 0 ]; then
  command -v apt-get >/dev/null 2>&1 || fail "apt-get not found; install these by hand: ${missing[*]}"
  if [ "$(id -u)" -ne 0 ] && [ "${#as_root[@]}" -eq 0 ]; then
    fail "need root or sudo to install: ${missing[*]}"
  fi
  echo "setup.sh: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${as_root[@]}" apt-get update -qq || fail "apt-get update failed"
  "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" \
    || fail "apt-get install failed for: ${missing[*]}"
else
  echo "setup.sh: all Debian packages present"
fi

command -v llvm-config-19 >/dev/null 2>&1 || fail "llvm-config-19 is missing after installation"

# The benchmark runner's NumPy baselines run with whatever python3 is first on PATH (often a pyenv build, which does not
# see Debian's python3-numpy): give that interpreter numpy too.
if ! python3 -c 'import numpy' >/dev/null 2>&1; then
  echo "setup.sh: installing numpy for $(command -v python3)"
  python3 -m pip install --quiet numpy || fail "pip could not install numpy"
fi

command -v cargo >/dev/null 2>&1 || fail "cargo is missing: install Rust with rustup (https://rustup.rs)"
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy rustfmt >/dev/null 2>&1 || true
echo "setup.sh: ready"
