//! The loop stage: TAIL lowered to an imperative loop IR through hybrid pull arrays (digest §4.2).
//!
//! - [`ir`]: the IR (scalar variables, loads/stores on memory blocks, `for`/`while`/`if`, alloc/free, runtime calls).
//! - [`lower`]: TAIL (typed by `crate::tail::infer::infer_program`) to loop IR. Arrays are pull arrays (index functions
//!   in flat or shaped form, see [`pull`]) until an operation or the use-count rule materialises them.
//! - [`printer`]: the text form; [`check`]: structural checks; [`interp`]: runs the IR with real buffers.
//! - [`memory`]: layouts as LMADs (`crate::mem`); `view` statements are the memory decorations of let-bound arrays.
//! - [`memory_passes`]: the passes over blocks after lowering ([`rematerialise`], [`in_place`], [`hoist`]), with
//!   [`memory_printer`] for `aplc dump --stage mem` and [`structure`] for the counts the corpus checks.
//! - After lowering, three rewrites of the IR (in `lower_program`): `index_simplify` drops residues and floor quotients
//!   of affine index arithmetic that the ranges of the loop indices make redundant, `interchange` puts rows of
//!   reductions in i-k-j order when the innermost loop then reads contiguously, and `row_fusion` fuses a loop that
//!   writes an array row by row with the loop that reads it row by row, contracting the array to one row.
//!
//! Entry points: [`lower::lower_program`], then [`check::check_program`] and [`interp::run_program`]; [`dump`] for
//! the printed form.

pub mod check;
pub mod double_buffer;
pub mod error;
mod fusion;
pub mod hoist;
pub mod in_place;
mod index_simplify;
pub mod input;
mod interchange;
pub mod interp;
pub mod ir;
pub mod lower;
pub mod memory;
pub mod memory_passes;
pub mod memory_printer;
pub mod parallelise;
pub mod parameters;
pub mod parser;
pub mod printer;
pub mod pull;
mod random;
mod reduce;
pub mod rematerialise;
pub mod rewrite;
mod row_fusion;
mod scalar_rewrite;
mod search;
mod structural;
pub mod structure;

pub use error::{CheckError, LowerError, RunError};
pub use lower::lower_program;
pub use memory_passes::optimise_memory;
pub use printer::print_program;

/// `aplc dump --stage loops`: the typed TAIL program lowered, checked and printed.
pub fn dump(program: &crate::tail::Program) -> Result<String, LowerError> {
    let lowered = lower_program(program)?;
    check::check_program(&lowered).map_err(|error| LowerError::ill_typed(format!("internal: {error}")))?;
    Ok(print_program(&lowered))
}
