//! Fewer not-a-finite-number checks inside loops with deferred checks (see the module documentation of `translate.rs`).
//!
//! No value of a running program is NaN or ∞: every operation that makes one from finite numbers stops the program.
//! Inside a loop nest whose checks are deferred, the failures are or-ed into flags tested after the nest, so only
//! whether some check failed matters, not which one or when. The operations below give NaN or ∞ whenever the argument
//! in a propagating position is NaN or ∞ (or fail a check of their own), so the check of a value whose every use is
//! such an argument is implied by the checks of those uses, and is left out:
//! - a nested argument (`addd(subd(x, y), z)`: only the `addd` is checked);
//! - a `let` whose every use in the loop nest is such an argument (the reduction step `acc := addd(x, acc)` counts:
//!   its check is the one on the final accumulator, and so does the element of a nested `reduce` with `addd` or
//!   `muld`, which its chunks fold that way).
//!
//! With checks left out, an argument may be an unchecked NaN or ∞, so inside such loops a check looks at the result
//! only (not "NaN or ∞ from finite numbers"): by the invariant, such an argument there is always one whose check was
//! left out.

use std::collections::{HashMap, HashSet};

use crate::loops::ir::{Expr, Stmt};
use crate::tail::ast::Op;

/// Whether the result of `op` is NaN or ∞ when its argument at `position` is (or `op` fails a check of its own then),
/// and the result is checked. `∞+x`, `∞-x`, `∞×x` (NaN for x = 0), `√∞` and `ln ∞` are ∞ or NaN, and so is `∞÷x`,
/// but `x÷∞` is 0: a divisor keeps its check. `negd` and `absd` propagate too but are never checked themselves
/// (they cannot make a NaN or ∞ from finite numbers), so their arguments keep their checks.
pub(super) fn propagates_non_finite(op: Op, position: usize) -> bool {
    match op {
        Op::AddD | Op::SubD | Op::MulD | Op::Sqrt | Op::Ln => true,
        Op::DivD => position == 0,
        _ => false,
    }
}

/// The `let`-bound variables of a loop nest used at least once and only as propagating arguments
/// ([`propagates_non_finite`]).
pub(super) fn lets_checked_by_their_uses(body: &[Stmt]) -> HashSet<u32> {
    let mut uses = UseCounts::default();
    let mut defined = Vec::new();
    count_statement_uses(body, &mut uses, &mut defined);
    defined
        .into_iter()
        .filter(|id| {
            let propagating = uses.propagating.get(id).copied().unwrap_or(0);
            propagating > 0 && !uses.other.contains(id)
        })
        .collect()
}

#[derive(Default)]
struct UseCounts {
    /// Uses as a direct propagating argument.
    propagating: HashMap<u32, usize>,
    /// Variables with any other use.
    other: HashSet<u32>,
}

fn count_statement_uses(statements: &[Stmt], uses: &mut UseCounts, defined: &mut Vec<u32>) {
    for statement in statements {
        match statement {
            Stmt::Let { var, value } => {
                if var.ty == crate::loops::ir::ScalarType::Double {
                    defined.push(var.id);
                }
                count_expression_uses(value, false, uses);
            }
            Stmt::Mutable { value, .. } | Stmt::Assign { value, .. } => count_expression_uses(value, false, uses),
            Stmt::Store { index, value, .. } => {
                count_expression_uses(index, false, uses);
                count_expression_uses(value, false, uses);
            }
            Stmt::For { count, body, .. } | Stmt::ParallelFor { count, body, .. } => {
                count_expression_uses(count, false, uses);
                count_statement_uses(body, uses, defined);
            }
            Stmt::ParallelReduce {
                reduction,
                count,
                body,
                element,
                ..
            } => {
                count_expression_uses(&reduction.neutral, false, uses);
                count_expression_uses(count, false, uses);
                count_statement_uses(body, uses, defined);
                // Each element is folded as `part := op(part, element)`, whose accumulator is checked once per chunk.
                count_expression_uses(element, propagates_non_finite(reduction.op, 1), uses);
            }
            Stmt::While { condition, body } => {
                count_expression_uses(condition, false, uses);
                count_statement_uses(body, uses, defined);
            }
            Stmt::If {
                condition,
                then,
                otherwise,
            } => {
                count_expression_uses(condition, false, uses);
                count_statement_uses(then, uses, defined);
                count_statement_uses(otherwise, uses, defined);
            }
            // Statements without nested statements: every expression they evaluate is an ordinary use.
            other => crate::loops::ir::statement_expressions(other)
                .into_iter()
                .for_each(|expression| count_expression_uses(expression, false, uses)),
        }
    }
}

fn count_expression_uses(expr: &Expr, as_propagating_argument: bool, uses: &mut UseCounts) {
    match expr {
        Expr::Var(var) if as_propagating_argument => *uses.propagating.entry(var.id).or_default() += 1,
        Expr::Var(var) => {
            uses.other.insert(var.id);
        }
        Expr::Prim(op, args) => args
            .iter()
            .enumerate()
            .for_each(|(position, arg)| count_expression_uses(arg, propagates_non_finite(*op, position), uses)),
        Expr::Load { index, .. } => count_expression_uses(index, false, uses),
        Expr::Select(condition, then, otherwise) => {
            count_expression_uses(condition, false, uses);
            count_expression_uses(then, false, uses);
            count_expression_uses(otherwise, false, uses);
        }
        Expr::At(_, inner) => count_expression_uses(inner, as_propagating_argument, uses),
        Expr::Threshold { value, .. } => count_expression_uses(value, false, uses),
        Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) => {}
    }
}
