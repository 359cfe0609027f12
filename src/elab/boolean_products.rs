//! Packed boolean inner products: `A ≠.∧ B` and its kin on bits packed 32 to a word.
//!
//! On booleans, `A f.g B` takes m×n×k scalar steps (A is m×k, B is k×n). For the pairs f.g below, each row of A
//! and each column of B is first packed into ⌈k÷32⌉ words of 32 bits (m×k and k×n steps), and every element of the
//! result is then an inner product of words: a few integer operations per 32 elements of k instead of one per
//! element.
//!
//! | APL | the words of a row and a column combined | the combined words folded with | the element |
//! |---|---|---|---|
//! | `≠.∧` | `andi` | `xori` | the parity of the word's one bits |
//! | `∨.∧` | `andi` | `ori` | word ≠ 0 |
//! | `+.∧`, `+.×` | one bits of the `andi` (`popcnt`) | `addi` | the count |
//! | `∧.=` | `xori` (the positions that differ) | `ori` | word = 0 |
//! | `∨.≠` | `xori` | `ori` | word ≠ 0 |
//!
//! Packing pads the last word of a row (or column) with zero bits; every row of the table ignores them, since
//! `0∧0` and `0≠0` are 0. The result is the array the unpacked product gives, element for element, so the choice
//! is made here, before TAIL: the TAIL interpreter (the oracle) and every backend run the same packed program.
//!
//! The words use the 32-bit operators of `⎕INT32AND` and its kin (`andi`, `ori`, `xori`: the low 32 bits) and
//! `popcnt` (the one bits of the low 32 bits). Bit b of a word is `mulw(b2i(x), 2*b)`: the product is 0 or 2*b,
//! which always fits, and the bits of a word are summed with `addw` (distinct powers of two: the sum is their or,
//! below 2*32, so exact). A sum rather than `ori`: a row's fold of 64-bit adds vectorises, where `ori`'s 32-bit
//! truncation and sign extension on every step keep LLVM from seeing a reduction (optionpricer: 0.98 s with `ori`,
//! 0.62 s with `addw`, one thread).

use super::env::{Arr, Fun, Scalar, Val};
use super::error::ElabResult;
use super::ir::{Base, Expr};
use super::operators::{primitive_of, RightInnerAxis};
use super::Elaborator;
use crate::source::Span;
use crate::syntax::ast::Primitive;

/// The bits of one word.
const WORD_BITS: i64 = 32;

/// Which of the table's products an `f.g` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PackedProduct {
    /// `≠.∧`: whether an odd number of positions have both bits set.
    Parity,
    /// `∨.∧`: whether some position has both bits set.
    AnyBoth,
    /// `+.∧` (and `+.×`, the same on booleans): how many positions have both bits set.
    CountBoth,
    /// `∧.=`: whether the row and the column are the same.
    AllEqual,
    /// `∨.≠`: whether they differ somewhere.
    AnyDifferent,
}

impl PackedProduct {
    fn of(f: Primitive, g: Primitive) -> Option<PackedProduct> {
        use Primitive::*;
        Some(match (f, g) {
            (NotEqual, And) => PackedProduct::Parity,
            (Or, And) => PackedProduct::AnyBoth,
            (Plus, And | Times) => PackedProduct::CountBoth,
            (And, Equal) => PackedProduct::AllEqual,
            (Or, NotEqual) => PackedProduct::AnyDifferent,
            _ => return None,
        })
    }

    /// A word of the left argument with a word of the right: the scalar the fold takes.
    fn combine(self, x: Expr, y: Expr) -> Expr {
        match self {
            PackedProduct::Parity | PackedProduct::AnyBoth => Expr::op("andi", vec![x, y]),
            PackedProduct::CountBoth => Expr::op("popcnt", vec![Expr::op("andi", vec![x, y])]),
            PackedProduct::AllEqual | PackedProduct::AnyDifferent => Expr::op("xori", vec![x, y]),
        }
    }

    /// The operator folding the combined words of one result element (its identity is 0 for all three).
    fn fold_operator(self) -> &'static str {
        match self {
            PackedProduct::Parity => "xori",
            PackedProduct::CountBoth => "addi",
            PackedProduct::AnyBoth | PackedProduct::AllEqual | PackedProduct::AnyDifferent => "ori",
        }
    }

    /// The result element from the folded word, and its type (the count of `CountBoth` is the word itself).
    fn finish(self, folded: Expr) -> (Expr, Base) {
        match self {
            PackedProduct::Parity => {
                let ones = Expr::op("popcnt", vec![folded]);
                let odd = Expr::op("andi", vec![ones, Expr::Int(1)]);
                (Expr::op("eqi", vec![odd, Expr::Int(1)]), Base::Bool)
            }
            PackedProduct::CountBoth => (folded, Base::Int),
            PackedProduct::AnyBoth | PackedProduct::AnyDifferent => {
                (Expr::op("neqi", vec![folded, Expr::Int(0)]), Base::Bool)
            }
            PackedProduct::AllEqual => (Expr::op("eqi", vec![folded, Expr::Int(0)]), Base::Bool),
        }
    }
}

impl Elaborator {
    /// `A f.g B` on packed words when both arguments are boolean arrays (not scalars) and f.g is in the module's
    /// table; `None` otherwise, and the caller spreads the product element by element. The inner lengths must
    /// already have been compared where both are static.
    pub fn packed_boolean_inner_product(
        &mut self,
        f: &Fun,
        g: &Fun,
        left: &Arr,
        right: &Arr,
        span: Span,
    ) -> ElabResult<Option<Arr>> {
        let (Some(f), Some(g)) = (primitive_of(f), primitive_of(g)) else {
            return Ok(None);
        };
        let Some(product) = PackedProduct::of(f, g) else {
            return Ok(None);
        };
        if left.base != Base::Bool || right.base != Base::Bool || left.rank == 0 || right.rank == 0 {
            return Ok(None);
        }
        let left = self.bind(left.clone());
        let right = self.bind(right.clone());
        self.check_inner_lengths_at_run_time(&left, &right, span)?;
        let right_columns = self.first_axis_last(right);
        // A static k of at most 32 on both sides is one word a row: the product of words is then an outer product.
        let one_word = matches!(left.extents[left.rank - 1], Some(k) if k <= WORD_BITS)
            && matches!(right_columns.extents[right_columns.rank - 1], Some(k) if k <= WORD_BITS);
        let left_words = self.pack_last_axis(left, one_word, span)?;
        let right_words = self.pack_last_axis(right_columns, one_word, span)?;
        let (left_spread, right_spread) = match (one_word, left_words.rank, right_words.rank) {
            (true, 0, _) | (true, _, 0) => (left_words, right_words),
            (true, _, _) => self.spread_outer_product_arguments(left_words, right_words, span)?,
            (false, _, _) => {
                self.spread_inner_product_arguments(left_words, right_words, RightInnerAxis::Last, span)?
            }
        };
        let combined = self.pointwise_dyadic(left_spread, right_spread, span, &mut |_, x, y| {
            Ok(Val::Array(Arr::dynamic(product.combine(x.expr, y.expr), Base::Int, 0)))
        })?;
        let folded = if one_word {
            combined
        } else {
            self.fold_last_axis(product.fold_operator(), combined, span)?
        };
        if product == PackedProduct::CountBoth {
            return Ok(Some(folded));
        }
        let result = self.pointwise_monadic(folded, span, &mut |_, word| {
            let (element, base) = product.finish(word.expr);
            Ok(Val::Array(Arr::dynamic(element, base, 0)))
        })?;
        Ok(Some(result))
    }

    /// Where an inner length is not static, a run-time LENGTH ERROR for lengths that differ: the words would hide
    /// it (26 and 30 bits both make one word). The check is a dead `zipWith` of `⍳k` and `⍳k′`, which dead-code
    /// elimination keeps because it may fail.
    fn check_inner_lengths_at_run_time(&mut self, left: &Arr, right: &Arr, span: Span) -> ElabResult<()> {
        if left.extents[left.rank - 1].is_some() && right.extents[0].is_some() {
            return Ok(());
        }
        let left_length = self.last_extent(left, span)?;
        let right_length = self.tally(right);
        let left_indices = self.iota(left_length, span)?;
        let right_indices = self.iota(right_length, span)?;
        let check = self.pointwise_dyadic(left_indices, right_indices, span, &mut |_, x, _| Ok(Val::Array(x)))?;
        self.effect(Expr::at(span, check.expr));
        Ok(())
    }

    /// `¯1↑⍴A` as a scalar.
    fn last_extent(&mut self, array: &Arr, span: Span) -> ElabResult<Arr> {
        if let Some(extent) = array.extents[array.rank - 1] {
            return Ok(Arr::scalar_constant(Scalar::Int(extent)));
        }
        let shape = self.shape_of(array);
        let last = self.take_or_drop("take", Arr::scalar_constant(Scalar::Int(-1)), shape, span)?;
        Ok(self.first(last))
    }

    /// B with its first axis moved last (B's columns become rows): `(1↓⍴B),k`.
    fn first_axis_last(&mut self, array: Arr) -> Arr {
        let rank = array.rank as i64;
        let axes: Vec<i64> = std::iter::once(rank).chain(1..rank).collect();
        self.transpose_axes(array, &axes)
    }

    /// A boolean array of shape `F,k` as the int array `F,⌈k÷32⌉` of its last axis packed into words, bit b of a word
    /// the element 32×w+b; with `one_word` (a static k of at most 32), the int array `F` of one word a row.
    fn pack_last_axis(&mut self, array: Arr, one_word: bool, span: Span) -> ElabResult<Arr> {
        if one_word {
            let length = array.extents[array.rank - 1].expect("one word has a static length");
            return self.fold_bits_into_words(array, length, span);
        }
        let frame_extents = array.extents[..array.rank - 1].to_vec();
        let words = match array.extents[array.rank - 1] {
            Some(length) => Arr::scalar_constant(Scalar::Int((length + WORD_BITS - 1) / WORD_BITS)),
            None => {
                let length = self.last_extent(&array, span)?;
                let rounded_up = Expr::op("addi", vec![length.expr, Expr::Int(WORD_BITS - 1)]);
                let words = Arr::dynamic(Expr::op("divi", vec![rounded_up, Expr::Int(WORD_BITS)]), Base::Int, 0);
                self.bind(words)
            }
        };
        let word_extent = words.constant_scalar().and_then(|w| w.as_int());
        let padded_length = match word_extent {
            Some(words) => Arr::scalar_constant(Scalar::Int(words * WORD_BITS)),
            None => Arr::dynamic(
                Expr::op("muli", vec![words.expr.clone(), Expr::Int(WORD_BITS)]),
                Base::Int,
                0,
            ),
        };
        let padded = self.take_along_last_axis(padded_length, array, span)?;
        let padded = self.bind(padded);
        let shape = self.shape_of(&padded);
        let frame = self.take_or_drop("drop", Arr::scalar_constant(Scalar::Int(-1)), shape, span)?;
        let word_and_bit = Arr {
            expr: Expr::Vector(vec![words.expr, Expr::Int(WORD_BITS)], Base::Int),
            base: Base::Int,
            rank: 1,
            extents: vec![Some(2)],
            constant: None,
        };
        let grouped_shape = self.catenate_last(frame, word_and_bit, span)?;
        let grouped = self.reshape(grouped_shape, padded, span)?;
        let grouped = grouped.with_extents([&frame_extents[..], &[word_extent, Some(WORD_BITS)]].concat());
        let words = self.fold_bits_into_words(grouped, WORD_BITS, span)?;
        Ok(words.with_extents([&frame_extents[..], &[word_extent]].concat()))
    }

    /// The last axis of a boolean array, of static length `bits` (at most 32), as one word: `+/A×(⍴A)⍴2*¯1+⍳bits`
    /// (element b, from 0, weighs 2*b).
    fn fold_bits_into_words(&mut self, array: Arr, bits: i64, span: Span) -> ElabResult<Arr> {
        let array = self.bind(array);
        let shape = self.shape_of(&array);
        let powers = (0..bits).map(|bit| Scalar::Int(1 << bit)).collect();
        let weights = self.reshape(shape, Arr::vector_constant(powers, Base::Int), span)?;
        let weights = weights.with_extents(array.extents.clone());
        let weighted = self.pointwise_dyadic(array, weights, span, &mut |_, bit, weight| {
            let value = Expr::op("mulw", vec![Expr::op("b2i", vec![bit.expr]), weight.expr]);
            Ok(Val::Array(Arr::dynamic(value, Base::Int, 0)))
        })?;
        self.fold_last_axis("addw", weighted, span)
    }

    /// `(F,n)↑A` along the last axis of A only (`n↑` of its transposed last axis).
    fn take_along_last_axis(&mut self, count: Arr, array: Arr, span: Span) -> ElabResult<Arr> {
        let last = array.rank - 1;
        let moved = self.swap_axis_to_front(array, last);
        let cut = self.take_or_drop("take", count, moved, span)?;
        Ok(self.swap_axis_to_front(cut, last))
    }

    /// `reduce(op, 0, array)` along the last axis, for an int operator whose identity is 0.
    fn fold_last_axis(&mut self, op: &'static str, array: Arr, span: Span) -> ElabResult<Arr> {
        let (lambda, _) = self.scalar_lambda2(Base::Int, Base::Int, span, |_, x, y| {
            Ok(Val::Array(Arr::dynamic(
                Expr::op(op, vec![x.expr, y.expr]),
                Base::Int,
                0,
            )))
        })?;
        let mut extents = array.extents.clone();
        extents.pop();
        let expr = Expr::op("reduce", vec![lambda, Expr::Int(0), array.expr]);
        Ok(Arr::dynamic(expr, Base::Int, array.rank - 1).with_extents(extents))
    }
}
