//! Memory checks of AOT executables: every program of apl-tests/programs/ is built with `aplc build` and run under
//! valgrind's memcheck, which must find no invalid read or write, no use of uninitialised memory, and no block that is
//! definitely or indirectly lost (every block the program allocates is freed, including the run-time library's). A few
//! corpus files whose text comes from the run-time library (`⍕`) run too.
//!
//! The executables are built for `x86-64-v2` (SSE4.2, no AVX): valgrind 3.19 does not decode some AVX encodings LLVM
//! emits for the host CPU (a register-to-register `vmovq`), and stops the program with SIGILL. The memory accesses
//! are the same at every vector width, since the loop program decides them.
//!
//! valgrind is part of the project's set-up (scripts/setup.sh); without it the test fails rather than passing
//! silently.

mod valgrind_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use valgrind_support::require_valgrind;

/// The memcheck options: exit status 99 on any error, leaks of the definite and indirect kinds counted as errors
/// (a block still reachable at exit, such as the output buffer the run-time library keeps, is not a leak).
const MEMCHECK_ARGUMENTS: &[&str] = &[
    "--quiet",
    "--error-exitcode=99",
    "--leak-check=full",
    "--errors-for-leak-kinds=definite,indirect",
];

/// The one report memcheck may make that is not the program's: the thread-local storage of a pool worker still alive
/// when an APL error raised in a parallel construct ends the process (see the file for why it shows as "possibly
/// lost"). Blocks of the program's own arrays are never matched by it: they are not allocated by `pthread_create`.
fn worker_thread_storage_suppression() -> String {
    let file = repository_root().join("tests/valgrind_support/worker_thread_storage.supp");
    format!("--suppressions={}", file.display())
}

/// The CPU the executables are built for (see the module documentation).
const VALGRIND_TARGET_CPU: &str = "x86-64-v2";

fn repository_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh directory for this test's files, removed and recreated on each run.
fn scratch_directory(name: &str) -> PathBuf {
    let directory = std::env::temp_dir().join(format!("aplc-valgrind-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).expect("the temporary directory is writable");
    directory
}

/// Under memcheck every parallel construct goes through the thread pool (two threads, every threshold 0), so that the
/// workers' memory and their shutdown at the end of the program are checked too.
fn run_under_memcheck(executable: &Path) -> Output {
    Command::new("valgrind")
        .args(MEMCHECK_ARGUMENTS)
        .arg(worker_thread_storage_suppression())
        .arg(executable)
        .envs([("APLC_THREADS", "2"), ("APLC_PARAM_threshold", "0")])
        .current_dir(repository_root())
        .output()
        .expect("valgrind runs")
}

/// Corpus files beyond the programs whose memory goes through the run-time library in other ways: `⍕` allocates its
/// text there, and the compiled code frees it; a recursive function allocates the arrays it returns, and its caller
/// frees them.
const RUNTIME_ALLOCATING_FILES: &[&str] = &[
    "apl-tests/primitives/format.apl",
    "apl-tests/primitives/format_double.apl",
    "apl-tests/dfns/recursion_on_arrays.apl",
];

fn programs() -> Vec<PathBuf> {
    let mut programs: Vec<PathBuf> = std::fs::read_dir(repository_root().join("apl-tests/programs"))
        .expect("apl-tests/programs exists")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "apl"))
        .collect();
    programs.sort();
    programs.extend(RUNTIME_ALLOCATING_FILES.iter().map(|file| repository_root().join(file)));
    programs
}

/// Builds one program; the executable's path, or what went wrong.
fn build(program: &Path, directory: &Path) -> Result<PathBuf, String> {
    let name = program.file_stem().expect("a file name").to_string_lossy().into_owned();
    let executable = directory.join(&name);
    let output = Command::new(env!("CARGO_BIN_EXE_aplc"))
        .args(["build", "--target-cpu", VALGRIND_TARGET_CPU])
        .arg(program)
        .arg("-o")
        .arg(&executable)
        .output()
        .expect("the aplc binary runs");
    if output.status.success() {
        Ok(executable)
    } else {
        Err(format!(
            "aplc build failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// Runs the executable natively and under memcheck: memcheck must report nothing, and the program must print the
/// same under it as without it (so it really ran to its end).
fn check_executable(executable: &Path) -> Result<(), String> {
    let native = Command::new(executable)
        .current_dir(repository_root())
        .output()
        .expect("the executable runs");
    let checked = run_under_memcheck(executable);
    let report = String::from_utf8_lossy(&checked.stderr);
    if checked.status.code() != native.status.code() || !report.trim().is_empty() {
        return Err(format!(
            "under valgrind the exit status is {:?} (natively {:?}); valgrind reports:\n{report}",
            checked.status.code(),
            native.status.code()
        ));
    }
    if checked.stdout != native.stdout || native.stdout.is_empty() {
        return Err(format!(
            "the output under valgrind differs from the native output (or is empty):\n{}\n---\n{}",
            String::from_utf8_lossy(&checked.stdout),
            String::from_utf8_lossy(&native.stdout)
        ));
    }
    Ok(())
}

#[test]
fn the_aot_executables_of_the_programs_have_no_invalid_access_and_no_leak() {
    require_valgrind();
    let directory = scratch_directory("programs");
    let programs = programs();
    assert!(programs.len() >= 10, "apl-tests/programs has its programs");
    let failures: Vec<String> = programs
        .iter()
        .filter_map(|program| {
            let outcome = build(program, &directory).and_then(|executable| check_executable(&executable));
            outcome.err().map(|message| format!("{}: {message}", program.display()))
        })
        .collect();
    let _ = std::fs::remove_dir_all(&directory);
    assert!(
        failures.is_empty(),
        "{} of {} programs fail the memory checks:\n\n{}",
        failures.len(),
        programs.len(),
        failures.join("\n\n")
    );
}

/// The error corpus's programs that compile (the others are refused before any code exists) stop on their APL error
/// with status 1: under memcheck they must stop the same way, print the same message, and lose no block (a program
/// that stops on an error keeps its arrays reachable until it exits; the run-time library records them).
#[test]
fn the_aot_executables_that_stop_on_an_apl_error_lose_no_block() {
    require_valgrind();
    let directory = scratch_directory("errors");
    let mut programs: Vec<PathBuf> = std::fs::read_dir(repository_root().join("apl-tests/errors"))
        .expect("apl-tests/errors exists")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "apl"))
        .collect();
    programs.sort();
    let mut checked_count = 0;
    let mut failures = Vec::new();
    for program in &programs {
        let Ok(executable) = build(program, &directory) else {
            continue;
        };
        checked_count += 1;
        let native = Command::new(&executable)
            .current_dir(repository_root())
            .output()
            .expect("the executable runs");
        let checked = run_under_memcheck(&executable);
        if native.status.code() != Some(1) || checked.status.code() != Some(1) || checked.stderr != native.stderr {
            failures.push(format!(
                "{}: exit status {:?} natively, {:?} under valgrind; standard error under valgrind:\n{}",
                program.display(),
                native.status.code(),
                checked.status.code(),
                String::from_utf8_lossy(&checked.stderr)
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&directory);
    assert!(checked_count >= 20, "only {checked_count} error programs compiled");
    assert!(
        failures.is_empty(),
        "{} of {checked_count} error programs fail the memory checks:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The memcheck options catch what they must: a C program that loses a block exits with status 99 under them.
#[test]
fn the_memcheck_options_report_a_lost_block() {
    require_valgrind();
    let directory = scratch_directory("leak");
    let source = directory.join("leak.c");
    std::fs::write(
        &source,
        "#include <stdlib.h>\n#include <stdio.h>\nint main(void) {\n  volatile char *lost = malloc(100);\n  \
         lost[0] = 1;\n  printf(\"%d\\n\", lost[0]);\n  lost = 0;\n  return 0;\n}\n",
    )
    .expect("the source is written");
    let executable = directory.join("leak");
    let compiled = Command::new("cc")
        .arg("-O0")
        .arg(&source)
        .arg("-o")
        .arg(&executable)
        .status()
        .expect("cc runs (scripts/setup.sh installs a C toolchain)");
    assert!(compiled.success());
    let checked = run_under_memcheck(&executable);
    let _ = std::fs::remove_dir_all(&directory);
    assert_eq!(
        checked.status.code(),
        Some(99),
        "{}",
        String::from_utf8_lossy(&checked.stderr)
    );
    assert!(String::from_utf8_lossy(&checked.stderr).contains("definitely lost"));
}
