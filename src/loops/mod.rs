//! The loop IR and its tools: what the code generator (and any other backend) reads, independent of how the program
//! was produced. It knows nothing of TAIL lowering (`crate::lower`) or of LLVM (`crate::codegen`). From TAIL it takes
//! the scalar operators and their semantics (`crate::tail::ast::Op`, `crate::tail::scalar_ops`), and the interpreter
//! the TAIL interpreter's host and values; layouts are the memory stage's LMADs (`crate::mem`).
//!
//! - [`ir`]: the IR (scalar variables, loads/stores on memory blocks, `for`/`while`/`if`, alloc/free, runtime calls).
//! - [`printer`]: the text form; [`parser`]: reads it back; [`check`]: structural checks; [`interp`]: runs the IR with
//!   real buffers; [`error`]: the errors of lowering, checking and running.
//! - [`memory`]: layouts as LMADs (`crate::mem`); `view` statements are the memory decorations of let-bound arrays.
//!   [`memory_printer`] prints them for `aplc dump --stage mem`, and [`structure`] counts the constructs the corpus
//!   checks.
//! - [`parameters`]: the work estimates and the constructs too small ever to run in parallel (`aplc dump --stage
//!   params`, and the code generator's parallel loops); [`rewrite`]: small tools for reading and rewriting the IR.
//! - [`passes`]: the rewrites of the IR after lowering (index simplification, interchange, row fusion, and the memory
//!   passes that end with the recognition of parallel maps).
//!
//! Entry points: [`check::check_program`], [`interp::run_program`], [`print_program`] and [`parser::parse_program`];
//! [`optimise_memory`] runs the memory passes. Lowering is `crate::lower::lower_program`.

pub mod check;
pub mod error;
pub mod interp;
pub mod ir;
pub mod memory;
pub mod memory_printer;
pub mod parameters;
pub mod parser;
pub mod passes;
pub mod printer;
pub mod rewrite;
pub mod structure;

pub use error::{CheckError, LowerError, RunError};
pub use passes::memory_passes::{optimise_memory, optimise_memory_for_devices};
pub use printer::print_program;
