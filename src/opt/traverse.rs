//! Generic traversals of TAIL expressions shared by the optimiser passes: visiting and rebuilding children, free
//! variables, use counts, substitution, fresh names and renaming of shadowing binders.
//!
//! Passes may replace an expression by one of a more precise type (a literal `5` is `S(int,5)`, not `[int]0`)
//! anywhere: the type checker applies subsumption to operator arguments, vector elements and `let` values, and gives
//! the state of `power`, `powerUntil` and `condScl` the type of its value without known values.

use crate::tail::ast::{Expr, ExprKind, Op};
use std::collections::{BTreeSet, HashSet};

/// The direct subexpressions in evaluation order (left to right; a `let` value before its body).
pub fn children(expr: &Expr) -> Vec<&Expr> {
    match &expr.kind {
        ExprKind::Vector { elements, .. } => elements.iter().collect(),
        ExprKind::Op { args, .. } | ExprKind::Call { args, .. } => args.iter().collect(),
        ExprKind::Let { value, body, .. } => vec![value, body],
        ExprKind::Lambda { body, .. } => vec![body],
        ExprKind::Tuple(components) => components.iter().collect(),
        ExprKind::Project { tuple, .. } => vec![tuple],
        ExprKind::Int(_)
        | ExprKind::Double(_)
        | ExprKind::Bool(_)
        | ExprKind::Char(_)
        | ExprKind::Complex(..)
        | ExprKind::Var(_)
        | ExprKind::OpRef(_) => vec![],
    }
}

/// Rebuilds an expression with every direct child replaced by `rewrite(child)` (children in evaluation order).
pub fn map_children(expr: Expr, mut rewrite: impl FnMut(Expr) -> Expr) -> Expr {
    let span = expr.span;
    let kind = match expr.kind {
        ExprKind::Vector { elements, element_type } => ExprKind::Vector {
            elements: elements.into_iter().map(&mut rewrite).collect(),
            element_type,
        },
        ExprKind::Op { op, args } => ExprKind::Op {
            op,
            args: args.into_iter().map(&mut rewrite).collect(),
        },
        ExprKind::Call { function, args } => ExprKind::Call {
            function,
            args: args.into_iter().map(&mut rewrite).collect(),
        },
        ExprKind::Let { name, ty, value, body } => {
            let value = rewrite(*value);
            let body = rewrite(*body);
            ExprKind::Let {
                name,
                ty,
                value: Box::new(value),
                body: Box::new(body),
            }
        }
        ExprKind::Lambda { parameter, ty, body } => ExprKind::Lambda {
            parameter,
            ty,
            body: Box::new(rewrite(*body)),
        },
        ExprKind::Tuple(components) => ExprKind::Tuple(components.into_iter().map(&mut rewrite).collect()),
        ExprKind::Project { index, tuple } => ExprKind::Project {
            index,
            tuple: Box::new(rewrite(*tuple)),
        },
        leaf => leaf,
    };
    Expr::new(kind, span)
}

/// The variables that occur free in `expr`.
pub fn free_variables(expr: &Expr) -> BTreeSet<String> {
    fn collect(expr: &Expr, bound: &mut Vec<String>, free: &mut BTreeSet<String>) {
        match &expr.kind {
            ExprKind::Var(name) => {
                if !bound.contains(name) {
                    free.insert(name.clone());
                }
            }
            ExprKind::Let { name, value, body, .. } => {
                collect(value, bound, free);
                bound.push(name.clone());
                collect(body, bound, free);
                bound.pop();
            }
            ExprKind::Lambda { parameter, body, .. } => {
                bound.push(parameter.clone());
                collect(body, bound, free);
                bound.pop();
            }
            _ => children(expr).into_iter().for_each(|child| collect(child, bound, free)),
        }
    }
    let mut free = BTreeSet::new();
    collect(expr, &mut Vec::new(), &mut free);
    free
}

/// Whether `name` occurs free in `expr`.
pub fn mentions(expr: &Expr, name: &str) -> bool {
    count_uses(expr, name).count > 0
}

/// How a variable is used in an expression (free occurrences only).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Uses {
    /// The number of free occurrences.
    pub count: usize,
    /// Whether some occurrence is inside a lambda (evaluated once per call, or not at all).
    pub under_lambda: bool,
    /// Whether some occurrence is the source argument of `reshape`, a materialisation boundary (digest §4.2: reshape
    /// re-reads its source cyclically, so an expression there would be recomputed per element).
    pub as_reshape_source: bool,
}

/// The uses of the free variable `name` in `expr`.
pub fn count_uses(expr: &Expr, name: &str) -> Uses {
    let mut uses = Uses::default();
    count_uses_at(expr, name, false, false, &mut uses);
    uses
}

fn count_uses_at(expr: &Expr, name: &str, under_lambda: bool, reshape_source: bool, uses: &mut Uses) {
    match &expr.kind {
        ExprKind::Var(variable) if variable == name => {
            uses.count += 1;
            uses.under_lambda |= under_lambda;
            uses.as_reshape_source |= reshape_source;
        }
        ExprKind::Let {
            name: bound,
            value,
            body,
            ..
        } => {
            count_uses_at(value, name, under_lambda, false, uses);
            if bound != name {
                count_uses_at(body, name, under_lambda, false, uses);
            }
        }
        // A lambda whose parameter is `name` hides it.
        ExprKind::Lambda { parameter, body, .. } if parameter != name => {
            count_uses_at(body, name, true, false, uses);
        }
        ExprKind::Op { op, args } => {
            for (position, arg) in args.iter().enumerate() {
                let source = *op == Op::Reshape && position + 1 == args.len();
                count_uses_at(arg, name, under_lambda, source, uses);
            }
        }
        ExprKind::Vector { elements, .. } => {
            for element in elements {
                count_uses_at(element, name, under_lambda, false, uses);
            }
        }
        ExprKind::Tuple(components) => {
            for component in components {
                count_uses_at(component, name, under_lambda, false, uses);
            }
        }
        ExprKind::Project { tuple, .. } => count_uses_at(tuple, name, under_lambda, false, uses),
        ExprKind::Call { args, .. } => {
            for arg in args {
                count_uses_at(arg, name, under_lambda, false, uses);
            }
        }
        _ => {}
    }
}

/// Replaces every free occurrence of `name` in `expr` by `replacement`. The caller guarantees that no binder inside
/// `expr` captures a free variable of `replacement` (every pass that substitutes first makes binders unique).
pub fn substitute(expr: Expr, name: &str, replacement: &Expr) -> Expr {
    match &expr.kind {
        ExprKind::Var(variable) if variable == name => {
            let mut result = replacement.clone();
            if result.span == Default::default() {
                result.span = expr.span;
            }
            result
        }
        ExprKind::Let { name: bound, .. } if bound == name => {
            // The body is out of reach; only the value can mention the outer variable.
            let ExprKind::Let {
                name: bound,
                ty,
                value,
                body,
            } = expr.kind
            else {
                unreachable!("matched a let")
            };
            Expr::new(
                ExprKind::Let {
                    name: bound,
                    ty,
                    value: Box::new(substitute(*value, name, replacement)),
                    body,
                },
                expr.span,
            )
        }
        ExprKind::Lambda { parameter, .. } if parameter == name => expr,
        _ => map_children(expr, |child| substitute(child, name, replacement)),
    }
}

/// Every name bound or used anywhere in `expr`.
pub fn all_names(expr: &Expr) -> HashSet<String> {
    fn collect(expr: &Expr, names: &mut HashSet<String>) {
        match &expr.kind {
            ExprKind::Var(name) => {
                names.insert(name.clone());
            }
            ExprKind::Let { name, .. } => {
                names.insert(name.clone());
            }
            ExprKind::Lambda { parameter, .. } => {
                names.insert(parameter.clone());
            }
            _ => {}
        }
        children(expr).into_iter().for_each(|child| collect(child, names));
    }
    let mut names = HashSet::new();
    collect(expr, &mut names);
    names
}

/// A supply of variable names that occur nowhere in the program (`o1`, `o2`, ... skipping taken ones).
pub struct NameSupply {
    taken: HashSet<String>,
    next: usize,
}

impl NameSupply {
    pub fn for_expr(expr: &Expr) -> NameSupply {
        NameSupply {
            taken: all_names(expr),
            next: 1,
        }
    }

    pub fn fresh(&mut self) -> String {
        loop {
            let candidate = format!("o{}", self.next);
            self.next += 1;
            if self.taken.insert(candidate.clone()) {
                return candidate;
            }
        }
    }
}

/// Renames binders so that no binder shadows another binder or a free variable of the program. After this, moving an
/// expression into the scope of other binders cannot capture its variables. Programs whose binders are already unique
/// come back unchanged.
pub fn make_binders_unique(expr: Expr) -> Expr {
    let mut supply = NameSupply::for_expr(&expr);
    let mut seen: HashSet<String> = free_variables(&expr).into_iter().collect();
    rename_shadowing(expr, &mut seen, &mut supply)
}

fn rename_shadowing(expr: Expr, seen: &mut HashSet<String>, supply: &mut NameSupply) -> Expr {
    let span = expr.span;
    match expr.kind {
        ExprKind::Let { name, ty, value, body } => {
            let value = rename_shadowing(*value, seen, supply);
            let (name, body) = fresh_binder(name, *body, seen, supply);
            let body = rename_shadowing(body, seen, supply);
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
        ExprKind::Lambda { parameter, ty, body } => {
            let (parameter, body) = fresh_binder(parameter, *body, seen, supply);
            let body = rename_shadowing(body, seen, supply);
            Expr::new(
                ExprKind::Lambda {
                    parameter,
                    ty,
                    body: Box::new(body),
                },
                span,
            )
        }
        kind => map_children(Expr::new(kind, span), |child| rename_shadowing(child, seen, supply)),
    }
}

/// Keeps the binder's name when it is new, otherwise renames it (and its occurrences in `body`) to a fresh name.
fn fresh_binder(name: String, body: Expr, seen: &mut HashSet<String>, supply: &mut NameSupply) -> (String, Expr) {
    if seen.insert(name.clone()) {
        return (name, body);
    }
    let fresh = supply.fresh();
    seen.insert(fresh.clone());
    let body = substitute(body, &name, &Expr::synthetic(ExprKind::Var(fresh.clone())));
    (fresh, body)
}

/// Whether every binder in `expr` has a name of its own (no shadowing).
pub fn binders_are_unique(expr: &Expr) -> bool {
    fn check(expr: &Expr, seen: &mut HashSet<String>) -> bool {
        let fresh = match &expr.kind {
            ExprKind::Let { name, .. } => seen.insert(name.clone()),
            ExprKind::Lambda { parameter, .. } => seen.insert(parameter.clone()),
            _ => true,
        };
        fresh && children(expr).into_iter().all(|child| check(child, seen))
    }
    let mut seen: HashSet<String> = free_variables(expr).into_iter().collect();
    check(expr, &mut seen)
}

/// A literal scalar (int, double, bool, char, complex).
pub fn is_scalar_literal(expr: &Expr) -> bool {
    matches!(
        expr.kind,
        ExprKind::Int(_) | ExprKind::Double(_) | ExprKind::Bool(_) | ExprKind::Char(_) | ExprKind::Complex(..)
    )
}

/// A vector literal whose elements are all scalar literals.
pub fn is_literal_vector(expr: &Expr) -> bool {
    matches!(&expr.kind, ExprKind::Vector { elements, .. } if elements.iter().all(is_scalar_literal))
}

/// The ints of a literal int vector.
pub fn literal_ints(expr: &Expr) -> Option<Vec<i64>> {
    match &expr.kind {
        ExprKind::Vector { elements, .. } => elements
            .iter()
            .map(|element| match element.kind {
                ExprKind::Int(value) => Some(value),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// A literal int vector `[v1,...,vn]` (the empty one carries its element type).
pub fn int_vector_literal(values: &[i64]) -> Expr {
    Expr::synthetic(ExprKind::Vector {
        elements: values.iter().map(|v| Expr::synthetic(ExprKind::Int(*v))).collect(),
        element_type: Some(crate::tail::ast::BaseType::Int),
    })
}

/// `op(args)` as a synthetic expression.
pub fn op_call(op: Op, args: Vec<Expr>) -> Expr {
    Expr::synthetic(ExprKind::Op { op, args })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tail::parser::parse_expr;
    use crate::tail::print_expr;

    fn expr(text: &str) -> Expr {
        parse_expr(text).expect("parses")
    }

    #[test]
    fn shadowing_binders_are_renamed_and_their_uses_follow() {
        let renamed = make_binders_unique(expr("let x = 1 in let x = addi(x,1) in each(fn x => addi(x,1), x)"));
        assert_eq!(
            print_expr(&renamed),
            "let x = 1 in\nlet o1 = addi(x,1) in\neach(fn o2 => addi(o2,1),o1)"
        );
        assert!(binders_are_unique(&renamed));
        // A binder may not shadow a free variable either.
        let renamed = make_binders_unique(expr("addi(y, let y = 2 in y)"));
        assert_eq!(print_expr(&renamed), "addi(y,let o1 = 2 in\no1)");
    }

    #[test]
    fn substitution_stops_at_binders_of_the_same_name() {
        let replaced = substitute(expr("addi(x, let x = x in x)"), "x", &expr("5"));
        assert_eq!(print_expr(&replaced), "addi(5,let x = 5 in\nx)");
    }

    #[test]
    fn uses_record_lambdas_and_reshape_sources() {
        let uses = count_uses(&expr("addi(x, first(reshape([2], x)))"), "x");
        assert_eq!(uses.count, 2);
        assert!(uses.as_reshape_source && !uses.under_lambda);
        let uses = count_uses(&expr("power(fn y => x, 2, 0)"), "x");
        assert!(uses.under_lambda && !uses.as_reshape_source);
        let uses = count_uses(&expr("each(fn y => x, z)"), "x");
        assert!(uses.under_lambda);
        assert_eq!(count_uses(&expr("each(fn x => x, z)"), "x").count, 0);
    }
}
