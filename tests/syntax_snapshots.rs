//! Snapshot tests of the syntax layer over the file corpus: every `apl-tests/syntax/ok/*.apl` parses, and its AST
//! (in the printer's S-expression form) is snapshotted; every `apl-tests/syntax/errors/*.apl` fails to parse, and its
//! rendered diagnostics (source line, caret, code, help) are snapshotted.

mod syntax_support;

use aplc::source::SourceFile;
use aplc::syntax::ast::Program;
use aplc::syntax::{parse_program, print_program, print_program_as_apl, render_errors_plain};
use syntax_support::without_label_line_numbers;

fn read_corpus_file(path: &std::path::Path) -> SourceFile {
    let text = std::fs::read_to_string(path).expect("corpus files are readable UTF-8");
    let name = path.file_name().expect("a file name").to_string_lossy().into_owned();
    SourceFile::new(name, text)
}

#[test]
fn ok_corpus_parses_and_prints() {
    insta::glob!("../apl-tests/syntax/ok", "*.apl", |path| {
        let file = read_corpus_file(path);
        match parse_program(&file) {
            Ok(program) => insta::assert_snapshot!(print_program(&program)),
            Err(errors) => panic!("{} should parse:\n{}", file.name(), render_errors_plain(&errors)),
        }
    });
}

#[test]
fn error_corpus_reports_syntax_errors() {
    insta::glob!("../apl-tests/syntax/errors", "*.apl", |path| {
        let file = read_corpus_file(path);
        match parse_program(&file) {
            Ok(program) => panic!(
                "{} should not parse, but gave:\n{}",
                file.name(),
                print_program(&program)
            ),
            Err(errors) => {
                assert!(!errors.errors.is_empty());
                insta::assert_snapshot!(render_errors_plain(&errors));
            }
        }
    });
}

/// The statements of a program in the S-expression form, without the comments (which the APL printer drops unless
/// they are annotations) and with label line numbers blanked out (`(label L _)`): they follow the layout, which the
/// APL printer does not keep.
fn printed_statements(program: &Program) -> String {
    let printed = print_program(&Program {
        statements: program.statements.clone(),
        comments: Vec::new(),
    });
    without_label_line_numbers(&printed)
}

#[test]
fn ok_corpus_round_trips_through_the_apl_printer() {
    insta::glob!("../apl-tests/syntax/ok", "*.apl", |path| {
        let file = read_corpus_file(path);
        let program = parse_program(&file).expect("the ok corpus parses");
        let reprinted = print_program_as_apl(&program);
        let reparsed = match parse_program(&SourceFile::new("reprinted.apl", reprinted.clone())) {
            Ok(reparsed) => reparsed,
            Err(errors) => panic!(
                "{}: the reprinted text does not parse:\n{}",
                file.name(),
                render_errors_plain(&errors)
            ),
        };
        assert_eq!(
            printed_statements(&reparsed),
            printed_statements(&program),
            "{}:\n{reprinted}",
            file.name()
        );
        assert_eq!(
            print_program_as_apl(&reparsed),
            reprinted,
            "printing is idempotent for {}",
            file.name()
        );
    });
}

/// grammar.md promises an example of every syntax error code in the error corpus: check that each code in its table
/// appears in at least one snapshot of the error corpus.
#[test]
fn every_documented_error_code_has_an_example_in_the_error_corpus() {
    let grammar = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/grammar.md")).expect("grammar.md");
    let documented_codes: Vec<&str> = grammar
        .lines()
        .filter_map(|line| line.strip_prefix("| `aplc::syntax::"))
        .filter_map(|rest| rest.split('`').next())
        .collect();
    assert!(
        documented_codes.len() >= 15,
        "the code table in grammar.md is missing: {documented_codes:?}"
    );
    let snapshot_folder = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots");
    let rendered_errors: String = std::fs::read_dir(snapshot_folder)
        .expect("the snapshot folder")
        .map(|entry| entry.expect("a snapshot file").path())
        .filter(|path| path.to_string_lossy().contains("error_corpus_reports_syntax_errors@"))
        .map(|path| std::fs::read_to_string(path).expect("a readable snapshot"))
        .collect();
    for code in documented_codes {
        assert!(
            rendered_errors.contains(&format!("aplc::syntax::{code}\n")),
            "no example of aplc::syntax::{code}"
        );
    }
}
