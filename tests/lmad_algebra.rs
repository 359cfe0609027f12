//! The LMAD layout operations on hand-worked examples (most from the thesis' Fig. 3.6 and funmem-and-tuning.md §2).

use aplc::mem::{Dim, DimSlice, Lmad, LmadError, Term, VariableBounds};

fn var(name: &str) -> Term {
    Term::variable(name)
}

fn constant(value: i64) -> Term {
    Term::constant(value)
}

/// A concrete LMAD from an offset and (size, stride) pairs.
fn concrete(offset: i64, dims: &[(i64, i64)]) -> Lmad {
    Lmad::new(
        offset,
        dims.iter().map(|&(size, stride)| Dim::new(size, stride)).collect(),
    )
}

fn n_by_m() -> Lmad {
    Lmad::row_major(&[var("n"), var("m")])
}

#[test]
fn row_major_strides_are_products_of_later_sizes() {
    assert_eq!(n_by_m().to_string(), "0+{(n:m),(m:1)}");
    let three = Lmad::row_major(&[var("n"), var("m"), var("k")]);
    assert_eq!(three.to_string(), "0+{(n:k*m),(m:k),(k:1)}");
    assert_eq!(Lmad::row_major(&[]).to_string(), "0+{}");
    assert_eq!(
        Lmad::row_major_at(constant(10), &[constant(20), constant(10)]).to_string(),
        "10+{(20:10),(10:1)}"
    );
}

#[test]
fn array_annotation_names_the_memory_block() {
    let shape = [var("n"), var("m")];
    assert_eq!(
        Lmad::row_major(&shape).format_array_annotation("mem3", &shape),
        "[n][m]@mem3 -> 0+{(n:m),(m:1)}"
    );
}

#[test]
fn an_offset_of_several_monomials_is_parenthesised() {
    let lmad = Lmad::row_major_at(var("n") + constant(1), &[var("m")]);
    assert_eq!(lmad.to_string(), "(n + 1)+{(m:1)}");
}

#[test]
fn index_adds_index_times_stride() {
    // [n][m] row-major: element (i, j) is at i*m + j.
    let address = n_by_m().index(&[var("i"), var("j")]).unwrap();
    assert_eq!(address, var("i") * var("m") + var("j"));
    assert_eq!(
        concrete(2, &[(3, 5), (4, 1)]).index(&[constant(2), constant(3)]),
        Ok(constant(15))
    );
    assert_eq!(
        n_by_m().index(&[var("i")]),
        Err(LmadError::RankMismatch { rank: 2, given: 1 })
    );
}

#[test]
fn fix_indexes_one_dimension() {
    // The thesis: fix(10+{(4:4),(4:1)}, 1) = 14+{(4:1)}, fixing the first dimension at index 1.
    let lmad = concrete(10, &[(4, 4), (4, 1)]);
    assert_eq!(lmad.fix(0, &constant(1)).unwrap().to_string(), "14+{(4:1)}");
    // Fixing the column j of [n][m] gives the column j+{(n:m)}.
    assert_eq!(n_by_m().fix(1, &var("j")).unwrap().to_string(), "j+{(n:m)}");
    // Row i of [n][m]: i*m+{(m:1)}.
    assert_eq!(n_by_m().fix(0, &var("i")).unwrap().to_string(), "i*m+{(m:1)}");
    assert_eq!(
        n_by_m().fix(2, &var("i")),
        Err(LmadError::NoSuchDimension { dimension: 2, rank: 2 })
    );
}

#[test]
fn slice_moves_the_offset_and_multiplies_strides() {
    // xs[0:i, 0:j] of [n][m]: same strides, new sizes.
    let ranges = [DimSlice::new(0, var("i"), 1), DimSlice::new(0, var("j"), 1)];
    assert_eq!(n_by_m().slice(&ranges).unwrap().to_string(), "0+{(i:m),(j:1)}");
    // Every second element of 0+{(10:1)} from 3: 3+{(3:2)} = 3, 5, 7.
    let strided = concrete(0, &[(10, 1)]).slice(&[DimSlice::new(3, 3, 2)]).unwrap();
    assert_eq!(strided.to_string(), "3+{(3:2)}");
    // Rows 1, 2 of [n][m], all columns: m+{(2:m),(m:1)}.
    let rows = n_by_m().slice_dimension(0, DimSlice::new(1, 2, 1)).unwrap();
    assert_eq!(rows.to_string(), "m+{(2:m),(m:1)}");
}

#[test]
fn constant_slices_are_bounds_checked() {
    let vector = concrete(0, &[(10, 1)]);
    assert_eq!(
        vector.slice(&[DimSlice::new(8, 3, 1)]),
        Err(LmadError::SliceOutOfBounds {
            dimension: 0,
            start: 8,
            size: 3,
            step: 1,
            dimension_size: 10
        })
    );
    // An empty range may start anywhere; a backwards range from 9 of 10 elements fits.
    assert!(vector.slice(&[DimSlice::new(10, 0, 1)]).is_ok());
    assert_eq!(
        vector.slice(&[DimSlice::new(9, 10, -1)]).unwrap().to_string(),
        "9+{(10:-1)}"
    );
}

#[test]
fn transpose_and_permute_only_reorder_dimensions() {
    // The thesis: 0+{(20:10),(10:1)} transposed is 0+{(10:1),(20:10)}.
    assert_eq!(
        concrete(0, &[(20, 10), (10, 1)]).transpose().to_string(),
        "0+{(10:1),(20:10)}"
    );
    let three = Lmad::row_major(&[var("a"), var("b"), var("c")]);
    assert_eq!(three.transpose().to_string(), "0+{(c:1),(b:c),(a:b*c)}");
    assert_eq!(
        three.permute(&[1, 2, 0]).unwrap().to_string(),
        "0+{(b:c),(c:1),(a:b*c)}"
    );
    assert_eq!(
        three.permute(&[0, 0, 1]),
        Err(LmadError::NotAPermutation {
            permutation: vec![0, 0, 1],
            rank: 3
        })
    );
    assert!(three.permute(&[0, 1]).is_err());
}

#[test]
fn reverse_moves_the_offset_to_the_last_element() {
    // Reversing 0+{(10:1)}: 9+{(10:-1)}. Reversing the rows of [n][m]: (n-1)*m+{(n:-m),(m:1)}.
    assert_eq!(concrete(0, &[(10, 1)]).reverse(0).unwrap().to_string(), "9+{(10:-1)}");
    assert_eq!(n_by_m().reverse(0).unwrap().to_string(), "(m*n - m)+{(n:-m),(m:1)}");
}

#[test]
fn take_and_drop_slice_the_first_axis() {
    assert_eq!(n_by_m().take(&var("k")).unwrap().to_string(), "0+{(k:m),(m:1)}");
    assert_eq!(n_by_m().drop(&var("k")).unwrap().to_string(), "k*m+{(n - k:m),(m:1)}");
    // The last k rows start at row n - k; dropping the last k leaves n - k rows from row 0.
    assert_eq!(
        n_by_m().take_last(&var("k")).unwrap().to_string(),
        "(m*n - k*m)+{(k:m),(m:1)}"
    );
    assert_eq!(
        n_by_m().drop_last(&var("k")).unwrap().to_string(),
        "0+{(n - k:m),(m:1)}"
    );
    assert_eq!(Lmad::row_major(&[]).take(&constant(1)), Err(LmadError::ScalarHasNoAxis));
    assert_eq!(
        Lmad::row_major(&[]).drop_last(&constant(1)),
        Err(LmadError::ScalarHasNoAxis)
    );
    assert!(concrete(0, &[(4, 1)]).take(&constant(5)).is_err());
}

#[test]
fn contiguity_is_decided_on_terms() {
    assert!(n_by_m().is_row_major_contiguous());
    assert!(!n_by_m().transpose().is_row_major_contiguous());
    // A row of a row-major matrix is contiguous; a column is not; a block of rows is.
    assert!(n_by_m().fix(0, &var("i")).unwrap().is_row_major_contiguous());
    assert!(!n_by_m().fix(1, &var("j")).unwrap().is_row_major_contiguous());
    assert!(n_by_m().drop(&var("k")).unwrap().is_row_major_contiguous());
    // Columns 0:j of every row are not contiguous (stride m, not j).
    let left = n_by_m().slice_dimension(1, DimSlice::new(0, var("j"), 1)).unwrap();
    assert!(!left.is_row_major_contiguous());
    // Size-1 dimensions may have any stride; a size-0 dimension makes the array empty.
    assert!(concrete(3, &[(1, 17), (4, 1)]).is_row_major_contiguous());
    assert!(concrete(3, &[(0, 17), (4, 5)]).is_row_major_contiguous());
}

#[test]
fn reshape_of_contiguous_data_needs_no_copy() {
    // The thesis: 10+{(20:10),(10:1)} reshaped to [50][4] is 10+{(50:4),(4:1)}.
    let lmad = concrete(10, &[(20, 10), (10, 1)]);
    assert_eq!(
        lmad.reshape(&[constant(50), constant(4)]).unwrap().to_string(),
        "10+{(50:4),(4:1)}"
    );
    // Ravel of [n][m] is [n*m]; and back.
    let flat = n_by_m().reshape(&[var("n") * var("m")]).unwrap();
    assert_eq!(flat.to_string(), "0+{(m*n:1)}");
    assert_eq!(flat.reshape(&[var("n"), var("m")]).unwrap(), n_by_m());
}

#[test]
fn reshape_of_a_transpose_or_of_a_different_count_needs_a_copy() {
    // ,⍉x: flattening a transpose cannot be one LMAD.
    assert_eq!(n_by_m().transpose().reshape(&[var("n") * var("m")]), None);
    // The element count must be provably the same.
    assert_eq!(n_by_m().reshape(&[var("n")]), None);
    assert_eq!(concrete(0, &[(6, 1)]).reshape(&[constant(4)]), None);
}

#[test]
fn expand_undoes_fix_over_a_loop() {
    // Row i of [n][m] for i in 0..n is the whole matrix again.
    let row = n_by_m().fix(0, &var("i")).unwrap();
    assert_eq!(row.expand("i", &Term::zero(), &var("n")).unwrap(), n_by_m());
    // Column j for j in 1..1+k: 1+{(k:1),(n:m)}.
    let column = n_by_m().fix(1, &var("j")).unwrap();
    assert_eq!(
        column.expand("j", &constant(1), &var("k")).unwrap().to_string(),
        "1+{(k:1),(n:m)}"
    );
    // The diagonal element i*m + i over i in 0..n: 0+{(n:m + 1)}.
    let diagonal = Lmad::new(var("i") * var("m") + var("i"), vec![]);
    assert_eq!(
        diagonal.expand("i", &Term::zero(), &var("n")).unwrap().to_string(),
        "0+{(n:m + 1)}"
    );
    // Not one LMAD: the variable in a size (a triangle), or an offset quadratic in it.
    let triangle_row = Lmad::new(var("i") * var("m"), vec![Dim::new(var("i"), 1)]);
    assert_eq!(triangle_row.expand("i", &Term::zero(), &var("n")), None);
    let quadratic = Lmad::new(var("i") * var("i"), vec![]);
    assert_eq!(quadratic.expand("i", &Term::zero(), &var("n")), None);
}

#[test]
fn normalize_makes_strides_positive_and_decreasing() {
    // The thesis' example with the corrected offset: 16+{(4:-1),(8:4)} covers 13..16 + 4*{0..7};
    // normalised it is 13+{(8:4),(4:1)}.
    let lmad = concrete(16, &[(4, -1), (8, 4)]);
    assert_eq!(lmad.normalize().unwrap().to_string(), "13+{(8:4),(4:1)}");
    // Reversed rows of [n][m] normalise back to the row-major layout.
    assert_eq!(n_by_m().reverse(0).unwrap().normalize().unwrap(), n_by_m());
    // The transpose of [n][m] sorts back: the strides are 1 and m, and m >= 1 unless the array is empty.
    assert_eq!(n_by_m().transpose().normalize().unwrap(), n_by_m());
    // Strides k and 1 of a (m:k) dimension cannot be ordered: k is not a size, so it may be 0.
    let unordered = Lmad::new(0, vec![Dim::new(var("m"), 1), Dim::new(var("n"), var("k"))]);
    assert_eq!(unordered.normalize(), None);
    let bounds = VariableBounds::all_non_negative().with_at_least("k", 2);
    assert_eq!(
        unordered.normalize_with_bounds(&bounds).unwrap().to_string(),
        "0+{(n:k),(m:1)}"
    );
    // A stride of unknown sign cannot be normalised.
    assert_eq!(
        Lmad::new(0, vec![Dim::new(4, var("m") - constant(1))]).normalize(),
        None
    );
}
