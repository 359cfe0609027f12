//! The TAIL optimiser (digest §2.9): TAIL-to-TAIL passes, one file per pass, composed into a pipeline in
//! [`crate::pass::tail_pipeline`].
//!
//! Every pass preserves the meaning of the program exactly, including its APL errors and its effects: what may be
//! dropped or moved is decided by the *safe* predicate in [`safety`]. Every pass also keeps the program's type
//! annotations correct, so that the checker accepts the result (see `pass.rs`); rewrites that make a type more
//! precise are not done at the few positions where that could upset the checker (see [`traverse`]).
//!
//! Knows nothing of APL syntax or of the backends.

pub mod dead_code;
pub mod float;
pub mod fold;
pub mod inline;
pub mod peephole;
pub mod safety;
pub mod shapes;
pub mod traverse;

pub use dead_code::eliminate_dead_code;
pub use float::float_lets;
pub use fold::fold_constants;
pub use inline::inline_lets;
pub use peephole::simplify_peepholes;
