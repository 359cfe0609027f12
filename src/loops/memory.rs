//! The bridge from the loop IR's layouts to the memory stage's LMADs (`crate::mem::lmad`): a [`Layout`] is already an
//! offset and one stride per axis over IR expressions, so it is an LMAD whenever those expressions are polynomials
//! in int variables (sums, differences and products of variables and constants), which is what lowering builds
//! (other index arithmetic, such as the start of a drop, is bound to a variable first).
//!
//! [`Stmt::View`](super::ir::Stmt::View) statements record, for every let-bound materialised array, the block it
//! lives in and this LMAD: the loop IR with its memory decorations, printed as `[n][m]@mem3 -> 0+{(n:m),(m:1)}`.

use super::ir::{Expr, Layout};
use crate::mem::{Dim, Lmad, Term};
use crate::tail::ast::Op;

/// The term of an int expression built from variables, constants, `+`, `-` and `*` (`None` otherwise, or on overflow).
pub fn term_of(expr: &Expr) -> Option<Term> {
    match expr {
        Expr::Int(n) => Some(Term::constant(*n)),
        Expr::Var(var) => Some(Term::variable(&var.name())),
        Expr::Prim(op, args) if args.len() == 2 => {
            let (a, b) = (term_of(&args[0])?, term_of(&args[1])?);
            match op {
                Op::AddW => a.checked_add(&b),
                Op::SubW => a.checked_sub(&b),
                Op::MulW => a.checked_mul(&b),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The LMAD of an array with this shape and layout.
pub fn lmad_of(shape: &[Expr], layout: &Layout) -> Option<Lmad> {
    let offset = term_of(&layout.offset)?;
    let dims = shape
        .iter()
        .zip(&layout.strides)
        .map(|(size, stride)| Some(Dim::new(term_of(size)?, term_of(stride)?)))
        .collect::<Option<Vec<Dim>>>()?;
    Some(Lmad::new(offset, dims))
}

/// `[n][m]@mem3 -> 0+{(n:m),(m:1)}`, or the layout's own expressions when it is not an LMAD.
pub fn annotation(block_name: &str, shape: &[Expr], layout: &Layout) -> String {
    let shape_terms: Option<Vec<Term>> = shape.iter().map(term_of).collect();
    match (lmad_of(shape, layout), shape_terms) {
        (Some(lmad), Some(shape_terms)) => lmad.format_array_annotation(block_name, &shape_terms),
        _ => {
            use super::printer::print_expr;
            let shape_text: String = shape.iter().map(|s| format!("[{}]", print_expr(s))).collect();
            let dims: Vec<String> = shape
                .iter()
                .zip(&layout.strides)
                .map(|(s, d)| format!("({}:{})", print_expr(s), print_expr(d)))
                .collect();
            format!(
                "{shape_text}@{block_name} -> ({})+{{{}}}",
                print_expr(&layout.offset),
                dims.join(",")
            )
        }
    }
}
