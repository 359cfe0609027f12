//! Symbolic integer terms: the offsets, sizes and strides of LMADs.
//!
//! A [`Term`] is a polynomial with integer coefficients over named variables (array sizes such as `n` and `m`, loop
//! indices such as `i`), kept in one normal form: a sum of monomials, each a product of variable names sorted
//! alphabetically (with repetition for powers), no monomial with a zero coefficient. Because the form is canonical,
//! two terms are equal as polynomials exactly when they are equal as values (`==`), so `(n - 1)*m + m == m*n`.
//!
//! Sign questions ("is this stride positive?") are answered by [`VariableBounds`]: every variable has a known lower
//! bound (0 unless stated), and a term is provably non-negative when, after shifting every variable to start at zero,
//! no coefficient is negative. That test is sound (never claims a sign that does not hold) but incomplete; callers
//! treat "not provable" as "unknown".
//!
//! Coefficients are `i64`; the terms of a compiler (sizes, strides, offsets) are far from overflowing them. The
//! operators (`+`, `-`, `*`, unary `-`) panic on coefficient overflow, like `i64` arithmetic in a debug build;
//! code that handles untrusted input (the parser) uses the `checked_*` methods, which return `None` instead.

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::ops::{Add, Mul, Neg, Sub};

/// A product of variables, names sorted, repeated for powers (`["m", "n"]` is `m*n`, `["n", "n"]` is `n*n`).
/// The empty product is the constant monomial 1.
type Monomial = Vec<String>;

/// A symbolic integer: a normalised sum of monomials with non-zero integer coefficients.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Term {
    coefficients: BTreeMap<Monomial, i64>,
}

/// Why a term could not be evaluated to a number.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
pub enum TermEvaluationError {
    #[error("the variable `{0}` has no value")]
    #[diagnostic(code(aplc::mem::unbound_size_variable))]
    UnboundVariable(String),
    #[error("the term `{0}` overflows a 64-bit integer")]
    #[diagnostic(code(aplc::mem::term_overflow))]
    Overflow(String),
}

impl Term {
    /// The term 0.
    pub fn zero() -> Term {
        Term::default()
    }

    /// The term 1.
    pub fn one() -> Term {
        Term::constant(1)
    }

    /// An integer constant.
    pub fn constant(value: i64) -> Term {
        Term::from_monomial(Vec::new(), value)
    }

    /// A single variable, e.g. the size `n`.
    pub fn variable(name: &str) -> Term {
        Term::from_monomial(vec![name.to_string()], 1)
    }

    fn from_monomial(monomial: Monomial, coefficient: i64) -> Term {
        let mut term = Term::zero();
        term.add_monomial(monomial, coefficient);
        term
    }

    /// Adds `coefficient * monomial` in place, dropping the monomial when its coefficient becomes zero.
    fn add_monomial(&mut self, monomial: Monomial, coefficient: i64) {
        self.checked_add_monomial(monomial, coefficient)
            .expect("a term coefficient overflows i64");
    }

    /// [`Term::add_monomial`], or `None` when the coefficient overflows (the term is then unspecified).
    fn checked_add_monomial(&mut self, monomial: Monomial, coefficient: i64) -> Option<()> {
        if coefficient == 0 {
            return Some(());
        }
        match self.coefficients.entry(monomial) {
            Entry::Vacant(vacant) => {
                vacant.insert(coefficient);
            }
            Entry::Occupied(mut occupied) => {
                let sum = occupied.get().checked_add(coefficient)?;
                if sum == 0 {
                    occupied.remove();
                } else {
                    *occupied.get_mut() = sum;
                }
            }
        }
        Some(())
    }

    /// `self + other`, or `None` when a coefficient overflows.
    pub fn checked_add(&self, other: &Term) -> Option<Term> {
        let mut result = self.clone();
        for (monomial, coefficient) in &other.coefficients {
            result.checked_add_monomial(monomial.clone(), *coefficient)?;
        }
        Some(result)
    }

    /// `self - other`, or `None` when a coefficient overflows.
    pub fn checked_sub(&self, other: &Term) -> Option<Term> {
        self.checked_add(&other.checked_scale(-1)?)
    }

    /// `self * other`, or `None` when a coefficient overflows.
    pub fn checked_mul(&self, other: &Term) -> Option<Term> {
        let mut result = Term::zero();
        for (left_monomial, left_coefficient) in &self.coefficients {
            for (right_monomial, right_coefficient) in &other.coefficients {
                let mut monomial: Monomial = left_monomial.iter().chain(right_monomial).cloned().collect();
                monomial.sort();
                result.checked_add_monomial(monomial, left_coefficient.checked_mul(*right_coefficient)?)?;
            }
        }
        Some(result)
    }

    /// Every coefficient multiplied by `factor`, or `None` when one overflows.
    pub fn checked_scale(&self, factor: i64) -> Option<Term> {
        let mut result = Term::zero();
        for (monomial, coefficient) in &self.coefficients {
            result.checked_add_monomial(monomial.clone(), coefficient.checked_mul(factor)?)?;
        }
        Some(result)
    }

    /// The value of a term without variables.
    pub fn as_constant(&self) -> Option<i64> {
        match self.coefficients.len() {
            0 => Some(0),
            1 => self.coefficients.get(&Vec::new()).copied(),
            _ => None,
        }
    }

    pub fn is_zero(&self) -> bool {
        self.coefficients.is_empty()
    }

    /// The constant part of the term (the coefficient of the empty monomial).
    pub fn constant_part(&self) -> i64 {
        self.coefficients.get(&Vec::new()).copied().unwrap_or(0)
    }

    /// The coefficients of the term in monomial order; each monomial is a list of variable names.
    pub fn monomials(&self) -> impl Iterator<Item = (&[String], i64)> {
        self.coefficients
            .iter()
            .map(|(monomial, coefficient)| (monomial.as_slice(), *coefficient))
    }

    /// The names of the variables that occur in the term, sorted and without repetition.
    pub fn variables(&self) -> Vec<String> {
        let mut names: Vec<String> = self.coefficients.keys().flatten().cloned().collect();
        names.sort();
        names.dedup();
        names
    }

    /// Multiplies every coefficient by a constant.
    pub fn scale(&self, factor: i64) -> Term {
        self.checked_scale(factor).expect("a term coefficient overflows i64")
    }

    /// The variable's name when the term is exactly one variable (`1·x`).
    pub fn as_single_variable(&self) -> Option<String> {
        match self.coefficients.iter().collect::<Vec<_>>().as_slice() {
            [(monomial, 1)] if monomial.len() == 1 => Some(monomial[0].clone()),
            _ => None,
        }
    }

    /// Replaces every occurrence of the variable `name` by `replacement`.
    pub fn substitute(&self, name: &str, replacement: &Term) -> Term {
        let mut result = Term::zero();
        for (monomial, coefficient) in &self.coefficients {
            let mut product = Term::constant(*coefficient);
            for variable in monomial {
                if variable == name {
                    product = &product * replacement;
                } else {
                    product = &product * &Term::variable(variable);
                }
            }
            result = &result + &product;
        }
        result
    }

    /// The value of the term when every variable has the value `environment` gives it.
    pub fn evaluate(&self, environment: &HashMap<String, i64>) -> Result<i64, TermEvaluationError> {
        let overflow = || TermEvaluationError::Overflow(self.to_string());
        let mut sum: i64 = 0;
        for (monomial, coefficient) in &self.coefficients {
            let mut product = *coefficient;
            for variable in monomial {
                let value = environment
                    .get(variable)
                    .ok_or_else(|| TermEvaluationError::UnboundVariable(variable.clone()))?;
                product = product.checked_mul(*value).ok_or_else(overflow)?;
            }
            sum = sum.checked_add(product).ok_or_else(overflow)?;
        }
        Ok(sum)
    }

    /// Divides every coefficient by `divisor` when all of them are multiples of it (`2*n + 4` / 2 = `n + 2`).
    pub fn divide_exactly(&self, divisor: i64) -> Option<Term> {
        if divisor == 0 || self.coefficients.values().any(|coefficient| coefficient % divisor != 0) {
            return None;
        }
        let mut result = Term::zero();
        for (monomial, coefficient) in &self.coefficients {
            result.add_monomial(monomial.clone(), coefficient / divisor);
        }
        Some(result)
    }

    /// Splits the term as `quotient * divisor + remainder` coefficient by coefficient, with every coefficient of the
    /// remainder in `0..divisor` (Euclidean division). `divisor` must be positive.
    pub fn divide_coefficients(&self, divisor: i64) -> (Term, Term) {
        let mut quotient = Term::zero();
        let mut remainder = Term::zero();
        for (monomial, coefficient) in &self.coefficients {
            quotient.add_monomial(monomial.clone(), coefficient.div_euclid(divisor));
            remainder.add_monomial(monomial.clone(), coefficient.rem_euclid(divisor));
        }
        (quotient, remainder)
    }

    /// The monomials in printing order: positive coefficients before negative ones (`n - k`, not `-k + n`); within
    /// each group the constant last and higher degrees first, then alphabetically.
    fn monomials_in_printing_order(&self) -> Vec<(&Monomial, i64)> {
        let mut monomials: Vec<(&Monomial, i64)> = self.coefficients.iter().map(|(m, c)| (m, *c)).collect();
        monomials.sort_by_key(|(monomial, coefficient)| {
            (
                *coefficient < 0,
                monomial.is_empty(),
                std::cmp::Reverse(monomial.len()),
                *monomial,
            )
        });
        monomials
    }

    /// True when the printed form is a single monomial, so it needs no parentheses next to other operators.
    pub fn is_single_monomial(&self) -> bool {
        self.coefficients.len() <= 1
    }
}

fn write_monomial(formatter: &mut fmt::Formatter<'_>, monomial: &Monomial, magnitude: i64) -> fmt::Result {
    if monomial.is_empty() {
        return write!(formatter, "{magnitude}");
    }
    if magnitude != 1 {
        write!(formatter, "{magnitude}*")?;
    }
    write!(formatter, "{}", monomial.join("*"))
}

impl fmt::Display for Term {
    /// Prints `2*n + 1`, `m*n - m`, `n - k`, `1 - n`, `-n`, `0`.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let monomials = self.monomials_in_printing_order();
        if monomials.is_empty() {
            return write!(formatter, "0");
        }
        for (position, (monomial, coefficient)) in monomials.into_iter().enumerate() {
            match (position, coefficient < 0) {
                (0, true) => write!(formatter, "-")?,
                (0, false) => {}
                (_, true) => write!(formatter, " - ")?,
                (_, false) => write!(formatter, " + ")?,
            }
            write_monomial(formatter, monomial, coefficient.abs())?;
        }
        Ok(())
    }
}

impl From<i64> for Term {
    fn from(value: i64) -> Term {
        Term::constant(value)
    }
}

impl From<&str> for Term {
    fn from(name: &str) -> Term {
        Term::variable(name)
    }
}

impl Add<&Term> for &Term {
    type Output = Term;
    fn add(self, other: &Term) -> Term {
        self.checked_add(other).expect("a term coefficient overflows i64")
    }
}

impl Sub<&Term> for &Term {
    type Output = Term;
    fn sub(self, other: &Term) -> Term {
        self + &other.scale(-1)
    }
}

impl Mul<&Term> for &Term {
    type Output = Term;
    fn mul(self, other: &Term) -> Term {
        self.checked_mul(other).expect("a term coefficient overflows i64")
    }
}

impl Neg for &Term {
    type Output = Term;
    fn neg(self) -> Term {
        self.scale(-1)
    }
}

macro_rules! forward_owned_operator {
    ($trait:ident, $method:ident) => {
        impl $trait<Term> for Term {
            type Output = Term;
            fn $method(self, other: Term) -> Term {
                (&self).$method(&other)
            }
        }
        impl $trait<&Term> for Term {
            type Output = Term;
            fn $method(self, other: &Term) -> Term {
                (&self).$method(other)
            }
        }
        impl $trait<Term> for &Term {
            type Output = Term;
            fn $method(self, other: Term) -> Term {
                self.$method(&other)
            }
        }
    };
}

forward_owned_operator!(Add, add);
forward_owned_operator!(Sub, sub);
forward_owned_operator!(Mul, mul);

impl Neg for Term {
    type Output = Term;
    fn neg(self) -> Term {
        self.scale(-1)
    }
}

/// Lower bounds of variables, the facts sign decisions rest on. A variable not listed is assumed non-negative, which
/// holds for the sizes and loop indices that LMAD terms are built from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VariableBounds {
    lower_bounds: HashMap<String, i64>,
}

impl VariableBounds {
    /// Every variable non-negative.
    pub fn all_non_negative() -> VariableBounds {
        VariableBounds::default()
    }

    /// States `name >= lower_bound`. A weaker bound than the one already known is ignored.
    pub fn assume_at_least(&mut self, name: &str, lower_bound: i64) {
        let known = self.lower_bound(name);
        self.lower_bounds.insert(name.to_string(), known.max(lower_bound));
    }

    /// Builder form of [`VariableBounds::assume_at_least`].
    pub fn with_at_least(mut self, name: &str, lower_bound: i64) -> VariableBounds {
        self.assume_at_least(name, lower_bound);
        self
    }

    pub fn lower_bound(&self, name: &str) -> i64 {
        self.lower_bounds.get(name).copied().unwrap_or(0)
    }

    /// The term rewritten over shifted variables `x' = x - lower_bound(x)`, each of which is non-negative.
    fn shift_to_non_negative_variables(&self, term: &Term) -> Term {
        term.variables().iter().fold(term.clone(), |shifted, name| {
            let bound = self.lower_bound(name);
            if bound == 0 {
                return shifted;
            }
            shifted.substitute(name, &(Term::variable(name) + Term::constant(bound)))
        })
    }

    /// True when `term >= 0` follows from the bounds: over non-negative shifted variables, a polynomial with no
    /// negative coefficient is non-negative.
    pub fn is_provably_non_negative(&self, term: &Term) -> bool {
        self.shift_to_non_negative_variables(term)
            .coefficients
            .values()
            .all(|coefficient| *coefficient >= 0)
    }

    /// True when `term <= 0` follows from the bounds.
    pub fn is_provably_non_positive(&self, term: &Term) -> bool {
        self.is_provably_non_negative(&-term)
    }

    /// True when `term > 0` follows from the bounds.
    pub fn is_provably_positive(&self, term: &Term) -> bool {
        self.is_provably_non_negative(&(term - Term::one()))
    }

    /// True when `left < right` follows from the bounds.
    pub fn is_provably_less(&self, left: &Term, right: &Term) -> bool {
        self.is_provably_positive(&(right - left))
    }

    /// True when `left <= right` follows from the bounds.
    pub fn is_provably_at_most(&self, left: &Term, right: &Term) -> bool {
        self.is_provably_non_negative(&(right - left))
    }

    /// The bounds strengthened by `size >= 1`, for a size that belongs to a non-empty array: every variable of a
    /// positive product `c*x*y` is at least 1, and a linear `a*x + c` (a > 0) bounds `x` from below. Sizes of other
    /// shapes add nothing.
    pub fn assuming_positive_size(&self, size: &Term) -> VariableBounds {
        let mut bounds = self.clone();
        let monomials: Vec<(&Monomial, i64)> = size.coefficients.iter().map(|(m, c)| (m, *c)).collect();
        match monomials.as_slice() {
            [(monomial, coefficient)] if !monomial.is_empty() && *coefficient > 0 => {
                for name in monomial.iter() {
                    bounds.assume_at_least(name, 1);
                }
            }
            [(constant, constant_value), (monomial, coefficient)]
                if constant.is_empty() && monomial.len() == 1 && *coefficient > 0 =>
            {
                // a*x + c >= 1  <=>  x >= ceil((1 - c) / a)
                let numerator = 1 - constant_value;
                let lower_bound =
                    numerator.div_euclid(*coefficient) + i64::from(numerator.rem_euclid(*coefficient) != 0);
                bounds.assume_at_least(&monomial[0], lower_bound);
            }
            _ => {}
        }
        bounds
    }
}
