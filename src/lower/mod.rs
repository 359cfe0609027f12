//! Lowering: the typed TAIL program (after `crate::tail::infer::infer_program`) to the loop IR (`crate::loops`)
//! through hybrid pull arrays (digest §4.2). It knows TAIL and the loop IR, not LLVM or any other backend.
//!
//! - [`lower`]: the walk over TAIL. Arrays are pull arrays (index functions in flat or shaped form, see [`pull`]) until
//!   an operation or the use-count rule materialises them (`fusion.rs` decides which shared arrays stay pull arrays).
//!   Reductions, scans (`scan.rs`: in chunks, a work-efficient parallel scan), structural operations and searches
//!   have their own files; `loop_state.rs` lowers the loops and conditionals over a state of scalars and arrays
//!   (`⍣`, the loops of tail-recursive dfns, guards).
//! - [`input`]: the inputs of a REPL line, lowered to blocks the line's entry function binds.
//! - At its end, [`lower_program`] runs five rewrites of the IR (`crate::loops::passes`): invariant mutables,
//!   overflow checks, index simplification, interchange and row fusion (on the program and on each function).
//!
//! Entry points: [`lower_program`] (then `crate::loops::check::check_program` and `crate::loops::interp::run_program`)
//! and [`input::lower_line_program`]; [`dump`] for the printed form.

mod functions;
mod fusion;
pub mod input;
mod loop_state;
#[allow(clippy::module_inception)] // the lowering proper; `crate::lower` re-exports its entry point
pub mod lower;
pub mod pull;
mod random;
mod reduce;
mod scalar_rewrite;
mod scan;
mod search;
mod structural;

pub use crate::loops::LowerError;
pub use lower::lower_program;

/// `aplc dump --stage loops`: the typed TAIL program lowered, checked and printed.
pub fn dump(program: &crate::tail::Program) -> Result<String, LowerError> {
    let lowered = lower_program(program)?;
    crate::loops::check::check_program(&lowered)
        .map_err(|error| LowerError::ill_typed(format!("internal: {error}")))?;
    Ok(crate::loops::print_program(&lowered))
}
