//! Builds the run-time library's static archive (`runtime/`, crate `aplc-runtime`) for aplc to carry inside itself,
//! so that `aplc build` works from any folder and from an installed copy (`cargo install --path .`) with no build
//! tree around.
//!
//! Why one `rustc` call and not Cargo: a build script cannot reach the static library of a dependency (artifact
//! dependencies are unstable), and a nested `cargo build` would wait on the locks of the Cargo that runs this
//! script, or need a second target folder and network access for the lock file. The runtime depends on nothing but
//! the standard library, so `rustc` alone builds it; [`check_runtime_manifest`] stops the build with a clear message
//! if that ever changes, instead of failing later with unresolved crates.
//!
//! Also hands the compiler a fingerprint of the archive (FNV-1a of its bytes), which names the file it is extracted
//! to, so that two versions of aplc never share one extracted archive.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The edition `runtime/Cargo.toml` declares; the `rustc` call below uses the same.
const RUNTIME_EDITION: &str = "2021";

fn main() {
    let manifest_directory =
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("Cargo sets CARGO_MANIFEST_DIR"));
    let out_directory = PathBuf::from(std::env::var_os("OUT_DIR").expect("Cargo sets OUT_DIR"));
    let runtime_directory = manifest_directory.join("runtime");
    // A folder given to rerun-if-changed makes Cargo compare the times of every file inside it.
    println!("cargo:rerun-if-changed={}", runtime_directory.join("src").display());
    println!(
        "cargo:rerun-if-changed={}",
        runtime_directory.join("Cargo.toml").display()
    );
    println!("cargo:rerun-if-changed=build.rs");
    check_runtime_manifest(&runtime_directory.join("Cargo.toml"));

    let archive = out_directory.join("libaplc_runtime.a");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let target = std::env::var("TARGET").expect("Cargo sets TARGET");
    let output = Command::new(&rustc)
        .args([
            "--crate-name",
            "aplc_runtime",
            "--crate-type",
            "staticlib",
            "--edition",
            RUNTIME_EDITION,
        ])
        .args([
            "-C",
            "opt-level=3",
            "-C",
            "debuginfo=0",
            "--target",
            &target,
            "--cap-lints",
            "allow",
        ])
        .arg("-o")
        .arg(&archive)
        .arg(runtime_directory.join("src").join("lib.rs"))
        .output()
        .unwrap_or_else(|error| panic!("cannot run {rustc} to build the run-time library: {error}"));
    if !output.status.success() {
        panic!(
            "{rustc} failed to build the run-time library ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let bytes = std::fs::read(&archive).expect("rustc wrote the run-time archive");
    println!("cargo:rustc-env=APLC_RUNTIME_FINGERPRINT={:016x}", fnv1a(&bytes));
}

/// Stops the build when `runtime/Cargo.toml` no longer fits the `rustc` call above: another edition, or a
/// dependency (which a lone `rustc` cannot resolve).
fn check_runtime_manifest(manifest: &Path) {
    let text =
        std::fs::read_to_string(manifest).unwrap_or_else(|error| panic!("cannot read {}: {error}", manifest.display()));
    let mut section = String::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.to_string();
        } else if line.is_empty() || line.starts_with('#') {
            continue;
        } else if section == "[package]" && line.starts_with("edition") {
            assert!(
                line.contains(&format!("\"{RUNTIME_EDITION}\"")),
                "build.rs compiles the runtime with edition {RUNTIME_EDITION}, but {} says `{line}`: update RUNTIME_EDITION",
                manifest.display()
            );
        } else if section == "[dependencies]" || section.starts_with("[dependencies.") {
            panic!(
                "{} gives the runtime a dependency (`{line}`), which build.rs cannot build with a lone rustc call: \
                 keep the runtime free of dependencies, or build it with Cargo in build.rs",
                manifest.display()
            );
        }
    }
}

/// FNV-1a, 64 bits: enough to tell two archives apart, and needs no dependency.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}
