//! The APL corpus through the loop IR: every `.apl` program under apl-tests/ that the front end turns into typed TAIL
//! runs in the TAIL interpreter and through the loop IR (lowered, checked, interpreted). Both must print the same lines
//! and end the same way. Programs whose lowering hits a construct the loop stage does not support yet are counted by
//! construct (they must fail with a NONCE error value, never a panic) and listed when the test runs. Each lowered
//! program is also printed, parsed back and printed again (the same text), and it is the parsed one that runs.
//! Every program is compared twice: as the front end produced it, and after the TAIL optimiser's pipeline.

mod corpus_support;
mod loops_common;

use corpus_support::corpus_apl_files;
use loops_common::{run_loops, run_tail};
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

#[test]
fn apl_corpus_programs_behave_the_same_through_the_loop_ir() {
    // Recursive functions nest as deep as the depth limit in the interpreters, which need more than a test
    // thread's stack for that.
    aplc::driver::on_pipeline_stack(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("apl-tests");
        let mut compared = 0;
        let mut unsupported: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut failures = Vec::new();
        for path in corpus_apl_files(&root) {
            let name = path.strip_prefix(&root).expect("under root").display().to_string();
            let text = std::fs::read_to_string(&path).expect("readable");
            let file = aplc::source::SourceFile::new(name.clone(), text);
            // Programs the front end rejects (syntax, type or elaboration errors) have no TAIL to compare.
            let Ok(program) = aplc::driver::typed_tail(&file) else {
                continue;
            };
            // The optimised program, which is what the backends receive, is compared in the same way.
            let optimised =
                aplc::pass::run_pipeline(program.clone(), &aplc::pass::tail_pipeline(), aplc::pass::Verify::Off).ok();
            for (name, program) in std::iter::once((name.clone(), program))
                .chain(optimised.map(|optimised| (format!("{name} (optimised)"), optimised)))
            {
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    let lowered = aplc::lower::lower_program(&program)?;
                    if let Err(error) = aplc::loops::check::check_program(&lowered) {
                        panic!("{error}");
                    }
                    // The printed IR reads back to a program that prints the same.
                    let printed = aplc::loops::print_program(&lowered);
                    let reparsed =
                        aplc::loops::parser::parse_program(&printed).unwrap_or_else(|e| panic!("{e}\n{printed}"));
                    assert_eq!(aplc::loops::print_program(&reparsed), printed, "print/parse/print");
                    Ok((run_tail(&program), run_loops(&reparsed)))
                }));
                match outcome {
                    Ok(Ok((expected, actual))) if expected == actual => compared += 1,
                    Ok(Ok((expected, actual))) => {
                        failures.push(format!("{name}: TAIL {expected:?}\n  loops {actual:?}"));
                    }
                    Ok(Err(aplc::loops::LowerError::Unsupported { what })) => {
                        unsupported.entry(what).or_default().push(name);
                    }
                    Ok(Err(error)) => failures.push(format!("{name}: lowering failed: {error}")),
                    Err(_) => failures.push(format!("{name}: panicked (see above)")),
                }
            }
        }
        for (what, files) in &unsupported {
            println!("NONCE {what}: {} files ({})", files.len(), files.join(", "));
        }
        println!("compared {compared} programs");
        assert!(
            failures.is_empty(),
            "{} failures:\n{}",
            failures.len(),
            failures.join("\n")
        );
        assert!(compared >= 400, "only {compared} programs compared");
    })
}
