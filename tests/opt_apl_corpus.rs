//! The optimiser on real front-end output: every `.apl` program under apl-tests/ (except the parser snapshots in
//! syntax/) that parses, elaborates and type-checks is run through the optimiser pipeline with the checker after
//! every pass, and must give the same outcome in the TAIL interpreter as the unoptimised program (printed lines and
//! result, or the same APL error kind after the same lines). Programs that the front end rejects are not the
//! optimiser's concern and are skipped, but most of the corpus must get through.

mod corpus_support;

use aplc::pass::{run_pipeline, tail_pipeline, Verify};
use aplc::source::SourceFile;
use aplc::tail::interp::{display_lines, eval_program, MemoryHost};
use aplc::tail::{print_program, Program};
use corpus_support::corpus_apl_files;
use std::path::Path;

fn outcome(program: &Program) -> Vec<String> {
    let mut host = MemoryHost::default();
    let result = eval_program(program, &mut host);
    let mut lines = host.printed_lines;
    match result {
        Ok(value) => lines.extend(display_lines(&value)),
        Err(error) => lines.push(format!("error: {}", error.kind.apl_name())),
    }
    lines
}

/// The elaborated, annotated TAIL of an APL file, or `None` when the front end rejects it.
fn front_end(path: &Path) -> Option<Program> {
    let text = std::fs::read_to_string(path).expect("readable");
    let file = SourceFile::new(path.display().to_string(), text);
    let ast = aplc::syntax::parse_program(&file).ok()?;
    let mut program = aplc::elab::elaborate_program(&ast, &file).ok()?;
    aplc::tail::infer::infer_program(&mut program).ok()?;
    Some(program)
}

#[test]
fn optimised_apl_corpus_programs_behave_like_the_originals() {
    // Recursive functions nest as deep as the depth limit in the interpreters, which need more than a test
    // thread's stack for that.
    aplc::driver::on_pipeline_stack(|| {
        let files = corpus_apl_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("apl-tests"));
        let mut optimised_count = 0;
        let mut problems = Vec::new();
        for path in &files {
            let Some(program) = front_end(path) else {
                continue;
            };
            match run_pipeline(program.clone(), &tail_pipeline(), Verify::On) {
                Err(error) => problems.push(format!("{}: {error}", path.display())),
                Ok(optimised) => {
                    let (before, after) = (outcome(&program), outcome(&optimised));
                    if before != after {
                        problems.push(format!(
                            "{}: outcome {before:?} became {after:?}\n{}",
                            path.display(),
                            print_program(&optimised)
                        ));
                    }
                    optimised_count += 1;
                }
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n\n"));
        assert!(
            optimised_count * 2 > files.len(),
            "only {optimised_count} of {} corpus programs reached the optimiser",
            files.len()
        );
    })
}
