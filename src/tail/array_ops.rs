//! Semantics of the structural array operators (those that move elements without computing new ones), following
//! APL and digest §2.5–2.6: index origin 1, row-major order, fill elements from the base type.
//!
//! Most operators compute, for every result position, the source position it comes from (or [`FILL`]), and then
//! gather; this keeps each rule a few lines of index arithmetic, independent of the element type.

use super::value::{ArrayData, ArrayValue, Scalar, FILL};
use crate::runtime::error::{AplError, AplErrorKind};

fn product(shape: &[usize]) -> usize {
    shape.iter().product()
}

/// The array seen as a vector when it is a scalar (APL's scalar extension for first-axis operators).
fn at_least_vector(array: &ArrayValue) -> ArrayValue {
    if array.rank() == 0 {
        ArrayValue::new(vec![1], array.data.clone())
    } else {
        array.clone()
    }
}

fn gathered(array: &ArrayValue, shape: Vec<usize>, positions: &[usize]) -> ArrayValue {
    ArrayValue::new(shape, array.data.gather(positions))
}

/// The ints of an int array (for count and shape arguments).
pub fn ints(array: &ArrayValue, what: &str) -> Result<Vec<i64>, AplError> {
    match &array.data {
        ArrayData::Int(values) => Ok(values.clone()),
        ArrayData::Bool(values) => Ok(values.iter().map(|&b| b as i64).collect()),
        _ => Err(AplError::domain(format!("{what} must be integers"))),
    }
}

pub fn bools(array: &ArrayValue, what: &str) -> Result<Vec<bool>, AplError> {
    match &array.data {
        ArrayData::Bool(values) => Ok(values.clone()),
        ArrayData::Int(values) if values.iter().all(|&x| x == 0 || x == 1) => {
            Ok(values.iter().map(|&x| x == 1).collect())
        }
        _ => Err(AplError::domain(format!("{what} must be booleans"))),
    }
}

/// The most elements one array may have (2^34); a bigger result is `WS FULL` rather than an allocation failure.
pub const MAXIMUM_ELEMENTS: u64 = 1 << 34;

/// The number of elements of a shape, or `WS FULL` when it exceeds [`MAXIMUM_ELEMENTS`] or when memory for that many
/// elements cannot be had: a failed allocation would abort the process, so the interpreter asks first, as native
/// code's `aplrt_alloc` reports `WS FULL` (the same name on every backend).
fn checked_count(shape: &[usize]) -> Result<usize, AplError> {
    let workspace_full = || {
        AplError::new(
            AplErrorKind::WorkspaceFull,
            format!("an array of shape {shape:?} does not fit in memory"),
        )
    };
    let count = shape
        .iter()
        .try_fold(1u64, |count, &extent| count.checked_mul(extent as u64))
        .filter(|&count| count <= MAXIMUM_ELEMENTS)
        .ok_or_else(workspace_full)? as usize;
    if !can_allocate_elements(count) {
        return Err(workspace_full());
    }
    Ok(count)
}

/// Whether `count` elements of the widest kind the interpreter builds an array from (8 bytes: an integer, a float, an
/// index) can be allocated now. The trial reservation is only address space: it is released untouched.
pub fn can_allocate_elements(count: usize) -> bool {
    let mut trial: Vec<u64> = Vec::new();
    trial.try_reserve_exact(count).is_ok()
}

/// `⍳n`.
pub fn iota(n: i64) -> Result<ArrayValue, AplError> {
    if n < 0 {
        return Err(AplError::domain(format!("iota of a negative number ({n})")));
    }
    checked_count(&[n as usize])?;
    Ok(ArrayValue::vector(ArrayData::Int((1..=n).collect())))
}

pub fn shape(array: &ArrayValue) -> ArrayValue {
    ArrayValue::vector(ArrayData::Int(array.shape.iter().map(|&n| n as i64).collect()))
}

/// `S⍴A`: cyclic reuse of A's elements; fill elements when A is empty.
pub fn reshape(new_shape: &[i64], array: &ArrayValue) -> Result<ArrayValue, AplError> {
    let mut shape = Vec::with_capacity(new_shape.len());
    for &extent in new_shape {
        shape.push(
            usize::try_from(extent).map_err(|_| AplError::domain(format!("negative extent {extent} in reshape")))?,
        );
    }
    let count = checked_count(&shape)?;
    let source_count = array.data.len();
    let positions: Vec<usize> = if source_count == 0 {
        vec![FILL; count]
    } else {
        (0..count).map(|i| i % source_count).collect()
    };
    Ok(gathered(array, shape, &positions))
}

pub fn ravel(array: &ArrayValue) -> ArrayValue {
    ArrayValue::vector(array.data.clone())
}

pub fn tally(array: &ArrayValue) -> i64 {
    array.shape.first().map_or(1, |&n| n as i64)
}

/// Splits a shape around `axis`: (product of the extents before, the extent, product of the extents after).
fn around_axis(shape: &[usize], axis: usize) -> (usize, usize, usize) {
    (product(&shape[..axis]), shape[axis], product(&shape[axis + 1..]))
}

/// Builds a result that keeps the array's shape and maps each position along `axis` through `source_index`.
fn permute_along_axis(array: &ArrayValue, axis: usize, source_index: impl Fn(usize) -> usize) -> ArrayValue {
    let (outer, extent, inner) = around_axis(&array.shape, axis);
    let mut positions = Vec::with_capacity(array.data.len());
    for o in 0..outer {
        for k in 0..extent {
            let source = source_index(k);
            for i in 0..inner {
                positions.push((o * extent + source) * inner + i);
            }
        }
    }
    gathered(array, array.shape.clone(), &positions)
}

/// Reverse along an axis counted from the front (first = 0) or, with `from_last`, the last axis.
pub fn reverse(array: &ArrayValue, axis: Axis) -> ArrayValue {
    if array.rank() == 0 {
        return array.clone();
    }
    let axis = axis.index(array.rank());
    let extent = array.shape[axis];
    permute_along_axis(array, axis, |k| extent - 1 - k)
}

/// Which axis a first-or-last-axis operator works on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Axis {
    First,
    Last,
}

impl Axis {
    fn index(self, rank: usize) -> usize {
        match self {
            Axis::First => 0,
            Axis::Last => rank - 1,
        }
    }
}

/// `n⌽A` / `n⊖A`: element k of the result is element (k + n) mod extent of the source.
pub fn rotate(n: i64, array: &ArrayValue, axis: Axis) -> ArrayValue {
    if array.rank() == 0 {
        return array.clone();
    }
    let axis = axis.index(array.rank());
    let extent = array.shape[axis];
    if extent == 0 {
        return array.clone();
    }
    let shift = n.rem_euclid(extent as i64) as usize;
    permute_along_axis(array, axis, |k| (k + shift) % extent)
}

/// `⍉A`: reverses the axes.
pub fn transpose(array: &ArrayValue) -> ArrayValue {
    let rank = array.rank();
    let axes: Vec<usize> = (0..rank).map(|i| rank - i).collect();
    transpose_by(&axes, array).expect("the reversed axes are a permutation")
}

/// `X⍉A` with a 1-based axis vector: source axis i becomes result axis `X[i]`.
pub fn transpose_by(axes: &[usize], array: &ArrayValue) -> Result<ArrayValue, AplError> {
    let rank = array.rank();
    if axes.len() != rank {
        return Err(AplError::length(format!(
            "transpose axes {axes:?} for an array of rank {rank}"
        )));
    }
    let mut seen = vec![false; rank];
    for &axis in axes {
        if axis < 1 || axis > rank || seen[axis - 1] {
            return Err(AplError::domain(format!(
                "transpose axes {axes:?} are not a permutation of 1..{rank}"
            )));
        }
        seen[axis - 1] = true;
    }
    let mut result_shape = vec![0; rank];
    for (source_axis, &target) in axes.iter().enumerate() {
        result_shape[target - 1] = array.shape[source_axis];
    }
    // Strides of the source, reordered to the result's axes: result axis X[i] steps source axis i.
    let mut source_strides = vec![0; rank];
    let mut stride = 1;
    for axis in (0..rank).rev() {
        source_strides[axis] = stride;
        stride *= array.shape[axis];
    }
    let mut stride_of_result_axis = vec![0; rank];
    for (source_axis, &target) in axes.iter().enumerate() {
        stride_of_result_axis[target - 1] = source_strides[source_axis];
    }
    let count = product(&result_shape);
    let mut positions = Vec::with_capacity(count);
    let mut index = vec![0usize; rank];
    for _ in 0..count {
        positions.push(index.iter().zip(&stride_of_result_axis).map(|(i, s)| i * s).sum());
        // Increment the row-major result index.
        for axis in (0..rank).rev() {
            index[axis] += 1;
            if index[axis] < result_shape[axis] {
                break;
            }
            index[axis] = 0;
        }
    }
    Ok(gathered(array, result_shape, &positions))
}

/// `n↑A` along the first axis: pads with fill elements at the end (n ≥ 0) or the front (n < 0).
pub fn take(n: i64, array: &ArrayValue) -> Result<ArrayValue, AplError> {
    let array = at_least_vector(array);
    let rows = n.unsigned_abs() as usize;
    let mut shape = array.shape.clone();
    shape[0] = rows;
    let count = checked_count(&shape)?;
    let available = array.data.len();
    let positions: Vec<usize> = if n >= 0 {
        (0..count).map(|i| if i < available { i } else { FILL }).collect()
    } else {
        // Align the ends: result position i holds source position i - offset.
        let offset = count as i64 - available as i64;
        (0..count)
            .map(|i| {
                if (i as i64) < offset {
                    FILL
                } else {
                    (i as i64 - offset) as usize
                }
            })
            .collect()
    };
    Ok(gathered(&array, shape, &positions))
}

/// `n↓A` along the first axis.
pub fn drop(n: i64, array: &ArrayValue) -> ArrayValue {
    let array = at_least_vector(array);
    let row = product(&array.shape[1..]);
    let extent = array.shape[0];
    let dropped = (n.unsigned_abs() as usize).min(extent);
    let mut shape = array.shape.clone();
    shape[0] = extent - dropped;
    let start = if n >= 0 { dropped * row } else { 0 };
    let positions: Vec<usize> = (start..start + shape[0] * row).collect();
    gathered(&array, shape, &positions)
}

/// `⊃A`: the first element, or the fill element of an empty array.
pub fn first(array: &ArrayValue) -> Scalar {
    if array.data.is_empty() {
        Scalar::fill(array.base_type())
    } else {
        array.data.get(0)
    }
}

fn same_base(a: &ArrayValue, b: &ArrayValue) -> Result<(), AplError> {
    if a.base_type() == b.base_type() {
        Ok(())
    } else {
        Err(AplError::domain(
            "catenation of arrays of different element types (the program is not well typed)",
        ))
    }
}

/// `A,B` along the last axis (ranks equal, other extents equal).
pub fn catenate(a: &ArrayValue, b: &ArrayValue, axis: Axis) -> Result<ArrayValue, AplError> {
    same_base(a, b)?;
    let a = at_least_vector(a);
    let b = at_least_vector(b);
    if a.rank() != b.rank() {
        return Err(AplError::rank(format!(
            "catenation of ranks {} and {}",
            a.rank(),
            b.rank()
        )));
    }
    let axis = axis.index(a.rank());
    let mut a_rest = a.shape.clone();
    let mut b_rest = b.shape.clone();
    a_rest.remove(axis);
    b_rest.remove(axis);
    if a_rest != b_rest {
        return Err(AplError::length(format!(
            "catenation of shapes {:?} and {:?}",
            a.shape, b.shape
        )));
    }
    let (outer, a_extent, inner) = around_axis(&a.shape, axis);
    let b_extent = b.shape[axis];
    // Gather from the concatenated data of a then b.
    let mut both = a.data.clone();
    append(&mut both, &b.data);
    let b_offset = a.data.len();
    let mut positions = Vec::with_capacity(both.len());
    for o in 0..outer {
        positions.extend((0..a_extent * inner).map(|k| o * a_extent * inner + k));
        positions.extend((0..b_extent * inner).map(|k| b_offset + o * b_extent * inner + k));
    }
    let mut shape = a.shape.clone();
    shape[axis] = a_extent + b_extent;
    Ok(ArrayValue::new(shape, both.gather(&positions)))
}

fn append(data: &mut ArrayData, more: &ArrayData) {
    match (data, more) {
        (ArrayData::Bool(a), ArrayData::Bool(b)) => a.extend_from_slice(b),
        (ArrayData::Int(a), ArrayData::Int(b)) => a.extend_from_slice(b),
        (ArrayData::Double(a), ArrayData::Double(b)) => a.extend_from_slice(b),
        (ArrayData::Char(a), ArrayData::Char(b)) => a.extend_from_slice(b),
        (ArrayData::Complex(a), ArrayData::Complex(b)) => a.extend_from_slice(b),
        _ => unreachable!("same_base checked the element types"),
    }
}

/// x as an array with a trailing extent of 1, so that it catenates with A (of rank one more) on the last axis.
fn with_trailing_unit_axis(item: &ArrayValue) -> ArrayValue {
    let mut shape = item.shape.clone();
    shape.push(1);
    ArrayValue::new(shape, item.data.clone())
}

/// `x,A` where x has rank one less than A.
pub fn cons(item: &ArrayValue, array: &ArrayValue) -> Result<ArrayValue, AplError> {
    catenate(&with_trailing_unit_axis(item), array, Axis::Last)
}

/// `A,x` where x has rank one less than A.
pub fn snoc(array: &ArrayValue, item: &ArrayValue) -> Result<ArrayValue, AplError> {
    catenate(array, &with_trailing_unit_axis(item), Axis::Last)
}

/// The source column of every result column along the last axis (FILL for a fill column), applied to every row.
fn select_columns(array: &ArrayValue, columns: &[usize]) -> ArrayValue {
    let array = at_least_vector(array);
    let extent = *array.shape.last().expect("rank ≥ 1");
    let rows = array
        .data
        .len()
        .checked_div(extent)
        .unwrap_or_else(|| product(&array.shape[..array.rank() - 1]));
    let mut positions = Vec::with_capacity(rows * columns.len());
    for row in 0..rows {
        positions.extend(columns.iter().map(|&c| if c == FILL { FILL } else { row * extent + c }));
    }
    let mut shape = array.shape.clone();
    *shape.last_mut().expect("rank ≥ 1") = columns.len();
    gathered(&array, shape, &positions)
}

fn last_extent(array: &ArrayValue) -> usize {
    array.shape.last().copied().unwrap_or(1)
}

/// Extends a one-element left argument of compress/replicate to the last extent; otherwise checks the length.
fn extend_left<T: Copy>(left: Vec<T>, extent: usize, what: &str) -> Result<Vec<T>, AplError> {
    if left.len() == 1 {
        Ok(vec![left[0]; extent])
    } else if left.len() == extent {
        Ok(left)
    } else {
        Err(AplError::length(format!(
            "{what}: left argument has {} elements, the last axis {extent}",
            left.len()
        )))
    }
}

/// `B/A` along the last axis.
pub fn compress(mask: &[bool], array: &ArrayValue) -> Result<ArrayValue, AplError> {
    let mask = extend_left(mask.to_vec(), last_extent(array), "compress")?;
    let columns: Vec<usize> = mask
        .iter()
        .enumerate()
        .filter(|(_, &keep)| keep)
        .map(|(c, _)| c)
        .collect();
    Ok(select_columns(array, &columns))
}

/// `C/A` along the last axis; a negative count gives that many fill columns.
pub fn replicate(counts: &[i64], array: &ArrayValue) -> Result<ArrayValue, AplError> {
    let counts = extend_left(counts.to_vec(), last_extent(array), "replicate")?;
    let total = counts
        .iter()
        .try_fold(0usize, |total, c| total.checked_add(c.unsigned_abs() as usize));
    let rows = array.data.len() / last_extent(array).max(1);
    checked_count(&[total.unwrap_or(usize::MAX), rows.max(1)])?;
    let mut columns = Vec::new();
    for (column, &count) in counts.iter().enumerate() {
        let source = if count >= 0 { column } else { FILL };
        columns.extend(std::iter::repeat_n(source, count.unsigned_abs() as usize));
    }
    Ok(select_columns(array, &columns))
}

/// `B\A` along the last axis.
pub fn expand(mask: &[bool], array: &ArrayValue) -> Result<ArrayValue, AplError> {
    let ones = mask.iter().filter(|&&b| b).count();
    if ones != last_extent(array) {
        return Err(AplError::length(format!(
            "expand: {ones} ones in the mask, the last axis {}",
            last_extent(array)
        )));
    }
    let mut next = 0;
    let columns: Vec<usize> = mask
        .iter()
        .map(|&b| {
            if b {
                next += 1;
                next - 1
            } else {
                FILL
            }
        })
        .collect();
    Ok(select_columns(array, &columns))
}

/// `index(d, i, A)`: the slice at 1-based position i along 1-based axis d.
pub fn index(axis: i64, position: i64, array: &ArrayValue) -> Result<ArrayValue, AplError> {
    let rank = array.rank();
    if axis < 1 || axis as usize > rank {
        return Err(AplError::rank(format!(
            "index along axis {axis} of an array of rank {rank}"
        )));
    }
    let axis = axis as usize - 1;
    let (outer, extent, inner) = around_axis(&array.shape, axis);
    if position < 1 || position as usize > extent {
        return Err(AplError::index(format!(
            "index {position} out of range 1..{extent} on axis {}",
            axis + 1
        )));
    }
    let k = position as usize - 1;
    let mut positions = Vec::with_capacity(outer * inner);
    for o in 0..outer {
        positions.extend((0..inner).map(|i| (o * extent + k) * inner + i));
    }
    let mut shape = array.shape.clone();
    shape.remove(axis);
    Ok(gathered(array, shape, &positions))
}

/// The row-major position of a 1-based index vector, with a bound check on every axis.
pub fn position_of(indices: &[i64], shape: &[usize]) -> Result<usize, AplError> {
    if indices.len() != shape.len() {
        return Err(AplError::length(format!(
            "{} indices for an array of rank {}",
            indices.len(),
            shape.len()
        )));
    }
    let mut position = 0;
    for (axis, (&index, &extent)) in indices.iter().zip(shape).enumerate() {
        if index < 1 || index as usize > extent {
            return Err(AplError::index(format!(
                "index {index} out of range 1..{extent} on axis {}",
                axis + 1
            )));
        }
        position = position * extent + (index as usize - 1);
    }
    Ok(position)
}

/// `A[I]←v`, functionally.
pub fn update(array: &ArrayValue, indices: &[i64], value: Scalar) -> Result<ArrayValue, AplError> {
    let position = position_of(indices, &array.shape)?;
    let mut result = array.clone();
    set_element(&mut result.data, position, value)?;
    Ok(result)
}

/// Stores `value` at `position` of the ravel; an element of another type is an error of a program that is not well
/// typed.
fn set_element(data: &mut ArrayData, position: usize, value: Scalar) -> Result<(), AplError> {
    match (data, value) {
        (ArrayData::Bool(v), Scalar::Bool(x)) => v[position] = x,
        (ArrayData::Int(v), Scalar::Int(x)) => v[position] = x,
        (ArrayData::Double(v), Scalar::Double(x)) => v[position] = x,
        (ArrayData::Char(v), Scalar::Char(x)) => v[position] = x,
        (ArrayData::Complex(v), Scalar::Complex(re, im)) => v[position] = (re, im),
        _ => {
            return Err(AplError::domain(
                "storing an element of another type into an array (the program is not well typed)",
            ))
        }
    }
    Ok(())
}

/// `scatter(A, P, V)`: A with ravel position P[k] (1-based) set to V[k], in order of k.
pub fn scatter(array: &ArrayValue, positions: &[i64], values: &ArrayValue) -> Result<ArrayValue, AplError> {
    if positions.len() != values.data.len() {
        return Err(AplError::length("scatter: as many values as positions needed"));
    }
    let mut result = array.clone();
    let size = array.data.len() as i64;
    for (k, &position) in positions.iter().enumerate() {
        if position < 1 || position > size {
            return Err(AplError::index("index out of range"));
        }
        set_element(&mut result.data, position as usize - 1, values.data.get(k))?;
    }
    Ok(result)
}

fn elements(array: &ArrayValue) -> impl Iterator<Item = Scalar> + '_ {
    (0..array.data.len()).map(|i| array.data.get(i))
}

/// The 0-based position of the first element of `within` that matches each element of `array` (APL's match:
/// doubles within the comparison tolerance). Ints, chars and bools are looked up in a hash table; doubles and
/// complex numbers are searched linearly.
fn first_positions(within: &ArrayValue, array: &ArrayValue) -> Vec<Option<usize>> {
    use std::collections::HashMap;
    fn by_hash<T: Copy + Eq + std::hash::Hash>(within: &[T], array: &[T]) -> Vec<Option<usize>> {
        let mut first: HashMap<T, usize> = HashMap::with_capacity(within.len());
        for (position, x) in within.iter().enumerate() {
            first.entry(*x).or_insert(position);
        }
        array.iter().map(|x| first.get(x).copied()).collect()
    }
    match (&within.data, &array.data) {
        (ArrayData::Int(w), ArrayData::Int(a)) => by_hash(w, a),
        (ArrayData::Char(w), ArrayData::Char(a)) => by_hash(w, a),
        (ArrayData::Bool(w), ArrayData::Bool(a)) => by_hash(w, a),
        (ArrayData::Double(w), ArrayData::Double(a)) => a
            .iter()
            .map(|x| w.iter().position(|y| super::scalar_ops::tolerantly_equal(*x, *y)))
            .collect(),
        _ => {
            let haystack: Vec<Scalar> = elements(within).collect();
            elements(array).map(|x| haystack.iter().position(|y| *y == x)).collect()
        }
    }
}

/// Dyadic `⍳`: 1-based position of the first occurrence in `within`, or 1 + its length.
pub fn index_of(within: &ArrayValue, array: &ArrayValue) -> ArrayValue {
    let not_found = within.data.len() as i64 + 1;
    let result: Vec<i64> = first_positions(within, array)
        .into_iter()
        .map(|p| p.map_or(not_found, |p| p as i64 + 1))
        .collect();
    ArrayValue::new(array.shape.clone(), ArrayData::Int(result))
}

/// `A∊V`.
pub fn member(array: &ArrayValue, within: &ArrayValue) -> ArrayValue {
    let result: Vec<bool> = first_positions(within, array)
        .into_iter()
        .map(|p| p.is_some())
        .collect();
    ArrayValue::new(array.shape.clone(), ArrayData::Bool(result))
}

/// `⍸B`.
pub fn where_true(mask: &[bool]) -> ArrayValue {
    let result: Vec<i64> = mask
        .iter()
        .enumerate()
        .filter(|(_, &b)| b)
        .map(|(i, _)| i as i64 + 1)
        .collect();
    ArrayValue::vector(ArrayData::Int(result))
}

/// The order of a grade.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Direction {
    Ascending,
    Descending,
}

/// `⍋A` (ascending) or `⍒A` (descending) of the major cells of A, stable; complex numbers have no order (DOMAIN
/// ERROR).
pub fn grade(array: &ArrayValue, direction: Direction) -> Result<ArrayValue, AplError> {
    if matches!(array.data, ArrayData::Complex(_)) {
        return Err(AplError::domain("grade of complex numbers"));
    }
    let array = at_least_vector(array);
    // The items are the major cells (rows of a matrix), compared lexicographically.
    let items = array.shape[0];
    let cell = product(&array.shape[1..]);
    let compare_cells = |i: usize, j: usize| -> std::cmp::Ordering {
        for k in 0..cell {
            let ordering = match (array.data.get(i * cell + k), array.data.get(j * cell + k)) {
                (Scalar::Bool(x), Scalar::Bool(y)) => x.cmp(&y),
                (Scalar::Int(x), Scalar::Int(y)) => x.cmp(&y),
                (Scalar::Char(x), Scalar::Char(y)) => x.cmp(&y),
                (Scalar::Double(x), Scalar::Double(y)) => x.total_cmp(&y),
                _ => std::cmp::Ordering::Equal,
            };
            if ordering != std::cmp::Ordering::Equal {
                return ordering;
            }
        }
        std::cmp::Ordering::Equal
    };
    let mut order: Vec<usize> = (0..items).collect();
    // A stable sort keeps equal items in their original order, in both directions.
    match direction {
        Direction::Ascending => order.sort_by(|&i, &j| compare_cells(i, j)),
        Direction::Descending => order.sort_by(|&i, &j| compare_cells(j, i)),
    }
    Ok(ArrayValue::vector(ArrayData::Int(
        order.into_iter().map(|i| i as i64 + 1).collect(),
    )))
}

/// `R⊥D`: Horner's rule over the mixed radix (a one-element argument is extended to the other's length).
pub fn decode(radix: &[i64], digits: &[i64]) -> Result<i64, AplError> {
    let length = radix.len().max(digits.len());
    let extend = |v: &[i64]| -> Result<Vec<i64>, AplError> {
        match v.len() {
            1 => Ok(vec![v[0]; length]),
            n if n == length => Ok(v.to_vec()),
            n => Err(AplError::length(format!("decode of lengths {n} and {length}"))),
        }
    };
    if radix.is_empty() || digits.is_empty() {
        return Ok(0);
    }
    let (radix, digits) = (extend(radix)?, extend(digits)?);
    // Horner's rule with APL's checked `×` and `+` (compiled code computes it with `muli` and `addi`).
    radix.iter().zip(&digits).try_fold(0i64, |value, (r, d)| {
        use super::scalar_ops::integer_overflow;
        use crate::tail::ast::Op;
        let scaled = value.checked_mul(*r).ok_or_else(|| integer_overflow(Op::MulI))?;
        scaled.checked_add(*d).ok_or_else(|| integer_overflow(Op::AddI))
    })
}

/// `R⊤x`: the digits of x, the last one varying fastest; a 0 radix takes all that remains.
pub fn encode(radix: &[i64], mut value: i64) -> Result<Vec<i64>, AplError> {
    let mut digits = vec![0; radix.len()];
    for (k, &r) in radix.iter().enumerate().rev() {
        if r == 0 {
            digits[k] = value;
            value = 0;
        } else {
            let digit = super::scalar_ops::int_residue(r, value);
            digits[k] = digit;
            // (value - digit) ÷ r exactly, which is ⌊value÷r (no difference that could overflow on the way); only the
            // most negative int divided by -1 overflows, as `divi` does.
            value = super::scalar_ops::int_floor_division(value, r)?;
        }
    }
    Ok(digits)
}
