//! Nested arrays whose items are known one by one at compile time: strands (`'the' 'quick' 'brown'`,
//! `(1 2 3)(4 5)`), enclosures (`⊂⍵`), what `f¨` makes when f returns non-scalars (`⍳¨1 2 3`), and what outer
//! products of those make (`¯1 0 1∘.⊖¯1 0 1∘.⌽⊂⍵`, the nine shifted boards of Life).
//!
//! aplc compiles flat arrays; a nested array whose items are known one by one at compile time is a tuple of flat
//! arrays, each with its own type and shape: a nested vector is a [`Val::Tuple`], any other rank a [`Val::Nested`]
//! with its static shape. [`Elaborator::nested`] builds either from a shape and items, and makes a simple array where
//! every item is a simple scalar, as APL does. On such values:
//! - `f¨` applies f to each item (inlined once per item); `⍺ f¨ ⍵` pairs items ([`Elaborator::paired_items`]: equal
//!   shapes, or a scalar with anything). The scalar functions pervade the same way: `3 4=⊂⍵` is `(3=⍵)(4=⍵)`.
//! - `∘.f` pairs every item of ⍺ with every item of ⍵; `f/` folds the items of a vector (or of each row) and
//!   encloses the result; `f.g` on vectors is `f/⍺ g ⍵`.
//! - `⊂` encloses; `⍴ ≢ ⊃ ↑ ∊ , ⌽` and `≡` (depth) work on the items; `,` catenates items, `n⍴` repeats them,
//!   `≡` `⍳` `∊` between nested values compare items with `≡`.
//! - `f¨` on a simple vector of at most [`MAX_STRAND_ITEMS`] items whose length is known at compile time (or on a
//!   scalar) makes a strand when f returns non-scalars (`⍕¨1 2 3`).
//!
//! Anything else on a nested value (indexing with a computed index, a nested array of run-time length) stays a NONCE
//! ERROR.

use super::env::{Arr, Fun, Scalar, Val};
use super::error::{ElabError, ElabResult};
use super::ir::Base;
use super::operators::Axis;
use super::scalar::{is_scalar_monadic, is_scalar_primitive};
use super::structural::is_nested;
use super::Elaborator;
use crate::source::Span;
use crate::syntax::ast::Primitive;
use std::rc::Rc;

/// The static shape of a nested array.
pub type Shape = Vec<usize>;

/// The most items a simple vector may have for `f¨` on it to make a strand: each item inlines f once.
pub const MAX_STRAND_ITEMS: i64 = 64;

impl Elaborator {
    /// A nested array of the given shape and items (row-major), in aplc's representation: a simple array when every
    /// item is a simple scalar of one kind (`≢¨⊂1 2 3` is `3`), a strand for a vector, an enclosure for rank 0.
    pub fn nested(&mut self, shape: Shape, items: Vec<Val>, span: Span) -> ElabResult<Val> {
        debug_assert_eq!(shape.iter().product::<usize>(), items.len());
        if items.is_empty() {
            return Err(ElabError::nonce(span, "an empty nested array"));
        }
        match shape.len() {
            0 => {
                let item = items.into_iter().next().expect("one item");
                Ok(match item {
                    Val::Array(array) if array.rank == 0 => Val::Array(array),
                    other => Val::Nested {
                        shape,
                        items: vec![self.bind_value(other)],
                    },
                })
            }
            1 => self.strand(items, span),
            _ => match self.strand(items, span)? {
                Val::Array(vector) => {
                    let extents = shape.iter().map(|&extent| Scalar::Int(extent as i64)).collect();
                    let shape = Arr::vector_constant(extents, Base::Int);
                    self.reshape(shape, vector, span).map(Val::Array)
                }
                Val::Tuple(items) => Ok(Val::Nested { shape, items }),
                _ => unreachable!("a strand is an array or a tuple"),
            },
        }
    }

    /// `↓⍵` (split): the vectors along ⍵'s last axis as a nested array of the shape of the other axes, which must be
    /// known when compiling (at most [`MAX_STRAND_ITEMS`] vectors): the rows of a matrix, `⊂⍵` of a vector.
    pub fn split(&mut self, array: Arr, span: Span) -> ElabResult<Val> {
        if array.rank == 0 {
            return Ok(Val::Array(array));
        }
        let leading = &array.extents[..array.rank - 1];
        let Some(shape) = leading
            .iter()
            .map(|extent| extent.map(|e| e as usize))
            .collect::<Option<Shape>>()
        else {
            return Err(ElabError::nonce(
                span,
                "↓ of an array whose number of rows is not known when compiling",
            ));
        };
        let count: usize = shape.iter().product();
        if count == 0 || count > MAX_STRAND_ITEMS as usize {
            return Err(ElabError::nonce(
                span,
                format!("↓ making {count} vectors (aplc keeps 1 to {MAX_STRAND_ITEMS} as a nested array)"),
            ));
        }
        let array = self.bind(array);
        let mut items = Vec::with_capacity(count);
        for position in 0..count {
            let mut indices = Vec::with_capacity(array.rank);
            let mut rest = position;
            for &extent in shape.iter().rev() {
                indices.push(Some(Arr::scalar_constant(Scalar::Int((rest % extent) as i64 + 1))));
                rest /= extent;
            }
            indices.reverse();
            indices.push(None);
            let vector = self.index_array(array.clone(), indices, span)?;
            items.push(Val::Array(self.bind(vector)));
        }
        self.nested(shape, items, span)
    }

    /// `⊂⍵`: a simple scalar is itself; anything else becomes a nested scalar.
    pub fn enclose(&mut self, value: Val, span: Span) -> ElabResult<Val> {
        match value {
            Val::Function(_) | Val::Operator(_) => Err(ElabError::syntax(span, "a function where an array is needed")),
            other => self.nested(Vec::new(), vec![other], span),
        }
    }

    /// A value as a nested array's shape and items: a strand or nested array as it is, a simple scalar as a scalar
    /// of one item, a simple vector of at most [`MAX_STRAND_ITEMS`] items of known length as its elements; `None`
    /// for other simple arrays.
    pub fn shape_and_items(&mut self, value: Val, span: Span) -> ElabResult<Option<(Shape, Vec<Val>)>> {
        Ok(match value {
            Val::Tuple(items) => Some((vec![items.len()], items)),
            Val::Nested { shape, items } => Some((shape, items)),
            Val::Array(array) if array.rank == 0 => Some((Vec::new(), vec![Val::Array(self.bind(array))])),
            Val::Array(array) => self
                .items_of_short_vector(array, span)?
                .map(|items| (vec![items.len()], items)),
            Val::Function(_) | Val::Operator(_) => {
                return Err(ElabError::syntax(span, "a function where an array is needed"))
            }
        })
    }

    /// The items of two arguments paired as each and the scalar functions pair them: items of equal shapes in
    /// order, or a scalar's one item with every item of the other. Returns the result's shape and the pairs.
    pub fn paired_items(&mut self, left: Val, right: Val, span: Span) -> ElabResult<(Shape, Vec<(Val, Val)>)> {
        let unknown = || {
            ElabError::nonce(
                span,
                "pairing the items of a nested array with an array whose length is not known when compiling",
            )
        };
        let (left_shape, left_items) = self.shape_and_items(left, span)?.ok_or_else(unknown)?;
        let (right_shape, right_items) = self.shape_and_items(right, span)?.ok_or_else(unknown)?;
        if left_shape == right_shape {
            return Ok((left_shape, left_items.into_iter().zip(right_items).collect()));
        }
        if left_shape.is_empty() {
            let item = &left_items[0];
            return Ok((
                right_shape,
                right_items.into_iter().map(|r| (item.clone(), r)).collect(),
            ));
        }
        if right_shape.is_empty() {
            let item = &right_items[0];
            return Ok((left_shape, left_items.into_iter().map(|l| (l, item.clone())).collect()));
        }
        if left_shape.len() != right_shape.len() {
            return Err(ElabError::rank(
                span,
                format!(
                    "pairing the items of arrays of ranks {} and {}",
                    left_shape.len(),
                    right_shape.len()
                ),
            ));
        }
        let shape_text = |shape: &[usize]| shape.iter().map(usize::to_string).collect::<Vec<_>>().join(" ");
        Err(ElabError::length(
            span,
            format!(
                "pairing the items of arrays of shapes {} and {}",
                shape_text(&left_shape),
                shape_text(&right_shape)
            ),
        ))
    }

    /// `f¨⍵` for a nested ⍵ of the given shape and items: f on each item, the results gathered by
    /// [`Elaborator::nested`].
    pub fn each_over_items(
        &mut self,
        function: &Rc<Fun>,
        (shape, items): (Shape, Vec<Val>),
        span: Span,
    ) -> ElabResult<Val> {
        let mut results = Vec::with_capacity(items.len());
        for item in items {
            let result = self.apply_monadic(function, item, span)?;
            results.push(self.bind_value(result));
        }
        self.nested(shape, results, span)
    }

    /// `⍺ f¨⍵` where ⍺ or ⍵ is nested, or where f returns non-scalars: f on each pair of items
    /// ([`Elaborator::paired_items`]).
    pub fn each_over_pairs(&mut self, function: &Rc<Fun>, left: Val, right: Val, span: Span) -> ElabResult<Val> {
        let (shape, pairs) = self.paired_items(left, right, span)?;
        let mut results = Vec::with_capacity(pairs.len());
        for (left, right) in pairs {
            let result = self.apply_dyadic(function, left, right, span)?;
            results.push(self.bind_value(result));
        }
        self.nested(shape, results, span)
    }

    /// `⍺ f¨ ⍵` between simple arrays where f returns non-scalars: nested results, when both arguments are scalars
    /// or short vectors of known length ([`Elaborator::items_of_short_vector`]); otherwise the NONCE ERROR `nested`
    /// of the pointwise each.
    pub fn each_with_nested_results_dyadic(
        &mut self,
        function: &Rc<Fun>,
        left: Arr,
        right: Arr,
        span: Span,
        nested: ElabError,
    ) -> ElabResult<Val> {
        let knows_items = |array: &Arr| match (array.rank, array.extents.first()) {
            (0, _) => true,
            (1, Some(Some(length))) => (1..=MAX_STRAND_ITEMS).contains(length),
            _ => false,
        };
        if !knows_items(&left) || !knows_items(&right) {
            return Err(nested);
        }
        self.each_over_pairs(function, Val::Array(left), Val::Array(right), span)
    }

    /// `∘.f` where ⍺ or ⍵ is nested, or where f returns non-scalars: f between every item of ⍺ and every item of ⍵
    /// (each disclosed), the result of shape `(⍴⍺),⍴⍵`.
    pub fn outer_product_of_items(&mut self, function: &Rc<Fun>, left: Val, right: Val, span: Span) -> ElabResult<Val> {
        let unknown = || ElabError::nonce(span, "∘. between a nested array and an array of unknown length");
        let (left_shape, left_items) = self.shape_and_items(left, span)?.ok_or_else(unknown)?;
        let (right_shape, right_items) = self.shape_and_items(right, span)?.ok_or_else(unknown)?;
        if left_items.len() * right_items.len() > MAX_STRAND_ITEMS as usize {
            return Err(ElabError::nonce(
                span,
                format!("∘. with nested items making more than {MAX_STRAND_ITEMS} items"),
            ));
        }
        let mut results = Vec::with_capacity(left_items.len() * right_items.len());
        for left in &left_items {
            for right in &right_items {
                let result = self.apply_dyadic(function, left.clone(), right.clone(), span)?;
                results.push(self.bind_value(result));
            }
        }
        let shape = left_shape.into_iter().chain(right_shape).collect();
        self.nested(shape, results, span)
    }

    /// `f/⍵` for a nested ⍵: along the last axis, f folds each row's items from the right (`a f (b f c)`), each
    /// result enclosed: `+/(1 2)(3 4)` is `⊂4 6`. A nested scalar is its own reduction.
    pub fn reduce_items(
        &mut self,
        function: &Rc<Fun>,
        (shape, items): (Shape, Vec<Val>),
        span: Span,
    ) -> ElabResult<Val> {
        let Some(&row_length) = shape.last() else {
            return self.nested(shape, items, span);
        };
        let mut results = Vec::with_capacity(items.len() / row_length);
        for row in items.chunks(row_length) {
            let mut folded = row.last().expect("rows are not empty").clone();
            for item in row.iter().rev().skip(1) {
                folded = self.apply_dyadic(function, item.clone(), folded, span)?;
                folded = self.bind_value(folded);
            }
            results.push(folded);
        }
        self.nested(shape[..shape.len() - 1].to_vec(), results, span)
    }

    /// `⍺,⍵` where ⍺ or ⍵ is nested: the items of both as vectors (a scalar is one item), one after the other.
    pub fn catenate_items(&mut self, left: Val, right: Val, span: Span) -> ElabResult<Val> {
        let mut items = Vec::new();
        for side in [left, right] {
            // An empty vector has no items to add (`S←'' ⋄ S,←⊂'ab'` starts a list of strings).
            if matches!(&side, Val::Array(array) if array.rank == 1 && array.extents[0] == Some(0)) {
                continue;
            }
            match self.shape_and_items(side, span)? {
                Some((shape, side_items)) if shape.len() <= 1 => items.extend(side_items),
                Some(_) => return Err(ElabError::nonce(span, ", with a nested array of rank 2 or more")),
                None => {
                    return Err(ElabError::nonce(
                        span,
                        ", between a nested array and an array whose length is not known when compiling",
                    ))
                }
            }
        }
        self.nested(vec![items.len()], items, span)
    }

    /// `⍺⊂⍵` (partitioned enclose) and `⍺⊆⍵` (partition) of a vector ⍵ by a constant ⍺ of non-negative integers, one
    /// per item of ⍵ (a scalar ⍺ stands for as many): a strand of the pieces, each a slice of ⍵. For ⊂, ⍺[i] dividers
    /// stand before item i, each ending a piece and starting the next (so two make an empty piece), and the items
    /// before the first divider are left out; for ⊆, a piece starts where ⍺ rises and runs while it stays above 0,
    /// items under a 0 being left out. Both are known when compiling (`(' '=s)⊂s` of a string constant s); a mask
    /// known only when running would make a strand of run-time length, which aplc does not have.
    pub fn partition(&mut self, primitive: Primitive, left: Val, right: Val, span: Span) -> ElabResult<Val> {
        let glyph = primitive.glyph();
        let left = self.expect_array(left, span)?;
        let right = self.expect_array(right, span)?;
        if left.rank > 1 || right.rank != 1 {
            return Err(ElabError::nonce(
                span,
                format!("dyadic {glyph} other than of a vector by a vector or scalar"),
            ));
        }
        let (Some(counts), Some(length)) = (left.constant_ints(), right.extents[0]) else {
            return Err(ElabError::nonce(
                span,
                format!("dyadic {glyph} with a left argument known only when running"),
            ));
        };
        let counts = if left.rank == 0 {
            vec![counts[0]; length as usize]
        } else {
            counts
        };
        if counts.len() as i64 != length {
            return Err(ElabError::length(
                span,
                format!("{} partition numbers for {length} items", counts.len()),
            ));
        }
        if counts.iter().any(|&count| count < 0) {
            return Err(ElabError::domain(
                span,
                format!("{glyph} needs non-negative integers on its left"),
            ));
        }
        let slices = if primitive == Primitive::LeftShoe {
            partitioned_enclose_slices(&counts)
        } else {
            partition_slices(&counts)
        };
        if slices.is_empty() || slices.len() as i64 > MAX_STRAND_ITEMS {
            return Err(ElabError::nonce(
                span,
                format!(
                    "dyadic {glyph} giving {} pieces (1 to {MAX_STRAND_ITEMS} are supported)",
                    slices.len()
                ),
            ));
        }
        // Pieces of a constant are constants (so that `∪(' '≠s)⊆s` can compare them when compiling).
        if let Some(values) = right.constant.clone() {
            let pieces: Vec<Val> = slices
                .iter()
                .map(|&(start, end)| Val::Array(Arr::vector_constant(values[start..end].to_vec(), right.base)))
                .collect();
            let count = pieces.len();
            return self.nested(vec![count], pieces, span);
        }
        let right = self.bind(right);
        let mut pieces = Vec::with_capacity(slices.len());
        for (start, end) in slices {
            let positions = (start + 1..=end).map(|position| Scalar::Int(position as i64)).collect();
            let positions = Arr::vector_constant(positions, Base::Int);
            pieces.push(Val::Array(self.index_array(
                right.clone(),
                vec![Some(positions)],
                span,
            )?));
        }
        let count = pieces.len();
        self.nested(vec![count], pieces, span)
    }

    /// `s⍴⍵` with a constant shape s and a nested ⍵: ⍵'s items in order, repeated as often as needed.
    pub fn reshape_items(&mut self, shape: Arr, value: Val, span: Span) -> ElabResult<Val> {
        let Some(extents) = shape.constant_ints().filter(|extents| extents.iter().all(|&e| e >= 0)) else {
            return Err(ElabError::nonce(
                span,
                "⍴ of a nested array with a shape that is not constants",
            ));
        };
        let (_, items) = self.shape_and_items(value, span)?.expect("a nested value has items");
        let count: i64 = extents.iter().product();
        if count > MAX_STRAND_ITEMS {
            return Err(ElabError::nonce(
                span,
                format!("⍴ making a nested array of more than {MAX_STRAND_ITEMS} items"),
            ));
        }
        let repeated = items.iter().cycle().take(count as usize).cloned().collect();
        let shape = extents.into_iter().map(|extent| extent as usize).collect();
        self.nested(shape, repeated, span)
    }

    /// A dyadic primitive where ⍺ or ⍵ is nested: the scalar functions pervade; `, ⍴ ≡ ≢ ⍳ ∊` work on items.
    pub fn nested_dyadic(&mut self, primitive: Primitive, left: Val, right: Val, span: Span) -> ElabResult<Val> {
        match primitive {
            // The scalar functions pervade: `3 4=⊂⍵` is `(3=⍵)(4=⍵)`, as each would pair the items.
            primitive if is_scalar_primitive(primitive) => {
                self.each_over_pairs(&Rc::new(Fun::Primitive(primitive, span)), left, right, span)
            }
            Primitive::Comma => self.catenate_items(left, right, span),
            Primitive::Rho => {
                let shape = self.expect_array(left, span)?;
                self.reshape_items(shape, right, span)
            }
            Primitive::Squad if !is_nested(&right) => self.squad_with_nested_index(left, right, span),
            Primitive::Match => self.match_items(left, right, span).map(Val::Array),
            Primitive::Tally => {
                let matched = self.match_items(left, right, span)?;
                self.scalar_monadic(Primitive::Tilde, matched, span).map(Val::Array)
            }
            Primitive::Iota => {
                let (_, table) = self.vector_items(left, "⍳", span)?;
                self.each_item_against(right, span, |this, item| this.index_of_item(table.clone(), item, span))
            }
            Primitive::Epsilon => {
                let (_, table) = self.vector_items(right, "∊", span)?;
                self.each_item_against(left, span, |this, item| this.member_of_items(item, table.clone(), span))
            }
            _ => {
                self.expect_array(left, span)?;
                self.expect_array(right, span).map(Val::Array)
            }
        }
    }

    /// `(⊂I)⌷A` and `(I J)⌷A`: each item of the left argument indexes one leading axis of A, as `A[I;J]` does.
    fn squad_with_nested_index(&mut self, index: Val, array: Val, span: Span) -> ElabResult<Val> {
        let array = self.expect_array(array, span)?;
        let (shape, items) = self.shape_and_items(index, span)?.expect("a nested value has items");
        if shape.len() > 1 {
            return Err(ElabError::rank(
                span,
                "the left argument of ⌷ must be a scalar or a vector",
            ));
        }
        if items.len() > array.rank {
            return Err(ElabError::rank(
                span,
                format!("{} indices for an array of rank {}", items.len(), array.rank),
            ));
        }
        let mut indices = Vec::with_capacity(array.rank);
        for item in items {
            let item = self.expect_array(item, span)?;
            indices.push(Some(self.integer_argument(item, span)?));
        }
        indices.resize(array.rank, None);
        self.index_array(array, indices, span).map(Val::Array)
    }

    /// The items of the argument of `⍳` or `∊` that is searched: a nested or simple vector whose items are known.
    fn vector_items(&mut self, value: Val, glyph: &str, span: Span) -> ElabResult<(Shape, Vec<Val>)> {
        match self.shape_and_items(value, span)? {
            Some((shape, items)) if shape.len() == 1 => Ok((shape, items)),
            Some(_) => Err(ElabError::nonce(
                span,
                format!("{glyph} searching a nested array that is not a vector"),
            )),
            None => Err(ElabError::nonce(
                span,
                format!("{glyph} between a nested array and an array whose length is not known when compiling"),
            )),
        }
    }

    /// `look_up` on each item of `value` (a nested scalar is its one item), the results of its shape.
    fn each_item_against(
        &mut self,
        value: Val,
        span: Span,
        mut look_up: impl FnMut(&mut Self, Val) -> ElabResult<Arr>,
    ) -> ElabResult<Val> {
        let Some((shape, items)) = self.shape_and_items(value, span)? else {
            return Err(ElabError::nonce(
                span,
                "searching for the items of an array whose length is not known when compiling",
            ));
        };
        let mut results = Vec::with_capacity(items.len());
        for item in items {
            let result = look_up(self, item)?;
            results.push(Val::Array(self.bind(result)));
        }
        self.nested(shape, results, span)
    }

    /// `⍺≡⍵` where ⍺ or ⍵ is nested: 1 when both have the same shape and each pair of items matches. A simple array
    /// never matches a nested one.
    pub fn match_items(&mut self, left: Val, right: Val, span: Span) -> ElabResult<Arr> {
        let is_nested = |value: &Val| matches!(value, Val::Tuple(_) | Val::Nested { .. });
        if is_nested(&left) != is_nested(&right) {
            return Ok(Arr::scalar_constant(Scalar::Bool(false)));
        }
        let (left_shape, left_items) = self.shape_and_items(left, span)?.expect("nested");
        let (right_shape, right_items) = self.shape_and_items(right, span)?.expect("nested");
        if left_shape != right_shape {
            return Ok(Arr::scalar_constant(Scalar::Bool(false)));
        }
        let mut all = Arr::scalar_constant(Scalar::Bool(true));
        for (left, right) in left_items.into_iter().zip(right_items) {
            let matched = match (left, right) {
                (Val::Array(left), Val::Array(right)) => self.match_arrays(left, right, span)?,
                (left, right) => self.match_items(left, right, span)?,
            };
            all = self.scalar_dyadic(Primitive::And, all, matched, span)?;
        }
        Ok(all)
    }

    /// `⍺⍳⍵` and `⍵∊⍺` where ⍺ is a nested vector and ⍵ one item (`'ab' 'cd'⍳⊂'cd'`): whether each item of ⍺
    /// matches ⍵, as a simple boolean vector.
    fn items_matching(&mut self, items: Vec<Val>, wanted: Val, span: Span) -> ElabResult<Arr> {
        let wanted = self.bind_value(wanted);
        let mut matches = Vec::with_capacity(items.len());
        for item in items {
            let matched = match (item, wanted.clone()) {
                (Val::Array(item), Val::Array(wanted)) => self.match_arrays(item, wanted, span)?,
                (item, wanted) => self.match_items(item, wanted, span)?,
            };
            matches.push(Val::Array(self.bind(matched)));
        }
        let vector = self.strand(matches, span)?;
        self.expect_array(vector, span)
    }

    /// `⍺⍳⍵` with a nested vector ⍺ and one item ⍵: the position of the first item of ⍺ that matches ⍵, or 1+≢⍺.
    pub fn index_of_item(&mut self, items: Vec<Val>, wanted: Val, span: Span) -> ElabResult<Arr> {
        let matches = self.items_matching(items, wanted, span)?;
        self.index_of(matches, Arr::scalar_constant(Scalar::Bool(true)), span)
    }

    /// `⍵∊⍺` with one item ⍵ and a nested vector ⍺: whether some item of ⍺ matches ⍵.
    pub fn member_of_items(&mut self, wanted: Val, items: Vec<Val>, span: Span) -> ElabResult<Arr> {
        let matches = self.items_matching(items, wanted, span)?;
        self.reduce(&Rc::new(Fun::Primitive(Primitive::Or, span)), matches, Axis::Last, span)
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

    /// A monadic primitive on a nested value of the given shape and items, or `None` when the primitive has no
    /// meaning here that aplc compiles.
    pub fn nested_monadic(
        &mut self,
        primitive: Primitive,
        (shape, items): (Shape, Vec<Val>),
        span: Span,
    ) -> ElabResult<Option<Val>> {
        Ok(Some(match primitive {
            Primitive::Rho => {
                let extents = shape.iter().map(|&extent| Scalar::Int(extent as i64)).collect();
                Val::Array(Arr::vector_constant(extents, Base::Int))
            }
            Primitive::Tally => Val::Array(Arr::scalar_constant(Scalar::Int(
                shape.first().copied().unwrap_or(1) as i64
            ))),
            Primitive::Match => Val::Array(Arr::scalar_constant(Scalar::Int(depth_of_items(&items)))),
            Primitive::RightShoe => items.into_iter().next().expect("a nested array has items"),
            Primitive::UpArrow if shape.is_empty() => items.into_iter().next().expect("one item"),
            Primitive::UpArrow if shape.len() == 1 => Val::Array(self.mix_strand(items, span)?),
            Primitive::Comma => self.nested(vec![items.len()], items, span)?,
            Primitive::LeftShoe => Val::Nested {
                shape: Vec::new(),
                items: vec![self.nested(shape, items, span)?],
            },
            // Nest: a nested array is left as it is.
            Primitive::LeftShoeUnderbar => self.nested(shape, items, span)?,
            // Unique: decided when compiling, so only among items whose values are known then.
            Primitive::Union if shape.len() == 1 => {
                if !items.iter().all(|item| constant_item(item).is_some()) {
                    return Err(ElabError::nonce(
                        span,
                        "∪ of a nested vector whose items are not all known when compiling",
                    ));
                }
                let mut kept: Vec<Val> = Vec::new();
                for item in items {
                    if !kept.iter().any(|earlier| constant_items_match(earlier, &item)) {
                        kept.push(item);
                    }
                }
                let count = kept.len();
                self.nested(vec![count], kept, span)?
            }
            Primitive::CircleStile => {
                let Some(&row_length) = shape.last() else {
                    return Ok(Some(self.nested(shape, items, span)?));
                };
                let reversed = items
                    .chunks(row_length)
                    .flat_map(|row| row.iter().rev().cloned())
                    .collect();
                self.nested(shape, reversed, span)?
            }
            Primitive::Epsilon => Val::Array(self.enlist_strand(items, span)?),
            // `⍕'Total' 42` is the text that shows the nested vector (` Total  42`).
            Primitive::Format if shape.len() <= 1 => match self.nested_vector_line(&items)? {
                Some(text) => Val::Array(text),
                None => return Ok(None),
            },
            primitive if is_scalar_monadic(primitive) => {
                let mut results = Vec::with_capacity(items.len());
                for item in items {
                    let result = self.primitive_monadic(primitive, item, span)?;
                    results.push(self.bind_value(result));
                }
                self.nested(shape, results, span)?
            }
            _ => return Ok(None),
        }))
    }

    /// `∊` of a strand: the ravels of its items (enlisted in turn when they are strands), one after the other.
    fn enlist_strand(&mut self, items: Vec<Val>, span: Span) -> ElabResult<Arr> {
        let mut enlisted: Option<Arr> = None;
        for item in items {
            let ravelled = match item {
                Val::Tuple(inner) | Val::Nested { items: inner, .. } => self.enlist_strand(inner, span)?,
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

/// `≡` of a nested array with these items: one more than the deepest item, negative (Dyalog's mixed depth) when the
/// items are not all of one depth.
fn depth_of_items(items: &[Val]) -> i64 {
    let depths: Vec<i64> = items.iter().map(depth).collect();
    let deepest = depths.iter().map(|depth| depth.abs()).max().unwrap_or(0);
    let uniform = depths.iter().all(|&depth| depth == depths[0] && depth >= 0);
    if uniform {
        1 + deepest
    } else {
        -(1 + deepest)
    }
}

/// `≡` of a value: 0 for a simple scalar, 1 for another simple array, [`depth_of_items`] for a nested one.
fn depth(value: &Val) -> i64 {
    match value {
        Val::Array(array) if array.rank == 0 => 0,
        Val::Tuple(items) | Val::Nested { items, .. } => depth_of_items(items),
        _ => 1,
    }
}

/// The pieces of `counts⊂⍵` as half-open ranges of item positions (see [`Elaborator::partition`]).
fn partitioned_enclose_slices(counts: &[i64]) -> Vec<(usize, usize)> {
    let mut slices = Vec::new();
    let mut open: Option<usize> = None;
    for (position, &dividers) in counts.iter().enumerate() {
        for _ in 0..dividers {
            if let Some(start) = open {
                slices.push((start, position));
            }
            open = Some(position);
        }
    }
    if let Some(start) = open {
        slices.push((start, counts.len()));
    }
    slices
}

/// The pieces of `counts⊆⍵` as half-open ranges of item positions (see [`Elaborator::partition`]).
fn partition_slices(counts: &[i64]) -> Vec<(usize, usize)> {
    let mut slices = Vec::new();
    let mut open: Option<usize> = None;
    let mut previous = 0;
    for (position, &count) in counts.iter().enumerate() {
        if count == 0 || count > previous {
            if let Some(start) = open.take() {
                slices.push((start, position));
            }
        }
        if count > 0 && open.is_none() {
            open = Some(position);
        }
        previous = count;
    }
    if let Some(start) = open {
        slices.push((start, counts.len()));
    }
    slices
}

/// The shape and values of a simple array item known when compiling.
fn constant_item(item: &Val) -> Option<(Vec<i64>, &Vec<Scalar>)> {
    let Val::Array(array) = item else { return None };
    let extents = array.extents.iter().copied().collect::<Option<Vec<i64>>>()?;
    Some((extents, array.constant.as_ref()?))
}

/// Whether two constant items match (`≡`): one shape and equal values, numbers compared as numbers (1 matches 1.0),
/// exactly (the tolerance of `≡` only matters for doubles computed differently, which constants are not).
fn constant_items_match(first: &Val, second: &Val) -> bool {
    let (Some((first_shape, first_values)), Some((second_shape, second_values))) =
        (constant_item(first), constant_item(second))
    else {
        return false;
    };
    let same_value = |a: &Scalar, b: &Scalar| match (a, b) {
        (Scalar::Char(a), Scalar::Char(b)) => a == b,
        (Scalar::Char(_), _) | (_, Scalar::Char(_)) => false,
        (Scalar::Complex(a, b), Scalar::Complex(c, d)) => a == c && b == d,
        (a, b) => matches!((a.as_double(), b.as_double()), (Some(x), Some(y)) if x == y),
    };
    first_shape == second_shape
        && first_values.len() == second_values.len()
        && first_values.iter().zip(second_values).all(|(a, b)| same_value(a, b))
}
