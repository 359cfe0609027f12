//! TAIL, the typed array intermediate language (digest §2): types, the operator table, type inference and checking,
//! a printer and parser for the concrete syntax, and the reference interpreter that is the oracle for every backend.
//!
//! Knows nothing of APL syntax or of anything downstream (optimiser, loops, codegen).
//!
//! Entry points:
//! - [`parse_program`] / [`print_program`] / [`print_type`]: the concrete syntax (`let v0:<int>3 = [1,2,3] in ...`).
//! - [`infer::infer_program`]: infers types and fills in every missing annotation.
//! - [`check::check_program`]: verifies a fully annotated program (run after every optimiser pass).
//! - [`print_value::printing_program_value`]: a `.tail` program made to print its value, as the thesis' interpreter
//!   does, so that every backend prints it.
//! - [`interp::eval_program`]: evaluates a program against a [`interp::Host`] that does printing, files and time
//!   ([`interp::MemoryHost`] records output and serves files from memory).
//!
//! Modules: `ast` (types, expressions), `ops` (the one operator table: names, schemes, meaning), `types`
//! (unification and subtyping), `infer` and `check`, `printer` and `parser`, `value` (run-time values), `interp`
//! (evaluation), `scalar_ops` and `array_ops` (the semantics of the operators), `error`.
//!
//! # Where this TAIL differs from the thesis (and why)
//! - Fill elements come from the element type, so `take`, `reshape` and `first` take no default argument (as in
//!   the SML implementation); `reduce(f, n, A)` and `scan(f, n, A)` take a neutral element (reduce uses it for
//!   empty rows; the interpreter's scan needs none).
//! - `reduce` computes APL's right fold without the neutral element on non-empty rows, so a neutral element that is
//!   not an identity of f (user functions) cannot change a result; `scan` is APL's scan (each prefix reduced).
//! - `update(A, I, v)` is functional: it returns the updated array and the front end rebinds the name. There is no
//!   store, so the unsound rule 3.4 never meets a mutation; ⊆s is still provided (`types::SubtypeRules`).
//! - `power` and `condScl` work on any type (tuples of arrays included); `powerUntil(f, p, x)` is `f⍣p`: it stops
//!   when `p(f x, x)` holds.
//! - `print(pp, x)`, `format(pp, x)` and `formatMatrix(pp, x)` take `⎕PP`; zero-argument ops are written `pi()`,
//!   `zilde()`, `nowi()`.
//! - The bitwise ops (`andi`, `shli`, ...) are Dyalog's `⎕INT32...` functions: 32-bit two's complement.
//! - `i2b` and `d2i` are checked conversions (DOMAIN ERROR for `~2` or `2.5⍴x`).
//! - Doubles compare with APL's comparison tolerance (⎕CT 1E¯14) in `eqd`, `ltd`, ..., `floor`, `ceil`, `resd`.
//! - Integers are 64 bits; integer overflow wraps.

pub mod array_ops;
pub mod ast;
pub mod check;
pub mod error;
pub mod infer;
pub mod interp;
pub mod ops;
pub mod parser;
pub mod print_value;
pub mod printer;
pub mod scalar_ops;
pub mod types;
pub mod value;

pub use ast::{BaseType, Expr, ExprKind, Op, Program, Shape, Type, TypeScheme};
pub use error::{SyntaxError, TypeError};
pub use parser::{parse_program, parse_type};
pub use printer::{print_expr, print_program, print_type};
