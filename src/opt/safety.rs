//! Which expressions the optimiser may drop, move or duplicate: the *effect* and *may fail* predicates.
//!
//! An expression is **safe** when evaluating it has no effect (no printing, no file or clock access, no use of the
//! random generator), cannot raise an APL error (DOMAIN, LENGTH, RANK, INDEX, ...), and terminates. Only safe
//! expressions may be dropped (dead-code elimination), evaluated when they were not before (floating out of a lambda
//! that may never be called), or moved past other computations that are not safe themselves.
//!
//! The rule is deliberately conservative: an operator is safe only if it is in the list below, where each entry was
//! checked against the reference interpreter (`src/tail/interp.rs`, `array_ops.rs`, `scalar_ops.rs`). Everything
//! else may fail; for example double `addd` may fail because `inf + ~inf` is NaN, which the interpreter reports as a
//! DOMAIN ERROR, and `zipWith` may fail because its arguments can have different shapes (LENGTH ERROR).
//!
//! Effectful operators (never safe): `print`, `readFile`, `readIntVecFile`, `readDoubleVecFile` (host I/O), `nowi`
//! (reads the clock) and `roll` (advances the random generator, so dropping or reordering one changes later values).
//! `powerUntil` may not terminate, so it is never safe either.

use super::traverse::literal_ints;
use crate::tail::ast::{Expr, ExprKind, Op};

/// Operators with an observable effect on the host or on interpreter state.
pub fn is_effectful(op: Op) -> bool {
    matches!(
        op,
        Op::Print | Op::ReadFile | Op::ReadIntVecFile | Op::ReadDoubleVecFile | Op::NowI | Op::Roll
    )
}

/// Whether evaluating `expr` is safe (no effect, no error, terminates).
pub fn is_safe(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Int(_)
        | ExprKind::Double(_)
        | ExprKind::Bool(_)
        | ExprKind::Char(_)
        | ExprKind::Complex(..)
        | ExprKind::Var(_)
        | ExprKind::OpRef(_)
        // Building a closure evaluates nothing.
        | ExprKind::Lambda { .. } => true,
        ExprKind::Vector { elements, .. } => elements.iter().all(is_safe),
        ExprKind::Let { value, body, .. } => is_safe(value) && is_safe(body),
        ExprKind::Tuple(components) => components.iter().all(is_safe),
        // Well-typed projections always find their component.
        ExprKind::Project { tuple, .. } => is_safe(tuple),
        ExprKind::Op { op, args } => args.iter().all(is_safe) && op_application_is_safe(*op, args),
    }
}

/// Whether applying the function value `function` (an operator name or a lambda) to any well-typed arguments is safe.
pub fn function_is_safe(function: &Expr) -> bool {
    match &function.kind {
        ExprKind::OpRef(op) => op_is_safe_for_any_arguments(*op),
        ExprKind::Lambda { body, .. } => match &body.kind {
            // A curried lambda: the inner lambda is applied too.
            ExprKind::Lambda { .. } => function_is_safe(body),
            _ => is_safe(body),
        },
        _ => false,
    }
}

/// Whether applying the function value `function` may have an effect (it mentions an effectful operator, or it is
/// not a literal function, so nothing is known about it). Failing is not an effect here.
pub fn function_may_have_effects(function: &Expr) -> bool {
    match &function.kind {
        ExprKind::OpRef(op) => is_effectful(*op),
        ExprKind::Lambda { body, .. } => mentions_effects(body),
        _ => true,
    }
}

/// Whether an effectful operator (or an unknown function applied by an operator) occurs in `expr`.
fn mentions_effects(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Op { op, args } => {
            is_effectful(*op)
                || args.iter().any(|arg| match &arg.kind {
                    ExprKind::Var(_) if takes_function_argument(*op) => true,
                    _ => mentions_effects(arg),
                })
        }
        ExprKind::OpRef(op) => is_effectful(*op),
        _ => super::traverse::children(expr).into_iter().any(mentions_effects),
    }
}

/// Operators whose first argument is a function they apply.
fn takes_function_argument(op: Op) -> bool {
    matches!(
        op,
        Op::Each | Op::EachV | Op::ZipWith | Op::Reduce | Op::Scan | Op::Power | Op::PowerUntil | Op::CondScl
    )
}

/// Whether `op(args)` is safe once its (safe) arguments are values.
fn op_application_is_safe(op: Op, args: &[Expr]) -> bool {
    if args.len() != op.arity() {
        return false;
    }
    if op_is_safe_for_any_arguments(op) {
        return true;
    }
    match op {
        // Higher-order operators are safe when the functions they apply are.
        Op::Each | Op::EachV | Op::Reduce | Op::Scan | Op::Power | Op::CondScl => function_is_safe(&args[0]),
        // A literal non-negative count cannot be a DOMAIN ERROR.
        Op::Iota => matches!(args[0].kind, ExprKind::Int(n) if n >= 0),
        // A literal shape with non-negative extents.
        Op::Reshape => literal_ints(&args[0]).is_some_and(|extents| extents.iter().all(|e| *e >= 0)),
        // A literal permutation of 1..n (the type makes n the rank of the argument).
        Op::Transpose2 => literal_ints(&args[0]).is_some_and(|axes| is_permutation(&axes)),
        // Double arithmetic with a finite literal operand cannot turn non-NaN values into NaN, except that
        // `inf × 0` is NaN, so a multiplication needs a non-zero literal and a division a non-zero divisor.
        Op::AddD | Op::SubD => has_finite_double_literal(args, |_| true),
        Op::MulD => has_finite_double_literal(args, |x| x != 0.0),
        Op::DivD => matches!(args[1].kind, ExprKind::Double(y) if y.is_finite() && y != 0.0),
        _ => false,
    }
}

fn has_finite_double_literal(args: &[Expr], also: impl Fn(f64) -> bool) -> bool {
    args.iter()
        .any(|arg| matches!(arg.kind, ExprKind::Double(x) if x.is_finite() && also(x)))
}

/// Whether `axes` is a permutation of 1..n.
pub fn is_permutation(axes: &[i64]) -> bool {
    let mut seen = vec![false; axes.len()];
    axes.iter().all(|&axis| {
        let fits = axis >= 1 && (axis as usize) <= seen.len() && !seen[axis as usize - 1];
        if fits {
            seen[axis as usize - 1] = true;
        }
        fits
    })
}

/// Operators that can neither fail nor have an effect, whatever their (well-typed) arguments.
fn op_is_safe_for_any_arguments(op: Op) -> bool {
    use Op::*;
    matches!(
        op,
        // Int arithmetic wraps on overflow; residue by 0 is defined (`0|y` is y).
        AddI | SubI | MulI | ResI | MinI | MaxI | AndI | OrI | XorI
            | NegI | AbsI | SignI | NotI
            // Doubles: these cannot produce NaN from non-NaN arguments (and no value is NaN).
            | MinD | MaxD | NegD | AbsD | SignD
            | AddX | SubX | NegX | ConjX | RealX | ImagX | MakeX | MagnitudeX
            // Comparisons and booleans.
            | LtI | LteI | GtI | GteI | EqI | NeqI
            | LtD | LteD | GtD | GteD | EqD | NeqD
            | LtC | LteC | GtC | GteC | EqC | NeqC | EqX | NeqX
            | AndB | OrB | XorB | NandB | NorB | EqB | NotB
            // Conversions that cannot go out of range.
            | I2D | B2I | B2IV | D2X | C2I
            | Zilde | Pi
            // Structure: total on every well-typed argument (static types rule out the shape errors of the V forms).
            | IotaV | Shape | ShapeV | Ravel | Tally
            | Reverse | VReverse | VReverseV | Rotate | RotateV | VRotate | VRotateV | Transpose
            | Take | Drop | TakeV | DropV | TakeLastV | DropLastV
            | First | FirstV | CatV | ConsV | SnocV
            | IndexOf | Member
            | Mem
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tail::parser::parse_expr;

    fn safe(text: &str) -> bool {
        is_safe(&parse_expr(text).expect("parses"))
    }

    #[test]
    fn literals_variables_and_total_operators_are_safe() {
        assert!(safe("addi(x, 3)"));
        assert!(safe("[1,2,3]"));
        assert!(safe("shape(reshape([3,2], iotaV(5)))"));
        assert!(safe("each(fn v:[int]0 => addi(v,1), x)"));
        assert!(safe("muld(50.0, v)"));
        assert!(safe("transp2([2,1,3], x)"));
    }

    #[test]
    fn operators_that_can_raise_errors_or_have_effects_are_not_safe() {
        assert!(!safe("zipWith(addi, x, y)"));
        assert!(!safe("divi(x, 0)"));
        assert!(!safe("iota(n)"));
        assert!(!safe("iota(~1)"));
        assert!(!safe("reshape(s, x)"));
        assert!(!safe("reshape([~1], x)"));
        assert!(!safe("transp2([1,1], x)"));
        assert!(!safe("print(3)"));
        assert!(!safe("roll(6)"));
        assert!(!safe("addd(x, y)"));
        assert!(!safe("muld(0.0, x)"));
        assert!(!safe("each(fn v:[int]0 => divi(1,v), x)"));
        assert!(!safe("cat(x, y)"));
        assert!(!safe("index(1, 4, x)"));
    }
}
