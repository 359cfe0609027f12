//! Primitive functions: the dispatch on valence, and the structural functions (`⍴ , ⍪ ⍳ ⌽ ⊖ ⍉ ↑ ↓ ⊃ ≢ ⍋ ⍒ ⊣ ⊢`).
//!
//! Rank is always static; where an op needs more (the length of `⍴`'s left argument, `⍉`'s axes), the tagged
//! argument must carry it, and a clear NONCE ERROR says so otherwise.

use super::env::{Arr, Scalar, Val};
use super::error::{ElabError, ElabResult};
use super::ir::{Base, Expr};
use super::scalar::{is_scalar_monadic, is_scalar_primitive};
use super::Elaborator;
use crate::source::Span;
use crate::syntax::ast::Primitive;
use std::rc::Rc;

impl Elaborator {
    pub fn primitive_monadic(&mut self, primitive: Primitive, argument: Val, span: Span) -> ElabResult<Val> {
        use Primitive::*;
        if !has_monadic_form(primitive) {
            // Not a missing feature: the function does not exist (Dyalog: SYNTAX ERROR, VALENCE ERROR since 19.0).
            return Err(ElabError::syntax(
                span,
                format!("{} has no monadic form: it needs a left argument", primitive.glyph()),
            ));
        }
        if matches!(primitive, RightTack | LeftTack) {
            return Ok(argument);
        }
        if is_nested(&argument) {
            let shape_and_items = self
                .shape_and_items(argument.clone(), span)?
                .expect("a nested value has items");
            if let Some(value) = self.nested_monadic(primitive, shape_and_items, span)? {
                return Ok(value);
            }
        }
        if primitive == Match {
            return Ok(Val::Array(Arr::scalar_constant(Scalar::Int(match &argument {
                Val::Array(array) if array.rank == 0 => 0,
                _ => 1,
            }))));
        }
        let argument = self.expect_array(argument, span)?;
        if primitive == NotEqual {
            return self.unique_mask(argument, span).map(Val::Array);
        }
        if is_scalar_monadic(primitive) {
            return self.scalar_monadic(primitive, argument, span).map(Val::Array);
        }
        // `⍴A` and `≢A` read no element of A, but APL computes A first: binding it keeps a computation that may fail
        // (dead-code elimination drops it only when it cannot), where a static shape would drop A altogether.
        let argument = if matches!(primitive, Rho | Tally) {
            self.bind(argument)
        } else {
            argument
        };
        let result = match primitive {
            Rho => self.shape_of(&argument),
            Comma | Epsilon => self.ravel(argument),
            CommaBar => self.table(argument, span)?,
            Iota => self.iota(argument, span)?,
            CircleStile => self.reverse_last(argument),
            CircleBar => self.reverse_first(argument),
            Transpose => self.transpose(argument),
            Tally => self.tally(&argument),
            RightShoe => self.first(argument),
            UpArrow => argument,
            Squad => Arr {
                expr: Expr::op("mem", vec![argument.expr]),
                ..argument
            },
            GradeUp | GradeDown => self.grade(primitive, argument, span)?,
            IotaUnderbar => self.where_true(argument, span)?,
            Union => return self.items_or_rows("∪ (unique)", ("unique", "unique_rows"), argument, span),
            Format => self.format(argument, span)?,
            Domino => self.matrix_inverse(argument, span)?,
            // Nest (⊆): a simple array is enclosed, as ⊂ does.
            LeftShoe | LeftShoeUnderbar => return self.enclose(Val::Array(argument), span),
            DownArrow => return self.split(argument, span),
            other => return Err(ElabError::nonce(span, format!("monadic {}", other.glyph()))),
        };
        Ok(Val::Array(result))
    }

    /// `≠⍵` (unique mask): 1 at the first occurrence of each item of a vector, or of each row of a matrix.
    fn unique_mask(&mut self, argument: Arr, span: Span) -> ElabResult<Arr> {
        let names = ("unique_mask", "unique_rows_mask");
        let mask = self.items_or_rows("≠ (unique mask)", names, argument, span)?;
        self.expect_array(mask, span)
    }

    /// A prelude function on the items of a vector (a scalar is a vector of one) or, by its second name, on the rows
    /// of a matrix; `what` names the primitive in the NONCE ERROR for higher ranks.
    fn items_or_rows(
        &mut self,
        what: &str,
        (on_items, on_rows): (&str, &str),
        argument: Arr,
        span: Span,
    ) -> ElabResult<Val> {
        match argument.rank {
            0 => {
                let vector = self.ravel(argument);
                self.apply_prelude_monadic(on_items, vector, span)
            }
            1 => self.apply_prelude_monadic(on_items, argument, span),
            2 => self.apply_prelude_monadic(on_rows, argument, span),
            _ => Err(ElabError::nonce(span, format!("{what} of an array of rank 3 or more"))),
        }
    }

    pub fn primitive_dyadic(&mut self, primitive: Primitive, left: Val, right: Val, span: Span) -> ElabResult<Val> {
        use Primitive::*;
        match primitive {
            RightTack => return Ok(right),
            LeftTack => return Ok(left),
            _ => {}
        }
        if primitive == RightShoe {
            return self.pick(left, right, span);
        }
        if matches!(primitive, LeftShoe | LeftShoeUnderbar) {
            return self.partition(primitive, left, right, span);
        }
        if primitive == Squad {
            if let Val::Tuple(_) = right {
                return self.pick_from_tuple(left, right, span);
            }
        }
        if is_nested(&left) || is_nested(&right) {
            return self.nested_dyadic(primitive, left, right, span);
        }
        let left = self.expect_array(left, span)?;
        let right = self.expect_array(right, span)?;
        if primitive == Comma && left.base.join(right.base).is_none() && left.rank <= 1 && right.rank <= 1 {
            return self.mixed_catenation(left, right, span);
        }
        if is_scalar_primitive(primitive) {
            return self.scalar_dyadic(primitive, left, right, span).map(Val::Array);
        }
        let result = match primitive {
            Rho => self.reshape(left, right, span)?,
            Comma => self.catenate_last(left, right, span)?,
            CommaBar => self.catenate_first(left, right, span)?,
            UpArrow => self.take_or_drop("take", left, right, span)?,
            DownArrow => self.take_or_drop("drop", left, right, span)?,
            CircleStile => self.rotate_last(left, right, span)?,
            CircleBar => self.rotate_first(left, right, span)?,
            Transpose => self.transpose_with_axes(left, right, span)?,
            RightShoe | Squad => self.squad(left, right, span)?,
            Slash | SlashBar => self.replicate(left, right, primitive == SlashBar, span)?,
            Backslash | BackslashBar => self.expand(left, right, primitive == BackslashBar, span)?,
            Iota => self.index_of(left, right, span)?,
            GradeUp | GradeDown => self.grade_by_collation(primitive, left, right, span)?,
            Epsilon => self.member_of(left, right, span)?,
            Match => self.match_arrays(left, right, span)?,
            Tally => {
                let matched = self.match_arrays(left, right, span)?;
                self.scalar_monadic(Tilde, matched, span)?
            }
            Tilde => self.without(left, right, span)?,
            Union | Intersection => {
                let left = if left.rank == 0 { self.ravel(left) } else { left };
                let right = if right.rank == 0 { self.ravel(right) } else { right };
                if left.rank != 1 || right.rank != 1 {
                    return Err(ElabError::rank(span, format!("{} needs vectors", primitive.glyph())));
                }
                let (left, right) = self.unify_bases(left, right, span)?;
                let name = if primitive == Union { "union" } else { "intersection" };
                return self.apply_prelude_dyadic(name, left, right, span);
            }
            IotaUnderbar => self.interval_index(left, right, span)?,
            Find => return self.find(left, right, span),
            Question => return self.deal(left, right, span),
            UpTack => self.decode(left, right, span)?,
            DownTack => self.encode(left, right, span)?,
            Domino => self.matrix_divide(left, right, span)?,
            Format => self.format_in_fields(left, right, span)?,
            other => return Err(ElabError::nonce(span, format!("dyadic {}", other.glyph()))),
        };
        Ok(Val::Array(result))
    }

    /// `w d⍕⍵` (format with a field width and a number of decimals, constants): each number of ⍵ in a field of w
    /// characters with d decimals (the prelude's `format_fields`, one field per row); a vector's fields make one
    /// character vector, a matrix's row's fields one row.
    fn format_in_fields(&mut self, specification: Arr, argument: Arr, span: Span) -> ElabResult<Arr> {
        let Some(specification_values) = specification.constant_ints() else {
            return Err(ElabError::nonce(
                span,
                "⍕ with a left argument that is not integer constants",
            ));
        };
        let (width, decimals) = match specification_values[..] {
            [decimals] => (0, decimals),
            [width, decimals] => (width, decimals),
            _ => {
                return Err(ElabError::nonce(
                    span,
                    "⍕ with a left argument that is not one width and one number of decimals",
                )
                .with_hint("write the field width and the number of decimals, as in 8 2⍕x, or the decimals alone"));
            }
        };
        if decimals < 0 {
            return Err(ElabError::nonce(
                span,
                "⍕ with a negative number of decimals (scaled form)",
            ));
        }
        if matches!(argument.base, Base::Char | Base::Complex) {
            return Err(ElabError::domain(span, "d⍕ and w d⍕ format real numbers"));
        }
        if width == 0 {
            return self.format_with_decimals(decimals, argument, span);
        }
        if width < 0 {
            return Err(ElabError::domain(span, "⍕ needs a width of at least 0"));
        }
        // The digits of a field come from one integer of up to 18 digits (the magnitude times 10*d).
        if width > 19 {
            return Err(ElabError::nonce(span, "⍕ with fields wider than 19 characters"));
        }
        if argument.rank > 2 {
            return Err(ElabError::nonce(span, "w d⍕ on an array of rank 3 or more"));
        }
        let argument = self.bind(argument);
        let fields = self.apply_prelude_dyadic("format_fields", specification, argument.clone(), span)?;
        let fields = self.expect_array(fields, span)?;
        if argument.rank < 2 {
            return Ok(self.ravel(fields));
        }
        let shape = self.shape_of(&argument);
        let shape = self.bind(shape);
        let rows = self.vector_element(&shape, 0, span)?;
        let columns = self.vector_element(&shape, 1, span)?;
        let width = Arr::scalar_constant(Scalar::Int(width));
        let row_length = self.scalar_dyadic(Primitive::Times, columns, width, span)?;
        let rows = self.ravel(rows);
        let row_length = self.ravel(row_length);
        let new_shape = self.catenate_last(rows, row_length, span)?;
        self.reshape(new_shape, fields, span)
    }

    /// `d⍕⍵` and `0 d⍕⍵` (a constant number of decimals, no width): each column of ⍵ (each item of a vector) as wide
    /// as its widest item needs, plus one blank on its left (the prelude's `format_decimals`, on ⍵ as a matrix). A
    /// scalar or a vector gives a character vector, a matrix a character matrix.
    fn format_with_decimals(&mut self, decimals: i64, argument: Arr, span: Span) -> ElabResult<Arr> {
        if argument.rank > 2 {
            return Err(ElabError::nonce(span, "d⍕ on an array of rank 3 or more"));
        }
        // The integer digits come from comparisons with 10*⍳18 and the digits from one encode of up to 18 digits.
        if decimals > 17 {
            return Err(ElabError::nonce(span, "⍕ with more than 17 decimals"));
        }
        let rank = argument.rank;
        let matrix = if rank == 2 {
            argument
        } else {
            let argument = self.ravel(argument);
            let argument = self.bind(argument);
            let length = self.shape_of(&argument);
            let one = Arr::vector_constant(vec![Scalar::Int(1)], Base::Int);
            let matrix_shape = self.catenate_last(one, length, span)?;
            self.reshape(matrix_shape, argument, span)?
        };
        let decimals = Arr::scalar_constant(Scalar::Int(decimals));
        let text = self.apply_prelude_dyadic("format_decimals", decimals, matrix, span)?;
        let text = self.expect_array(text, span)?;
        Ok(if rank == 2 { text } else { self.ravel(text) })
    }

    /// `A⍸B` (interval index) for an ascending vector A: for each item of B, how many items of A are ≤ it, which
    /// for an ascending A is the index of the interval `A[i] ≤ b < A[i+1]` that holds it (0 before the first).
    fn interval_index(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        let left = if left.rank == 0 { self.ravel(left) } else { left };
        if left.rank != 1 {
            return Err(ElabError::nonce(span, "⍸ with a left argument of rank 2 or more")
                .with_hint("interval index is supported for a vector of interval starts"));
        }
        if (left.base == Base::Char) != (right.base == Base::Char) {
            return Err(ElabError::domain(span, "⍸ of characters among numbers"));
        }
        let value = self.apply_prelude_dyadic("interval_index", left, right, span)?;
        self.expect_array(value, span)
    }

    /// `A⍷B` (find): a boolean array of B's shape, 1 where a copy of A starts in B. As in Dyalog, an A of lower rank
    /// counts as having leading axes of length 1 (a vector is found along B's last axis, in every row); an A of higher
    /// rank, or of characters among numbers, is found nowhere.
    fn find(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Val> {
        if (left.base == Base::Char) != (right.base == Base::Char) || left.rank > right.rank {
            return self.apply_prelude_dyadic("find_nowhere", left, right, span);
        }
        let (left, right) = self.unify_bases(left, right, span)?;
        let name = match (left.rank, right.rank) {
            (_, 0) => "find_in_scalar",
            (0 | 1, _) => "find_along_last_axis",
            (2, 2) => "find_in_matrix",
            _ => {
                return Err(ElabError::nonce(
                    span,
                    "⍷ of a matrix in an array of rank 3 or more, or of an array of rank 3 or more",
                )
                .with_hint("find is supported for a scalar or a vector in any array, and a matrix in a matrix"))
            }
        };
        let left = if left.rank == 0 { self.ravel(left) } else { left };
        self.apply_prelude_dyadic(name, left, right, span)
    }

    /// `A?B` (deal): A distinct integers drawn from `⍳B`, in random order, from the generator of `?` (every backend
    /// draws the same numbers). Both are scalar integers; A > B, or a negative A, is a DOMAIN ERROR.
    fn deal(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Val> {
        if left.rank != 0 || right.rank != 0 {
            return Err(ElabError::rank(span, "⍺?⍵ (deal) takes two scalars"));
        }
        if !matches!(left.base, Base::Bool | Base::Int) || !matches!(right.base, Base::Bool | Base::Int) {
            return Err(ElabError::domain(span, "⍺?⍵ (deal) needs integers"));
        }
        let left = self.convert(left, Base::Int, span)?;
        let right = self.convert(right, Base::Int, span)?;
        if let (Some(&[count]), Some(&[range])) = (left.constant_ints().as_deref(), right.constant_ints().as_deref()) {
            if count < 0 || count > range {
                return Err(ElabError::domain(
                    span,
                    format!("{count}?{range}: deal needs 0 ≤ ⍺ ≤ ⍵ (⍺ distinct items of ⍳⍵)"),
                ));
            }
        }
        self.apply_prelude_dyadic("deal", left, right, span)
    }

    /// Apply a dyadic prelude function, with its errors pointing at the use.
    pub(super) fn apply_prelude_dyadic(&mut self, name: &str, left: Arr, right: Arr, span: Span) -> ElabResult<Val> {
        let function = self.prelude_function(name, span)?;
        self.apply_dyadic(&function, Val::Array(left), Val::Array(right), span)
            .map_err(|error| error.at(span))
    }

    /// Apply a monadic prelude function, with its errors pointing at the use.
    pub(super) fn apply_prelude_monadic(&mut self, name: &str, argument: Arr, span: Span) -> ElabResult<Val> {
        let function = self.prelude_function(name, span)?;
        self.apply_monadic(&function, Val::Array(argument), span)
            .map_err(|error| error.at(span))
    }

    /// `⍴A`: a vector of known length (the rank); constant when the shape is static.
    pub fn shape_of(&mut self, array: &Arr) -> Arr {
        if let Some(shape) = array.static_shape() {
            return Arr::vector_constant(shape.into_iter().map(Scalar::Int).collect(), Base::Int);
        }
        Arr::dynamic(Expr::op("shape", vec![array.expr.clone()]), Base::Int, 1)
            .with_extents(vec![Some(array.rank as i64)])
    }

    /// `≢A`: the length of the first axis (1 for a scalar).
    pub fn tally(&mut self, array: &Arr) -> Arr {
        if array.rank == 0 {
            return Arr::scalar_constant(Scalar::Int(1));
        }
        if let Some(extent) = array.extents[0] {
            return Arr::scalar_constant(Scalar::Int(extent));
        }
        Arr::dynamic(Expr::op("tally", vec![array.expr.clone()]), Base::Int, 0)
    }

    pub fn ravel(&mut self, array: Arr) -> Arr {
        if array.rank == 1 {
            return array;
        }
        let size = array.static_size();
        let constant = array.constant.clone();
        let expr = if array.rank == 0 {
            Expr::Vector(vec![array.expr], array.base)
        } else {
            Expr::op("rav", vec![array.expr])
        };
        Arr {
            expr,
            base: array.base,
            rank: 1,
            extents: vec![size],
            constant,
        }
    }

    /// Monadic `⍪`: a matrix with the first axis kept and the rest ravelled.
    pub fn table(&mut self, array: Arr, span: Span) -> ElabResult<Arr> {
        match array.rank {
            0 | 1 => {
                let vector = self.ravel(array);
                let vector = self.bind(vector);
                let length = self.tally(&vector);
                let shape = Arr::dynamic(
                    Expr::Vector(vec![length.expr.clone(), Expr::Int(1)], Base::Int),
                    Base::Int,
                    1,
                )
                .with_extents(vec![Some(2)]);
                self.reshape(shape, vector, span)
            }
            2 => Ok(array),
            _ => Err(ElabError::nonce(span, "monadic ⍪ on an array of rank 3 or more")),
        }
    }

    pub fn iota(&mut self, argument: Arr, span: Span) -> ElabResult<Arr> {
        if argument.rank > 1 || (argument.rank == 1 && argument.extents[0] != Some(1)) {
            return Err(ElabError::nonce(span, "⍳ of a vector (nested result)"));
        }
        let argument = if argument.rank == 1 {
            self.first(argument)
        } else {
            argument
        };
        let argument = self.integer_argument(argument, span)?;
        let extent = argument.constant_scalar().and_then(|s| s.as_int());
        if let Some(n) = extent {
            if n < 0 {
                return Err(ElabError::domain(span, "⍳ of a negative number"));
            }
        }
        // iotaV needs its argument typed as a singleton `S(int,n)`: a literal gives that, whereas an expression whose
        // value elaboration knows (`⍬⍴1 2 3`) is only typed `[int]0` by TAIL.
        let expr = match extent {
            Some(n) => Expr::op("iotaV", vec![Expr::Int(n)]),
            None => Expr::op("iota", vec![argument.expr]),
        };
        let mut result = Arr::dynamic(expr, Base::Int, 1).with_extents(vec![extent]);
        // A short index vector's values are known, so that what is computed from it at compile time stays known:
        // the axes of `(⌽⍳⍴⍴A)⍉A` (the expression stays iotaV, so code that does not fold it is unchanged).
        if let Some(n) = extent.filter(|n| *n <= KNOWN_INDEX_VECTOR_LIMIT) {
            result.constant = Some(Rc::new((1..=n).map(Scalar::Int).collect()));
        }
        Ok(result)
    }

    /// An argument that must be integral: bools are widened; doubles are converted, a constant one when compiling
    /// (a DOMAIN ERROR unless whole), others when running.
    pub fn integer_argument(&mut self, argument: Arr, span: Span) -> ElabResult<Arr> {
        match argument.base {
            Base::Int => Ok(argument),
            Base::Bool => self.convert(argument, Base::Int, span),
            Base::Double => {
                if let Some(values) = &argument.constant {
                    let ints: Option<Vec<Scalar>> = values.iter().map(|v| v.as_int().map(Scalar::Int)).collect();
                    if let Some(ints) = ints {
                        if argument.rank == 0 {
                            return Ok(Arr::scalar_constant(ints[0]));
                        }
                        if argument.rank == 1 {
                            return Ok(Arr::vector_constant(ints, Base::Int));
                        }
                    }
                }
                Ok(self.whole_numbers_as_ints(argument, span))
            }
            _ => Err(ElabError::domain(
                span,
                format!("an integer is needed here, not a {}", argument.base.name()),
            )),
        }
    }

    /// Doubles used where APL needs integers (`⍳N÷2`, `V[N÷2]`, `(N÷2)↑V` after N←N÷2): as Dyalog, a tolerantly
    /// whole number is that integer, and anything else is a DOMAIN ERROR, raised at `span` when the program runs.
    fn whole_numbers_as_ints(&mut self, array: Arr, span: Span) -> Arr {
        let expr = if array.rank == 0 {
            Expr::op("d2i", vec![array.expr])
        } else {
            let parameter = self.fresh_name("w");
            let lambda = Expr::lambda(
                &parameter,
                super::ir::Type::scalar(Base::Double),
                Expr::op("d2i", vec![Expr::Var(parameter.clone())]),
            );
            Expr::op("each", vec![lambda, array.expr])
        };
        Arr {
            expr: Expr::at(span, expr),
            base: Base::Int,
            constant: None,
            ..array
        }
    }

    pub fn first(&mut self, array: Arr) -> Arr {
        if array.rank == 0 {
            return array;
        }
        if let Some(values) = &array.constant {
            if let Some(value) = values.first() {
                return Arr::scalar_constant(*value);
            }
        }
        Arr::dynamic(Expr::op("first", vec![array.expr]), array.base, 0)
    }

    pub fn reverse_last(&mut self, array: Arr) -> Arr {
        match array.rank {
            0 => array,
            1 => Arr {
                expr: Expr::op("reverse", vec![array.expr]),
                constant: array
                    .constant
                    .as_ref()
                    .map(|values| Rc::new(values.iter().rev().copied().collect())),
                ..array
            },
            _ => {
                let transposed = Expr::op("transp", vec![array.expr]);
                Arr {
                    expr: Expr::op("transp", vec![Expr::op("vreverse", vec![transposed])]),
                    constant: None,
                    ..array
                }
            }
        }
    }

    pub fn reverse_first(&mut self, array: Arr) -> Arr {
        match array.rank {
            0 => array,
            1 => self.reverse_last(array),
            _ => Arr {
                expr: Expr::op("vreverse", vec![array.expr]),
                constant: None,
                ..array
            },
        }
    }

    pub fn transpose(&mut self, array: Arr) -> Arr {
        if array.rank < 2 {
            return array;
        }
        let mut extents = array.extents.clone();
        extents.reverse();
        Arr::dynamic(Expr::op("transp", vec![array.expr]), array.base, array.rank).with_extents(extents)
    }

    pub(super) fn transpose_with_axes(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        let Some(axes) = left.constant_ints() else {
            return Err(ElabError::nonce(span, "dyadic ⍉ with axes that are not constant"));
        };
        if axes.len() != right.rank {
            return Err(ElabError::length(
                span,
                format!("{} axes for an array of rank {}", axes.len(), right.rank),
            ));
        }
        let mut sorted = axes.clone();
        sorted.sort();
        if axes == [1, 1] {
            let diagonal = self.apply_prelude_monadic("diagonal", right, span)?;
            return self.expect_array(diagonal, span);
        }
        if sorted != (1..=right.rank as i64).collect::<Vec<_>>() {
            return Err(ElabError::nonce(
                span,
                "dyadic ⍉ with repeated axes (diagonals) other than 1 1⍉ of a matrix",
            ));
        }
        let mut extents = vec![None; right.rank];
        for (source, target) in axes.iter().enumerate() {
            extents[(*target - 1) as usize] = right.extents[source];
        }
        let axes_literal = Expr::Vector(axes.iter().map(|a| Expr::Int(*a)).collect(), Base::Int);
        Ok(Arr::dynamic(
            Expr::op("transp2", vec![axes_literal, right.expr]),
            right.base,
            right.rank,
        )
        .with_extents(extents))
    }

    pub fn reshape(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        if left.rank > 1 {
            return Err(ElabError::rank(span, "the left argument of ⍴ must be a vector"));
        }
        let left = self.integer_argument(left, span)?;
        let left = if left.rank == 0 { self.ravel(left) } else { left };
        let Some(rank) = left.extents[0] else {
            return Err(
                ElabError::nonce(span, "⍴ with a left argument whose length is not known statically")
                    .with_hint("the rank of every array must be static; write the shape as a strand, e.g. (n m)⍴x"),
            );
        };
        let extents = match left.constant_ints() {
            Some(values) => values.into_iter().map(Some).collect(),
            None => match left.expr.without_site() {
                Expr::Vector(elements, _) => elements
                    .iter()
                    .map(|e| match e {
                        Expr::Int(v) => Some(*v),
                        _ => None,
                    })
                    .collect(),
                _ => vec![None; rank as usize],
            },
        };
        if let Some(values) = left.constant_ints() {
            if values.iter().any(|v| *v < 0) {
                return Err(ElabError::domain(span, "a negative extent in the left argument of ⍴"));
            }
        }
        let right = if right.rank == 0 { self.ravel(right) } else { right };
        // TAIL's reshape takes a vector whose length its types know; `takeV` states the length we know.
        let left = if self.knows_length(&left.expr) {
            left
        } else {
            Arr {
                expr: Expr::op("takeV", vec![Expr::Int(rank), left.expr]),
                ..left
            }
        };
        let constant = match (&right.constant, left.constant_ints()) {
            (Some(values), Some(shape)) if !values.is_empty() => {
                let size = shape
                    .iter()
                    .try_fold(1i64, |product, extent| product.checked_mul(*extent))
                    .unwrap_or(i64::MAX);
                if size <= 4096 {
                    Some(std::rc::Rc::new(
                        (0..size as usize).map(|i| values[i % values.len()]).collect(),
                    ))
                } else {
                    None
                }
            }
            _ => None,
        };
        Ok(Arr {
            expr: Expr::op("reshape", vec![left.expr, right.expr]),
            base: right.base,
            rank: rank as usize,
            extents,
            constant,
        })
    }

    /// `⍺,⍵` of characters and numbers (`'x',3.5`, `'ab',1 2`): a simple mixed vector, which aplc holds as a strand of
    /// scalars, so the two lengths must be known when compiling (at most 64 items in all).
    fn mixed_catenation(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Val> {
        let mut items = Vec::new();
        for side in [left, right] {
            match self.shape_and_items(Val::Array(side), span)? {
                Some((_, side_items)) => items.extend(side_items),
                None => return Err(
                    ElabError::nonce(span, "an array mixing characters and numbers").with_hint(
                        "a vector of characters and numbers needs both lengths known when compiling (64 items at most)",
                    ),
                ),
            }
        }
        let count = items.len();
        self.nested(vec![count], items, span)
    }

    /// Promote two arrays to their joined base type. Characters and numbers have none: APL makes a mixed array of
    /// them (a catenation, a union), which aplc holds only as a strand of scalars (`mixed_catenation`).
    pub fn unify_bases(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<(Arr, Arr)> {
        let Some(base) = left.base.join(right.base) else {
            return Err(ElabError::nonce(span, "an array mixing characters and numbers here"));
        };
        let left = self.convert(left, base, span)?;
        let right = self.convert(right, base, span)?;
        Ok((left, right))
    }

    /// `A,B` along the last axis.
    pub fn catenate_last(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        let (left, right) = self.unify_bases(left, right, span)?;
        let base = left.base;
        if let (Some(l), Some(r)) = (&left.constant, &right.constant) {
            if left.rank <= 1 && right.rank <= 1 {
                let values: Vec<Scalar> = l.iter().chain(r.iter()).copied().collect();
                return Ok(Arr::vector_constant(values, base));
            }
        }
        let add = |a: Option<i64>, b: Option<i64>| Some(a? + b?);
        match (left.rank, right.rank) {
            (0, 0) => {
                Ok(Arr::dynamic(Expr::Vector(vec![left.expr, right.expr], base), base, 1).with_extents(vec![Some(2)]))
            }
            (0, 1) => {
                let extent = right.extents[0].map(|e| e + 1);
                let op = if self.knows_length(&right.expr) {
                    "consV"
                } else {
                    "cons"
                };
                Ok(Arr::dynamic(Expr::op(op, vec![left.expr, right.expr]), base, 1).with_extents(vec![extent]))
            }
            (1, 0) => {
                let extent = left.extents[0].map(|e| e + 1);
                let op = if self.knows_length(&left.expr) { "snocV" } else { "snoc" };
                Ok(Arr::dynamic(Expr::op(op, vec![left.expr, right.expr]), base, 1).with_extents(vec![extent]))
            }
            (1, 1) if self.knows_length(&left.expr) && self.knows_length(&right.expr) => {
                let extents = vec![add(left.extents[0], right.extents[0])];
                Ok(Arr::dynamic(Expr::op("catV", vec![left.expr, right.expr]), base, 1).with_extents(extents))
            }
            (l, r) if l == r => {
                let mut extents = left.extents.clone();
                extents[l - 1] = add(left.extents[l - 1], right.extents[l - 1]);
                Ok(Arr::dynamic(Expr::op("cat", vec![left.expr, right.expr]), base, l).with_extents(extents))
            }
            (l, r) if l + 1 == r => {
                let mut extents = right.extents.clone();
                extents[r - 1] = right.extents[r - 1].map(|e| e + 1);
                Ok(Arr::dynamic(Expr::op("cons", vec![left.expr, right.expr]), base, r).with_extents(extents))
            }
            (l, r) if r + 1 == l => {
                let mut extents = left.extents.clone();
                extents[l - 1] = left.extents[l - 1].map(|e| e + 1);
                Ok(Arr::dynamic(Expr::op("snoc", vec![left.expr, right.expr]), base, l).with_extents(extents))
            }
            (0, r) => {
                let right = self.bind(right);
                let column = self.column_of(left, &right, span)?;
                self.catenate_last(column, right, span).map(|a| Arr { rank: r, ..a })
            }
            (l, 0) => {
                let left = self.bind(left);
                let column = self.column_of(right, &left, span)?;
                self.catenate_last(left, column, span).map(|a| Arr { rank: l, ..a })
            }
            (l, r) => Err(ElabError::rank(span, format!("catenating arrays of rank {l} and {r}"))),
        }
    }

    /// A scalar extended to the shape of `like` without its last axis (to catenate as a column).
    fn column_of(&mut self, scalar: Arr, like: &Arr, span: Span) -> ElabResult<Arr> {
        let shape = self.shape_of(like);
        let shape = self.bind(shape);
        let count = Arr::scalar_constant(Scalar::Int(-1));
        let frame_shape = self.take_or_drop("drop", count, shape, span)?;
        let frame_shape = Arr {
            extents: vec![Some(like.rank as i64 - 1)],
            ..frame_shape
        };
        self.reshape(frame_shape, scalar, span)
    }

    /// `A⍪B` along the first axis: catenation of the transposes.
    pub fn catenate_first(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        if left.rank <= 1 && right.rank <= 1 {
            return self.catenate_last(left, right, span);
        }
        if left.rank != right.rank {
            let left = self.transpose(left);
            let right = self.transpose(right);
            let joined = self.catenate_last(left, right, span)?;
            return Ok(self.transpose(joined));
        }
        let (left, right) = self.unify_bases(left, right, span)?;
        let mut extents = left.extents.clone();
        extents[0] = match (left.extents[0], right.extents[0]) {
            (Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
        let base = left.base;
        Ok(Arr::dynamic(Expr::op("catFirst", vec![left.expr, right.expr]), base, left.rank).with_extents(extents))
    }

    /// `n↑A` and `n↓A` along the first axis (a one-element left argument only).
    pub fn take_or_drop(&mut self, op: &'static str, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        let glyph = if op == "take" { "↑" } else { "↓" };
        if left.rank > 1 || (left.rank == 1 && left.extents[0] != Some(1)) {
            if left.rank == 1 && left.extents[0].is_some_and(|n| n as usize == right.rank) && right.rank >= 2 {
                return self.take_or_drop_each_axis(op, left, right, span);
            }
            if left.rank > 1 {
                return Err(ElabError::rank(
                    span,
                    format!("the left argument of {glyph} must be a vector"),
                ));
            }
            if let Some(counts) = left.extents[0].filter(|&n| right.rank >= 1 && n as usize > right.rank) {
                return Err(ElabError::length(
                    span,
                    format!("{counts} counts for an array of rank {}", right.rank),
                ));
            }
            return Err(
                ElabError::nonce(span, format!("{glyph} with a left argument of more than one element"))
                    .with_hint("give one count (for the first axis) per use, or one per axis"),
            );
        }
        let left = if left.rank == 1 { self.first(left) } else { left };
        let left = self.integer_argument(left, span)?;
        let right = if right.rank == 0 { self.ravel(right) } else { right };
        let count = left.constant_scalar().and_then(|s| s.as_int());
        let mut extents = right.extents.clone();
        extents[0] = match (op, count, right.extents[0]) {
            ("take", Some(n), _) => Some(n.abs()),
            ("drop", Some(n), Some(e)) => Some((e - n.abs()).max(0)),
            _ => None,
        };
        if let (Some(values), Some(n), 1) = (&right.constant, count, right.rank) {
            let length = values.len() as i64;
            let folded: Option<Vec<Scalar>> = match op {
                "take" if n.abs() <= length => Some(if n >= 0 {
                    values[..n as usize].to_vec()
                } else {
                    values[(length + n) as usize..].to_vec()
                }),
                "drop" => Some(if n >= 0 {
                    values[(n.min(length)) as usize..].to_vec()
                } else {
                    values[..(length + n).max(0) as usize].to_vec()
                }),
                _ => None,
            };
            if let Some(folded) = folded {
                return Ok(Arr::vector_constant(folded, right.base));
            }
        }
        let vector_op = match (op, count, right.rank, right.extents[0]) {
            ("take", Some(n), 1, _) if n >= 0 => Some(("takeV", n)),
            ("take", Some(n), 1, Some(e)) if n < 0 && -n <= e => Some(("takeLastV", -n)),
            ("drop", Some(n), 1, Some(e)) if n >= 0 && n <= e && self.knows_length(&right.expr) => Some(("dropV", n)),
            ("drop", Some(n), 1, Some(e)) if n < 0 && -n <= e && self.knows_length(&right.expr) => {
                Some(("dropLastV", -n))
            }
            _ => None,
        };
        if let Some((vector_op, n)) = vector_op {
            let expr = Expr::op(vector_op, vec![Expr::Int(n), right.expr]);
            return Ok(Arr::dynamic(expr, right.base, 1).with_extents(extents));
        }
        Ok(Arr::dynamic(Expr::op(op, vec![left.expr, right.expr]), right.base, right.rank).with_extents(extents))
    }

    /// `m n↑A`: take or drop along each axis in turn, moving each axis to the front with a transpose.
    fn take_or_drop_each_axis(&mut self, op: &'static str, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        let left = self.integer_argument(left, span)?;
        let left = self.bind(left);
        let rank = right.rank;
        let mut result = right;
        for axis in 0..rank {
            let count = match left.constant_ints() {
                Some(values) => Arr::scalar_constant(Scalar::Int(values[axis])),
                None => {
                    let index = Arr::scalar_constant(Scalar::Int(axis as i64 + 1));
                    self.pick_element(index, left.clone(), span)?
                }
            };
            let moved = self.swap_axis_to_front(result, axis);
            let cut = self.take_or_drop(op, count, moved, span)?;
            result = self.swap_axis_to_front(cut, axis);
        }
        Ok(result)
    }

    /// A transpose exchanging axis 0 and `axis` (its own inverse).
    pub(super) fn swap_axis_to_front(&mut self, array: Arr, axis: usize) -> Arr {
        if axis == 0 {
            return array;
        }
        let mut axes: Vec<i64> = (1..=array.rank as i64).collect();
        axes.swap(0, axis);
        let mut extents = array.extents.clone();
        extents.swap(0, axis);
        let axes_literal = Expr::Vector(axes.into_iter().map(Expr::Int).collect(), Base::Int);
        Arr::dynamic(
            Expr::op("transp2", vec![axes_literal, array.expr]),
            array.base,
            array.rank,
        )
        .with_extents(extents)
    }

    fn rotate_count(&mut self, left: Arr, span: Span) -> ElabResult<Arr> {
        if left.rank > 1 || (left.rank == 1 && left.extents[0] != Some(1)) {
            return Err(ElabError::nonce(span, "rotation by an array of counts"));
        }
        let left = if left.rank == 1 { self.first(left) } else { left };
        self.integer_argument(left, span)
    }

    pub fn rotate_last(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        let per_row = left.rank == 1 && left.extents[0] != Some(1);
        if per_row || left.rank > 1 {
            if left.rank + 1 != right.rank || right.rank != 2 {
                return Err(ElabError::rank(
                    span,
                    "rotation counts must have one item per row of a matrix",
                ));
            }
            if let (Some(counts), Some(rows)) = (left.extents[0], right.extents[0]) {
                if counts != rows {
                    return Err(ElabError::length(
                        span,
                        format!("{counts} rotation counts for {rows} rows"),
                    ));
                }
            }
            let left = self.integer_argument(left, span)?;
            let function = self.prelude_function("rotate_rows", span)?;
            let value = self
                .apply_dyadic(&function, Val::Array(left), Val::Array(right), span)
                .map_err(|error| error.at(span))?;
            return self.expect_array(value, span);
        }
        let count = self.rotate_count(left, span)?;
        match right.rank {
            0 => Ok(right),
            1 => Ok(Arr {
                constant: rotated_constant(&count, &right),
                expr: Expr::op("rotate", vec![count.expr, right.expr]),
                ..right
            }),
            _ => {
                let transposed = Expr::op("transp", vec![right.expr.clone()]);
                Ok(Arr {
                    expr: Expr::op("transp", vec![Expr::op("vrotate", vec![count.expr, transposed])]),
                    constant: None,
                    ..right
                })
            }
        }
    }

    pub fn rotate_first(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        if right.rank <= 1 {
            return self.rotate_last(left, right, span);
        }
        // One count per column of a matrix (`1 0 2⊖M`): each column of M is a row of ⍉M.
        if right.rank == 2 && left.rank == 1 && left.extents[0] != Some(1) {
            let transposed = self.transpose(right);
            let rotated = self.rotate_last(left, transposed, span)?;
            return Ok(self.transpose(rotated));
        }
        let count = self.rotate_count(left, span)?;
        Ok(Arr {
            expr: Expr::op("vrotate", vec![count.expr, right.expr]),
            constant: None,
            ..right
        })
    }

    fn grade(&mut self, primitive: Primitive, argument: Arr, span: Span) -> ElabResult<Arr> {
        if argument.rank == 2 {
            return self.grade_rows(primitive, argument, span);
        }
        if argument.rank != 1 {
            return Err(ElabError::nonce(
                span,
                format!("{} on an array of rank 3 or more", primitive.glyph()),
            ));
        }
        let op = if primitive == Primitive::GradeUp {
            "gradeUp"
        } else {
            "gradeDown"
        };
        Ok(Arr::dynamic(Expr::op(op, vec![argument.expr]), Base::Int, 1).with_extents(argument.extents))
    }

    /// `⍺⍋⍵` and `⍺⍒⍵` with a collating sequence: the characters of ⍵ (a vector, or a matrix's rows) ordered by
    /// their positions in the vector ⍺, characters not in ⍺ after all that are (`'abc'⍋'cabbage'`); equal keys keep
    /// their order. A collating array of rank 2 or more (Dyalog's ordering by axes) is not supported.
    fn grade_by_collation(&mut self, primitive: Primitive, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        if left.base != Base::Char || right.base != Base::Char {
            return Err(ElabError::domain(
                span,
                format!("{} with a collating sequence takes characters", primitive.glyph()),
            ));
        }
        if left.rank != 1 {
            return Err(ElabError::nonce(
                span,
                format!("{} with a collating sequence that is not a vector", primitive.glyph()),
            ));
        }
        if right.rank == 0 {
            return Err(ElabError::rank(span, format!("{} of a scalar", primitive.glyph())));
        }
        let keys = self.index_of(left, right, span)?;
        self.grade(primitive, keys, span)
    }

    /// `⍋M` on a matrix: its rows in lexicographic order, by stable grades on each column from the last to the
    /// first (the column count must be static).
    fn grade_rows(&mut self, primitive: Primitive, matrix: Arr, span: Span) -> ElabResult<Arr> {
        let Some(columns) = matrix.extents[1].filter(|c| (1..=16).contains(c)) else {
            return Err(ElabError::nonce(
                span,
                format!(
                    "{} on a matrix whose number of columns is not a known number up to 16",
                    primitive.glyph()
                ),
            ));
        };
        let matrix = self.bind(matrix);
        let mut order: Option<Arr> = None;
        for column in (0..columns).rev() {
            let index = Arr::scalar_constant(Scalar::Int(column + 1));
            let keys = self.index_array(matrix.clone(), vec![None, Some(index)], span)?;
            let keys = match order.clone() {
                Some(order) => self.index_array(keys, vec![Some(order)], span)?,
                None => keys,
            };
            let grade = self.grade(primitive, keys, span)?;
            let grade = self.bind(grade);
            order = Some(match order {
                Some(order) => self.index_array(order, vec![Some(grade)], span)?,
                None => grade,
            });
            if let Some(current) = order.take() {
                order = Some(self.bind(current));
            }
        }
        Ok(order.expect("at least one column"))
    }

    /// `⍸B` for a boolean vector: the indices of the ones.
    fn where_true(&mut self, argument: Arr, span: Span) -> ElabResult<Arr> {
        if argument.rank != 1 {
            return Err(ElabError::nonce(span, "⍸ on an array that is not a vector"));
        }
        if argument.base != Base::Bool {
            let counts = self.integer_argument(argument, span)?;
            let counts = self.bind(counts);
            let length = self.tally(&counts);
            let indices = self.iota(length, span)?;
            return Ok(Arr::dynamic(
                Expr::op("replicate", vec![counts.expr, indices.expr]),
                Base::Int,
                1,
            ));
        }
        Ok(Arr::dynamic(Expr::op("where", vec![argument.expr]), Base::Int, 1))
    }

    pub(super) fn format(&mut self, argument: Arr, span: Span) -> ElabResult<Arr> {
        if argument.rank == 2 {
            return Ok(Arr::dynamic(
                Expr::op(
                    "formatMatrix",
                    vec![Expr::Int(i64::from(self.print.precision)), argument.expr],
                ),
                Base::Char,
                2,
            ));
        }
        if argument.rank > 2 {
            return Err(ElabError::nonce(span, "⍕ on an array of rank 3 or more"));
        }
        if argument.base == Base::Char {
            return Ok(self.ravel(argument));
        }
        Ok(Arr::dynamic(
            Expr::op(
                "format",
                vec![Expr::Int(i64::from(self.print.precision)), argument.expr],
            ),
            Base::Char,
            1,
        ))
    }
}

/// Index vectors up to this length carry their values (see `iota`).
const KNOWN_INDEX_VECTOR_LIMIT: i64 = 16;

/// The values of `k⌽v` when the count and the vector are known.
fn rotated_constant(count: &Arr, vector: &Arr) -> Option<Rc<Vec<Scalar>>> {
    let count = count.constant_scalar()?.as_int()?;
    let values = vector.constant.as_ref()?;
    if values.is_empty() {
        return Some(values.clone());
    }
    let shift = count.rem_euclid(values.len() as i64) as usize;
    Some(Rc::new(
        values[shift..].iter().chain(&values[..shift]).copied().collect(),
    ))
}

/// Whether APL defines the primitive function with one argument: `∧ ∨ ⍲ ⍱ < ≤ = ≥ > ⊥ ⊤ ∩` are dyadic only.
fn has_monadic_form(primitive: Primitive) -> bool {
    use Primitive::*;
    !matches!(
        primitive,
        And | Or | Nand | Nor | Less | LessEqual | Equal | GreaterEqual | Greater | UpTack | DownTack | Intersection
    )
}

/// A strand or another nested array (whose items aplc knows at compile time).
pub fn is_nested(value: &Val) -> bool {
    matches!(value, Val::Tuple(_) | Val::Nested { .. })
}
