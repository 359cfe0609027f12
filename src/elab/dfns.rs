//! Dfns: inlined at each use with `⍺ ⍵ ⍺⍺ ⍵⍵ ∇ ∇∇` bound in the environment.
//!
//! A guard `c: r` becomes a TAIL conditional between `r` and the rest of the body (or is decided at compile time
//! when `c` is a constant, which is how recursion on constants unfolds). `⍺←v` binds `⍺` only in a monadic call.
//! Recursion that cannot be unfolded at compile time (calls nest too deeply) becomes a loop when every recursive call
//! is a tail call, and otherwise a recursive function ([`FunctionDef`], TAIL's `fun`) whose arguments and result are
//! arrays of a fixed rank each: its result type is found by elaborating the body on placeholders first (a recursive
//! call gives a value of the guessed result type, starting from a boolean scalar, until the guess is the body's
//! type), then the body is built with its recursive calls as `call`s. Values of the enclosing scope the body reads
//! become extra parameters.

use super::env::{Arr, Closure, Fun, Scalar, Val};
use super::error::{ElabError, ElabResult};
use super::ir::{Base, Expr, FunctionDef, Type};
use super::operators::{rebuild_value, value_expr, value_type};
use super::resolve::{Node, Resolver};
use super::{Elaborator, Entry, MAX_CALL_DEPTH};
use crate::source::Span;
use crate::syntax::ast::{AssignTarget, Statement, StatementKind};
use std::rc::Rc;

/// How an inlined call of a tail-recursive dfn is being compiled.
#[derive(Clone, Debug)]
pub enum LoopMode {
    /// Finding the types: each returned value's type and each tail call's argument types are recorded.
    Probe {
        results: Vec<Type>,
        calls: Vec<(Option<Type>, Type)>,
    },
    /// Building the loop body: a returned value gives a final state, a tail call the next state.
    Build(Box<LoopBuild>),
}

#[derive(Clone, Debug)]
pub struct LoopBuild {
    result_type: Type,
    alpha_type: Option<Type>,
    omega_type: Type,
    alpha: Option<Val>,
    omega: Val,
}

/// What probing a loop body found: the types of the returned values, and of the arguments of each tail call.
type ProbedTypes = (Vec<Type>, Vec<(Option<Type>, Type)>);

/// What probing a recursive function's body found: the type of its value, and of the arguments of each recursive
/// call.
type ProbedFunction = (Type, Vec<(Option<Type>, Type)>);

pub const RECURSION_MESSAGE: &str = "recursion that cannot be unfolded at compile time";

/// What identifies a function being inlined or built as a recursive function: its dfn's or tradfn's address.
pub type CalleeKey = *const ();

/// What a recursive function is built from: a dfn, or a traditional function (`tradfns.rs`).
#[derive(Clone, Copy)]
pub enum Recursive<'a> {
    Dfn(&'a Closure),
    Tradfn(&'a Rc<crate::syntax::ast::Tradfn>),
}

impl Recursive<'_> {
    pub fn key(self) -> CalleeKey {
        match self {
            Recursive::Dfn(closure) => Rc::as_ptr(&closure.dfn) as CalleeKey,
            Recursive::Tradfn(tradfn) => Rc::as_ptr(tradfn) as CalleeKey,
        }
    }

    /// How errors name it: "dfn" or the tradfn's name.
    fn described(self) -> String {
        match self {
            Recursive::Dfn(_) => "dfn".to_string(),
            Recursive::Tradfn(tradfn) => format!("function {}", tradfn.name.text),
        }
    }
}

/// A recursive dfn whose function is being built (innermost last in `Elaborator::recursive`): a call of the dfn
/// inside is a call of the function.
#[derive(Clone, Debug)]
pub struct RecursiveBuild {
    pub(super) key: CalleeKey,
    name: String,
    mode: RecursiveMode,
}

#[derive(Clone, Debug)]
pub enum RecursiveMode {
    /// Finding the types: a recursive call records its arguments' types and gives a value of the guessed result
    /// type.
    Probe {
        result: Type,
        calls: Vec<(Option<Type>, Type)>,
    },
    /// Building the body: a recursive call is a `call` with its arguments converted to the parameters' types.
    Build {
        alpha: Option<Type>,
        omega: Type,
        result: Type,
    },
}

impl Elaborator {
    pub fn call_dfn(&mut self, closure: &Closure, left: Option<Val>, right: Val, span: Span) -> ElabResult<Val> {
        if let (Some(annotation), None) = (&closure.dfn.annotation, &closure.operands) {
            let annotation = annotation.clone();
            let (check, left, right) = self.check_call_arguments(&annotation, left, right, span)?;
            let result = self.call_dfn_unchecked(closure, left, right, span)?;
            return self.check_call_result(check, result);
        }
        self.call_dfn_unchecked(closure, left, right, span)
    }

    /// A call without the call-site annotation check (the generic check of an annotation elaborates through it).
    pub(super) fn call_dfn_unchecked(
        &mut self,
        closure: &Closure,
        left: Option<Val>,
        right: Val,
        span: Span,
    ) -> ElabResult<Val> {
        let key = Recursive::Dfn(closure).key();
        if let Some(position) = self.recursive.iter().rposition(|build| build.key == key) {
            return self.recursive_call(position, left, right, span);
        }
        let outermost = !self.active_dfns.contains(&key);
        let functions_length = self.functions.len();
        let right = self.bind_value(right);
        let left = left.map(|value| self.bind_value(value));
        let scope_length = self.scope_length();
        self.active_dfns.push(key);
        self.loops.push(None);
        let result = if closure.from_prelude {
            self.with_fixed_site(span, |this| {
                this.call_dfn_inlined(closure, left.clone(), right.clone(), span)
            })
        } else {
            self.call_dfn_inlined(closure, left.clone(), right.clone(), span)
        };
        self.loops.pop();
        self.active_dfns.pop();
        let is_recursion_nonce = |result: &ElabResult<Val>| matches!(result, Err(ElabError::Nonce { message, .. }) if message == RECURSION_MESSAGE);
        if !outermost || !is_recursion_nonce(&result) {
            return result;
        }
        if has_tail_call(&closure.dfn.body) {
            self.truncate_scope(scope_length);
            self.functions.truncate(functions_length);
            self.inline_budget = super::INLINE_BUDGET;
            self.active_dfns.push(key);
            let result = self.call_dfn_as_loop(closure, left.clone(), right.clone(), span);
            self.active_dfns.pop();
            if !is_recursion_nonce(&result) {
                return result;
            }
        }
        // Not all tail calls: a recursive function.
        self.truncate_scope(scope_length);
        self.functions.truncate(functions_length);
        self.inline_budget = super::INLINE_BUDGET;
        self.call_as_recursive_function(Recursive::Dfn(closure), left, right, span)
    }

    /// A call of the dfn whose function is being built (at `position` in `self.recursive`).
    pub(super) fn recursive_call(
        &mut self,
        position: usize,
        left: Option<Val>,
        right: Val,
        span: Span,
    ) -> ElabResult<Val> {
        let build = self.recursive[position].clone();
        match build.mode {
            RecursiveMode::Probe { result, .. } => {
                let left_type = match &left {
                    Some(left) => Some(value_type(left, span)?),
                    None => None,
                };
                let right_type = value_type(&right, span)?;
                if let RecursiveMode::Probe { calls, .. } = &mut self.recursive[position].mode {
                    calls.push((left_type, right_type));
                }
                Ok(self.placeholder_variable(&result))
            }
            RecursiveMode::Build { alpha, omega, result } => {
                let mut arguments = Vec::new();
                match (left, &alpha) {
                    (Some(left), Some(alpha)) => arguments.push(self.function_argument(left, alpha, span)?),
                    (None, None) => {}
                    (Some(_), None) => {
                        return Err(recursive_nonce(
                            span,
                            "function",
                            "calls itself dyadically when called monadically",
                        ))
                    }
                    (None, Some(_)) => {
                        return Err(recursive_nonce(
                            span,
                            "function",
                            "calls itself monadically when called dyadically",
                        ))
                    }
                }
                arguments.push(self.function_argument(right, &omega, span)?);
                let call = Expr::at(span, Expr::Call(build.name, arguments));
                Ok(self.bind_value(rebuild_value(call, &super::operators::value_of_type(&result))))
            }
        }
    }

    /// An argument of a call of a recursive function: converted to the parameter's type.
    fn function_argument(&mut self, value: Val, parameter: &Type, span: Span) -> ElabResult<Expr> {
        let converted = self.convert_value(value, parameter, span)?;
        Ok(value_expr(&self.generalize_value(converted)))
    }

    /// A recursive dfn (or tradfn) as a function of its arguments (see the module documentation), and the call of
    /// it.
    pub(super) fn call_as_recursive_function(
        &mut self,
        callee: Recursive<'_>,
        left: Option<Val>,
        right: Val,
        span: Span,
    ) -> ElabResult<Val> {
        // A monadic call of a dfn with `⍺←v`: the function is dyadic, called with the default.
        let left = match callee {
            Recursive::Dfn(closure) => self.left_or_default(closure, left, &right, span)?,
            Recursive::Tradfn(_) => left,
        };
        let mut alpha_type = match &left {
            Some(left) => Some(array_argument_type(left, span)?),
            None => None,
        };
        let mut omega_type = array_argument_type(&right, span)?;
        let name = self.fresh_name("rec");
        // The result's type: the body's, with recursive calls giving the guess; a first guess of bool works for
        // numbers (bool is the bottom of their lattice), char for characters; of the argument's rank, or a vector,
        // where the body needs an array.
        let mut result_type = None;
        let array = |base, rank| Type::Array { base, rank };
        let guesses = [
            array(Base::Bool, 0),
            omega_type.clone(),
            array(Base::Bool, 1),
            array(Base::Bool, 2),
            array(Base::Bool, 3),
            array(Base::Char, 0),
            array(Base::Char, 1),
        ];
        for guess in &guesses {
            if let Ok((found, _)) = self.probe_function(callee, &name, &alpha_type, &omega_type, guess, span) {
                result_type = Some(found);
                break;
            }
        }
        let Some(mut result_type) = result_type else {
            // Report the error the body gives on the first guess.
            self.probe_function(callee, &name, &alpha_type, &omega_type, &Type::scalar(Base::Bool), span)?;
            return Err(recursive_nonce(span, &callee.described(), "has no result type"));
        };
        let mut settled = false;
        for _ in 0..8 {
            let (found, calls) = self.probe_function(callee, &name, &alpha_type, &omega_type, &result_type, span)?;
            let mut changed = found != result_type;
            // A guess of another rank gives way to what the body found.
            result_type = join_types(&result_type, &found).unwrap_or(found);
            for (call_alpha, call_omega) in calls {
                match (&alpha_type, call_alpha) {
                    (Some(current), Some(call_alpha)) => {
                        let joined = join_types(current, &call_alpha).filter(is_array_type).ok_or_else(|| {
                            recursive_nonce(span, &callee.described(), "calls itself with a ⍺ of another kind")
                        })?;
                        changed |= &joined != current;
                        alpha_type = Some(joined);
                    }
                    (None, None) => {}
                    (Some(_), None) => {
                        return Err(recursive_nonce(
                            span,
                            &callee.described(),
                            "calls itself monadically when called dyadically",
                        ))
                    }
                    (None, Some(_)) => {
                        return Err(recursive_nonce(
                            span,
                            &callee.described(),
                            "calls itself dyadically when called monadically",
                        ))
                    }
                }
                let joined = join_types(&omega_type, &call_omega)
                    .filter(is_array_type)
                    .ok_or_else(|| {
                        recursive_nonce(span, &callee.described(), "calls itself with a ⍵ of another kind")
                    })?;
                changed |= joined != omega_type;
                omega_type = joined;
            }
            if !changed {
                settled = true;
                break;
            }
        }
        if !settled {
            return Err(recursive_nonce(
                span,
                &callee.described(),
                "has argument or result types that do not settle",
            ));
        }
        if !is_array_type(&result_type) {
            return Err(recursive_nonce(
                span,
                &callee.described(),
                &format!("has a result that is not an array ({result_type})"),
            ));
        }
        // The body, over parameters.
        let alpha_parameter = alpha_type.as_ref().map(|_| self.fresh_name("a"));
        let omega_parameter = self.fresh_name("w");
        let parameter_value = |name: &String, parameter_type: &Type| {
            rebuild_value(
                Expr::Var(name.clone()),
                &super::operators::value_of_type(parameter_type),
            )
        };
        let alpha = alpha_parameter
            .as_ref()
            .zip(alpha_type.as_ref())
            .map(|(name, ty)| parameter_value(name, ty));
        let omega = parameter_value(&omega_parameter, &omega_type);
        let mode = RecursiveMode::Build {
            alpha: alpha_type.clone(),
            omega: omega_type.clone(),
            result: result_type.clone(),
        };
        self.frames.push(Vec::new());
        let value = self
            .run_function_body(callee, &name, mode, alpha, omega, span)
            .and_then(|value| self.function_argument(value, &result_type, span));
        let frame = self.frames.pop().expect("the function body's frame");
        let mut body = super::wrap_entries(frame, value?);
        // What the body reads from the enclosing scope becomes parameters, passed on by every call.
        let mut parameters: Vec<(String, Type)> = alpha_parameter.iter().cloned().zip(alpha_type.clone()).collect();
        parameters.push((omega_parameter, omega_type.clone()));
        let mut captured = Vec::new();
        for free in free_variables(&body) {
            if parameters.iter().any(|(parameter, _)| *parameter == free) {
                continue;
            }
            match self.let_type(&free) {
                Some(ty) if is_array_type(&ty) => {
                    parameters.push((free.clone(), ty));
                    captured.push(Expr::Var(free));
                }
                _ => {
                    return Err(recursive_nonce(
                        span,
                        &callee.described(),
                        "reads a value of its enclosing scope that is not an array",
                    ))
                }
            }
        }
        pass_captured_values(&mut body, &name, &captured);
        self.functions.push(FunctionDef {
            name: name.clone(),
            parameters,
            result: result_type.clone(),
            body,
        });
        // The call.
        let mut arguments = Vec::new();
        if let (Some(left), Some(alpha_type)) = (left, &alpha_type) {
            arguments.push(self.function_argument(left, alpha_type, span)?);
        }
        arguments.push(self.function_argument(right, &omega_type, span)?);
        arguments.extend(captured);
        let call = Expr::at(span, Expr::Call(name, arguments));
        Ok(self.bind_value(rebuild_value(call, &super::operators::value_of_type(&result_type))))
    }

    /// The type of a let-bound variable of an enclosing scope.
    fn let_type(&self, name: &str) -> Option<Type> {
        self.frames.iter().flatten().find_map(|entry| match entry {
            Entry::Let(bound, ty, _) if bound == name => Some(ty.clone()),
            _ => None,
        })
    }

    /// Elaborates the body on placeholder arguments of the given types, with recursive calls giving a value of type
    /// `result`: the type of the body's value, and the argument types of the recursive calls. Leaves no trace.
    fn probe_function(
        &mut self,
        callee: Recursive<'_>,
        name: &str,
        alpha_type: &Option<Type>,
        omega_type: &Type,
        result: &Type,
        span: Span,
    ) -> ElabResult<ProbedFunction> {
        let saved_variables = self.next_variable;
        let saved_functions = self.functions.len();
        let alpha = alpha_type.as_ref().map(|t| self.placeholder_variable(t));
        let omega = self.placeholder_variable(omega_type);
        let mode = RecursiveMode::Probe {
            result: result.clone(),
            calls: Vec::new(),
        };
        self.frames.push(Vec::new());
        let value = self.run_function_body(callee, name, mode, alpha, omega, span);
        self.frames.pop();
        self.functions.truncate(saved_functions);
        self.next_variable = self.next_variable.max(saved_variables);
        let (value, mode) = value.map(|value| (value, self.last_probe.take()))?;
        let found = value_type(&value, span)?;
        match mode {
            Some(RecursiveMode::Probe { calls, .. }) => Ok((found, calls)),
            _ => unreachable!("the probe mode pushed by run_function_body"),
        }
    }

    /// The dfn's (or tradfn's) body with the given arguments, its calls of itself handled as `mode` says.
    fn run_function_body(
        &mut self,
        callee: Recursive<'_>,
        name: &str,
        mode: RecursiveMode,
        alpha: Option<Val>,
        omega: Val,
        span: Span,
    ) -> ElabResult<Val> {
        let key = callee.key();
        self.recursive.push(RecursiveBuild {
            key,
            name: name.to_string(),
            mode,
        });
        self.inline_budget = super::INLINE_BUDGET;
        self.active_dfns.push(key);
        self.loops.push(None);
        let result = match callee {
            // A function's body runs once per call: what it would assign outside cannot leave it.
            Recursive::Dfn(closure) => {
                self.without_assignments_outside(span, |this| this.dfn_body_with_arguments(closure, alpha, omega, span))
            }
            Recursive::Tradfn(tradfn) => self.tradfn_body_as_function(tradfn, alpha, omega, span),
        };
        self.loops.pop();
        self.active_dfns.pop();
        self.last_probe = self.recursive.pop().map(|build| build.mode);
        result
    }

    /// The environment of a call, with the arguments, operands and `∇`. A dfn defined at the top level (or in a
    /// traditional function) reads the names there as they are when it is called, as Dyalog's dfns read their
    /// namespace (`x←1 ⋄ f←{x+⍵} ⋄ x←10 ⋄ f 1` is 11, and what a function called earlier assigned there counts); a dfn
    /// defined in a dfn reads that dfn's names as they were where it was defined; the prelude's dfns see only the
    /// prelude.
    fn call_environment(&self, closure: &Closure, left: Option<Val>, right: Val) -> super::env::Env {
        let mut env = if closure.from_prelude || closure.env.within_dfn() {
            closure.env.clone()
        } else {
            let mut live = self.env.outside_dfns();
            for (name, value) in &self.outer_writes {
                live = live.bind(name, value.clone());
            }
            live
        };
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
        env
    }

    fn call_dfn_inlined(&mut self, closure: &Closure, left: Option<Val>, right: Val, span: Span) -> ElabResult<Val> {
        if self.call_depth >= MAX_CALL_DEPTH || self.inline_budget == 0 {
            return Err(ElabError::nonce(span, RECURSION_MESSAGE).with_hint(
                "aplc inlines dfns: recursion works when its guards are decided by constants, or when every recursive \
                 call is a tail call (it becomes a loop)",
            ));
        }
        self.inline_budget -= 1;
        self.inlined_in_statement += 1;
        if self.inlined_in_statement > super::MAX_INLINED_CALLS_PER_STATEMENT {
            return Err(ElabError::nonce(span, super::TOO_MUCH_INLINING_MESSAGE).with_hint(
                "aplc inlines dfns; this recursion (perhaps through a local dfn, or ∇¨) neither unfolds on constants \
                 nor compiles as a loop or a recursive function; a recursive dfn defined at the top level may",
            ));
        }
        self.dfn_body_with_arguments(closure, left, right, span)
    }

    /// The dfn's body in the environment of a call with these arguments, one call deeper.
    fn dfn_body_with_arguments(
        &mut self,
        closure: &Closure,
        alpha: Option<Val>,
        omega: Val,
        span: Span,
    ) -> ElabResult<Val> {
        let env = self.call_environment(closure, alpha, omega);
        let saved_env = std::mem::replace(&mut self.env, env);
        let writes = self.outer_writes.len();
        // A dfn's system variables are its own: `{⎕PP←5 ⋄ ⍕⍵}` leaves the caller's ⎕PP as it was.
        let saved_print = self.print;
        self.call_depth += 1;
        let dfn = closure.dfn.clone();
        let result = self.dfn_body(&dfn.body, span);
        self.call_depth -= 1;
        self.print = saved_print;
        self.env = saved_env;
        self.carry_outer_writes_out(writes);
        result
    }

    /// The left argument of a call, or the value of the dfn's `⍺←v` when it is called monadically (the first state of
    /// a loop, the `⍺` of a recursive function).
    fn left_or_default(
        &mut self,
        closure: &Closure,
        left: Option<Val>,
        right: &Val,
        span: Span,
    ) -> ElabResult<Option<Val>> {
        match left {
            Some(left) => Ok(Some(left)),
            None => self.default_alpha(closure, right.clone(), span),
        }
    }

    /// A tail-recursive dfn as a loop: the state is (done, result, ⍺, ⍵), iterated with `powerUntil` until done.
    fn call_dfn_as_loop(&mut self, closure: &Closure, left: Option<Val>, right: Val, span: Span) -> ElabResult<Val> {
        let left = self.left_or_default(closure, left, &right, span)?;
        let mut alpha_type = match &left {
            Some(left) => Some(value_type(left, span)?),
            None => None,
        };
        let mut omega_type = value_type(&right, span)?;
        let mut result_type: Option<Type> = None;
        for _ in 0..5 {
            let (results, calls) = self.probe_loop_body(closure, &alpha_type, &omega_type, span)?;
            let mut changed = false;
            for (call_alpha, call_omega) in calls {
                match (&alpha_type, call_alpha) {
                    (Some(current), Some(call_alpha)) => {
                        let joined = join_types(current, &call_alpha).ok_or_else(|| loop_type_error(span, "⍺"))?;
                        changed |= &joined != current;
                        alpha_type = Some(joined);
                    }
                    (None, None) => {}
                    _ => return Err(loop_type_error(span, "⍺")),
                }
                let joined = join_types(&omega_type, &call_omega).ok_or_else(|| loop_type_error(span, "⍵"))?;
                changed |= joined != omega_type;
                omega_type = joined;
            }
            result_type = None;
            for result in results {
                result_type = Some(match result_type {
                    None => result,
                    Some(current) => join_types(&current, &result).ok_or_else(|| loop_type_error(span, "result"))?,
                });
            }
            if !changed {
                break;
            }
        }
        let Some(result_type) = result_type else {
            return Err(ElabError::nonce(span, "a recursive dfn that never returns a value"));
        };
        let mut state_types = vec![Type::scalar(super::ir::Base::Bool), result_type.clone()];
        state_types.extend(alpha_type.clone());
        state_types.push(omega_type.clone());
        let state_type = Type::Tuple(state_types);
        // The loop body, over a state variable.
        let parameter = self.fresh_name("s");
        let state = rebuild_value(
            Expr::Var(parameter.clone()),
            &super::operators::value_of_type(&state_type),
        );
        let Val::Tuple(components) = state else {
            unreachable!("a tuple state")
        };
        let alpha = alpha_type.as_ref().map(|_| components[2].clone());
        let omega = components[components.len() - 1].clone();
        let mode = LoopMode::Build(Box::new(LoopBuild {
            result_type: result_type.clone(),
            alpha_type: alpha_type.clone(),
            omega_type: omega_type.clone(),
            alpha: alpha.clone(),
            omega: omega.clone(),
        }));
        self.frames.push(Vec::new());
        let body = self.run_loop_body(closure, alpha, omega, mode, span);
        let frame = self.frames.pop().expect("the loop body frame");
        let body = super::wrap_entries(frame, value_expr(&body?));
        let step = Expr::lambda(&parameter, state_type.clone(), body);
        let previous = self.fresh_name("s");
        let next = self.fresh_name("s");
        let done = Expr::Project(0, Box::new(Expr::Var(next.clone())));
        let predicate = Expr::lambda(
            &next,
            state_type.clone(),
            Expr::lambda(&previous, state_type.clone(), done),
        );
        // The first state.
        let mut initial = vec![
            plain_value(Expr::Bool(false)),
            rebuild_value(
                placeholder_expr(&result_type),
                &super::operators::value_of_type(&result_type),
            ),
        ];
        if let (Some(left), Some(alpha_type)) = (left, &alpha_type) {
            initial.push(self.convert_value(left, alpha_type, span)?);
        }
        initial.push(self.convert_value(right, &omega_type, span)?);
        let initial = value_expr(&self.generalize_value(Val::Tuple(initial)));
        let looped = Expr::op("powerUntil", vec![step, predicate, initial]);
        let looped = self.bind_structured(looped, &super::operators::value_of_type(&state_type), span)?;
        let Val::Tuple(mut components) = looped else {
            unreachable!("a tuple state")
        };
        Ok(components.swap_remove(1))
    }

    /// The value of the first `⍺←v` statement of a dfn, for a loop's first state.
    fn default_alpha(&mut self, closure: &Closure, right: Val, span: Span) -> ElabResult<Option<Val>> {
        for statement in &closure.dfn.body {
            if let StatementKind::Expr(expr) = &statement.kind {
                if let Some(assignment) = &expr.assignment {
                    if expr.items.is_empty() && is_alpha_default(&assignment.target) {
                        let env = self.call_environment(closure, None, right);
                        let saved = std::mem::replace(&mut self.env, env);
                        let value = self.expr(&assignment.value);
                        self.env = saved;
                        let value = value?;
                        return Ok(Some(self.bind_value(value)));
                    }
                }
            }
        }
        let _ = span;
        Ok(None)
    }

    fn probe_loop_body(
        &mut self,
        closure: &Closure,
        alpha_type: &Option<Type>,
        omega_type: &Type,
        span: Span,
    ) -> ElabResult<ProbedTypes> {
        let saved_variables = self.next_variable;
        let alpha = alpha_type.as_ref().map(|t| self.placeholder_variable(t));
        let omega = self.placeholder_variable(omega_type);
        let mode = LoopMode::Probe {
            results: Vec::new(),
            calls: Vec::new(),
        };
        self.frames.push(Vec::new());
        self.loops.push(Some(mode));
        let result = self.dfn_body_with_arguments(closure, alpha, omega, span);
        let mode = self.loops.pop().flatten();
        self.frames.pop();
        self.next_variable = self.next_variable.max(saved_variables);
        result?;
        match mode {
            Some(LoopMode::Probe { results, calls }) => Ok((results, calls)),
            _ => unreachable!("the probe mode pushed above"),
        }
    }

    pub(super) fn placeholder_variable(&mut self, value_type: &Type) -> Val {
        let name = self.fresh_name("q");
        rebuild_value(Expr::Var(name), &super::operators::value_of_type(value_type))
    }

    fn run_loop_body(
        &mut self,
        closure: &Closure,
        alpha: Option<Val>,
        omega: Val,
        mode: LoopMode,
        span: Span,
    ) -> ElabResult<Val> {
        self.loops.push(Some(mode));
        let result = self.dfn_body_with_arguments(closure, alpha, omega, span);
        self.loops.pop();
        result
    }

    /// A value the dfn returns (a guard's result or a result statement), or, in a loop, a tail call `⍺ ∇ ⍵`.
    fn dfn_result(&mut self, expr: &crate::syntax::ast::Expr) -> ElabResult<Val> {
        let Some(Some(mode)) = self.loops.last().cloned() else {
            return self.expr(expr);
        };
        if let Some((left, right)) = self.tail_call_arguments(expr)? {
            return match mode {
                LoopMode::Probe { .. } => {
                    let right_type = value_type(&right, expr.span)?;
                    let left_type = match &left {
                        Some(left) => Some(value_type(left, expr.span)?),
                        None => None,
                    };
                    if let Some(Some(LoopMode::Probe { calls, .. })) = self.loops.last_mut() {
                        calls.push((left_type, right_type));
                    }
                    Ok(Val::Array(Arr::scalar_constant(Scalar::Bool(false))))
                }
                LoopMode::Build(build) => {
                    let LoopBuild {
                        result_type,
                        alpha_type,
                        omega_type,
                        ..
                    } = *build;
                    let mut components = vec![
                        plain_value(Expr::Bool(false)),
                        rebuild_value(
                            placeholder_expr(&result_type),
                            &super::operators::value_of_type(&result_type),
                        ),
                    ];
                    match (left, &alpha_type) {
                        (Some(left), Some(alpha_type)) => {
                            components.push(self.convert_value(left, alpha_type, expr.span)?)
                        }
                        (None, None) => {}
                        _ => return Err(loop_type_error(expr.span, "⍺")),
                    }
                    components.push(self.convert_value(right, &omega_type, expr.span)?);
                    Ok(self.generalize_value(Val::Tuple(components)))
                }
            };
        }
        let value = self.expr(expr)?;
        match mode {
            LoopMode::Probe { .. } => {
                let result_type = value_type(&value, expr.span)?;
                if let Some(Some(LoopMode::Probe { results, .. })) = self.loops.last_mut() {
                    results.push(result_type);
                }
                Ok(Val::Array(Arr::scalar_constant(Scalar::Bool(false))))
            }
            LoopMode::Build(build) => {
                let LoopBuild {
                    result_type,
                    alpha,
                    omega,
                    ..
                } = *build;
                let value = self.convert_value(value, &result_type, expr.span)?;
                let mut components = vec![plain_value(Expr::Bool(true)), value];
                components.extend(alpha);
                components.push(omega);
                Ok(self.generalize_value(Val::Tuple(components)))
            }
        }
    }

    /// `⍺ ∇ ⍵` or `∇ ⍵` as a whole expression: its (elaborated) arguments.
    fn tail_call_arguments(&mut self, expr: &crate::syntax::ast::Expr) -> ElabResult<Option<(Option<Val>, Val)>> {
        if expr.assignment.is_some() {
            return Ok(None);
        }
        let (env, globals) = (self.env.clone(), self.globals.clone());
        let node = Resolver::new(&env)
            .with_globals(&globals)
            .resolve(&expr.items, expr.span)?;
        let is_del = |node: &Node<'_>| {
            matches!(
                node,
                Node::Atom(
                    crate::syntax::ast::Item::Special(crate::syntax::ast::SpecialName::Del, _),
                    _
                )
            )
        };
        match &node {
            Node::Monadic { function, argument, .. } if is_del(function) => {
                let right = self.node(argument)?;
                Ok(Some((None, right)))
            }
            Node::Dyadic {
                left, function, right, ..
            } if is_del(function) => {
                let right = self.node(right)?;
                let left = self.node(left)?;
                Ok(Some((Some(left), right)))
            }
            _ => Ok(None),
        }
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
                    if !self.is_whole_assignment(expr) {
                        return self.dfn_result(expr);
                    }
                    last_assigned = Some(self.expr(expr)?);
                }
                StatementKind::Guard { condition, result } => {
                    let condition_value = self.expr(condition)?;
                    let condition_array = self.expect_array(condition_value, condition.span)?;
                    let condition_array = self.guard_condition(condition_array, condition.span)?;
                    if let Some(decided) = condition_array.constant_scalar() {
                        if decided == Scalar::Bool(true) {
                            return self.dfn_result(result);
                        }
                        continue;
                    }
                    let rest = &statements[position + 1..];
                    return self.conditional(
                        condition_array,
                        |this| this.dfn_result(result),
                        |this| this.dfn_body(rest, span),
                        statement.span,
                    );
                }
                // The parser allows neither in a dfn body.
                StatementKind::Tradfn(_) | StatementKind::Control(_) => {
                    return Err(ElabError::syntax(statement.span, "a control structure in a dfn"))
                }
            }
        }
        last_assigned.ok_or_else(|| ElabError::value(span, "the dfn ended without a result"))
    }

    /// A guard condition must be a boolean scalar (or a one-element array).
    pub(super) fn guard_condition(&mut self, condition: Arr, span: Span) -> ElabResult<Arr> {
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
        let (then_frame, then_value) = self.branch(then_branch, span)?;
        let (else_frame, else_value) = self.branch(else_branch, span)?;
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

    fn branch(&mut self, body: impl FnOnce(&mut Self) -> ElabResult<Val>, span: Span) -> ElabResult<(Vec<Entry>, Val)> {
        self.frames.push(Vec::new());
        let writes = self.outer_writes.len();
        let saved_env = self.env.clone();
        let result = body(self);
        self.env = saved_env;
        let frame = self.frames.pop().expect("the branch frame");
        let value = result?;
        // A guard's branch ends its dfn: its own assignments go with it, but what a traditional function called there
        // assigned outside the dfn would have to be joined with the other branch's.
        if let Some((name, _)) = self.outer_writes.get(writes) {
            let name = name.clone();
            self.outer_writes.truncate(writes);
            return Err(ElabError::nonce(
                span,
                format!("a function that assigns {name}, a name outside the dfn, called in a guard's branch"),
            )
            .with_hint("call it before the guard, or from a tradfn's :If"));
        }
        Ok((frame, value))
    }

    pub(super) fn finish_branch(
        &mut self,
        frame: Vec<Entry>,
        value: Val,
        target: &Type,
        span: Span,
    ) -> ElabResult<Expr> {
        self.frames.push(frame);
        let converted = self
            .convert_value(value, target, span)
            .map(|v| self.generalize_value(v));
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

fn loop_type_error(span: Span, what: &str) -> ElabError {
    ElabError::nonce(
        span,
        format!("a tail-recursive dfn whose {what} changes rank or kind between calls"),
    )
}

/// A literal as an expression of an ordinary (not singleton) scalar type, for loop states.
fn plain_literal(literal: Expr) -> Expr {
    match literal {
        Expr::Bool(_) => Expr::op("andb", vec![literal, Expr::Bool(true)]),
        Expr::Int(_) => Expr::op("addi", vec![literal, Expr::Int(0)]),
        Expr::Double(_) => Expr::op("addd", vec![literal, Expr::Double(0.0)]),
        other => other,
    }
}

fn plain_value(literal: Expr) -> Val {
    let base = match literal {
        Expr::Bool(_) => super::ir::Base::Bool,
        Expr::Int(_) => super::ir::Base::Int,
        _ => super::ir::Base::Double,
    };
    Val::Array(Arr::dynamic(plain_literal(literal), base, 0))
}

/// Some value of a type, never looked at (the result slot of a loop state that is not done).
pub fn placeholder_expr(value_type: &Type) -> Expr {
    use super::ir::Base;
    match value_type {
        Type::Array { base, rank: 0 } => plain_literal(match base {
            Base::Bool => Expr::Bool(false),
            Base::Int => Expr::Int(0),
            Base::Double => Expr::Double(0.0),
            Base::Complex => Expr::Complex(0.0, 0.0),
            Base::Char => Expr::Char(' '),
        }),
        Type::Array { base, rank } => Expr::op(
            "reshape",
            vec![
                Expr::Vector(vec![Expr::Int(0); *rank], Base::Int),
                Expr::Vector(vec![], *base),
            ],
        ),
        Type::Tuple(components) => Expr::Tuple(components.iter().map(placeholder_expr).collect()),
    }
}

/// Whether a dfn body calls `∇` (outside nested dfns) as the whole of a result.
fn has_tail_call(body: &[Statement]) -> bool {
    use crate::syntax::ast::{Item, SpecialName};
    let mentions_del = |expr: &crate::syntax::ast::Expr| {
        expr.assignment.is_none()
            && expr
                .items
                .iter()
                .any(|item| matches!(item, Item::Special(SpecialName::Del, _)))
    };
    body.iter().any(|statement| match &statement.kind {
        StatementKind::Expr(expr) => mentions_del(expr),
        StatementKind::Guard { result, .. } => mentions_del(result),
        StatementKind::Tradfn(_) | StatementKind::Control(_) => false,
    })
}

/// A NONCE ERROR for recursion compiled as a function.
fn recursive_nonce(span: Span, subject: &str, what: &str) -> ElabError {
    ElabError::nonce(span, format!("{RECURSION_MESSAGE}: the recursive {subject} {what}")).with_hint(
        "recursion that is neither decided by constants nor all tail calls becomes a function of its arguments \
         (⍵, and ⍺ when the dfn is called dyadically, or a tradfn's arguments), each an array of a fixed rank, as \
         is its result",
    )
}

/// An array of any rank (not a strand of arrays).
fn is_array_type(value_type: &Type) -> bool {
    matches!(value_type, Type::Array { .. })
}

/// The type of a recursive function's argument: an array (a strand is not supported).
fn array_argument_type(value: &Val, span: Span) -> ElabResult<Type> {
    let value_type = value_type(value, span)?;
    if is_array_type(&value_type) {
        Ok(value_type)
    } else {
        Err(recursive_nonce(
            span,
            "function",
            &format!("has an argument that is a strand of arrays ({value_type})"),
        ))
    }
}

/// The variables a term reads that it does not bind itself, in order of first appearance.
fn free_variables(expr: &Expr) -> Vec<String> {
    fn collect(expr: &Expr, bound: &mut Vec<String>, free: &mut Vec<String>) {
        match expr {
            Expr::Var(name) => {
                if !bound.contains(name) && !free.contains(name) {
                    free.push(name.clone());
                }
            }
            Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) | Expr::Complex(..) => {}
            Expr::Vector(elements, _) | Expr::Op(_, elements) | Expr::Tuple(elements) | Expr::Call(_, elements) => {
                elements.iter().for_each(|element| collect(element, bound, free))
            }
            Expr::Lambda(parameter, _, body) => {
                bound.push(parameter.clone());
                collect(body, bound, free);
                bound.pop();
            }
            Expr::Let(name, _, value, body) => {
                collect(value, bound, free);
                bound.push(name.clone());
                collect(body, bound, free);
                bound.pop();
            }
            Expr::Project(_, inner) | Expr::At(_, inner) => collect(inner, bound, free),
            Expr::Sequence(first, second) => {
                collect(first, bound, free);
                collect(second, bound, free);
            }
            Expr::If(condition, then, otherwise, _) => {
                collect(condition, bound, free);
                collect(then, bound, free);
                collect(otherwise, bound, free);
            }
        }
    }
    let mut free = Vec::new();
    collect(expr, &mut Vec::new(), &mut free);
    free
}

/// Appends the captured values to every call of the function `name` in a term (its body: the values are its own
/// parameters of the same names there).
fn pass_captured_values(expr: &mut Expr, name: &str, captured: &[Expr]) {
    if captured.is_empty() {
        return;
    }
    match expr {
        Expr::Call(function, arguments) => {
            arguments
                .iter_mut()
                .for_each(|argument| pass_captured_values(argument, name, captured));
            if function == name {
                arguments.extend(captured.iter().cloned());
            }
        }
        Expr::Var(_) | Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) | Expr::Complex(..) => {}
        Expr::Vector(elements, _) | Expr::Op(_, elements) | Expr::Tuple(elements) => elements
            .iter_mut()
            .for_each(|element| pass_captured_values(element, name, captured)),
        Expr::Lambda(_, _, inner) | Expr::Project(_, inner) | Expr::At(_, inner) => {
            pass_captured_values(inner, name, captured)
        }
        Expr::Let(_, _, first, second) | Expr::Sequence(first, second) => {
            pass_captured_values(first, name, captured);
            pass_captured_values(second, name, captured);
        }
        Expr::If(condition, then, otherwise, _) => {
            pass_captured_values(condition, name, captured);
            pass_captured_values(then, name, captured);
            pass_captured_values(otherwise, name, captured);
        }
    }
}
