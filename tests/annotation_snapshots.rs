//! `aplc check` on annotated programs: every correct annotation in apl-tests/types/annotations/right_*.apl is
//! accepted, every wrong one (wrong_*.apl) is rejected with a TYPE ERROR whose diagnostic points at the annotation
//! and at the use or the part of the dfn's body that violates it (wrong_uncalled_*.apl: dfns that are never called,
//! checked generically), and every malformed one (malformed_*.apl) is a SYNTAX ERROR at the annotation; those
//! diagnostics are snapshotted with miette's plain rendering.

use aplc::driver::check;
use aplc::source::SourceFile;
use std::path::Path;

fn source_of(path: &Path) -> SourceFile {
    let text = std::fs::read_to_string(path).expect("annotation test file is readable");
    let name = path
        .strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(path)
        .display()
        .to_string();
    SourceFile::new(name, text)
}

/// The rendered diagnostic of a program that must be rejected with the APL error `apl_name`.
fn rendered_rejection(path: &Path, apl_name: &str) -> String {
    let error = check(&source_of(path)).expect_err("a wrong or malformed annotation must be rejected");
    assert_eq!(error.apl_name(), apl_name, "{}", path.display());
    error.render_plain()
}

#[test]
fn correct_annotations_are_accepted() {
    let mut checked = 0;
    insta::glob!("../apl-tests/types/annotations", "right_*.apl", |path| {
        if let Err(error) = check(&source_of(path)) {
            panic!("{} was rejected:\n{}", path.display(), error.render_plain());
        }
        checked += 1;
    });
    assert!(checked >= 5, "only {checked} correct annotation programs");
}

#[test]
fn wrong_annotations_are_rejected_at_the_annotation_and_the_use() {
    let mut rejected = 0;
    insta::glob!("../apl-tests/types/annotations", "wrong_*.apl", |path| {
        let rendered = rendered_rejection(path, "TYPE ERROR");
        assert!(
            rendered.contains("annotation"),
            "{}: the diagnostic names no annotation",
            path.display()
        );
        insta::assert_snapshot!(rendered);
        rejected += 1;
    });
    assert!(rejected >= 15, "only {rejected} wrong annotation programs");
}

#[test]
fn wrong_annotations_on_uncalled_dfns_are_rejected_at_the_body() {
    let mut rejected = 0;
    insta::glob!("../apl-tests/types/annotations", "wrong_uncalled_*.apl", |path| {
        let rendered = rendered_rejection(path, "TYPE ERROR");
        assert!(
            rendered.contains("in the body"),
            "{}: no label in the body",
            path.display()
        );
        assert!(
            !rendered.contains("used here"),
            "{}: the dfn is never used",
            path.display()
        );
        rejected += 1;
    });
    assert!(rejected >= 10, "only {rejected} uncalled wrong annotation programs");
}

#[test]
fn malformed_annotations_are_syntax_errors_at_the_annotation() {
    let mut rejected = 0;
    insta::glob!("../apl-tests/types/annotations", "malformed_*.apl", |path| {
        let rendered = rendered_rejection(path, "SYNTAX ERROR");
        assert!(rendered.contains("malformed type annotation"), "{}", path.display());
        insta::assert_snapshot!(rendered);
        rejected += 1;
    });
    assert!(rejected >= 3, "only {rejected} malformed annotation programs");
}
