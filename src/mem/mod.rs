//! The memory stage: where arrays live.
//!
//! The memory IR annotates every materialised array with the memory block it lives in and an LMAD (linear memory
//! access descriptor) mapping its indices to addresses in that block. Layout changes (transpose, slices, take and
//! drop, row indexing, reverse, row-major reshape) only change the LMAD; a copy appears only where one LMAD cannot
//! express the result.
//!
//! This module so far holds the pure algebra the stage is built on, and knows nothing of the other IRs:
//! - [`term`]: symbolic integer terms over size variables (`n*m`, `2*n + 1`) and sign decisions on them;
//! - [`lmad`]: LMADs and their O(rank) layout operations;
//! - [`lmad::overlap`]: the conservative test that two LMADs touch disjoint addresses;
//! - [`lmad::parse`]: reading printed terms, LMADs and array annotations back.

pub mod lmad;
pub mod term;

pub use lmad::overlap::{disjoint, disjoint_with_bounds};
pub use lmad::parse::{parse_array_annotation, parse_lmad, parse_term, ArrayAnnotation, LmadParseError};
pub use lmad::{Dim, DimSlice, Lmad, LmadError};
pub use term::{Term, TermEvaluationError, VariableBounds};
