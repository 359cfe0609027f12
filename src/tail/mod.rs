//! TAIL, the typed array intermediate language (digest §2): types, the operator table, type inference and checking,
//! a printer and parser for the concrete syntax, and the reference interpreter that is the oracle for every backend.
//!
//! Knows nothing of APL syntax or of anything downstream (optimiser, loops, codegen).
//!
//! Entry points:
//! - [`parse_program`] / [`print_program`] / [`print_type`]: the concrete syntax (`let v0:<int>3 = [1,2,3] in ...`).
//! - [`infer::infer_program`]: infers types and fills in every missing annotation.
//! - [`check::check_program`]: verifies a fully annotated program (run after every optimiser pass).
//! - [`interp::eval_program`]: evaluates a program against a [`interp::Host`] that does printing, files and time.

pub mod array_ops;
pub mod ast;
pub mod check;
pub mod error;
pub mod infer;
pub mod interp;
pub mod ops;
pub mod parser;
pub mod printer;
pub mod scalar_ops;
pub mod types;
pub mod value;

pub use ast::{BaseType, Expr, ExprKind, Op, Program, Shape, Type, TypeScheme};
pub use error::{SyntaxError, TypeError};
pub use parser::{parse_program, parse_type};
pub use printer::{print_expr, print_program, print_type};
