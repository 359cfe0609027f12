//! Search and comparison functions expressed with the other primitives: `⍳` (index of), `∊` (member of), `≡`,
//! `~` (without) and `⊥` (decode).

use super::env::{Arr, Fun, Scalar, Val};
use super::error::{ElabError, ElabResult};
use super::operators::Axis;
use super::Elaborator;
use crate::source::Span;
use crate::syntax::ast::Primitive;
use std::rc::Rc;

fn primitive(primitive: Primitive, span: Span) -> Rc<Fun> {
    Rc::new(Fun::Primitive(primitive, span))
}

impl Elaborator {
    /// `A⍳B` on a vector A: for each b, `1++/∧\A≠b`.
    pub fn index_of(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        if left.rank != 1 {
            return Err(ElabError::nonce(
                span,
                "dyadic ⍳ with a left argument that is not a vector",
            ));
        }
        let left = self.bind(left);
        self.pointwise_monadic(right, span, &mut |this, b| {
            let differs = this.scalar_dyadic(Primitive::NotEqual, left.clone(), b, span)?;
            let leading = this.scan(&primitive(Primitive::And, span), differs, Axis::Last, span)?;
            let count = this.reduce(&primitive(Primitive::Plus, span), leading, Axis::Last, span)?;
            let one = Arr::scalar_constant(Scalar::Int(1));
            this.scalar_dyadic(Primitive::Plus, one, count, span).map(Val::Array)
        })
    }

    /// `A∊B`: for each a, `∨/a=,B`.
    pub fn member_of(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        let right = self.ravel(right);
        let right = self.bind(right);
        self.pointwise_monadic(left, span, &mut |this, a| {
            let equal = this.scalar_dyadic(Primitive::Equal, a, right.clone(), span)?;
            this.reduce(&primitive(Primitive::Or, span), equal, Axis::Last, span)
                .map(Val::Array)
        })
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

    /// `R⊥V` for a vector V: weights `⌽×\1,⌽1↓R` (R extended to V's length when scalar), then `+/V×weights`.
    pub fn decode(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        if right.rank != 1 || left.rank > 1 {
            return Err(ElabError::nonce(span, "⊥ other than on a vector"));
        }
        let right = self.bind(right);
        let radix = if left.rank == 0 {
            let length = self.tally(&right);
            let shape = self.ravel(length);
            self.reshape(shape, left, span)?
        } else {
            left
        };
        let radix = self.bind(radix);
        let reversed = self.reverse_last(radix);
        let one = Arr::scalar_constant(Scalar::Int(1));
        let tail = self.take_or_drop("drop", one.clone(), reversed, span)?;
        let with_one = self.catenate_last(one, tail, span)?;
        let products = self.scan(&primitive(Primitive::Times, span), with_one, Axis::Last, span)?;
        let weights = self.reverse_last(products);
        let terms = self.scalar_dyadic(Primitive::Times, right, weights, span)?;
        self.reduce(&primitive(Primitive::Plus, span), terms, Axis::Last, span)
    }
}
