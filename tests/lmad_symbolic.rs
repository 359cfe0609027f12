//! Symbolic LMADs against concrete ones: an operation on an LMAD whose offsets, sizes and strides are terms over
//! `n`, `m` and `k`, evaluated under a random environment, must equal the same operation on the evaluated LMAD with
//! evaluated arguments. The non-overlap test must stay sound when it reasons about symbols: whenever it claims two
//! symbolic LMADs disjoint, their evaluations are disjoint in every environment that gives valid (non-negative) sizes.

use aplc::mem::{disjoint, Dim, DimSlice, Lmad, LmadError, Term};
use proptest::prelude::*;
use std::collections::{BTreeSet, HashMap};

const VARIABLES: [&str; 3] = ["n", "m", "k"];

fn var(name: &str) -> Term {
    Term::variable(name)
}

/// `c0 + c1·n + c2·m + c3·k + c4·n·m` with small coefficients: offsets, strides and indices.
fn linear_term() -> impl Strategy<Value = Term> {
    prop::collection::vec(-2i64..=2, 5).prop_map(|coefficients| {
        let monomials = [Term::one(), var("n"), var("m"), var("k"), var("n") * var("m")];
        monomials
            .iter()
            .zip(&coefficients)
            .fold(Term::zero(), |sum, (monomial, coefficient)| {
                sum + monomial.scale(*coefficient)
            })
    })
}

/// Terms that are sizes: non-negative whenever the variables are.
fn size_term() -> impl Strategy<Value = Term> {
    prop_oneof![
        Just(var("n")),
        Just(var("m")),
        Just(var("k")),
        Just(var("n") + Term::one()),
        Just(var("m").scale(2)),
        Just(var("n") * var("m")),
        Just(var("m") + var("k")),
        (0i64..=3).prop_map(Term::constant),
    ]
}

/// Small arguments of operations: starts, counts, steps and indices.
fn argument_term() -> impl Strategy<Value = Term> {
    prop_oneof![
        (-1i64..=2).prop_map(Term::constant),
        Just(var("n")),
        Just(var("k")),
        Just(var("m") - Term::one()),
        Just(var("n") - Term::one()),
    ]
}

fn symbolic_lmad() -> impl Strategy<Value = Lmad> {
    let general = (
        linear_term(),
        prop::collection::vec((size_term(), linear_term()), 0..=3),
    )
        .prop_map(|(offset, dims)| {
            Lmad::new(
                offset,
                dims.into_iter().map(|(size, stride)| Dim { size, stride }).collect(),
            )
        });
    let row_major = (linear_term(), prop::collection::vec(size_term(), 0..=3))
        .prop_map(|(offset, shape)| Lmad::row_major_at(offset, &shape));
    prop_oneof![general, row_major]
}

fn environment() -> impl Strategy<Value = HashMap<String, i64>> {
    prop::collection::vec(0i64..=5, VARIABLES.len()).prop_map(|values| {
        VARIABLES
            .iter()
            .zip(values)
            .map(|(name, value)| (name.to_string(), value))
            .collect()
    })
}

/// An LMAD operation with symbolic arguments.
#[derive(Clone, Debug)]
enum Operation {
    Index(Vec<Term>),
    Slice(Vec<(Term, Term, Term)>),
    Fix(usize, Term),
    Permute([u8; 3]),
    Transpose,
    Reverse(usize),
    Take(Term),
    Drop(Term),
    Reshape(Vec<Term>),
}

fn operation() -> impl Strategy<Value = Operation> {
    prop_oneof![
        prop::collection::vec(argument_term(), 3).prop_map(Operation::Index),
        prop::collection::vec((argument_term(), argument_term(), argument_term()), 3).prop_map(Operation::Slice),
        (0usize..3, argument_term()).prop_map(|(dimension, index)| Operation::Fix(dimension, index)),
        any::<[u8; 3]>().prop_map(Operation::Permute),
        Just(Operation::Transpose),
        (0usize..3).prop_map(Operation::Reverse),
        argument_term().prop_map(Operation::Take),
        argument_term().prop_map(Operation::Drop),
        prop::collection::vec(size_term(), 1..=3).prop_map(Operation::Reshape),
    ]
}

/// What an operation gives: an address or an LMAD, `None` where it needs a copy.
#[derive(Clone, Debug, PartialEq)]
enum Outcome {
    Address(Term),
    Layout(Option<Lmad>),
}

fn evaluate_all(terms: &[Term], environment: &HashMap<String, i64>) -> Vec<Term> {
    terms
        .iter()
        .map(|term| Term::constant(term.evaluate(environment).unwrap()))
        .collect()
}

impl Operation {
    fn evaluate(&self, environment: &HashMap<String, i64>) -> Operation {
        let constant = |term: &Term| Term::constant(term.evaluate(environment).unwrap());
        match self {
            Operation::Index(index) => Operation::Index(evaluate_all(index, environment)),
            Operation::Slice(ranges) => Operation::Slice(
                ranges
                    .iter()
                    .map(|(start, size, step)| (constant(start), constant(size), constant(step)))
                    .collect(),
            ),
            Operation::Fix(dimension, index) => Operation::Fix(*dimension, constant(index)),
            Operation::Permute(keys) => Operation::Permute(*keys),
            Operation::Transpose => Operation::Transpose,
            Operation::Reverse(dimension) => Operation::Reverse(*dimension),
            Operation::Take(count) => Operation::Take(constant(count)),
            Operation::Drop(count) => Operation::Drop(constant(count)),
            Operation::Reshape(shape) => Operation::Reshape(evaluate_all(shape, environment)),
        }
    }

    /// Applies the operation; arguments are cut to the LMAD's rank so that most generated operations apply.
    fn apply(&self, lmad: &Lmad) -> Result<Outcome, LmadError> {
        let rank = lmad.rank();
        let dimension = |seed: usize| seed % rank.max(1);
        let layout = |result: Result<Lmad, LmadError>| result.map(|lmad| Outcome::Layout(Some(lmad)));
        match self {
            Operation::Index(index) => lmad.index(&index[..rank]).map(Outcome::Address),
            Operation::Slice(ranges) => {
                let slices: Vec<DimSlice> = ranges[..rank]
                    .iter()
                    .map(|(start, size, step)| DimSlice::new(start.clone(), size.clone(), step.clone()))
                    .collect();
                layout(lmad.slice(&slices))
            }
            Operation::Fix(seed, index) => layout(lmad.fix(dimension(*seed), index)),
            Operation::Permute(keys) => {
                let mut permutation: Vec<usize> = (0..rank).collect();
                permutation.sort_by_key(|&position| keys[position]);
                layout(lmad.permute(&permutation))
            }
            Operation::Transpose => Ok(Outcome::Layout(Some(lmad.transpose()))),
            Operation::Reverse(seed) => layout(lmad.reverse(dimension(*seed))),
            Operation::Take(count) => layout(lmad.take(count)),
            Operation::Drop(count) => layout(lmad.drop(count)),
            Operation::Reshape(shape) => Ok(Outcome::Layout(lmad.reshape(shape))),
        }
    }
}

fn has_negative_size(lmad: &Lmad) -> bool {
    lmad.dims
        .iter()
        .any(|dim| dim.size.as_constant().is_some_and(|size| size < 0))
}

/// The addresses of a concrete LMAD, sorted (a multiset).
fn sorted_addresses(lmad: &Lmad) -> Vec<i64> {
    let constant = |term: &Term| term.as_constant().expect("concrete");
    let mut addresses = vec![constant(&lmad.offset)];
    for dim in &lmad.dims {
        let (size, stride) = (constant(&dim.size), constant(&dim.stride));
        addresses = addresses
            .iter()
            .flat_map(|base| (0..size).map(move |position| base + position * stride))
            .collect();
    }
    addresses.sort_unstable();
    addresses
}

fn address_set(lmad: &Lmad) -> BTreeSet<i64> {
    sorted_addresses(lmad).into_iter().collect()
}

/// The same chain of layout changes on a shared row-major block (structured pairs are often disjoint).
#[derive(Clone, Debug)]
enum Step {
    Take(Term),
    Drop(Term),
    FixRow(Term),
    FixColumn(Term),
    Transpose,
    ReverseRows,
    SliceRows(Term, Term),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        argument_term().prop_map(Step::Take),
        argument_term().prop_map(Step::Drop),
        argument_term().prop_map(Step::FixRow),
        argument_term().prop_map(Step::FixColumn),
        Just(Step::Transpose),
        Just(Step::ReverseRows),
        (argument_term(), argument_term()).prop_map(|(start, count)| Step::SliceRows(start, count)),
    ]
}

fn apply_steps(base: &Lmad, steps: &[Step]) -> Option<Lmad> {
    steps.iter().try_fold(base.clone(), |lmad, step| {
        let result = match step {
            Step::Take(count) => lmad.take(count),
            Step::Drop(count) => lmad.drop(count),
            Step::FixRow(index) => lmad.fix(0, index),
            Step::FixColumn(index) => lmad.fix(1, index),
            Step::Transpose => Ok(lmad.transpose()),
            Step::ReverseRows => lmad.reverse(0),
            Step::SliceRows(start, count) => lmad.slice_dimension(0, DimSlice::new(start.clone(), count.clone(), 1)),
        };
        result.ok()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn operations_commute_with_evaluation(
        lmad in symbolic_lmad(),
        operation in operation(),
        environments in prop::collection::vec(environment(), 4),
    ) {
        let Ok(symbolic) = operation.apply(&lmad) else { return Ok(()) };
        for environment in &environments {
            let concrete_lmad = lmad.evaluate(environment).unwrap();
            let concrete = operation.evaluate(environment).apply(&concrete_lmad);
            match (&symbolic, concrete) {
                (Outcome::Address(address), Ok(Outcome::Address(value))) => {
                    prop_assert_eq!(Term::constant(address.evaluate(environment).unwrap()), value);
                }
                (Outcome::Layout(Some(result)), Ok(Outcome::Layout(Some(value)))) => {
                    prop_assert_eq!(result.evaluate(environment).unwrap(), value);
                }
                // Knowing more, the concrete reshape may succeed where the symbolic one could not prove contiguity.
                (Outcome::Layout(None), Ok(Outcome::Layout(_))) => {}
                // Constant arguments are bounds-checked; symbolic ones are trusted.
                (_, Err(LmadError::SliceOutOfBounds { .. })) => {}
                (symbolic, concrete) => {
                    prop_assert!(false, "{:?} gave {:?} but concretely {:?}", operation, symbolic, concrete)
                }
            }
        }
    }

    #[test]
    fn symbolic_normalisation_preserves_the_addresses(
        lmad in symbolic_lmad(),
        environments in prop::collection::vec(environment(), 4),
    ) {
        let Some(normalized) = lmad.normalize() else { return Ok(()) };
        for environment in &environments {
            let before = lmad.evaluate(environment).unwrap();
            if has_negative_size(&before) {
                continue;
            }
            let after = normalized.evaluate(environment).unwrap();
            prop_assert_eq!(sorted_addresses(&after), sorted_addresses(&before));
            // The sign proofs assume a non-empty image; an empty one may keep a negative stride.
            if !sorted_addresses(&before).is_empty() {
                prop_assert!(after.dims.iter().all(|dim| dim.stride.as_constant().unwrap() >= 0));
            }
        }
    }

    #[test]
    fn symbolic_disjointness_holds_in_every_environment(
        first in symbolic_lmad(),
        second in symbolic_lmad(),
        environments in prop::collection::vec(environment(), 8),
    ) {
        if !disjoint(&first, &second) {
            return Ok(());
        }
        for environment in &environments {
            let (first, second) = (first.evaluate(environment).unwrap(), second.evaluate(environment).unwrap());
            if has_negative_size(&first) || has_negative_size(&second) {
                continue;
            }
            prop_assert!(address_set(&first).is_disjoint(&address_set(&second)), "{} and {} meet", first, second);
        }
    }

    #[test]
    fn symbolic_disjointness_of_views_of_one_block(
        shape in prop::collection::vec(size_term(), 2),
        first_steps in prop::collection::vec(step(), 1..=2),
        second_steps in prop::collection::vec(step(), 1..=2),
        environments in prop::collection::vec(environment(), 8),
    ) {
        let base = Lmad::row_major(&shape);
        let (Some(first), Some(second)) = (apply_steps(&base, &first_steps), apply_steps(&base, &second_steps)) else {
            return Ok(());
        };
        if !disjoint(&first, &second) {
            return Ok(());
        }
        for environment in &environments {
            let (first, second) = (first.evaluate(environment).unwrap(), second.evaluate(environment).unwrap());
            if has_negative_size(&first) || has_negative_size(&second) {
                continue;
            }
            prop_assert!(address_set(&first).is_disjoint(&address_set(&second)), "{} and {} meet", first, second);
        }
    }
}
