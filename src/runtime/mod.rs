//! Compiler-side run-time definitions: the APL errors that interpreters and constant folding raise, with spans into
//! the source. The display of values lives in the run-time library crate (`runtime/`, `aplc_runtime`), which compiled
//! programs link.

pub mod error;
pub mod float_mode;
