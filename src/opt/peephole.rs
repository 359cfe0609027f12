//! Peephole rules (digest §2.9, the thesis optimiser's local rewrites), applied bottom-up until none applies:
//!
//! - Transpositions: a chain of `transp` and `transp2` with literal axes is composed into one; the identity
//!   disappears (`transp(transp(e))` → `e`, `transp2([1,2,3],e)` → `e`), the axis reversal becomes `transp`
//!   (`transp2([2,1],e)` → `transp(e)`), and `transp(e)` of a scalar or vector (known shape) is `e`.
//! - Involutions: `reverse(reverse(e))`, `vreverse(vreverse(e))`, `vreverseV(vreverseV(e))` → `e`.
//! - `rotate(0,e)` (and `rotateV`, `vrotate`, `vrotateV`) → `e`; `mem(mem(e))` → `mem(e)`;
//!   `reshape(s,e)` → `e` when `e`'s static shape is the literal `s`.
//! - Fusion of element-wise maps (the composition is a new lambda):
//!   `each(f, each(g, e))` → `each(f∘g, e)` (also `eachV`, and `each` over `eachV`);
//!   `each(f, zipWith(g, a, b))` → `zipWith(f∘g, a, b)`;
//!   `zipWith(f, each(g, a), b)` and `zipWith(f, a, each(g, b))` → one `zipWith`.
//!
//! Errors are preserved: fusing interleaves the two functions element by element, which changes which error comes
//! first when both can fail (or print), so `each`/`zipWith` fusion needs one of the two functions to be safe
//! (`safety.rs`). (If one of them prints, the other is safe, so the
//! prints come in the same element order and no error interrupts them differently.) Folding `each(g, ·)` into `zipWith` moves `g` after the shape check of `zipWith`, so it needs `g`
//! safe. The transposition rules only fire on literal axis vectors that are permutations, so no DOMAIN or LENGTH
//! error is dropped (well-typed programs have as many axes as the rank).

use super::safety::{function_fails_only_by_double_domain, function_is_safe, is_permutation};
use super::shapes::{shape_of, shape_of_type, ShapeEnvironment};
use super::traverse::{int_vector_literal, literal_ints, make_binders_unique, op_call, substitute, NameSupply};
use crate::tail::ast::{Expr, ExprKind, Op, Program, Type};
use crate::tail::scalar_ops::is_scalar_op;

/// The pass.
pub fn simplify_peepholes(program: Program) -> Program {
    program.map_bodies(|body| {
        let body = make_binders_unique(body);
        let mut rewriter = Rewriter {
            shapes: ShapeEnvironment::default(),
            names: NameSupply::for_expr(&body),
        };
        rewriter.rewrite(body)
    })
}

struct Rewriter {
    shapes: ShapeEnvironment,
    names: NameSupply,
}

/// A bound on rule applications at one node (each rule makes the expression smaller, so this is never reached).
const MAX_REWRITES_PER_NODE: usize = 64;

impl Rewriter {
    fn rewrite(&mut self, expr: Expr) -> Expr {
        let span = expr.span;
        let expr = match expr.kind {
            ExprKind::Let { name, ty, value, body } => {
                let value = self.rewrite(*value);
                let shape = shape_of(&value, &mut self.shapes).or_else(|| ty.as_ref().and_then(shape_of_type));
                self.shapes.push(&name, shape);
                let body = self.rewrite(*body);
                self.shapes.pop();
                return Expr::new(
                    ExprKind::Let {
                        name,
                        ty,
                        value: Box::new(value),
                        body: Box::new(body),
                    },
                    span,
                );
            }
            ExprKind::Lambda { parameter, ty, body } => {
                self.shapes.push(&parameter, ty.as_ref().and_then(shape_of_type));
                let body = self.rewrite(*body);
                self.shapes.pop();
                return Expr::new(
                    ExprKind::Lambda {
                        parameter,
                        ty,
                        body: Box::new(body),
                    },
                    span,
                );
            }
            ExprKind::Op { op, args } => {
                let args = args.into_iter().map(|arg| self.rewrite(arg)).collect();
                Expr::new(ExprKind::Op { op, args }, span)
            }
            ExprKind::Vector { elements, element_type } => Expr::new(
                ExprKind::Vector {
                    elements: elements.into_iter().map(|e| self.rewrite(e)).collect(),
                    element_type,
                },
                span,
            ),
            ExprKind::Tuple(components) => Expr::new(
                ExprKind::Tuple(components.into_iter().map(|c| self.rewrite(c)).collect()),
                span,
            ),
            ExprKind::Project { index, tuple } => Expr::new(
                ExprKind::Project {
                    index,
                    tuple: Box::new(self.rewrite(*tuple)),
                },
                span,
            ),
            other => Expr::new(other, span),
        };
        let mut expr = expr;
        for _ in 0..MAX_REWRITES_PER_NODE {
            match self.apply_rule(expr) {
                Ok(rewritten) => expr = rewritten,
                Err(unchanged) => return unchanged,
            }
        }
        expr
    }

    /// One rule at the root of `expr`: `Ok(rewritten)` or `Err(expr)` when none applies.
    fn apply_rule(&mut self, expr: Expr) -> Result<Expr, Expr> {
        let ExprKind::Op { op, args } = &expr.kind else {
            return Err(expr);
        };
        let rewritten = match (op, args.as_slice()) {
            (Op::Transpose | Op::Transpose2, _) => self.simplify_transposition(&expr),
            (Op::Reverse, [inner]) => unwrap_same(Op::Reverse, inner),
            (Op::VReverse, [inner]) => unwrap_same(Op::VReverse, inner),
            (Op::VReverseV, [inner]) => unwrap_same(Op::VReverseV, inner),
            (Op::Rotate | Op::RotateV | Op::VRotate | Op::VRotateV, [count, array]) => {
                matches!(count.kind, ExprKind::Int(0)).then(|| array.clone())
            }
            (Op::Mem, [inner]) => matches!(&inner.kind, ExprKind::Op { op: Op::Mem, .. }).then(|| inner.clone()),
            (Op::Reshape, [shape, array]) => self.drop_identity_reshape(shape, array),
            (Op::Each, [f, inner]) => self.fuse_each(Op::Each, f, inner),
            (Op::EachV, [f, inner]) => self.fuse_each(Op::EachV, f, inner),
            (Op::ZipWith, [f, left, right]) => self.fuse_into_zip(f, left, right),
            _ => None,
        };
        match rewritten {
            Some(mut rewritten) => {
                if rewritten.span == Default::default() {
                    rewritten.span = expr.span;
                }
                Ok(rewritten)
            }
            None => Err(expr),
        }
    }
}

/// `op(op(e))` → `e`.
fn unwrap_same(op: Op, inner: &Expr) -> Option<Expr> {
    match &inner.kind {
        ExprKind::Op { op: inner_op, args } if *inner_op == op => Some(args[0].clone()),
        _ => None,
    }
}

/// A transposition: `transp` (reverse all axes, of any rank) or `transp2` with literal axes (1-based, APL's
/// convention: source axis i becomes result axis `axes[i]`).
#[derive(Clone, Debug, PartialEq)]
enum Transposition {
    Reverse,
    Axes(Vec<i64>),
}

impl Transposition {
    fn of(expr: &Expr) -> Option<(Transposition, &Expr)> {
        match &expr.kind {
            ExprKind::Op {
                op: Op::Transpose,
                args,
            } => Some((Transposition::Reverse, &args[0])),
            ExprKind::Op {
                op: Op::Transpose2,
                args,
            } => {
                let axes = literal_ints(&args[0]).filter(|axes| is_permutation(axes))?;
                Some((Transposition::Axes(axes), &args[1]))
            }
            _ => None,
        }
    }

    fn axes(&self, rank: usize) -> Vec<i64> {
        match self {
            Transposition::Reverse => (1..=rank as i64).rev().collect(),
            Transposition::Axes(axes) => axes.clone(),
        }
    }

    fn rank(&self) -> Option<usize> {
        match self {
            Transposition::Reverse => None,
            Transposition::Axes(axes) => Some(axes.len()),
        }
    }

    /// `outer` after `self`, for two transpositions of which at least one has literal axes: with B = transp2(q, A)
    /// and C = transp2(p, B), source axis i of A is result axis `p[q[i]]` of C.
    fn then(&self, outer: &Transposition) -> Option<Transposition> {
        let rank = self.rank().or(outer.rank())?;
        let inner = self.axes(rank);
        let outer = outer.axes(rank);
        Some(Transposition::Axes(
            inner.iter().map(|q| outer[*q as usize - 1]).collect(),
        ))
    }

    fn is_identity(&self) -> bool {
        matches!(self, Transposition::Axes(axes) if axes.iter().enumerate().all(|(i, a)| *a == i as i64 + 1))
    }

    fn is_reversal(&self) -> bool {
        match self {
            Transposition::Reverse => true,
            Transposition::Axes(axes) => *axes == (1..=axes.len() as i64).rev().collect::<Vec<_>>(),
        }
    }
}

impl Rewriter {
    /// `reshape(s, e)` → `e` when `e` statically has the shape `s`.
    fn drop_identity_reshape(&mut self, shape: &Expr, array: &Expr) -> Option<Expr> {
        let wanted = literal_ints(shape)?;
        let known = shape_of(array, &mut self.shapes)?;
        (known.len() == wanted.len() && known.iter().zip(&wanted).all(|(k, w)| *k as i64 == *w)).then(|| array.clone())
    }

    fn simplify_transposition(&mut self, expr: &Expr) -> Option<Expr> {
        let (outer, inner_expr) = Transposition::of(expr)?;
        let (combined, source, composed) = match Transposition::of(inner_expr) {
            // Two reversals of all axes cancel whatever the rank.
            Some((Transposition::Reverse, source)) if outer == Transposition::Reverse => return Some(source.clone()),
            Some((inner, source)) => (inner.then(&outer)?, source, true),
            None => (outer, inner_expr, false),
        };
        let source_rank = shape_of(source, &mut self.shapes).map(|shape| shape.len());
        if combined.is_identity() || (combined == Transposition::Reverse && source_rank.is_some_and(|r| r <= 1)) {
            return Some(source.clone());
        }
        match combined {
            Transposition::Reverse => None,
            Transposition::Axes(_) if combined.is_reversal() => Some(op_call(Op::Transpose, vec![source.clone()])),
            Transposition::Axes(axes) if composed => {
                Some(op_call(Op::Transpose2, vec![int_vector_literal(&axes), source.clone()]))
            }
            Transposition::Axes(_) => None,
        }
    }
}

/// The parameter types of a function value with `arity` parameters: a lambda chain's annotations, or the scheme of
/// a scalar operator (monomorphic, e.g. `i2d : int -> double`).
fn parameter_types(function: &Expr, arity: usize) -> Option<Vec<Type>> {
    match &function.kind {
        ExprKind::OpRef(op) if is_scalar_op(*op) && op.arity() == arity => {
            let scheme = op.scheme();
            if !(scheme.base_variables.is_empty() && scheme.shape_variables.is_empty()) {
                return None;
            }
            let mut types = Vec::new();
            let mut ty = &scheme.body;
            while let Type::Function(parameter, result) = ty {
                types.push((**parameter).clone());
                ty = result;
            }
            Some(types)
        }
        ExprKind::Lambda { .. } => {
            let mut types = Vec::new();
            let mut current = function;
            for _ in 0..arity {
                let ExprKind::Lambda { ty, body, .. } = &current.kind else {
                    return None;
                };
                types.push(ty.clone()?);
                current = body;
            }
            Some(types)
        }
        _ => None,
    }
}

/// The body of `function` applied to `args` (beta reduction): a variable argument is substituted for the parameter,
/// any other argument is bound by a `let` with the parameter's annotation. Needs unique binders (see `traverse.rs`).
fn apply(function: &Expr, args: Vec<Expr>) -> Expr {
    match &function.kind {
        ExprKind::OpRef(op) => op_call(*op, args),
        _ => {
            // Peel one lambda per argument; the `let`s for non-variable arguments go around the innermost body, in
            // argument order (unique binders: no argument mentions a parameter name).
            let mut current = function.clone();
            let mut bindings = Vec::new();
            for arg in args {
                let ExprKind::Lambda { parameter, ty, body } = current.kind else {
                    unreachable!("parameter_types checked the lambda chain")
                };
                current = if matches!(arg.kind, ExprKind::Var(_)) {
                    substitute(*body, &parameter, &arg)
                } else {
                    bindings.push((parameter, ty, arg));
                    *body
                };
            }
            bindings.into_iter().rev().fold(current, |body, (name, ty, value)| {
                Expr::synthetic(ExprKind::Let {
                    name,
                    ty,
                    value: Box::new(value),
                    body: Box::new(body),
                })
            })
        }
    }
}

impl Rewriter {
    fn variable(&mut self) -> (String, Expr) {
        let name = self.names.fresh();
        let var = Expr::synthetic(ExprKind::Var(name.clone()));
        (name, var)
    }

    /// `fn x1:τ1 => ... fn xn:τn => body(x1..xn)`.
    fn lambda(&mut self, types: Vec<Type>, body: impl FnOnce(Vec<Expr>) -> Expr) -> Expr {
        let variables: Vec<(String, Expr)> = types.iter().map(|_| self.variable()).collect();
        let mut result = body(variables.iter().map(|(_, var)| var.clone()).collect());
        for ((name, _), ty) in variables.into_iter().zip(types).rev() {
            result = Expr::synthetic(ExprKind::Lambda {
                parameter: name,
                ty: Some(ty),
                body: Box::new(result),
            });
        }
        result
    }

    /// `each(f, each(g, e))` (or `eachV`, or `each` over `eachV`) → `each(f∘g, e)`, and
    /// `each(f, zipWith(g, a, b))` → `zipWith(f∘g, a, b)`.
    fn fuse_each(&mut self, outer_op: Op, f: &Expr, inner: &Expr) -> Option<Expr> {
        let ExprKind::Op { op: inner_op, args } = &inner.kind else {
            return None;
        };
        parameter_types(f, 1)?;
        if !composable(f, &args[0]) {
            return None;
        }
        match (outer_op, inner_op) {
            (Op::Each, Op::Each | Op::EachV) | (Op::EachV, Op::EachV) => {
                let g = &args[0];
                let types = parameter_types(g, 1)?;
                let composed = self.lambda(types, |xs| apply(f, vec![apply(g, xs)]));
                let fused_op = if outer_op == Op::EachV { Op::EachV } else { Op::Each };
                Some(op_call(fused_op, vec![composed, args[1].clone()]))
            }
            (Op::Each, Op::ZipWith) => {
                let g = &args[0];
                let types = parameter_types(g, 2)?;
                let composed = self.lambda(types, |xs| apply(f, vec![apply(g, xs)]));
                Some(op_call(Op::ZipWith, vec![composed, args[1].clone(), args[2].clone()]))
            }
            _ => None,
        }
    }

    /// `zipWith(f, each(g, a), b)` → `zipWith(fn x => fn y => f(g(x), y), a, b)` and the mirror image, when g is safe
    /// (a failing g is not moved after zipWith's length check).
    fn fuse_into_zip(&mut self, f: &Expr, left: &Expr, right: &Expr) -> Option<Expr> {
        let f_types = parameter_types(f, 2)?;
        let each_function = |side: &Expr| match &side.kind {
            ExprKind::Op { op: Op::Each, args } if function_is_safe(&args[0]) => {
                parameter_types(&args[0], 1).map(|types| (args[0].clone(), types, args[1].clone()))
            }
            _ => None,
        };
        if let Some((g, g_types, source)) = each_function(left) {
            let types = vec![g_types[0].clone(), f_types[1].clone()];
            let composed = self.lambda(types, |xs| {
                let [x, y]: [Expr; 2] = xs.try_into().expect("two parameters");
                apply(f, vec![apply(&g, vec![x]), y])
            });
            return Some(op_call(Op::ZipWith, vec![composed, source, right.clone()]));
        }
        if let Some((g, g_types, source)) = each_function(right) {
            let types = vec![f_types[0].clone(), g_types[0].clone()];
            let composed = self.lambda(types, |xs| {
                let [x, y]: [Expr; 2] = xs.try_into().expect("two parameters");
                apply(f, vec![x, apply(&g, vec![y])])
            });
            return Some(op_call(Op::ZipWith, vec![composed, left.clone(), source]));
        }
        None
    }
}

/// Whether `f` may be applied right after `g` element by element instead of after all of `g`'s applications: one of
/// them cannot fail, or both can fail only with the DOMAIN ERROR of arithmetic (the same error either way).
fn composable(f: &Expr, g: &Expr) -> bool {
    function_is_safe(f)
        || function_is_safe(g)
        || (function_fails_only_by_double_domain(f) && function_fails_only_by_double_domain(g))
}
