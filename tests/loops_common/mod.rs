//! Shared helpers of the loop-stage tests: parse + infer a TAIL program, run it in the TAIL interpreter and through
//! the loop IR (lower, check, interpret), and report both outcomes.

#![allow(dead_code)]

pub mod generators;

use aplc::loops::check::check_program;
use aplc::loops::interp::run_program;
use aplc::loops::ir;
use aplc::loops::{print_program, RunError};
use aplc::lower::lower_program;
use aplc::source::SourceFile;
use aplc::tail::infer::infer_program;
use aplc::tail::interp::{display_lines, eval_program, MemoryHost};
use aplc::tail::parse_program;

/// What a run printed, and how it ended: `Ok(result lines)` or `Err(APL error name)`.
#[derive(Debug, PartialEq)]
pub struct Outcome {
    pub printed: Vec<String>,
    pub ended: Result<Vec<String>, String>,
}

pub fn typed_program(text: &str) -> aplc::tail::Program {
    let file = SourceFile::new("test.tail", text.to_string());
    let mut program = parse_program(&file).unwrap_or_else(|e| panic!("parse error {e} in\n{text}"));
    infer_program(&mut program).unwrap_or_else(|e| panic!("type error {e} in\n{text}"));
    program
}

pub fn run_tail(program: &aplc::tail::Program) -> Outcome {
    let mut host = MemoryHost::default();
    let ended = eval_program(program, &mut host)
        .map(|value| display_lines(&value))
        .map_err(|error| error.kind.apl_name().to_string());
    Outcome {
        printed: host.printed_lines,
        ended,
    }
}

/// Lowers and checks; panics with the printed IR when the checker rejects it.
pub fn lower_checked(program: &aplc::tail::Program) -> Result<ir::Program, aplc::loops::LowerError> {
    let lowered = lower_program(program)?;
    if let Err(error) = check_program(&lowered) {
        panic!("{error}\n{}", print_program(&lowered));
    }
    Ok(lowered)
}

pub fn run_loops(program: &ir::Program) -> Outcome {
    let mut host = MemoryHost::default();
    let ended = match run_program(program, &mut host) {
        Ok(value) => Ok(display_lines(&value)),
        Err(RunError::Apl(error)) => Err(error.kind.apl_name().to_string()),
        Err(RunError::Internal(message)) => panic!("internal error: {message}\n{}", print_program(program)),
    };
    Outcome {
        printed: host.printed_lines,
        ended,
    }
}

/// `aplc run --backend B file` as a child process of the built `aplc` (native code ends its process on an APL error,
/// so jit and aot cannot run in the test's own process).
pub fn run_aplc_child(path: &std::path::Path, backend: &str) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_aplc"))
        .args(["run", "--backend", backend])
        .arg(path)
        .output()
        .expect("the aplc binary runs")
}

/// The printed IR of a program's lowering (panics when lowering fails).
pub fn loop_ir(text: &str) -> (ir::Program, String) {
    let program = typed_program(text);
    let lowered = lower_checked(&program).unwrap_or_else(|e| panic!("{e} for\n{text}"));
    let printed = print_program(&lowered);
    (lowered, printed)
}

/// Parses hand-written loop IR, checks it, runs `pass`, checks the result, and requires both to run alike (what they
/// print and how they end); returns the rewritten program as printed.
pub fn apply_pass(pass: fn(ir::Program) -> ir::Program, text: &str) -> String {
    let program = aplc::loops::parser::parse_program(text).unwrap_or_else(|error| panic!("{error}\n{text}"));
    check_program(&program).unwrap_or_else(|error| panic!("input: {error}\n{text}"));
    let rewritten = pass(program.clone());
    let printed = print_program(&rewritten);
    check_program(&rewritten).unwrap_or_else(|error| panic!("output: {error}\n{printed}"));
    assert_eq!(run_loops(&program), run_loops(&rewritten), "{printed}");
    printed
}
