//! Issue #18's thread check: AOT executables of two benchmarks with parallel constructs (matmul's register tiles and
//! mandelbrot's strips) run on two threads, every construct through the pool (every threshold 0), under valgrind's
//! two thread checkers, drd and helgrind, which must report nothing and let the program print what it prints
//! natively. The pool's hand-overs go through std's futex-based locks and atomics, which the checkers cannot see;
//! the run-time library annotates them (runtime/src/thread_checker.rs). Without the annotations drd reported seven
//! conflicting stores in `aplrt_parallel_for` on matmul. The atomic accesses to the lock words inside std's futex
//! locks themselves are suppressed (tests/valgrind_support/std_futex_locks.supp): drd reported one, in a run where
//! a worker found the lock contended.
//!
//! The executables are built for `x86-64-v2`, as in tests/aot_valgrind.rs (valgrind does not decode every AVX
//! encoding), with small sizes: the checkers slow a program down a hundredfold.

mod valgrind_support;

use std::path::PathBuf;
use std::process::Command;
use valgrind_support::require_valgrind;

/// (benchmark, its arguments): sizes that keep each run to seconds under the checkers while every parallel construct
/// still has work for both threads (37 rows make four tiles of eight and five rows after them).
const PROGRAMS: &[(&str, &[&str])] = &[("matmul", &["37"]), ("mandelbrot", &["40", "5"])];

#[test]
fn drd_and_helgrind_find_no_race_in_two_benchmarks_on_two_threads() {
    require_valgrind();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let std_futex_locks_suppression = format!(
        "--suppressions={}",
        root.join("tests/valgrind_support/std_futex_locks.supp").display()
    );
    let directory = std::env::temp_dir().join(format!("aplc-thread-checkers-{}", std::process::id()));
    std::fs::create_dir_all(&directory).expect("the temporary directory is writable");
    for (name, arguments) in PROGRAMS {
        let executable = directory.join(name);
        let built = Command::new(env!("CARGO_BIN_EXE_aplc"))
            .args(["build", "--target-cpu", "x86-64-v2"])
            .arg(root.join(format!("bench/programs/{name}/{name}.apl")))
            .arg("-o")
            .arg(&executable)
            .output()
            .expect("the aplc binary runs");
        assert!(
            built.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&built.stderr)
        );
        let native = Command::new(&executable).args(*arguments).output().expect("it runs");
        assert!(
            native.status.success() && !native.stdout.is_empty(),
            "{name} natively: {native:?}"
        );
        for tool in ["drd", "helgrind"] {
            let checked = Command::new("valgrind")
                .args([&format!("--tool={tool}"), "--quiet", "--error-exitcode=99"])
                .arg(&std_futex_locks_suppression)
                .arg(&executable)
                .args(*arguments)
                .envs([("APLC_THREADS", "2"), ("APLC_PARAM_threshold", "0")])
                .output()
                .expect("valgrind runs");
            let report = String::from_utf8_lossy(&checked.stderr);
            assert!(
                checked.status.success() && report.trim().is_empty(),
                "{name} under {tool}: exit {:?}, report:\n{report}",
                checked.status.code()
            );
            assert_eq!(checked.stdout, native.stdout, "{name} under {tool} printed otherwise");
        }
    }
    std::fs::remove_dir_all(&directory).ok();
}
