//! Fewer not-a-real-number checks inside loops with deferred checks (see the module documentation of `translate.rs`).
//!
//! No value of a running program is NaN: every operation that makes one from numbers stops the program. Inside a
//! loop nest whose checks are deferred, the failures are or-ed into flags tested after the nest, so only whether some
//! check failed matters, not which one or when. The operations below give NaN whenever an argument is NaN (or fail a
//! check of their own), so the check of a value whose every use is an argument of one of them is implied by the
//! checks of those uses, and is left out:
//! - a nested argument (`addd(subd(x, y), z)`: only the `addd` is checked);
//! - a `let` whose every use in the loop nest is such an argument (the reduction step `acc := addd(x, acc)` counts:
//!   its check is the one on the final accumulator).
//!
//! With checks left out, an argument may be an unchecked NaN, so inside such loops a check looks at the result only
//! (`isnan(result)`, not "NaN from numbers"): by the invariant, a NaN argument there is always one whose check was
//! left out.

use std::collections::{HashMap, HashSet};

use crate::loops::ir::{Expr, Stmt};
use crate::tail::ast::Op;

/// Operations whose result is NaN when an argument is (or that fail a check of their own then) and whose result is
/// checked. `negd`, `absd` and `expd` propagate NaN too but are never checked themselves (they cannot make a NaN
/// from numbers), so their arguments keep their checks.
pub(super) fn propagates_nan(op: Op) -> bool {
    matches!(op, Op::AddD | Op::SubD | Op::MulD | Op::DivD | Op::Sqrt | Op::Ln)
}

/// The `let`-bound variables of a loop nest used at least once and only as arguments of NaN-propagating operations.
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
    /// Uses as a direct argument of a NaN-propagating operation.
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
                count_expression_uses(element, false, uses);
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
        Expr::Prim(op, args) => {
            let propagating = propagates_nan(*op);
            args.iter()
                .for_each(|arg| count_expression_uses(arg, propagating, uses));
        }
        Expr::Load { index, .. } => count_expression_uses(index, false, uses),
        Expr::Select(condition, then, otherwise) => {
            count_expression_uses(condition, false, uses);
            count_expression_uses(then, false, uses);
            count_expression_uses(otherwise, false, uses);
        }
        Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) => {}
    }
}
