//! Which expressions the optimiser may drop, move or duplicate: the *effect* and *may fail* predicates.
//!
//! An expression is **safe** when evaluating it has no effect (no printing, no file or clock access, no use of the
//! random generator), cannot raise an APL error (DOMAIN, LENGTH, RANK, INDEX, ...), and terminates. Only safe
//! expressions may be dropped (dead-code elimination), evaluated when they were not before (floating out of a lambda
//! that may never be called), or moved past other computations that are not safe themselves.
//!
//! The rule is deliberately conservative: an operator is safe only if it is in the list below, where each entry was
//! checked against the reference interpreter (`src/tail/interp.rs`, `array_ops.rs`, `scalar_ops.rs`). Everything
//! else may fail; for example double `addd` may fail because `1e308 + 1e308` overflows to ∞, which the interpreter
//! reports as a DOMAIN ERROR, and `zipWith` may fail because its arguments can have different shapes (LENGTH ERROR).
//!
//! Some operators are safe only for some arguments: `iota` of a non-negative literal, `reshape` to a literal shape
//! of non-negative extents, `transp2` with a literal permutation, `index` at a literal axis and position inside a
//! statically known shape ([`is_safe_in`], given the shapes of the variables in scope), double arithmetic with a
//! literal operand small enough that it cannot overflow, and higher-order operators whose functions are safe.
//!
//! Effectful operators (never safe): `print`, `readFile`, `readIntVecFile`, `readDoubleVecFile` (host I/O), `nowi`
//! (reads the clock), `argInt` and `argDouble` (read the program's arguments), `bench` (reports a time) and `roll` (advances the random generator, so dropping or reordering one changes later values).
//! `powerUntil` may not terminate, so it is never safe either.

use super::shapes::{shape_of, shape_of_type, ShapeEnvironment};
use super::traverse::literal_ints;
use crate::tail::ast::{Expr, ExprKind, Op};

/// Operators with an observable effect on the host or on interpreter state.
pub fn is_effectful(op: Op) -> bool {
    matches!(
        op,
        Op::Print
            | Op::ReadFile
            | Op::ReadIntVecFile
            | Op::ReadDoubleVecFile
            | Op::NowI
            | Op::ArgInt
            | Op::ArgDouble
            | Op::Roll
            | Op::Bench
    )
}

/// Whether evaluating `expr` is safe (no effect, no error, terminates).
pub fn is_safe(expr: &Expr) -> bool {
    is_safe_in(expr, &mut ShapeEnvironment::default())
}

/// Like [`is_safe`], knowing the static shapes of variables in scope: `index(d, i, A)` is safe when `A`'s shape is
/// known and has an axis `d` of extent at least `i`.
pub fn is_safe_in(expr: &Expr, shapes: &mut ShapeEnvironment) -> bool {
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
        ExprKind::Vector { elements, .. } => elements.iter().all(|element| is_safe_in(element, shapes)),
        ExprKind::Let { name, ty, value, body } => {
            if !is_safe_in(value, shapes) {
                return false;
            }
            let shape = shape_of(value, shapes).or_else(|| ty.as_ref().and_then(shape_of_type));
            shapes.push(name, shape);
            let safe = is_safe_in(body, shapes);
            shapes.pop();
            safe
        }
        ExprKind::Tuple(components) => components.iter().all(|component| is_safe_in(component, shapes)),
        // Well-typed projections always find their component.
        ExprKind::Project { tuple, .. } => is_safe_in(tuple, shapes),
        ExprKind::Op { op, args } => {
            args.iter().all(|arg| is_safe_in(arg, shapes)) && op_application_is_safe(*op, args, shapes)
        }
        // A function's body may print, fail, or recurse too deeply (WS FULL).
        ExprKind::Call { .. } => false,
    }
}

/// Whether applying the function value `function` (an operator name or a lambda) to any well-typed arguments is safe.
pub fn function_is_safe(function: &Expr) -> bool {
    function_is_safe_in(function, &mut ShapeEnvironment::default())
}

fn function_is_safe_in(function: &Expr, shapes: &mut ShapeEnvironment) -> bool {
    match &function.kind {
        ExprKind::OpRef(op) => op_is_safe_for_any_arguments(*op),
        ExprKind::Lambda { parameter, ty, body } => {
            shapes.push(parameter, ty.as_ref().and_then(shape_of_type));
            let safe = match &body.kind {
                // A curried lambda: the inner lambda is applied too.
                ExprKind::Lambda { .. } => function_is_safe_in(body, shapes),
                _ => is_safe_in(body, shapes),
            };
            shapes.pop();
            safe
        }
        _ => false,
    }
}

/// Whether applying the function value `function` has no effect and can fail at most with the DOMAIN ERROR of
/// arithmetic (a double result that is not a finite real number, a division by zero, an int result beyond 64 bits).
/// Two such functions may be composed,
/// interleaving their failures: only the error's kind is observable, and it is the same (code generation's deferred
/// checks rely on this as well).
pub fn function_fails_only_by_double_domain(function: &Expr) -> bool {
    match &function.kind {
        ExprKind::OpRef(op) => op_fails_only_by_double_domain(*op),
        ExprKind::Lambda { body, .. } => match &body.kind {
            ExprKind::Lambda { .. } => function_fails_only_by_double_domain(body),
            _ => fails_only_by_double_domain(body),
        },
        _ => false,
    }
}

fn fails_only_by_double_domain(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Let { value, body, .. } => fails_only_by_double_domain(value) && fails_only_by_double_domain(body),
        ExprKind::Op { op, args } => {
            args.len() == op.arity()
                && op_fails_only_by_double_domain(*op)
                && args.iter().all(fails_only_by_double_domain)
        }
        _ => is_safe(expr),
    }
}

fn op_fails_only_by_double_domain(op: Op) -> bool {
    (op_is_safe_for_any_arguments(op) && !matches!(op, Op::Mem))
        || matches!(op, Op::AddD | Op::SubD | Op::MulD | Op::DivD | Op::PowD | Op::ExpD)
        // Int overflow, int division by zero and a floor or ceiling beyond the int range are the same DOMAIN ERROR,
        // decided by the values alone.
        || matches!(op, Op::AddI | Op::SubI | Op::MulI | Op::NegI | Op::AbsI | Op::DivI | Op::Floor | Op::Ceil)
}

/// Whether `op(args)` is safe once its (safe) arguments are values.
fn op_application_is_safe(op: Op, args: &[Expr], shapes: &mut ShapeEnvironment) -> bool {
    if args.len() != op.arity() {
        return false;
    }
    if op_is_safe_for_any_arguments(op) {
        return true;
    }
    match op {
        // Higher-order operators are safe when the functions they apply are.
        Op::Each | Op::EachV | Op::Reduce | Op::Scan | Op::Power | Op::CondScl => function_is_safe_in(&args[0], shapes),
        // A literal non-negative count cannot be a DOMAIN ERROR.
        Op::Iota => matches!(args[0].kind, ExprKind::Int(n) if n >= 0),
        // A literal shape with non-negative extents.
        Op::Reshape => literal_ints(&args[0]).is_some_and(|extents| extents.iter().all(|e| *e >= 0)),
        // A literal permutation of 1..n (the type makes n the rank of the argument).
        Op::Transpose2 => literal_ints(&args[0]).is_some_and(|axes| is_permutation(&axes)),
        // A literal axis and position inside the statically known shape.
        Op::Index => match (&args[0].kind, &args[1].kind) {
            (ExprKind::Int(axis), ExprKind::Int(position)) => shape_of(&args[2], shapes).is_some_and(|shape| {
                *axis >= 1
                    && (*axis as usize) <= shape.len()
                    && *position >= 1
                    && (*position as u64) <= shape[*axis as usize - 1]
            }),
            _ => false,
        },
        // APL's int arithmetic on literals that does not overflow (`muli(3,4)`).
        Op::AddI | Op::SubI | Op::MulI | Op::NegI | Op::AbsI => {
            let literals: Option<Vec<crate::tail::value::Scalar>> = args
                .iter()
                .map(|arg| match arg.kind {
                    ExprKind::Int(n) => Some(crate::tail::value::Scalar::Int(n)),
                    _ => None,
                })
                .collect();
            literals.is_some_and(|literals| crate::tail::scalar_ops::apply_scalar_op(op, &literals).is_ok())
        }
        // Double arithmetic on finite numbers with a literal operand that cannot make the result overflow to ∞ (no value
        // is NaN or ∞): adding less than half a unit in the last place of the largest double (2^970) rounds back to
        // it at most, multiplying by at most 1 and dividing by at least 1 do not grow the magnitude.
        Op::AddD | Op::SubD => has_double_literal(args, |x| x.abs() < 2f64.powi(970)),
        Op::MulD => has_double_literal(args, |x| x != 0.0 && x.abs() <= 1.0),
        Op::DivD => matches!(args[1].kind, ExprKind::Double(y) if y.abs() >= 1.0 && y.is_finite()),
        _ => false,
    }
}

fn has_double_literal(args: &[Expr], also: impl Fn(f64) -> bool) -> bool {
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
        // The compiler's wrapping arithmetic (APL's `+ - ×` on ints overflow: a DOMAIN ERROR); residue by 0 is
        // defined (`0|y` is y).
        AddW | SubW | MulW | NegW | ResI | MinI | MaxI | AndI | OrI | XorI
            | SignI | NotI | PopCount
            // Doubles: these cannot produce NaN or ∞ from finite arguments (and no value is NaN or ∞).
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
        assert!(safe("addw(x, 3)"));
        assert!(safe("[1,2,3]"));
        assert!(safe("shape(reshape([3,2], iotaV(5)))"));
        assert!(safe("each(fn v:[int]0 => addw(v,1), x)"));
        assert!(safe("muld(0.5, v)"));
        assert!(safe("addd(v, 1.0E10)"));
        assert!(safe("divd(v, ~3.0)"));
        assert!(safe("transp2([2,1,3], x)"));
        assert!(safe("index(1, 3, [1,2,3])"));
        assert!(safe("let m = reshape([2,3], x) in index(2, 3, m)"));
    }

    #[test]
    fn operators_that_can_raise_errors_or_have_effects_are_not_safe() {
        assert!(!safe("zipWith(addi, x, y)"));
        // APL's int arithmetic overflows: 9223372036854775807+1 is a DOMAIN ERROR.
        assert!(!safe("addi(x, 3)"));
        assert!(!safe("each(fn v:[int]0 => muli(v,2), x)"));
        assert!(!safe("divi(x, 0)"));
        assert!(!safe("iota(n)"));
        assert!(!safe("iota(~1)"));
        assert!(!safe("reshape(s, x)"));
        assert!(!safe("reshape([~1], x)"));
        assert!(!safe("transp2([1,1], x)"));
        assert!(!safe("print(10,3)"));
        assert!(!safe("roll(6)"));
        assert!(!safe("addd(x, y)"));
        assert!(!safe("muld(0.0, x)"));
        // These can overflow to ∞ (a DOMAIN ERROR): 1e308×50, 1e308+1e308, 1e308÷0.5.
        assert!(!safe("muld(50.0, v)"));
        assert!(!safe("addd(v, 1.0E308)"));
        assert!(!safe("divd(v, 0.5)"));
        assert!(!safe("each(fn v:[int]0 => divi(1,v), x)"));
        assert!(!safe("cat(x, y)"));
        assert!(!safe("index(1, 4, x)"));
        assert!(!safe("index(1, 4, [1,2,3])"));
        assert!(!safe("index(2, 1, [1,2,3])"));
    }
}
