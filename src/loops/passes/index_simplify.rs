//! Simplification of the index arithmetic of pull arrays: `resi` and `divi` by a constant over an affine expression
//! of loop indices.
//!
//! A pull array read through a reshape or a transpose addresses its source with a flat position taken modulo (or
//! divided by) the source's size: reading `A[i;k]` of `transp2([2,1,3], reshape([n,m,p], A))` becomes
//! `A[((j × m + i) × p + k) % (m × p)]`. The `%` is an integer division in the innermost loop (LLVM turns it into a
//! mask only for powers of two), and it hides from the vectoriser that the position does not depend on `j` at all.
//! Here such an index is rewritten by its affine form over the loop indices (let-bound definitions looked through):
//! terms whose coefficient is a multiple of the divisor leave a residue unchanged, and when what is left lies in
//! `0..n` by the ranges of the loop indices (`for i < 26` gives `0 ≤ i ≤ 25`) the residue is the value itself and the
//! floor division the quotient of the dropped terms. Both are identities of integer arithmetic, so the rewritten
//! program computes the same positions (the index arithmetic of lowering never wraps around).
//!
//! Sizes need not be constants. The forms are polynomials: a term is a product of atoms (loop indices, sizes read at
//! run time, ...), so `((j × n + i) × n + k) % (n × n)` splits into the multiple `j × n²` and the rest `i × n + k`.
//! A rest is then bounded symbolically: a loop index is at most its trip count minus one, and the atom of a trip count
//! `c × n` is at least 1 inside its loop, so `0 ≤ i × n + k ≤ (n - 1) × n + (n - 1) = n² - 1` is proved by checking that
//! `n² - 1 - (i × n + k)`'s upper bound leaves a polynomial with no negative coefficient. Inside such loops the guard
//! of a cyclic read against an empty source, `(n × n == 0) ? fill : A[...]`, is also known false and dropped. This is
//! what keeps programs whose sizes are read at run time (`⎕ArgInt`, files) as fast as those with constant sizes.
//!
//! Only values that cannot change between a `let` and its use are looked through: loop indices and let-bound
//! variables. A mutable variable (a position counter), a load, or a run-time call (a program argument, a roll) stays
//! an opaque term, so that a rewritten index never repeats the call.

use crate::loops::ir::{Expr, Stmt, Var};
use crate::tail::ast::Op;
use std::collections::{HashMap, HashSet};

/// How deep let-bound definitions are expanded into an affine form (chains of index lets are a few levels deep).
const EXPANSION_DEPTH: usize = 12;

/// Rewrites every `resi`/`divi` that the ranges of the loop indices allow to simplify, and the zero-size guards that
/// the enclosing loops' trip counts decide.
pub fn simplify_statements(statements: &mut Vec<Stmt>) {
    let mut facts = Facts::default();
    collect_mutables(statements, &mut facts.mutables);
    simplify_list(statements, &mut facts);
}

/// What is known at a program point: the definitions of let-bound int variables, the trip counts of enclosing loops
/// (when constant, and as expressions), which atoms are trip counts of enclosing loops (so at least 1 here), and which
/// variables are mutable. Variable ids are unique in a program, so the maps by id only grow; the positive atoms are
/// scoped to their loop's body.
#[derive(Default)]
struct Facts {
    definitions: HashMap<u32, Expr>,
    loop_counts: HashMap<u32, i64>,
    loop_count_expressions: HashMap<u32, Expr>,
    positive_atoms: Vec<Expr>,
    mutables: HashSet<u32>,
}

fn collect_mutables(statements: &[Stmt], mutables: &mut HashSet<u32>) {
    crate::loops::ir::for_each_statement(statements, &mut |statement| {
        if let Stmt::Mutable { var, .. } = statement {
            mutables.insert(var.id);
        }
    });
}

fn simplify_list(statements: &mut Vec<Stmt>, facts: &mut Facts) {
    for statement in statements.iter_mut() {
        simplify_statement(statement, facts);
    }
    // A dropped zero-size guard can leave `acc := acc` behind (`acc := (n == 0) ? 0.0 : acc` after a reduction whose
    // extent is a trip count): it does nothing, and would hide the shape of the loop from the passes that follow.
    statements.retain(|statement| !matches!(statement, Stmt::Assign { var, value: Expr::Var(read) } if read == var));
}

fn simplify_statement(statement: &mut Stmt, facts: &mut Facts) {
    match statement {
        Stmt::Let { var, value } => {
            simplify_expr(value, facts);
            if var.ty == crate::loops::ir::ScalarType::Int {
                facts.definitions.insert(var.id, value.clone());
            }
        }
        Stmt::Mutable { value, .. } | Stmt::Assign { value, .. } => simplify_expr(value, facts),
        Stmt::For { index, count, body } | Stmt::ParallelFor { index, count, body } => {
            simplify_expr(count, facts);
            let positive_count = facts.enter_loop(index, count);
            simplify_list(body, facts);
            facts.leave_loop(positive_count);
        }
        Stmt::ParallelReduce {
            reduction,
            index,
            count,
            body,
            element,
            ..
        } => {
            simplify_expr(&mut reduction.neutral, facts);
            simplify_expr(count, facts);
            let positive_count = facts.enter_loop(index, count);
            simplify_list(body, facts);
            simplify_expr(element, facts);
            facts.leave_loop(positive_count);
        }
        Stmt::While { condition, body } => {
            simplify_expr(condition, facts);
            simplify_list(body, facts);
        }
        Stmt::If {
            condition,
            then,
            otherwise,
        } => {
            simplify_expr(condition, facts);
            simplify_list(then, facts);
            simplify_list(otherwise, facts);
        }
        Stmt::Alloc { size, .. } => simplify_expr(size, facts),
        Stmt::Store { index, value, .. } => {
            simplify_expr(index, facts);
            simplify_expr(value, facts);
        }
        Stmt::PrintScalar { value, precision } => {
            simplify_expr(value, facts);
            simplify_expr(precision, facts);
        }
        Stmt::Call { args, .. } => args
            .iter_mut()
            .flat_map(crate::loops::ir::Argument::expressions_mut)
            .for_each(|expr| simplify_expr(expr, facts)),
        Stmt::Free { .. }
        | Stmt::Swap { .. }
        | Stmt::PrintArray { .. }
        | Stmt::Error { .. }
        | Stmt::Format { .. }
        | Stmt::ReadFile { .. }
        | Stmt::ReadClock { .. }
        | Stmt::ReportBench { .. }
        | Stmt::View { .. } => {}
    }
}

fn simplify_expr(expr: &mut Expr, facts: &Facts) {
    match expr {
        Expr::Prim(_, arguments) => arguments.iter_mut().for_each(|argument| simplify_expr(argument, facts)),
        Expr::Load { index, .. } => simplify_expr(index, facts),
        Expr::Select(condition, then, otherwise) => {
            simplify_expr(condition, facts);
            simplify_expr(then, facts);
            simplify_expr(otherwise, facts);
        }
        Expr::At(_, inner) => simplify_expr(inner, facts),
        _ => {}
    }
    let simpler = match expr {
        Expr::Prim(Op::ResI, arguments) => simplify_residue(&arguments[0], &arguments[1], facts)
            .or_else(|| simplify_symbolic_residue(&arguments[0], &arguments[1], facts)),
        Expr::Prim(Op::DivI, arguments) => simplify_quotient(&arguments[0], &arguments[1], facts)
            .or_else(|| simplify_symbolic_quotient(&arguments[0], &arguments[1], facts)),
        Expr::Select(condition, _, otherwise) if facts.is_false_zero_test(condition) => Some((**otherwise).clone()),
        _ => None,
    };
    if let Some(simpler) = simpler {
        *expr = simpler;
    }
}

/// `n | value` (`resi(n, value)`) without the multiples of `n` in `value`, and without the residue at all when
/// what is left is already in `0..n`.
fn simplify_residue(divisor: &Expr, value: &Expr, facts: &Facts) -> Option<Expr> {
    let divisor = divisor.as_int().filter(|&n| n > 0)?;
    let form = facts.affine(value, EXPANSION_DEPTH)?;
    let (multiples, rest) = form.split_multiples_of(divisor);
    let rest_in_range = facts.range(&rest).is_some_and(|(low, high)| low >= 0 && high < divisor);
    if rest_in_range {
        Some(rest.to_expr())
    } else if !multiples.terms.is_empty() || multiples.constant != 0 {
        Some(Expr::modulo(rest.to_expr(), Expr::Int(divisor)))
    } else {
        None
    }
}

/// `⌊value ÷ n` (`divi(value, n)`) as the multiples of `n` in `value` divided by `n`, when the rest is in `0..n`.
fn simplify_quotient(value: &Expr, divisor: &Expr, facts: &Facts) -> Option<Expr> {
    let divisor = divisor.as_int().filter(|&n| n > 1)?;
    let form = facts.affine(value, EXPANSION_DEPTH)?;
    let (multiples, rest) = form.split_multiples_of(divisor);
    let (low, high) = facts.range(&rest)?;
    (low >= 0 && high < divisor).then(|| multiples.divided_by(divisor).to_expr())
}

/// `d | value` for a divisor `d` that is one term of atoms (`n`, `n × n`, `26 × n`): the residue is the rest of
/// `value` without its multiples of `d`, when that rest provably lies in `0..d`.
fn simplify_symbolic_residue(divisor: &Expr, value: &Expr, facts: &Facts) -> Option<Expr> {
    let (divisor, rest, _) = facts.split_by_symbolic_divisor(value, divisor)?;
    facts.provably_within(&rest, &divisor).then(|| rest.to_expr())
}

/// `⌊value ÷ d` for a divisor that is one term of atoms: the multiples of `d` in `value` divided by `d`, when the
/// rest provably lies in `0..d`.
fn simplify_symbolic_quotient(value: &Expr, divisor: &Expr, facts: &Facts) -> Option<Expr> {
    let (divisor, rest, quotient) = facts.split_by_symbolic_divisor(value, divisor)?;
    facts.provably_within(&rest, &divisor).then(|| quotient.to_expr())
}

/// A product of atoms (non-affine int expressions: loop indices, sizes, residues, loads, ...), kept sorted so that
/// equal products compare equal; the empty product is 1.
pub(super) type Monomial = Vec<Expr>;

fn monomial_of(atoms: impl IntoIterator<Item = Expr>) -> Monomial {
    let mut atoms: Vec<Expr> = atoms.into_iter().collect();
    atoms.sort_by_cached_key(|atom| format!("{atom:?}"));
    atoms
}

/// The atoms of `whole` left after removing those of `part` (each as often as it occurs), or None when `part` is not
/// a sub-product of `whole`.
fn monomial_quotient(whole: &Monomial, part: &Monomial) -> Option<Monomial> {
    let mut left = whole.clone();
    for atom in part {
        let position = left.iter().position(|candidate| candidate == atom)?;
        left.remove(position);
    }
    Some(left)
}

/// Products of more atoms than this stay opaque terms (index arithmetic has degree 2 or 3).
const MAXIMUM_DEGREE: usize = 4;
/// Products of polynomials with more terms than this stay opaque terms.
const MAXIMUM_TERMS: usize = 16;

/// `Σ coefficient × monomial + constant`: the polynomial form of an int expression.
#[derive(Clone, Debug, Default)]
pub(super) struct Affine {
    pub(super) terms: Vec<(Monomial, i64)>,
    pub(super) constant: i64,
}

impl Affine {
    pub(super) fn constant(value: i64) -> Affine {
        Affine {
            terms: Vec::new(),
            constant: value,
        }
    }

    fn term(expr: Expr) -> Affine {
        Affine {
            terms: vec![(vec![expr], 1)],
            constant: 0,
        }
    }

    /// `self × other`, or None when the product would be too large (or overflow).
    fn times(&self, other: &Affine) -> Option<Affine> {
        let mut product = Affine::constant(self.constant.checked_mul(other.constant)?);
        let with_constants = |form: &Affine| {
            let mut terms = form.terms.clone();
            terms.push((Vec::new(), form.constant));
            terms
        };
        for (left, left_coefficient) in with_constants(self) {
            for (right, right_coefficient) in with_constants(other) {
                if left.is_empty() && right.is_empty() {
                    continue;
                }
                if left.len() + right.len() > MAXIMUM_DEGREE {
                    return None;
                }
                let monomial = monomial_of(left.iter().chain(&right).cloned());
                let term = Affine {
                    terms: vec![(monomial, left_coefficient.checked_mul(right_coefficient)?)],
                    constant: 0,
                };
                product = product.add_scaled(&term, 1)?;
            }
        }
        (product.terms.len() <= MAXIMUM_TERMS).then_some(product)
    }

    /// The single term `coefficient × monomial` this form is, if it is one (no constant).
    fn as_single_term(&self) -> Option<(&Monomial, i64)> {
        match self.terms.as_slice() {
            [(monomial, coefficient)] if self.constant == 0 => Some((monomial, *coefficient)),
            _ => None,
        }
    }

    /// `self + factor × other`, or None on overflow.
    pub(super) fn add_scaled(mut self, other: &Affine, factor: i64) -> Option<Affine> {
        self.constant = self.constant.checked_add(other.constant.checked_mul(factor)?)?;
        for (expr, coefficient) in &other.terms {
            let scaled = coefficient.checked_mul(factor)?;
            match self.terms.iter_mut().find(|(existing, _)| existing == expr) {
                Some((_, sum)) => *sum = sum.checked_add(scaled)?,
                None => self.terms.push((expr.clone(), scaled)),
            }
        }
        self.terms.retain(|(_, coefficient)| *coefficient != 0);
        Some(self)
    }

    fn scaled(&self, factor: i64) -> Option<Affine> {
        Affine::default().add_scaled(self, factor)
    }

    /// (the terms and constant part that are multiples of `n`, the rest with the constant reduced modulo `n`).
    fn split_multiples_of(&self, n: i64) -> (Affine, Affine) {
        let mut multiples = Affine::constant(self.constant - self.constant.rem_euclid(n));
        let mut rest = Affine::constant(self.constant.rem_euclid(n));
        for (expr, coefficient) in &self.terms {
            let part = if coefficient % n == 0 {
                &mut multiples
            } else {
                &mut rest
            };
            part.terms.push((expr.clone(), *coefficient));
        }
        (multiples, rest)
    }

    /// Exact division of a form whose coefficients and constant are all multiples of `n`.
    fn divided_by(&self, n: i64) -> Affine {
        Affine {
            terms: self.terms.iter().map(|(expr, c)| (expr.clone(), c / n)).collect(),
            constant: self.constant / n,
        }
    }

    /// The form as an expression: positive terms first (or the constant when there are none), then the negative
    /// ones subtracted, then the constant: `i × 26 + j`, `99 - k`, `i × 512 - k + 511`, `i × n + k`.
    pub(super) fn to_expr(&self) -> Expr {
        let positive = self.terms.iter().filter(|(_, c)| *c > 0);
        let negative = self.terms.iter().filter(|(_, c)| *c < 0);
        let product_of = |monomial: &Monomial| monomial.iter().cloned().reduce(Expr::mul_int).unwrap_or(Expr::Int(1));
        let mut sum: Option<Expr> = None;
        for (monomial, coefficient) in positive {
            let product = Expr::mul_int(product_of(monomial), Expr::Int(*coefficient));
            sum = Some(match sum {
                Some(sum) => Expr::add_int(sum, product),
                None => product,
            });
        }
        let (mut sum, constant_left) = match sum {
            Some(sum) => (sum, self.constant),
            None => (Expr::Int(self.constant), 0),
        };
        for (monomial, coefficient) in negative {
            sum = Expr::sub_int(sum, Expr::mul_int(product_of(monomial), Expr::Int(-coefficient)));
        }
        Expr::add_int(sum, Expr::Int(constant_left))
    }
}

impl Facts {
    /// The affine form of an int expression, looking through let-bound definitions `depth` levels deep.
    fn affine(&self, expr: &Expr, depth: usize) -> Option<Affine> {
        match expr {
            Expr::Int(value) => Some(Affine::constant(*value)),
            Expr::Var(var) => Some(self.expand_variable(var, depth)),
            Expr::Prim(Op::AddW, arguments) => {
                let left = self.affine(&arguments[0], depth)?;
                left.add_scaled(&self.affine(&arguments[1], depth)?, 1)
            }
            Expr::Prim(Op::SubW, arguments) => {
                let left = self.affine(&arguments[0], depth)?;
                left.add_scaled(&self.affine(&arguments[1], depth)?, -1)
            }
            Expr::Prim(Op::NegW, arguments) => self.affine(&arguments[0], depth)?.scaled(-1),
            Expr::Prim(Op::MulW, arguments) => match (arguments[0].as_int(), arguments[1].as_int()) {
                (Some(factor), _) => self.affine(&arguments[1], depth)?.scaled(factor),
                (_, Some(factor)) => self.affine(&arguments[0], depth)?.scaled(factor),
                _ => {
                    let left = self.affine(&arguments[0], depth)?;
                    let right = self.affine(&arguments[1], depth)?;
                    Some(left.times(&right).unwrap_or_else(|| Affine::term(expr.clone())))
                }
            },
            _ => Some(Affine::term(expr.clone())),
        }
    }

    /// A let-bound variable is replaced by the affine form of its definition when every term of that form is stable
    /// (cannot change between the let and a later use); anything else stays a term of its own.
    fn expand_variable(&self, var: &Var, depth: usize) -> Affine {
        let own_term = || Affine::term(Expr::var(var));
        let Some(definition) = self.definitions.get(&var.id).filter(|_| depth > 0) else {
            return own_term();
        };
        match self.affine(definition, depth - 1) {
            Some(form)
                if form
                    .terms
                    .iter()
                    .flat_map(|(monomial, _)| monomial)
                    .all(|atom| self.is_stable(atom)) =>
            {
                form
            }
            _ => own_term(),
        }
    }

    /// Whether an expression's value is the same wherever its variables are in scope, and cheap to recompute there:
    /// no loads, no mutables, no run-time calls (a program argument is read once, a roll draws once).
    fn is_stable(&self, expr: &Expr) -> bool {
        match expr {
            Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) => true,
            Expr::Var(var) => !self.mutables.contains(&var.id),
            Expr::Prim(Op::ArgInt | Op::ArgDouble | Op::Roll, _) => false,
            Expr::Prim(_, arguments) => arguments.iter().all(|argument| self.is_stable(argument)),
            Expr::Load { .. } => false,
            Expr::Select(condition, then, otherwise) => {
                [condition, then, otherwise].iter().all(|part| self.is_stable(part))
            }
            Expr::At(_, inner) => self.is_stable(inner),
            Expr::Threshold { .. } => false,
        }
    }

    /// The smallest and largest value of an affine form over the ranges of its terms, when every term has one.
    fn range(&self, form: &Affine) -> Option<(i64, i64)> {
        let mut low = form.constant;
        let mut high = form.constant;
        for (term, coefficient) in &form.terms {
            let (term_low, term_high) = self.term_range(term)?;
            let (a, b) = (
                term_low.checked_mul(*coefficient)?,
                term_high.checked_mul(*coefficient)?,
            );
            low = low.checked_add(a.min(b))?;
            high = high.checked_add(a.max(b))?;
        }
        Some((low, high))
    }

    /// A monomial's range: the product of its atoms' ranges, when each has one and none is negative.
    fn term_range(&self, monomial: &Monomial) -> Option<(i64, i64)> {
        let mut range = (1_i64, 1_i64);
        for atom in monomial {
            let (low, high) = self.atom_range(atom)?;
            if low < 0 {
                return None;
            }
            range = (range.0.checked_mul(low)?, range.1.checked_mul(high)?);
        }
        Some(range)
    }

    /// Loop indices of constant trip count n ≥ 1 are in 0..n-1; a residue by a positive constant n is in 0..n-1.
    fn atom_range(&self, term: &Expr) -> Option<(i64, i64)> {
        match term {
            Expr::Var(var) => self
                .loop_counts
                .get(&var.id)
                .filter(|&&count| count >= 1)
                .map(|count| (0, count - 1)),
            Expr::Prim(Op::ResI, arguments) => arguments[0].as_int().filter(|&n| n > 0).map(|n| (0, n - 1)),
            _ => None,
        }
    }
}

impl Facts {
    /// Inside the body of `for index < count`: the index ranges over `0..count`, and a count that is one atom (times
    /// a positive constant) makes that atom at least 1 (the body does not run otherwise). Only a stable count says so: a mutable one may be assigned in the
    /// body, after which it no longer is the trip count. Returns whether an atom was made positive, for
    /// [`Facts::leave_loop`].
    fn enter_loop(&mut self, index: &Var, count: &Expr) -> bool {
        if let Some(trip_count) = count.as_int() {
            self.loop_counts.insert(index.id, trip_count);
        }
        if !self.is_stable(count) {
            return false;
        }
        self.loop_count_expressions.insert(index.id, count.clone());
        let Some(atom) = self.single_atom(count) else {
            return false;
        };
        self.positive_atoms.push(atom);
        true
    }

    /// After the loop's body: its trip count's atom is no longer known positive.
    fn leave_loop(&mut self, made_positive: bool) {
        if made_positive {
            self.positive_atoms.pop();
        }
    }

    /// The atom of a trip count `c × atom` with `c ≥ 1`, if it is one: inside the loop `c × atom ≥ 1`, so the atom
    /// (an integer) is at least 1 too.
    fn single_atom(&self, expr: &Expr) -> Option<Expr> {
        let form = self.affine(expr, EXPANSION_DEPTH)?;
        match form.as_single_term()? {
            (monomial, coefficient) if monomial.len() == 1 && coefficient >= 1 => Some(monomial[0].clone()),
            _ => None,
        }
    }

    /// `(divisor, rest, quotient)` for `value` divided by a divisor that is one positive term `c × atoms` (with at
    /// least one atom): `value = quotient × divisor + rest`, where the quotient collects the terms that are multiples
    /// of the divisor.
    fn split_by_symbolic_divisor(&self, value: &Expr, divisor: &Expr) -> Option<(Affine, Affine, Affine)> {
        let divisor_form = self.affine(divisor, EXPANSION_DEPTH)?;
        let (divisor_atoms, divisor_coefficient) = divisor_form.as_single_term()?;
        if divisor_atoms.is_empty() || divisor_coefficient <= 0 {
            return None;
        }
        let form = self.affine(value, EXPANSION_DEPTH)?;
        let mut rest = Affine::constant(form.constant);
        let mut quotient = Affine::default();
        for (monomial, coefficient) in &form.terms {
            match monomial_quotient(monomial, divisor_atoms).filter(|_| coefficient % divisor_coefficient == 0) {
                Some(left) => quotient.terms.push((left, coefficient / divisor_coefficient)),
                None => rest.terms.push((monomial.clone(), *coefficient)),
            }
        }
        Some((divisor_form, rest, quotient))
    }

    /// Whether `0 ≤ rest ≤ divisor - 1` holds wherever this code runs.
    fn provably_within(&self, rest: &Affine, divisor: &Affine) -> bool {
        let Some((low, high)) = self.symbolic_bounds(rest) else {
            return false;
        };
        let Some(room) = divisor.clone().add_scaled(&high, -1) else {
            return false;
        };
        self.provably_non_negative(&low)
            && self.provably_non_negative(&Affine {
                constant: room.constant - 1,
                ..room
            })
    }

    /// A lower and an upper bound of a form, as polynomials in the positive atoms: each loop index replaced by 0 or
    /// by its trip count minus one (whichever the sign of its term asks for), a positive atom kept as itself, a
    /// residue by a positive constant n by 0 or n - 1. None when a term has an atom of unknown range.
    fn symbolic_bounds(&self, form: &Affine) -> Option<(Affine, Affine)> {
        let mut low = Affine::constant(form.constant);
        let mut high = Affine::constant(form.constant);
        for (monomial, coefficient) in &form.terms {
            let mut monomial_low = Affine::constant(1);
            let mut monomial_high = Affine::constant(1);
            for atom in monomial {
                let (atom_low, atom_high) = self.atom_bounds(atom)?;
                monomial_low = monomial_low.times(&atom_low)?;
                monomial_high = monomial_high.times(&atom_high)?;
            }
            let (for_low, for_high) = if *coefficient > 0 {
                (&monomial_low, &monomial_high)
            } else {
                (&monomial_high, &monomial_low)
            };
            low = low.add_scaled(for_low, *coefficient)?;
            high = high.add_scaled(for_high, *coefficient)?;
        }
        Some((low, high))
    }

    /// The bounds of one atom, both non-negative polynomials.
    fn atom_bounds(&self, atom: &Expr) -> Option<(Affine, Affine)> {
        if self.positive_atoms.contains(atom) {
            return Some((Affine::term(atom.clone()), Affine::term(atom.clone())));
        }
        match atom {
            Expr::Var(var) => {
                let count = self.loop_count_expressions.get(&var.id)?;
                let count = self.affine(count, EXPANSION_DEPTH)?;
                Some((Affine::constant(0), count.add_scaled(&Affine::constant(1), -1)?))
            }
            Expr::Prim(Op::ResI, arguments) => {
                let n = arguments[0].as_int().filter(|&n| n > 0)?;
                Some((Affine::constant(0), Affine::constant(n - 1)))
            }
            _ => None,
        }
    }

    /// Whether a polynomial is ≥ 0 because its constant and coefficients are, and each of its atoms is a positive
    /// atom here (a sufficient test, which is all index arithmetic needs).
    fn provably_non_negative(&self, form: &Affine) -> bool {
        form.constant >= 0
            && form.terms.iter().all(|(monomial, coefficient)| {
                *coefficient >= 0 && monomial.iter().all(|atom| self.positive_atoms.contains(atom))
            })
    }

    /// Whether `condition` is `x == 0` (either way round) for an `x` that is at least 1 here: a product of
    /// positive atoms, as the size of an array whose extents are the trip counts of enclosing loops.
    fn is_false_zero_test(&self, condition: &Expr) -> bool {
        let Expr::Prim(Op::EqI, arguments) = condition else {
            return false;
        };
        let tested = match (arguments[0].as_int(), arguments[1].as_int()) {
            (_, Some(0)) => &arguments[0],
            (Some(0), _) => &arguments[1],
            _ => return false,
        };
        // With every atom at least 1 and no negative coefficient, the form is at least its constant plus the sum of
        // its coefficients.
        self.affine(tested, EXPANSION_DEPTH).is_some_and(|form| {
            self.provably_non_negative(&form)
                && (form.constant >= 1 || form.terms.iter().any(|(_, coefficient)| *coefficient >= 1))
        })
    }
}

/// The coefficient of loop index `index` in the affine form of an int expression (let-bound variables looked through
/// with `definitions`), or None when the expression is not affine in it (the index appears inside a residue, a
/// product of variables, a load, ...). Used to find the memory stride of a load along a loop.
pub(super) fn coefficient_of(expr: &Expr, index: &Var, definitions: &HashMap<u32, Expr>) -> Option<i64> {
    let facts = Facts {
        definitions: definitions.clone(),
        ..Facts::default()
    };
    let form = facts.affine(expr, EXPANSION_DEPTH)?;
    let mut coefficient = 0;
    for (monomial, term_coefficient) in &form.terms {
        match monomial.as_slice() {
            [Expr::Var(var)] if var == index => coefficient = *term_coefficient,
            atoms if atoms.iter().any(|atom| mentions(atom, index)) => return None,
            _ => {}
        }
    }
    Some(coefficient)
}

/// Reads int expressions as affine forms, looking through the let-bound `definitions` as [`simplify_statements`]
/// does (only stable definitions: no loads, no `mutables`, no run-time calls). Index-space splitting uses it to read
/// the conditions of a loop body as comparisons of the loop index with loop-invariant forms.
pub(super) struct AffineReader {
    facts: Facts,
}

impl AffineReader {
    pub(super) fn new(definitions: HashMap<u32, Expr>, mutables: HashSet<u32>) -> AffineReader {
        AffineReader {
            facts: Facts {
                definitions,
                mutables,
                ..Facts::default()
            },
        }
    }

    pub(super) fn form(&self, expr: &Expr) -> Option<Affine> {
        self.facts.affine(expr, EXPANSION_DEPTH)
    }

    /// Whether an atom of a form has the same value wherever its variables are in scope (see [`Facts::is_stable`]).
    pub(super) fn is_stable(&self, atom: &Expr) -> bool {
        self.facts.is_stable(atom)
    }
}

/// Whether `var` occurs in `expr` (let-bound variables are not looked through).
pub(super) fn mentions(expr: &Expr, var: &Var) -> bool {
    match expr {
        Expr::Var(other) => other == var,
        Expr::Prim(_, arguments) => arguments.iter().any(|argument| mentions(argument, var)),
        Expr::Load { index, .. } => mentions(index, var),
        Expr::Select(condition, then, otherwise) => {
            mentions(condition, var) || mentions(then, var) || mentions(otherwise, var)
        }
        Expr::At(_, inner) | Expr::Threshold { value: inner, .. } => mentions(inner, var),
        Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) => false,
    }
}

/// Row `base` of an array of rows of `width` elements starts at `coefficient × base`.
#[derive(Clone, Copy)]
pub(super) struct RowShape<'a> {
    pub base: &'a Var,
    pub coefficient: i64,
    pub width: i64,
}

/// `index` as `coefficient × base + rest` with `rest` in `0..width` by the ranges of the loop indices in
/// `loop_counts` (let-bound variables looked through with `definitions`): returns `rest` as an expression, or None
/// when the index has another coefficient of `base`, or the rest is not provably in range. A row fusion uses it to
/// address one row of an array in a buffer of one row.
pub(super) fn offset_within_row(
    index: &Expr,
    row: &RowShape,
    definitions: &HashMap<u32, Expr>,
    loop_counts: &HashMap<u32, i64>,
) -> Option<Expr> {
    let RowShape {
        base,
        coefficient,
        width,
    } = *row;
    let facts = Facts {
        definitions: definitions.clone(),
        loop_counts: loop_counts.clone(),
        ..Facts::default()
    };
    let form = facts.affine(index, EXPANSION_DEPTH)?;
    let base_term = vec![Expr::var(base)];
    let found = form.terms.iter().find(|(term, _)| *term == base_term).map(|(_, c)| *c);
    if found != Some(coefficient) {
        return None;
    }
    let rest = Affine {
        terms: form
            .terms
            .iter()
            .filter(|(term, _)| *term != base_term)
            .cloned()
            .collect(),
        constant: form.constant,
    };
    if rest
        .terms
        .iter()
        .any(|(monomial, _)| monomial.iter().any(|atom| mentions(atom, base)))
    {
        return None;
    }
    let (low, high) = facts.range(&rest)?;
    (low >= 0 && high < width).then(|| rest.to_expr())
}
