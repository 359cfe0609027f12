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
//! Only values that cannot change between a `let` and its use are looked through: loop indices and let-bound
//! variables. A mutable variable (a position counter) or a load stays an opaque term.

use crate::loops::ir::{Expr, Stmt, Var};
use crate::tail::ast::Op;
use std::collections::{HashMap, HashSet};

/// How deep let-bound definitions are expanded into an affine form (chains of index lets are a few levels deep).
const EXPANSION_DEPTH: usize = 12;

/// Rewrites every `resi`/`divi` by a positive constant that the ranges of the loop indices allow to simplify.
pub fn simplify_statements(statements: &mut [Stmt]) {
    let mut facts = Facts::default();
    collect_mutables(statements, &mut facts.mutables);
    simplify_list(statements, &mut facts);
}

/// What is known at a program point: the definitions of let-bound int variables, the trip counts of enclosing loops
/// (when constant), and which variables are mutable. Variable ids are unique in a program, so the maps only grow.
#[derive(Default)]
struct Facts {
    definitions: HashMap<u32, Expr>,
    loop_counts: HashMap<u32, i64>,
    mutables: HashSet<u32>,
}

fn collect_mutables(statements: &[Stmt], mutables: &mut HashSet<u32>) {
    crate::loops::ir::for_each_statement(statements, &mut |statement| {
        if let Stmt::Mutable { var, .. } = statement {
            mutables.insert(var.id);
        }
    });
}

fn simplify_list(statements: &mut [Stmt], facts: &mut Facts) {
    for statement in statements {
        simplify_statement(statement, facts);
    }
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
            if let Some(trip_count) = count.as_int() {
                facts.loop_counts.insert(index.id, trip_count);
            }
            simplify_list(body, facts);
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
            if let Some(trip_count) = count.as_int() {
                facts.loop_counts.insert(index.id, trip_count);
            }
            simplify_list(body, facts);
            simplify_expr(element, facts);
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
        _ => {}
    }
    let simpler = match expr {
        Expr::Prim(Op::ResI, arguments) => simplify_residue(&arguments[0], &arguments[1], facts),
        Expr::Prim(Op::DivI, arguments) => simplify_quotient(&arguments[0], &arguments[1], facts),
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

/// `Σ coefficient × term + constant`, where each term is an int expression that is not affine itself (a loop index,
/// a mutable, a residue, a load, ...).
#[derive(Clone, Debug, Default)]
struct Affine {
    terms: Vec<(Expr, i64)>,
    constant: i64,
}

impl Affine {
    fn constant(value: i64) -> Affine {
        Affine {
            terms: Vec::new(),
            constant: value,
        }
    }

    fn term(expr: Expr) -> Affine {
        Affine {
            terms: vec![(expr, 1)],
            constant: 0,
        }
    }

    /// `self + factor × other`, or None on overflow.
    fn add_scaled(mut self, other: &Affine, factor: i64) -> Option<Affine> {
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
    /// ones subtracted, then the constant: `i × 26 + j`, `99 - k`, `i × 512 - k + 511`.
    fn to_expr(&self) -> Expr {
        let positive = self.terms.iter().filter(|(_, c)| *c > 0);
        let negative = self.terms.iter().filter(|(_, c)| *c < 0);
        let mut sum: Option<Expr> = None;
        for (expr, coefficient) in positive {
            let product = Expr::mul_int(expr.clone(), Expr::Int(*coefficient));
            sum = Some(match sum {
                Some(sum) => Expr::add_int(sum, product),
                None => product,
            });
        }
        let (mut sum, constant_left) = match sum {
            Some(sum) => (sum, self.constant),
            None => (Expr::Int(self.constant), 0),
        };
        for (expr, coefficient) in negative {
            sum = Expr::sub_int(sum, Expr::mul_int(expr.clone(), Expr::Int(-coefficient)));
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
            Expr::Prim(Op::AddI, arguments) => {
                let left = self.affine(&arguments[0], depth)?;
                left.add_scaled(&self.affine(&arguments[1], depth)?, 1)
            }
            Expr::Prim(Op::SubI, arguments) => {
                let left = self.affine(&arguments[0], depth)?;
                left.add_scaled(&self.affine(&arguments[1], depth)?, -1)
            }
            Expr::Prim(Op::NegI, arguments) => self.affine(&arguments[0], depth)?.scaled(-1),
            Expr::Prim(Op::MulI, arguments) => match (arguments[0].as_int(), arguments[1].as_int()) {
                (Some(factor), _) => self.affine(&arguments[1], depth)?.scaled(factor),
                (_, Some(factor)) => self.affine(&arguments[0], depth)?.scaled(factor),
                _ => Some(Affine::term(expr.clone())),
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
            Some(form) if form.terms.iter().all(|(term, _)| self.is_stable(term)) => form,
            _ => own_term(),
        }
    }

    /// Whether an expression's value is the same wherever its variables are in scope: no loads, no mutables.
    fn is_stable(&self, expr: &Expr) -> bool {
        match expr {
            Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) => true,
            Expr::Var(var) => !self.mutables.contains(&var.id),
            Expr::Prim(_, arguments) => arguments.iter().all(|argument| self.is_stable(argument)),
            Expr::Load { .. } => false,
            Expr::Select(condition, then, otherwise) => {
                [condition, then, otherwise].iter().all(|part| self.is_stable(part))
            }
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

    /// Loop indices of constant trip count n ≥ 1 are in 0..n-1; a residue by a positive constant n is in 0..n-1.
    fn term_range(&self, term: &Expr) -> Option<(i64, i64)> {
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
    for (term, term_coefficient) in &form.terms {
        match term {
            Expr::Var(var) if var == index => coefficient = *term_coefficient,
            other if mentions(other, index) => return None,
            _ => {}
        }
    }
    Some(coefficient)
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
        mutables: HashSet::new(),
    };
    let form = facts.affine(index, EXPANSION_DEPTH)?;
    let base_term = Expr::var(base);
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
    if rest.terms.iter().any(|(term, _)| mentions(term, base)) {
        return None;
    }
    let (low, high) = facts.range(&rest)?;
    (low >= 0 && high < width).then(|| rest.to_expr())
}
