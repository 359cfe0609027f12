//! Index-space splitting: the partitioning of position-dependent loops (Pizzuti et al., see
//! shared/design/seed-techniques.md) into an interior, where every read is affine in the loop index and no select is
//! left, and thin borders.
//!
//! A stencil reads its neighbours through rotations (`1⌽A` reads column `(j+1 < n) ? j+1 : j+1-n`), through shifts
//! padded by take and drop, and through catenations (`(1↑A)⍪¯1↓A` reads row `(i < 1) ? ... : ...`). Lowering writes
//! each as a select (or an `if`) on a comparison of the loop index with a bound that does not change in the loop, and
//! evaluates it for every element. That costs work, and it hides the affine reads from LLVM: a loop with conditional
//! loads vectorises only with masked loads (AVX-512), or not at all.
//!
//! This pass cuts the index range of such a loop at those bounds into consecutive pieces. In each piece every cut
//! comparison has one known value, so the selects and `if`s on it fold away. The interior piece, which has most of
//! the iterations, keeps no select of its own; the pieces at the borders are a row or a column thin.
//!
//! - **What gives a cut.** A `for` or `parfor` over `i < n` whose body (at any depth, inner loops included) has a
//!   condition of a select or an `if` with a comparison `a < b` (or `≤ > ≥`) where `a - b` reads as `±i + R`: R is
//!   an affine form whose atoms are loop-invariant, safe and stable (let-bound definitions are looked through with
//!   [`AffineReader`]). Only *primary* conditions give cuts: those not inside a branch that a condition on `i`
//!   chose. The wrap-around branch of a rotation, say, has range checks of its own; they stay in the border pieces.
//!   Conditions inside inner loops count too: splitting the rows of a `⊖` leaves the innermost loop of the interior
//!   rows without a select, and the pieces of a catenation of rows read each row from one place.
//!   At most [`MAX_CUTS`] distinct cuts are made per loop.
//! - **How.** Each comparison is `i < t` or its negation, with `t = -R` (or `t = R + 1`). With the bounds sorted,
//!   `t1 ≤ t2 ≤ ... ≤ tk`, the range `0..n` is cut at `mj = max(m(j-1), min(tj, n))` into k + 1 consecutive pieces,
//!   and in piece j the comparisons `i < tc` hold exactly for `c > j`: they become `tt` or `ff`, and the selects,
//!   `if`s and boolean operators on them fold away. A piece is `for j < m(j+1) - mj { let i = mj + j; ... }` with the
//!   variables of its body renamed (ids stay unique in the program). The pieces run in index order, so a sequential
//!   loop keeps its order, and the pieces of a parallel map are parallel maps.
//! - **When.** A test before the loop chooses between the pieces and the loop as it was. The pieces run when
//!   - every atom of every bound lies within ±[`ATOM_LIMIT`]: the bounds are computed in wrapping arithmetic, which
//!     is then exact (coefficients and constants are checked to be small when a cut is read);
//!   - the bounds are in the order the pass expects: it sorts them by their value when every variable is a large
//!     extent (a rotation by 1 cuts at `n - (1 % n)`, after the `1` of a catenation of one row). The order is known
//!     only at run time; guessing it gives k + 1 pieces where every order would need 2^k;
//!   - an innermost loop has at least [`MIN_SPLIT_EXTENT`] iterations, so tiny arrays keep the plain loop.
//!
//!   The test of a loop nested in a piece moves to the test of the enclosing split loop when it reads nothing that
//!   loop defines, so a nest has one test and one copy as it was. A loop is split only while its copies stay within
//!   [`SIZE_BUDGET`], and the copies of a whole program within [`PROGRAM_GROWTH`] times its size (outer loops are
//!   split first; the innermost loops of a deep nest may then stay whole).
//!
//! The loop as it was keeps running for what the test rules out, so the pass never changes what a program computes;
//! each piece runs the same iterations, in the same order, as the range of the original loop it covers.

use super::index_simplify::{Affine, AffineReader};
use crate::loops::ir::{
    for_each_statement, statement_expressions, variables_defined_in, Expr, Program, ScalarType, Stmt, Var,
};
use crate::loops::rewrite::{
    is_safe_pure, raises_no_apl_error, rename_defined_variables, rewrite_exprs, size_of, variables_of,
};
use crate::tail::ast::Op;
use std::collections::{HashMap, HashSet};

/// At most this many cuts per loop (MAX_CUTS + 1 pieces).
pub const MAX_CUTS: usize = 3;
/// Loops with fewer iterations run unsplit: the pieces would cost more compares and branches than they save.
pub const MIN_SPLIT_EXTENT: i64 = 16;
/// The bound on the atoms of a cut point for which its wrapping computation is exact (see the module documentation).
pub const ATOM_LIMIT: i64 = 1 << 40;
/// The most expression nodes all the copies of one loop's body may have together.
pub const SIZE_BUDGET: usize = 6000;
/// The copies the pass makes in a whole program may add at most this many times the program's own size (and at
/// least [`SIZE_BUDGET`]): a nest of three split loops would otherwise copy its innermost body dozens of times, and
/// LLVM compiles (and vectorises) every copy.
pub const PROGRAM_GROWTH: usize = 2;

/// The largest coefficient and constant of a cut's form that keep `Σ c × atom + constant` within 2^62 when every atom
/// lies within ±ATOM_LIMIT (with at most MAX_TERMS terms).
const MAX_COEFFICIENT: u64 = 1 << 12;
const MAX_CONSTANT: u64 = 1 << 60;
const MAX_TERMS: usize = 8;

/// Splits every loop the module documentation describes.
pub fn split_index_spaces(mut program: Program) -> Program {
    let mut definitions = HashMap::new();
    let mut mutables = HashSet::new();
    for_each_statement(&program.body, &mut |statement| match statement {
        Stmt::Let { var, value } if var.ty == ScalarType::Int => {
            definitions.insert(var.id, value.clone());
        }
        Stmt::Mutable { var, .. } => {
            mutables.insert(var.id);
        }
        _ => {}
    });
    let mut splitter = Splitter {
        reader: AffineReader::new(definitions, mutables),
        next_id: program.largest_id(),
        enclosing_tests: Vec::new(),
        copies_left: (body_size(&program.body) * PROGRAM_GROWTH).max(SIZE_BUDGET),
    };
    splitter.split_list(&mut program.body);
    program
}

/// A cut point: the comparison `i < bound` of a loop index `i` with a loop-invariant bound.
#[derive(Clone, Debug)]
struct Cut {
    bound: Affine,
    /// The bound printed with its terms in a canonical order: equal bounds have equal keys.
    key: String,
}

/// A comparison read as a cut: `comparison == (i < bound)` when `holds_below` is true, its negation otherwise.
struct ReadComparison {
    cut: Cut,
    holds_below: bool,
}

/// The loop being split: its index, and every variable its body defines (atoms of a bound may not read those).
struct LoopScope<'a> {
    index: &'a Var,
    defined_inside: HashSet<u32>,
}

struct Splitter {
    reader: AffineReader,
    next_id: u32,
    /// The split loops whose pieces are being built, outermost first: what each one's body defines, and the tests of
    /// nested loops moved to its own.
    enclosing_tests: Vec<EnclosingTest>,
    /// How many expression nodes the copies may still add to the program ([`PROGRAM_GROWTH`]).
    copies_left: usize,
}

struct EnclosingTest {
    defined_inside: HashSet<u32>,
    conditions: Vec<Expr>,
}

impl Splitter {
    fn fresh_var(&mut self, hint: &str) -> Var {
        self.next_id += 1;
        Var {
            id: self.next_id,
            ty: ScalarType::Int,
            hint: hint.into(),
        }
    }

    fn split_list(&mut self, statements: &mut Vec<Stmt>) {
        let mut result = Vec::with_capacity(statements.len());
        for mut statement in std::mem::take(statements) {
            match statement {
                Stmt::For { .. } | Stmt::ParallelFor { .. } => result.extend(self.split_loop(statement)),
                _ => {
                    for list in statement.nested_lists_mut() {
                        self.split_list(list);
                    }
                    result.push(statement);
                }
            }
        }
        *statements = result;
    }

    /// The statements that replace one `for` or `parfor`: the loop itself (its body split further) when it has no
    /// cut, else the pieces, under the test that chooses between them and the loop as it was (unless the test moved
    /// to an enclosing split loop's, see [`Splitter::hoist_test`]).
    fn split_loop(&mut self, mut statement: Stmt) -> Vec<Stmt> {
        let (index, count, body, parallel) = match &statement {
            Stmt::For { index, count, body } => (index.clone(), count.clone(), body.clone(), false),
            Stmt::ParallelFor { index, count, body } => (index.clone(), count.clone(), body.clone(), true),
            _ => unreachable!("split_loop is called on loops"),
        };
        let mut defined_inside = variables_defined_in(&body);
        defined_inside.insert(index.id);
        let scope = LoopScope {
            index: &index,
            defined_inside,
        };
        let cuts = if body_can_be_copied(&body) {
            self.primary_cuts(&scope, &body)
        } else {
            Vec::new()
        };
        let copies = body_size(&body) * (cuts.len() + 1);
        if cuts.is_empty() || copies + body_size(&body) > SIZE_BUDGET || copies > self.copies_left {
            for list in statement.nested_lists_mut() {
                self.split_list(list);
            }
            return vec![statement];
        }
        self.copies_left -= copies;
        let cuts = in_expected_order(cuts);
        let mut statements = Vec::new();
        let count = if count.is_trivial() {
            count
        } else {
            let bound = self.fresh_var("n");
            statements.push(Stmt::Let {
                var: bound.clone(),
                value: count,
            });
            Expr::var(&bound)
        };
        let mut innermost = true;
        for_each_statement(&body, &mut |statement| innermost &= !statement.is_loop());
        let test = splitting_test(&count, &cuts, innermost);
        if self.hoist_test(&test) {
            self.pieces(&scope, &body, parallel, count, &cuts, &mut statements);
            return statements;
        }
        self.enclosing_tests.push(EnclosingTest {
            defined_inside: scope.defined_inside.clone(),
            conditions: Vec::new(),
        });
        let mut split = Vec::new();
        self.pieces(&scope, &body, parallel, count.clone(), &cuts, &mut split);
        let hoisted = self.enclosing_tests.pop().expect("pushed above").conditions;
        match &mut statement {
            Stmt::For { count: original, .. } | Stmt::ParallelFor { count: original, .. } => *original = count,
            _ => unreachable!(),
        }
        match hoisted.into_iter().fold(test, Expr::and) {
            // Constant bounds and no innermost loop: the pieces are always right.
            Expr::Bool(true) => statements.extend(split),
            test => statements.push(Stmt::If {
                condition: test,
                then: split,
                otherwise: vec![statement],
            }),
        }
        statements
    }

    /// Moves the test of a loop nested in a split loop's piece to the test of the outermost enclosing split loop whose
    /// body defines nothing the test reads (it is then evaluated once before that loop, and the nested loop needs no
    /// copy as it was: the enclosing loop's copy as it was has it). Returns whether it moved.
    fn hoist_test(&mut self, test: &Expr) -> bool {
        let mut read = HashSet::new();
        variables_of(test, &mut read);
        if !self.reader.is_stable(test) {
            return false;
        }
        let target = self
            .enclosing_tests
            .iter_mut()
            .find(|enclosing| read.iter().all(|id| !enclosing.defined_inside.contains(id)));
        match target {
            Some(enclosing) => {
                if !enclosing.conditions.contains(test) {
                    enclosing.conditions.push(test.clone());
                }
                true
            }
            None => false,
        }
    }

    /// The cuts of the primary conditions of a loop body, at most [`MAX_CUTS`], in the order they are first met.
    fn primary_cuts(&self, scope: &LoopScope, body: &[Stmt]) -> Vec<Cut> {
        let mut cuts = Vec::new();
        self.collect_cuts_in_statements(scope, body, &mut cuts);
        cuts.truncate(MAX_CUTS);
        cuts
    }

    fn collect_cuts_in_statements(&self, scope: &LoopScope, statements: &[Stmt], cuts: &mut Vec<Cut>) {
        for statement in statements {
            if let Stmt::If {
                condition,
                then,
                otherwise,
            } = statement
            {
                let on_index = self.collect_cuts_of_condition(scope, condition, cuts);
                self.collect_cuts_in_expr(scope, condition, cuts);
                if !on_index {
                    self.collect_cuts_in_statements(scope, then, cuts);
                    self.collect_cuts_in_statements(scope, otherwise, cuts);
                }
                continue;
            }
            for expr in statement_expressions(statement) {
                self.collect_cuts_in_expr(scope, expr, cuts);
            }
            for list in statement.nested_lists() {
                self.collect_cuts_in_statements(scope, list, cuts);
            }
        }
    }

    fn collect_cuts_in_expr(&self, scope: &LoopScope, expr: &Expr, cuts: &mut Vec<Cut>) {
        match expr {
            Expr::Select(condition, then, otherwise) => {
                let on_index = self.collect_cuts_of_condition(scope, condition, cuts);
                self.collect_cuts_in_expr(scope, condition, cuts);
                if !on_index {
                    self.collect_cuts_in_expr(scope, then, cuts);
                    self.collect_cuts_in_expr(scope, otherwise, cuts);
                }
            }
            Expr::Prim(_, arguments) => arguments
                .iter()
                .for_each(|argument| self.collect_cuts_in_expr(scope, argument, cuts)),
            Expr::Load { index, .. } => self.collect_cuts_in_expr(scope, index, cuts),
            Expr::At(_, inner) => self.collect_cuts_in_expr(scope, inner, cuts),
            Expr::Threshold { .. } | Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) | Expr::Var(_) => {}
        }
    }

    /// Adds the cuts of the comparisons a condition is made of (through `andb`, `orb`, `notb`); returns whether it
    /// had any.
    fn collect_cuts_of_condition(&self, scope: &LoopScope, condition: &Expr, cuts: &mut Vec<Cut>) -> bool {
        match condition.without_site() {
            Expr::Prim(Op::AndB | Op::OrB | Op::NotB, arguments) => {
                let mut any = false;
                for argument in arguments {
                    any |= self.collect_cuts_of_condition(scope, argument, cuts);
                }
                any
            }
            comparison => match self.read_comparison(scope, comparison) {
                Some(read) => {
                    if !cuts.iter().any(|cut| cut.key == read.cut.key) {
                        cuts.push(read.cut);
                    }
                    true
                }
                None => false,
            },
        }
    }

    /// A comparison of ints whose difference is `±index + R`, R loop-invariant, as a cut.
    fn read_comparison(&self, scope: &LoopScope, expr: &Expr) -> Option<ReadComparison> {
        let Expr::Prim(op, arguments) = expr.without_site() else {
            return None;
        };
        // `smaller < larger` when strict, `smaller ≤ larger` otherwise.
        let (smaller, larger, strict) = match op {
            Op::LtI => (&arguments[0], &arguments[1], true),
            Op::LteI => (&arguments[0], &arguments[1], false),
            Op::GtI => (&arguments[1], &arguments[0], true),
            Op::GteI => (&arguments[1], &arguments[0], false),
            _ => return None,
        };
        // d < 0, with d = smaller - larger (minus one when not strict: a ≤ b is a - b - 1 < 0).
        let mut difference = self.reader.form(smaller)?.add_scaled(&self.reader.form(larger)?, -1)?;
        if !strict {
            difference.constant = difference.constant.checked_sub(1)?;
        }
        let index_term = vec![Expr::var(scope.index)];
        let coefficient = difference
            .terms
            .iter()
            .find(|(monomial, _)| *monomial == index_term)
            .map(|(_, coefficient)| *coefficient)?;
        let rest = Affine {
            terms: difference
                .terms
                .into_iter()
                .filter(|(monomial, _)| *monomial != index_term)
                .collect(),
            constant: difference.constant,
        };
        if !self.is_invariant_bound(scope, &rest) {
            return None;
        }
        // i + R < 0 is i < -R; -i + R < 0 is i > R, the negation of i < R + 1.
        let (bound, holds_below) = match coefficient {
            1 => (Affine::default().add_scaled(&rest, -1)?, true),
            -1 => (rest.add_scaled(&Affine::constant(1), 1)?, false),
            _ => return None,
        };
        Some(ReadComparison {
            cut: Cut::new(bound),
            holds_below,
        })
    }

    /// Whether a form can be a cut's bound: small coefficients and constant, atoms of degree one that are safe,
    /// stable, and read neither the index nor anything the loop body defines.
    fn is_invariant_bound(&self, scope: &LoopScope, form: &Affine) -> bool {
        form.terms.len() <= MAX_TERMS
            && form.constant.unsigned_abs() <= MAX_CONSTANT
            && form.terms.iter().all(|(monomial, coefficient)| {
                coefficient.unsigned_abs() <= MAX_COEFFICIENT
                    && monomial.len() == 1
                    && self.is_invariant_atom(scope, &monomial[0])
            })
    }

    fn is_invariant_atom(&self, scope: &LoopScope, atom: &Expr) -> bool {
        let mut read = HashSet::new();
        variables_of(atom, &mut read);
        is_safe_pure(atom)
            && self.reader.is_stable(atom)
            && !read.contains(&scope.index.id)
            && read.iter().all(|id| !scope.defined_inside.contains(id))
    }

    /// Appends the pieces of `0..count` to `out`: with the cuts' bounds `t1 ≤ t2 ≤ ... ≤ tk` (which the test checks),
    /// `m0 = 0`, `mj = max(m(j-1), min(tj, count))`, piece j runs `mj..m(j+1)` (the last one up to `count`), and in
    /// it `i < tc` holds exactly for the cuts `c > j`.
    fn pieces(
        &mut self,
        scope: &LoopScope,
        body: &[Stmt],
        parallel: bool,
        count: Expr,
        cuts: &[Cut],
        out: &mut Vec<Stmt>,
    ) {
        let mut starts = vec![Expr::Int(0)];
        for cut in cuts {
            let start = self.fresh_var("mid");
            let previous = starts.last().expect("starts with 0").clone();
            out.push(Stmt::Let {
                var: start.clone(),
                // Written out rather than folded, so that `join_pieces` recognises the cut points.
                value: Expr::Prim(
                    Op::MaxI,
                    vec![previous, Expr::Prim(Op::MinI, vec![cut.bound.to_expr(), count.clone()])],
                ),
            });
            starts.push(Expr::var(&start));
        }
        for (piece, lo) in starts.iter().enumerate() {
            let hi = starts.get(piece + 1).cloned().unwrap_or_else(|| count.clone());
            let decided: Vec<(String, bool)> = cuts
                .iter()
                .enumerate()
                .map(|(number, cut)| (cut.key.clone(), number >= piece))
                .collect();
            out.extend(self.piece(scope, body, parallel, (lo.clone(), hi), &decided));
        }
    }

    /// One piece: the loop over `lo..hi` with the decided comparisons folded, its inner loops split, and its body's
    /// variables renamed.
    fn piece(
        &mut self,
        scope: &LoopScope,
        body: &[Stmt],
        parallel: bool,
        (lo, hi): (Expr, Expr),
        decided: &[(String, bool)],
    ) -> Vec<Stmt> {
        let mut body = body.to_vec();
        self.fold_decided_comparisons(scope, &mut body, decided);
        self.split_list(&mut body);
        let (index, count) = if lo.as_int() == Some(0) {
            (scope.index.clone(), hi)
        } else {
            let offset = self.fresh_var(&scope.index.hint);
            body.insert(
                0,
                Stmt::Let {
                    var: scope.index.clone(),
                    value: Expr::add_int(lo.clone(), Expr::var(&offset)),
                },
            );
            (offset, Expr::Prim(Op::SubW, vec![hi, lo]))
        };
        let mut piece = vec![if parallel {
            Stmt::ParallelFor { index, count, body }
        } else {
            Stmt::For { index, count, body }
        }];
        rename_defined_variables(&mut piece, &mut self.next_id);
        piece
    }

    /// Replaces each comparison whose cut is decided by its value, and folds the selects, `if`s and boolean operators
    /// that become constant.
    fn fold_decided_comparisons(&self, scope: &LoopScope, body: &mut Vec<Stmt>, decided: &[(String, bool)]) {
        rewrite_exprs(body, &mut |expr| {
            if let Some(read) = self.read_comparison(scope, expr) {
                if let Some((_, below)) = decided.iter().find(|(key, _)| *key == read.cut.key) {
                    *expr = Expr::Bool(*below == read.holds_below);
                    return;
                }
            }
            fold_constant_condition(expr);
        });
        inline_decided_ifs(body);
    }
}

impl Cut {
    fn new(mut bound: Affine) -> Cut {
        bound.terms.sort_by_cached_key(|(monomial, _)| format!("{monomial:?}"));
        let key = format!("{:?} {}", bound.terms, bound.constant);
        Cut { bound, key }
    }
}

/// The cuts sorted by the value their bounds have when every variable is a large array extent (a rotation by 1 of
/// `n` elements cuts at `n - (1 % n)`, after the cut `1` of a catenation with one row): the order the splitting test
/// expects, which is right for the arrays stencils work on. When it is wrong at run time, the loop runs as it was.
fn in_expected_order(mut cuts: Vec<Cut>) -> Vec<Cut> {
    cuts.sort_by_key(|cut| expected_value(&cut.bound.to_expr()).unwrap_or(0));
    cuts
}

/// A typical extent for [`in_expected_order`]: large, so that `1 % n` is 1 and `¯1 % n` is `n - 1`.
const TYPICAL_EXTENT: i64 = 1 << 20;

/// The value of an index expression with every variable a [`TYPICAL_EXTENT`] (None for other operators).
fn expected_value(expr: &Expr) -> Option<i64> {
    let value = |argument: &Expr| expected_value(argument);
    Some(match expr.without_site() {
        Expr::Int(n) => *n,
        Expr::Var(_) => TYPICAL_EXTENT,
        Expr::Prim(op, arguments) => {
            let values = arguments.iter().map(value).collect::<Option<Vec<i64>>>()?;
            match (op, values.as_slice()) {
                (Op::AddW, [a, b]) => a.checked_add(*b)?,
                (Op::SubW, [a, b]) => a.checked_sub(*b)?,
                (Op::MulW, [a, b]) => a.checked_mul(*b)?,
                (Op::NegW, [a]) => a.checked_neg()?,
                (Op::MinI, [a, b]) => *a.min(b),
                (Op::MaxI, [a, b]) => *a.max(b),
                (Op::ResI, [n, a]) if *n != 0 => a.rem_euclid(*n),
                (Op::DivI, [a, n]) if *n != 0 => a.div_euclid(*n),
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// The test that chooses the pieces: every atom of every bound within ±ATOM_LIMIT (so the bounds are exact), the
/// bounds in the expected order, and, for an innermost loop, at least MIN_SPLIT_EXTENT iterations.
fn splitting_test(count: &Expr, cuts: &[Cut], innermost: bool) -> Expr {
    let mut atoms: Vec<&Expr> = Vec::new();
    for cut in cuts {
        for (monomial, _) in &cut.bound.terms {
            if !atoms.contains(&&monomial[0]) {
                atoms.push(&monomial[0]);
            }
        }
    }
    let mut conditions = Vec::new();
    if innermost {
        conditions.push(Expr::Prim(Op::GteI, vec![count.clone(), Expr::Int(MIN_SPLIT_EXTENT)]));
    }
    for atom in atoms {
        conditions.push(Expr::Prim(Op::GteI, vec![atom.clone(), Expr::Int(-ATOM_LIMIT)]));
        conditions.push(Expr::Prim(Op::LteI, vec![atom.clone(), Expr::Int(ATOM_LIMIT)]));
    }
    for pair in cuts.windows(2) {
        conditions.push(Expr::Prim(
            Op::LteI,
            vec![pair[0].bound.to_expr(), pair[1].bound.to_expr()],
        ));
    }
    conditions.into_iter().reduce(Expr::and).unwrap_or(Expr::Bool(true))
}

/// Whether a loop body may be copied into pieces: no statement in it allocates, frees or names a block, or has an
/// effect outside the program's memory (a piece's copy of such a statement would need its own block, or repeat the
/// effect in another order).
fn body_can_be_copied(body: &[Stmt]) -> bool {
    let mut copyable = true;
    for_each_statement(body, &mut |statement| {
        copyable &= matches!(
            statement,
            Stmt::Let { .. }
                | Stmt::Mutable { .. }
                | Stmt::Assign { .. }
                | Stmt::For { .. }
                | Stmt::While { .. }
                | Stmt::ParallelFor { .. }
                | Stmt::ParallelReduce { .. }
                | Stmt::If { .. }
                | Stmt::Store { .. }
                | Stmt::Error { .. }
        );
    });
    copyable
}

/// The number of expression nodes of a body, nested statements included (the measure of [`SIZE_BUDGET`] and
/// [`PROGRAM_GROWTH`]).
pub fn body_size(body: &[Stmt]) -> usize {
    let mut size = 0;
    for_each_statement(body, &mut |statement| {
        size += 1 + statement_expressions(statement).into_iter().map(size_of).sum::<usize>();
    });
    size
}

/// Folds one node whose condition or boolean operands became constant. An operand is dropped only when evaluating
/// it could not fail (a select's untaken branch is never evaluated anyway).
fn fold_constant_condition(expr: &mut Expr) {
    let droppable = |operand: &Expr| raises_no_apl_error(operand) && !operand.draws_random_numbers();
    let folded = match expr {
        Expr::Select(condition, then, otherwise) => match **condition {
            Expr::Bool(true) => Some((**then).clone()),
            Expr::Bool(false) => Some((**otherwise).clone()),
            _ if then == otherwise && droppable(condition) => Some((**then).clone()),
            _ => None,
        },
        Expr::Prim(Op::NotB, arguments) => match arguments[0] {
            Expr::Bool(value) => Some(Expr::Bool(!value)),
            _ => None,
        },
        Expr::Prim(op @ (Op::AndB | Op::OrB), arguments) => {
            // andb(tt, x) = x, andb(ff, x) = ff; orb(ff, x) = x, orb(tt, x) = tt.
            let neutral = *op == Op::AndB;
            let (first, second) = (&arguments[0], &arguments[1]);
            match (first, second) {
                (Expr::Bool(value), other) | (other, Expr::Bool(value)) if *value == neutral => Some(other.clone()),
                (Expr::Bool(value), other) | (other, Expr::Bool(value)) if droppable(other) => Some(Expr::Bool(*value)),
                _ => None,
            }
        }
        _ => None,
    };
    if let Some(folded) = folded {
        *expr = folded;
    }
}

/// Replaces each `if` whose condition is a constant by the statements of the branch it takes.
fn inline_decided_ifs(statements: &mut Vec<Stmt>) {
    let mut result = Vec::with_capacity(statements.len());
    for mut statement in std::mem::take(statements) {
        for list in statement.nested_lists_mut() {
            inline_decided_ifs(list);
        }
        match statement {
            Stmt::If {
                condition: Expr::Bool(taken),
                then,
                otherwise,
            } => result.extend(if taken { then } else { otherwise }),
            other => result.push(other),
        }
    }
    *statements = result;
}

/// The statements with every run of pieces that [`split_index_spaces`] made of one loop joined back into one loop over
/// the whole range, whose body is the pieces' bodies one after the other (each reading the joined loop's index where
/// its piece read its own). Proofs about the positions a loop touches (`parallelise`'s disjointness of a parallel
/// map's stores, which the checker repeats) use it: the joined loop touches, at each index, every position some piece
/// touches there.
///
/// The pieces are recognised by their cut points, `let m1 = max(0, min(t1, n))`, `let m2 = max(m1, min(t2, n))`, ...,
/// followed by `for i < m1 {..}`, `for j < m2 - m1 { let i' = m1 + j; ..}`, ..., `for j < n - mk {..}`. Whatever
/// code has that shape covers `0..n` with disjoint consecutive ranges (each `mj` is at least the one before and at
/// most `max(0, n)`), so joining is sound for any of it.
pub fn join_pieces(statements: &[Stmt]) -> Vec<Stmt> {
    let mut cut_points: HashMap<u32, (Expr, Expr)> = HashMap::new();
    let mut joined = Vec::with_capacity(statements.len());
    let mut position = 0;
    while position < statements.len() {
        if let Some((joined_loop, used)) = joined_run_at(&statements[position..], &cut_points) {
            joined.push(joined_loop);
            position += used;
            continue;
        }
        let mut statement = statements[position].clone();
        if let Stmt::Let { var, value } = &statement {
            if let Some((previous, count)) = read_cut_point(value) {
                cut_points.insert(var.id, (previous, count));
            }
        }
        for list in statement.nested_lists_mut() {
            *list = join_pieces(list);
        }
        joined.push(statement);
        position += 1;
    }
    joined
}

/// `max(previous, min(bound, count))` as `(previous, count)`.
fn read_cut_point(value: &Expr) -> Option<(Expr, Expr)> {
    let Expr::Prim(Op::MaxI, outer) = value else {
        return None;
    };
    let Expr::Prim(Op::MinI, inner) = &outer[1] else {
        return None;
    };
    Some((outer[0].clone(), inner[1].clone()))
}

/// The run of pieces that starts at `statements[0]`, joined, and how many statements it was.
fn joined_run_at(statements: &[Stmt], cut_points: &HashMap<u32, (Expr, Expr)>) -> Option<(Stmt, usize)> {
    let (index, first_count, first_body, parallel) = loop_parts(&statements[0])?;
    let Expr::Var(first_cut) = first_count else {
        return None;
    };
    let (previous, count) = cut_points.get(&first_cut.id)?;
    if *previous != Expr::Int(0) {
        return None;
    }
    let mut body = join_pieces(first_body);
    let mut lo = first_cut.clone();
    for (used, statement) in statements.iter().enumerate().skip(1) {
        let (piece_index, piece_count, piece_body, piece_parallel) = loop_parts(statement)?;
        let Expr::Prim(Op::SubW, bounds) = piece_count else {
            return None;
        };
        let Some((
            Stmt::Let {
                var: original_index,
                value,
            },
            rest,
        )) = piece_body.split_first()
        else {
            return None;
        };
        if piece_parallel != parallel
            || bounds[1] != Expr::var(&lo)
            || *value != Expr::add_int(Expr::var(&lo), Expr::var(piece_index))
        {
            return None;
        }
        let mut rest = join_pieces(rest);
        rewrite_exprs(&mut rest, &mut |expr| {
            if matches!(expr, Expr::Var(var) if var == original_index) {
                *expr = Expr::var(index);
            }
        });
        body.extend(rest);
        match &bounds[0] {
            hi if hi == count => {
                let joined = if parallel {
                    Stmt::ParallelFor {
                        index: index.clone(),
                        count: count.clone(),
                        body,
                    }
                } else {
                    Stmt::For {
                        index: index.clone(),
                        count: count.clone(),
                        body,
                    }
                };
                return Some((joined, used + 1));
            }
            Expr::Var(next) if cut_points.get(&next.id) == Some(&(Expr::var(&lo), count.clone())) => lo = next.clone(),
            _ => return None,
        }
    }
    None
}

fn loop_parts(statement: &Stmt) -> Option<(&Var, &Expr, &[Stmt], bool)> {
    match statement {
        Stmt::For { index, count, body } => Some((index, count, body, false)),
        Stmt::ParallelFor { index, count, body } => Some((index, count, body, true)),
        _ => None,
    }
}
