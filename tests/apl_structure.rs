//! Structure checks over the apl-tests corpus, and the memory passes verified on every corpus program.
//!
//! 1. `⍝# STAGE COUNTER N` lines (apl-tests/README.md): STAGE is `loops` (the loop IR as lowering produced it) or
//!    `mem` (after the memory passes); COUNTER is one of `aplc::loops::structure::COUNTER_NAMES` (allocs,
//!    allocs-in-loops, loops, copies, frees), counted in the program text. An unknown stage or counter, or a malformed
//!    line, is a failure.
//! 2. For every corpus program that lowers: the loop-IR checker runs after every memory pass (a failure names the
//!    pass), the program prints the same in the loop interpreter before and after the passes, and the `mem` dump
//!    reads back with the loop-IR parser and prints again the same text.
//!
//! All files run, and every problem is reported together at the end.

mod corpus_support;

use aplc::loops::ir::Program;
use aplc::loops::memory_printer::print_memory_program;
use aplc::loops::passes::memory_passes::memory_pipeline;
use aplc::loops::structure::{structure_counts, COUNTER_NAMES};
use aplc::source::SourceFile;
use aplc::tail::interp::MemoryHost;
use corpus_support::corpus_apl_files;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// One `⍝#` line.
#[derive(Debug, PartialEq)]
struct StructureCheck {
    line: usize,
    stage: Stage,
    counter: String,
    expected: usize,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Stage {
    Loops,
    Mem,
    /// The OpenCL backend's kernels and host schedule (`aplc dump --stage opencl`, every construct a kernel can
    /// express on the device, as the corpus runs it).
    OpenCl,
}

/// The counters of the `opencl` stage.
const OPENCL_COUNTER_NAMES: &[&str] = &["kernels", "copies-to-host", "copies-to-host-in-loops"];

/// An `opencl` counter of the program after the memory passes for devices (as `--backend opencl` runs it).
fn opencl_counter(program: &Program, counter: &str) -> Result<usize, String> {
    let options = aplc::codegen::llvm::target::CodegenOptions {
        opencl: Some(aplc::codegen::opencl::OpenClOptions { min_work: 0 }),
        ..Default::default()
    };
    let device = aplc::codegen::llvm::opencl_program(program, &options).map_err(|error| error.to_string())?;
    Ok(match counter {
        "kernels" => device.kernels.len(),
        "copies-to-host" => device.copies_to_host,
        _ => device.copies_to_host_in_loops,
    })
}

fn parse_checks(text: &str) -> Result<Vec<StructureCheck>, String> {
    let mut checks = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix("⍝#") else {
            continue;
        };
        let line = index + 1;
        let words: Vec<&str> = rest.split_whitespace().collect();
        let [stage, counter, expected] = words.as_slice() else {
            return Err(format!("line {line}: expected `⍝# STAGE COUNTER N`"));
        };
        let stage = match *stage {
            "loops" => Stage::Loops,
            "mem" => Stage::Mem,
            "opencl" => Stage::OpenCl,
            other => return Err(format!("line {line}: unknown stage `{other}` (loops, mem or opencl)")),
        };
        if stage == Stage::OpenCl && !OPENCL_COUNTER_NAMES.contains(counter) {
            return Err(format!(
                "line {line}: unknown opencl counter `{counter}` (one of {})",
                OPENCL_COUNTER_NAMES.join(", ")
            ));
        }
        if stage != Stage::OpenCl && !COUNTER_NAMES.contains(counter) {
            return Err(format!(
                "line {line}: unknown counter `{counter}` (one of {})",
                COUNTER_NAMES.join(", ")
            ));
        }
        let expected = expected
            .parse()
            .map_err(|_| format!("line {line}: `{expected}` is not a count"))?;
        checks.push(StructureCheck {
            line,
            stage,
            counter: counter.to_string(),
            expected,
        });
    }
    Ok(checks)
}

/// What the loop interpreter printed and how the run ended (an APL error by name; internal errors panic).
fn run(program: &Program) -> (Vec<String>, Option<String>) {
    let mut host = MemoryHost::default();
    let ended = match aplc::loops::interp::run_program(program, &mut host) {
        Ok(_) => None,
        Err(aplc::loops::RunError::Apl(error)) => Some(error.kind.apl_name().to_string()),
        Err(internal) => panic!("{internal}\n{}", aplc::loops::print_program(program)),
    };
    (host.printed_lines, ended)
}

/// Runs the memory passes one by one on a lowered program, checking after each; returns the final program.
fn run_passes_checked(lowered: Program) -> Result<Program, String> {
    let mut program = lowered;
    for pass in memory_pipeline() {
        program = (pass.run)(program);
        aplc::loops::check::check_program(&program).map_err(|error| {
            format!(
                "the loop IR is ill-formed after the pass `{}`: {error}\n{}",
                pass.name,
                aplc::loops::print_program(&program)
            )
        })?;
    }
    Ok(program)
}

/// Every problem with one corpus file.
fn problems_of(name: &str, text: &str) -> Vec<String> {
    let checks = match parse_checks(text) {
        Ok(checks) => checks,
        Err(problem) => return vec![format!("bad `⍝#` line: {problem}")],
    };
    let file = SourceFile::new(name.to_string(), text.to_string());
    let lowered = match aplc::driver::lowered_loop_program(&file) {
        Ok(lowered) => lowered,
        // Programs with a front-end error, or constructs the loop stage does not support, have no loop IR; a
        // structure check on one is a failure.
        Err(_) if checks.is_empty() => return Vec::new(),
        Err(error) => return vec![format!("has `⍝#` checks but no loop IR: {}", error.render_plain())],
    };
    let optimised = match run_passes_checked(lowered.clone()) {
        Ok(optimised) => optimised,
        Err(problem) => return vec![problem],
    };
    let mut problems = Vec::new();
    let (before, after) = (run(&lowered), run(&optimised));
    if before != after {
        problems.push(format!(
            "the memory passes changed the run: {before:?} became {after:?}"
        ));
    }
    let dump = print_memory_program(&optimised);
    match aplc::loops::parser::parse_program(&dump) {
        Ok(reparsed) if print_memory_program(&reparsed) == dump => {}
        Ok(reparsed) => problems.push(format!(
            "the mem dump does not print back the same:\n{dump}\n---\n{}",
            print_memory_program(&reparsed)
        )),
        Err(error) => problems.push(format!("the mem dump does not parse: {error}\n{dump}")),
    }
    for check in checks {
        let found = match check.stage {
            Stage::OpenCl => match opencl_counter(
                &aplc::loops::optimise_memory_for_devices(lowered.clone()),
                &check.counter,
            ) {
                Ok(found) => found,
                Err(error) => {
                    problems.push(format!("line {}: no OpenCL translation: {error}", check.line));
                    continue;
                }
            },
            Stage::Loops => structure_counts(&lowered)
                .counter(&check.counter)
                .expect("a known counter"),
            Stage::Mem => structure_counts(&optimised)
                .counter(&check.counter)
                .expect("a known counter"),
        };
        if found != check.expected {
            let printed = match check.stage {
                Stage::Loops => aplc::loops::print_program(&lowered),
                Stage::Mem | Stage::OpenCl => dump.clone(),
            };
            problems.push(format!(
                "line {}: {:?} {} is {found}, expected {}\n{printed}",
                check.line, check.stage, check.counter, check.expected
            ));
        }
    }
    problems
}

#[test]
fn structure_checks_hold_and_memory_passes_keep_every_corpus_program_meaning() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("apl-tests");
    let mut failures = Vec::new();
    let mut files_with_checks = 0;
    for path in corpus_apl_files(&root) {
        let name = path.strip_prefix(&root).expect("under root").display().to_string();
        let text = std::fs::read_to_string(&path).expect("corpus file is UTF-8");
        if text.contains("⍝#") {
            files_with_checks += 1;
        }
        match catch_unwind(AssertUnwindSafe(|| problems_of(&name, &text))) {
            Ok(problems) => failures.extend(problems.into_iter().map(|problem| format!("{name}: {problem}"))),
            Err(_) => failures.push(format!("{name}: panicked (see above)")),
        }
    }
    assert!(
        files_with_checks >= 5,
        "only {files_with_checks} files have `⍝#` checks"
    );
    assert!(
        failures.is_empty(),
        "{} problems:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn structure_lines_are_parsed_and_unknown_stages_and_counters_rejected() {
    let checks = parse_checks("⍝ text\n⍝# mem allocs 0\n  ⍝# loops copies 12\n").unwrap();
    assert_eq!(
        checks,
        vec![
            StructureCheck {
                line: 2,
                stage: Stage::Mem,
                counter: "allocs".to_string(),
                expected: 0
            },
            StructureCheck {
                line: 3,
                stage: Stage::Loops,
                counter: "copies".to_string(),
                expected: 12
            },
        ]
    );
    for bad in [
        "⍝# llvm allocs 0",
        "⍝# mem allocations 0",
        "⍝# mem allocs",
        "⍝# mem allocs -1",
        "⍝# mem allocs 1 2",
    ] {
        assert!(parse_checks(bad).is_err(), "{bad} was accepted");
    }
}
