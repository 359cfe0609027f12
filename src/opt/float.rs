//! Let-floating, in both directions.
//!
//! **Outwards** (loop-invariant code motion):
//! - A `let` in a lambda body whose value does not depend on the lambda's parameters (nor on `let`s of the body
//!   that stay) is floated out of the lambda, in front of the operator the lambda is passed to, so it is computed
//!   once instead of once per element or iteration (`each`, `reduce`, `power`, ...). The value must be safe
//!   (`safety.rs`): after floating it is evaluated even when the lambda is never called (an empty array, `power` with
//!   0 iterations), and before the operator's other arguments.
//! - A `let` in an operator argument is lifted in front of the operator when its value is safe, and a `let` in a
//!   `let` value is flattened: `let x = (let y = e1 in e2) in b` → `let y = e1 in let x = e2 in b` (same evaluation
//!   order, so always). Together these bring floated `let`s to the top of the enclosing lambda body, from where they
//!   float further out.
//!
//! **Inwards**: along a chain of `let`s, `let x = e` sinks past the `let`s that do not use `x`, down to the first
//! one whose value uses it (or to the chain's final expression). Sinking `x` past `y` swaps the evaluation of their
//! values, so one of the two must be safe. A `let` whose variable is not used does not move (dead-code elimination
//! decides about it). From there, a safe `let` used only in one branch of a `condScl` goes into that branch when no
//! other lambda is on the way: the values floated out of a conditional that did not leave the loop around it go
//! back, computed only when their branch runs. Otherwise it never enters a `let` value, an operator argument or a
//! lambda.
//!
//! Both directions need unique binders, which the pass establishes first.

use super::safety::{is_safe, is_safe_in};
use super::shapes::{shape_of, shape_of_type, ShapeEnvironment};
use super::traverse::{children, free_variables, make_binders_unique, map_children, mentions};
use crate::tail::ast::{Expr, ExprKind, Op, Program, Type};
use std::collections::HashSet;

/// The pass.
pub fn float_lets(program: Program) -> Program {
    program.map_bodies(|body| {
        let body = make_binders_unique(body);
        let body = float_outwards(body, &mut ShapeEnvironment::default());
        sink_lets(body)
    })
}

/// A `let` binding taken out of its place: name, annotation and value.
struct Binding {
    name: String,
    ty: Option<Type>,
    value: Expr,
}

impl Binding {
    /// `let name = value in body`.
    fn around(self, body: Expr, span: crate::source::Span) -> Expr {
        Expr::new(
            ExprKind::Let {
                name: self.name,
                ty: self.ty,
                value: Box::new(self.value),
                body: Box::new(body),
            },
            span,
        )
    }
}

fn wrap(bindings: Vec<Binding>, body: Expr) -> Expr {
    bindings.into_iter().rev().fold(body, |body, binding| {
        let span = binding.value.span;
        binding.around(body, span)
    })
}

/// Floats `let`s outwards in `expr`; `shapes` knows the static shapes of the variables in scope (for `index`, which
/// is safe when its position is known to be inside the array).
fn float_outwards(expr: Expr, shapes: &mut ShapeEnvironment) -> Expr {
    let span = expr.span;
    match expr.kind {
        ExprKind::Let { name, ty, value, body } => {
            let value = float_outwards(*value, shapes);
            let shape = shape_of(&value, shapes).or_else(|| ty.as_ref().and_then(shape_of_type));
            shapes.push(&name, shape);
            let body = float_outwards(*body, shapes);
            shapes.pop();
            flatten_let(name, ty, value, body, span)
        }
        ExprKind::Lambda { parameter, ty, body } => {
            shapes.push(&parameter, ty.as_ref().and_then(shape_of_type));
            let body = float_outwards(*body, shapes);
            shapes.pop();
            Expr::new(
                ExprKind::Lambda {
                    parameter,
                    ty,
                    body: Box::new(body),
                },
                span,
            )
        }
        ExprKind::Op { op, args } => {
            let mut floated = Floated::default();
            let args: Vec<Expr> = args
                .into_iter()
                .map(|arg| {
                    let arg = float_outwards(arg, shapes);
                    if matches!(arg.kind, ExprKind::Lambda { .. }) {
                        hoist_invariants(arg, &mut floated, shapes)
                    } else {
                        lift_safe_lets(arg, &mut floated, shapes)
                    }
                })
                .collect();
            for _ in &floated.bindings {
                shapes.pop();
            }
            wrap(floated.bindings, Expr::new(ExprKind::Op { op, args }, span))
        }
        kind => map_children(Expr::new(kind, span), |child| float_outwards(child, shapes)),
    }
}

/// The bindings floated in front of one operator application.
#[derive(Default)]
struct Floated {
    bindings: Vec<Binding>,
}

impl Floated {
    /// Records a floated binding; its variable's shape is in `shapes` until the operator is rebuilt.
    fn add(&mut self, binding: Binding, shapes: &mut ShapeEnvironment) {
        let shape = shape_of(&binding.value, shapes).or_else(|| binding.ty.as_ref().and_then(shape_of_type));
        shapes.push(&binding.name, shape);
        self.bindings.push(binding);
    }
}

/// `let name = value in body`, with the `let`s at the top of `value` moved in front.
fn flatten_let(name: String, ty: Option<Type>, value: Expr, body: Expr, span: crate::source::Span) -> Expr {
    match value.kind {
        ExprKind::Let {
            name: inner_name,
            ty: inner_ty,
            value: inner_value,
            body: inner_body,
        } => {
            let rest = flatten_let(name, ty, *inner_body, body, span);
            Expr::new(
                ExprKind::Let {
                    name: inner_name,
                    ty: inner_ty,
                    value: inner_value,
                    body: Box::new(rest),
                },
                value.span,
            )
        }
        kind => Expr::new(
            ExprKind::Let {
                name,
                ty,
                value: Box::new(Expr::new(kind, value.span)),
                body: Box::new(body),
            },
            span,
        ),
    }
}

/// Takes the safe `let`s off the top of an operator argument.
fn lift_safe_lets(arg: Expr, floated: &mut Floated, shapes: &mut ShapeEnvironment) -> Expr {
    match arg.kind {
        ExprKind::Let { name, ty, value, body } if is_safe_in(&value, shapes) => {
            let binding = Binding {
                name,
                ty,
                value: *value,
            };
            floated.add(binding, shapes);
            lift_safe_lets(*body, floated, shapes)
        }
        kind => Expr::new(kind, arg.span),
    }
}

/// Takes the loop-invariant safe `let`s out of the body of a (curried) lambda.
fn hoist_invariants(lambda: Expr, floated: &mut Floated, shapes: &mut ShapeEnvironment) -> Expr {
    let mut bound_inside = HashSet::new();
    hoist_from_lambda(lambda, &mut bound_inside, floated, shapes)
}

fn hoist_from_lambda(
    expr: Expr,
    bound_inside: &mut HashSet<String>,
    floated: &mut Floated,
    shapes: &mut ShapeEnvironment,
) -> Expr {
    let span = expr.span;
    match expr.kind {
        ExprKind::Lambda { parameter, ty, body } => {
            bound_inside.insert(parameter.clone());
            let body = hoist_from_lambda(*body, bound_inside, floated, shapes);
            Expr::new(
                ExprKind::Lambda {
                    parameter,
                    ty,
                    body: Box::new(body),
                },
                span,
            )
        }
        ExprKind::Let { name, ty, value, body } => {
            let invariant =
                free_variables(&value).iter().all(|v| !bound_inside.contains(v)) && is_safe_in(&value, shapes);
            if invariant {
                let binding = Binding {
                    name,
                    ty,
                    value: *value,
                };
                floated.add(binding, shapes);
                hoist_from_lambda(*body, bound_inside, floated, shapes)
            } else {
                bound_inside.insert(name.clone());
                let body = hoist_from_lambda(*body, bound_inside, floated, shapes);
                Expr::new(
                    ExprKind::Let {
                        name,
                        ty,
                        value,
                        body: Box::new(body),
                    },
                    span,
                )
            }
        }
        kind => Expr::new(kind, span),
    }
}

fn sink_lets(expr: Expr) -> Expr {
    let span = expr.span;
    match expr.kind {
        ExprKind::Let { name, ty, value, body } => {
            let value = sink_lets(*value);
            let body = sink_lets(*body);
            sink(Binding { name, ty, value }, body, span)
        }
        kind => map_children(Expr::new(kind, span), sink_lets),
    }
}

/// Places `binding` as deep as it can go in the `let` chain `body`.
fn sink(binding: Binding, body: Expr, span: crate::source::Span) -> Expr {
    let used = mentions(&body, &binding.name);
    match body.kind {
        ExprKind::Let {
            name,
            ty,
            value,
            body: rest,
        } if used && !mentions(&value, &binding.name) && (is_safe(&binding.value) || is_safe(&value)) => {
            let rest = sink(binding, *rest, span);
            Expr::new(
                ExprKind::Let {
                    name,
                    ty,
                    value,
                    body: Box::new(rest),
                },
                body.span,
            )
        }
        kind => {
            let body = Expr::new(kind, body.span);
            if used && is_safe(&binding.value) && reaches_one_branch(&body, &binding.name) {
                return move_into_branch(binding, body);
            }
            binding.around(body, span)
        }
    }
}

/// Whether the only uses of `name` in `expr` are in one branch of a `condScl`, reached from `expr` through
/// subexpressions that each run once (no other lambda on the way). Floating outwards takes safe values out of
/// branches so that loop-invariant ones can leave the loop; one that stayed in the loop is cheaper back in its
/// branch, computed only when the branch runs (and visible there to the lowering's rewrites, such as `⌊x÷c`).
fn reaches_one_branch(expr: &Expr, name: &str) -> bool {
    let users: Vec<&Expr> = children(expr)
        .into_iter()
        .filter(|child| mentions(child, name))
        .collect();
    let [user] = users[..] else {
        return false;
    };
    match (&expr.kind, &user.kind) {
        (ExprKind::Op { op: Op::CondScl, args }, ExprKind::Lambda { .. }) => std::ptr::eq(&args[0], user),
        (_, ExprKind::Lambda { .. }) => false,
        _ => reaches_one_branch(user, name),
    }
}

/// Moves `binding` down the path that [`reaches_one_branch`] found, into the branch's body. The value is safe, so
/// evaluating it later, or not at all when the branch does not run, changes no error and no effect.
fn move_into_branch(binding: Binding, expr: Expr) -> Expr {
    let span = expr.span;
    let into_lambda = matches!(expr.kind, ExprKind::Lambda { .. });
    let name = binding.name.clone();
    let mut binding = Some(binding);
    map_children(expr, |child| match binding.take() {
        // The branch's body: the binding sinks along its `let`s from its top.
        Some(moving) if into_lambda => sink(moving, child, span),
        Some(moving) if mentions(&child, &name) => move_into_branch(moving, child),
        other => {
            binding = other;
            child
        }
    })
}
