//! The loop stage: TAIL lowered to an imperative loop IR through hybrid pull arrays (digest §4.2).
//!
//! - [`ir`]: the IR (scalar variables, loads/stores on memory blocks, `for`/`while`/`if`, alloc/free, runtime calls).
//! - [`lower`]: TAIL (typed by `crate::tail::infer::infer_program`) to loop IR. Arrays are pull arrays (index functions
//!   in flat or shaped form, see [`pull`]) until an operation or the use-count rule materialises them.
//! - [`printer`]: the text form; [`check`]: structural checks; [`interp`]: runs the IR with real buffers.
//! - [`memory`]: layouts as LMADs (`crate::mem`); `view` statements are the memory decorations of let-bound arrays.
//!
//! Entry points: [`lower::lower_program`], then [`check::check_program`] and [`interp::run_program`]; [`dump`] for
//! the printed form.

pub mod check;
pub mod error;
pub mod input;
pub mod interp;
pub mod ir;
pub mod lower;
pub mod memory;
pub mod parser;
pub mod printer;
pub mod pull;
mod random;
mod reduce;
mod search;
mod structural;

pub use error::{CheckError, LowerError, RunError};
pub use lower::lower_program;
pub use printer::print_program;

/// `aplc dump --stage loops`: the typed TAIL program lowered, checked and printed.
pub fn dump(program: &crate::tail::Program) -> Result<String, LowerError> {
    let lowered = lower_program(program)?;
    check::check_program(&lowered).map_err(|error| LowerError::ill_typed(format!("internal: {error}")))?;
    Ok(print_program(&lowered))
}
