//! Proving that two LMADs, read as sets of addresses, do not overlap (the thesis' §3.6, with its slips fixed).
//!
//! The test is conservative: `true` means the address sets are provably disjoint, `false` means they may overlap,
//! which is also the answer whenever a sign or an order of symbolic terms cannot be proved. It tries, cheapest first:
//!
//! 1. emptiness: an LMAD with a size provably 0 has no addresses. From here on both are assumed non-empty, which adds
//!    `size >= 1` facts to the variable bounds (sound: if the assumption fails, disjointness holds anyway);
//! 2. the gcd test: with constant strides and offsets, the addresses of both lie in `τ + g·ℤ` for the gcd `g` of all
//!    strides, so offsets that differ by a non-multiple of `g` never meet;
//! 3. the interval test: after flipping negative strides, each set lies in `[τ, τ + Σ (σ-1)·δ]`;
//! 4. sums of strided intervals (SOSIs): both LMADs become `τ + Σ [l_k, u_k]·δ_k` over one shared list of strides
//!    (decreasing, ending with 1); the difference of the offsets is distributed over the intervals of the first;
//!    then, if for every position q `δ_q > Σ_{k>q} (u'_k - l_k)·δ_k` in both directions (no self-overlap), two points
//!    can only be equal when their interval indices are equal, so one pair of disjoint intervals proves the sets
//!    disjoint. When that condition fails, a later interval is split into `[l, u-1]` and the single point `u`, and
//!    both halves are tried (a bounded number of times).

use crate::mem::lmad::Lmad;
use crate::mem::term::{Term, VariableBounds};

/// The most SOSI pairs one call may examine while splitting self-overlapping dimensions.
const SPLITTING_BUDGET: usize = 64;

/// The most times a symbolic stride is subtracted from an offset while distributing it.
const SYMBOLIC_DISTRIBUTION_LIMIT: usize = 8;

/// True when the address sets of `first` and `second` are provably disjoint, every variable being non-negative.
pub fn disjoint(first: &Lmad, second: &Lmad) -> bool {
    disjoint_with_bounds(first, second, &VariableBounds::all_non_negative())
}

/// True when the address sets of `first` and `second` are provably disjoint under the given variable bounds.
pub fn disjoint_with_bounds(first: &Lmad, second: &Lmad, bounds: &VariableBounds) -> bool {
    if is_provably_empty(first, bounds) || is_provably_empty(second, bounds) {
        return true;
    }
    let bounds = first.bounds_assuming_non_empty(&second.bounds_assuming_non_empty(bounds));
    let (first, second) = (without_single_point_dims(first), without_single_point_dims(second));
    let (Some(first), Some(second)) = (
        first.with_non_negative_strides(&bounds),
        second.with_non_negative_strides(&bounds),
    ) else {
        return false;
    };
    gcd_test_proves_disjoint(&first, &second)
        || interval_test_proves_disjoint(&first, &second, &bounds)
        || strided_interval_test_proves_disjoint(&first, &second, &bounds)
}

fn is_provably_empty(lmad: &Lmad, bounds: &VariableBounds) -> bool {
    lmad.dims.iter().any(|dim| bounds.is_provably_non_positive(&dim.size))
}

/// Drops the dimensions that add only 0 to every address of a non-empty LMAD: size 1 or stride 0. Their strides
/// would otherwise weaken the gcd test and lengthen the stride list.
fn without_single_point_dims(lmad: &Lmad) -> Lmad {
    let dims = lmad
        .dims
        .iter()
        .filter(|dim| dim.size != Term::one() && !dim.stride.is_zero())
        .cloned()
        .collect();
    Lmad::new(lmad.offset.clone(), dims)
}

fn greatest_common_divisor(left: u64, right: u64) -> u64 {
    let (mut left, mut right) = (left, right);
    while right != 0 {
        (left, right) = (right, left % right);
    }
    left
}

/// Every address of either LMAD is its offset plus a multiple of the gcd of all strides.
fn gcd_test_proves_disjoint(first: &Lmad, second: &Lmad) -> bool {
    let Some(difference) = (&first.offset - &second.offset).as_constant() else {
        return false;
    };
    let mut divisor = 0;
    for dim in first.dims.iter().chain(&second.dims) {
        let Some(stride) = dim.stride.as_constant() else {
            return false;
        };
        divisor = greatest_common_divisor(divisor, stride.unsigned_abs());
    }
    if divisor == 0 {
        return difference != 0;
    }
    difference.unsigned_abs() % divisor != 0
}

/// The last address of an LMAD whose strides are non-negative.
fn highest_address(lmad: &Lmad) -> Term {
    lmad.dims.iter().fold(lmad.offset.clone(), |sum, dim| {
        sum + (&dim.size - Term::one()) * &dim.stride
    })
}

/// One set lies wholly below the other.
fn interval_test_proves_disjoint(first: &Lmad, second: &Lmad, bounds: &VariableBounds) -> bool {
    bounds.is_provably_less(&highest_address(first), &second.offset)
        || bounds.is_provably_less(&highest_address(second), &first.offset)
}

/// A sum of strided intervals `offset + Σ [lower_k, upper_k]·stride_k` over a stride list shared with another SOSI.
#[derive(Clone, Debug)]
struct StridedIntervals {
    offset: Term,
    lower: Vec<Term>,
    upper: Vec<Term>,
}

fn strided_interval_test_proves_disjoint(first: &Lmad, second: &Lmad, bounds: &VariableBounds) -> bool {
    let strides = shared_strides(first, second, bounds);
    let first = to_strided_intervals(first, &strides);
    let second = to_strided_intervals(second, &strides);
    let mut budget = SPLITTING_BUDGET;
    prove_strided_intervals_disjoint(first, second, &strides, bounds, &mut budget)
}

/// The distinct non-zero strides of both LMADs and the unit stride, largest first (ordered by their value at a
/// large sample point; the order is a heuristic, since the no-self-overlap check proves what it needs).
fn shared_strides(first: &Lmad, second: &Lmad, bounds: &VariableBounds) -> Vec<Term> {
    let mut strides: Vec<Term> = vec![Term::one()];
    for dim in first.dims.iter().chain(&second.dims) {
        if !dim.stride.is_zero() && !strides.contains(&dim.stride) {
            strides.push(dim.stride.clone());
        }
    }
    strides.sort_by_cached_key(|stride| {
        (
            std::cmp::Reverse(value_at_large_sample(stride, bounds)),
            stride.to_string(),
        )
    });
    strides
}

/// The value of a term with every variable 1024 above its lower bound, saturating instead of overflowing.
fn value_at_large_sample(term: &Term, bounds: &VariableBounds) -> i128 {
    term.monomials().fold(0i128, |sum, (monomial, coefficient)| {
        let product = monomial.iter().fold(i128::from(coefficient), |product, name| {
            product.saturating_mul(i128::from(bounds.lower_bound(name)) + 1024)
        });
        sum.saturating_add(product)
    })
}

/// Each dimension becomes `[0, σ-1]·δ` on its stride's position; dimensions of equal stride add up, and zero strides
/// contribute nothing.
fn to_strided_intervals(lmad: &Lmad, strides: &[Term]) -> StridedIntervals {
    let mut upper = vec![Term::zero(); strides.len()];
    for dim in &lmad.dims {
        if let Some(position) = strides.iter().position(|stride| *stride == dim.stride) {
            upper[position] = &upper[position] + &dim.size - Term::one();
        }
    }
    StridedIntervals {
        offset: lmad.offset.clone(),
        lower: vec![Term::zero(); strides.len()],
        upper,
    }
}

fn prove_strided_intervals_disjoint(
    first: StridedIntervals,
    second: StridedIntervals,
    strides: &[Term],
    bounds: &VariableBounds,
    budget: &mut usize,
) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    if has_provably_empty_interval(&first, bounds) || has_provably_empty_interval(&second, bounds) {
        return true;
    }
    let first = move_lower_bounds_into_offset(first, strides);
    let second = move_lower_bounds_into_offset(second, strides);
    let Some(first) = move_offset_into_intervals(first, &second.offset, strides, bounds) else {
        return false;
    };
    match first_self_overlapping_position(&first, &second, strides, bounds) {
        None => has_disjoint_interval_pair(&first, &second, bounds),
        Some((position, too_wide)) => split_and_retry(&first, &second, position, too_wide, strides, bounds, budget),
    }
}

fn has_provably_empty_interval(intervals: &StridedIntervals, bounds: &VariableBounds) -> bool {
    intervals
        .lower
        .iter()
        .zip(&intervals.upper)
        .any(|(lower, upper)| bounds.is_provably_less(upper, lower))
}

/// Rewrites every interval `[l, u]·δ` as `l·δ + [0, u - l]·δ`, moving `l·δ` into the offset, so that the offset
/// difference is always distributed from the SOSI's own lowest point (a point split off a self-overlapping interval
/// is then placed by its address, not by the shifted indices it had).
fn move_lower_bounds_into_offset(mut intervals: StridedIntervals, strides: &[Term]) -> StridedIntervals {
    for (position, stride) in strides.iter().enumerate() {
        let lower = std::mem::take(&mut intervals.lower[position]);
        intervals.offset = &intervals.offset + &(&lower * stride);
        intervals.upper[position] = &intervals.upper[position] - &lower;
    }
    intervals
}

/// Rewrites `first` so that its offset equals `target_offset`, without changing its image: the difference of the
/// offsets is written as `Σ shift_k·δ_k` and interval k moves by `shift_k`.
fn move_offset_into_intervals(
    mut first: StridedIntervals,
    target_offset: &Term,
    strides: &[Term],
    bounds: &VariableBounds,
) -> Option<StridedIntervals> {
    let shifts = distribute_over_strides(&first.offset - target_offset, strides, bounds)?;
    for (position, shift) in shifts.into_iter().enumerate() {
        first.lower[position] = &first.lower[position] + &shift;
        first.upper[position] = &first.upper[position] + &shift;
    }
    first.offset = target_offset.clone();
    Some(first)
}

/// Writes `difference` as `Σ shift_k·stride_k` exactly, greedily from the largest stride; the unit stride (always in
/// the list) takes whatever remains. `None` if something remained all the same, which would make the rewrite inexact.
fn distribute_over_strides(difference: Term, strides: &[Term], bounds: &VariableBounds) -> Option<Vec<Term>> {
    let mut remaining = difference;
    let mut shifts = Vec::with_capacity(strides.len());
    for stride in strides {
        let shift = largest_multiple_within(&remaining, stride, bounds);
        remaining = &remaining - &(&shift * stride);
        shifts.push(shift);
    }
    remaining.is_zero().then_some(shifts)
}

/// A count `c` with `c·stride` close to `remaining` and of the same sign: exact for the unit stride, floor division
/// for constants, and repeated provable subtraction for a symbolic stride.
fn largest_multiple_within(remaining: &Term, stride: &Term, bounds: &VariableBounds) -> Term {
    if *stride == Term::one() {
        return remaining.clone();
    }
    if let Some(stride_value) = stride.as_constant().filter(|value| *value > 0) {
        if let Some(value) = remaining.as_constant() {
            // Rounding towards zero keeps `c·stride` on the same side of zero as `remaining`.
            return Term::constant(value / stride_value);
        }
        if let Some(quotient) = remaining.divide_exactly(stride_value) {
            return quotient;
        }
    }
    let mut count = 0;
    let mut rest = remaining.clone();
    for _ in 0..SYMBOLIC_DISTRIBUTION_LIMIT {
        if bounds.is_provably_non_negative(&(&rest - stride)) {
            count += 1;
            rest = &rest - stride;
        } else if bounds.is_provably_non_positive(&(&rest + stride)) {
            count -= 1;
            rest = &rest + stride;
        } else {
            break;
        }
    }
    Term::constant(count)
}

/// Which SOSI's later intervals reach too far at a position: the one whose upper bounds appear in the failed
/// inequality, hence the one to split first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TooWide {
    First,
    Second,
}

/// The first position q where `δ_q > Σ_{k>q} (u_k - l'_k)·δ_k` cannot be proved, for either order of the two SOSIs,
/// and which SOSI supplied the upper bounds `u`. With no such position, equal addresses imply equal interval indices
/// (the thesis' Lemma 3.6.1, which needs only non-negative strides).
fn first_self_overlapping_position(
    first: &StridedIntervals,
    second: &StridedIntervals,
    strides: &[Term],
    bounds: &VariableBounds,
) -> Option<(usize, TooWide)> {
    (0..strides.len()).find_map(|position| {
        if !later_spread_is_below(first, second, position, strides, bounds) {
            Some((position, TooWide::First))
        } else if !later_spread_is_below(second, first, position, strides, bounds) {
            Some((position, TooWide::Second))
        } else {
            None
        }
    })
}

fn later_spread_is_below(
    high: &StridedIntervals,
    low: &StridedIntervals,
    position: usize,
    strides: &[Term],
    bounds: &VariableBounds,
) -> bool {
    let spread = (position + 1..strides.len()).fold(Term::zero(), |sum, later| {
        sum + (&high.upper[later] - &low.lower[later]) * &strides[later]
    });
    bounds.is_provably_less(&spread, &strides[position])
}

fn has_disjoint_interval_pair(first: &StridedIntervals, second: &StridedIntervals, bounds: &VariableBounds) -> bool {
    (0..first.lower.len()).any(|position| {
        bounds.is_provably_less(&first.upper[position], &second.lower[position])
            || bounds.is_provably_less(&second.upper[position], &first.lower[position])
    })
}

/// Splits a later interval `[l, u]` of either SOSI into `[l, u-1]` and the point `u` (moved into the offset), and
/// proves both halves disjoint from the other SOSI. Tries each later position, the too wide side first, until one
/// works or the budget is spent.
fn split_and_retry(
    first: &StridedIntervals,
    second: &StridedIntervals,
    position: usize,
    too_wide: TooWide,
    strides: &[Term],
    bounds: &VariableBounds,
    budget: &mut usize,
) -> bool {
    let sides = match too_wide {
        TooWide::First => [(first, second), (second, first)],
        TooWide::Second => [(second, first), (first, second)],
    };
    for later in position + 1..strides.len() {
        for (split, other) in sides {
            if split.lower[later] == split.upper[later] {
                continue;
            }
            let (without_top, top) = split_off_top(split, later, strides);
            if prove_strided_intervals_disjoint(without_top, other.clone(), strides, bounds, budget)
                && prove_strided_intervals_disjoint(top, other.clone(), strides, bounds, budget)
            {
                return true;
            }
            if *budget == 0 {
                return false;
            }
        }
    }
    false
}

/// `[l, u]·δ` = `[l, u-1]·δ` ∪ `u·δ + [0, 0]·δ`. Even for an empty `[l, u]` the two parts cover it.
fn split_off_top(
    intervals: &StridedIntervals,
    position: usize,
    strides: &[Term],
) -> (StridedIntervals, StridedIntervals) {
    let mut without_top = intervals.clone();
    without_top.upper[position] = &intervals.upper[position] - Term::one();
    let mut top = intervals.clone();
    top.offset = &intervals.offset + &(&intervals.upper[position] * &strides[position]);
    top.lower[position] = Term::zero();
    top.upper[position] = Term::zero();
    (without_top, top)
}
