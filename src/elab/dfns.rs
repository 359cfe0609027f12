//! Dfns: inlined at each use with `⍺ ⍵ ⍺⍺ ⍵⍵ ∇ ∇∇` bound in the environment.
//!
//! A guard `c: r` becomes a TAIL conditional between `r` and the rest of the body (or is decided at compile time
//! when `c` is a constant, which is how recursion on constants unfolds). `⍺←v` binds `⍺` only in a monadic call.
//! Recursion that cannot be unfolded at compile time is reported as a NONCE ERROR once calls nest too deeply.

use super::env::{Arr, Closure, Fun, Scalar, Val};
use super::error::{ElabError, ElabResult};
use super::ir::{Expr, Type};
use super::operators::{rebuild_value, value_expr, value_type};
use super::{Elaborator, Entry, MAX_CALL_DEPTH};
use crate::source::Span;
use crate::syntax::ast::{AssignTarget, Statement, StatementKind};
use std::rc::Rc;

impl Elaborator {
    pub fn call_dfn(&mut self, closure: &Closure, left: Option<Val>, right: Val, span: Span) -> ElabResult<Val> {
        if self.call_depth >= MAX_CALL_DEPTH {
            return Err(
                ElabError::nonce(span, "recursion that cannot be unfolded at compile time").with_hint(
                    "aplc inlines dfns; recursion works when its guards are decided by constants, or as a loop (⍣)",
                ),
            );
        }
        let right = self.bind_value(right);
        let left = left.map(|value| self.bind_value(value));
        let mut env = closure.env.clone();
        env = env.bind("⍵", right);
        if let Some(left) = left {
            env = env.bind("⍺", left);
        }
        if let Some((alpha_alpha, omega_omega)) = &closure.operands {
            env = env.bind("⍺⍺", alpha_alpha.clone());
            if let Some(omega_omega) = omega_omega {
                env = env.bind("⍵⍵", omega_omega.clone());
            }
        }
        env = env.bind("∇", Val::Function(Rc::new(Fun::Dfn(closure.clone(), closure.dfn.span))));
        if let Some(operator) = &closure.operator {
            env = env.bind("∇∇", Val::Operator(operator.clone()));
        }
        let saved_env = std::mem::replace(&mut self.env, env);
        self.call_depth += 1;
        let dfn = closure.dfn.clone();
        let result = self.dfn_body(&dfn.body, span);
        self.call_depth -= 1;
        self.env = saved_env;
        result
    }

    /// Elaborate statements from the first; the first expression that is not an assignment is the result.
    fn dfn_body(&mut self, statements: &[Statement], span: Span) -> ElabResult<Val> {
        let mut last_assigned: Option<Val> = None;
        for (position, statement) in statements.iter().enumerate() {
            match &statement.kind {
                StatementKind::Expr(expr) => {
                    if let Some(assignment) = &expr.assignment {
                        if expr.items.is_empty() && is_alpha_default(&assignment.target) {
                            // `⍺←v`: only when the dfn was called monadically.
                            if self.env.lookup("⍺").is_none() {
                                let value = self.expr(&assignment.value)?;
                                let value = self.bind_value(value);
                                self.env = self.env.bind("⍺", value);
                            }
                            continue;
                        }
                    }
                    let value = self.expr(expr)?;
                    let is_assignment = expr.assignment.is_some() && expr.items.is_empty();
                    if !is_assignment {
                        return Ok(value);
                    }
                    last_assigned = Some(value);
                }
                StatementKind::Guard { condition, result } => {
                    let condition_value = self.expr(condition)?;
                    let condition_array = self.expect_array(condition_value, condition.span)?;
                    let condition_array = self.guard_condition(condition_array, condition.span)?;
                    if let Some(decided) = condition_array.constant_scalar() {
                        if decided == Scalar::Bool(true) {
                            return self.expr(result);
                        }
                        continue;
                    }
                    let rest = &statements[position + 1..];
                    return self.conditional(
                        condition_array,
                        |this| this.expr(result),
                        |this| this.dfn_body(rest, span),
                        statement.span,
                    );
                }
            }
        }
        last_assigned.ok_or_else(|| ElabError::value(span, "the dfn ended without a result"))
    }

    /// A guard condition must be a boolean scalar (or a one-element array).
    fn guard_condition(&mut self, condition: Arr, span: Span) -> ElabResult<Arr> {
        let condition = if condition.rank == 1 && condition.extents[0] == Some(1) {
            self.first(condition)
        } else {
            condition
        };
        if condition.rank != 0 {
            return Err(ElabError::rank(span, "a guard condition must be a scalar"));
        }
        match condition.base {
            super::ir::Base::Bool => Ok(condition),
            super::ir::Base::Int => {
                let zero = Arr::scalar_constant(Scalar::Int(0));
                self.scalar_dyadic(crate::syntax::ast::Primitive::NotEqual, condition, zero, span)
            }
            _ => Err(ElabError::domain(span, "a guard condition must be 0 or 1")),
        }
    }

    /// `if condition then (then_branch) else (else_branch)`, each branch in its own scope, promoted to one type.
    pub fn conditional(
        &mut self,
        condition: Arr,
        then_branch: impl FnOnce(&mut Self) -> ElabResult<Val>,
        else_branch: impl FnOnce(&mut Self) -> ElabResult<Val>,
        span: Span,
    ) -> ElabResult<Val> {
        let condition = self.bind(condition);
        let (then_frame, then_value) = self.branch(then_branch)?;
        let (else_frame, else_value) = self.branch(else_branch)?;
        let then_type = value_type(&then_value, span)?;
        let else_type = value_type(&else_value, span)?;
        let target = join_types(&then_type, &else_type).ok_or_else(|| {
            ElabError::nonce(
                span,
                format!("a guard whose result ({then_type}) has another type than the rest of the dfn ({else_type})"),
            )
            .with_hint("both outcomes of a guard must have the same rank")
        })?;
        let then_expr = self.finish_branch(then_frame, then_value, &target, span)?;
        let else_expr = self.finish_branch(else_frame, else_value.clone(), &target, span)?;
        let expr = Expr::If(
            Box::new(condition.expr),
            Box::new(then_expr),
            Box::new(else_expr),
            target.clone(),
        );
        let like = super::operators::value_of_type(&target);
        let value = rebuild_value(expr, &like);
        Ok(self.bind_value(value))
    }

    fn branch(&mut self, body: impl FnOnce(&mut Self) -> ElabResult<Val>) -> ElabResult<(Vec<Entry>, Val)> {
        self.frames.push(Vec::new());
        let saved_env = self.env.clone();
        let result = body(self);
        self.env = saved_env;
        let frame = self.frames.pop().expect("the branch frame");
        Ok((frame, result?))
    }

    fn finish_branch(&mut self, frame: Vec<Entry>, value: Val, target: &Type, span: Span) -> ElabResult<Expr> {
        self.frames.push(frame);
        let converted = self.convert_value(value, target, span);
        let frame = self.frames.pop().expect("the branch frame");
        Ok(super::wrap_entries(frame, value_expr(&converted?)))
    }

    /// Convert a value up the lattice to a type of the same structure.
    pub fn convert_value(&mut self, value: Val, target: &Type, span: Span) -> ElabResult<Val> {
        match (value, target) {
            (Val::Array(array), Type::Array { base, .. }) => Ok(Val::Array(self.convert(array, *base, span)?)),
            (Val::Tuple(components), Type::Tuple(types)) => {
                let mut converted = Vec::new();
                for (component, component_type) in components.into_iter().zip(types) {
                    converted.push(self.convert_value(component, component_type, span)?);
                }
                Ok(Val::Tuple(converted))
            }
            (value, _) => Ok(value),
        }
    }
}

fn is_alpha_default(target: &AssignTarget) -> bool {
    matches!(target, AssignTarget::Alpha(_))
}

/// The least type both promote to (same structure and ranks, bases joined).
pub fn join_types(a: &Type, b: &Type) -> Option<Type> {
    match (a, b) {
        (Type::Array { base: x, rank: r }, Type::Array { base: y, rank: s }) if r == s => Some(Type::Array {
            base: x.join(*y)?,
            rank: *r,
        }),
        (Type::Tuple(xs), Type::Tuple(ys)) if xs.len() == ys.len() => Some(Type::Tuple(
            xs.iter()
                .zip(ys)
                .map(|(x, y)| join_types(x, y))
                .collect::<Option<Vec<_>>>()?,
        )),
        _ => None,
    }
}
