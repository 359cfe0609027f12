//! Symbolic terms: normal form, arithmetic, printing, evaluation and sign decisions, with hand-worked expectations.

use aplc::mem::{Term, TermEvaluationError, VariableBounds};
use std::collections::HashMap;

fn var(name: &str) -> Term {
    Term::variable(name)
}

fn constant(value: i64) -> Term {
    Term::constant(value)
}

fn environment(pairs: &[(&str, i64)]) -> HashMap<String, i64> {
    pairs.iter().map(|(name, value)| (name.to_string(), *value)).collect()
}

#[test]
fn equal_polynomials_are_equal_terms() {
    // (n - 1)*m + m = n*m
    let left = (var("n") - constant(1)) * var("m") + var("m");
    assert_eq!(left, var("n") * var("m"));
    assert_eq!(var("m") * var("n"), var("n") * var("m"));
    // (n + 1)^2 - n*n - 2*n = 1
    let square = (var("n") + constant(1)) * (var("n") + constant(1));
    assert_eq!(square - var("n") * var("n") - var("n").scale(2), constant(1));
    assert_eq!(var("n") - var("n"), Term::zero());
    assert!((var("n") - var("n")).is_zero());
}

#[test]
fn constants_fold() {
    assert_eq!((constant(3) * constant(4) + constant(2)).as_constant(), Some(14));
    assert_eq!(Term::zero().as_constant(), Some(0));
    assert_eq!((var("n") + constant(2)).as_constant(), None);
    assert_eq!((var("n") * constant(0)).as_constant(), Some(0));
}

#[test]
fn printing_puts_higher_degrees_first_and_the_constant_last() {
    assert_eq!((var("n").scale(2) + constant(1)).to_string(), "2*n + 1");
    assert_eq!((var("n") * var("m")).to_string(), "m*n");
    assert_eq!(((var("n") - constant(1)) * var("m")).to_string(), "m*n - m");
    assert_eq!((-var("n")).to_string(), "-n");
    assert_eq!((constant(1) - var("n").scale(3)).to_string(), "1 - 3*n");
    assert_eq!((var("n") - var("k")).to_string(), "n - k");
    assert_eq!((-var("n") - constant(1)).to_string(), "-n - 1");
    assert_eq!(
        (var("n") * var("m") - var("m") - constant(1)).to_string(),
        "m*n - m - 1"
    );
    assert_eq!(Term::zero().to_string(), "0");
    assert_eq!(constant(-7).to_string(), "-7");
    assert_eq!((var("n") * var("n")).to_string(), "n*n");
}

#[test]
fn evaluation_uses_the_environment() {
    let term = (var("n") - constant(1)) * var("m") + constant(5);
    assert_eq!(term.evaluate(&environment(&[("n", 4), ("m", 3)])), Ok(14));
    assert_eq!(
        term.evaluate(&environment(&[("n", 4)])),
        Err(TermEvaluationError::UnboundVariable("m".to_string()))
    );
    let huge = var("n") * var("n");
    assert!(matches!(
        huge.evaluate(&environment(&[("n", i64::MAX)])),
        Err(TermEvaluationError::Overflow(_))
    ));
}

#[test]
fn substitution_replaces_a_variable_by_a_term() {
    // n*m + n with n := 2*k + 1 gives 2*k*m + m + 2*k + 1
    let term = var("n") * var("m") + var("n");
    let replaced = term.substitute("n", &(var("k").scale(2) + constant(1)));
    assert_eq!(replaced.to_string(), "2*k*m + 2*k + m + 1");
}

#[test]
fn division_of_coefficients() {
    assert_eq!(
        (var("n").scale(4) + constant(6)).divide_exactly(2),
        Some(var("n").scale(2) + constant(3))
    );
    assert_eq!((var("n").scale(4) + constant(5)).divide_exactly(2), None);
    let (quotient, remainder) = (var("n").scale(7) - constant(3)).divide_coefficients(5);
    assert_eq!(quotient, var("n") - constant(1));
    assert_eq!(remainder, var("n").scale(2) + constant(2));
}

#[test]
fn sign_decisions_assume_non_negative_variables() {
    let bounds = VariableBounds::all_non_negative();
    assert!(bounds.is_provably_non_negative(&(var("n") * var("m") + constant(1))));
    assert!(bounds.is_provably_positive(&(var("n") + constant(1))));
    assert!(!bounds.is_provably_positive(&var("n")));
    assert!(!bounds.is_provably_non_negative(&(var("n") - constant(1))));
    assert!(!bounds.is_provably_non_positive(&(var("n") - constant(1))));
    assert!(bounds.is_provably_non_positive(&(-var("n") - constant(1))));
    assert!(bounds.is_provably_less(&(var("n") * var("m")), &(var("n") * var("m") + var("m") + constant(1))));
    assert!(bounds.is_provably_at_most(&var("m"), &var("m")));
}

#[test]
fn lower_bounds_strengthen_sign_decisions() {
    // With n >= 1, (n - 1)*m >= 0; with n >= 2 and m >= 1, n*m - m - 1 >= 0 (= (n-2)*m + m - 1).
    let n_at_least_one = VariableBounds::all_non_negative().with_at_least("n", 1);
    assert!(n_at_least_one.is_provably_non_negative(&((var("n") - constant(1)) * var("m"))));
    let stronger = VariableBounds::all_non_negative()
        .with_at_least("n", 2)
        .with_at_least("m", 1);
    assert!(stronger.is_provably_non_negative(&(var("n") * var("m") - var("m") - constant(1))));
    assert!(!n_at_least_one.is_provably_non_negative(&(var("n") * var("m") - var("m") - constant(1))));
    // A weaker bound does not replace a stronger one.
    let mut bounds = stronger.clone();
    bounds.assume_at_least("n", 0);
    assert_eq!(bounds.lower_bound("n"), 2);
}

#[test]
fn positive_sizes_give_lower_bounds() {
    let bounds = VariableBounds::all_non_negative();
    let product = bounds.assuming_positive_size(&(var("n") * var("m").scale(3)));
    assert_eq!((product.lower_bound("n"), product.lower_bound("m")), (1, 1));
    // 2*k - 3 >= 1  =>  k >= 2
    let linear = bounds.assuming_positive_size(&(var("k").scale(2) - constant(3)));
    assert_eq!(linear.lower_bound("k"), 2);
    // 3*k + 5 >= 1 holds for every k >= 0: the bound stays 0
    let already = bounds.assuming_positive_size(&(var("k").scale(3) + constant(5)));
    assert_eq!(already.lower_bound("k"), 0);
    // n - m >= 1 says nothing about a single variable
    let difference = bounds.assuming_positive_size(&(var("n") - var("m")));
    assert_eq!((difference.lower_bound("n"), difference.lower_bound("m")), (0, 0));
}
