//! Indexing: `A[i;j]`, `i⌷A`, `i⊃A`, tuple components `t[k]`, and indexed assignment `A[i]←v`.
//!
//! Scalar indices select with `index(axis, i, A)` (checked at run time); a vector index on a vector is an `each`
//! over the index; other array indices go through flat row-major offsets built with outer sums, and select from the
//! ravel. Indexed assignment is functional: a new array equal to the old one except at the indexed places.

use super::env::{Arr, Fun, Opr, Scalar, Val};
use super::error::{ElabError, ElabResult};
use super::ir::{Base, Expr};
use super::Elaborator;
use crate::source::Span;
use crate::syntax::ast::{self, Primitive};
use std::rc::Rc;

impl Elaborator {
    pub fn index(&mut self, base: Val, indices: &[Option<ast::Expr>], span: Span) -> ElabResult<Val> {
        let evaluated = self.evaluate_indices(indices)?;
        match base {
            // An item of a nested vector picked by `⍵[i]` stays enclosed (`('ab' 'cd')[2]` is `⊂'cd'`, shown ` cd`);
            // `i⊃⍵` discloses it.
            Val::Tuple(components) => {
                let [Some(index)] = evaluated.as_slice() else {
                    return Err(ElabError::rank(span, "a tuple takes one index"));
                };
                if index.rank == 1 {
                    let Some(positions) = index.constant_ints() else {
                        return Err(ElabError::nonce(span, "indexing a tuple with anything but constants"));
                    };
                    let mut items = Vec::with_capacity(positions.len());
                    for position in positions {
                        let position = Arr::scalar_constant(Scalar::Int(position));
                        items.push(select_component(&components, &position, span)?);
                    }
                    return self.nested(vec![items.len()], items, span);
                }
                let item = self.select_component(&components, index, span)?;
                self.enclose(item, span)
            }
            Val::Array(array) => self.index_array(array, evaluated, span).map(Val::Array),
            _ => Err(ElabError::syntax(span, "indexing a function")),
        }
    }

    /// The indices of `A[i;j]` as integer arrays (`None` for an elided axis), evaluated right to left like
    /// everything else.
    fn evaluate_indices(&mut self, indices: &[Option<ast::Expr>]) -> ElabResult<Vec<Option<Arr>>> {
        let mut evaluated: Vec<Option<Arr>> = Vec::with_capacity(indices.len());
        for index in indices.iter().rev() {
            evaluated.push(match index {
                Some(expr) => {
                    let value = self.expr(expr)?;
                    let array = self.expect_array(value, expr.span)?;
                    Some(self.integer_argument(array, expr.span)?)
                }
                None => None,
            });
        }
        evaluated.reverse();
        Ok(evaluated)
    }

    pub fn index_array(&mut self, array: Arr, indices: Vec<Option<Arr>>, span: Span) -> ElabResult<Arr> {
        if indices.len() != array.rank {
            return Err(ElabError::rank(
                span,
                format!("{} indices for an array of rank {}", indices.len(), array.rank),
            ));
        }
        let array = self.bind(array);
        if let Some(folded) = fold_constant_index(&array, &indices) {
            return Ok(folded);
        }
        let all_scalar = indices.iter().all(|index| index.as_ref().is_none_or(|i| i.rank == 0));
        if all_scalar {
            let mut result = array;
            for (axis, index) in indices.into_iter().enumerate().rev() {
                if let Some(index) = index {
                    let mut extents = result.extents.clone();
                    extents.remove(axis);
                    let expr = Expr::op("index", vec![Expr::Int(axis as i64 + 1), index.expr, result.expr]);
                    result = Arr::dynamic(expr, result.base, result.rank - 1).with_extents(extents);
                }
            }
            return Ok(result);
        }
        if array.rank == 1 {
            let index = indices
                .into_iter()
                .next()
                .flatten()
                .expect("a vector index (not all scalar)");
            let source = array.clone();
            return self.pointwise_monadic(index, span, &mut |_, i| {
                let expr = Expr::op("index", vec![Expr::Int(1), i.expr, source.expr.clone()]);
                Ok(Val::Array(Arr::dynamic(expr, source.base, 0)))
            });
        }
        self.index_through_offsets(array, indices, span)
    }

    /// General indexing: outer sums of per-axis offsets give row-major positions in the ravel.
    fn index_through_offsets(&mut self, array: Arr, indices: Vec<Option<Arr>>, span: Span) -> ElabResult<Arr> {
        let offsets = self.flat_offsets(&array, indices, span)?;
        let ravel = self.ravel(array);
        let ravel = self.bind(ravel);
        self.pointwise_monadic(offsets, span, &mut |_, offset| {
            let position = Expr::op("addi", vec![offset.expr, Expr::Int(1)]);
            let expr = Expr::op("index", vec![Expr::Int(1), position, ravel.expr.clone()]);
            Ok(Val::Array(Arr::dynamic(expr, ravel.base, 0)))
        })
    }

    /// The 0-based row-major offsets of the selected elements, shaped like the selection.
    fn flat_offsets(&mut self, array: &Arr, indices: Vec<Option<Arr>>, span: Span) -> ElabResult<Arr> {
        let shape = self.shape_of(array);
        let shape = self.bind(shape);
        let plus: Rc<Fun> = Rc::new(Fun::Primitive(Primitive::Plus, span));
        let mut offsets: Option<Arr> = None;
        for (axis, index) in indices.into_iter().enumerate() {
            let extent = self.vector_element(&shape, axis, span)?;
            // An elided axis selects all of it, in range by construction.
            let index = match index {
                Some(index) => self.checked_axis_index(index, extent, span)?,
                None => {
                    let extent = self.bind(extent);
                    self.iota(extent, span)?
                }
            };
            let one = Arr::scalar_constant(Scalar::Int(1));
            let zero_based = self.scalar_dyadic(Primitive::Minus, index, one, span)?;
            offsets = Some(match offsets {
                None => zero_based,
                Some(previous) => {
                    let extent = self.vector_element(&shape, axis, span)?;
                    let scaled = self.scalar_dyadic(Primitive::Times, previous, extent, span)?;
                    let left = self.bind(scaled);
                    let right = self.bind(zero_based);
                    self.derived_dyadic(
                        Primitive::OuterProduct,
                        &Val::Function(plus.clone()),
                        None,
                        Val::Array(left),
                        Val::Array(right),
                        span,
                    )
                    .and_then(|v| self.expect_array(v, span))?
                }
            });
        }
        Ok(offsets.expect("rank at least 1"))
    }

    /// The indices along one axis, each checked to lie in 1..extent (an INDEX ERROR otherwise): an index beyond its
    /// own axis would otherwise make a valid offset into another row. Each index selects itself from `⍳extent`, a
    /// read that the lowering checks and reduces to the index. Constant indices in range need no check; others fail
    /// when the statement runs (it may be on a path never taken).
    fn checked_axis_index(&mut self, index: Arr, extent: Arr, span: Span) -> ElabResult<Arr> {
        if let (Some(indices), Some(extent)) = (&index.constant, extent.constant_scalar().and_then(|e| e.as_int())) {
            if indices
                .iter()
                .all(|i| i.as_int().is_some_and(|i| 1 <= i && i <= extent))
            {
                return Ok(index);
            }
        }
        let extent = self.bind(extent);
        let all = self.iota(extent, span)?;
        let all = self.bind(all);
        self.pointwise_monadic(index, span, &mut |_, i| {
            let expr = Expr::op("index", vec![Expr::Int(1), i.expr, all.expr.clone()]);
            Ok(Val::Array(Arr::dynamic(expr, Base::Int, 0)))
        })
    }

    /// The `axis`th (0-based) element of a vector, folded when constant.
    pub fn vector_element(&mut self, vector: &Arr, axis: usize, span: Span) -> ElabResult<Arr> {
        if let Some(values) = &vector.constant {
            if let Some(value) = values.get(axis) {
                return Ok(Arr::scalar_constant(*value));
            }
            return Err(ElabError::index(span, "index out of range"));
        }
        let expr = Expr::op(
            "index",
            vec![Expr::Int(1), Expr::Int(axis as i64 + 1), vector.expr.clone()],
        );
        Ok(Arr::dynamic(expr, vector.base, 0))
    }

    /// `i⊃V` with scalar `i` (or `i j⊃M`): one element.
    pub fn pick_element(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        self.squad(left, right, span)
    }

    /// `I⌷A`: one index per leading axis, given as a scalar or a vector of scalars.
    pub fn squad(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        if left.rank > 1 {
            return Err(ElabError::rank(
                span,
                "the left argument of ⌷ or ⊃ must be a scalar or a vector",
            ));
        }
        let left = self.integer_argument(left, span)?;
        if left.rank == 0 {
            let mut indices = vec![Some(left)];
            indices.extend((1..right.rank).map(|_| None));
            return self.index_array(right, indices, span);
        }
        let Some(count) = left.extents[0] else {
            return Err(ElabError::nonce(span, "⌷ or ⊃ with a left argument of unknown length"));
        };
        if count as usize > right.rank {
            return Err(ElabError::rank(
                span,
                format!("{count} indices for an array of rank {}", right.rank),
            ));
        }
        let left = self.bind(left);
        let mut indices = Vec::new();
        for axis in 0..count as usize {
            indices.push(Some(self.vector_element(&left, axis, span)?));
        }
        indices.extend((count as usize..right.rank).map(|_| None));
        self.index_array(right, indices, span)
    }

    /// `⍺⊃⍵`, pick: each item of the path ⍺ selects at one level of depth, a scalar index in a vector or strand, an
    /// enclosed vector of indices in an array of higher rank: `2 1⊃(1 2)(3 4)` is 3, `(⊂2 1)⊃M` is `M[2;1]`. A
    /// simple scalar ⍺ is one level, a simple vector one level per item (`1 2⊃M` of a matrix M is a RANK ERROR, as
    /// in Dyalog: its first index is a scalar).
    pub fn pick(&mut self, left: Val, right: Val, span: Span) -> ElabResult<Val> {
        let mut picked = right;
        for index in self.pick_path(left, span)? {
            picked = self.pick_one_level(index, picked, span)?;
        }
        Ok(picked)
    }

    /// The levels of a pick's left argument.
    fn pick_path(&mut self, left: Val, span: Span) -> ElabResult<Vec<Val>> {
        match left {
            Val::Array(path) if path.rank == 0 => Ok(vec![Val::Array(path)]),
            Val::Array(path) if path.rank == 1 => {
                let Some(length) = path.extents[0] else {
                    return Err(ElabError::nonce(
                        span,
                        "⊃ with a path whose length is known only when running",
                    ));
                };
                let path = self.bind(path);
                (0..length as usize)
                    .map(|level| self.vector_element(&path, level, span).map(Val::Array))
                    .collect()
            }
            Val::Array(_) => Err(ElabError::rank(
                span,
                "the left argument of ⊃ must be a scalar or a vector",
            )),
            Val::Tuple(levels) => Ok(levels),
            Val::Nested { shape, items } if shape.len() <= 1 => Ok(items),
            Val::Nested { .. } => Err(ElabError::rank(
                span,
                "the left argument of ⊃ must be a scalar or a vector",
            )),
            Val::Function(_) | Val::Operator(_) => Err(ElabError::syntax(span, "a function where an array is needed")),
        }
    }

    /// One level of a pick: item `index` of a strand or vector, or the element at the enclosed indices `index` of
    /// an array of another rank (one index per axis).
    fn pick_one_level(&mut self, index: Val, from: Val, span: Span) -> ElabResult<Val> {
        let index = match index {
            // An enclosed vector of indices, one level of the path (`2(⊂1 2)⊃...`).
            Val::Nested { shape, mut items } if shape.is_empty() && items.len() == 1 => items.remove(0),
            other => other,
        };
        let index = self.expect_array(index, span)?;
        match from {
            Val::Tuple(components) => self.select_component(&components, &index, span),
            Val::Nested { shape, items } if shape.len() == 1 => self.select_component(&items, &index, span),
            Val::Nested { .. } => Err(ElabError::nonce(span, "⊃ in a nested array that is not a vector")),
            Val::Array(array) => {
                let indices = if index.rank == 0 { Some(1) } else { index.extents[0] };
                if index.rank == 1 && indices.is_none() {
                    return Err(ElabError::nonce(
                        span,
                        "⊃ with indices whose number is known only when running",
                    ));
                }
                if index.rank > 1 || indices != Some(array.rank as i64) {
                    return Err(ElabError::rank(
                        span,
                        format!(
                            "a pick's index of rank {} for an array of rank {}",
                            index.rank, array.rank
                        ),
                    ));
                }
                self.squad(index, array, span).map(Val::Array)
            }
            Val::Function(_) | Val::Operator(_) => Err(ElabError::syntax(span, "a function where an array is needed")),
        }
    }

    /// `k⊃t` on a tuple, with a constant k.
    pub fn pick_from_tuple(&mut self, left: Val, right: Val, span: Span) -> ElabResult<Val> {
        let index = self.expect_array(left, span)?;
        let Val::Tuple(components) = right else {
            unreachable!("called with a tuple")
        };
        self.select_component(&components, &index, span)
    }

    /// Item `index` of a strand: at compile time when the index is a constant, otherwise when running, among items
    /// of one type.
    fn select_component(&mut self, components: &[Val], index: &Arr, span: Span) -> ElabResult<Val> {
        if index.rank == 0 && index.constant_scalar().is_none() {
            return self.select_component_when_running(components, index.clone(), span);
        }
        select_component(components, index, span)
    }

    /// `k⊃'M' 'CM' 'D'` with k known only when running: a chain of conditionals on k, after a check that k is a
    /// position of the strand (the INDEX ERROR of `(⍳n)[k]`). The items must be arrays of one rank, of bases that
    /// join (a character vector of any length, numbers of any kind), so that the result has one type.
    fn select_component_when_running(&mut self, components: &[Val], index: Arr, span: Span) -> ElabResult<Val> {
        let refused = |what: &str| {
            ElabError::nonce(
                span,
                format!("picking with a computed index from a strand whose items {what}"),
            )
            .with_hint("give the strand's items one rank and type, or pick with a constant index")
        };
        let mut items = Vec::with_capacity(components.len());
        for component in components {
            match component {
                Val::Array(item) => items.push(item.clone()),
                _ => return Err(refused("are not all simple arrays")),
            }
        }
        let Some(first) = items.first() else {
            return Err(ElabError::index(span, "an index into an empty strand"));
        };
        if items.iter().any(|item| item.rank != first.rank) {
            return Err(refused("differ in rank"));
        }
        if items
            .iter()
            .try_fold(first.base, |base, item| base.join(item.base))
            .is_none()
        {
            return Err(refused("mix characters and numbers"));
        }
        let positions = Arr::vector_constant((1..=items.len() as i64).map(Scalar::Int).collect(), Base::Int);
        let position = self.index_array(positions, vec![Some(index)], span)?;
        let position = self.bind(position);
        self.pick_among(&items, &position, 1, span)
    }

    /// The item of `items` (the strand's items from position `first` on) at `position`, which is one of them.
    fn pick_among(&mut self, items: &[Arr], position: &Arr, first: i64, span: Span) -> ElabResult<Val> {
        let [item, rest @ ..] = items else {
            unreachable!("a position among no items");
        };
        if rest.is_empty() {
            return Ok(Val::Array(item.clone()));
        }
        let here = Arr::scalar_constant(Scalar::Int(first));
        let is_here = self.scalar_dyadic(Primitive::Equal, position.clone(), here, span)?;
        self.conditional(
            is_here,
            |_| Ok(Val::Array(item.clone())),
            |this| this.pick_among(rest, position, first + 1, span),
            span,
        )
    }

    /// An axis on a function: `⌽[1]`, `⊖[2]`, `,[1]`... Only the first-/last-axis forms that map onto other glyphs.
    /// `A[I;J]←V` in general: the selected row-major positions of A's ravel get the items of V in order (TAIL's
    /// `scatter`), so a position selected twice keeps its last value, as in APL.
    pub fn general_indexed_assignment(
        &mut self,
        current: Arr,
        indices: Vec<Option<Arr>>,
        value: Arr,
        span: Span,
    ) -> ElabResult<Arr> {
        let offsets = self.flat_offsets(&current, indices, span)?;
        let offsets = self.bind(offsets);
        let values = if value.rank == 0 {
            let selected = self.ravel(offsets.clone());
            let count = self.tally(&selected);
            let shape = self.ravel(count);
            self.reshape(shape, value, span)?
        } else {
            if value.rank != offsets.rank {
                return Err(ElabError::rank(
                    span,
                    "the value does not have the shape of the selection",
                ));
            }
            for (a, b) in value.extents.iter().zip(&offsets.extents) {
                if let (Some(a), Some(b)) = (a, b) {
                    if a != b {
                        return Err(ElabError::length(
                            span,
                            "the value does not have the shape of the selection",
                        ));
                    }
                }
            }
            // A zipWith with the offsets checks the shapes at run time.
            let checked = self.pointwise_dyadic(offsets.clone(), value, span, &mut |_, _, v| Ok(Val::Array(v)))?;
            self.ravel(checked)
        };
        let positions = self.ravel(offsets);
        let one = Arr::scalar_constant(Scalar::Int(1));
        let positions = self.scalar_dyadic(Primitive::Plus, positions, one, span)?;
        let expr = Expr::op("scatter", vec![current.expr.clone(), positions.expr, values.expr]);
        Ok(Arr::dynamic(expr, current.base, current.rank).with_extents(current.extents.clone()))
    }

    pub fn function_with_axis(
        &mut self,
        function: Rc<Fun>,
        indices: &[Option<ast::Expr>],
        span: Span,
    ) -> ElabResult<Val> {
        let axis_value = self.constant_axis_value(indices, span)?;
        if let Some(before) = laminate_position(&function, axis_value) {
            return Ok(Val::Function(Rc::new(Fun::WithAxis {
                primitive: Primitive::Comma,
                axis: before,
                laminate: true,
                span: function.span().join(span),
            })));
        }
        let axis = integer_axis(axis_value, span)?;
        let replacement = match (&*function, axis) {
            (Fun::Primitive(Primitive::CircleStile | Primitive::CircleBar, s), 1) => {
                Fun::Primitive(Primitive::CircleBar, *s)
            }
            (Fun::Primitive(Primitive::Comma | Primitive::CommaBar, s), 1) => Fun::Primitive(Primitive::CommaBar, *s),
            (
                Fun::Derived {
                    operator: Primitive::Slash | Primitive::SlashBar,
                    left,
                    right,
                    span,
                },
                1,
            ) => Fun::Derived {
                operator: Primitive::SlashBar,
                left: left.clone(),
                right: right.clone(),
                span: *span,
            },
            (
                Fun::Derived {
                    operator: Primitive::Backslash | Primitive::BackslashBar,
                    left,
                    right,
                    span,
                },
                1,
            ) => Fun::Derived {
                operator: Primitive::BackslashBar,
                left: left.clone(),
                right: right.clone(),
                span: *span,
            },
            (Fun::Primitive(primitive, primitive_span), axis) if has_axis_form(*primitive) && axis >= 1 => {
                Fun::WithAxis {
                    primitive: *primitive,
                    axis,
                    laminate: false,
                    span: primitive_span.join(span),
                }
            }
            _ => {
                return Err(ElabError::nonce(span, "this axis specification")
                    .with_hint("an axis is supported on ⌽ ⊖ , ⍪ ↑ ↓ and the scalar functions, and [1] on / \\ ⌿ ⍀"))
            }
        };
        Ok(Val::Function(Rc::new(replacement)))
    }

    /// `f[k] ⍵` for `⌽` and `⊖` (reverse): along axis k, which must be the first or the last.
    pub fn apply_monadic_with_axis(
        &mut self,
        primitive: Primitive,
        axis: i64,
        argument: Arr,
        span: Span,
    ) -> ElabResult<Arr> {
        match (primitive, first_or_last_axis(axis, argument.rank, span)?) {
            (Primitive::CircleStile | Primitive::CircleBar, EndAxis::First) => Ok(self.reverse_first(argument)),
            (Primitive::CircleStile | Primitive::CircleBar, EndAxis::Last) => Ok(self.reverse_last(argument)),
            _ => Err(ElabError::nonce(
                span,
                format!("monadic {} with an axis", primitive.glyph()),
            )),
        }
    }

    /// `⍺ f[k] ⍵`: rotate (`⌽ ⊖`) and catenate (`, ⍪`) along axis k, the first or the last; take and drop (`↑ ↓`)
    /// of a scalar count along axis k alone; a scalar function whose lower-rank argument (a vector) lies along axis k
    /// of the other (a matrix).
    pub fn apply_dyadic_with_axis(
        &mut self,
        primitive: Primitive,
        axis: i64,
        left: Arr,
        right: Arr,
        span: Span,
    ) -> ElabResult<Arr> {
        use Primitive::*;
        match primitive {
            CircleStile | CircleBar => match first_or_last_axis(axis, right.rank, span)? {
                EndAxis::First => self.rotate_first(left, right, span),
                EndAxis::Last => self.rotate_last(left, right, span),
            },
            Comma | CommaBar => match first_or_last_axis(axis, left.rank.max(right.rank), span)? {
                EndAxis::First => self.catenate_first(left, right, span),
                EndAxis::Last => self.catenate_last(left, right, span),
            },
            UpArrow | DownArrow => self.take_or_drop_along_axis(primitive, axis, left, right, span),
            scalar if crate::elab::scalar::is_scalar_primitive(scalar) => {
                self.scalar_dyadic_along_axis(scalar, axis, (left, right), span)
            }
            other => Err(ElabError::nonce(span, format!("dyadic {} with an axis", other.glyph()))),
        }
    }

    /// `n↑[k]⍵` and `n↓[k]⍵`: the count applies to axis k, every other axis is kept whole.
    fn take_or_drop_along_axis(
        &mut self,
        primitive: Primitive,
        axis: i64,
        count: Arr,
        array: Arr,
        span: Span,
    ) -> ElabResult<Arr> {
        if axis as usize > array.rank {
            return Err(ElabError::index(
                span,
                format!("axis {axis} of an array of rank {}", array.rank),
            ));
        }
        let count = self.integer_argument(count, span)?;
        if count.rank != 0 {
            return Err(ElabError::nonce(span, "↑ or ↓ with an axis and more than one count"));
        }
        let array = self.bind(array);
        let axis = axis as usize - 1;
        let mut counts = Vec::with_capacity(array.rank);
        let shape = self.shape_of(&array);
        let shape = self.bind(shape);
        for other in 0..array.rank {
            counts.push(match (other == axis, primitive) {
                (true, _) => count.clone(),
                (false, Primitive::UpArrow) => self.vector_element(&shape, other, span)?,
                (false, _) => Arr::scalar_constant(Scalar::Int(0)),
            });
        }
        let counts = Arr::dynamic(
            Expr::Vector(counts.into_iter().map(|c| c.expr).collect(), Base::Int),
            Base::Int,
            1,
        )
        .with_extents(vec![Some(array.rank as i64)]);
        let op = if primitive == Primitive::UpArrow {
            "take"
        } else {
            "drop"
        };
        self.take_or_drop(op, counts, array, span)
    }

    /// `M f[k] V` and `V f[k] M` for a matrix M and a vector V along its axis k (a scalar or equal ranks need no
    /// axis): V is spread to M's shape, down the columns for k = 1, along the rows for k = 2.
    fn scalar_dyadic_along_axis(
        &mut self,
        primitive: Primitive,
        axis: i64,
        (left, right): (Arr, Arr),
        span: Span,
    ) -> ElabResult<Arr> {
        if left.rank == right.rank || left.rank == 0 || right.rank == 0 {
            return self.scalar_dyadic(primitive, left, right, span);
        }
        let left_is_matrix = left.rank == 2 && right.rank == 1;
        let (matrix, vector) = match (left_is_matrix, right.rank == 2 && left.rank == 1) {
            (true, _) => (left, right),
            (false, true) => (right, left),
            _ => {
                return Err(ElabError::nonce(
                    span,
                    "a scalar function with an axis on arrays other than a matrix and a vector",
                ))
            }
        };
        let matrix = self.bind(matrix);
        let shape = self.shape_of(&matrix);
        let spread = match axis {
            1 => {
                let reversed = self.reverse_last(shape);
                let rows = self.reshape(reversed, vector, span)?;
                self.transpose(rows)
            }
            2 => self.reshape(shape, vector, span)?,
            _ => return Err(ElabError::index(span, format!("axis {axis} of a matrix"))),
        };
        if left_is_matrix {
            self.scalar_dyadic(primitive, matrix, spread, span)
        } else {
            self.scalar_dyadic(primitive, spread, matrix, span)
        }
    }

    /// `⍺,[k]⍵` with k between integers (laminate): ⍺ and ⍵, of one shape (a scalar is extended to the other's),
    /// stacked along a new axis of length 2 placed before their axis `before` (⌈k): stacked first, as
    /// `(2,⍴⍺)⍴(,⍺),,⍵`, then moved into place by a dyadic transpose.
    pub fn laminate(&mut self, before: i64, (left, right): (Arr, Arr), span: Span) -> ElabResult<Arr> {
        let (left, right) = self.unify_bases(left, right, span)?;
        let (left, right) = (self.bind(left), self.bind(right));
        let (left, right) = match (left.rank, right.rank) {
            // Two scalars laminate to a vector of two.
            (0, 0) => return self.catenate_last(left, right, span),
            (0, _) => {
                let shape = self.shape_of(&right);
                (self.reshape(shape, left, span)?, right)
            }
            (_, 0) => {
                let shape = self.shape_of(&left);
                (left, self.reshape(shape, right, span)?)
            }
            (a, b) if a != b => return Err(ElabError::rank(span, "laminate needs arguments of one rank")),
            _ => (left, right),
        };
        let (left, right) = (self.bind(left), self.bind(right));
        let rank = left.rank as i64;
        if before < 1 || before > rank + 1 {
            return Err(ElabError::index(
                span,
                format!("a new axis before axis {before} of rank {rank}"),
            ));
        }
        // A zipWith of the two checks at run time that their shapes agree (LENGTH ERROR).
        let checked = self.pointwise_dyadic(left.clone(), right.clone(), span, &mut |_, x, _| Ok(Val::Array(x)))?;
        let (checked, right_items) = (self.ravel(checked), self.ravel(right));
        let items = self.catenate_last(checked, right_items, span)?;
        let two = Arr::vector_constant(vec![Scalar::Int(2)], Base::Int);
        let shape = self.shape_of(&left);
        let shape = self.catenate_last(two, shape, span)?;
        let stacked = self.reshape(shape, items, span)?;
        if before == 1 {
            return Ok(stacked);
        }
        // Source axis 1 (the new one) goes to `before`; source axis j+1 (the arguments' axis j) to j, or j+1 from
        // `before` on.
        let axes: Vec<Scalar> = std::iter::once(before)
            .chain((1..=rank).map(|j| if j < before { j } else { j + 1 }))
            .map(Scalar::Int)
            .collect();
        self.transpose_with_axes(Arr::vector_constant(axes, Base::Int), stacked, span)
    }

    /// The axis of `f[k]` or `op[k]`: one constant, evaluated once.
    fn constant_axis_value(&mut self, indices: &[Option<ast::Expr>], span: Span) -> ElabResult<Scalar> {
        let axis = match indices {
            [Some(expr)] => {
                let value = self.expr(expr)?;
                self.expect_array(value, expr.span)?.constant_scalar()
            }
            _ => None,
        };
        axis.ok_or_else(|| not_an_integer_axis(span))
    }

    /// An axis on a primitive operator: `f/[1]`, `A/[1]`, `f\[1]` and `A\[1]` work along the first axis, as `⌿` and
    /// `⍀` do (and `⌿[1]`, `⍀[1]` as they are).
    pub fn operator_with_axis(&mut self, operator: &Opr, indices: &[Option<ast::Expr>], span: Span) -> ElabResult<Val> {
        let axis = integer_axis(self.constant_axis_value(indices, span)?, span)?;
        let first_axis_form = match (operator, axis) {
            (Opr::Primitive(Primitive::Slash | Primitive::SlashBar, glyph_span), 1) => {
                Opr::Primitive(Primitive::SlashBar, *glyph_span)
            }
            (Opr::Primitive(Primitive::Backslash | Primitive::BackslashBar, glyph_span), 1) => {
                Opr::Primitive(Primitive::BackslashBar, *glyph_span)
            }
            (Opr::Primitive(Primitive::Slash | Primitive::SlashBar, _), axis) if axis > 1 => Opr::AlongAxis {
                primitive: Primitive::Slash,
                axis,
                span,
            },
            (Opr::Primitive(Primitive::Backslash | Primitive::BackslashBar, _), axis) if axis > 1 => Opr::AlongAxis {
                primitive: Primitive::Backslash,
                axis,
                span,
            },
            _ => return Err(ElabError::nonce(span, "this axis on an operator")),
        };
        Ok(Val::Operator(Rc::new(first_axis_form)))
    }

    /// `f/[k] ⍵`, `⍺ f/[k] ⍵`, `A/[k] ⍵`, `f\[k] ⍵`, ... (k > 1; [`Fun::AlongAxis`]): `along_last` (the same
    /// derived function without the axis) on ⍵ with its axis k moved last by a transpose, then moved back to k,
    /// except after a reduction, which removes it. On an argument of rank k there is nothing to move; an axis beyond
    /// the rank is an INDEX ERROR, as in Dyalog.
    pub fn apply_along_axis(
        &mut self,
        along_last: &Rc<Fun>,
        axis: i64,
        left: Option<Val>,
        argument: Val,
        span: Span,
    ) -> ElabResult<Val> {
        let apply = |this: &mut Self, argument: Val| match left.clone() {
            Some(left) => this.apply_dyadic(along_last, left, argument, span),
            None => this.apply_monadic(along_last, argument, span),
        };
        let Val::Array(array) = argument else {
            return apply(self, argument);
        };
        let rank = array.rank as i64;
        if axis > rank.max(1) {
            return Err(ElabError::index(
                span,
                format!("axis {axis} of an array of rank {rank}"),
            ));
        }
        if axis >= rank {
            return apply(self, Val::Array(array));
        }
        // Axis i of ⍵ goes to place to_last[i] (APL's dyadic transpose): k to the end, those after it one back.
        let to_last = (1..=rank).map(|i| {
            if i < axis {
                i
            } else if i == axis {
                rank
            } else {
                i - 1
            }
        });
        let moved = self.transpose_with_axes(axis_permutation(to_last), array, span)?;
        let result = apply(self, Val::Array(moved))?;
        let reduces_the_axis = left.is_none()
            && matches!(
                &**along_last,
                Fun::Derived {
                    operator: Primitive::Slash,
                    left: Val::Function(_),
                    ..
                }
            );
        if reduces_the_axis {
            return Ok(result);
        }
        let result = self.expect_array(result, span)?;
        // The inverse: the last axis back to k, those from k on one forward.
        let back = (1..=rank).map(|j| {
            if j < axis {
                j
            } else if j < rank {
                j + 1
            } else {
                axis
            }
        });
        self.transpose_with_axes(axis_permutation(back), result, span)
            .map(Val::Array)
    }

    /// `x[i]←v` (and `x[i;j]←v`), with scalar indices or a vector index on a vector: a new array. With a modifier,
    /// `x[i] f← v` is `x[i] ← x[i] f v` (the indices evaluated once).
    pub fn indexed_assignment(
        &mut self,
        current: Val,
        name_span: Span,
        indices: &[Option<ast::Expr>],
        modifier: Option<Rc<Fun>>,
        value: Val,
        span: Span,
    ) -> ElabResult<Val> {
        let current = self.expect_array(current, name_span)?;
        if indices.len() != current.rank {
            return Err(ElabError::rank(
                span,
                format!("{} indices for an array of rank {}", indices.len(), current.rank),
            ));
        }
        let mut evaluated_options = self.evaluate_indices(indices)?;
        let current = self.bind(current);
        let value = match modifier {
            Some(function) => {
                // The indices are used twice (to select and to update): bound, they are computed once.
                evaluated_options = evaluated_options
                    .into_iter()
                    .map(|index| index.map(|i| self.bind(i)))
                    .collect();
                let selected = self.index_array(current.clone(), evaluated_options.clone(), span)?;
                self.apply_dyadic(&function, Val::Array(selected), value, span)?
            }
            None => value,
        };
        let value = self.expect_array(value, span)?;
        let elided = evaluated_options.iter().any(|index| index.is_none());
        let evaluated: Vec<Arr> = evaluated_options.iter().flatten().cloned().collect();
        let Some(base) = current.base.join(value.base) else {
            return Err(ElabError::domain(
                span,
                "assigning characters into numbers, or numbers into characters",
            ));
        };
        let current = self.convert(current, base, span)?;
        let value = self.convert(value, base, span)?;
        let current = self.bind(current);
        let value = self.bind(value);
        if evaluated.iter().any(|index| index.rank != 0) || elided {
            let indices = evaluated_options;
            return self
                .general_indexed_assignment(current, indices, value, span)
                .map(Val::Array);
        }
        if value.rank != 0 {
            return Err(ElabError::rank(span, "assigning an array to a single element"));
        }
        let index_vector: Vec<Expr> = evaluated.into_iter().map(|index| index.expr).collect();
        let expr = Expr::op(
            "update",
            vec![current.expr.clone(), Expr::Vector(index_vector, Base::Int), value.expr],
        );
        Ok(Val::Array(
            Arr::dynamic(expr, base, current.rank).with_extents(current.extents.clone()),
        ))
    }
}

/// An axis that must be an integer (every axis but laminate's).
fn integer_axis(value: Scalar, span: Span) -> ElabResult<i64> {
    value.as_int().ok_or_else(|| not_an_integer_axis(span))
}

fn not_an_integer_axis(span: Span) -> ElabError {
    ElabError::nonce(span, "an axis specification that is not an integer constant")
}

/// For `,[k]` or `⍪[k]` with k between integers (laminate): ⌈k, the axis the new one goes before.
fn laminate_position(function: &Fun, axis: Scalar) -> Option<i64> {
    match (function, axis) {
        (Fun::Primitive(Primitive::Comma | Primitive::CommaBar, _), Scalar::Double(k)) if k.fract() != 0.0 => {
            Some(k.ceil() as i64)
        }
        _ => None,
    }
}

/// The primitives whose axis is decided when they are applied ([`Fun::WithAxis`]).
fn has_axis_form(primitive: Primitive) -> bool {
    use Primitive::*;
    matches!(
        primitive,
        CircleStile | CircleBar | Comma | CommaBar | UpArrow | DownArrow
    ) || crate::elab::scalar::is_scalar_primitive(primitive)
}

/// The first or the last axis of an array, the only axes `⌽ ⊖ , ⍪` with an axis support.
enum EndAxis {
    First,
    Last,
}

fn first_or_last_axis(axis: i64, rank: usize, span: Span) -> ElabResult<EndAxis> {
    if axis < 1 || axis as usize > rank.max(1) {
        return Err(ElabError::index(
            span,
            format!("axis {axis} of an array of rank {rank}"),
        ));
    }
    match axis {
        1 => Ok(EndAxis::First),
        last if last as usize == rank => Ok(EndAxis::Last),
        _ => Err(ElabError::nonce(span, "an axis between the first and the last")),
    }
}

fn select_component(components: &[Val], index: &Arr, span: Span) -> ElabResult<Val> {
    let Some(position) = index
        .constant_scalar()
        .and_then(|s| s.as_int())
        .filter(|_| index.rank == 0)
    else {
        return Err(ElabError::nonce(
            span,
            "indexing a tuple with anything but a constant scalar",
        ));
    };
    if position < 1 || position as usize > components.len() {
        return Err(ElabError::index(
            span,
            format!("index {position} into a strand of {}", components.len()),
        ));
    }
    Ok(components[position as usize - 1].clone())
}

/// Indexing a constant array with constant scalar indices, at compile time.
fn fold_constant_index(array: &Arr, indices: &[Option<Arr>]) -> Option<Arr> {
    let values = array.constant.as_ref()?;
    let shape = array.static_shape()?;
    let mut offset = 0i64;
    for (axis, index) in indices.iter().enumerate() {
        let position = index.as_ref()?.constant_scalar()?.as_int()?;
        if index.as_ref()?.rank != 0 || position < 1 || position > shape[axis] {
            return None;
        }
        offset = offset * shape[axis] + position - 1;
    }
    let value = *values.get(offset as usize)?;
    let _ = Base::Int;
    Some(Arr::scalar_constant(value))
}

/// The constant left argument of a dyadic transpose.
fn axis_permutation(places: impl Iterator<Item = i64>) -> Arr {
    Arr::vector_constant(places.map(Scalar::Int).collect(), Base::Int)
}
