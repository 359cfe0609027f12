//! Inlining of `let`s (digest §2.9). `let x = e in body` is replaced by `body` with `e` in place of `x` when
//!
//! 1. `e` is a variable, an operator name or a literal scalar (copying it costs nothing; allowed anywhere, also
//!    inside lambdas), or a literal vector of at most 8 elements and no use is inside a lambda; or
//! 2. `x` is used exactly once, not inside a lambda (a lambda body runs once per element or iteration, or not at all,
//!    so moving `e` there would recompute it or change whether it runs; this also keeps `e` out of `power` loop
//!    bodies), and not as the source argument of `reshape` (a materialisation boundary, digest §4.2: reshape
//!    re-reads its source cyclically, so the backend would recompute an inlined expression per element).
//!
//! Moving `e` to its use delays its evaluation past everything that body evaluates before the use. That preserves
//! the program's errors and effects when `e` is safe (`safety.rs`), or when everything evaluated before the use is
//! safe; otherwise the `let` stays.
//!
//! The pass first makes binders unique, so that a moved expression cannot be captured.

use super::safety::is_safe;
use super::traverse::{
    children, count_uses, is_literal_vector, is_scalar_literal, make_binders_unique, map_children, mentions, substitute,
};
use crate::tail::ast::{Expr, ExprKind, Program};

/// The longest literal vector copied to several uses.
pub const MAX_COPIED_VECTOR_LENGTH: usize = 8;

/// The pass.
pub fn inline_lets(program: Program) -> Program {
    program.map_bodies(|body| inline(make_binders_unique(body)))
}

/// Inlines in `expr`.
fn inline(expr: Expr) -> Expr {
    let span = expr.span;
    match expr.kind {
        ExprKind::Let { name, ty, value, body } => {
            let value = inline(*value);
            let body = inline(*body);
            if should_inline(&name, &value, &body) {
                substitute(body, &name, &value)
            } else {
                Expr::new(
                    ExprKind::Let {
                        name,
                        ty,
                        value: Box::new(value),
                        body: Box::new(body),
                    },
                    span,
                )
            }
        }
        kind => map_children(Expr::new(kind, span), inline),
    }
}

fn should_inline(name: &str, value: &Expr, body: &Expr) -> bool {
    let uses = count_uses(body, name);
    if uses.count == 0 {
        return false;
    }
    let free_to_copy = matches!(value.kind, ExprKind::Var(_) | ExprKind::OpRef(_)) || is_scalar_literal(value);
    let small_vector = is_literal_vector(value)
        && matches!(&value.kind, ExprKind::Vector { elements, .. } if elements.len() <= MAX_COPIED_VECTOR_LENGTH);
    if free_to_copy || (small_vector && !uses.under_lambda) {
        return true;
    }
    uses.count == 1
        && !uses.under_lambda
        && !uses.as_reshape_source
        && (is_safe(value) || evaluation_before_use_is_safe(body, name))
}

/// Whether everything `expr` evaluates before it reads the variable `name` is safe (`name` occurs once, outside
/// lambdas). Evaluation is left to right, a `let` value before its body.
fn evaluation_before_use_is_safe(expr: &Expr, name: &str) -> bool {
    if matches!(&expr.kind, ExprKind::Var(variable) if variable == name) {
        return true;
    }
    for child in children(expr) {
        if mentions(child, name) {
            return evaluation_before_use_is_safe(child, name);
        }
        if !is_safe(child) {
            return false;
        }
    }
    // Not reached when `name` occurs in `expr`.
    false
}
