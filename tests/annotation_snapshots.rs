//! `aplc check` on annotated programs: every correct annotation in apl-tests/types/annotations/right_*.apl is
//! accepted, and every wrong one (wrong_*.apl) is rejected with a TYPE ERROR whose diagnostic points at the annotation
//! and at the use that violates it; those diagnostics are snapshotted with miette's plain rendering.

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
        let error = check(&source_of(path)).expect_err("a wrong annotation must be rejected");
        assert_eq!(error.apl_name(), "TYPE ERROR", "{}", path.display());
        let rendered = error.render_plain();
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
