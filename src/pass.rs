//! Passes as values and the optimiser pipeline in one readable place.
//!
//! A [`Pass`] is a name, a description and a function from TAIL program to TAIL program. [`tail_pipeline`] lists the
//! optimiser's passes in order; [`run_pipeline`] runs a list of passes, and with [`Verify::On`] type-checks the
//! program before the first pass and after every pass with [`crate::tail::check::check_program`]. A failure is an
//! internal compiler error that names the pass that produced the ill-typed program.
//!
//! Annotations: every pass keeps the `let` and lambda annotations correct itself (passes only move, copy or drop
//! annotated binders, and annotate the binders they create), and the pipeline never re-runs inference. The checker
//! therefore verifies what the passes actually produced; re-inferring would hide a pass that breaks annotations.
//! The input must be fully annotated, as `crate::tail::infer::infer_program` leaves it.
//!
//! The driver runs `run_pipeline(program, &tail_pipeline(), Verify::Off)` after inference (for `aplc dump --stage
//! tail-opt` and before running); the tests run it with `Verify::On`.

use crate::opt;
use crate::tail::ast::Program;
use crate::tail::error::TypeError;
use miette::Diagnostic;
use thiserror::Error;

/// One TAIL-to-TAIL pass.
#[derive(Clone, Copy)]
pub struct Pass {
    /// A short verb phrase in kebab case, used in diagnostics and dumps.
    pub name: &'static str,
    pub description: &'static str,
    pub run: fn(Program) -> Program,
}

/// Whether [`run_pipeline`] type-checks the program after every pass (on in tests, off in the driver).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verify {
    On,
    Off,
}

/// The name used in a [`PassError`] when the program was already ill-typed before the first pass.
pub const INPUT: &str = "input";

/// A pass produced a program the TAIL checker rejects: a bug in the compiler, not in the user's program.
#[derive(Clone, Debug, Error, Diagnostic, PartialEq)]
#[error("internal compiler error: the TAIL program is ill-typed after the pass `{pass}`: {error}")]
#[diagnostic(
    code(aplc::pass::verification),
    help("this is a bug in the optimiser; `aplc dump --stage tail-opt` shows the program")
)]
pub struct PassError {
    /// The pass after which the check failed ([`INPUT`] when the input itself was rejected).
    pub pass: &'static str,
    /// The checker's error.
    pub error: TypeError,
}

/// The TAIL optimiser pipeline, in order. Folding and peephole rules expose work for inlining and back, so the main
/// group runs twice; each pass is cheap (close to linear in the program size). Floating comes before inlining:
/// inlining would otherwise merge a loop-invariant `let` in a lambda body into the expression that uses it, where
/// floating can no longer see it; once floated out, the `let`'s uses are inside the lambda and inlining keeps it.
pub fn tail_pipeline() -> Vec<Pass> {
    let fold = Pass {
        name: "fold-constants",
        description: "evaluate operators on literals, fold statically known shapes, propagate literal lets",
        run: opt::fold_constants,
    };
    let peephole = Pass {
        name: "simplify-peepholes",
        description: "compose transpositions, cancel reversals, fuse each/zipWith chains, drop identity reshapes",
        run: opt::simplify_peepholes,
    };
    let inline = Pass {
        name: "inline-lets",
        description: "inline trivial lets and lets used once outside lambdas, keeping errors and effects in order",
        run: opt::inline_lets,
    };
    let dead_code = Pass {
        name: "eliminate-dead-code",
        description: "drop unused lets whose values are safe (no effect, cannot fail)",
        run: opt::eliminate_dead_code,
    };
    let float = Pass {
        name: "float-lets",
        description: "float loop-invariant lets out of lambdas, sink lets towards their first use",
        run: opt::float_lets,
    };
    vec![
        fold, peephole, float, inline, dead_code, fold, peephole, float, inline, dead_code,
    ]
}

/// Runs `passes` in order on `program`. With [`Verify::On`], checks the input and the result of every pass.
pub fn run_pipeline(program: Program, passes: &[Pass], verify: Verify) -> Result<Program, PassError> {
    if verify == Verify::On {
        check(&program, INPUT)?;
    }
    let mut program = program;
    for pass in passes {
        program = (pass.run)(program);
        if verify == Verify::On {
            check(&program, pass.name)?;
        }
    }
    Ok(program)
}

fn check(program: &Program, pass: &'static str) -> Result<(), PassError> {
    crate::tail::check::check_program(program)
        .map(|_| ())
        .map_err(|error| PassError { pass, error })
}
