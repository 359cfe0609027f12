//! The loop stage: TAIL lowered to an imperative loop IR through hybrid pull arrays (digest §4.2).
//!
//! - [`ir`]: the IR (scalar variables, loads/stores on memory blocks, `for`/`while`/`if`, alloc/free, runtime calls).
//! - [`lower`]: TAIL (typed by `crate::tail::infer::infer_program`) to loop IR. Arrays are pull arrays (index functions
//!   in flat or shaped form, see [`pull`]) until an operation or the use-count rule materialises them.
//! - [`printer`]: the text form; [`check`]: structural checks; [`interp`]: runs the IR with real buffers.
//!
//! Entry point: [`lower::lower_program`], then [`interp::run_program`].

pub mod check;
pub mod error;
pub mod interp;
pub mod ir;
pub mod lower;
pub mod memory;
pub mod printer;
pub mod pull;
mod reduce;
mod search;
mod structural;

pub use error::{CheckError, LowerError, RunError};
pub use lower::lower_program;
pub use printer::print_program;
