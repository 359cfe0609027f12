//! The rewrites of the loop IR after lowering. Each takes a well-formed program (one that
//! [`check_program`](crate::loops::check::check_program) accepts) and returns one that means the same, output and
//! errors included; they read and write only the loop IR (`crate::loops`), never TAIL lowering or LLVM.
//!
//! - Run by lowering at its end (`crate::lower::lower_program`): `invariant_mutables` makes `let`s of the mutables
//!   that never change (the shape of a `⍣` state whose step keeps it), `overflow_checks` turns APL's checked int
//!   arithmetic into wrapping index arithmetic where value ranges prove it cannot overflow, `index_simplify` drops residues and floor quotients
//!   of affine index arithmetic that the ranges of the loop indices make redundant, `interchange` puts rows of
//!   reductions in i-k-j order when the innermost loop then reads contiguously (and makes the other rows' folds
//!   nested parallel reductions), and `row_fusion` fuses a loop that
//!   writes an array row by row with the loop that reads it row by row, contracting the array to one row.
//! - [`memory_passes`]: the passes over blocks after lowering ([`size_versions`] (the rest of a program after a size
//!   read at run time, again for sizes below 2^31, where the checks that bound decides go), [`rematerialise`], [`in_place`], [`hoist`] with
//!   [`double_buffer`], [`product_ranges`] (a reduction over R×Y elements read modulo Y becomes R row reductions,
//!   without a division per element), then [`parallelise`], [`step_interchange`] (a `⍣` of element-wise steps runs strip by
//!   strip), [`register_tiles`] (a matrix product's rows eight at a time, 8×16 results in registers along k), and
//!   [`index_split`], which cuts the index range of stencil loops into an interior without selects and thin
//!   borders, and last [`narrow_storage`], which stores the int blocks whose values provably fit 8, 16 or 32 bits in
//!   that width), run by the driver's `loop_program` so that every backend gets them.

pub mod double_buffer;
pub mod hoist;
pub mod in_place;
pub(crate) mod index_simplify;
pub mod index_split;
pub(crate) mod interchange;
pub(crate) mod invariant_mutables;
pub mod memory_passes;
pub mod narrow_storage;
pub mod overflow_checks;
pub mod parallelise;
pub mod product_ranges;
pub mod register_tiles;
pub mod rematerialise;
pub(crate) mod row_fusion;
pub mod size_versions;
pub mod step_interchange;
