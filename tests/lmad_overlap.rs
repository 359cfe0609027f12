//! The non-overlap test on hand-worked cases (funmem-and-tuning.md §7.9 and the thesis' §3.6). Every "disjoint" case
//! lists both address sets in a comment, and every "may overlap" case names an address the two share (or the fact
//! that cannot be proved).

use aplc::mem::{disjoint, disjoint_with_bounds, Dim, DimSlice, Lmad, Term, VariableBounds};

fn var(name: &str) -> Term {
    Term::variable(name)
}

fn constant(value: i64) -> Term {
    Term::constant(value)
}

fn concrete(offset: i64, dims: &[(i64, i64)]) -> Lmad {
    Lmad::new(
        offset,
        dims.iter().map(|&(size, stride)| Dim::new(size, stride)).collect(),
    )
}

fn n_by_m() -> Lmad {
    Lmad::row_major(&[var("n"), var("m")])
}

/// Asserts the answer in both argument orders: the test is symmetric.
fn assert_disjoint(first: &Lmad, second: &Lmad, expected: bool) {
    assert_eq!(disjoint(first, second), expected, "{first} vs {second}");
    assert_eq!(disjoint(second, first), expected, "{second} vs {first}");
}

#[test]
fn one_dimensional_gcd_test() {
    // Evens {0,2,4,6,8} and odds {1,3,5,7,9}: gcd 2 does not divide the offset difference 1.
    assert_disjoint(&concrete(0, &[(5, 2)]), &concrete(1, &[(5, 2)]), true);
    // {0,3,6,9} and {2,8,14,20}: gcd(3,6) = 3 does not divide 2.
    assert_disjoint(&concrete(0, &[(4, 3)]), &concrete(2, &[(4, 6)]), true);
    // {0,3,6,9} and {6,12}: gcd 3 divides 6 and they share 6.
    assert_disjoint(&concrete(0, &[(4, 3)]), &concrete(6, &[(2, 6)]), false);
}

#[test]
fn one_dimensional_interval_test() {
    // {0..4} and {5,6,7}.
    assert_disjoint(&concrete(0, &[(5, 1)]), &concrete(5, &[(3, 1)]), true);
    // {0..4} and {4,5,6} share 4.
    assert_disjoint(&concrete(0, &[(5, 1)]), &concrete(4, &[(3, 1)]), false);
    // A reversed vector {9,8,...,5} and {0..4}: the interval test uses the normalised extent.
    assert_disjoint(&concrete(9, &[(5, -1)]), &concrete(0, &[(5, 1)]), true);
    // The thesis' extent slip: its predicate `τ2 > τ1 + σ1` would call {0, 10} and {10} disjoint (10 > 0 + 2);
    // the true extent (σ-1)·δ = 10 does not.
    assert_disjoint(&concrete(0, &[(2, 10)]), &concrete(10, &[(1, 1)]), false);
    // {0, 10} and {11, 12, 13} lie apart.
    assert_disjoint(&concrete(0, &[(2, 10)]), &concrete(11, &[(3, 1)]), true);
}

#[test]
fn empty_lmads_are_disjoint_from_everything() {
    assert_disjoint(&concrete(0, &[(0, 1)]), &concrete(0, &[(5, 1)]), true);
    assert_disjoint(&Lmad::row_major(&[constant(0), var("m")]), &n_by_m(), true);
}

#[test]
fn a_point_meets_only_itself() {
    assert_disjoint(&concrete(3, &[]), &concrete(3, &[]), false);
    assert_disjoint(&concrete(3, &[]), &concrete(4, &[]), true);
    // {3} and {0,...,4} (stride 0 dimensions add nothing).
    assert_disjoint(&concrete(3, &[(4, 0)]), &concrete(0, &[(5, 1)]), false);
}

#[test]
fn strided_intervals_with_one_disjoint_pair() {
    // The thesis: [0,2]·10 + [0,4]·1 = {0-4, 10-14, 20-24} and [0,2]·10 + [5,9]·1 = {5-9, 15-19, 25-29}.
    let left = concrete(0, &[(3, 10), (5, 1)]);
    let right = concrete(5, &[(3, 10), (5, 1)]);
    assert_disjoint(&left, &right, true);
    // Shifted by 4 they share 4, 14, 24.
    assert_disjoint(&left, &concrete(4, &[(3, 10), (5, 1)]), false);
}

#[test]
fn self_overlapping_dimensions_are_split() {
    // {(2:5),(3:3)} = {0,3,6} ∪ {5,8,11} = {0,3,5,6,8,11}: the stride 5 is not above the spread 2·3 = 6 of the
    // later dimension, so it self-overlaps; {1,2} fits in its gaps.
    let gappy = concrete(0, &[(2, 5), (3, 3)]);
    assert_disjoint(&gappy, &concrete(1, &[(2, 1)]), true);
    // {4, 7, 10} fits in its gaps too (stride 3 from 4).
    assert_disjoint(&gappy, &concrete(4, &[(3, 3)]), true);
    // {2, 5}: shares 5.
    assert_disjoint(&gappy, &concrete(2, &[(2, 3)]), false);
}

#[test]
fn needleman_wunsch_blocks_concrete() {
    // The thesis' NW example with q = 2, b = 2, n = q·b + 1 = 5, i = 1:
    // writes 8+{(2:8),(2:5),(2:1)} = {8,9,13,14,16,17,21,22}; reads 2+{(2:8),(3:5)} = {2,7,12,10,15,20}.
    let writes = concrete(8, &[(2, 8), (2, 5), (2, 1)]);
    let reads = concrete(2, &[(2, 8), (3, 5)]);
    assert_disjoint(&writes, &reads, true);
    // Reading one more element, 2+{(2:8),(3:5),(2:1)}, touches 8 (= 2 + 1·8... no: 2+0+5+1 = 8).
    assert_disjoint(&writes, &concrete(2, &[(2, 8), (3, 5), (2, 1)]), false);
}

#[test]
fn needleman_wunsch_blocks_symbolic() {
    // L_W = ib + n + 1 + {(i+1 : nb-b), (b:n), (b:1)}, L_R = ib + {(i+1 : nb-b), (b+1 : n)} with n = q·b + 1,
    // q >= 2, b >= 2, i >= 1 (the thesis' §3.6.3).
    let (i, b, q) = (var("i"), var("b"), var("q"));
    let n = &q * &b + constant(1);
    let block_stride = &n * &b - &b;
    let writes = Lmad::new(
        &i * &b + &n + constant(1),
        vec![
            Dim::new(&i + constant(1), block_stride.clone()),
            Dim::new(b.clone(), n.clone()),
            Dim::new(b.clone(), 1),
        ],
    );
    let reads = Lmad::new(
        &i * &b,
        vec![
            Dim::new(&i + constant(1), block_stride),
            Dim::new(&b + constant(1), n.clone()),
        ],
    );
    let bounds = VariableBounds::all_non_negative()
        .with_at_least("q", 2)
        .with_at_least("b", 2)
        .with_at_least("i", 1);
    assert!(disjoint_with_bounds(&writes, &reads, &bounds));
    assert!(disjoint_with_bounds(&reads, &writes, &bounds));
}

#[test]
fn rows_and_row_blocks_of_a_matrix() {
    // take k and drop k of [n][m] rows.
    assert_disjoint(
        &n_by_m().take(&var("k")).unwrap(),
        &n_by_m().drop(&var("k")).unwrap(),
        true,
    );
    // Row i and row i+1.
    let row = |index: Term| n_by_m().fix(0, &index).unwrap();
    assert_disjoint(&row(var("i")), &row(var("i") + constant(1)), true);
    // Row i and row j: unknown order, may be the same row.
    assert_disjoint(&row(var("i")), &row(var("j")), false);
    // The last row of a reversed matrix is row 0.
    let reversed = n_by_m().reverse(0).unwrap();
    let last_reversed_row = reversed.fix(0, &(var("n") - constant(1))).unwrap();
    assert_disjoint(&last_reversed_row, &row(constant(0)), false);
    // So it is 0+{(m:1)}, disjoint from row 1, m+{(m:1)}.
    assert_eq!(last_reversed_row, row(constant(0)));
    assert_disjoint(&last_reversed_row, &row(constant(1)), true);
}

#[test]
fn neighbouring_columns_need_to_know_the_row_length() {
    // Columns j and j+1 of [n][m] are j+{(n:m)} and j+1+{(n:m)}: disjoint when m >= 2, which the sizes alone do
    // not say (with m = 1 the column j+1 would not exist, but the test cannot know the index is in range).
    let column = |index: Term| n_by_m().fix(1, &index).unwrap();
    let (left, right) = (column(var("j")), column(var("j") + constant(1)));
    assert!(!disjoint(&left, &right));
    let bounds = VariableBounds::all_non_negative().with_at_least("m", 2);
    assert!(disjoint_with_bounds(&left, &right, &bounds));
    // Concrete columns 1 and 2 of a 4x5 matrix: {1,6,11,16} and {2,7,12,17}.
    let matrix = concrete(0, &[(4, 5), (5, 1)]);
    assert_disjoint(
        &matrix.fix(1, &constant(1)).unwrap(),
        &matrix.fix(1, &constant(2)).unwrap(),
        true,
    );
}

#[test]
fn transposed_and_sliced_blocks() {
    // The upper-left and lower-right 2x2 blocks of a 4x4 matrix: {0,1,4,5} and {10,11,14,15}.
    let matrix = concrete(0, &[(4, 4), (4, 1)]);
    let block = |start: i64| {
        let range = DimSlice::new(start, 2, 1);
        matrix.slice(&[range.clone(), range]).unwrap()
    };
    assert_disjoint(&block(0), &block(2), true);
    // Upper-right {2,3,6,7} against the transpose of the lower-left {8,9,12,13}: still disjoint.
    let upper_right = matrix.slice(&[DimSlice::new(0, 2, 1), DimSlice::new(2, 2, 1)]).unwrap();
    let lower_left = matrix.slice(&[DimSlice::new(2, 2, 1), DimSlice::new(0, 2, 1)]).unwrap();
    assert_disjoint(&upper_right, &lower_left.transpose(), true);
    // The diagonal 0+{(4:5)} = {0,5,10,15} meets the block at 0.
    assert_disjoint(&concrete(0, &[(4, 5)]), &block(0), false);
    // The anti-diagonal 3+{(4:3)} = {3,6,9,12} misses both diagonal blocks.
    assert_disjoint(&concrete(3, &[(4, 3)]), &block(0), true);
    assert_disjoint(&concrete(3, &[(4, 3)]), &block(2), true);
}

#[test]
fn unknown_signs_mean_may_overlap() {
    // A stride m - 1 may be negative (m = 0) or zero.
    let unknown = Lmad::new(0, vec![Dim::new(4, var("m") - constant(1))]);
    assert!(!disjoint(&unknown, &concrete(100, &[(1, 1)])));
    // An offset difference of unknown sign: x+{(4:1)} and y+{(4:1)}.
    assert!(!disjoint(
        &Lmad::new(var("x"), vec![Dim::new(4, 1)]),
        &Lmad::new(var("y"), vec![Dim::new(4, 1)])
    ));
}
