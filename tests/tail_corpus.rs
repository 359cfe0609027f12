//! Runs every `.tail` program in apl-tests/tail: parse, infer, print, re-parse and check the printed program, evaluate
//! it in the reference interpreter, and compare with the expectations in the file's header comments:
//! - `(*> text *)`: one expected output line (what `print` printed, then the display of the result, ⎕PP 10);
//! - `(*! NAME *)`: the program must fail with that APL error (`TYPE ERROR` for a static type error).
//!
//! The snapshot of each file holds the inferred type and the printed, fully annotated program.

use aplc::source::SourceFile;
use aplc::tail::check::check_program;
use aplc::tail::infer::infer_program;
use aplc::tail::interp::{display_lines, eval_program, MemoryHost};
use aplc::tail::{parse_program, print_program, print_type};

struct Expectations {
    lines: Vec<String>,
    error: Option<String>,
}

fn expectations(text: &str) -> Expectations {
    let mut lines = Vec::new();
    let mut error = None;
    for line in text.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("(*>").and_then(|r| r.strip_suffix("*)")) {
            lines.push(rest.strip_prefix(' ').unwrap_or(rest).trim_end().to_string());
        } else if let Some(rest) = line.strip_prefix("(*!").and_then(|r| r.strip_suffix("*)")) {
            error = Some(rest.trim().to_string());
        }
    }
    Expectations { lines, error }
}

/// Runs one file; returns the snapshot text and checks the expectations.
fn run_file(path: &std::path::Path) -> String {
    let text = std::fs::read_to_string(path).expect("readable test file");
    let expected = expectations(&text);
    let file = SourceFile::new(path.display().to_string(), text.clone());
    let mut program = parse_program(&file).unwrap_or_else(|e| panic!("{}: {e} at {:?}", path.display(), e.span));
    let ty = match infer_program(&mut program) {
        Ok(ty) => ty,
        Err(error) => {
            assert_eq!(
                expected.error.as_deref(),
                Some("TYPE ERROR"),
                "{}: unexpected type error {error}",
                path.display()
            );
            return format!("TYPE ERROR: {error}");
        }
    };
    let printed = print_program(&program);
    // The printed program is fully annotated: it must parse back, print the same, and pass the checker.
    let reparsed = parse_program(&SourceFile::new("printed", printed.clone()))
        .unwrap_or_else(|e| panic!("{}: printed program does not parse: {e}\n{printed}", path.display()));
    assert_eq!(
        print_program(&reparsed),
        printed,
        "{}: print/parse/print",
        path.display()
    );
    let checked =
        check_program(&reparsed).unwrap_or_else(|e| panic!("{}: checker rejects: {e}\n{printed}", path.display()));
    assert_eq!(
        print_type(&checked),
        print_type(&ty),
        "{}: checker and inference disagree",
        path.display()
    );

    let mut host = MemoryHost::default();
    host.files.insert("numbers.txt".to_string(), "1 2 ¯3\n40".to_string());
    let outcome = eval_program(&program, &mut host);
    let mut lines = host.printed_lines.clone();
    match outcome {
        Ok(value) => {
            assert_eq!(
                expected.error,
                None,
                "{}: expected an error, got a value",
                path.display()
            );
            lines.extend(display_lines(&value));
        }
        Err(error) => {
            assert_eq!(
                expected.error.as_deref(),
                Some(error.kind.apl_name()),
                "{}: unexpected run-time error {error}",
                path.display()
            );
        }
    }
    assert_eq!(lines, expected.lines, "{}: output", path.display());
    format!("type: {}\n\n{printed}\n", print_type(&ty))
}

#[test]
fn tail_corpus_programs_type_check_and_evaluate_as_expected() {
    insta::glob!("../apl-tests/tail", "*.tail", |path| {
        let snapshot = run_file(path);
        insta::assert_snapshot!(snapshot);
    });
}
