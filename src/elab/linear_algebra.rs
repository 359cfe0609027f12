//! `⌹` (matrix inverse and matrix divide) on real matrices, by the prelude's Gauss-Jordan elimination with partial
//! pivoting (`prelude/prelude.apl`: `matrix_divide`, `divide_square`).
//!
//! - `⌹⍵`: a scalar's reciprocal; a vector's pseudo-inverse `⍵÷+/⍵×⍵` (the vector as one column); a square matrix's
//!   inverse; for a matrix with more rows than columns, its left inverse `(⌹(⍉⍵)+.×⍵)+.×⍉⍵`, whose product with a
//!   vector is the least-squares solution.
//! - `⍺⌹⍵`: `x` with `⍵+.×x` equal to ⍺ (a vector or a matrix with as many rows as ⍵), or closest to it in the least
//!   squares sense when ⍵ has more rows than columns (through the normal equations `((⍉⍵)+.×⍵) x = (⍉⍵)+.×⍺`, which
//!   square ⍵'s condition number: fine for the printed digits of a well-posed fit, unlike Dyalog's QR for a nearly
//!   rank-deficient ⍵). A scalar ⍵ divides.
//!
//! A singular matrix is a DOMAIN ERROR, as in Dyalog: a pivot smaller than 1E¯13 of the matrix's largest magnitude
//! is taken as zero and its reciprocal fails. A matrix with fewer rows than columns is a LENGTH ERROR when its shape
//! is known statically; with shapes known only at run time its normal equations are singular, a DOMAIN ERROR.

use super::env::{Arr, Scalar};
use super::error::{ElabError, ElabResult};
use super::ir::Base;
use super::Elaborator;
use crate::source::Span;
use crate::syntax::ast::Primitive;

impl Elaborator {
    /// `⌹⍵`.
    pub fn matrix_inverse(&mut self, argument: Arr, span: Span) -> ElabResult<Arr> {
        check_real(&argument, span)?;
        let name = match argument.rank {
            0 => return self.scalar_monadic(Primitive::Divide, argument, span),
            1 => "vector_inverse",
            2 => {
                check_not_wide(&argument, span)?;
                "matrix_inverse"
            }
            _ => return Err(ElabError::rank(span, "⌹ of an array of rank 3 or more")),
        };
        let value = self.apply_prelude_monadic(name, argument, span)?;
        self.expect_array(value, span)
    }

    /// `⍺⌹⍵`.
    pub fn matrix_divide(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        check_real(&left, span)?;
        check_real(&right, span)?;
        if right.rank == 0 {
            return self.scalar_dyadic(Primitive::Divide, left, right, span);
        }
        if right.rank == 1 && (1..=2).contains(&left.rank) {
            // A vector ⍵ is one column (`2 4 6⌹1 2 3`, a fit through the origin), and the result drops that
            // column's axis: a scalar for a vector ⍺, a vector for a matrix.
            let column = self.table(right, span)?;
            let solution = self.matrix_divide(left, column, span)?;
            let solution = self.bind(solution);
            return Ok(match solution.rank {
                1 => self.first(solution),
                _ => self.index_array(solution, vec![Some(Arr::scalar_constant(Scalar::Int(1))), None], span)?,
            });
        }
        if right.rank != 2 || !(1..=2).contains(&left.rank) {
            return Err(ElabError::nonce(span, "⌹ with these ranks")
                .with_hint("aplc's ⍺⌹⍵ takes a matrix or vector ⍵ and a vector or matrix ⍺ (or a scalar ⍵)"));
        }
        check_not_wide(&right, span)?;
        if let (Some(rows), Some(right_rows)) = (left.extents[0], right.extents[0]) {
            if rows != right_rows {
                return Err(ElabError::length(
                    span,
                    format!("⌹ of {rows} rows by {right_rows} rows"),
                ));
            }
        }
        let name = if left.rank == 1 {
            "matrix_divide_vector"
        } else {
            "matrix_divide"
        };
        let value = self.apply_prelude_dyadic(name, left, right, span)?;
        self.expect_array(value, span)
    }
}

fn check_real(array: &Arr, span: Span) -> ElabResult<()> {
    match array.base {
        Base::Char => Err(ElabError::domain(span, "⌹ of characters")),
        Base::Complex => Err(ElabError::nonce(span, "⌹ of complex numbers")),
        Base::Bool | Base::Int | Base::Double => Ok(()),
    }
}

/// A matrix with fewer rows than columns has no inverse and no least-squares solution: LENGTH ERROR, as Dyalog says.
fn check_not_wide(matrix: &Arr, span: Span) -> ElabResult<()> {
    match (matrix.extents[0], matrix.extents[1]) {
        (Some(rows), Some(columns)) if rows < columns => Err(ElabError::length(
            span,
            format!("⌹ of a matrix with fewer rows ({rows}) than columns ({columns})"),
        )),
        _ => Ok(()),
    }
}
