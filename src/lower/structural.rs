//! Operations that compose index functions without loops (digest §4.2, Fig 3.9 with its SPEC FIXes): iota, each,
//! zipWith, reshape, ravel, transpositions, take/drop, reversals, rotations, catenations, first and index. On a
//! materialised array, transpositions, drop, reversal and index only change the layout (no allocation).

use super::lower::{Function, LowerResult, Lowered, Lowerer};
use super::pull::{Arr, Materialised, Pull};
use crate::loops::error::LowerError;
use crate::loops::ir::{Expr, Layout, ScalarType, Stmt};
use crate::loops::rewrite::{expr_loads_block, mentions_block};
use crate::runtime::error::{AplErrorKind, REDUCING_AN_EMPTY_AXIS_WITHOUT_IDENTITY};
use crate::tail::ast::Op;

/// Which axis a first-or-last-axis operation works on.
#[derive(Clone, Copy, PartialEq)]
enum Axis {
    First,
    Last,
}

impl Axis {
    fn of(self, rank: usize) -> usize {
        match self {
            Axis::First => 0,
            Axis::Last => rank - 1,
        }
    }
}

fn and(a: Expr, b: Expr) -> Expr {
    match (&a, &b) {
        (Expr::Bool(true), _) => b,
        (_, Expr::Bool(true)) => a,
        _ => Expr::Prim(Op::AndB, vec![a, b]),
    }
}

fn ge(a: Expr, b: Expr) -> Expr {
    match (a.as_int(), b.as_int()) {
        (Some(x), Some(y)) => Expr::Bool(x >= y),
        _ => Expr::Prim(Op::GteI, vec![a, b]),
    }
}

fn abs(a: Expr) -> Expr {
    match a.as_int() {
        Some(n) => Expr::Int(n.wrapping_abs()),
        None => Expr::Prim(Op::AbsI, vec![a]),
    }
}

impl Lowerer {
    pub(super) fn lower_structural(&mut self, op: Op, next: &mut dyn FnMut() -> Lowered) -> LowerResult<Lowered> {
        let array = |arr: Arr| Ok(Lowered::Array(arr));
        match op {
            Op::Iota | Op::IotaV => {
                let n = self.as_int(next())?;
                let n = self.bind(n, "n");
                self.fail_if(
                    Expr::lt(n.clone(), Expr::Int(0)),
                    AplErrorKind::Domain,
                    "iota of a negative number",
                );
                let mut pull = Pull::flat(ScalarType::Int, vec![n], |_, i| Ok(Expr::add_int(i, Expr::Int(1))));
                pull.cheap = true;
                array(Arr::Pull(pull))
            }
            Op::Shape | Op::ShapeV => {
                let arr = self.as_array(next())?;
                array(Arr::Literal {
                    element: ScalarType::Int,
                    elements: arr.shape(),
                })
            }
            Op::Tally => {
                let arr = self.as_array(next())?;
                Ok(Lowered::Scalar(arr.shape().first().cloned().unwrap_or(Expr::Int(1))))
            }
            Op::Reshape => {
                let shape = self.as_array(next())?;
                let arr = self.as_array(next())?;
                // A reshape to fewer elements reads only a prefix of its argument: unless the sizes show that every
                // element is read, an argument whose elements may fail is evaluated whole first.
                let target_size = match &shape {
                    Arr::Literal { elements, .. } => elements.iter().map(Expr::as_int).product::<Option<i64>>(),
                    _ => None,
                };
                let source_size = arr.shape().iter().map(Expr::as_int).product::<Option<i64>>();
                let arr = match (target_size, source_size) {
                    (Some(target), Some(source)) if target >= source => arr,
                    _ => self.with_every_element_evaluated(arr)?,
                };
                self.reshape(shape, arr).and_then(array)
            }
            Op::Ravel => {
                let arr = self.as_array(next())?;
                self.ravel(arr).and_then(array)
            }
            Op::Transpose => {
                let arr = self.as_array(next())?;
                let rank = arr.rank();
                let axes: Vec<usize> = (0..rank).map(|k| rank - 1 - k).collect();
                self.permute(arr, &axes).and_then(array)
            }
            Op::Transpose2 => {
                let axes = self.as_array(next())?;
                let arr = self.as_array(next())?;
                self.transpose_by(axes, arr).and_then(array)
            }
            Op::NonEmptyRows => {
                let arr = self.as_array(next())?;
                let row_length = arr.shape().last().cloned().unwrap_or(Expr::Int(1));
                self.fail_if(
                    Expr::eq(row_length, Expr::Int(0)),
                    AplErrorKind::Domain,
                    REDUCING_AN_EMPTY_AXIS_WITHOUT_IDENTITY,
                );
                array(arr)
            }
            Op::Reverse => {
                let arr = self.as_array(next())?;
                self.reverse(arr, Axis::Last).and_then(array)
            }
            Op::VReverse | Op::VReverseV => {
                let arr = self.as_array(next())?;
                self.reverse(arr, Axis::First).and_then(array)
            }
            Op::Rotate | Op::RotateV | Op::VRotate | Op::VRotateV => {
                let count = self.as_int(next())?;
                let arr = self.as_array(next())?;
                let axis = if matches!(op, Op::Rotate | Op::RotateV) {
                    Axis::Last
                } else {
                    Axis::First
                };
                self.rotate(count, arr, axis).and_then(array)
            }
            Op::Take | Op::TakeV | Op::TakeLastV => {
                let count = self.as_int(next())?;
                let count = if op == Op::TakeLastV {
                    Expr::neg_int(count)
                } else {
                    count
                };
                let arr = self.as_array(next())?;
                if let (Some(k), Arr::Literal { element, elements }) = (count.as_int(), &arr) {
                    let length = elements.len() as i64;
                    let fill = element.fill();
                    // Overtake pads with fill elements (at the front for a negative count).
                    let taken = (0..k.abs())
                        .map(|i| {
                            let source = if k >= 0 { i } else { i - (k.abs() - length) };
                            usize::try_from(source)
                                .ok()
                                .and_then(|s| elements.get(s).cloned())
                                .unwrap_or_else(|| fill.clone())
                        })
                        .collect();
                    return array(Arr::Literal {
                        element: *element,
                        elements: taken,
                    });
                }
                // An overtake (or a take of everything) reads every element: nothing to evaluate beforehand.
                let reads_everything = match (count.as_int(), arr.shape().first().and_then(Expr::as_int)) {
                    (Some(k), Some(length)) => k.unsigned_abs() >= length.unsigned_abs(),
                    _ => false,
                };
                let arr = if reads_everything {
                    arr
                } else {
                    self.with_every_element_evaluated(arr)?
                };
                self.take(count, arr).and_then(array)
            }
            Op::Drop | Op::DropV | Op::DropLastV => {
                let count = self.as_int(next())?;
                let count = if op == Op::DropLastV {
                    Expr::neg_int(count)
                } else {
                    count
                };
                let arr = self.as_array(next())?;
                if let (Some(k), Arr::Literal { element, elements }) = (count.as_int(), &arr) {
                    let dropped = (k.unsigned_abs() as usize).min(elements.len());
                    let kept = if k >= 0 {
                        elements[dropped..].to_vec()
                    } else {
                        elements[..elements.len() - dropped].to_vec()
                    };
                    return array(Arr::Literal {
                        element: *element,
                        elements: kept,
                    });
                }
                let arr = self.with_every_element_evaluated(arr)?;
                self.drop(count, arr).and_then(array)
            }
            Op::First | Op::FirstV => {
                let arr = self.as_array(next())?;
                let arr = self.with_every_element_evaluated(arr)?;
                self.first(arr).map(Lowered::Scalar)
            }
            Op::Cat | Op::CatV | Op::CatFirst => {
                let left = self.as_array(next())?;
                let right = self.as_array(next())?;
                if let (Arr::Literal { element, elements: a }, Arr::Literal { elements: b, .. }) = (&left, &right) {
                    // Static vectors stay static (the thesis' constant folding of the V-ops).
                    let elements = a.iter().chain(b).cloned().collect();
                    return array(Arr::Literal {
                        element: *element,
                        elements,
                    });
                }
                let axis = if op == Op::CatFirst { Axis::First } else { Axis::Last };
                self.catenate(left, right, axis).and_then(array)
            }
            Op::Cons | Op::ConsV => {
                let item = self.as_array(next())?;
                let arr = self.as_array(next())?;
                if let (Some(x), Arr::Literal { element, elements }) = (self.static_scalar(&item)?, &arr) {
                    let elements = std::iter::once(x).chain(elements.iter().cloned()).collect();
                    return array(Arr::Literal {
                        element: *element,
                        elements,
                    });
                }
                let item = self.with_trailing_unit_axis(item)?;
                self.catenate(item, arr, Axis::Last).and_then(array)
            }
            Op::Snoc | Op::SnocV => {
                let arr = self.as_array(next())?;
                let item = self.as_array(next())?;
                if let (Some(x), Arr::Literal { element, elements }) = (self.static_scalar(&item)?, &arr) {
                    let elements = elements.iter().cloned().chain(std::iter::once(x)).collect();
                    return array(Arr::Literal {
                        element: *element,
                        elements,
                    });
                }
                let item = self.with_trailing_unit_axis(item)?;
                self.catenate(arr, item, Axis::Last).and_then(array)
            }
            Op::Index => {
                let axis = self.as_int(next())?;
                let position = self.as_int(next())?;
                let arr = self.as_array(next())?;
                let arr = self.with_every_element_evaluated(arr)?;
                self.index(axis, position, arr).and_then(array)
            }
            Op::Update => {
                let arr = self.as_array(next())?;
                let indices = self.as_array(next())?;
                let value = self.as_scalar(next())?;
                self.update(arr, indices, value).and_then(array)
            }
            Op::Scatter => {
                let arr = self.as_array(next())?;
                let positions = self.as_array(next())?;
                let values = self.as_array(next())?;
                self.scatter(arr, positions, values).and_then(array)
            }
            other => self.lower_search(other, next),
        }
    }

    /// The value of a rank-0 array or scalar as a trivial expression, when reading it needs no statements.
    fn static_scalar(&mut self, arr: &Arr) -> LowerResult<Option<Expr>> {
        match arr {
            Arr::Pull(pull) if pull.shape.is_empty() && pull.cheap => {
                let value = self.read_shaped(arr, &[])?;
                Ok(value.is_trivial().then_some(value))
            }
            _ => Ok(None),
        }
    }

    // ---- Element-wise ----

    pub(super) fn each(&mut self, function: Function, arr: Arr) -> LowerResult<Arr> {
        let arr = self.indexable(arr)?;
        let element = self.result_type(&function, &[arr.element()])?;
        let rolls = self.function_draws_random_numbers(&function, &[arr.element()])?;
        let shape = arr.shape();
        let pull = if arr.prefers_flat() {
            Pull::flat(element, shape, move |lowerer, i| {
                let x = lowerer.read_flat(&arr, i)?;
                let x = lowerer.bind(x, "x");
                lowerer.apply_scalar(&function, &[x])
            })
        } else {
            Pull::shaped(element, shape, move |lowerer, index| {
                let x = lowerer.read_shaped(&arr, index)?;
                let x = lowerer.bind(x, "x");
                lowerer.apply_scalar(&function, &[x])
            })
        };
        self.materialised_if_rolling(Arr::Pull(pull), rolls)
    }

    /// Emits the run-time checks that two shapes are equal (none for axes whose extents are the same expression).
    fn check_same_shape(&mut self, left: &[Expr], right: &[Expr], what: &str) {
        if left.len() != right.len() {
            self.fail_if(
                Expr::Bool(true),
                AplErrorKind::Rank,
                &format!("{what} of different ranks"),
            );
            return;
        }
        for (a, b) in left.iter().zip(right) {
            if a != b {
                let differ = Expr::not_bool(Expr::eq(a.clone(), b.clone()));
                self.fail_if(differ, AplErrorKind::Length, &format!("{what} of different shapes"));
            }
        }
    }

    pub(super) fn zip_with(&mut self, function: Function, left: Arr, right: Arr) -> LowerResult<Arr> {
        let left = self.indexable(left)?;
        let right = self.indexable(right)?;
        self.check_same_shape(&left.shape(), &right.shape(), "zipWith");
        if left.rank() != right.rank() {
            return Ok(Arr::Pull(Pull::scalar(left.element().fill())));
        }
        let element = self.result_type(&function, &[left.element(), right.element()])?;
        let rolls = self.function_draws_random_numbers(&function, &[left.element(), right.element()])?;
        let shape = left.shape();
        let pull = if left.prefers_flat() && right.prefers_flat() {
            Pull::flat(element, shape, move |lowerer, i| {
                let i = lowerer.bind(i, "q");
                let x = lowerer.read_flat(&left, i.clone())?;
                let x = lowerer.bind(x, "x");
                let y = lowerer.read_flat(&right, i)?;
                let y = lowerer.bind(y, "y");
                lowerer.apply_scalar(&function, &[x, y])
            })
        } else {
            Pull::shaped(element, shape, move |lowerer, index| {
                let x = lowerer.read_shaped(&left, index)?;
                let x = lowerer.bind(x, "x");
                let y = lowerer.read_shaped(&right, index)?;
                let y = lowerer.bind(y, "y");
                lowerer.apply_scalar(&function, &[x, y])
            })
        };
        self.materialised_if_rolling(Arr::Pull(pull), rolls)
    }

    // ---- Reshaping ----

    fn reshape(&mut self, shape: Arr, arr: Arr) -> LowerResult<Arr> {
        let extents = self.static_vector(shape, "a reshape's shape")?;
        let mut shape = Vec::with_capacity(extents.len());
        for extent in extents {
            let extent = self.bind(extent, "n");
            self.fail_if(
                Expr::lt(extent.clone(), Expr::Int(0)),
                AplErrorKind::Domain,
                "negative extent in reshape",
            );
            shape.push(extent);
        }
        let arr = self.indexable(arr)?;
        // The source is read cyclically: materialise it unless reading it is cheap (thesis' rule; see `fusion.rs`).
        let arr = match arr {
            Arr::Pull(ref pull) if !self.is_cheap_to_recompute(pull) => Arr::Mat(self.materialise(&arr)?),
            other => other,
        };
        let source_size = self.size_of(&arr.shape());
        let target_size = Expr::product(&shape);
        let element = arr.element();
        if source_size == target_size {
            // Same number of elements: a row-major block only gets a new row-major layout (no copy, no pull).
            if let Arr::Mat(mat) = &arr {
                if mat.layout.is_row_major(&mat.shape) {
                    let mut layout = Layout::row_major(&shape);
                    layout.offset = mat.layout.offset.clone();
                    return Ok(Arr::Mat(Materialised {
                        block: mat.block,
                        shape,
                        layout,
                    }));
                }
            }
            return Ok(Arr::Pull(Pull::flat(element, shape, move |lowerer, i| {
                lowerer.read_flat(&arr, i)
            })));
        }
        Ok(Arr::Pull(Pull::flat(element, shape, move |lowerer, i| {
            let empty = Expr::eq(source_size.clone(), Expr::Int(0));
            lowerer.choose(
                empty,
                element,
                |_| Ok(element.fill()),
                |lowerer| {
                    let position = Expr::modulo(i.clone(), source_size.clone());
                    lowerer.read_flat(&arr, position)
                },
            )
        })))
    }

    fn ravel(&mut self, arr: Arr) -> LowerResult<Arr> {
        let arr = self.indexable(arr)?;
        let size = self.size_of(&arr.shape());
        if let Arr::Mat(mat) = &arr {
            if mat.layout.is_row_major(&mat.shape) {
                return Ok(Arr::Mat(Materialised {
                    block: mat.block,
                    layout: Layout {
                        offset: mat.layout.offset.clone(),
                        strides: vec![Expr::Int(1)],
                    },
                    shape: vec![size],
                }));
            }
        }
        let element = arr.element();
        Ok(Arr::Pull(Pull::flat(element, vec![size], move |lowerer, i| {
            lowerer.read_flat(&arr, i)
        })))
    }

    /// Result axis k is source axis `axes[k]` (0-based).
    fn permute(&mut self, arr: Arr, axes: &[usize]) -> LowerResult<Arr> {
        let arr = self.indexable(arr)?;
        if axes.iter().enumerate().all(|(k, &a)| k == a) {
            return Ok(arr);
        }
        let shape = arr.shape();
        let new_shape: Vec<Expr> = axes.iter().map(|&a| shape[a].clone()).collect();
        if let Arr::Mat(mat) = &arr {
            return Ok(Arr::Mat(Materialised {
                block: mat.block,
                layout: Layout {
                    offset: mat.layout.offset.clone(),
                    strides: axes.iter().map(|&a| mat.layout.strides[a].clone()).collect(),
                },
                shape: new_shape,
            }));
        }
        let axes = axes.to_vec();
        let element = arr.element();
        Ok(Arr::Pull(Pull::shaped(element, new_shape, move |lowerer, index| {
            let mut source = vec![Expr::Int(0); index.len()];
            for (k, &a) in axes.iter().enumerate() {
                source[a] = index[k].clone();
            }
            lowerer.read_shaped(&arr, &source)
        })))
    }

    /// `X⍉A` (APL convention, 1-based): source axis i becomes result axis X[i].
    fn transpose_by(&mut self, axes: Arr, arr: Arr) -> LowerResult<Arr> {
        let axes = self.static_vector(axes, "transp2's axes")?;
        let axes: Vec<i64> = axes
            .iter()
            .map(|a| a.as_int())
            .collect::<Option<_>>()
            .ok_or_else(|| LowerError::unsupported("transp2 with axes unknown at compile time"))?;
        let rank = arr.rank();
        if axes.len() != rank {
            self.fail_if(
                Expr::Bool(true),
                AplErrorKind::Length,
                "transpose axes do not match the rank",
            );
            return Ok(arr);
        }
        let mut result_to_source = vec![usize::MAX; rank];
        for (source, &target) in axes.iter().enumerate() {
            if target < 1 || target as usize > rank || result_to_source[target as usize - 1] != usize::MAX {
                self.fail_if(
                    Expr::Bool(true),
                    AplErrorKind::Domain,
                    "transpose axes are not a permutation",
                );
                return Ok(arr);
            }
            result_to_source[target as usize - 1] = source;
        }
        self.permute(arr, &result_to_source)
    }

    // ---- Along one axis ----

    /// A scalar seen as a one-element vector (first-axis operations and catenation extend scalars).
    fn at_least_vector(&mut self, arr: Arr) -> LowerResult<Arr> {
        if arr.rank() > 0 {
            return Ok(arr);
        }
        let arr = self.indexable(arr)?;
        let element = arr.element();
        Ok(Arr::Pull(Pull::shaped(
            element,
            vec![Expr::Int(1)],
            move |lowerer, _| lowerer.read_shaped(&arr, &[]),
        )))
    }

    /// A pull array that reads `arr` at the index with one axis remapped by `source_index`.
    fn remap_axis(
        arr: Arr,
        shape: Vec<Expr>,
        axis: usize,
        source_index: impl Fn(&mut Lowerer, Expr) -> Expr + 'static,
    ) -> Arr {
        let element = arr.element();
        Arr::Pull(Pull::shaped(element, shape, move |lowerer, index| {
            let mut source = index.to_vec();
            source[axis] = source_index(lowerer, index[axis].clone());
            lowerer.read_shaped(&arr, &source)
        }))
    }

    fn reverse(&mut self, arr: Arr, axis: Axis) -> LowerResult<Arr> {
        let arr = self.indexable(arr)?;
        if arr.rank() == 0 {
            return Ok(arr);
        }
        let axis = axis.of(arr.rank());
        let shape = arr.shape();
        let extent = shape[axis].clone();
        if let Arr::Mat(mat) = &arr {
            let mut layout = mat.layout.clone();
            let last = Expr::max(Expr::sub_int(extent, Expr::Int(1)), Expr::Int(0));
            layout.offset = Expr::add_int(layout.offset, Expr::mul_int(last, layout.strides[axis].clone()));
            layout.strides[axis] = Expr::mul_int(Expr::Int(-1), layout.strides[axis].clone());
            return Ok(Arr::Mat(Materialised {
                block: mat.block,
                shape: mat.shape.clone(),
                layout,
            }));
        }
        Ok(Self::remap_axis(arr, shape, axis, move |_, i| {
            Expr::sub_int(Expr::sub_int(extent.clone(), Expr::Int(1)), i)
        }))
    }

    fn rotate(&mut self, count: Expr, arr: Arr, axis: Axis) -> LowerResult<Arr> {
        let arr = self.indexable(arr)?;
        if arr.rank() == 0 {
            return Ok(arr);
        }
        let axis = axis.of(arr.rank());
        let shape = arr.shape();
        let extent = shape[axis].clone();
        // The count reduced once to 0..extent-1 (APL's residue, whatever its sign; an empty axis is never read), so
        // that each read needs one compare and a select instead of a division: i + shift < 2 × extent.
        let shift = match (count.as_int(), extent.as_int()) {
            (Some(count), Some(extent)) => Expr::Int(crate::tail::scalar_ops::int_residue(extent, count)),
            _ => Expr::modulo(count, extent.clone()),
        };
        let shift = self.bind(shift, "k");
        Ok(Self::remap_axis(arr, shape, axis, move |lowerer, i| {
            let moved = lowerer.bind(Expr::add_int(i, shift.clone()), "r");
            let wrapped = Expr::sub_int(moved.clone(), extent.clone());
            Expr::select(Expr::lt(moved.clone(), extent.clone()), moved, wrapped)
        }))
    }

    fn take(&mut self, count: Expr, arr: Arr) -> LowerResult<Arr> {
        let arr = self.indexable(arr)?;
        let arr = self.at_least_vector(arr)?;
        let count = self.bind(count, "k");
        let mut shape = arr.shape();
        let extent = shape[0].clone();
        shape[0] = self.bind(abs(count.clone()), "n");
        // Overtake from the right (count < 0) aligns the ends: result row r is source row r - (|count| - extent).
        let shift = Expr::select(
            ge(count.clone(), Expr::Int(0)),
            Expr::Int(0),
            Expr::sub_int(shape[0].clone(), extent.clone()),
        );
        let shift = self.bind(shift, "shift");
        let element = arr.element();
        Ok(Arr::Pull(Pull::shaped(element, shape, move |lowerer, index| {
            let row = lowerer.bind(Expr::sub_int(index[0].clone(), shift.clone()), "row");
            let inside = and(ge(row.clone(), Expr::Int(0)), Expr::lt(row.clone(), extent.clone()));
            lowerer.choose(
                inside,
                element,
                |lowerer| {
                    let mut source = index.to_vec();
                    source[0] = row.clone();
                    lowerer.read_shaped(&arr, &source)
                },
                |_| Ok(element.fill()),
            )
        })))
    }

    fn drop(&mut self, count: Expr, arr: Arr) -> LowerResult<Arr> {
        let arr = self.indexable(arr)?;
        let arr = self.at_least_vector(arr)?;
        let count = self.bind(count, "k");
        let mut shape = arr.shape();
        let extent = shape[0].clone();
        let dropped = self.bind(Expr::min(abs(count.clone()), extent.clone()), "d");
        shape[0] = self.bind(Expr::sub_int(extent, dropped.clone()), "n");
        // count ≥ 0 drops the first rows (the data starts `dropped` rows in), count < 0 the last ones.
        let start = Expr::select(ge(count, Expr::Int(0)), dropped, Expr::Int(0));
        let start = self.bind(start, "start");
        if let Arr::Mat(mat) = &arr {
            let mut layout = mat.layout.clone();
            layout.offset = Expr::add_int(layout.offset, Expr::mul_int(start, layout.strides[0].clone()));
            let layout_offset = self.bind(layout.offset, "off");
            layout.offset = layout_offset;
            return Ok(Arr::Mat(Materialised {
                block: mat.block,
                shape,
                layout,
            }));
        }
        let element = arr.element();
        if arr.prefers_flat() {
            let row = Expr::product(&shape[1..]);
            let offset = self.bind(Expr::mul_int(start, row), "off");
            return Ok(Arr::Pull(Pull::flat(element, shape, move |lowerer, i| {
                lowerer.read_flat(&arr, Expr::add_int(i, offset.clone()))
            })));
        }
        Ok(Self::remap_axis(arr, shape, 0, move |_, i| {
            Expr::add_int(i, start.clone())
        }))
    }

    fn first(&mut self, arr: Arr) -> LowerResult<Expr> {
        let arr = self.indexable(arr)?;
        if arr.rank() == 0 {
            return self.read_shaped(&arr, &[]);
        }
        let size = self.size_of(&arr.shape());
        let element = arr.element();
        let value = self.choose(
            Expr::lt(Expr::Int(0), size),
            element,
            |lowerer| lowerer.read_flat(&arr, Expr::Int(0)),
            |_| Ok(element.fill()),
        )?;
        Ok(self.bind(value, "first"))
    }

    /// x of rank r-1 as an array of rank r with a trailing extent of 1 (cons and snoc).
    fn with_trailing_unit_axis(&mut self, arr: Arr) -> LowerResult<Arr> {
        let arr = self.indexable(arr)?;
        let mut shape = arr.shape();
        shape.push(Expr::Int(1));
        let element = arr.element();
        Ok(Arr::Pull(Pull::shaped(element, shape, move |lowerer, index| {
            lowerer.read_shaped(&arr, &index[..index.len() - 1])
        })))
    }

    fn catenate(&mut self, left: Arr, right: Arr, axis: Axis) -> LowerResult<Arr> {
        let left = self.indexable(left)?;
        let right = self.indexable(right)?;
        let left = self.at_least_vector(left)?;
        let right = self.at_least_vector(right)?;
        if left.rank() != right.rank() {
            self.fail_if(Expr::Bool(true), AplErrorKind::Rank, "catenation of different ranks");
            return Ok(left);
        }
        let axis = axis.of(left.rank());
        let mut left_rest = left.shape();
        let mut right_rest = right.shape();
        let left_extent = left_rest.remove(axis);
        let right_extent = right_rest.remove(axis);
        self.check_same_shape(&left_rest, &right_rest, "catenation");
        let mut shape = left.shape();
        shape[axis] = self.bind(Expr::add_int(left_extent.clone(), right_extent), "n");
        let element = left.element();
        Ok(Arr::Pull(Pull::shaped(element, shape, move |lowerer, index| {
            let i = index[axis].clone();
            lowerer.choose(
                Expr::lt(i.clone(), left_extent.clone()),
                element,
                |lowerer| lowerer.read_shaped(&left, index),
                |lowerer| {
                    let mut source = index.to_vec();
                    source[axis] = lowerer.bind(Expr::sub_int(i.clone(), left_extent.clone()), "j");
                    lowerer.read_shaped(&right, &source)
                },
            )
        })))
    }

    // ---- Indexing ----

    fn index(&mut self, axis: Expr, position: Expr, arr: Arr) -> LowerResult<Arr> {
        let arr = self.indexable(arr)?;
        let rank = arr.rank();
        let Some(axis) = axis.as_int() else {
            return Err(LowerError::unsupported("index along an axis unknown at compile time"));
        };
        if axis < 1 || axis as usize > rank {
            self.fail_if(
                Expr::Bool(true),
                AplErrorKind::Rank,
                "index along an axis the array does not have",
            );
            return Ok(Arr::Pull(Pull::shaped(
                arr.element(),
                vec![Expr::Int(0); rank.saturating_sub(1)],
                |_, _| Ok(Expr::Int(0)),
            )));
        }
        let axis = axis as usize - 1;
        let mut shape = arr.shape();
        let extent = shape.remove(axis);
        let position = self.bind(position, "k");
        let outside = Expr::or(
            Expr::lt(position.clone(), Expr::Int(1)),
            Expr::lt(extent, position.clone()),
        );
        self.fail_if(outside, AplErrorKind::Index, "index out of range");
        let k = self.bind(Expr::sub_int(position, Expr::Int(1)), "k");
        if let Arr::Mat(mat) = &arr {
            let mut layout = mat.layout.clone();
            let stride = layout.strides.remove(axis);
            layout.offset = Expr::add_int(layout.offset, Expr::mul_int(k, stride));
            let offset = self.bind(layout.offset, "off");
            layout.offset = offset;
            return Ok(Arr::Mat(Materialised {
                block: mat.block,
                shape,
                layout,
            }));
        }
        let element = arr.element();
        Ok(Arr::Pull(Pull::shaped(element, shape, move |lowerer, index| {
            let mut source = index.to_vec();
            source.insert(axis, k.clone());
            lowerer.read_shaped(&arr, &source)
        })))
    }

    /// `update(A, I, v)`: a fresh copy of A with one element replaced (A may be shared, so it is always copied).
    /// A copy of the array with its elements at the given row-major positions replaced, one at a time in order (a
    /// position given twice keeps the last value). Positions or values that read the array itself (`x[2 1]←x[1 2]`)
    /// are materialised before the copy is made, so that they are its old elements even where the memory passes let
    /// the copy share the array's block. Others are computed in the loop that stores (`P[I×⍳N]←0` allocates no
    /// index vector); an error there stops the program, so no one sees the stores made before it.
    fn scatter(&mut self, arr: Arr, positions: Arr, values: Arr) -> LowerResult<Arr> {
        let arr = self.indexable(arr)?;
        let positions = self.indexable(positions)?;
        let values = self.indexable(values)?;
        let count = positions.shape()[0].clone();
        self.check_same_shape(&positions.shape(), &values.shape(), "scatter");
        let (positions, values) = if self.reads_block_of(&[&positions, &values], &arr)? {
            let positions = Arr::Mat(self.materialise(&positions)?);
            let values = Arr::Mat(self.materialise(&values)?);
            (positions, values)
        } else {
            (positions, values)
        };
        let copy = self.materialise(&arr)?;
        let size = self.size_of(&copy.shape);
        let size = self.bind(size, "n");
        self.for_loop(count, "k", |lowerer, k| {
            let position = lowerer.read_flat(&positions, k.clone())?;
            let position = lowerer.bind(position, "pos");
            let outside = Expr::or(
                Expr::lt(position.clone(), Expr::Int(1)),
                Expr::lt(size.clone(), position.clone()),
            );
            lowerer.fail_if(outside, AplErrorKind::Index, "index out of range");
            let value = lowerer.read_flat(&values, k)?;
            lowerer.emit(Stmt::Store {
                block: copy.block,
                index: Expr::sub_int(position, Expr::Int(1)),
                value,
            });
            Ok(())
        })?;
        Ok(Arr::Mat(copy))
    }

    /// Whether reading an element of any of `readers` may load from the block of `arr` (a materialised array):
    /// the statements and value of one read, at an index not yet known, are built and dropped.
    fn reads_block_of(&mut self, readers: &[&Arr], arr: &Arr) -> LowerResult<bool> {
        let Arr::Mat(mat) = arr else {
            return Ok(false);
        };
        let index = self.fresh_var(ScalarType::Int, "probe");
        let (statements, values) = self.capture(|lowerer| {
            readers
                .iter()
                .map(|reader| lowerer.read_flat(reader, Expr::var(&index)))
                .collect::<LowerResult<Vec<Expr>>>()
        })?;
        self.forget_closed_multi_indices();
        let block = mat.block.id;
        Ok(statements.iter().any(|statement| mentions_block(statement, block))
            || values.iter().any(|value| expr_loads_block(value, block)))
    }

    fn update(&mut self, arr: Arr, indices: Arr, value: Expr) -> LowerResult<Arr> {
        let arr = self.indexable(arr)?;
        let indices = self.static_vector(indices, "update's index vector")?;
        let copy = self.materialise(&arr)?;
        if indices.len() != copy.shape.len() {
            self.fail_if(
                Expr::Bool(true),
                AplErrorKind::Length,
                "update: one index per axis needed",
            );
            return Ok(Arr::Mat(copy));
        }
        let mut zero_based = Vec::new();
        for (index, extent) in indices.iter().zip(&copy.shape) {
            let outside = Expr::or(
                Expr::lt(index.clone(), Expr::Int(1)),
                Expr::lt(extent.clone(), index.clone()),
            );
            self.fail_if(outside, AplErrorKind::Index, "update: index out of range");
            zero_based.push(Expr::sub_int(index.clone(), Expr::Int(1)));
        }
        let position = copy.layout.position(&zero_based);
        self.emit(Stmt::Store {
            block: copy.block,
            index: position,
            value,
        });
        Ok(Arr::Mat(copy))
    }
}
