#!/usr/bin/env bash
# The whole test suite, as CI runs it: formatting, lints, then every test (unit, corpus, snapshots, property tests) in
# the release profile, then the benchmark runner's smoke mode so that the baselines cannot rot.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all -- --check
cargo clippy --release --workspace --all-targets -- -D warnings
cargo test --release --workspace
python3 bench/run --smoke
