//! Search and comparison functions: `⍳` (index of), `∊` (member of), `≡`, `~` (without) and `⊥` (decode), on the
//! TAIL ops `indexOf`, `member` and `decode` or built from other primitives.

use super::env::{Arr, Fun, Scalar, Val};
use super::error::{ElabError, ElabResult};
use super::ir::{Base, Expr};
use super::operators::Axis;
use super::Elaborator;
use crate::source::Span;
use crate::syntax::ast::Primitive;
use std::rc::Rc;

/// Whether one array holds characters and the other numbers: `⍳` and `∊` then find nothing (no character is equal to
/// a number), where other functions that need one type for both raise a DOMAIN ERROR.
fn characters_meet_numbers(left: &Arr, right: &Arr) -> bool {
    (left.base == Base::Char) != (right.base == Base::Char)
}

fn primitive(primitive: Primitive, span: Span) -> Rc<Fun> {
    Rc::new(Fun::Primitive(primitive, span))
}

impl Elaborator {
    /// `A⍳B` on a vector A.
    pub fn index_of(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        if characters_meet_numbers(&left, &right) && left.rank == 1 {
            // No character equals a number: every element of B is not found (1+≢A), as in Dyalog.
            let left = self.bind(left);
            let right = self.bind(right);
            let tally = self.tally(&left);
            let not_found = self.scalar_dyadic(Primitive::Plus, Arr::scalar_constant(Scalar::Int(1)), tally, span)?;
            let shape = self.shape_of(&right);
            return self.reshape(shape, not_found, span);
        }
        // A matrix: the index of each row (a vector is one row) among its rows.
        if left.rank == 2 && matches!(right.rank, 1 | 2) {
            let (left, right) = self.unify_bases(left, right, span)?;
            let name = if right.rank == 1 {
                "row_index_of"
            } else {
                "rows_index_of"
            };
            let indices = self.apply_prelude_dyadic(name, left, right, span)?;
            return self.expect_array(indices, span);
        }
        if left.rank == 0 {
            return Err(ElabError::rank(
                span,
                "dyadic ⍳ needs a vector (or an array) on its left, not a scalar",
            ));
        }
        if left.rank != 1 {
            return Err(ElabError::nonce(
                span,
                "dyadic ⍳ with a left argument that is not a vector",
            ));
        }
        let (left, right) = self.unify_bases(left, right, span)?;
        let rank = right.rank;
        let extents = right.extents.clone();
        Ok(Arr::dynamic(Expr::op("indexOf", vec![left.expr, right.expr]), Base::Int, rank).with_extents(extents))
    }

    /// `A∊B`.
    pub fn member_of(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        if characters_meet_numbers(&left, &right) {
            // No character equals a number: no element of A is in B.
            let left = self.bind(left);
            let _ = self.bind(right);
            let shape = self.shape_of(&left);
            return self.reshape(shape, Arr::scalar_constant(Scalar::Bool(false)), span);
        }
        let right = self.ravel(right);
        let (left, right) = self.unify_bases(left, right, span)?;
        let rank = left.rank;
        let extents = left.extents.clone();
        Ok(Arr::dynamic(Expr::op("member", vec![left.expr, right.expr]), Base::Bool, rank).with_extents(extents))
    }

    /// `A≡B`: same rank, same shape, same elements.
    pub fn match_arrays(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        if left.rank != right.rank || left.base.join(right.base).is_none() {
            return Ok(Arr::scalar_constant(Scalar::Bool(false)));
        }
        if left.rank == 0 {
            return self.scalar_dyadic(Primitive::Equal, left, right, span);
        }
        let left = self.bind(left);
        let right = self.bind(right);
        let left_shape = self.shape_of(&left);
        let right_shape = self.shape_of(&right);
        let same_shape = self.scalar_dyadic(Primitive::Equal, left_shape, right_shape, span)?;
        let same_shape = self.reduce(&primitive(Primitive::And, span), same_shape, Axis::Last, span)?;
        if same_shape.constant_scalar() == Some(Scalar::Bool(false)) {
            return Ok(same_shape);
        }
        let value = self.conditional(
            same_shape,
            |this| {
                let left = this.ravel(left.clone());
                let right = this.ravel(right.clone());
                let left = Arr {
                    extents: vec![None],
                    ..left
                };
                let right = Arr {
                    extents: vec![None],
                    ..right
                };
                let equal = this.scalar_dyadic(Primitive::Equal, left, right, span)?;
                this.reduce(&primitive(Primitive::And, span), equal, Axis::Last, span)
                    .map(Val::Array)
            },
            |_| Ok(Val::Array(Arr::scalar_constant(Scalar::Bool(false)))),
            span,
        )?;
        self.expect_array(value, span)
    }

    /// `A~B`: the items of the vector A that are not in B.
    pub fn without(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        let left = if left.rank == 0 { self.ravel(left) } else { left };
        if left.rank != 1 {
            return Err(ElabError::rank(span, "the left argument of ~ must be a vector"));
        }
        let left = self.bind(left);
        let member = self.member_of(left.clone(), right, span)?;
        let keep = self.scalar_monadic(Primitive::Tilde, member, span)?;
        self.replicate(keep, left, false, span)
    }

    /// `R⊥V`: the TAIL op for integer vectors, the prelude's inner products for arrays of any rank and for doubles.
    pub fn decode(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        if left.base == Base::Char || right.base == Base::Char {
            return Err(ElabError::domain(span, "⊥ on characters: it needs numbers"));
        }
        if left.base == Base::Complex || right.base == Base::Complex {
            return Err(ElabError::nonce(span, "⊥ on complex numbers"));
        }
        if right.rank > 1 || left.rank > 1 || left.base > Base::Int || right.base > Base::Int {
            let name = match (left.rank, right.rank) {
                (0, _) => "decode_scalar_radix",
                (1, 0) => "decode_scalar_digits",
                (1, _) => "decode_vector_radix",
                (2, 0) => return Err(ElabError::nonce(span, "⊥ with a matrix of radices and a scalar")),
                (2, _) => "decode_matrix_radix",
                _ => return Err(ElabError::nonce(span, "⊥ with radices of rank 3 or more")),
            };
            let function = self.prelude_function(name, span)?;
            let value = self
                .apply_dyadic(&function, Val::Array(left), Val::Array(right), span)
                .map_err(|error| error.at(span))?;
            return self.expect_array(value, span);
        }
        let left = self.convert(left, Base::Int, span)?;
        let right = self.convert(right, Base::Int, span)?;
        let left = self.ravel(left);
        let right = self.ravel(right);
        Ok(Arr::dynamic(
            Expr::op("decode", vec![left.expr, right.expr]),
            Base::Int,
            0,
        ))
    }

    /// `R⊤x`: a vector of radices and integers x of any rank (a column of digits per item), or a scalar radix,
    /// whose result has x's shape (the last digit of each item: `10⊤123 45` is `3 5`).
    pub fn encode(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        if left.rank == 0 {
            let right = self.bind(right);
            let radices = self.ravel(left);
            let digits = self.encode(radices, right.clone(), span)?;
            let shape = self.shape_of(&right);
            return self.reshape(shape, digits, span);
        }
        if left.rank == 1 && matches!(left.base.max(right.base), Base::Double) {
            let left = self.convert(left, Base::Double, span)?;
            let right = self.convert(right, Base::Double, span)?;
            let value = self.apply_prelude_dyadic("encode_doubles", left, right, span)?;
            return self.expect_array(value, span);
        }
        if right.rank == 1 && left.rank == 1 {
            let function = self.prelude_function("encode_vector", span)?;
            let left = self.integer_argument(left, span)?;
            let right = self.integer_argument(right, span)?;
            let value = self
                .apply_dyadic(&function, Val::Array(left), Val::Array(right), span)
                .map_err(|error| error.at(span))?;
            return self.expect_array(value, span);
        }
        if right.rank > 1 && left.rank == 1 {
            let function = self.prelude_function("encode_array", span)?;
            let left = self.integer_argument(left, span)?;
            let right = self.integer_argument(right, span)?;
            let value = self
                .apply_dyadic(&function, Val::Array(left), Val::Array(right), span)
                .map_err(|error| error.at(span))?;
            return self.expect_array(value, span);
        }
        if right.rank != 0 || left.rank > 1 {
            return Err(ElabError::nonce(span, "⊤ with radices of rank 2 or more"));
        }
        integer_arguments("⊤", left.base, right.base, span)?;
        let left = self.convert(left, Base::Int, span)?;
        let right = self.convert(right, Base::Int, span)?;
        let left = self.ravel(left);
        let extents = left.extents.clone();
        Ok(Arr::dynamic(Expr::op("encode", vec![left.expr, right.expr]), Base::Int, 1).with_extents(extents))
    }
}

/// `⊥` and `⊤` compute on integers here (doubles take the prelude's paths): characters are a DOMAIN ERROR (as in
/// Dyalog), complex numbers not supported yet.
fn integer_arguments(glyph: &str, left: Base, right: Base, span: Span) -> ElabResult<()> {
    let widest = left.max(right);
    match widest {
        Base::Bool | Base::Int => Ok(()),
        Base::Char => Err(ElabError::domain(
            span,
            format!("{glyph} on characters: it needs numbers"),
        )),
        Base::Double => Err(ElabError::nonce(span, format!("{glyph} on floating-point numbers"))),
        Base::Complex => Err(ElabError::nonce(span, format!("{glyph} on complex numbers"))),
    }
}
