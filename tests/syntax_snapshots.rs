//! Snapshot tests of the syntax layer over the file corpus: every `apl-tests/syntax/ok/*.apl` parses, and its AST
//! (in the printer's S-expression form) is snapshotted; every `apl-tests/syntax/errors/*.apl` fails to parse, and its
//! rendered diagnostics (source line, caret, code, help) are snapshotted.

use aplc::source::SourceFile;
use aplc::syntax::{parse_program, print_program, render_errors_plain};

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
