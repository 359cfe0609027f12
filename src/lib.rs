//! aplc: an optimising compiler for a statically typable subset of Dyalog-style APL.
//!
//! The modules follow the pipeline (README.md, "Architecture"): `syntax` (APL text to AST), `tail` (the typed array
//! intermediate language with its reference interpreter), `elab` (APL AST to TAIL), `runtime` (what compiled and
//! interpreted programs share at run time: display, errors), `driver` (the only module that touches files) and
//! `diagnostics` (each error reported once, as text or JSON).

pub mod codegen;
pub mod diagnostics;
pub mod driver;
pub mod elab;
pub mod loops;
pub mod lower;
pub mod mem;
pub mod opt;
pub mod pass;
pub mod process;
pub mod repl;
pub mod runtime;
pub mod source;
pub mod syntax;
pub mod tail;
pub mod tune;
