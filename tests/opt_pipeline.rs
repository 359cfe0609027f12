//! The optimiser pipeline on whole programs: every `.tail` program in apl-tests/tail and apl-tests/tail-opt gives the
//! same output (printed lines, result display, or APL error kind) before and after the pipeline, with the checker run
//! after every pass; and snapshots of the signal and inner-product programs before and after the pipeline.

use aplc::pass::{run_pipeline, tail_pipeline, Verify};
use aplc::source::SourceFile;
use aplc::tail::infer::infer_program;
use aplc::tail::interp::{display_lines, eval_program, MemoryHost};
use aplc::tail::{parse_program, print_program, Program};

fn parse_and_infer(name: &str, text: &str) -> Program {
    let mut program =
        parse_program(&SourceFile::new(name, text)).unwrap_or_else(|e| panic!("{name}: {e} at {:?}", e.span));
    infer_program(&mut program).unwrap_or_else(|e| panic!("{name}: type error {e}"));
    program
}

/// What running a program shows: printed lines and the result's display, or the APL error's name at the end.
fn outcome(program: &Program) -> Vec<String> {
    let mut host = MemoryHost::default();
    host.files.insert("numbers.txt".to_string(), "1 2 ¯3\n40".to_string());
    let result = eval_program(program, &mut host);
    let mut lines = host.printed_lines;
    match result {
        Ok(value) => lines.extend(display_lines(&value)),
        Err(error) => lines.push(format!("error: {}", error.kind.apl_name())),
    }
    lines
}

/// The outcome a file's header comments promise: `(*> line *)` for each output line, `(*! NAME *)` for an error.
fn expected_outcome(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut error = None;
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("(*>").and_then(|r| r.strip_suffix("*)")) {
            lines.push(rest.strip_prefix(' ').unwrap_or(rest).trim_end().to_string());
        } else if let Some(rest) = line.strip_prefix("(*!").and_then(|r| r.strip_suffix("*)")) {
            error = Some(format!("error: {}", rest.trim()));
        }
    }
    lines.extend(error);
    lines
}

fn optimise(name: &str, program: &Program) -> Program {
    run_pipeline(program.clone(), &tail_pipeline(), Verify::On).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn tail_files() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("apl-tests");
    let mut files = Vec::new();
    for folder in ["tail", "tail-opt"] {
        for entry in std::fs::read_dir(root.join(folder)).expect("corpus folder") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "tail") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn optimised_corpus_programs_behave_like_the_originals() {
    let files = tail_files();
    assert!(files.len() >= 7, "the corpus is missing: {files:?}");
    for path in files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).expect("readable");
        let mut program = parse_program(&SourceFile::new(name.clone(), text.clone())).expect("corpus files parse");
        if let Err(error) = infer_program(&mut program) {
            // Nothing to optimise: the file is about the type checker.
            assert_eq!(expected_outcome(&text), ["error: TYPE ERROR"], "{name}: {error}");
            continue;
        }
        let optimised = optimise(&name, &program);
        assert_eq!(
            outcome(&program),
            expected_outcome(&text),
            "{name}: the original program"
        );
        assert_eq!(
            outcome(&optimised),
            outcome(&program),
            "{name}:\n{}",
            print_program(&optimised)
        );
        // The printed optimised program reads back as the same program.
        let printed = print_program(&optimised);
        let reparsed = parse_program(&SourceFile::new("printed", printed.clone())).expect("printed program parses");
        assert_eq!(print_program(&reparsed), printed, "{name}");
    }
}

fn before_and_after(file: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let file = file.trim_start_matches('/');
    let text = std::fs::read_to_string(&path).expect("readable");
    let program = parse_and_infer(file, &text);
    let optimised = optimise(file, &program);
    format!(
        "before:\n{}\n\nafter:\n{}\n",
        print_program(&program),
        print_program(&optimised)
    )
}

#[test]
fn signal_program_before_and_after_the_pipeline() {
    insta::assert_snapshot!(before_and_after("apl-tests/tail/signal.tail"));
}

/// Every program in apl-tests/tail-opt, among them the inner product of the thesis' Fig 3.6 (inner_product_unoptimised).
#[test]
fn optimiser_corpus_programs_before_and_after_the_pipeline() {
    insta::glob!("../apl-tests/tail-opt", "*.tail", |path| {
        let relative = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).expect("inside the crate");
        insta::assert_snapshot!(before_and_after(&relative.display().to_string()));
    });
}
