//! Pathological but valid (or invalidly deep) scripts through the `aplc` command: long assignment chains, long strands,
//! deep redundant parentheses, long programs. Each must end with its output or a clear APL error and exit status 1,
//! never a stack overflow (status 134) or a hang. Expected outputs are worked out by hand.

use std::process::Command;

struct Outcome {
    stdout: String,
    stderr: String,
    status: i32,
}

/// Runs `aplc ARGS script` on a script written to a temporary file.
fn aplc_on_script(arguments: &[&str], script: &str, file_stem: &str) -> Outcome {
    let path = std::env::temp_dir().join(format!("aplc-robust-{}-{file_stem}.apl", std::process::id()));
    std::fs::write(&path, script).expect("script written");
    let output = Command::new(env!("CARGO_BIN_EXE_aplc"))
        .args(arguments)
        .arg(&path)
        .output()
        .expect("aplc runs");
    let _ = std::fs::remove_file(&path);
    Outcome {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        status: output.status.code().unwrap_or(-1),
    }
}

#[track_caller]
fn assert_too_deep_syntax_error(outcome: &Outcome) {
    assert_eq!(outcome.status, 1, "exit status 1, not a crash");
    assert!(outcome.stderr.contains("SYNTAX ERROR"), "a syntax error");
    assert!(
        outcome.stderr.contains("aplc::syntax::too_deeply_nested"),
        "the nesting limit is the error"
    );
}

#[test]
fn long_assignment_chains_are_a_syntax_error_not_a_stack_overflow() {
    let names = format!("{}1\n", "a←".repeat(8000));
    assert_too_deep_syntax_error(&aplc_on_script(&["run", "--backend", "interp"], &names, "names"));
    let quads = format!("{}1\n", "⎕←".repeat(10_000));
    assert_too_deep_syntax_error(&aplc_on_script(&["run", "--backend", "interp"], &quads, "quads"));
}

#[test]
fn assignment_chains_within_the_limit_assign_every_name() {
    // b←a←…←7 (50 a's): every name in the chain holds 7, and ⎕← prints each time it is assigned.
    let script = format!("b←{}7\nb+a\n⎕←⎕←⎕←1 2\n", "a←".repeat(50));
    let outcome = aplc_on_script(&["run", "--backend", "interp"], &script, "short-chain");
    assert_eq!(outcome.stdout, "14\n1 2\n1 2\n1 2\n", "stderr: {}", outcome.stderr);
    assert_eq!(outcome.status, 0);
}

#[test]
fn a_strand_of_ten_thousand_vectors_compiles_and_runs() {
    // The strand prints on one line as Dyalog shows a nested vector: each vector item with a blank before it, the
    // items separated by a blank (` 1 2  1 2 ...`).
    let script = format!("{}\n", vec!["(1 2)"; 10_000].join(" "));
    let outcome = aplc_on_script(&["run", "--backend", "interp"], &script, "strand-interp");
    assert_eq!(outcome.status, 0, "stderr: {}", outcome.stderr);
    assert_eq!(outcome.stdout, format!("{}\n", vec![" 1 2"; 10_000].join(" ")));
}

#[test]
fn the_optimiser_and_lowering_take_long_programs() {
    // 2000 statements make a TAIL term 2000 lets deep, which every pass walks recursively.
    let script = format!("{}\n", vec!["(1 2)"; 2000].join(" "));
    let outcome = aplc_on_script(&["dump", "--stage", "mem"], &script, "strand-mem");
    assert_eq!(outcome.status, 0, "stderr: {}", outcome.stderr);
    assert!(outcome.stdout.contains("print"), "the dump prints the vectors");
}

#[test]
fn a_hundred_levels_of_redundant_parentheses_resolve_at_once() {
    // Each level used to double the work of name-class resolution (2^100 steps); now each item is classified once.
    let script = format!(
        "x←{}1+2{}\nx×{}10{}\n",
        "(".repeat(99),
        ")".repeat(99),
        "(".repeat(98),
        ")".repeat(98)
    );
    for backend in ["interp", "jit"] {
        let outcome = aplc_on_script(
            &["run", "--backend", backend],
            &script,
            &format!("parentheses-{backend}"),
        );
        assert_eq!(outcome.stdout, "30\n", "{backend}: {}", outcome.stderr);
        assert_eq!(outcome.status, 0);
    }
}

#[test]
fn parentheses_beyond_the_limit_are_a_syntax_error() {
    let script = format!("{}1{}\n", "(".repeat(100_000), ")".repeat(100_000));
    assert_too_deep_syntax_error(&aplc_on_script(&["check"], &script, "deep-parentheses"));
    let braces = format!("{}⍵{}\n", "{".repeat(100_000), "}".repeat(100_000));
    assert_too_deep_syntax_error(&aplc_on_script(&["check"], &braces, "deep-braces"));
}
