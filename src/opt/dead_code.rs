//! Dead-code elimination: `let x = e in body` becomes `body` when `x` is not used in `body` and `e` is safe
//! (`safety.rs`: no effect such as `print` or `readFile`, cannot fail, terminates). A dead `let` whose value may
//! raise an error stays, so that a dead `zipWith` of arrays of different lengths still fails with LENGTH ERROR.

use super::safety::is_safe;
use super::traverse::{map_children, mentions};
use crate::tail::ast::{Expr, ExprKind, Program};

/// The pass.
pub fn eliminate_dead_code(program: Program) -> Program {
    program.map_bodies(eliminate)
}

fn eliminate(expr: Expr) -> Expr {
    let span = expr.span;
    match expr.kind {
        ExprKind::Let { name, ty, value, body } => {
            let value = eliminate(*value);
            let body = eliminate(*body);
            if !mentions(&body, &name) && is_safe(&value) {
                body
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
        kind => map_children(Expr::new(kind, span), eliminate),
    }
}
