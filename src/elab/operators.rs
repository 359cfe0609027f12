//! Primitive operators: reduce and scan with identity items, compress and replicate, each, outer and inner product,
//! power, commute and compose.
//!
//! `/` and `\` are decided by their left operand's class: a function reduces or scans, an array compresses or
//! replicates. Reduce and scan go along the last axis (`⌿` and `⍀` along the first, through transposes); the fold is
//! APL's right fold, with the identity item of the operand at the right end.

use super::env::{Arr, Fun, Scalar, Val};
use super::error::{ElabError, ElabResult};
use super::ir::{Base, Expr, Type};
use super::strands::MAX_STRAND_ITEMS;
use super::structural::is_nested;
use super::{Elaborator, NESTED_RESULT};
use crate::source::Span;
use crate::syntax::ast::Primitive;
use std::rc::Rc;

/// The axis of an inner product's right argument that is reduced: APL's first (`A f.g B`), or the last (the packed
/// boolean products keep their words last on both sides; see `boolean_products.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RightInnerAxis {
    First,
    Last,
}

/// The identity item of a primitive reduction over values of `base`, per the thesis' table.
pub fn identity_item(primitive: Primitive, base: Base) -> Option<Scalar> {
    use Primitive::*;
    let number = |value: i64| match base {
        Base::Bool => Scalar::Bool(value != 0),
        Base::Int => Scalar::Int(value),
        Base::Double => Scalar::Double(value as f64),
        Base::Complex => Scalar::Complex(value as f64, 0.0),
        Base::Char => Scalar::Int(value),
    };
    Some(match primitive {
        Plus | Minus | Stile | Less | Greater | NotEqual | Or => number(0),
        Times | Divide | Star | LessEqual | GreaterEqual | Equal | And => number(1),
        Ceiling => match base {
            Base::Bool => Scalar::Bool(false),
            Base::Int => Scalar::Int(i64::MIN),
            _ => Scalar::Double(f64::MIN),
        },
        Floor => match base {
            Base::Bool => Scalar::Bool(true),
            Base::Int => Scalar::Int(i64::MAX),
            _ => Scalar::Double(f64::MAX),
        },
        _ => return None,
    })
}

/// Which axis a reduction or scan runs along.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    Last,
    First,
}

impl Elaborator {
    pub fn derived_monadic(
        &mut self,
        operator: Primitive,
        left: &Val,
        right: Option<&Val>,
        argument: Val,
        span: Span,
    ) -> ElabResult<Val> {
        use Primitive::*;
        match (operator, left, right) {
            (Slash | SlashBar, Val::Function(function), None) if is_nested(&argument) => {
                let (shape, items) = self.shape_and_items(argument, span)?.expect("a nested value has items");
                if operator == SlashBar && shape.len() > 1 {
                    return Err(ElabError::nonce(span, "⌿ of a nested array of rank 2 or more"));
                }
                self.reduce_items(function, (shape, items), span)
            }
            (Slash | SlashBar, Val::Function(function), None) => {
                let argument = self.expect_array(argument, span)?;
                let axis = if operator == Slash { Axis::Last } else { Axis::First };
                let simple = self.attempt(|this| this.reduce(function, argument.clone(), axis, span));
                match simple {
                    // A function with non-scalar results on a short vector: the enclosed fold of its items
                    // (`{⍺,'-',⍵}/'abc'` is `⊂'a-b-c'`).
                    Err(error) if error.is_nonce_of(NESTED_RESULT) && argument.rank == 1 => {
                        match self.shape_and_items(Val::Array(argument), span)? {
                            Some(shape_and_items) => self.reduce_items(function, shape_and_items, span),
                            None => Err(error),
                        }
                    }
                    other => other.map(Val::Array),
                }
            }
            (Slash | SlashBar, array @ (Val::Array(_) | Val::Tuple(_)), None) => {
                let counts = self.expect_array(array.clone(), span)?;
                let argument = self.expect_array(argument, span)?;
                self.replicate(counts, argument, operator == SlashBar, span)
                    .map(Val::Array)
            }
            (Backslash | BackslashBar, mask @ (Val::Array(_) | Val::Tuple(_)), None) => {
                let mask = self.expect_array(mask.clone(), span)?;
                let argument = self.expect_array(argument, span)?;
                self.expand(mask, argument, operator == BackslashBar, span)
                    .map(Val::Array)
            }
            (Backslash | BackslashBar, Val::Function(function), None) => {
                let argument = self.expect_array(argument, span)?;
                let axis = if operator == Backslash { Axis::Last } else { Axis::First };
                self.scan(function, argument, axis, span).map(Val::Array)
            }
            (Each, Val::Function(function), None) => {
                let function = function.clone();
                if is_nested(&argument) {
                    let shape_and_items = self.shape_and_items(argument, span)?.expect("a nested value has items");
                    return self.each_over_items(&function, shape_and_items, span);
                }
                let argument = self.expect_array(argument, span)?;
                if let Some(folded) = self.constant_each(&function, &argument, span) {
                    return Ok(Val::Array(folded));
                }
                let pointwise = self.attempt(|this| {
                    this.pointwise_monadic(argument.clone(), span, &mut |this, x| {
                        this.apply_monadic(&function, Val::Array(x), span)
                    })
                });
                match pointwise {
                    Err(error) if error.is_nonce_of(NESTED_RESULT) => {
                        match self.shape_and_items(Val::Array(argument), span)? {
                            Some(shape_and_items) => self.each_over_items(&function, shape_and_items, span),
                            None => Err(error),
                        }
                    }
                    // f gives results of different types for different items (a guard's outcomes, FizzBuzz's
                    // `{0=3|⍵:'Fizz' ⋄ ⍵}¨⍳15`): with items known when compiling, f is applied to each on its own,
                    // its guards decided for that item, and the results make a nested vector.
                    Err(error @ ElabError::Nonce { .. }) => {
                        let items = self.attempt(|this| match this.shape_and_items(Val::Array(argument), span)? {
                            Some(shape_and_items) => this.each_over_items(&function, shape_and_items, span),
                            None => Err(error.clone()),
                        });
                        match items {
                            Err(ElabError::Nonce { .. }) => Err(error),
                            other => other,
                        }
                    }
                    other => other.map(Val::Array),
                }
            }
            (Commute, Val::Function(function), None) => {
                let argument = self.bind_value(argument);
                self.apply_dyadic(function, argument.clone(), argument, span)
            }
            (Commute, constant @ (Val::Array(_) | Val::Tuple(_)), None) => Ok(constant.clone()),
            (Jot | Over, Val::Function(f), Some(Val::Function(g))) => {
                let inner = self.apply_monadic(g, argument, span)?;
                self.apply_monadic(f, inner, span)
            }
            (Jot, bound @ (Val::Array(_) | Val::Tuple(_)), Some(Val::Function(f))) => {
                self.apply_dyadic(f, bound.clone(), argument, span)
            }
            (Jot, Val::Function(f), Some(bound @ (Val::Array(_) | Val::Tuple(_)))) => {
                self.apply_dyadic(f, argument, bound.clone(), span)
            }
            (Power, Val::Function(function), Some(count @ (Val::Array(_) | Val::Tuple(_)))) => {
                let function = function.clone();
                let count = self.expect_array(count.clone(), span)?;
                self.power(count, argument, span, &mut |this, x| {
                    this.apply_monadic(&function, x, span)
                })
            }
            (Power, Val::Function(function), Some(Val::Function(predicate))) => {
                let function = function.clone();
                let predicate = predicate.clone();
                self.power_until(&predicate, argument, span, &mut |this, x| {
                    this.apply_monadic(&function, x, span)
                })
            }
            (Key, Val::Function(function), None) => {
                let argument = self.expect_array(argument, span)?;
                let argument = self.keys_vector(argument, span)?;
                let derived =
                    self.prelude_operator_derived("key_indices", (Val::Function(function.clone()), None), span)?;
                self.apply_monadic(&derived, Val::Array(argument), span)
                    .map_err(|error| error.at(span))
            }
            // `f⍤g ⍵` (atop): f of g ⍵.
            (Rank, Val::Function(f), Some(Val::Function(g))) => {
                let inner = self.apply_monadic(g, argument, span)?;
                self.apply_monadic(f, inner, span)
            }
            (Rank, Val::Function(function), Some(Val::Array(rank))) => {
                let function = function.clone();
                // One rank is the monadic rank; of two, the right argument's is; of three, the first is.
                let Some(cell_rank) = cell_ranks(rank).map(|ranks| match ranks.as_slice() {
                    [_, right] => *right,
                    _ => ranks[0],
                }) else {
                    return Err(ElabError::nonce(
                        span,
                        "⍤ with a cell rank that is not 1 to 3 constants",
                    ));
                };
                let argument = self.expect_array(argument, span)?;
                self.rank_monadic(function, cell_rank, argument, span)
            }
            (Stencil, Val::Function(function), Some(Val::Array(sizes))) => {
                let sizes = stencil_window_sizes(sizes).map_err(|problem| ElabError::nonce(span, problem))?;
                let argument = self.expect_array(argument, span)?;
                self.stencil(function.clone(), sizes, argument, span)
            }
            (At, replacement, Some(selector)) => {
                let replacement = replacement.clone();
                let selector = selector.clone();
                let argument = self.expect_array(argument, span)?;
                self.at(replacement, selector, argument, span).map(Val::Array)
            }
            (OuterProduct | Dot, _, _) => Err(ElabError::syntax(
                span,
                format!("{} needs a left argument", operator.glyph()),
            )),
            _ => Err(ElabError::nonce(
                span,
                format!("the operator {} used this way", operator.glyph()),
            )),
        }
    }

    /// The keys of `⌸`: a vector (a scalar is one key); keys that are rows of a matrix are not supported.
    fn keys_vector(&mut self, keys: Arr, span: Span) -> ElabResult<Arr> {
        match keys.rank {
            0 => Ok(self.ravel(keys)),
            1 => Ok(keys),
            _ => Err(ElabError::nonce(span, "⌸ with keys that are the rows of a matrix")
                .with_hint("key is supported for a vector of keys")),
        }
    }

    /// `f⍤k ⍵`: f on each cell of rank k of ⍵ (a negative k counts down from ⍵'s rank). Scalar cells are an `each`;
    /// cells of rank 1 or more below ⍵'s are the prelude's loop over the frame (`rank_cells`).
    fn rank_monadic(&mut self, function: Rc<Fun>, cell_rank: i64, argument: Arr, span: Span) -> ElabResult<Val> {
        let cell_rank = effective_cell_rank(cell_rank, argument.rank);
        if cell_rank >= argument.rank {
            return self.apply_monadic(&function, Val::Array(argument), span);
        }
        if cell_rank == 0 {
            // An each when f gives scalars; when it gives arrays (a NONCE ERROR for each), the loop over cells below.
            let argument = self.bind(argument);
            let each = self.attempt(|this| {
                this.pointwise_monadic(argument.clone(), span, &mut |this, x| {
                    this.apply_monadic(&function, Val::Array(x), span)
                })
            });
            match each {
                Err(ElabError::Nonce { .. }) => {}
                each => return each.map(Val::Array),
            }
            let derived = self.prelude_operator_derived("rank_cells", (Val::Function(function), None), span)?;
            let cell_rank = Val::Array(Arr::scalar_constant(Scalar::Int(0)));
            return self
                .apply_dyadic(&derived, cell_rank, Val::Array(argument), span)
                .map_err(|error| error.at(span));
        }
        let derived = self.prelude_operator_derived("rank_cells", (Val::Function(function.clone()), None), span)?;
        let rank_value = Val::Array(Arr::scalar_constant(Scalar::Int(cell_rank as i64)));
        let argument = self.bind(argument);
        let stacked = self.attempt(|this| this.apply_dyadic(&derived, rank_value, Val::Array(argument.clone()), span));
        match stacked {
            Err(error @ ElabError::Nonce { .. }) => {
                match self.attempt(|this| this.enclosed_cells(&function, cell_rank, &argument, span)) {
                    Ok(Some(nested)) => Ok(nested),
                    _ => Err(error.at(span)),
                }
            }
            other => other.map_err(|error| error.at(span)),
        }
    }

    /// `f⍤k ⍵` where f encloses each cell (`⊂⍤1⊢M`, `{⊂⌽⍵}⍤1`): a nested array of the frame's shape, with f's
    /// item for each cell, when the frame is known when compiling and small enough for a strand; `None` when it is
    /// not, or when f gives anything but an enclosed array for some cell (those results would be mixed, and their
    /// different shapes padded, which the stacking of `rank_cells` does not do).
    fn enclosed_cells(
        &mut self,
        function: &Rc<Fun>,
        cell_rank: usize,
        argument: &Arr,
        span: Span,
    ) -> ElabResult<Option<Val>> {
        let frame_axes = argument.rank - cell_rank;
        let Some(frame) = argument.extents[..frame_axes]
            .iter()
            .map(|extent| extent.map(|extent| extent as usize))
            .collect::<Option<Vec<usize>>>()
        else {
            return Ok(None);
        };
        let count: usize = frame.iter().product();
        if count == 0 || count as i64 > MAX_STRAND_ITEMS {
            return Ok(None);
        }
        let mut items = Vec::with_capacity(count);
        for position in 0..count {
            let mut remaining = position;
            let mut indices = vec![None; argument.rank];
            for axis in (0..frame_axes).rev() {
                let index = (remaining % frame[axis]) as i64 + 1;
                remaining /= frame[axis];
                indices[axis] = Some(Arr::scalar_constant(Scalar::Int(index)));
            }
            let cell = self.index_array(argument.clone(), indices, span)?;
            match self.apply_monadic(function, Val::Array(cell), span)? {
                Val::Nested {
                    shape,
                    items: mut enclosed,
                } if shape.is_empty() && enclosed.len() == 1 => items.push(enclosed.remove(0)),
                _ => return Ok(None),
            }
        }
        self.nested(frame, items, span).map(Some)
    }

    /// `⍺ f/ ⍵` and `⍺ f⌿ ⍵` (n-wise reduction): f/ of each window of |⍺| items along the axis (the prelude's
    /// `nwise_reduce`, along the last axis; the first axis through transposes, as for reduce).
    fn nwise_reduce(
        &mut self,
        function: Rc<Fun>,
        count: Arr,
        argument: Arr,
        axis: Axis,
        span: Span,
    ) -> ElabResult<Val> {
        let count = self.integer_argument(count, span)?;
        let count = match (count.rank, count.extents.as_slice()) {
            (0, _) => count,
            (1, [Some(1)]) => self.first(count),
            _ => {
                return Err(ElabError::length(
                    span,
                    "the window size of n-wise reduction must be one number",
                ))
            }
        };
        let argument = if argument.rank == 0 {
            self.ravel(argument)
        } else {
            argument
        };
        if axis == Axis::First && argument.rank >= 2 {
            let transposed = self.transpose(argument);
            let reduced = self.nwise_reduce(function, count, transposed, Axis::Last, span)?;
            let reduced = self.expect_array(reduced, span)?;
            return Ok(Val::Array(self.transpose(reduced)));
        }
        let derived = self.prelude_operator_derived("nwise_reduce", (Val::Function(function), None), span)?;
        self.apply_dyadic(&derived, Val::Array(count), Val::Array(argument), span)
            .map_err(|error| error.at(span))
    }

    /// `f⌺s ⍵`: f on the window of sizes s centred on each position of ⍵'s leading axes (the prelude's
    /// `stencil_cells`). The window has an axis for each size and ⍵'s remaining axes whole.
    fn stencil(&mut self, function: Rc<Fun>, sizes: Vec<i64>, argument: Arr, span: Span) -> ElabResult<Val> {
        if sizes.len() > argument.rank {
            return Err(ElabError::rank(
                span,
                format!(
                    "⌺ with {} window sizes on an argument of rank {}",
                    sizes.len(),
                    argument.rank
                ),
            ));
        }
        let sizes = Arr::vector_constant(sizes.into_iter().map(Scalar::Int).collect(), Base::Int);
        let operands = (Val::Function(function), Some(Val::Array(sizes)));
        let derived = self.prelude_operator_derived("stencil_cells", operands, span)?;
        let argument = self.bind(argument);
        // First as an each over the windows, which needs f to give scalars (a NONCE ERROR otherwise, undone), then
        // as the loop over windows that stacks results of any shape.
        let results_are_scalars = |known: bool| Val::Array(Arr::scalar_constant(Scalar::Bool(known)));
        let each = self
            .attempt(|this| this.apply_dyadic(&derived, results_are_scalars(true), Val::Array(argument.clone()), span));
        let result = match each {
            Err(ElabError::Nonce { .. }) => {
                self.apply_dyadic(&derived, results_are_scalars(false), Val::Array(argument), span)
            }
            each => each,
        };
        result.map_err(|error| error.at(span))
    }

    /// `⍺ f⍤(a b) ⍵`: f on pairs of a cell of rank a of ⍺ and a cell of rank b of ⍵: both arguments whole; scalar
    /// cells of both (with scalar extension, as `¨`); one argument whole and the other in cells, the monadic case of f
    /// bound to the whole one (`⍺∘f` or `f∘⍵`); or cells of both, the prelude's loop over their common frame.
    fn rank_dyadic(
        &mut self,
        function: Rc<Fun>,
        (left_rank, right_rank): (i64, i64),
        left: Arr,
        right: Arr,
        span: Span,
    ) -> ElabResult<Val> {
        let left_cell_rank = effective_cell_rank(left_rank, left.rank);
        let right_cell_rank = effective_cell_rank(right_rank, right.rank);
        let left_whole = left_cell_rank >= left.rank;
        let right_whole = right_cell_rank >= right.rank;
        if left_whole && right_whole {
            return self.apply_dyadic(&function, Val::Array(left), Val::Array(right), span);
        }
        if left_cell_rank == 0 && right_cell_rank == 0 {
            // An each when f gives scalars; when it gives arrays, the loop over pairs of cells (both frames are the
            // arguments' shapes, so a scalar argument, whose frame is empty, is extended first).
            let (left, right) = (self.bind(left), self.bind(right));
            let each = self.attempt(|this| {
                this.pointwise_dyadic(left.clone(), right.clone(), span, &mut |this, x, y| {
                    this.apply_dyadic(&function, Val::Array(x), Val::Array(y), span)
                })
            });
            match each {
                Err(ElabError::Nonce { .. }) if left.rank == right.rank => {}
                each => return each.map(Val::Array),
            }
            let ranks = Arr::vector_constant(vec![Scalar::Int(0), Scalar::Int(0)], Base::Int);
            let operands = (Val::Function(function), Some(Val::Array(ranks)));
            let derived = self.prelude_operator_derived("rank_cell_pairs", operands, span)?;
            return self
                .apply_dyadic(&derived, Val::Array(left), Val::Array(right), span)
                .map_err(|error| error.at(span));
        }
        // `⍺∘f` or `f∘⍵`: the function of the cells of the other argument.
        let composed = |left: Val, right: Val| {
            Rc::new(Fun::Derived {
                operator: Primitive::Jot,
                left,
                right: Some(right),
                span,
            })
        };
        if left_whole {
            let left = self.bind_value(Val::Array(left));
            let function = composed(left, Val::Function(function));
            return self.rank_monadic(function, right_cell_rank as i64, right, span);
        }
        if right_whole {
            let right = self.bind_value(Val::Array(right));
            let function = composed(Val::Function(function), right);
            return self.rank_monadic(function, left_cell_rank as i64, left, span);
        }
        // Cells of both: pairs of cells at the same position of frames that must agree (RANK ERROR for frames of
        // different ranks, LENGTH ERROR at run time for different lengths).
        if left.rank - left_cell_rank != right.rank - right_cell_rank {
            return Err(ElabError::rank(
                span,
                "the frames of ⍺ and ⍵ around their cells differ in rank",
            ));
        }
        let ranks = Arr::vector_constant(
            vec![Scalar::Int(left_cell_rank as i64), Scalar::Int(right_cell_rank as i64)],
            Base::Int,
        );
        let operands = (Val::Function(function), Some(Val::Array(ranks)));
        let derived = self.prelude_operator_derived("rank_cell_pairs", operands, span)?;
        self.apply_dyadic(&derived, Val::Array(left), Val::Array(right), span)
            .map_err(|error| error.at(span))
    }

    pub fn derived_dyadic(
        &mut self,
        operator: Primitive,
        left_operand: &Val,
        right_operand: Option<&Val>,
        left: Val,
        right: Val,
        span: Span,
    ) -> ElabResult<Val> {
        use Primitive::*;
        match (operator, left_operand, right_operand) {
            (Each, Val::Function(function), None) => {
                let function = function.clone();
                if is_nested(&left) || is_nested(&right) {
                    return self.each_over_pairs(&function, left, right, span);
                }
                let left = self.expect_array(left, span)?;
                let right = self.expect_array(right, span)?;
                let pointwise = self.attempt(|this| {
                    this.pointwise_dyadic(left.clone(), right.clone(), span, &mut |this, x, y| {
                        this.apply_dyadic(&function, Val::Array(x), Val::Array(y), span)
                    })
                });
                match pointwise {
                    Err(error) if error.is_nonce_of(NESTED_RESULT) => {
                        self.each_with_nested_results_dyadic(&function, left, right, span, error)
                    }
                    other => other.map(Val::Array),
                }
            }
            (Commute, Val::Function(function), None) => self.apply_dyadic(function, right, left, span),
            (Commute, constant @ (Val::Array(_) | Val::Tuple(_)), None) => Ok(constant.clone()),
            (OuterProduct, Val::Function(function), None) if is_nested(&left) || is_nested(&right) => {
                self.outer_product_of_items(function, left, right, span)
            }
            (OuterProduct, Val::Function(function), None) => {
                let left = self.expect_array(left, span)?;
                let right = self.expect_array(right, span)?;
                let simple = self.attempt(|this| this.outer_product(function, left.clone(), right.clone(), span));
                match simple {
                    Err(error) if error.is_nonce_of(NESTED_RESULT) => self
                        .outer_product_of_items(function, Val::Array(left), Val::Array(right), span)
                        .map_err(|_| error),
                    other => other.map(Val::Array),
                }
            }
            // `⍺ f.g ⍵` on nested vectors is `f/⍺ g ⍵`, g pervading into the items.
            (Dot, Val::Function(f), Some(Val::Function(g))) if is_nested(&left) || is_nested(&right) => {
                let products = self.apply_dyadic(g, left, right, span)?;
                let reduce = Fun::Derived {
                    operator: Slash,
                    left: Val::Function(f.clone()),
                    right: None,
                    span,
                };
                self.apply_monadic(&reduce, products, span)
            }
            (Dot, Val::Function(f), Some(Val::Function(g))) => {
                let left = self.expect_array(left, span)?;
                let right = self.expect_array(right, span)?;
                self.inner_product(f, g, left, right, span).map(Val::Array)
            }
            (Jot, Val::Function(f), Some(Val::Function(g))) => {
                let right = self.apply_monadic(g, right, span)?;
                self.apply_dyadic(f, left, right, span)
            }
            // `⍺ f⍥g ⍵` is `(g ⍺) f (g ⍵)`: g applies to the right argument first, as APL evaluates right to left.
            (Over, Val::Function(f), Some(Val::Function(g))) => {
                let right = self.apply_monadic(g, right, span)?;
                let right = self.bind_value(right);
                let left = self.apply_monadic(g, left, span)?;
                self.apply_dyadic(f, left, right, span)
            }
            (Power, Val::Function(function), Some(count @ (Val::Array(_) | Val::Tuple(_)))) => {
                let function = function.clone();
                let count = self.expect_array(count.clone(), span)?;
                let left = self.bind_value(left);
                self.power(count, right, span, &mut |this, x| {
                    this.apply_dyadic(&function, left.clone(), x, span)
                })
            }
            (Power, Val::Function(function), Some(Val::Function(predicate))) => {
                let function = function.clone();
                let predicate = predicate.clone();
                let left = self.bind_value(left);
                self.power_until(&predicate, right, span, &mut |this, x| {
                    this.apply_dyadic(&function, left.clone(), x, span)
                })
            }
            (Key, Val::Function(function), None) => {
                let left = self.expect_array(left, span)?;
                let left = self.keys_vector(left, span)?;
                let right = self.expect_array(right, span)?;
                if right.rank == 0 {
                    return Err(ElabError::rank(span, "X f⌸ Y needs one major cell of Y per key"));
                }
                let derived =
                    self.prelude_operator_derived("key_cells", (Val::Function(function.clone()), None), span)?;
                self.apply_dyadic(&derived, Val::Array(left), Val::Array(right), span)
                    .map_err(|error| error.at(span))
            }
            (Rank, Val::Function(function), Some(Val::Array(rank))) => {
                let function = function.clone();
                let Some(ranks) = cell_ranks(rank) else {
                    return Err(ElabError::nonce(
                        span,
                        "⍤ with a cell rank that is not 1 to 3 constants",
                    ));
                };
                // One rank is both arguments'; two are the left's and the right's; of three, the last two.
                let (left_rank, right_rank) = match ranks.as_slice() {
                    [both] => (*both, *both),
                    [.., left, right] => (*left, *right),
                    [] => unreachable!("cell_ranks gives 1 to 3"),
                };
                let left = self.expect_array(left, span)?;
                let right = self.expect_array(right, span)?;
                self.rank_dyadic(function, (left_rank, right_rank), left, right, span)
            }
            (Slash | SlashBar, Val::Function(function), None) => {
                let count = self.expect_array(left, span)?;
                let argument = self.expect_array(right, span)?;
                let axis = if operator == Slash { Axis::Last } else { Axis::First };
                self.nwise_reduce(function.clone(), count, argument, axis, span)
            }
            // `⍺ (f@I) ⍵`: ⍵ with the selected items replaced by ⍺ f applied to them, which is `(⍺∘f)@I ⍵`.
            (At, Val::Function(function), Some(selector)) => {
                let left = self.bind_value(left);
                let bound = Rc::new(Fun::Derived {
                    operator: Jot,
                    left,
                    right: Some(Val::Function(function.clone())),
                    span,
                });
                let argument = self.expect_array(right, span)?;
                self.at(Val::Function(bound), selector.clone(), argument, span)
                    .map(Val::Array)
            }
            // `⍺ f⍤g ⍵` (atop): f of ⍺ g ⍵.
            (Rank, Val::Function(f), Some(Val::Function(g))) => {
                let inner = self.apply_dyadic(g, left, right, span)?;
                self.apply_monadic(f, inner, span)
            }
            _ => Err(ElabError::nonce(
                span,
                format!("the operator {} used dyadically this way", operator.glyph()),
            )),
        }
    }

    /// The base type a reduction runs at: the argument's, widened until the function maps two of it to it. A
    /// function that gives a narrower type (`=/` of ints gives bools) runs at the argument's type, its results
    /// widened back ([`Elaborator::reducing_lambda`]): `=/1 2 3` is `1=(2=3)`, the bool 0 compared with the int 1.
    fn reduction_base(&mut self, function: &Fun, base: Base, span: Span) -> ElabResult<Base> {
        let mut base = base;
        for _ in 0..4 {
            let result = self.probe_dyadic(function, base, base, span)?;
            if result == base {
                return Ok(base);
            }
            match base.join(result) {
                Some(joined) if joined > base => base = joined,
                Some(joined) if joined == base && result.is_numeric() && base.is_numeric() => return Ok(base),
                _ => {
                    return Err(ElabError::nonce(
                        span,
                        format!(
                            "reducing {} values with a function that gives {} values",
                            base.name(),
                            result.name()
                        ),
                    ))
                }
            }
        }
        Ok(base)
    }

    /// The base type of `x f y` for scalars of the given bases, found by elaborating it (and discarding the code).
    pub fn probe_dyadic(&mut self, function: &Fun, left: Base, right: Base, span: Span) -> ElabResult<Base> {
        let saved = self.next_variable;
        let function = function.clone();
        let (_, base) = self.scalar_lambda2(left, right, span, |this, x, y| {
            this.apply_dyadic(&function, Val::Array(x), Val::Array(y), span)
        })?;
        self.next_variable = saved.max(self.next_variable);
        Ok(base)
    }

    /// The TAIL lambda `fn x => fn y => f(x, y)` of a reduction or scan at `base`, its result widened to `base` when
    /// the function gives a narrower type.
    fn reducing_lambda(&mut self, function: &Rc<Fun>, base: Base, span: Span) -> ElabResult<Expr> {
        let function = function.clone();
        let (lambda, _) = self.scalar_lambda2(base, base, span, |this, x, y| {
            match this.apply_dyadic(&function, Val::Array(x), Val::Array(y), span)? {
                Val::Array(result) => this.convert(result, base, span).map(Val::Array),
                other => Ok(other),
            }
        })?;
        Ok(lambda)
    }

    pub fn reduce(&mut self, function: &Rc<Fun>, array: Arr, axis: Axis, span: Span) -> ElabResult<Arr> {
        if array.rank == 0 {
            return Ok(array);
        }
        if axis == Axis::First && array.rank >= 2 {
            let transposed = self.transpose(array);
            let reduced = self.reduce(function, transposed, Axis::Last, span)?;
            return Ok(self.transpose(reduced));
        }
        let mut base = self.reduction_base(function, array.base, span)?;
        if array.base == Base::Int && primitive_of(function) == Some(Primitive::Times) {
            // A product of integers soon leaves 64 bits (×/⍳21); Dyalog computes it in doubles beyond 32 bits, and
            // so does aplc, exactly below 2^53 and as Dyalog above.
            base = Base::Double;
        }
        let array = self.convert(array, base, span)?;
        let mut extents = array.extents.clone();
        let length = extents.pop().expect("rank is at least 1");
        let lambda = self.reducing_lambda(function, base, span)?;
        let result_rank = array.rank - 1;
        // Only primitive functions have identity items: `{⍺+⍵}/⍬` is a DOMAIN ERROR in Dyalog, as `+/⍬` is not.
        let identity = primitive_of(function).and_then(|p| identity_item(p, base));
        let largest_or_smallest = matches!(primitive_of(function), Some(Primitive::Ceiling | Primitive::Floor));
        match identity {
            // ⌈/ and ⌊/ of an empty axis are the smallest and largest doubles in APL, whatever the argument's type.
            // Of integers (or booleans) that is a double where every other row's result is an integer: known at
            // compile time, the result is those doubles; otherwise an empty row is a DOMAIN ERROR at run time
            // rather than an integer that is not APL's answer. The integer identity still starts every fold.
            Some(identity) if largest_or_smallest && matches!(base, Base::Int | Base::Bool) => {
                if length == Some(0) {
                    return self.empty_maximum_or_minimum(function, extents, span);
                }
                let rows = match length {
                    Some(_) => array.expr,
                    None => Expr::op("nonEmptyRows", vec![array.expr]),
                };
                let expr = Expr::op("reduce", vec![lambda, identity.literal(), rows]);
                return Ok(Arr::dynamic(expr, base, result_rank).with_extents(extents));
            }
            Some(identity) => {
                let expr = Expr::op("reduce", vec![lambda, identity.literal(), array.expr]);
                return Ok(Arr::dynamic(expr, base, result_rank).with_extents(extents));
            }
            None => {}
        }
        // No identity item: TAIL's reduce folds a non-empty row from its last element (the neutral element only
        // stands for an empty row), so any value of the type will do, provided the row is never empty; a dfn that is
        // one primitive (`{⍺+⍵}`) gets that primitive's, which backends that start every chunk from the neutral
        // element need. APL gives a DOMAIN ERROR for an empty row: the argument goes through `nonEmptyRows`, which
        // raises it when the program runs, even for an axis known to be empty, since the reduction may lie in a
        // guard's branch that is never taken (`n=0:f/(0)⍴w` in the prelude's n-wise reduction).
        let rows = match length {
            Some(length) if length > 0 => array.expr,
            _ => Expr::op("nonEmptyRows", vec![array.expr]),
        };
        let neutral = op_identity(&lambda, base).unwrap_or(match base {
            Base::Bool => Scalar::Bool(false),
            Base::Char => Scalar::Char(' '),
            other => Scalar::Int(0).promote(other),
        });
        let expr = Expr::op("reduce", vec![lambda, neutral.literal(), rows]);
        Ok(Arr::dynamic(expr, base, result_rank).with_extents(extents))
    }

    /// `⌈/` or `⌊/` along an axis of length 0 of integers: APL's identity item, the smallest or largest double, in
    /// every item of the result (whose other extents are `extents`).
    fn empty_maximum_or_minimum(
        &mut self,
        function: &Rc<Fun>,
        extents: Vec<Option<i64>>,
        span: Span,
    ) -> ElabResult<Arr> {
        let identity = identity_item(primitive_of(function).expect("⌈ or ⌊"), Base::Double).expect("⌈ and ⌊ have one");
        let item = Arr::scalar_constant(identity);
        if extents.is_empty() {
            return Ok(item);
        }
        let shape = match extents.iter().copied().collect::<Option<Vec<i64>>>() {
            Some(extents) => Arr::vector_constant(extents.into_iter().map(Scalar::Int).collect(), Base::Int),
            None => {
                return Err(ElabError::nonce(
                    span,
                    "⌈/ or ⌊/ of an empty axis of integers, beside axes of unknown length",
                ))
            }
        };
        self.reshape(shape, item, span)
    }

    pub fn scan(&mut self, function: &Rc<Fun>, array: Arr, axis: Axis, span: Span) -> ElabResult<Arr> {
        if array.rank == 0 {
            return Ok(array);
        }
        if axis == Axis::First && array.rank >= 2 {
            let transposed = self.transpose(array);
            let scanned = self.scan(function, transposed, Axis::Last, span)?;
            return Ok(self.transpose(scanned));
        }
        let base = self.reduction_base(function, array.base, span)?;
        let array = self.convert(array, base, span)?;
        let lambda = self.reducing_lambda(function, base, span)?;
        // The neutral element is only used by backends that start from it; user functions get the type's zero.
        let neutral = primitive_of(function)
            .and_then(|p| identity_item(p, base))
            .or_else(|| op_identity(&lambda, base))
            .unwrap_or(match base {
                Base::Bool => Scalar::Bool(false),
                Base::Char => Scalar::Char(' '),
                other => Scalar::Int(0).promote(other),
            });
        let expr = Expr::op("scan", vec![lambda, neutral.literal(), array.expr]);
        Ok(Arr::dynamic(expr, base, array.rank).with_extents(array.extents))
    }

    /// `B/A` (compress, boolean B) and `N/A` (replicate, integer N), on vectors; `⌿` the same on vectors.
    pub fn replicate(&mut self, counts: Arr, array: Arr, first_axis: bool, span: Span) -> ElabResult<Arr> {
        let glyph = if first_axis { "⌿" } else { "/" };
        if counts.rank > 1 {
            return Err(ElabError::rank(
                span,
                format!("the left argument of {glyph} must be a vector"),
            ));
        }
        let array = if array.rank == 0 { self.ravel(array) } else { array };
        if array.rank > 1 {
            let transposing = first_axis;
            let array = if transposing { self.transpose(array) } else { array };
            let counts = if counts.base == Base::Bool {
                counts
            } else {
                self.integer_argument(counts, span)?
            };
            let counts = self.ravel(counts);
            let op = if counts.base == Base::Bool {
                "compress"
            } else {
                "replicate"
            };
            let rank = array.rank;
            let base = array.base;
            let result = Arr::dynamic(Expr::op(op, vec![counts.expr, array.expr]), base, rank);
            return Ok(if transposing { self.transpose(result) } else { result });
        }
        if let (Some(c), Some(a)) = (counts.extents.first().copied().flatten(), array.extents[0]) {
            if counts.rank == 1 && c != a && c != 1 && a != 1 {
                return Err(ElabError::length(
                    span,
                    format!("{glyph} with {c} counts for {a} items"),
                ));
            }
        }
        match counts.base {
            Base::Bool => {
                let counts = if counts.rank == 0 {
                    self.extend_scalar(counts, &array, span)?
                } else {
                    counts
                };
                Ok(Arr::dynamic(
                    Expr::op("compress", vec![counts.expr, array.expr]),
                    array.base,
                    1,
                ))
            }
            Base::Int => {
                let counts = if counts.rank == 0 {
                    self.extend_scalar(counts, &array, span)?
                } else {
                    counts
                };
                Ok(Arr::dynamic(
                    Expr::op("replicate", vec![counts.expr, array.expr]),
                    array.base,
                    1,
                ))
            }
            _ => {
                let counts = self.integer_argument(counts, span)?;
                self.replicate(counts, array, first_axis, span)
            }
        }
    }

    /// `B\A` (expand) along the last axis (`⍀`: the first).
    pub fn expand(&mut self, mask: Arr, array: Arr, first_axis: bool, span: Span) -> ElabResult<Arr> {
        if mask.rank > 1 {
            return Err(ElabError::rank(span, "the left argument of expand must be a vector"));
        }
        if mask.base != Base::Bool {
            return self.expand_with_counts(mask, array, first_axis, span);
        }
        let mask = self.ravel(mask);
        let mask = self.bind(mask);
        // A scalar goes into every slot the mask selects: `1 0 1\5` is `5 0 5`.
        let array = if array.rank == 0 {
            let plus = Rc::new(Fun::Primitive(Primitive::Plus, span));
            let selected = self.reduce(&plus, mask.clone(), Axis::Last, span)?;
            self.reshape(selected, array, span)?
        } else {
            array
        };
        if first_axis && array.rank >= 2 {
            let transposed = self.transpose(array);
            let expanded = self.expand(mask, transposed, false, span)?;
            return Ok(self.transpose(expanded));
        }
        let rank = array.rank;
        let base = array.base;
        let mut extents = array.extents.clone();
        extents[rank - 1] = mask.extents[0];
        Ok(Arr::dynamic(Expr::op("expand", vec![mask.expr, array.expr]), base, rank).with_extents(extents))
    }

    /// `K\A` with any integer counts (Dyalog): a positive k takes the next item k times, a negative k inserts |k|
    /// fill items and 0 one fill item. That is the boolean expand by `K>0` (each positive count's item in place,
    /// a fill for the others) with each slot then replicated `1⌈|K|` times.
    fn expand_with_counts(&mut self, counts: Arr, array: Arr, first_axis: bool, span: Span) -> ElabResult<Arr> {
        if matches!(counts.base, Base::Char | Base::Complex) {
            return Err(ElabError::domain(span, "the counts of expand must be integers"));
        }
        let counts = self.integer_argument(counts, span)?;
        let counts = self.ravel(counts);
        let counts = self.bind(counts);
        let zero = Arr::scalar_constant(Scalar::Int(0));
        let takes_an_item = self.scalar_dyadic(Primitive::Greater, counts.clone(), zero, span)?;
        let slots = self.expand(takes_an_item, array, first_axis, span)?;
        let magnitudes = self.scalar_monadic(Primitive::Stile, counts, span)?;
        let one = Arr::scalar_constant(Scalar::Int(1));
        let copies = self.scalar_dyadic(Primitive::Ceiling, one, magnitudes, span)?;
        self.replicate(copies, slots, first_axis, span)
    }

    /// `X@I⊢A` and `f@I⊢A` on a vector A (I indices, or a function giving a boolean mask): A with the selected
    /// items replaced by X, or by f applied to them.
    fn at(&mut self, replacement: Val, selector: Val, array: Arr, span: Span) -> ElabResult<Arr> {
        if array.rank >= 2 {
            return self.at_in_ravel(replacement, selector, array, span);
        }
        if array.rank != 1 {
            return Err(ElabError::nonce(span, "@ on a scalar"));
        }
        let array = self.bind(array);
        let indices = match selector {
            Val::Function(mask_function) => {
                let mask = self.at_mask(&mask_function, &array, span)?;
                Arr::dynamic(Expr::op("where", vec![mask.expr]), Base::Int, 1)
            }
            other => {
                let indices = self.expect_array(other, span)?;
                self.integer_argument(indices, span)?
            }
        };
        let indices = self.bind(indices);
        let values = match replacement {
            Val::Function(function) => {
                let selected = self.index_array(array.clone(), vec![Some(indices.clone())], span)?;
                let value = self.apply_monadic(&function, Val::Array(selected), span)?;
                self.expect_array(value, span)?
            }
            other => self.expect_array(other, span)?,
        };
        self.replace_items(array, indices, values, span)
    }

    /// `@`'s result: the vector `array` with the items at `positions` replaced by `values` (a scalar, or one each),
    /// in the type both join to.
    fn replace_items(&mut self, array: Arr, positions: Arr, values: Arr, span: Span) -> ElabResult<Arr> {
        let Some(base) = array.base.join(values.base) else {
            return Err(ElabError::domain(span, "@ mixing characters and numbers"));
        };
        let array = self.convert(array, base, span)?;
        let values = self.convert(values, base, span)?;
        let array = self.bind(array);
        let values = self.bind(values);
        self.general_indexed_assignment(array, vec![Some(positions)], values, span)
    }

    /// The boolean mask that `@`'s right operand gives for `array`, of its rank. A mask of integers (`@(2∘|)`) or
    /// doubles must hold 0s and 1s: a DOMAIN ERROR otherwise.
    fn at_mask(&mut self, mask_function: &Rc<Fun>, array: &Arr, span: Span) -> ElabResult<Arr> {
        let mask = self.apply_monadic(mask_function, Val::Array(array.clone()), span)?;
        let mask = self.expect_array(mask, span)?;
        let mask = match mask.base {
            Base::Int | Base::Double => {
                let mask = self.integer_argument(mask, span)?;
                self.pointwise_monadic(mask, span, &mut |_, x| {
                    Ok(Val::Array(Arr::dynamic(Expr::op("i2b", vec![x.expr]), Base::Bool, 0)))
                })?
            }
            _ => mask,
        };
        if mask.base != Base::Bool || mask.rank != array.rank {
            return Err(ElabError::domain(
                span,
                "the right operand of @ must give 0s and 1s shaped like its argument",
            ));
        }
        Ok(mask)
    }

    /// `X@I⊢A` and `f@I⊢A` on an array of rank 2 or more: I selects major cells (`9@2⊢M` replaces row 2) and a
    /// mask function selects elements (`0@(3∘<)⊢M`); the selected elements are replaced in A's ravel, X's or f's
    /// items in order (a scalar X goes everywhere), and the result has A's shape again.
    fn at_in_ravel(&mut self, replacement: Val, selector: Val, array: Arr, span: Span) -> ElabResult<Arr> {
        let array = self.bind(array);
        let shape = self.shape_of(&array);
        let shape = self.bind(shape);
        let ravel = self.ravel(array.clone());
        let ravel = self.bind(ravel);
        let (positions, selected) = match selector {
            Val::Function(mask_function) => {
                let mask = self.at_mask(&mask_function, &array, span)?;
                let mask = self.ravel(mask);
                let positions = Arr::dynamic(Expr::op("where", vec![mask.expr]), Base::Int, 1);
                let positions = self.bind(positions);
                let selected = self.index_array(ravel.clone(), vec![Some(positions.clone())], span)?;
                (positions, selected)
            }
            other => {
                let indices = self.expect_array(other, span)?;
                let indices = self.integer_argument(indices, span)?;
                if indices.rank > 1 {
                    return Err(ElabError::nonce(span, "@ with indices of rank 2 or more"));
                }
                let indices = self.ravel(indices);
                let indices = self.bind(indices);
                let mut axes = vec![Some(indices.clone())];
                axes.extend((1..array.rank).map(|_| None));
                let selected = self.index_array(array.clone(), axes, span)?;
                // The ravel positions of cell i are (i-1)×c + ⍳c, c the number of elements of a cell.
                let cell_shape = self.primitive_dyadic(Primitive::DownArrow, one(), Val::Array(shape.clone()), span)?;
                let cell_shape = self.expect_array(cell_shape, span)?;
                let times = Rc::new(Fun::Primitive(Primitive::Times, span));
                let cell = self.reduce(&times, cell_shape, Axis::Last, span)?;
                let cell = self.integer_argument(cell, span)?;
                let cell = self.bind(cell);
                let before = self.primitive_dyadic(Primitive::Minus, Val::Array(indices), one(), span)?;
                let starts = self.primitive_dyadic(Primitive::Times, Val::Array(cell.clone()), before, span)?;
                let starts = self.expect_array(starts, span)?;
                let within = self.primitive_monadic(Primitive::Iota, Val::Array(cell), span)?;
                let within = self.expect_array(within, span)?;
                let plus = Rc::new(Fun::Primitive(Primitive::Plus, span));
                let positions = self.outer_product(&plus, starts, within, span)?;
                let positions = self.ravel(positions);
                (self.bind(positions), selected)
            }
        };
        let values = match replacement {
            Val::Function(function) => {
                let value = self.apply_monadic(&function, Val::Array(selected), span)?;
                self.expect_array(value, span)?
            }
            other => self.expect_array(other, span)?,
        };
        let values = if values.rank == 0 { values } else { self.ravel(values) };
        let updated = self.replace_items(ravel, positions, values, span)?;
        self.reshape(shape, updated, span)
    }

    /// A scalar reshaped to the length of the vector `like`.
    fn extend_scalar(&mut self, scalar: Arr, like: &Arr, span: Span) -> ElabResult<Arr> {
        let like = self.bind(like.clone());
        let length = self.tally(&like);
        let shape =
            Arr::dynamic(Expr::Vector(vec![length.expr.clone()], Base::Int), Base::Int, 1).with_extents(vec![Some(1)]);
        let mut extended = self.reshape(shape, scalar, span)?;
        extended.extents = vec![length.constant_scalar().and_then(|s| s.as_int())];
        Ok(extended)
    }

    /// `A ∘.f B`: shape `(⍴A),⍴B`, element `[i;j]` is `A[i] f B[j]`, built from reshape, transpose and zipWith.
    fn outer_product(&mut self, function: &Rc<Fun>, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        let function = function.clone();
        let (spread_left, spread_right) = if left.rank == 0 || right.rank == 0 {
            (left, right)
        } else {
            self.spread_outer_product_arguments(left, right, span)?
        };
        self.pointwise_dyadic(spread_left, spread_right, span, &mut |this, x, y| {
            this.apply_dyadic(&function, Val::Array(x), Val::Array(y), span)
        })
    }

    /// The arguments of `A∘.f B` (neither a scalar) spread to one shape, `(⍴A),(⍴B)`, ready to be combined element by
    /// element.
    pub fn spread_outer_product_arguments(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<(Arr, Arr)> {
        let left = self.bind(left);
        let right = self.bind(right);
        let (left_rank, right_rank) = (left.rank, right.rank);
        let left_shape = self.shape_of(&left);
        let right_shape = self.shape_of(&right);
        let left_shape = self.bind(left_shape);
        let right_shape = self.bind(right_shape);
        // The reshapes' shape vectors are catenations, whose extents the reshapes do not see: state them.
        let extents = [&left.extents[..], &right.extents[..]].concat();
        // Left: reshape to (⍴B),(⍴A), then move B's axes behind A's.
        let shape = self.catenate_last(right_shape.clone(), left_shape.clone(), span)?;
        let spread = self.reshape(shape, left, span)?;
        let axes: Vec<i64> = (0..right_rank)
            .map(|i| (left_rank + i + 1) as i64)
            .chain((0..left_rank).map(|i| (i + 1) as i64))
            .collect();
        let spread_left = self.transpose_axes(spread, &axes);
        // Right: reshape to (⍴A),(⍴B), already in order.
        let shape = self.catenate_last(left_shape, right_shape, span)?;
        let spread_right = self.reshape(shape, right, span)?;
        Ok((
            spread_left.with_extents(extents.clone()),
            spread_right.with_extents(extents),
        ))
    }

    /// Dyadic transpose with static axes (APL semantics: source axis i becomes result axis axes[i]).
    pub fn transpose_axes(&mut self, array: Arr, axes: &[i64]) -> Arr {
        if axes.iter().enumerate().all(|(i, a)| *a == i as i64 + 1) {
            return array;
        }
        let mut extents = vec![None; array.rank];
        for (source, target) in axes.iter().enumerate() {
            extents[(*target - 1) as usize] = array.extents[source];
        }
        let literal = Expr::Vector(axes.iter().map(|a| Expr::Int(*a)).collect(), Base::Int);
        Arr::dynamic(Expr::op("transp2", vec![literal, array.expr]), array.base, array.rank).with_extents(extents)
    }

    /// `A f.g B` (Guibas and Wyatt): spread both arguments to `(¯1↓⍴A),(1↓⍴B),k`, combine with g, reduce with f.
    fn inner_product(&mut self, f: &Rc<Fun>, g: &Rc<Fun>, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        if left.rank == 0 || right.rank == 0 {
            let g = g.clone();
            let combined = self.pointwise_dyadic(left, right, span, &mut |this, x, y| {
                this.apply_dyadic(&g, Val::Array(x), Val::Array(y), span)
            })?;
            return self.reduce(f, combined, Axis::Last, span);
        }
        if let (Some(a), Some(b)) = (left.extents[left.rank - 1], right.extents[0]) {
            if a != b {
                return Err(ElabError::length(span, format!("inner product of lengths {a} and {b}")));
            }
        }
        if let Some(packed) = self.packed_boolean_inner_product(f, g, &left, &right, span)? {
            return Ok(packed);
        }
        let (spread_left, spread_right) =
            self.spread_inner_product_arguments(left, right, RightInnerAxis::First, span)?;
        let g = g.clone();
        let combined = self.pointwise_dyadic(spread_left, spread_right, span, &mut |this, x, y| {
            this.apply_dyadic(&g, Val::Array(x), Val::Array(y), span)
        })?;
        self.reduce(f, combined, Axis::Last, span)
    }

    /// The arguments of `A f.g B` spread to one shape, `(¯1↓⍴A),(B's frame),k` with the inner axis k last, ready to be
    /// combined element by element and reduced along k. B's frame is `1↓⍴B` when its inner axis is the first (APL's
    /// inner product), `¯1↓⍴B` when it is the last (the packed boolean products keep their words last on both sides).
    pub fn spread_inner_product_arguments(
        &mut self,
        left: Arr,
        right: Arr,
        right_inner: RightInnerAxis,
        span: Span,
    ) -> ElabResult<(Arr, Arr)> {
        let left = self.bind(left);
        let right = self.bind(right);
        let (left_extents, right_extents) = (left.extents.clone(), right.extents.clone());
        let (ra, rb) = (left.rank as i64, right.rank as i64);
        let left_shape = self.shape_of(&left);
        let left_shape = self.bind(left_shape);
        let right_shape = self.shape_of(&right);
        let right_shape = self.bind(right_shape);
        let one = Arr::scalar_constant(Scalar::Int(1));
        let minus_one = Arr::scalar_constant(Scalar::Int(-1));
        let left_frame = self.take_or_drop("drop", minus_one.clone(), left_shape.clone(), span)?;
        let left_frame = Arr {
            extents: vec![Some(ra - 1)],
            ..left_frame
        };
        let right_frame = match right_inner {
            RightInnerAxis::First => self.take_or_drop("drop", one, right_shape.clone(), span)?,
            RightInnerAxis::Last => self.take_or_drop("drop", minus_one.clone(), right_shape.clone(), span)?,
        };
        let right_frame = Arr {
            extents: vec![Some(rb - 1)],
            ..right_frame
        };
        // A: reshape to (B's frame),(⍴A), then order the axes as (¯1↓⍴A),(B's frame),k. A vector B has an empty
        // frame, and A is already spread: an identity reshape would make lowering materialise a pull array A.
        let spread = if rb == 1 {
            left
        } else {
            let shape = self.catenate_last(right_frame, left_shape, span)?;
            self.reshape(shape, left, span)?
        };
        let axes: Vec<i64> = (ra..=ra + rb - 2)
            .chain(1..ra)
            .chain(std::iter::once(ra + rb - 1))
            .collect();
        let spread_left = self.transpose_axes(spread, &axes);
        // B: reshape to (¯1↓⍴A),(⍴B), then move its inner axis last (where it already is for RightInnerAxis::Last).
        let spread = if ra == 1 {
            right
        } else {
            let shape = self.catenate_last(left_frame, right_shape, span)?;
            self.reshape(shape, right, span)?
        };
        let spread_right = match right_inner {
            RightInnerAxis::First => {
                let axes: Vec<i64> = (1..ra)
                    .chain(std::iter::once(ra + rb - 1))
                    .chain(ra..=ra + rb - 2)
                    .collect();
                self.transpose_axes(spread, &axes)
            }
            RightInnerAxis::Last => spread,
        };
        // The reshapes' shape vectors are catenations, whose extents the reshapes do not see: state them.
        let (right_frame_extents, right_inner_extent) = match right_inner {
            RightInnerAxis::First => (right_extents[1..].to_vec(), right_extents[0]),
            RightInnerAxis::Last => (
                right_extents[..rb as usize - 1].to_vec(),
                right_extents[rb as usize - 1],
            ),
        };
        let frame_extents = [&left_extents[..ra as usize - 1], &right_frame_extents[..]].concat();
        let with_inner = |inner: Option<i64>| [&frame_extents[..], &[inner]].concat();
        Ok((
            spread_left.with_extents(with_inner(left_extents[ra as usize - 1])),
            spread_right.with_extents(with_inner(right_inner_extent)),
        ))
    }

    /// `f⍣n x`: n applications of f (a constant n is unrolled when small); a boolean n applies f conditionally.
    pub fn power(
        &mut self,
        count: Arr,
        argument: Val,
        span: Span,
        step: &mut dyn FnMut(&mut Self, Val) -> ElabResult<Val>,
    ) -> ElabResult<Val> {
        self.power_loop(count, argument, span, false, step)
    }

    /// `f ⎕BENCH n ⊢ x`: `f⍣n x` as one `bench` loop (never unrolled, so that the loop the report times is the one
    /// that runs). The count is always a number of iterations: a boolean 0 or 1 counts too (for ⍣ it would select
    /// the conditional form).
    pub fn timed_power(
        &mut self,
        count: Arr,
        argument: Val,
        span: Span,
        step: &mut dyn FnMut(&mut Self, Val) -> ElabResult<Val>,
    ) -> ElabResult<Val> {
        let count = self.integer_argument(count, span)?;
        self.power_loop(count, argument, span, true, step)
    }

    fn power_loop(
        &mut self,
        count: Arr,
        argument: Val,
        span: Span,
        timed: bool,
        step: &mut dyn FnMut(&mut Self, Val) -> ElabResult<Val>,
    ) -> ElabResult<Val> {
        if count.rank != 0 {
            return Err(ElabError::rank(span, "the right operand of ⍣ must be a scalar"));
        }
        let mut count = count;
        let mut argument = argument;
        for peeled in 0..=MAX_PEELED_APPLICATIONS {
            let Some(n) = count.constant_scalar().and_then(|s| s.as_int()) else {
                break;
            };
            if n < 0 {
                return Err(ElabError::nonce(span, "⍣ with a negative count (inverse)"));
            }
            if n <= 3 && !timed {
                let mut value = argument;
                for _ in 0..n {
                    value = step(self, value)?;
                }
                return Ok(value);
            }
            // A first application that changes the argument's rank or structure (`{(0,⍵)+⍵,0}⍣9⊢1` makes a vector
            // of a scalar) is made before the loop, which then runs on the type of its result; a constant count
            // says that the loop runs at least once.
            if timed || peeled == MAX_PEELED_APPLICATIONS || self.step_keeps_a_loop_type(&argument, span, step)? {
                break;
            }
            argument = step(self, argument)?;
            count = Arr::scalar_constant(Scalar::Int(n - 1));
        }
        let argument = self.bind_value(argument);
        // Find the loop type: widen the argument until one step keeps its type.
        let mut state = self.generalize_value(argument);
        for _ in 0..4 {
            let state_type = value_type(&state, span)?;
            let saved = self.next_variable;
            let result_type = self.probe_step(&state_type, span, step)?;
            self.next_variable = saved.max(self.next_variable);
            if result_type == state_type {
                break;
            }
            state = self.widen_to(state, &result_type, span)?;
        }
        let state_type = value_type(&state, span)?;
        let parameter = self.fresh_name("p");
        let parameter_value = value_from_variable(&parameter, &state_type, &state);
        let body = self.scoped_value(&state_type, span, |this| step(this, parameter_value))?;
        let lambda = Expr::lambda(&parameter, state_type.clone(), body);
        if count.base == Base::Bool {
            let expr = Expr::op("condScl", vec![lambda, count.expr, value_expr(&state)]);
            return self.structured_result(expr, &state, span);
        }
        let count = self.integer_argument(count, span)?;
        let op = if timed { "bench" } else { "power" };
        let expr = Expr::op(op, vec![lambda, count.expr, value_expr(&state)]);
        self.structured_result(expr, &state, span)
    }

    /// The value of a loop over a state: an array stays an expression for its consumer to bind, a tuple is bound
    /// once (see [`Elaborator::bind_structured`]).
    fn structured_result(&mut self, expr: Expr, state: &Val, span: Span) -> ElabResult<Val> {
        match state {
            Val::Tuple(_) => self.bind_structured(expr, state, span),
            _ => Ok(rebuild_value(expr, state)),
        }
    }

    /// `f⍣g x`: apply f until `(f x) g x` holds (`⍣≡` is a fixpoint), through `powerUntil`.
    pub fn power_until(
        &mut self,
        predicate: &Rc<Fun>,
        argument: Val,
        span: Span,
        step: &mut dyn FnMut(&mut Self, Val) -> ElabResult<Val>,
    ) -> ElabResult<Val> {
        let state = self.bind_value(argument);
        let mut state = self.generalize_value(state);
        for _ in 0..4 {
            let state_type = value_type(&state, span)?;
            let saved = self.next_variable;
            let result_type = self.probe_step(&state_type, span, step)?;
            self.next_variable = saved.max(self.next_variable);
            if result_type == state_type {
                break;
            }
            state = self.widen_to(state, &result_type, span)?;
        }
        let state_type = value_type(&state, span)?;
        let parameter = self.fresh_name("p");
        let parameter_value = rebuild_value(Expr::Var(parameter.clone()), &state);
        let body = self.scoped_value(&state_type, span, |this| step(this, parameter_value))?;
        let lambda = Expr::lambda(&parameter, state_type.clone(), body);
        let new_name = self.fresh_name("y");
        let old_name = self.fresh_name("x");
        let new_value = rebuild_value(Expr::Var(new_name.clone()), &state);
        let old_value = rebuild_value(Expr::Var(old_name.clone()), &state);
        let predicate = predicate.clone();
        let test = self.scoped(|this| {
            let value = this.apply_dyadic(&predicate, new_value, old_value, span)?;
            let array = this.expect_array(value, span)?;
            let array = if array.rank == 1 && array.extents[0] == Some(1) {
                this.first(array)
            } else {
                array
            };
            if array.rank != 0 || array.base != Base::Bool {
                return Err(ElabError::domain(
                    span,
                    "the right operand of ⍣ must give a boolean scalar",
                ));
            }
            Ok(array)
        })?;
        let test = Expr::lambda(
            &new_name,
            state_type.clone(),
            Expr::lambda(&old_name, state_type, test.expr),
        );
        let expr = Expr::op("powerUntil", vec![lambda, test, value_expr(&state)]);
        self.bind_structured(expr, &state, span)
    }

    /// `f¨A` on a small constant A, where every application gives a constant: folded at compile time (this is how a
    /// recursive dfn applied to each of a few constants unfolds).
    fn constant_each(&mut self, function: &Rc<Fun>, argument: &Arr, span: Span) -> Option<Arr> {
        let values = argument.constant.as_ref()?.clone();
        if values.len() > 64 || values.is_empty() || argument.rank > 1 {
            return None;
        }
        let scope_length = self.scope_length();
        // What a traditional function assigned outside it goes with the code that is dropped.
        let (env, writes) = (self.env.clone(), self.outer_writes.len());
        let mut results = Vec::with_capacity(values.len());
        for value in values.iter() {
            let result = self.apply_monadic(function, Val::Array(Arr::scalar_constant(*value)), span);
            match result {
                Ok(Val::Array(array)) if array.rank == 0 && array.constant.is_some() => {
                    results.push(array.constant_scalar()?)
                }
                _ => break,
            }
        }
        self.truncate_scope(scope_length);
        // Folded only when every application gave a constant and assigned nothing outside (what it assigned could
        // be code of the dropped scope); otherwise the applications are made again, kept.
        if results.len() < values.len() || !self.env.names_bound_since(&env).is_empty() {
            self.env = env;
            self.outer_writes.truncate(writes);
            return None;
        }
        let base = results
            .iter()
            .map(|r| r.base())
            .try_fold(results[0].base(), |a, b| a.join(b))?;
        if argument.rank == 0 {
            return Some(Arr::scalar_constant(results[0].promote(base)));
        }
        Some(Arr::vector_constant(results, base))
    }

    /// Whether `f⍣n` can loop from `argument`: one application of f gives a value of its type, or of a type that
    /// the argument widens to (an int state that f makes double).
    fn step_keeps_a_loop_type(
        &mut self,
        argument: &Val,
        span: Span,
        step: &mut dyn FnMut(&mut Self, Val) -> ElabResult<Val>,
    ) -> ElabResult<bool> {
        let state = self.generalize_value(argument.clone());
        let state_type = value_type(&state, span)?;
        let saved = self.next_variable;
        let result_type = self.probe_step(&state_type, span, step)?;
        self.next_variable = saved.max(self.next_variable);
        Ok(widens_to(&state_type, &result_type))
    }

    fn probe_step(
        &mut self,
        state_type: &Type,
        span: Span,
        step: &mut dyn FnMut(&mut Self, Val) -> ElabResult<Val>,
    ) -> ElabResult<Type> {
        let parameter = self.fresh_name("p");
        let shape_template = value_of_type(state_type);
        let value = value_from_variable(&parameter, state_type, &shape_template);
        self.frames.push(Vec::new());
        let result = self.without_assignments_outside(span, |this| step(this, value));
        self.frames.pop();
        value_type(&result?, span)
    }

    /// Elaborate a value-producing body in its own scope, checking it has the given type.
    fn scoped_value(
        &mut self,
        expected: &Type,
        span: Span,
        body: impl FnOnce(&mut Self) -> ElabResult<Val>,
    ) -> ElabResult<Expr> {
        self.frames.push(Vec::new());
        let result = self.without_assignments_outside(span, body);
        let frame = self.frames.pop().expect("the scope's frame");
        let value = self.generalize_value(result?);
        let actual = value_type(&value, span)?;
        if &actual != expected {
            return Err(ElabError::nonce(
                span,
                format!("⍣ with a function that changes its argument's type from {expected} to {actual}"),
            ));
        }
        Ok(super::wrap_entries(frame, value_expr(&value)))
    }

    fn widen_to(&mut self, value: Val, target: &Type, span: Span) -> ElabResult<Val> {
        match (value, target) {
            (Val::Array(array), Type::Array { base, rank }) if *rank == array.rank && *base >= array.base => {
                let widened = self.convert(array, *base, span)?;
                Ok(Val::Array(self.bind(widened)))
            }
            (Val::Tuple(components), Type::Tuple(types)) if components.len() == types.len() => {
                let mut widened = Vec::new();
                for (component, component_type) in components.into_iter().zip(types) {
                    widened.push(self.widen_to(component, component_type, span)?);
                }
                Ok(Val::Tuple(widened))
            }
            (_, target) => Err(ElabError::nonce(
                span,
                format!("⍣ with a function whose result type ({target}) differs from its argument's"),
            )),
        }
    }
}

/// The integer 1, as an APL value.
fn one() -> Val {
    Val::Array(Arr::scalar_constant(Scalar::Int(1)))
}

/// How many applications of `f⍣n` (a constant n) are made before the loop when each changes the value's rank.
const MAX_PEELED_APPLICATIONS: usize = 2;

/// Whether a value of type `from` widens to type `to`: the same structure and ranks, bases that promote.
fn widens_to(from: &Type, to: &Type) -> bool {
    match (from, to) {
        (Type::Array { base: a, rank: r }, Type::Array { base: b, rank: s }) => r == s && a <= b,
        (Type::Tuple(xs), Type::Tuple(ys)) => xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| widens_to(x, y)),
        _ => false,
    }
}

/// The identity item of a reduction whose lambda is just one TAIL op (`{⍺+⍵}` elaborates to `addi`).
fn op_identity(lambda: &Expr, base: Base) -> Option<Scalar> {
    let Expr::Lambda(x, _, body) = lambda else { return None };
    let Expr::Lambda(y, _, inner) = &**body else {
        return None;
    };
    let Expr::Op(name, arguments) = inner.without_site() else {
        return None;
    };
    if !matches!(arguments.as_slice(), [Expr::Var(a), Expr::Var(b)] if a == x && b == y) {
        return None;
    }
    let primitive = match *name {
        "addi" | "addd" | "addx" => Primitive::Plus,
        "subi" | "subd" | "subx" => Primitive::Minus,
        "muli" | "muld" | "mulx" => Primitive::Times,
        "divd" => Primitive::Divide,
        "maxi" | "maxd" => Primitive::Ceiling,
        "mini" | "mind" => Primitive::Floor,
        "andb" => Primitive::And,
        "orb" => Primitive::Or,
        "eqb" => Primitive::Equal,
        "xorb" => Primitive::NotEqual,
        _ => return None,
    };
    identity_item(primitive, base)
}

/// The primitive behind a function value, for its identity item.
pub(super) fn primitive_of(function: &Fun) -> Option<Primitive> {
    match function {
        Fun::Primitive(primitive, _) => Some(*primitive),
        _ => None,
    }
}

pub fn value_type(value: &Val, span: Span) -> ElabResult<Type> {
    match value {
        Val::Array(array) => Ok(array.tail_type()),
        Val::Tuple(components) | Val::Nested { items: components, .. } => Ok(Type::Tuple(
            components
                .iter()
                .map(|c| value_type(c, span))
                .collect::<ElabResult<Vec<_>>>()?,
        )),
        _ => Err(ElabError::nonce(span, "a function as a value here")),
    }
}

/// The TAIL expression of a value (a tuple expression for a tuple).
pub fn value_expr(value: &Val) -> Expr {
    match value {
        Val::Array(array) => array.expr.clone(),
        Val::Tuple(components) | Val::Nested { items: components, .. } => {
            Expr::Tuple(components.iter().map(value_expr).collect())
        }
        _ => Expr::Int(0),
    }
}

/// A value of the same shape as `like`, whose expression is `expr` (projections for a tuple).
pub fn rebuild_value(expr: Expr, like: &Val) -> Val {
    match like {
        Val::Array(array) => Val::Array(Arr {
            expr,
            constant: None,
            extents: array.extents.iter().map(|_| None).collect(),
            ..array.clone()
        }),
        Val::Tuple(components) => Val::Tuple(
            components
                .iter()
                .enumerate()
                .map(|(index, component)| rebuild_value(Expr::Project(index, Box::new(expr.clone())), component))
                .collect(),
        ),
        Val::Nested { shape, items } => Val::Nested {
            shape: shape.clone(),
            items: items
                .iter()
                .enumerate()
                .map(|(index, item)| rebuild_value(Expr::Project(index, Box::new(expr.clone())), item))
                .collect(),
        },
        other => other.clone(),
    }
}

/// A value referring to a variable of the given type (its components projected out for a tuple).
fn value_from_variable(name: &str, value_type: &Type, like: &Val) -> Val {
    let _ = value_type;
    rebuild_value(Expr::Var(name.to_string()), like)
}

/// A placeholder value of a type (its expressions are meaningless; only the structure and types are used).
pub fn value_of_type(value_type: &Type) -> Val {
    match value_type {
        Type::Array { base, rank } => Val::Array(Arr::dynamic(Expr::Int(0), *base, *rank)),
        Type::Tuple(types) => Val::Tuple(types.iter().map(value_of_type).collect()),
    }
}

/// The constant cell ranks of `⍤`'s right operand: one to three integers.
fn cell_ranks(rank: &Arr) -> Option<Vec<i64>> {
    rank.constant_ints().filter(|ranks| (1..=3).contains(&ranks.len()))
}

/// The window sizes of `⌺`'s right operand: a vector of constants, or a matrix whose first row is the sizes and whose
/// second the steps (which must be 1). Windows centred on an item need odd sizes; Dyalog's even windows are refused,
/// as are other steps.
fn stencil_window_sizes(operand: &Arr) -> Result<Vec<i64>, String> {
    let values = || -> Option<Vec<i64>> { operand.constant.as_ref()?.iter().map(|value| value.as_int()).collect() };
    let Some(values) = values() else {
        return Err("⌺ with window sizes that are not constants".into());
    };
    let sizes = match (operand.rank, operand.extents.as_slice()) {
        (0 | 1, _) => values,
        (2, [Some(2), Some(count)]) => {
            let (sizes, steps) = values.split_at(*count as usize);
            if steps.iter().any(|&step| step != 1) {
                return Err("⌺ with steps other than 1".into());
            }
            sizes.to_vec()
        }
        _ => return Err("⌺ with a right operand that is neither a vector of sizes nor sizes over steps".into()),
    };
    if sizes.is_empty() || sizes.iter().any(|&size| size < 1 || size % 2 == 0) {
        return Err(format!(
            "⌺ with window sizes {sizes:?}: only odd sizes (windows centred on an item) are supported"
        ));
    }
    Ok(sizes)
}

/// A cell rank for an argument of rank `rank`: a negative k counts down from it; the result is at least 0.
fn effective_cell_rank(k: i64, rank: usize) -> usize {
    if k < 0 {
        (rank as i64 + k).max(0) as usize
    } else {
        k as usize
    }
}
