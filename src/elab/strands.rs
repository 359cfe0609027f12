//! Nested vectors of a length known at compile time, kept as strands (tuples of arrays): `'the' 'quick' 'brown'`,
//! `(1 2 3)(4 5)`, and what `f¨` makes when f returns non-scalars, `⍳¨1 2 3`.
//!
//! aplc compiles flat arrays; a nested vector whose items are known one by one at compile time is a tuple of flat
//! arrays, each with its own type and shape. On such a strand:
//! - `f¨` applies f to each item (inlined once per item). Scalar results make a simple vector, as in APL; other
//!   results make a strand again. `⍺ f¨ ⍵` pairs the items of two strands, or of a strand with a scalar (each item
//!   gets it) or with a vector of as many items.
//! - `f¨` on a simple vector of at most [`MAX_STRAND_ITEMS`] items whose length is known at compile time makes a
//!   strand when f returns non-scalars (`⍕¨1 2 3`).
//! - `⍴ ≢ ⊃ ∊ ↑ ⌽` work on the strand: its length, its first item, the catenated ravels of its items, the matrix of
//!   its items (each padded with APL's fill to the longest), its items reversed.
//!
//! Anything else on a strand (arithmetic between strands, `⊂`, a strand of run-time length) stays a NONCE ERROR.

use super::env::{Arr, Fun, Scalar, Val};
use super::error::{ElabError, ElabResult};
use super::ir::Base;
use super::Elaborator;
use crate::source::Span;
use crate::syntax::ast::Primitive;
use std::rc::Rc;

/// The most items a simple vector may have for `f¨` on it to make a strand: each item inlines f once.
pub const MAX_STRAND_ITEMS: i64 = 64;

impl Elaborator {
    /// `f¨ ⍵` for a strand ⍵: f on each item, the results gathered by [`Elaborator::strand`] (scalars of one kind
    /// make a simple vector, anything else a strand).
    pub fn each_over_strand(&mut self, function: &Rc<Fun>, items: Vec<Val>, span: Span) -> ElabResult<Val> {
        let mut results = Vec::with_capacity(items.len());
        for item in items {
            let result = self.apply_monadic(function, item, span)?;
            results.push(self.bind_value(result));
        }
        self.strand(results, span)
    }

    /// `⍺ f¨ ⍵` where ⍺ or ⍵ is a strand: f on each pair of items.
    pub fn each_over_strands_dyadic(
        &mut self,
        function: &Rc<Fun>,
        left: Val,
        right: Val,
        span: Span,
    ) -> ElabResult<Val> {
        let length = match (&left, &right) {
            (Val::Tuple(items), _) | (_, Val::Tuple(items)) => items.len(),
            _ => unreachable!("called with at least one strand"),
        };
        let left_items = self.items_paired_with_strand(left, length, span)?;
        let right_items = self.items_paired_with_strand(right, length, span)?;
        let mut results = Vec::with_capacity(length);
        for (left, right) in left_items.into_iter().zip(right_items) {
            let result = self.apply_dyadic(function, left, right, span)?;
            results.push(self.bind_value(result));
        }
        self.strand(results, span)
    }

    /// `⍺ f¨ ⍵` between simple arrays where f returns non-scalars: a strand, when both arguments are scalars or
    /// short vectors of known length ([`Elaborator::items_of_short_vector`]) and at least one is a vector;
    /// otherwise the NONCE ERROR `nested` of the pointwise each.
    pub fn each_with_nested_results_dyadic(
        &mut self,
        function: &Rc<Fun>,
        left: Arr,
        right: Arr,
        span: Span,
        nested: ElabError,
    ) -> ElabResult<Val> {
        let left_items = self.items_of_short_vector(left.clone(), span)?;
        let right_items = self.items_of_short_vector(right.clone(), span)?;
        let (left, right) = match (left_items, right_items) {
            (Some(left), Some(right)) => (Val::Tuple(left), Val::Tuple(right)),
            (Some(left), None) if right.rank == 0 => (Val::Tuple(left), Val::Array(right)),
            (None, Some(right)) if left.rank == 0 => (Val::Array(left), Val::Tuple(right)),
            _ => return Err(nested),
        };
        self.each_over_strands_dyadic(function, left, right, span)
    }

    /// The items of one argument of a dyadic each whose other argument is a strand of `length` items: a strand's own
    /// items, a scalar for every item, or the elements of a vector of that length.
    fn items_paired_with_strand(&mut self, argument: Val, length: usize, span: Span) -> ElabResult<Vec<Val>> {
        match argument {
            Val::Tuple(items) if items.len() == length => Ok(items),
            Val::Tuple(items) => Err(strand_length_error(span, items.len(), length)),
            Val::Array(array) if array.rank == 0 => {
                let array = self.bind(array);
                Ok(vec![Val::Array(array); length])
            }
            Val::Array(array) => match self.items_of_short_vector(array, span)? {
                Some(items) if items.len() == length => Ok(items),
                Some(items) => Err(strand_length_error(span, items.len(), length)),
                None => Err(ElabError::nonce(
                    span,
                    "each between a strand and an array whose length is not known when compiling",
                )),
            },
            Val::Function(_) | Val::Operator(_) => Err(ElabError::syntax(span, "a function where an array is needed")),
        }
    }

    /// The elements of a vector of at most [`MAX_STRAND_ITEMS`] items whose length is known at compile time, as
    /// scalars; `None` for any other array.
    pub fn items_of_short_vector(&mut self, array: Arr, span: Span) -> ElabResult<Option<Vec<Val>>> {
        let length = match (array.rank, array.extents.first()) {
            (1, Some(Some(length))) if (1..=MAX_STRAND_ITEMS).contains(length) => *length as usize,
            _ => return Ok(None),
        };
        let array = self.bind(array);
        let mut items = Vec::with_capacity(length);
        for position in 0..length {
            items.push(Val::Array(self.vector_element(&array, position, span)?));
        }
        Ok(Some(items))
    }

    /// A monadic primitive on a strand, or `None` when the primitive has no meaning here that aplc compiles.
    pub fn strand_monadic(&mut self, primitive: Primitive, items: Vec<Val>, span: Span) -> ElabResult<Option<Val>> {
        Ok(Some(match primitive {
            Primitive::Rho => Val::Array(Arr::vector_constant(vec![Scalar::Int(items.len() as i64)], Base::Int)),
            Primitive::RightShoe => items.into_iter().next().expect("a strand has items"),
            Primitive::CircleStile => Val::Tuple(items.into_iter().rev().collect()),
            Primitive::Epsilon => Val::Array(self.enlist_strand(items, span)?),
            Primitive::UpArrow => Val::Array(self.mix_strand(items, span)?),
            _ => return Ok(None),
        }))
    }

    /// `∊` of a strand: the ravels of its items (enlisted in turn when they are strands), one after the other.
    fn enlist_strand(&mut self, items: Vec<Val>, span: Span) -> ElabResult<Arr> {
        let mut enlisted: Option<Arr> = None;
        for item in items {
            let ravelled = match item {
                Val::Tuple(inner) => self.enlist_strand(inner, span)?,
                other => {
                    let array = self.expect_array(other, span)?;
                    self.ravel(array)
                }
            };
            enlisted = Some(match enlisted {
                None => ravelled,
                Some(sofar) => self.catenate_last(sofar, ravelled, span)?,
            });
        }
        Ok(enlisted.expect("a strand has items"))
    }

    /// `↑` of a strand of scalars and vectors: a matrix with one row per item, each padded with APL's fill (0 or a
    /// blank) to the length of the longest.
    fn mix_strand(&mut self, items: Vec<Val>, span: Span) -> ElabResult<Arr> {
        let mut rows = Vec::with_capacity(items.len());
        for item in items {
            let array = self.expect_array(item, span)?;
            if array.rank > 1 {
                return Err(ElabError::nonce(span, "↑ of a strand whose items have rank 2 or more"));
            }
            let array = self.ravel(array);
            rows.push(self.bind(array));
        }
        let mut width: Option<Arr> = None;
        for row in &rows {
            let length = self.tally(row);
            width = Some(match width {
                None => length,
                Some(sofar) => self.scalar_dyadic(Primitive::Ceiling, sofar, length, span)?,
            });
        }
        let width = width.expect("a strand has items");
        let width = self.bind(width);
        let count = rows.len() as i64;
        let mut matrix: Option<Arr> = None;
        for row in rows {
            let padded = self.take_or_drop("take", width.clone(), row, span)?;
            matrix = Some(match matrix {
                None => padded,
                Some(sofar) => self.catenate_last(sofar, padded, span)?,
            });
        }
        let matrix = matrix.expect("a strand has items");
        let count = Arr::vector_constant(vec![Scalar::Int(count)], Base::Int);
        let width = self.ravel(width);
        let shape = self.catenate_last(count, width, span)?;
        self.reshape(shape, matrix, span)
    }
}

fn strand_length_error(span: Span, found: usize, expected: usize) -> ElabError {
    ElabError::length(span, format!("each pairs {found} items with a strand of {expected}"))
}
