//! Symbolic shapes: what the elaborated TAIL of a dfn body says about the extents of its result, in terms of the
//! shape variables of the dfn's annotation (`ρ`, `n`, ...).
//!
//! An annotated dfn is elaborated once on placeholder arguments whose lengths are unknown (the annotation's shape
//! variables are rigid: they stand for any natural number). The elaborator then knows the result's rank and base but
//! not its lengths, so the elaborated term is evaluated here over *linear terms*: an integer constant plus a sum of
//! coefficient × variable, the same shape-polymorphic language as TAIL's types (`<κ>(ρ+1)`). Each op the elaborator
//! emits for typical dfns has a rule (`drop(1, v)` of a vector of length ρ+1 has length ρ); anything else gives an
//! [`Extent::Unknown`] with the reason, so that a length relation is either proved or reported as not provable.

use super::annotations::ShapeTerm;
use super::ir::Expr;
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// `constant + Σ coefficient × variable` over shape variables (naturals), normalised: variables sorted, no zero
/// coefficients, so that two terms are equal exactly when they are equal as polynomials.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearTerm {
    pub constant: i64,
    pub coefficients: BTreeMap<String, i64>,
}

impl LinearTerm {
    pub fn constant(value: i64) -> LinearTerm {
        LinearTerm {
            constant: value,
            coefficients: BTreeMap::new(),
        }
    }

    pub fn variable(name: &str) -> LinearTerm {
        LinearTerm {
            constant: 0,
            coefficients: BTreeMap::from([(name.to_string(), 1)]),
        }
    }

    /// The term an annotation writes (`ρ+ρ+1` is `2×ρ+1`).
    pub fn from_annotation(term: &ShapeTerm) -> LinearTerm {
        term.variables
            .iter()
            .try_fold(LinearTerm::constant(term.constant), |sum, name| {
                sum.add(&LinearTerm::variable(name))
            })
            .unwrap_or_else(|| LinearTerm::constant(term.constant))
    }

    /// The sum, or `None` if a coefficient overflows.
    pub fn add(&self, other: &LinearTerm) -> Option<LinearTerm> {
        let mut coefficients = self.coefficients.clone();
        for (name, coefficient) in &other.coefficients {
            let entry = coefficients.entry(name.clone()).or_insert(0);
            *entry = entry.checked_add(*coefficient)?;
        }
        coefficients.retain(|_, coefficient| *coefficient != 0);
        Some(LinearTerm {
            constant: self.constant.checked_add(other.constant)?,
            coefficients,
        })
    }

    pub fn scale(&self, factor: i64) -> Option<LinearTerm> {
        let mut coefficients = BTreeMap::new();
        for (name, coefficient) in &self.coefficients {
            let scaled = coefficient.checked_mul(factor)?;
            if scaled != 0 {
                coefficients.insert(name.clone(), scaled);
            }
        }
        Some(LinearTerm {
            constant: self.constant.checked_mul(factor)?,
            coefficients,
        })
    }

    pub fn subtract(&self, other: &LinearTerm) -> Option<LinearTerm> {
        self.add(&other.scale(-1)?)
    }

    pub fn as_constant(&self) -> Option<i64> {
        self.coefficients.is_empty().then_some(self.constant)
    }

    /// Whether the term is ≥ 0 for every value of its variables (which are naturals): every coefficient and the
    /// constant are ≥ 0.
    pub fn is_provably_natural(&self) -> bool {
        self.constant >= 0 && self.coefficients.values().all(|coefficient| *coefficient >= 0)
    }

    /// Whether the two terms differ for every value of the variables: they differ by a non-zero constant.
    pub fn provably_differs_from(&self, other: &LinearTerm) -> bool {
        self.subtract(other)
            .and_then(|difference| difference.as_constant())
            .is_some_and(|difference| difference != 0)
    }
}

impl fmt::Display for LinearTerm {
    /// `ρ+1`, `2×ρ`, `ρ-1`, `n+m`, `0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut wrote_something = false;
        for (name, coefficient) in &self.coefficients {
            let sign = if *coefficient < 0 {
                "-"
            } else if wrote_something {
                "+"
            } else {
                ""
            };
            let magnitude = coefficient.unsigned_abs();
            if magnitude == 1 {
                write!(f, "{sign}{name}")?;
            } else {
                write!(f, "{sign}{magnitude}×{name}")?;
            }
            wrote_something = true;
        }
        match (self.constant, wrote_something) {
            (0, true) => Ok(()),
            (constant, true) if constant > 0 => write!(f, "+{constant}"),
            (constant, _) => write!(f, "{constant}"),
        }
    }
}

/// One extent (or one known int value) of a symbolic array.
#[derive(Clone, Debug, PartialEq)]
pub enum Extent {
    Term(LinearTerm),
    /// Not expressible as a linear term of the annotation's variables; the text says why, as a predicate of "the
    /// length" for the diagnostic ("is max(ρ-1,0)", "depends on the data (compress)").
    Unknown(String),
}

impl Extent {
    fn constant(value: i64) -> Extent {
        Extent::Term(LinearTerm::constant(value))
    }

    fn add(&self, other: &Extent) -> Extent {
        match (self, other) {
            (Extent::Term(a), Extent::Term(b)) => a
                .add(b)
                .map(Extent::Term)
                .unwrap_or_else(|| Extent::Unknown("is too large to follow".to_string())),
            (Extent::Unknown(reason), _) | (_, Extent::Unknown(reason)) => Extent::Unknown(reason.clone()),
        }
    }
}

/// What the analysis knows of a value.
#[derive(Clone, Debug, PartialEq)]
pub enum Symbolic {
    /// An array of known rank: its extents, and, for a small int array, its elements where they are known.
    Array {
        extents: Vec<Extent>,
        values: Option<Vec<Extent>>,
    },
    Tuple(Vec<Symbolic>),
    /// A lambda: `fn x => body`, followed when the op that takes it needs its result's shape.
    Lambda(String, Box<Expr>),
    /// Nothing is known (not even the rank); the text says why.
    Unknown(String),
}

impl Symbolic {
    pub fn array(extents: Vec<Extent>) -> Symbolic {
        Symbolic::Array { extents, values: None }
    }

    /// A vector of known elements.
    pub fn vector_of(values: Vec<Extent>) -> Symbolic {
        Symbolic::Array {
            extents: vec![Extent::constant(values.len() as i64)],
            values: Some(values),
        }
    }

    /// A scalar whose value is the given term (an int literal, a tally, ...).
    pub fn scalar_with_value(value: Extent) -> Symbolic {
        Symbolic::Array {
            extents: Vec::new(),
            values: Some(vec![value]),
        }
    }

    pub fn extents(&self) -> Option<&[Extent]> {
        match self {
            Symbolic::Array { extents, .. } => Some(extents),
            _ => None,
        }
    }

    /// The value of a scalar or one-element array, where known.
    pub fn single_value(&self) -> Option<&Extent> {
        match self {
            Symbolic::Array {
                values: Some(values), ..
            } if values.len() == 1 => values.first(),
            _ => None,
        }
    }

    fn unknown_reason(&self) -> String {
        match self {
            Symbolic::Unknown(reason) => reason.clone(),
            _ => "is not followed by the analysis".to_string(),
        }
    }
}

/// Evaluates elaborated terms over symbolic shapes.
#[derive(Default)]
pub struct ShapeAnalysis {
    variables: HashMap<String, Symbolic>,
}

impl ShapeAnalysis {
    pub fn bind(&mut self, name: &str, value: Symbolic) {
        self.variables.insert(name.to_string(), value);
    }

    pub fn evaluate(&mut self, expr: &Expr) -> Symbolic {
        match expr {
            Expr::Var(name) => self
                .variables
                .get(name)
                .cloned()
                .unwrap_or_else(|| Symbolic::Unknown("depends on a value from outside the dfn".to_string())),
            Expr::Int(value) => Symbolic::scalar_with_value(Extent::constant(*value)),
            Expr::Bool(value) => Symbolic::scalar_with_value(Extent::constant(*value as i64)),
            Expr::Double(_) | Expr::Char(_) | Expr::Complex(..) => Symbolic::array(Vec::new()),
            Expr::Vector(elements, _) => {
                Symbolic::vector_of(elements.iter().map(|element| self.scalar_value(element)).collect())
            }
            Expr::Op(name, arguments) => self.operation(name, arguments),
            Expr::Lambda(parameter, _, body) => Symbolic::Lambda(parameter.clone(), body.clone()),
            Expr::Let(name, _, value, body) => {
                let value = self.evaluate(value);
                let shadowed = self.variables.insert(name.clone(), value);
                let result = self.evaluate(body);
                self.restore(name, shadowed);
                result
            }
            Expr::Tuple(components) => Symbolic::Tuple(components.iter().map(|c| self.evaluate(c)).collect()),
            Expr::Project(index, tuple) => match self.evaluate(tuple) {
                Symbolic::Tuple(mut components) if *index < components.len() => components.swap_remove(*index),
                other => Symbolic::Unknown(other.unknown_reason()),
            },
            Expr::If(_, then, otherwise, _) => {
                let then = self.evaluate(then);
                let otherwise = self.evaluate(otherwise);
                join_branches(then, otherwise)
            }
            Expr::Sequence(_, rest) => self.evaluate(rest),
            Expr::At(_, inner) => self.evaluate(inner),
            Expr::Call(..) => Symbolic::Unknown("the result of a recursive call".to_string()),
        }
    }

    fn restore(&mut self, name: &str, shadowed: Option<Symbolic>) {
        match shadowed {
            Some(previous) => self.variables.insert(name.to_string(), previous),
            None => self.variables.remove(name),
        };
    }

    /// The int value of a scalar expression, where known.
    fn scalar_value(&mut self, expr: &Expr) -> Extent {
        self.evaluate(expr)
            .single_value()
            .cloned()
            .unwrap_or_else(|| Extent::Unknown("depends on the data".to_string()))
    }

    /// A lambda's result on a symbolic argument.
    fn apply_lambda(&mut self, lambda: &Symbolic, argument: Symbolic) -> Symbolic {
        let Symbolic::Lambda(parameter, body) = lambda else {
            return Symbolic::Unknown("depends on a function the analysis does not follow".to_string());
        };
        let shadowed = self.variables.insert(parameter.clone(), argument);
        let result = self.evaluate(body);
        self.restore(parameter, shadowed);
        result
    }

    fn operation(&mut self, name: &str, arguments: &[Expr]) -> Symbolic {
        let values: Vec<Symbolic> = arguments.iter().map(|a| self.evaluate(a)).collect();
        match (name, values.as_slice()) {
            ("each" | "eachV", [_, array]) => without_values(array),
            ("zipWith", [_, left, right]) => zip_shapes(left, right),
            ("reverse" | "vreverse" | "vreverseV" | "transp" | "mem" | "nonEmptyRows", [array]) => {
                if name == "transp" {
                    reversed_axes(array)
                } else {
                    array.clone()
                }
            }
            ("rotate" | "vrotate", [_, array]) => without_values(array),
            ("scan", [_, _, array]) => without_values(array),
            ("transp2", [permutation, array]) => permuted_axes(permutation, array),
            ("iota" | "iotaV", [count]) => Symbolic::array(vec![single_value_or_unknown(count)]),
            ("shape", [array]) => shape_of(array),
            ("shapeV", [array]) => match array.extents() {
                Some([extent]) => Symbolic::Array {
                    extents: vec![Extent::constant(1)],
                    values: Some(vec![extent.clone()]),
                },
                _ => Symbolic::Unknown(array.unknown_reason()),
            },
            ("tally", [array]) => match array.extents() {
                Some([]) => Symbolic::scalar_with_value(Extent::constant(1)),
                Some([first, ..]) => Symbolic::scalar_with_value(first.clone()),
                None => Symbolic::array(Vec::new()),
            },
            ("reshape", [shape, _]) => reshaped(shape),
            ("rav", [array]) => ravelled(array),
            ("take" | "takeV" | "takeLastV", [count, array]) => taken(count, array),
            ("drop" | "dropV" | "dropLastV", [count, array]) => dropped(count, array),
            ("cat" | "catV", [left, right]) => catenated(left, right, Axis::Last),
            ("catFirst", [left, right]) => catenated(left, right, Axis::First),
            ("cons" | "consV", [_, array]) | ("snoc" | "snocV", [array, _]) => one_longer(array),
            ("reduce", [_, _, array]) => match array.extents() {
                Some([axes @ .., _]) => Symbolic::array(axes.to_vec()),
                _ => Symbolic::Unknown(array.unknown_reason()),
            },
            ("compress" | "replicate", [_, array]) => {
                with_last_axis(array, Extent::Unknown(format!("depends on the data ({name})")))
            }
            ("expand", [mask, array]) => with_last_axis(array, first_extent(mask)),
            ("first" | "firstV", [array]) => match array.single_value() {
                Some(value) => Symbolic::scalar_with_value(value.clone()),
                None => Symbolic::array(Vec::new()),
            },
            ("index", [axis, _, array]) => without_axis(axis, array),
            ("gradeUp" | "gradeDown", [array]) => Symbolic::array(vec![first_extent(array)]),
            ("addi", [left, right]) => scalar_arithmetic(left, right, |a, b| a.add(b)),
            ("subi", [left, right]) => scalar_arithmetic(left, right, |a, b| a.subtract(b)),
            ("muli", [left, right]) => scalar_arithmetic(left, right, multiply_by_constant),
            ("negi", [value]) => match value.single_value() {
                Some(Extent::Term(term)) => term
                    .scale(-1)
                    .map(|t| Symbolic::scalar_with_value(Extent::Term(t)))
                    .unwrap_or_else(|| Symbolic::array(Vec::new())),
                _ => Symbolic::array(Vec::new()),
            },
            ("power" | "condScl" | "bench", [step, _, state]) | ("powerUntil", [step, _, state]) => {
                let after_one_step = self.apply_lambda(step, state.clone());
                if &after_one_step == state {
                    state.clone()
                } else {
                    Symbolic::Unknown(format!("may change in each iteration of a loop ({name})"))
                }
            }
            _ => Symbolic::Unknown(format!("is not followed by the analysis ({name})")),
        }
    }
}

#[derive(Clone, Copy)]
enum Axis {
    First,
    Last,
}

fn without_values(array: &Symbolic) -> Symbolic {
    match array.extents() {
        Some(extents) => Symbolic::array(extents.to_vec()),
        None => Symbolic::Unknown(array.unknown_reason()),
    }
}

fn single_value_or_unknown(value: &Symbolic) -> Extent {
    value
        .single_value()
        .cloned()
        .unwrap_or_else(|| Extent::Unknown("depends on the data".to_string()))
}

fn first_extent(array: &Symbolic) -> Extent {
    match array.extents() {
        Some([first, ..]) => first.clone(),
        _ => Extent::Unknown(array.unknown_reason()),
    }
}

/// Two extents that must agree at run time (a scalar function's arguments, a guard's branches).
fn agreeing_extent(left: &Extent, right: &Extent) -> Extent {
    match (left, right) {
        (Extent::Term(a), Extent::Term(b)) if a == b => left.clone(),
        (Extent::Term(a), Extent::Term(b)) if a.provably_differs_from(b) => {
            Extent::Unknown(format!("is a LENGTH ERROR (lengths {a} and {b} never agree)"))
        }
        (Extent::Term(a), Extent::Term(b)) => Extent::Unknown(format!("is {a} or {b} (they must agree)")),
        (Extent::Unknown(reason), _) | (_, Extent::Unknown(reason)) => Extent::Unknown(reason.clone()),
    }
}

fn zip_shapes(left: &Symbolic, right: &Symbolic) -> Symbolic {
    match (left.extents(), right.extents()) {
        (Some(a), Some(b)) if a.len() == b.len() => {
            Symbolic::array(a.iter().zip(b).map(|(x, y)| agreeing_extent(x, y)).collect())
        }
        (Some(_), Some(_)) => {
            Symbolic::Unknown("is not followed by the analysis (arguments of different ranks)".to_string())
        }
        (None, _) => Symbolic::Unknown(left.unknown_reason()),
        (_, None) => Symbolic::Unknown(right.unknown_reason()),
    }
}

/// A guard's two outcomes: one shape if both branches have it.
fn join_branches(then: Symbolic, otherwise: Symbolic) -> Symbolic {
    if then == otherwise {
        return then;
    }
    match (then.extents(), otherwise.extents()) {
        (Some(a), Some(b)) if a.len() == b.len() => Symbolic::array(
            a.iter()
                .zip(b)
                .map(|(x, y)| match (x, y) {
                    (Extent::Term(p), Extent::Term(q)) if p == q => x.clone(),
                    _ => Extent::Unknown("depends on a guard".to_string()),
                })
                .collect(),
        ),
        _ => Symbolic::Unknown("depends on a guard".to_string()),
    }
}

fn reversed_axes(array: &Symbolic) -> Symbolic {
    match array.extents() {
        Some(extents) => Symbolic::array(extents.iter().rev().cloned().collect()),
        None => Symbolic::Unknown(array.unknown_reason()),
    }
}

/// `transp2(p, A)`: result axis p[j] is A's axis j (1-based), for a constant permutation p.
fn permuted_axes(permutation: &Symbolic, array: &Symbolic) -> Symbolic {
    let (
        Some(extents),
        Symbolic::Array {
            values: Some(positions),
            ..
        },
    ) = (array.extents(), permutation)
    else {
        return Symbolic::Unknown("is not followed by the analysis (a transposition)".to_string());
    };
    let mut result: Vec<Option<Extent>> = vec![None; extents.len()];
    for (axis, position) in positions.iter().enumerate() {
        let target = match position {
            Extent::Term(term) => term.as_constant().and_then(zero_based),
            Extent::Unknown(_) => None,
        };
        match (target, extents.get(axis)) {
            (Some(target), Some(extent)) if target < result.len() && result[target].is_none() => {
                result[target] = Some(extent.clone())
            }
            _ => {
                return Symbolic::Unknown(
                    "is not followed by the analysis (a transposition that is not a permutation)".to_string(),
                )
            }
        }
    }
    match result.into_iter().collect::<Option<Vec<_>>>() {
        Some(extents) => Symbolic::array(extents),
        None => {
            Symbolic::Unknown("is not followed by the analysis (a transposition that is not a permutation)".to_string())
        }
    }
}

fn shape_of(array: &Symbolic) -> Symbolic {
    match array.extents() {
        Some(extents) => Symbolic::Array {
            extents: vec![Extent::constant(extents.len() as i64)],
            values: Some(extents.to_vec()),
        },
        None => Symbolic::Unknown(array.unknown_reason()),
    }
}

fn reshaped(shape: &Symbolic) -> Symbolic {
    match shape {
        Symbolic::Array {
            values: Some(values), ..
        } => Symbolic::array(values.clone()),
        Symbolic::Array { extents, .. } => match extents.as_slice() {
            [Extent::Term(rank)] => match rank.as_constant().and_then(|r| usize::try_from(r).ok()) {
                Some(rank) if rank <= 64 => {
                    Symbolic::array(vec![Extent::Unknown("depends on the data (reshape)".to_string()); rank])
                }
                _ => Symbolic::Unknown("depends on the data (reshape)".to_string()),
            },
            _ => Symbolic::Unknown("depends on the data (reshape)".to_string()),
        },
        other => Symbolic::Unknown(other.unknown_reason()),
    }
}

/// `rav(A)`: the product of the extents, where it stays linear (at most one extent is not a constant).
fn ravelled(array: &Symbolic) -> Symbolic {
    let Some(extents) = array.extents() else {
        return Symbolic::Unknown(array.unknown_reason());
    };
    let mut constant_factor: i64 = 1;
    let mut variable_factor: Option<&LinearTerm> = None;
    let not_linear = || {
        let factors: Vec<String> = extents
            .iter()
            .map(|extent| match extent {
                Extent::Term(term)
                    if term.as_constant().is_some() || (term.coefficients.len() == 1 && term.constant == 0) =>
                {
                    term.to_string()
                }
                Extent::Term(term) => format!("({term})"),
                Extent::Unknown(_) => "?".to_string(),
            })
            .collect();
        Symbolic::array(vec![Extent::Unknown(format!(
            "is {}, a product of lengths that is not a linear term",
            factors.join("×")
        ))])
    };
    for extent in extents {
        match extent {
            Extent::Unknown(reason) => return Symbolic::array(vec![Extent::Unknown(reason.clone())]),
            Extent::Term(term) => match term.as_constant() {
                Some(constant) => match constant_factor.checked_mul(constant) {
                    Some(product) => constant_factor = product,
                    None => return not_linear(),
                },
                None if variable_factor.is_none() => variable_factor = Some(term),
                None => return not_linear(),
            },
        }
    }
    let size = match variable_factor {
        Some(term) => term.scale(constant_factor),
        None => Some(LinearTerm::constant(constant_factor)),
    };
    match size {
        Some(size) => Symbolic::array(vec![Extent::Term(size)]),
        None => not_linear(),
    }
}

/// The count of a take or drop as a term with its sign known: `(|n|, n ≥ 0)`.
fn count_magnitude(count: &Symbolic) -> Option<LinearTerm> {
    match count.single_value()? {
        Extent::Term(term) => match term.as_constant() {
            Some(constant) => Some(LinearTerm::constant(constant.checked_abs()?)),
            None if term.is_provably_natural() => Some(term.clone()),
            None => None,
        },
        Extent::Unknown(_) => None,
    }
}

fn at_least_vector(array: &Symbolic) -> Option<Vec<Extent>> {
    let extents = array.extents()?;
    Some(if extents.is_empty() {
        vec![Extent::constant(1)]
    } else {
        extents.to_vec()
    })
}

/// The known elements of a vector that `n↑` (`dropping` false) or `n↓` (`dropping` true) keeps, for a constant n
/// within the vector: `¯1↓⍴A` keeps the extents it does not drop, so a later reshape to it has known extents.
fn kept_values(count: &Symbolic, array: &Symbolic, dropping: bool) -> Option<Vec<Extent>> {
    let Symbolic::Array {
        values: Some(values),
        extents,
    } = array
    else {
        return None;
    };
    if extents.len() != 1 {
        return None;
    }
    let Some(Extent::Term(count)) = count.single_value() else {
        return None;
    };
    let count = count.as_constant()?;
    let magnitude = usize::try_from(count.checked_abs()?)
        .ok()
        .filter(|m| *m <= values.len())?;
    let rest = values.len() - magnitude;
    Some(match (dropping, count >= 0) {
        (false, true) => values[..magnitude].to_vec(),
        (false, false) => values[rest..].to_vec(),
        (true, true) => values[magnitude..].to_vec(),
        (true, false) => values[..rest].to_vec(),
    })
}

/// `n↑A` on the first axis: its length is |n|.
fn taken(count: &Symbolic, array: &Symbolic) -> Symbolic {
    if let Some(values) = kept_values(count, array, false) {
        return Symbolic::vector_of(values);
    }
    let Some(mut extents) = at_least_vector(array) else {
        return Symbolic::Unknown(array.unknown_reason());
    };
    extents[0] = match count_magnitude(count) {
        Some(magnitude) => Extent::Term(magnitude),
        None => Extent::Unknown("depends on the data (the count of ↑)".to_string()),
    };
    Symbolic::array(extents)
}

/// `n↓A` on the first axis: its length is `max(len-|n|, 0)`, a linear term when `len-|n| ≥ 0` is provable.
fn dropped(count: &Symbolic, array: &Symbolic) -> Symbolic {
    if let Some(values) = kept_values(count, array, true) {
        return Symbolic::vector_of(values);
    }
    let Some(mut extents) = at_least_vector(array) else {
        return Symbolic::Unknown(array.unknown_reason());
    };
    extents[0] = drop_length(&extents[0], count_magnitude(count).as_ref());
    Symbolic::array(extents)
}

/// The length after dropping `magnitude` items from `length` items.
pub fn drop_length(length: &Extent, magnitude: Option<&LinearTerm>) -> Extent {
    let (Extent::Term(length), Some(magnitude)) = (length, magnitude) else {
        return Extent::Unknown("depends on the data (the count of ↓)".to_string());
    };
    match length.subtract(magnitude) {
        Some(rest) if rest.is_provably_natural() => Extent::Term(rest),
        Some(rest) => Extent::Unknown(format!("is max({rest},0)")),
        None => Extent::Unknown("is too large to follow".to_string()),
    }
}

fn catenated(left: &Symbolic, right: &Symbolic, axis: Axis) -> Symbolic {
    // Two vectors of known elements (shape vectors: an outer product reshapes to `catV(shape(a), shape(b))`).
    if let (
        Symbolic::Array {
            extents: left_extents,
            values: Some(left_values),
        },
        Symbolic::Array {
            extents: right_extents,
            values: Some(right_values),
        },
    ) = (left, right)
    {
        if left_extents.len() == 1 && right_extents.len() == 1 {
            return Symbolic::vector_of(left_values.iter().chain(right_values).cloned().collect());
        }
    }
    let (Some(left), Some(right)) = (at_least_vector(left), at_least_vector(right)) else {
        return Symbolic::Unknown("is not followed by the analysis (a catenation)".to_string());
    };
    if left.len() != right.len() {
        return Symbolic::Unknown("is not followed by the analysis (a catenation of different ranks)".to_string());
    }
    let position = match axis {
        Axis::First => 0,
        Axis::Last => left.len() - 1,
    };
    let extents = left
        .iter()
        .zip(&right)
        .enumerate()
        .map(|(index, (a, b))| {
            if index == position {
                a.add(b)
            } else {
                agreeing_extent(a, b)
            }
        })
        .collect();
    Symbolic::array(extents)
}

/// `x,A` or `A,x` with x one rank lower: the last axis grows by one.
fn one_longer(array: &Symbolic) -> Symbolic {
    let Some(mut extents) = at_least_vector(array) else {
        return Symbolic::Unknown(array.unknown_reason());
    };
    if let Some(last) = extents.last_mut() {
        *last = last.add(&Extent::constant(1));
    }
    Symbolic::array(extents)
}

fn with_last_axis(array: &Symbolic, last: Extent) -> Symbolic {
    let Some(mut extents) = at_least_vector(array) else {
        return Symbolic::Unknown(array.unknown_reason());
    };
    if let Some(slot) = extents.last_mut() {
        *slot = last;
    }
    Symbolic::array(extents)
}

/// `index(axis, i, A)`: A without the (1-based, constant) axis.
fn without_axis(axis: &Symbolic, array: &Symbolic) -> Symbolic {
    let position = match axis.single_value() {
        Some(Extent::Term(term)) => term.as_constant().and_then(zero_based),
        _ => None,
    };
    match (position, array.extents()) {
        (Some(position), Some(extents)) if position < extents.len() => {
            let mut extents = extents.to_vec();
            extents.remove(position);
            Symbolic::array(extents)
        }
        _ => Symbolic::Unknown("is not followed by the analysis (an indexing)".to_string()),
    }
}

/// A 1-based axis or position as a 0-based index, if it is one.
fn zero_based(position: i64) -> Option<usize> {
    usize::try_from(position.checked_sub(1)?).ok()
}

fn multiply_by_constant(left: &LinearTerm, right: &LinearTerm) -> Option<LinearTerm> {
    match (left.as_constant(), right.as_constant()) {
        (Some(factor), _) => right.scale(factor),
        (_, Some(factor)) => left.scale(factor),
        _ => None,
    }
}

/// Int arithmetic on scalars whose values are known terms (`addi(tally(v), 1)`).
fn scalar_arithmetic(
    left: &Symbolic,
    right: &Symbolic,
    combine: impl Fn(&LinearTerm, &LinearTerm) -> Option<LinearTerm>,
) -> Symbolic {
    match (
        left.single_value(),
        right.single_value(),
        left.extents(),
        right.extents(),
    ) {
        (Some(Extent::Term(a)), Some(Extent::Term(b)), Some([]), Some([])) => match combine(a, b) {
            Some(term) => Symbolic::scalar_with_value(Extent::Term(term)),
            None => Symbolic::array(Vec::new()),
        },
        _ => Symbolic::array(Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn term(constant: i64, variables: &[(&str, i64)]) -> LinearTerm {
        let mut result = LinearTerm::constant(constant);
        for (name, coefficient) in variables {
            result = result
                .add(&LinearTerm::variable(name).scale(*coefficient).unwrap())
                .unwrap();
        }
        result
    }

    #[test]
    fn terms_normalise_to_sorted_variables_with_combined_coefficients() {
        let written = LinearTerm::from_annotation(&ShapeTerm {
            constant: 1,
            variables: vec!["ρ".to_string(), "n".to_string(), "ρ".to_string()],
        });
        assert_eq!(written, term(1, &[("n", 1), ("ρ", 2)]));
        assert_eq!(written.to_string(), "n+2×ρ+1");
        let cancelled = term(3, &[("ρ", 1)]).subtract(&term(3, &[("ρ", 1)])).unwrap();
        assert_eq!(cancelled, LinearTerm::constant(0));
        assert!(cancelled.coefficients.is_empty(), "a zero coefficient is removed");
        assert_eq!(term(-1, &[("ρ", 1)]).to_string(), "ρ-1");
        assert_eq!(term(0, &[("ρ", -1)]).to_string(), "-ρ");
    }

    #[test]
    fn terms_that_differ_by_a_constant_provably_differ() {
        assert!(term(5, &[("ρ", 1)]).provably_differs_from(&term(0, &[("ρ", 1)])));
        assert!(!term(0, &[("ρ", 1)]).provably_differs_from(&LinearTerm::constant(3)));
        assert!(!term(0, &[("ρ", 1)]).provably_differs_from(&term(0, &[("ρ", 1)])));
    }

    #[test]
    fn a_drop_is_linear_only_when_the_rest_is_provably_natural() {
        let one = LinearTerm::constant(1);
        let longer = Extent::Term(term(1, &[("ρ", 1)]));
        assert_eq!(drop_length(&longer, Some(&one)), Extent::Term(term(0, &[("ρ", 1)])));
        let plain = Extent::Term(term(0, &[("ρ", 1)]));
        assert_eq!(
            drop_length(&plain, Some(&one)),
            Extent::Unknown("is max(ρ-1,0)".to_string())
        );
        let two_rho = Extent::Term(term(0, &[("ρ", 2)]));
        let rho = term(0, &[("ρ", 1)]);
        assert_eq!(drop_length(&two_rho, Some(&rho)), Extent::Term(rho.clone()));
        assert!(matches!(drop_length(&plain, None), Extent::Unknown(_)));
    }

    #[test]
    fn the_analysis_follows_lets_drops_and_catenations() {
        let mut analysis = ShapeAnalysis::default();
        analysis.bind("w", Symbolic::array(vec![Extent::Term(term(0, &[("ρ", 1)]))]));
        // let v = cat(w, w) in cons(0, drop(1, v))
        let expr = Expr::Let(
            "v".to_string(),
            super::super::ir::Type::Array {
                base: super::super::ir::Base::Int,
                rank: 1,
            },
            Box::new(Expr::op("cat", vec![Expr::Var("w".into()), Expr::Var("w".into())])),
            Box::new(Expr::op(
                "cons",
                vec![
                    Expr::Int(0),
                    Expr::op("drop", vec![Expr::Int(1), Expr::Var("v".into())]),
                ],
            )),
        );
        assert_eq!(
            analysis.evaluate(&expr),
            Symbolic::array(vec![Extent::Unknown("is max(2×ρ-1,0)".to_string())])
        );
        let tally = Expr::op("tally", vec![Expr::Var("w".into())]);
        let plus_one = Expr::op("addi", vec![tally, Expr::Int(1)]);
        let iota = analysis.evaluate(&Expr::op("iota", vec![plus_one]));
        assert_eq!(iota, Symbolic::array(vec![Extent::Term(term(1, &[("ρ", 1)]))]));
    }

    #[test]
    fn dropping_from_a_shape_keeps_the_other_extents() {
        let mut analysis = ShapeAnalysis::default();
        let rows = Extent::Term(term(0, &[("m", 1)]));
        let columns = Extent::Term(term(0, &[("n", 1)]));
        analysis.bind("a", Symbolic::array(vec![rows.clone(), columns]));
        // reshape(drop(~1, shape(a)), 0): a column of a's height
        let frame = Expr::op(
            "drop",
            vec![Expr::Int(-1), Expr::op("shape", vec![Expr::Var("a".into())])],
        );
        let column = analysis.evaluate(&Expr::op("reshape", vec![frame, Expr::Int(0)]));
        assert_eq!(column, Symbolic::array(vec![rows]));
    }

    #[test]
    fn an_outer_product_has_both_lengths_and_its_ravel_is_not_linear() {
        let mut analysis = ShapeAnalysis::default();
        analysis.bind("v", Symbolic::array(vec![Extent::Term(term(0, &[("ρ", 1)]))]));
        let shape = || Expr::op("shape", vec![Expr::Var("v".into())]);
        let table = Expr::op(
            "reshape",
            vec![Expr::op("catV", vec![shape(), shape()]), Expr::Var("v".into())],
        );
        let rho = Extent::Term(term(0, &[("ρ", 1)]));
        assert_eq!(analysis.evaluate(&table), Symbolic::array(vec![rho.clone(), rho]));
        let ravel = analysis.evaluate(&Expr::op("rav", vec![table]));
        let Some([Extent::Unknown(reason)]) = ravel.extents() else {
            panic!("the ravel of a ρ×ρ table has no linear length: {ravel:?}")
        };
        assert_eq!(reason, "is ρ×ρ, a product of lengths that is not a linear term");
    }

    #[test]
    fn a_scalar_function_of_provably_different_lengths_is_a_length_error() {
        let left = Symbolic::array(vec![Extent::Term(term(1, &[("ρ", 1)]))]);
        let right = Symbolic::array(vec![Extent::Term(term(0, &[("ρ", 1)]))]);
        let zipped = zip_shapes(&left, &right);
        let Some([Extent::Unknown(reason)]) = zipped.extents() else {
            panic!("an unknown extent: {zipped:?}")
        };
        assert!(reason.contains("LENGTH ERROR"), "{reason}");
    }
}
