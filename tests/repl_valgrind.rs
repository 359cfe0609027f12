//! Memory checks of the REPL: `aplc repl` compiles each line with the JIT and runs it in a forked child process;
//! under valgrind's memcheck (which follows forks) neither the session nor any line's child may show an invalid
//! access, a use of uninitialised memory, or a block definitely or indirectly lost. A line's error ends only that
//! line's child, and the values kept across lines stay usable.
//!
//! The first run of this check found a leak in the session itself: inkwell's `TargetMachine::get_feature_string`
//! never frees the copy LLVM returns, about 900 bytes per compiled line (`codegen/llvm/target.rs` now frees it).
//!

mod valgrind_support;

use std::io::Write;
use std::process::{Command, Stdio};

/// The memcheck options: leaks of the definite and indirect kinds are errors and the only ones shown; a block still
/// reachable at exit (the session's LLVM context, the run-time library's output buffer) is not a leak, nor is one
/// "possibly lost" in a line's child, which holds a copy of the session's memory until it exits. valgrind reports every process it
/// checks, the forked children included, on standard error, each line prefixed with `==PID==`.
const MEMCHECK_ARGUMENTS: &[&str] = &[
    "--quiet",
    "--leak-check=full",
    "--show-leak-kinds=definite,indirect",
    "--errors-for-leak-kinds=definite,indirect",
];

#[test]
fn repl_lines_and_their_child_processes_are_clean_under_memcheck() {
    valgrind_support::require_valgrind();
    // A kept vector, a parallel reduction on it, a matrix product, ⍕ (text from the run-time library), an INDEX
    // ERROR that ends its line's child, and the kept vector used again after it.
    let lines = "x←⍳10\n+/x×2\ny←3 3⍴⍳9\n+/,y+.×y\n⍕x\nx[11]\n+/x\n";
    let mut child = Command::new("valgrind")
        .args(MEMCHECK_ARGUMENTS)
        .args([env!("CARGO_BIN_EXE_aplc"), "repl"])
        .env("APLC_THREADS", "2")
        .env("APLC_PARAM_threshold", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("valgrind runs");
    child
        .stdin
        .take()
        .expect("a pipe")
        .write_all(lines.as_bytes())
        .expect("the session reads its lines");
    let output = child.wait_with_output().expect("the session ends");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    // By hand: +/2×⍳10 = 110; y+.×y for y = 3 3⍴⍳9 is 30 36 42 / 66 81 96 / 102 126 150, whose sum is 729;
    // ⍕⍳10 is the text of the vector; x[11] is an INDEX ERROR (on standard error); +/⍳10 = 55.
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        vec!["110", "729", "1 2 3 4 5 6 7 8 9 10", "55"],
        "standard error:\n{stderr}"
    );
    assert!(stderr.contains("INDEX ERROR"), "{stderr}");
    let reports: Vec<&str> = stderr.lines().filter(|line| is_memcheck_report(line)).collect();
    assert!(
        reports.is_empty(),
        "memcheck reported problems:\n{}",
        reports.join("\n")
    );
    assert!(output.status.success(), "the session failed:\n{stderr}");
}

/// Whether a line of standard error is valgrind's (`==1234== ...`).
fn is_memcheck_report(line: &str) -> bool {
    line.strip_prefix("==")
        .and_then(|rest| rest.split_once("=="))
        .is_some_and(|(pid, _)| !pid.is_empty() && pid.chars().all(|c| c.is_ascii_digit()))
}
