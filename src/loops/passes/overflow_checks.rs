//! Overflow checks that cannot fail go.
//!
//! APL's int `+ - × -x |x` (`addi subi muli negi`) stop the program with a DOMAIN ERROR when the exact result does
//! not fit in 64 bits (see `Op::AddI`). Where the ranges of the operands prove that it fits, the operation becomes the
//! wrapping one of index arithmetic (`addw subw mulw negw`, printed infix), which costs nothing, vectorises, and which
//! `index_simplify` and the LMAD analyses understand. An int `+` reduction (the exact sum) whose count times its
//! largest element magnitude fits becomes a plain wrapping reduction too: the sum of booleans, say.
//!
//! The ranges come from a small interval analysis in one forward walk, [`IntRanges`]: constants; loop indices
//! (`for i < n`: 0 ≤ i ≤ n-1); `let`s (the range of their value); the results of int sum, maximum and minimum
//! reductions (from the ranges of the count and the element); conversions from booleans and characters; residues
//! (smaller in magnitude than the modulus); floor division by positive constants, also through doubles (`⌊x÷c`);
//! min, max, sign; select (each arm with the ranges its condition narrows: in `(w < 1) ? 0 : w - 1`, w ≥ 1 in the
//! second arm, and the branches of an `if` likewise); the 32-bit bitwise operators;
//! and the arithmetic itself (a checked operation's result, when there is one, is in both its exact interval and the
//! int range; a wrapping one whose exact interval leaves the int range may be any int). Everything else (mutables,
//! loads, conversions from doubles) may be any int, except a load from a block whose stored values the caller knows
//! (`narrow_storage.rs`, which also has the walk record the ranges of the values stored into each block).
//!
//! A select whose condition the ranges decide becomes the arm it picks: where both arms are evaluated (a vectorised
//! select), the other would cost its work for nothing, as the double division of an int floor division's guard for
//! huge magnitudes did in every element of easter.
//!
//! Lowering uses the same analysis to decide whether reading one element of a pull array may fail
//! (`crate::lower`'s `elements_may_fail`), so `1↓x+1` with `x←⍳n` still fuses.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::loops::ir::{for_each_statement, Expr, ScalarType, Stmt, Var};
use crate::loops::rewrite::for_each_own_expr_mut;
use crate::tail::ast::Op;

/// Rewrites every checked int operation of the statements that cannot overflow into its wrapping form.
pub fn remove_overflow_checks(statements: &mut [Stmt]) {
    IntRanges::default().rewrite_statements(statements);
}

/// An inclusive interval `low..=high` of int values (held in 128 bits so that the arithmetic on bounds is exact).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntRange {
    pub low: i128,
    pub high: i128,
}

const INT_MIN: i128 = i64::MIN as i128;
const INT_MAX: i128 = i64::MAX as i128;

impl IntRange {
    pub const ANY: IntRange = IntRange {
        low: INT_MIN,
        high: INT_MAX,
    };

    pub fn exactly(value: i64) -> IntRange {
        IntRange::between(value.into(), value.into())
    }

    fn between(low: i128, high: i128) -> IntRange {
        IntRange { low, high }
    }

    /// Whether every value of the interval is an int.
    pub fn fits(self) -> bool {
        self.low >= INT_MIN && self.high <= INT_MAX
    }

    /// The interval's ints (the values a checked operation can give).
    fn within_ints(self) -> IntRange {
        IntRange::between(self.low.max(INT_MIN), self.high.min(INT_MAX))
    }

    /// The values a wrapping operation gives: the interval when it fits, otherwise any int.
    fn wrapped(self) -> IntRange {
        if self.fits() {
            self
        } else {
            IntRange::ANY
        }
    }

    pub fn union(self, other: IntRange) -> IntRange {
        IntRange::between(self.low.min(other.low), self.high.max(other.high))
    }

    fn add(self, other: IntRange) -> IntRange {
        IntRange::between(self.low + other.low, self.high + other.high)
    }

    fn sub(self, other: IntRange) -> IntRange {
        IntRange::between(self.low - other.high, self.high - other.low)
    }

    fn neg(self) -> IntRange {
        IntRange::between(-self.high, -self.low)
    }

    /// The product's interval; bounds of at most 2^64 in magnitude keep every corner product within 2^128.
    fn mul(self, other: IntRange) -> IntRange {
        let corners = [
            self.low * other.low,
            self.low * other.high,
            self.high * other.low,
            self.high * other.high,
        ];
        IntRange::between(
            *corners.iter().min().expect("four corners"),
            *corners.iter().max().expect("four corners"),
        )
    }

    fn abs(self) -> IntRange {
        if self.low >= 0 {
            self
        } else if self.high <= 0 {
            self.neg()
        } else {
            IntRange::between(0, self.high.max(-self.low))
        }
    }

    /// The largest magnitude of a value of the interval.
    pub fn magnitude(self) -> i128 {
        self.low.abs().max(self.high.abs())
    }
}

/// The ranges of the int variables defined so far in a forward walk.
#[derive(Default)]
pub struct IntRanges {
    ranges: HashMap<u32, IntRange>,
    /// The ranges of the values of int blocks known to hold only those (every value stored in them is in it; see
    /// `narrow_storage.rs`): what a load from them gives. A load from any other block may be any int.
    block_ranges: HashMap<u32, IntRange>,
    /// When recording (`narrow_storage.rs`), the union of the ranges of the values the walk saw stored into each int
    /// block, by block id.
    stored_ranges: Option<HashMap<u32, IntRange>>,
    /// The largest counts of the loops around the statement being walked, outermost first (None: a `while`, whose
    /// count is unknown): how often an assignment may run.
    loop_counts: Vec<Option<i128>>,
    /// The int mutables whose every assignment accumulates ([`Accumulation`]), by id, until their last assignment
    /// has been walked (their range is then known, and recorded as a variable's).
    accumulations: HashMap<u32, Accumulation>,
    /// The mutables declared so far. The condition of an `if` narrows no mutable in its branches: the branch may
    /// assign it after the test.
    mutables: std::collections::HashSet<u32>,
    /// Narrower ranges of expressions that hold inside the arm of a `select` being looked at (`(i < 1) ? 0 : i - 1`:
    /// i ≥ 1 in the second arm), innermost last. Expressions, not only variables: lowering repeats a wrapped index
    /// `((r < n) ? r : r - n)` in the condition and the arm rather than naming it.
    refinements: RefCell<Vec<(Expr, IntRange)>>,
}

impl IntRanges {
    /// Takes `var` to be an index below `extent` (0 ≤ var ≤ extent - 1).
    pub fn assume_index_below(&mut self, var: &Var, extent: &Expr) {
        let range = self.index_range(extent);
        self.ranges.insert(var.id, range);
    }

    /// An analysis whose loads from the blocks of `block_ranges` are in those ranges, and which records the ranges of
    /// the values stored into each int block ([`IntRanges::stored_ranges`]).
    pub fn recording_stores(block_ranges: HashMap<u32, IntRange>) -> IntRanges {
        IntRanges {
            block_ranges,
            stored_ranges: Some(HashMap::new()),
            ..IntRanges::default()
        }
    }

    /// The union of the ranges of the values stored into each int block during the walks so far (empty when not
    /// recording).
    pub fn stored_ranges(self) -> HashMap<u32, IntRange> {
        self.stored_ranges.unwrap_or_default()
    }

    /// Rewrites the statements in order, learning the ranges of what they define.
    pub fn rewrite_statements(&mut self, statements: &mut [Stmt]) {
        for position in 0..statements.len() {
            let (current, rest) = statements[position..]
                .split_first_mut()
                .expect("a statement at the position");
            if let Stmt::Mutable { var, value } = current {
                self.rewrite_expr(value);
                self.mutables.insert(var.id);
                if var.ty == ScalarType::Int {
                    self.declare_accumulation(var, value, rest);
                }
                continue;
            }
            self.rewrite_statement(current);
        }
    }

    /// Starts following a mutable whose assignments (in the statements after its declaration, `rest`) all accumulate:
    /// each either sets it to a value that does not read it, or adds to it, or takes the maximum or minimum of it and
    /// a value. Its range is then known once the walk has seen every assignment (see [`Accumulation`]); a mutable
    /// assigned otherwise may be any int.
    fn declare_accumulation(&mut self, var: &Var, value: &Expr, rest: &[Stmt]) {
        let mut assignments = 0;
        let mut accumulates = true;
        for_each_statement(rest, &mut |statement| {
            if let Stmt::Assign { var: assigned, value } = statement {
                if assigned == var {
                    assignments += 1;
                    accumulates &= accumulation_step(var, value).is_some();
                }
            }
        });
        if accumulates && assignments > 0 {
            let accumulation = Accumulation {
                loop_depth: self.loop_counts.len(),
                remaining: assignments,
                bases: self.range_of(value),
                increments: Some(IntRange::exactly(0)),
                wraps: false,
            };
            self.accumulations.insert(var.id, accumulation);
        }
    }

    /// Takes an assignment of a followed mutable into its [`Accumulation`], and records the mutable's range after its
    /// last assignment.
    fn follow_assignment(&mut self, var: &Var, value: &Expr) {
        let Some(mut accumulation) = self.accumulations.remove(&var.id) else {
            return;
        };
        let runs = self.loop_counts[accumulation.loop_depth.min(self.loop_counts.len())..]
            .iter()
            .try_fold(1i128, |product, count| {
                product.checked_mul(count.unwrap_or(i128::MAX).max(0))
            })
            .filter(|runs| *runs <= RUNS_LIMIT);
        match accumulation_step(var, value) {
            Some(AccumulationStep::Set(value)) | Some(AccumulationStep::Extreme(value)) => {
                accumulation.bases = accumulation.bases.union(self.range_of(value));
            }
            Some(AccumulationStep::Add { term, wraps }) => {
                let term = self.range_of(term);
                accumulation.wraps |= wraps;
                // Runs of at most 2^62 times a term of at most 2^64 in magnitude, added to increments of at most 2^64:
                // the bounds stay far inside i128. Increments beyond 2^64 are no use (no int sum is that large).
                accumulation.increments = accumulation
                    .increments
                    .zip(runs)
                    .map(|(increments, runs)| {
                        increments.add(IntRange::between((runs * term.low).min(0), (runs * term.high).max(0)))
                    })
                    .filter(|increments| increments.magnitude() <= 1i128 << 64);
            }
            None => accumulation.increments = None,
        }
        accumulation.remaining -= 1;
        if accumulation.remaining > 0 {
            self.accumulations.insert(var.id, accumulation);
        } else if let Some(range) = accumulation.range() {
            self.ranges.insert(var.id, range);
        }
    }

    fn rewrite_statement(&mut self, statement: &mut Stmt) {
        match statement {
            Stmt::For { index, count, body } | Stmt::ParallelFor { index, count, body } => {
                self.rewrite_expr(count);
                let range = self.index_range(count);
                self.ranges.insert(index.id, range);
                self.in_loop(Some(range.high + 1), |ranges| ranges.rewrite_statements(body));
            }
            Stmt::ParallelReduce {
                result,
                reduction,
                index,
                count,
                body,
                element,
                ..
            } => {
                self.rewrite_expr(count);
                self.rewrite_expr(&mut reduction.neutral);
                let range = self.index_range(count);
                self.ranges.insert(index.id, range);
                self.in_loop(Some(range.high + 1), |ranges| ranges.rewrite_statements(body));
                self.rewrite_expr(element);
                if reduction.op == Op::AddI && self.sum_fits(count, &reduction.neutral, element) {
                    reduction.op = Op::AddW;
                }
                if let Some(range) = self.reduction_range(reduction.op, count, &reduction.neutral, element) {
                    self.ranges.insert(result.id, range);
                }
            }
            Stmt::While { condition, body } => {
                self.rewrite_expr(condition);
                self.in_loop(None, |ranges| ranges.rewrite_statements(body));
            }
            Stmt::Assign { var, value } => {
                self.rewrite_expr(value);
                if var.ty == ScalarType::Int {
                    self.follow_assignment(var, value);
                }
            }
            Stmt::If {
                condition,
                then,
                otherwise,
            } => {
                self.rewrite_expr(condition);
                let narrowed_then = self.narrowed_variable_ranges(condition, true);
                self.with_variable_ranges(narrowed_then, |ranges| ranges.rewrite_statements(then));
                let narrowed_otherwise = self.narrowed_variable_ranges(condition, false);
                self.with_variable_ranges(narrowed_otherwise, |ranges| ranges.rewrite_statements(otherwise));
            }
            Stmt::Let { var, value } => {
                self.rewrite_expr(value);
                if var.ty == ScalarType::Int {
                    let range = self.range_of(value);
                    self.ranges.insert(var.id, range);
                }
            }
            Stmt::Store { block, index, value } => {
                self.rewrite_expr(index);
                self.rewrite_expr(value);
                if block.element == ScalarType::Int {
                    let range = self.range_of(value);
                    if let Some(stored) = &mut self.stored_ranges {
                        stored
                            .entry(block.id)
                            .and_modify(|seen| *seen = seen.union(range))
                            .or_insert(range);
                    }
                }
            }
            other => for_each_own_expr_mut(other, &mut |expr| self.rewrite_expr(expr)),
        }
    }

    /// `walk` inside a loop that runs at most `count` times (None: unknown).
    fn in_loop(&mut self, count: Option<i128>, walk: impl FnOnce(&mut Self)) {
        self.loop_counts.push(count);
        walk(self);
        self.loop_counts.pop();
    }

    /// The ranges of variables that `condition` being `holds` narrows (a branch of an `if`).
    fn narrowed_variable_ranges(&self, condition: &Expr, holds: bool) -> Vec<(u32, IntRange)> {
        self.narrowed_ranges(condition, holds)
            .into_iter()
            .filter_map(|(expr, range)| match expr {
                Expr::Var(var) if !self.mutables.contains(&var.id) => Some((var.id, range)),
                _ => None,
            })
            .collect()
    }

    /// `walk` with the variables' ranges replaced by `narrowed`, the ranges before restored after it.
    fn with_variable_ranges(&mut self, narrowed: Vec<(u32, IntRange)>, walk: impl FnOnce(&mut Self)) {
        let before: Vec<(u32, Option<IntRange>)> = narrowed
            .iter()
            .map(|(id, _)| (*id, self.ranges.get(id).copied()))
            .collect();
        self.ranges.extend(narrowed);
        walk(self);
        for (id, range) in before {
            match range {
                Some(range) => self.ranges.insert(id, range),
                None => self.ranges.remove(&id),
            };
        }
    }

    /// Whether a sum of `count` elements (plus the neutral element) fits whatever the elements are.
    fn sum_fits(&self, count: &Expr, neutral: &Expr, element: &Expr) -> bool {
        let count = self.range_of(count).high.max(0);
        let largest = self.range_of(element).magnitude();
        let start = self.range_of(neutral).magnitude();
        count
            .checked_mul(largest)
            .and_then(|total| total.checked_add(start))
            .is_some_and(|total| total <= INT_MAX)
    }

    /// The values an int sum, maximum or minimum of `count` elements may have (None for other reductions): a sum of n
    /// elements in `l..=h` is in `min(0, n×l)..=max(0, n×h)` from the neutral element (the row sums of a boolean
    /// matrix are between 0 and the row length); a maximum or minimum is the neutral element or an element.
    fn reduction_range(&self, op: Op, count: &Expr, neutral: &Expr, element: &Expr) -> Option<IntRange> {
        let (count, neutral, element) = (self.range_of(count), self.range_of(neutral), self.range_of(element));
        let most = count.high.max(0);
        let at_least_one = count.low >= 1;
        Some(match op {
            Op::AddI | Op::AddW => {
                let sum = IntRange::between((most * element.low).min(0), (most * element.high).max(0)).add(neutral);
                if op == Op::AddI {
                    sum.within_ints()
                } else {
                    sum.wrapped()
                }
            }
            Op::MaxI if at_least_one => IntRange::between(neutral.low.max(element.low), neutral.high.max(element.high)),
            Op::MinI if at_least_one => IntRange::between(neutral.low.min(element.low), neutral.high.min(element.high)),
            Op::MaxI | Op::MinI => neutral.union(element),
            _ => return None,
        })
    }

    /// Rewrites the checked operations of `expr` that cannot overflow, innermost first.
    pub fn rewrite_expr(&self, expr: &mut Expr) {
        match expr {
            Expr::Prim(op, args) => {
                args.iter_mut().for_each(|arg| self.rewrite_expr(arg));
                if let Some(wrapping) = wrapping_form(*op) {
                    if self.exact_range(*op, args).is_some_and(IntRange::fits) {
                        *op = wrapping;
                    }
                }
            }
            Expr::Load { index, .. } | Expr::Threshold { value: index, .. } => self.rewrite_expr(index),
            Expr::Select(condition, then, otherwise) => {
                self.rewrite_expr(condition);
                self.refined_by(condition, true, || self.rewrite_expr(then));
                self.refined_by(condition, false, || self.rewrite_expr(otherwise));
                // A guard the ranges decide (the small-magnitude test of an int floor division, `⌊x÷c`) leaves the
                // arm it picks: the other would be computed for nothing where both are evaluated.
                if let Some(holds) = self.decided(condition) {
                    *expr = if holds { (**then).clone() } else { (**otherwise).clone() };
                }
            }
            Expr::At(_, inner) => {
                self.rewrite_expr(inner);
                // An operation that can no longer fail needs no site, and other passes then see it as it is.
                if let Expr::Prim(op, args) = &**inner {
                    if crate::loops::rewrite::operator_raises_no_apl_error(*op, args) {
                        *expr = (**inner).clone();
                    }
                }
            }
            Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) | Expr::Var(_) => {}
        }
    }

    /// `look` with the variable ranges narrowed by what `condition` being `holds` says.
    fn refined_by<T>(&self, condition: &Expr, holds: bool, look: impl FnOnce() -> T) -> T {
        let narrowed = self.narrowed_ranges(condition, holds);
        let depth = self.refinements.borrow().len();
        self.refinements.borrow_mut().extend(narrowed);
        let result = look();
        self.refinements.borrow_mut().truncate(depth);
        result
    }

    /// The variables whose range a comparison narrows: `a < b` (and `≤ > ≥`, and a conjunction when it holds, a
    /// negation by swapping) bounds a variable on either side by the other side's range.
    fn narrowed_ranges(&self, condition: &Expr, holds: bool) -> Vec<(Expr, IntRange)> {
        let Expr::Prim(op, args) = condition else {
            return Vec::new();
        };
        // (a, b, strict): the condition that holds is a < b (strict) or a ≤ b.
        let (a, b, strict) = match (op, holds) {
            (Op::LtI, true) | (Op::GteI, false) => (&args[0], &args[1], true),
            (Op::LtI, false) | (Op::GteI, true) => (&args[1], &args[0], false),
            (Op::LteI, true) | (Op::GtI, false) => (&args[0], &args[1], false),
            (Op::LteI, false) | (Op::GtI, true) => (&args[1], &args[0], true),
            (Op::AndB, true) => {
                // Both hold: an expression bounded by both sides (`0 < n` and `n ≤ m`) is in both intervals.
                let mut both = self.narrowed_ranges(&args[0], true);
                for (expr, range) in self.narrowed_ranges(&args[1], true) {
                    match both.iter_mut().find(|(seen, _)| *seen == expr) {
                        Some((_, seen_range)) => {
                            *seen_range =
                                IntRange::between(seen_range.low.max(range.low), seen_range.high.min(range.high))
                        }
                        None => both.push((expr, range)),
                    }
                }
                return both;
            }
            (Op::NotB, _) => return self.narrowed_ranges(&args[0], !holds),
            _ => return Vec::new(),
        };
        let gap = i128::from(strict);
        let (a_range, b_range) = (self.range_of(a), self.range_of(b));
        // A repeated `roll` is another random number: only expressions with one value can be narrowed.
        let narrowable =
            |expr: &Expr| !matches!(expr, Expr::Int(_)) && expr.ty() == ScalarType::Int && !expr.draws_random_numbers();
        let mut narrowed = Vec::new();
        if narrowable(a) {
            narrowed.push((
                a.clone(),
                IntRange::between(a_range.low, a_range.high.min(b_range.high - gap)),
            ));
        }
        if narrowable(b) {
            narrowed.push((
                b.clone(),
                IntRange::between(b_range.low.max(a_range.low + gap), b_range.high),
            ));
        }
        narrowed
    }

    /// Whether a condition always holds (`Some(true)`) or never does (`Some(false)`) for the ranges known: an order
    /// comparison of ints whose ranges do not overlap in the wrong way, an equality of disjoint ranges or of one
    /// constant, a conjunction or a negation of such.
    pub fn decided(&self, condition: &Expr) -> Option<bool> {
        let Expr::Prim(op, args) = condition else {
            return None;
        };
        let compare = |a: &Expr, b: &Expr, strict: bool| {
            let (a, b) = (self.range_of(a), self.range_of(b));
            let gap = i128::from(strict);
            if a.high + gap <= b.low {
                Some(true)
            } else if a.low + gap > b.high {
                Some(false)
            } else {
                None
            }
        };
        match op {
            Op::LtI => compare(&args[0], &args[1], true),
            Op::LteI => compare(&args[0], &args[1], false),
            Op::GtI => compare(&args[1], &args[0], true),
            Op::GteI => compare(&args[1], &args[0], false),
            Op::EqI | Op::NeqI => {
                let (a, b) = (self.range_of(&args[0]), self.range_of(&args[1]));
                let equal = if a.high < b.low || b.high < a.low {
                    Some(false)
                } else if a.low == a.high && a == b {
                    Some(true)
                } else {
                    None
                };
                equal.map(|equal| equal == (*op == Op::EqI))
            }
            Op::AndB => match (self.decided(&args[0]), self.decided(&args[1])) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            },
            Op::NotB => self.decided(&args[0]).map(|holds| !holds),
            _ => None,
        }
    }

    /// The exact (unbounded) interval of `+ - × -x` applied to the arguments' ranges.
    fn exact_range(&self, op: Op, args: &[Expr]) -> Option<IntRange> {
        let range = |k: usize| self.range_of(&args[k]);
        Some(match op {
            Op::AddI | Op::AddW => range(0).add(range(1)),
            Op::SubI | Op::SubW => range(0).sub(range(1)),
            Op::MulI | Op::MulW => range(0).mul(range(1)),
            Op::NegI | Op::NegW => range(0).neg(),
            _ => return None,
        })
    }

    /// The values an int expression may have.
    pub fn range_of(&self, expr: &Expr) -> IntRange {
        let refined = self
            .refinements
            .borrow()
            .iter()
            .rev()
            .find(|(narrowed, _)| narrowed == expr)
            .map(|(_, range)| *range);
        if let Some(range) = refined {
            return range;
        }
        match expr {
            Expr::Int(n) => IntRange::exactly(*n),
            Expr::Var(var) => self.ranges.get(&var.id).copied().unwrap_or(IntRange::ANY),
            Expr::Select(condition, then, otherwise) => {
                let then = self.refined_by(condition, true, || self.range_of(then));
                then.union(self.refined_by(condition, false, || self.range_of(otherwise)))
            }
            Expr::Prim(op, args) => self.operation_range(*op, args),
            Expr::At(_, inner) => self.range_of(inner),
            Expr::Load { block, .. } => self.block_ranges.get(&block.id).copied().unwrap_or(IntRange::ANY),
            Expr::Threshold { .. } | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) => IntRange::ANY,
        }
    }

    fn operation_range(&self, op: Op, args: &[Expr]) -> IntRange {
        let range = |k: usize| self.range_of(&args[k]);
        let int32 = IntRange::between(i32::MIN.into(), i32::MAX.into());
        match op {
            Op::AddI | Op::SubI | Op::MulI | Op::NegI => {
                self.exact_range(op, args).map_or(IntRange::ANY, IntRange::within_ints)
            }
            Op::AddW | Op::SubW | Op::MulW | Op::NegW => {
                self.exact_range(op, args).map_or(IntRange::ANY, IntRange::wrapped)
            }
            Op::AbsI => range(0).abs().within_ints(),
            Op::B2I | Op::B2IV => IntRange::between(0, 1),
            Op::C2I => IntRange::between(0, char::MAX as i128),
            Op::SignI => IntRange::between(-1, 1),
            Op::MinI => IntRange::between(range(0).low.min(range(1).low), range(0).high.min(range(1).high)),
            Op::MaxI => IntRange::between(range(0).low.max(range(1).low), range(0).high.max(range(1).high)),
            // resi(n, a) = a mod n, with the sign of n (and a itself when n = 0).
            Op::ResI => {
                let modulus = range(0);
                if modulus.low > 0 {
                    IntRange::between(0, modulus.high - 1)
                } else if modulus.high < 0 {
                    IntRange::between(modulus.low + 1, 0)
                } else {
                    IntRange::between((modulus.low + 1).min(0), (modulus.high - 1).max(0)).union(range(1))
                }
            }
            // ⌊x÷c (lowering's floor division of large ints through doubles): within one of x÷c.
            Op::Floor | Op::Ceil => match args[0].without_site() {
                Expr::Prim(Op::DivD, quotient) => match (&quotient[0], &quotient[1]) {
                    (Expr::Prim(Op::I2D, int), Expr::Double(divisor)) if divisor.is_finite() && *divisor >= 1.0 => {
                        let value = self.range_of(&int[0]);
                        let low = (value.low as f64 / divisor).floor() as i128 - 1;
                        let high = (value.high as f64 / divisor).ceil() as i128 + 1;
                        IntRange::between(low, high).within_ints()
                    }
                    _ => IntRange::ANY,
                },
                _ => IntRange::ANY,
            },
            Op::DivI => match args[1].as_int() {
                Some(divisor) if divisor > 0 => {
                    let (value, divisor) = (range(0), i128::from(divisor));
                    IntRange::between(value.low.div_euclid(divisor), value.high.div_euclid(divisor))
                }
                _ => IntRange::ANY,
            },
            Op::AndI | Op::OrI | Op::XorI | Op::NotI | Op::ShlI | Op::ShrI | Op::SharI => int32,
            Op::PopCount => IntRange::between(0, 32),
            Op::Roll => IntRange::between(1, range(0).high.max(1)),
            _ => IntRange::ANY,
        }
    }

    /// The range of the index of a loop with this count: 0 ≤ i ≤ count - 1.
    fn index_range(&self, count: &Expr) -> IntRange {
        let count = self.range_of(count);
        IntRange::between(0, (count.high - 1).max(0))
    }
}

/// The most runs of an addition to an accumulating mutable that [`Accumulation`] bounds.
const RUNS_LIMIT: i128 = 1 << 62;

/// What is known of a mutable int whose every assignment accumulates (a sequential fold's accumulator, `acc := x +
/// acc`): at any time its value is a *base* (its first value, a value an assignment set, or a value a maximum or
/// minimum chose) plus the terms added since. Each addition runs at most as often as the loops between the declaration
/// and it allow (the product of their counts; the declaration starts over each time it runs), so the sum of its terms
/// is within that many times its term's range, from 0. Hence the range: the hull of the bases plus those sums.
struct Accumulation {
    /// The depth of the loop stack at the declaration.
    loop_depth: usize,
    /// The assignments the walk has not reached yet.
    remaining: usize,
    bases: IntRange,
    /// The sum of the additions' ranges times their run counts (None: an addition in a `while`, or in loops too long
    /// for the sum to stay small).
    increments: Option<IntRange>,
    /// Whether an addition wraps (`addw`: its exact range must fit) rather than being checked (`addi`: a sum that
    /// does not fit stops the program, so every value seen is an int).
    wraps: bool,
}

impl Accumulation {
    fn range(&self) -> Option<IntRange> {
        let exact = self.bases.add(self.increments?);
        Some(if self.wraps {
            exact.wrapped()
        } else {
            exact.within_ints()
        })
    }
}

/// One assignment `var := value` of an accumulating mutable.
enum AccumulationStep<'a> {
    /// A value that does not read the mutable.
    Set(&'a Expr),
    /// The mutable plus `term` (which does not read it).
    Add { term: &'a Expr, wraps: bool },
    /// The maximum or minimum of the mutable and a value that does not read it.
    Extreme(&'a Expr),
}

fn accumulation_step<'a>(var: &Var, value: &'a Expr) -> Option<AccumulationStep<'a>> {
    let reads_var = |expr: &Expr| {
        let mut read = std::collections::HashSet::new();
        crate::loops::rewrite::variables_of(expr, &mut read);
        read.contains(&var.id)
    };
    if !reads_var(value) {
        return Some(AccumulationStep::Set(value));
    }
    let Expr::Prim(op, arguments) = value.without_site() else {
        return None;
    };
    let [x, y] = arguments.as_slice() else {
        return None;
    };
    let other = match (x, y) {
        (Expr::Var(read), other) | (other, Expr::Var(read)) if read == var && !reads_var(other) => other,
        _ => return None,
    };
    match op {
        Op::AddW | Op::AddI => Some(AccumulationStep::Add {
            term: other,
            wraps: *op == Op::AddW,
        }),
        Op::MaxI | Op::MinI => Some(AccumulationStep::Extreme(other)),
        _ => None,
    }
}

/// The wrapping operation that computes a checked one when it does not overflow.
fn wrapping_form(op: Op) -> Option<Op> {
    match op {
        Op::AddI => Some(Op::AddW),
        Op::SubI => Some(Op::SubW),
        Op::MulI => Some(Op::MulW),
        Op::NegI => Some(Op::NegW),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loops::parser::parse_program;
    use crate::loops::printer::print_program;

    fn rewritten(text: &str) -> String {
        let mut program = parse_program(text).expect("parses");
        remove_overflow_checks(&mut program.body);
        print_program(&program)
    }

    #[test]
    fn arithmetic_on_loop_indices_and_small_values_loses_its_checks() {
        let text = "alloc mem1 : int[10]\nfor i2 < 10 {\n  let x3 : int = addi(i2, 1)\n  let y4 : int = muli(x3, x3)\n  store mem1[i2] = subi(y4, b2i(tt))\n}\nresult mem1 : int[10]\n";
        let printed = rewritten(text);
        assert!(printed.contains("let x3 : int = (i2 + 1)"), "{printed}");
        assert!(printed.contains("let y4 : int = (x3 * x3)"), "{printed}");
        assert!(printed.contains("store mem1[i2] = (y4 - b2i(tt))"), "{printed}");
    }

    #[test]
    fn arithmetic_that_may_overflow_keeps_its_checks() {
        let text = "alloc mem1 : int[10]\nfor i2 < 10 {\n  let x3 : int = mem1[i2]\n  store mem1[i2] = addi(x3, 1)\n}\nresult mem1 : int[10]\n";
        assert!(rewritten(text).contains("addi(x3, 1)"));
        // An index can be as large as 2^63 - 2, so doubling it may overflow; adding one cannot.
        let text = "var n1 : int = 5\nfor i2 < n1 {\n  let x3 : int = muli(i2, 2)\n  let y4 : int = addi(i2, 1)\n  print(10) addi(x3, y4)\n}\nresult 0\n";
        let printed = rewritten(text);
        assert!(printed.contains("muli(i2, 2)"), "{printed}");
        assert!(printed.contains("(i2 + 1)"), "{printed}");
        assert!(printed.contains("addi(x3, y4)"), "{printed}");
        assert!(rewritten("print(10) negi((-9223372036854775807 - 1))\nresult 0\n").contains("negi("));
        assert!(rewritten("print(10) negi(-9223372036854775807)\nresult 0\n").contains("negw("));
    }

    #[test]
    fn sums_of_small_elements_become_wrapping_reductions() {
        let booleans = "alloc mem1 : bool[7]\nreduce acc2 : int = addi(0) commutative for k3 < 7 {\n  yield b2i(mem1[k3])\n}\nprint(10) acc2\nresult 0\n";
        assert!(rewritten(booleans).contains("= addw(0)"));
        let ints = "alloc mem1 : int[7]\nreduce acc2 : int = addi(0) commutative for k3 < 7 {\n  yield mem1[k3]\n}\nprint(10) acc2\nresult 0\n";
        assert!(rewritten(ints).contains("= addi(0)"));
    }

    #[test]
    fn a_select_narrows_the_ranges_in_its_arms() {
        // In the second arm w ≥ 1, so w - 1 cannot overflow whatever w is; in the first w < 1 and w - 1 can.
        let text = "alloc mem1 : int[3]\nlet w2 : int = mem1[0]\nprint(10) ((w2 < 1) ? 0 : subi(w2, 1))\nprint(10) ((w2 < 1) ? subi(w2, 1) : 0)\nresult 0\n";
        let printed = rewritten(text);
        assert!(printed.contains("((w2 < 1) ? 0 : (w2 - 1))"), "{printed}");
        assert!(printed.contains("((w2 < 1) ? subi(w2, 1) : 0)"), "{printed}");
    }

    /// The ranges of the values the program stores into each block.
    fn stored(text: &str) -> HashMap<u32, IntRange> {
        let mut program = parse_program(text).expect("parses");
        let mut ranges = IntRanges::recording_stores(HashMap::new());
        ranges.rewrite_statements(&mut program.body);
        ranges.stored_ranges()
    }

    #[test]
    fn an_accumulator_is_bounded_by_its_start_and_its_additions_times_their_runs() {
        // A sequential fold of 25 booleans times 2^24 after a start of 0 or 2^25, per row (the packed words of a
        // boolean inner product have this form).
        let fold =
            "alloc mem1 : int[10]\nparfor r2 < 10 {\n  var acc3 : int = 0\n  acc3 := (b2i((r2 < 5)) * 33554432)\n  \
                    for k4 < 25 {\n    let x5 : int = (b2i((k4 < r2)) * 16777216)\n    acc3 := (x5 + acc3)\n  }\n  \
                    store mem1[r2] = acc3\n}\nprint(10) mem1[0]\nresult 0\n";
        assert_eq!(stored(fold)[&1], IntRange::between(0, 33554432 + 25 * 16777216));
        // mem1 holds a maximum, its start or a value (0..7), and a checked sum of 3 × 4 terms in ¯1..2 from its start
        // of 5 (¯7..29).
        let extremes = "alloc mem1 : int[2]\nvar m2 : int = 7\nvar s3 : int = 5\nfor i4 < 3 {\n  for k5 < 4 {\n    \
                        m2 := maxi(m2, k5)\n    s3 := addi(s3, ((b2i((k5 < 2)) * 3) - 1))\n  }\n}\n\
                        store mem1[0] = m2\nstore mem1[1] = s3\nprint(10) mem1[0]\nresult 0\n";
        assert_eq!(stored(extremes)[&1], IntRange::between(-7, 29));
    }

    #[test]
    fn accumulators_read_before_their_last_addition_or_grown_in_a_while_are_any_int() {
        // The store reads the accumulator inside the loop, before the addition the walk has not reached: any int.
        let before = "alloc mem1 : int[4]\nvar acc2 : int = 0\nfor i3 < 4 {\n  store mem1[i3] = acc2\n  \
                      acc2 := (acc2 + 1)\n}\nprint(10) mem1[0]\nresult 0\n";
        assert_eq!(stored(before)[&1], IntRange::ANY);
        let unbounded = "alloc mem1 : int[1]\nvar acc2 : int = 0\nwhile (acc2 < 10) {\n  acc2 := (acc2 + 1)\n}\n\
                         store mem1[0] = acc2\nprint(10) mem1[0]\nresult 0\n";
        assert_eq!(stored(unbounded)[&1], IntRange::ANY);
        // Doubling is not an accumulation.
        let doubling = "alloc mem1 : int[1]\nvar acc2 : int = 1\nfor i3 < 4 {\n  acc2 := (acc2 + acc2)\n}\n\
                        store mem1[0] = acc2\nprint(10) mem1[0]\nresult 0\n";
        assert_eq!(stored(doubling)[&1], IntRange::ANY);
    }

    #[test]
    fn an_if_narrows_no_mutable_that_its_branch_may_assign() {
        // In the branch the test said n < 100, but n has doubled since: the store may be 198 (or any int: n is not
        // an accumulator).
        let text = "alloc mem1 : int[1]\nvar n2 : int = 1\nfor i3 < 10 {\n  if (n2 < 100) {\n    n2 := (n2 * 2)\n    \
                    store mem1[0] = n2\n  }\n}\nprint(10) mem1[0]\nresult 0\n";
        assert!(stored(text)[&1].high >= 198, "{:?}", stored(text)[&1]);
    }

    #[test]
    fn int_reductions_are_bounded_by_their_count_and_elements() {
        // mem2 holds a sum of 6 booleans (0..6) and a maximum of at least one of 0, 3, ..., 15.
        let text =
            "alloc mem1 : bool[6]\nalloc mem2 : int[2]\nreduce acc3 : int = addi(0) commutative for k4 < 6 {\n  \
                    yield b2i(mem1[k4])\n}\nreduce acc5 : int = maxi(-9223372036854775808) commutative for k6 < 6 {\n  \
                    yield (k6 * 3)\n}\nstore mem2[0] = acc3\nstore mem2[1] = acc5\nprint(10) mem2[0]\nresult 0\n";
        assert_eq!(stored(text)[&2], IntRange::between(0, 15));
    }

    #[test]
    fn interval_arithmetic_is_exact_at_the_int_limits() {
        let max = IntRange::exactly(i64::MAX);
        assert!(max.add(IntRange::exactly(0)).fits());
        assert!(!max.add(IntRange::exactly(1)).fits());
        assert!(!IntRange::exactly(i64::MIN).neg().fits());
        assert!(IntRange::ANY.mul(IntRange::ANY).high > INT_MAX);
        assert_eq!(IntRange::between(-3, 2).abs(), IntRange::between(0, 3));
    }
}
