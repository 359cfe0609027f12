//! The LMAD algebra: linear memory access descriptors as index functions.
//!
//! An LMAD `τ + {(σ1:δ1), ..., (σn:δn)}` has an offset τ and, per dimension, a size σ and a stride δ. It maps the
//! index `y = (y1, ..., yn)` with `0 <= yi < σi` to the address `L(y) = τ + Σ yi·δi` in a flat memory block. Read as a
//! set, it is the image `{L(y)}`: `2+{(3:5),(4:1)}` is {2..5, 7..10, 12..15}.
//!
//! Invariants: sizes are non-negative; strides may be negative (reversed dimensions) or zero (a replicated
//! dimension); all of τ, σ and δ are symbolic [`Term`]s, so the algebra works on shapes only known at run time. The
//! dimensions are listed outermost first, in the order of the array's axes (row-major order of indices), so
//! `[n][m]` stored row-major is `0+{(n:m),(m:1)}`.
//!
//! Every layout operation here is O(rank) term arithmetic at compile time and none of them moves data: a transpose,
//! a permutation, a slice, a take or drop (from either end), a row or column index ([`Lmad::fix`]), a reverse or a
//! reshape of contiguous data only changes the descriptor the memory IR keeps for an array, and indexing computes one
//! address term. [`Lmad::reshape`] returns `None` when one LMAD cannot express the result (flattening a transpose,
//! say); the caller then inserts a copy into a fresh row-major block. The analyses cost a little more, still without
//! touching data: [`Lmad::normalize`] sorts the dimensions (O(rank²) comparisons), [`Lmad::expand`] summarises a
//! loop's accesses, and [`overlap::disjoint`] runs a search bounded by a fixed budget.
//!
//! Rotation is deliberately not an LMAD operation. The rotated vector `0+{(10:1)}` by 5 has addresses 5..9, 0..4;
//! its slice `[3:4]` has 8, 9, 0, 1, which no LMAD describes, so rotation is not closed under slicing. It stays an
//! index-function (pull-array) operation of the loop IR, or is split by the caller into two LMAD pieces.
//!
//! [`Lmad::normalize`] and the non-overlap test in [`overlap`] treat an LMAD as a set of addresses and may change
//! which index maps to which address; every other operation preserves the index-to-address map of the array it
//! describes.

pub mod overlap;
pub mod parse;

use super::term::{Term, TermEvaluationError, VariableBounds};
use std::collections::HashMap;
use std::fmt;

/// One dimension of an LMAD: `size` elements, `stride` addresses apart.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Dim {
    pub size: Term,
    pub stride: Term,
}

/// A linear memory access descriptor `offset + {(size:stride), ...}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lmad {
    pub offset: Term,
    pub dims: Vec<Dim>,
}

/// A strided range of one dimension: `size` indices `start, start + step, ...`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DimSlice {
    pub start: Term,
    pub size: Term,
    pub step: Term,
}

/// Misuse of the LMAD algebra: an internal error of the compiler stage that called it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
pub enum LmadError {
    #[error("an LMAD of rank {rank} was given {given} indices or ranges")]
    #[diagnostic(code(aplc::mem::lmad_rank_mismatch))]
    RankMismatch { rank: usize, given: usize },
    #[error("dimension {dimension} does not exist in an LMAD of rank {rank}")]
    #[diagnostic(code(aplc::mem::lmad_no_such_dimension))]
    NoSuchDimension { dimension: usize, rank: usize },
    #[error("{permutation:?} is not a permutation of the {rank} dimensions")]
    #[diagnostic(code(aplc::mem::lmad_bad_permutation))]
    NotAPermutation { permutation: Vec<usize>, rank: usize },
    #[error(
        "the range starting at {start} with {size} elements of step {step} leaves dimension {dimension} \
         of size {dimension_size}"
    )]
    #[diagnostic(code(aplc::mem::lmad_slice_out_of_bounds))]
    SliceOutOfBounds {
        dimension: usize,
        start: i64,
        size: i64,
        step: i64,
        dimension_size: i64,
    },
    #[error("an LMAD of rank 0 has no first axis to take from or drop from")]
    #[diagnostic(code(aplc::mem::lmad_scalar_has_no_axis))]
    ScalarHasNoAxis,
}

impl Dim {
    pub fn new(size: impl Into<Term>, stride: impl Into<Term>) -> Dim {
        Dim {
            size: size.into(),
            stride: stride.into(),
        }
    }
}

impl DimSlice {
    pub fn new(start: impl Into<Term>, size: impl Into<Term>, step: impl Into<Term>) -> DimSlice {
        DimSlice {
            start: start.into(),
            size: size.into(),
            step: step.into(),
        }
    }

    /// The whole of a dimension of the given size.
    pub fn whole(size: &Term) -> DimSlice {
        DimSlice::new(Term::zero(), size.clone(), Term::one())
    }

    /// An out-of-bounds error when every part is a constant and the range leaves `0..dimension_size`; symbolic ranges
    /// are trusted, since the caller's type system guarantees them.
    fn check_within(&self, dimension: usize, dimension_size: &Term) -> Result<(), LmadError> {
        let parts = (
            self.start.as_constant(),
            self.size.as_constant(),
            self.step.as_constant(),
            dimension_size.as_constant(),
        );
        let (Some(start), Some(size), Some(step), Some(bound)) = parts else {
            return Ok(());
        };
        // In i128, so that no constant can overflow the check.
        let last = i128::from(start) + (i128::from(size) - 1) * i128::from(step);
        let inside = |index: i128| (0..i128::from(bound)).contains(&index);
        if size < 0 || (size > 0 && !(inside(i128::from(start)) && inside(last))) {
            return Err(LmadError::SliceOutOfBounds {
                dimension,
                start,
                size,
                step,
                dimension_size: bound,
            });
        }
        Ok(())
    }
}

impl Lmad {
    pub fn new(offset: impl Into<Term>, dims: Vec<Dim>) -> Lmad {
        Lmad {
            offset: offset.into(),
            dims,
        }
    }

    /// The row-major layout of `shape` at offset 0: the stride of a dimension is the product of the later sizes.
    pub fn row_major(shape: &[Term]) -> Lmad {
        Lmad::row_major_at(Term::zero(), shape)
    }

    /// The row-major layout of `shape` starting at `offset`.
    pub fn row_major_at(offset: Term, shape: &[Term]) -> Lmad {
        let mut stride = Term::one();
        let mut dims = Vec::with_capacity(shape.len());
        for size in shape.iter().rev() {
            dims.push(Dim::new(size.clone(), stride.clone()));
            stride = &stride * size;
        }
        dims.reverse();
        Lmad { offset, dims }
    }

    pub fn rank(&self) -> usize {
        self.dims.len()
    }

    /// The sizes of the dimensions, outermost first.
    pub fn shape(&self) -> Vec<Term> {
        self.dims.iter().map(|dim| dim.size.clone()).collect()
    }

    /// The number of elements: the product of the sizes.
    pub fn element_count(&self) -> Term {
        self.dims.iter().fold(Term::one(), |product, dim| &product * &dim.size)
    }

    fn check_dimension(&self, dimension: usize) -> Result<(), LmadError> {
        if dimension >= self.rank() {
            return Err(LmadError::NoSuchDimension {
                dimension,
                rank: self.rank(),
            });
        }
        Ok(())
    }

    fn check_rank(&self, given: usize) -> Result<(), LmadError> {
        if given != self.rank() {
            return Err(LmadError::RankMismatch {
                rank: self.rank(),
                given,
            });
        }
        Ok(())
    }

    /// The address of a full index: `τ + Σ index_i·δ_i`.
    pub fn index(&self, index: &[Term]) -> Result<Term, LmadError> {
        self.check_rank(index.len())?;
        let displacement = self
            .dims
            .iter()
            .zip(index)
            .fold(Term::zero(), |sum, (dim, position)| sum + position * &dim.stride);
        Ok(&self.offset + &displacement)
    }

    /// A strided slice of every dimension: `(τ + Σ start_i·δ_i) + {(size_i : step_i·δ_i)}`.
    pub fn slice(&self, ranges: &[DimSlice]) -> Result<Lmad, LmadError> {
        self.check_rank(ranges.len())?;
        let mut offset = self.offset.clone();
        let mut dims = Vec::with_capacity(self.rank());
        for (dimension, (dim, range)) in self.dims.iter().zip(ranges).enumerate() {
            range.check_within(dimension, &dim.size)?;
            offset = offset + &range.start * &dim.stride;
            dims.push(Dim::new(range.size.clone(), &range.step * &dim.stride));
        }
        Ok(Lmad { offset, dims })
    }

    /// A strided slice of one dimension, the others kept whole.
    pub fn slice_dimension(&self, dimension: usize, range: DimSlice) -> Result<Lmad, LmadError> {
        self.check_dimension(dimension)?;
        let ranges: Vec<DimSlice> = self
            .dims
            .iter()
            .enumerate()
            .map(|(position, dim)| {
                if position == dimension {
                    range.clone()
                } else {
                    DimSlice::whole(&dim.size)
                }
            })
            .collect();
        self.slice(&ranges)
    }

    /// Indexes one dimension and drops it: `fix(10+{(4:4),(4:1)}, 0, 1) = 14+{(4:1)}`.
    pub fn fix(&self, dimension: usize, index: &Term) -> Result<Lmad, LmadError> {
        self.check_dimension(dimension)?;
        let mut dims = self.dims.clone();
        let fixed = dims.remove(dimension);
        Ok(Lmad {
            offset: &self.offset + &(index * &fixed.stride),
            dims,
        })
    }

    /// Reorders the dimensions: dimension `j` of the result is dimension `permutation[j]` of `self`.
    pub fn permute(&self, permutation: &[usize]) -> Result<Lmad, LmadError> {
        let mut seen = vec![false; self.rank()];
        let is_permutation = permutation.len() == self.rank()
            && permutation
                .iter()
                .all(|&source| source < seen.len() && !std::mem::replace(&mut seen[source], true));
        if !is_permutation {
            return Err(LmadError::NotAPermutation {
                permutation: permutation.to_vec(),
                rank: self.rank(),
            });
        }
        let dims = permutation.iter().map(|&source| self.dims[source].clone()).collect();
        Ok(Lmad {
            offset: self.offset.clone(),
            dims,
        })
    }

    /// Reverses the order of all dimensions (APL's monadic `⍉`).
    pub fn transpose(&self) -> Lmad {
        let mut dims = self.dims.clone();
        dims.reverse();
        Lmad {
            offset: self.offset.clone(),
            dims,
        }
    }

    /// Reverses one dimension: the offset moves to its last element and the stride changes sign.
    pub fn reverse(&self, dimension: usize) -> Result<Lmad, LmadError> {
        self.check_dimension(dimension)?;
        let mut dims = self.dims.clone();
        let dim = &mut dims[dimension];
        let offset = &self.offset + &((&dim.size - Term::one()) * &dim.stride);
        dim.stride = -&dim.stride;
        Ok(Lmad { offset, dims })
    }

    /// The first `count` rows (a slice along the first axis).
    pub fn take(&self, count: &Term) -> Result<Lmad, LmadError> {
        if self.rank() == 0 {
            return Err(LmadError::ScalarHasNoAxis);
        }
        self.slice_dimension(0, DimSlice::new(Term::zero(), count.clone(), Term::one()))
    }

    /// All rows but the first `count` (a slice along the first axis).
    pub fn drop(&self, count: &Term) -> Result<Lmad, LmadError> {
        if self.rank() == 0 {
            return Err(LmadError::ScalarHasNoAxis);
        }
        let remaining = &self.dims[0].size - count;
        self.slice_dimension(0, DimSlice::new(count.clone(), remaining, Term::one()))
    }

    /// The last `count` rows (APL's `-count↑`, a slice along the first axis).
    pub fn take_last(&self, count: &Term) -> Result<Lmad, LmadError> {
        if self.rank() == 0 {
            return Err(LmadError::ScalarHasNoAxis);
        }
        let start = &self.dims[0].size - count;
        self.slice_dimension(0, DimSlice::new(start, count.clone(), Term::one()))
    }

    /// All rows but the last `count` (APL's `-count↓`, a slice along the first axis).
    pub fn drop_last(&self, count: &Term) -> Result<Lmad, LmadError> {
        if self.rank() == 0 {
            return Err(LmadError::ScalarHasNoAxis);
        }
        let remaining = &self.dims[0].size - count;
        self.slice_dimension(0, DimSlice::new(Term::zero(), remaining, Term::one()))
    }

    /// True when the LMAD provably lists `offset, offset + 1, ...` in row-major index order: walking from the last
    /// dimension, every stride equals the product of the later sizes. Dimensions of constant size 1 may have any
    /// stride, and a dimension of constant size 0 makes the array empty, hence trivially contiguous.
    pub fn is_row_major_contiguous(&self) -> bool {
        let mut expected_stride = Term::one();
        let mut contiguous = true;
        for dim in self.dims.iter().rev() {
            match dim.size.as_constant() {
                Some(0) => return true,
                Some(1) => continue,
                _ => {}
            }
            contiguous &= dim.stride == expected_stride;
            expected_stride = &expected_stride * &dim.size;
        }
        contiguous
    }

    /// The same elements seen with a new row-major shape, when that needs no copy: the LMAD must be row-major
    /// contiguous and the element counts provably equal. `None` means the caller must copy.
    pub fn reshape(&self, new_shape: &[Term]) -> Option<Lmad> {
        let new_count = new_shape.iter().fold(Term::one(), |product, size| &product * size);
        if !self.is_row_major_contiguous() || new_count != self.element_count() {
            return None;
        }
        Some(Lmad::row_major_at(self.offset.clone(), new_shape))
    }

    /// The normal form of the LMAD as a set of addresses, with every variable non-negative.
    /// See [`Lmad::normalize_with_bounds`].
    pub fn normalize(&self) -> Option<Lmad> {
        self.normalize_with_bounds(&VariableBounds::all_non_negative())
    }

    /// The normal form of the LMAD as a set of addresses: non-negative strides, sorted in decreasing order. A
    /// negative stride δ of size σ is flipped by adding `(σ-1)·δ` to the offset (the thesis' NORMALIZE, corrected).
    /// The image is preserved but not the index-to-address map. `None` when a stride's sign or the order of two
    /// strides cannot be proved from `bounds`.
    ///
    /// The proofs may assume every size is at least 1: if one is 0, the image is empty before and after, whatever
    /// the strides. So the transpose of `[n][m]`, `0+{(m:1),(n:m)}`, normalises to `0+{(n:m),(m:1)}`. (In an
    /// environment where a size is 0, a normalised stride may therefore evaluate to a negative number; the image is
    /// empty there.)
    pub fn normalize_with_bounds(&self, bounds: &VariableBounds) -> Option<Lmad> {
        let bounds = self.bounds_assuming_non_empty(bounds);
        let flipped = self.with_non_negative_strides(&bounds)?;
        let dims = sort_by_decreasing_stride(flipped.dims, &bounds)?;
        Some(Lmad {
            offset: flipped.offset,
            dims,
        })
    }

    /// The bounds strengthened by `size >= 1` for every dimension: facts that hold whenever the LMAD's image is not
    /// empty.
    pub fn bounds_assuming_non_empty(&self, bounds: &VariableBounds) -> VariableBounds {
        self.dims
            .iter()
            .fold(bounds.clone(), |bounds, dim| bounds.assuming_positive_size(&dim.size))
    }

    /// The first half of normalisation: every negative stride δ of size σ flipped, adding `(σ-1)·δ` to the offset,
    /// so the image is unchanged. `None` when a stride's sign cannot be proved from `bounds`.
    pub fn with_non_negative_strides(&self, bounds: &VariableBounds) -> Option<Lmad> {
        let mut offset = self.offset.clone();
        let mut dims = Vec::with_capacity(self.rank());
        for dim in &self.dims {
            if bounds.is_provably_non_negative(&dim.stride) {
                dims.push(dim.clone());
            } else if bounds.is_provably_non_positive(&dim.stride) {
                offset = offset + (&dim.size - Term::one()) * &dim.stride;
                dims.push(Dim::new(dim.size.clone(), -&dim.stride));
            } else {
                return None;
            }
        }
        Some(Lmad { offset, dims })
    }

    /// The accesses of a loop `for i in lower..lower+count` that touches this LMAD in every iteration, as one LMAD with
    /// a new outermost dimension (the thesis' EXPAND, the inverse of [`Lmad::fix`]): the iteration variable may occur
    /// only in the offset, and only linearly; the new stride is `τ[i+1] - τ[i]` and the new offset `τ[lower]`.
    /// `None` when the accesses are not one LMAD (the caller keeps a set of LMADs instead).
    pub fn expand(&self, variable: &str, lower: &Term, count: &Term) -> Option<Lmad> {
        let mentions_variable = |term: &Term| term.variables().iter().any(|name| name == variable);
        if self
            .dims
            .iter()
            .any(|dim| mentions_variable(&dim.size) || mentions_variable(&dim.stride))
        {
            return None;
        }
        let next = self
            .offset
            .substitute(variable, &(Term::variable(variable) + Term::one()));
        let stride = &next - &self.offset;
        if mentions_variable(&stride) {
            return None;
        }
        let mut dims = Vec::with_capacity(self.rank() + 1);
        dims.push(Dim::new(count.clone(), stride));
        dims.extend(self.dims.iter().cloned());
        Some(Lmad {
            offset: self.offset.substitute(variable, lower),
            dims,
        })
    }

    /// Replaces every variable by its value: the concrete LMAD of a symbolic one.
    pub fn evaluate(&self, environment: &HashMap<String, i64>) -> Result<Lmad, TermEvaluationError> {
        let constant = |term: &Term| term.evaluate(environment).map(Term::constant);
        let dims = self
            .dims
            .iter()
            .map(|dim| Ok(Dim::new(constant(&dim.size)?, constant(&dim.stride)?)))
            .collect::<Result<Vec<Dim>, TermEvaluationError>>()?;
        Ok(Lmad {
            offset: constant(&self.offset)?,
            dims,
        })
    }

    /// The array annotation of the memory IR: `[n][m]@mem3 -> 0+{(n:m),(m:1)}`.
    pub fn format_array_annotation(&self, memory_name: &str, shape: &[Term]) -> String {
        let shape_text: String = shape.iter().map(|size| format!("[{size}]")).collect();
        format!("{shape_text}@{memory_name} -> {self}")
    }
}

/// Insertion sort by decreasing stride, where every comparison must be provable.
fn sort_by_decreasing_stride(dims: Vec<Dim>, bounds: &VariableBounds) -> Option<Vec<Dim>> {
    let mut sorted: Vec<Dim> = Vec::with_capacity(dims.len());
    for dim in dims {
        let mut position = sorted.len();
        while position > 0 {
            let before = &sorted[position - 1].stride;
            if bounds.is_provably_at_most(&dim.stride, before) {
                break;
            }
            if !bounds.is_provably_at_most(before, &dim.stride) {
                return None;
            }
            position -= 1;
        }
        sorted.insert(position, dim);
    }
    Some(sorted)
}

impl fmt::Display for Lmad {
    /// Prints `0+{(n:m),(m:1)}`; an offset of several monomials is parenthesised: `(n + 1)+{(m:1)}`.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.offset.is_single_monomial() {
            write!(formatter, "{}+{{", self.offset)?;
        } else {
            write!(formatter, "({})+{{", self.offset)?;
        }
        for (position, dim) in self.dims.iter().enumerate() {
            if position > 0 {
                write!(formatter, ",")?;
            }
            write!(formatter, "({}:{})", dim.size, dim.stride)?;
        }
        write!(formatter, "}}")
    }
}
