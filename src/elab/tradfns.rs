//! Traditional functions (`∇ R←A F B;L` ... `∇`) and their control structures.
//!
//! A tradfn is inlined at each call, like a dfn, but with Dyalog's dynamic scope: its body runs in the *caller's*
//! environment with the header's names (result, arguments, `;` locals) made local, and whatever else it assigns is
//! the caller's afterwards. Inlining gives that scope for free: the call elaborates the body on the current
//! environment, then keeps the caller's bindings plus every non-local name the body rebound
//! ([`Env::names_bound_since`]).
//!
//! Statements run in order; a statement whose value is not assigned is printed, as at the top level. Control
//! structures are compiled from what the body's statements assign, found the same way (the names bound since the
//! structure began):
//!
//! - `:If`/`:ElseIf`/`:Else` and `:Select`/`:Case`: a condition known when compiling picks its clause. Otherwise
//!   each clause is elaborated on its own copy of the environment and the names they rebind are joined by one TAIL
//!   conditional whose value is the tuple of those names (promoted to common types). A name only one outcome binds
//!   (and that had no value before) is not defined afterwards.
//! - `:While`, `:Repeat`/`:Until` and `:For`: a `powerUntil` loop whose state is a done flag and every name that one
//!   pass assigns (those without a value before the loop start as placeholders). The pass is probed first on
//!   placeholder values (the names and their types grow until a fixed point, as a tail-recursive dfn's loop does),
//!   then built on the state variable. `:While` and `:For` test before the loop whether it runs, and at the end of
//!   each pass whether another follows, so that a pass is straight-line code unless its body branches.
//!   `:For` over a strand (items known when compiling) is unrolled instead.
//! - `:Return`, `:Leave`, `:Continue` and `→` end the statement list they are in. When a clause of an `:If` or
//!   `:Select` may end that way, the statements after the structure (up to the end of the function or of the loop's
//!   pass) are elaborated inside each clause that does not, so every path sees exactly the statements Dyalog runs
//!   on it. `:Leave` also sets the pass's leave flag, which the loop reads to finish. `:Return` and a taken `→`
//!   inside a loop set the leave flag and the exit flag: after a loop whose body may exit, the exit flag decides
//!   whether the statements after the loop run, or the enclosing loop's pass is left too.
//! - A body with labels is one loop over blocks (`run_blocks_between_labels`): its state is the line of the next
//!   block to run, which a branch sets.
//! - Recursion is unfolded while its conditions are known when compiling; otherwise the tradfn becomes a recursive
//!   TAIL function through the recursive dfns' machinery (`dfns.rs`, [`Recursive`]).

use super::dfns::{Recursive, RECURSION_MESSAGE};
use super::env::{Arr, Env, Fun, Scalar, Val};
use super::error::{ElabError, ElabResult};
use super::ir::{Base, Expr, Type};
use super::operators::{rebuild_value, value_expr, value_of_type, value_type};
use super::{Elaborator, MAX_CALL_DEPTH};
use crate::source::Span;
use crate::syntax::ast::{Case, Condition, Control, NamePattern, Primitive, Statement, StatementKind, Tradfn};
use std::rc::Rc;

/// The pseudo-variable (not a possible APL name) that a loop pass sets to say the loop is finished.
const DONE_FLAG: &str = " done";
/// The pseudo-variable that `:Leave` sets for the loop pass it is in.
const LEAVE_FLAG: &str = " leave";
/// The pseudo-variable that `:Return` or a taken `→` inside a loop sets: every loop around it ends, and the
/// function goes on at the branch's line (or returns).
const EXIT_FLAG: &str = " exit";

/// The pseudo-variable of a tradfn with labels: the line whose block runs next (0 or any other line: return).
const NEXT_LINE: &str = " line";
/// The value of [`NEXT_LINE`] for the statements before the first label.
const FIRST_BLOCK: i64 = -1;

/// Where the statement being elaborated stands in the tradfn being called.
#[derive(Clone, Debug, Default)]
pub struct TradfnContext {
    /// How many of its loops (`:While`, `:Repeat`, `:For`) enclose the statement.
    pub loop_depth: usize,
    /// The lines of its labels, when it has any (it then runs block by block, `run_blocks_between_labels`).
    pub label_lines: Option<Vec<i64>>,
    /// The names (with their types) that a condition's outcomes assigned on one path only, since the innermost
    /// loop probe began: that loop's state may need them.
    pub assigned_on_one_path: Vec<(String, Type)>,
}

/// How many times a loop pass is probed for the names and types of its state before giving up.
const LOOP_PROBES: usize = 8;

/// How a loop's condition, tested after each pass, ends it.
#[derive(Clone, Copy)]
enum LoopTest {
    /// `:Until c`: done when c holds.
    UntilHolds,
    /// `:While c`: done when c does not hold.
    WhileHolds,
}

/// One pass of a loop: elaborates the pass on the current environment and binds [`DONE_FLAG`].
type LoopPass<'a> = dyn FnMut(&mut Elaborator) -> ElabResult<()> + 'a;

impl Elaborator {
    /// `∇ ... ∇` as a top-level statement: binds the function's name.
    pub fn define_tradfn(&mut self, tradfn: &Tradfn) {
        let function = Fun::Tradfn(Rc::new(tradfn.clone()), tradfn.name.span);
        self.env = self.env.bind(&tradfn.name.text, Val::Function(Rc::new(function)));
    }

    /// A call of a tradfn (`right` is `None` for a niladic one). The value of a function without a result is the
    /// empty strand, which shows as nothing.
    ///
    /// The call is inlined; recursion is unfolded while its conditions are known when compiling, and otherwise
    /// (the outermost call of a recursion that does not end so) the function becomes a recursive TAIL function, as
    /// a recursive dfn does (`dfns.rs`), when it assigns no name outside it.
    pub fn call_tradfn(
        &mut self,
        tradfn: &Rc<Tradfn>,
        left: Option<Val>,
        right: Option<Val>,
        span: Span,
    ) -> ElabResult<Val> {
        check_tradfn_valence(tradfn, left.is_some(), right.is_some(), span)?;
        let key = Recursive::Tradfn(tradfn).key();
        if let Some(position) = self.recursive.iter().rposition(|build| build.key == key) {
            let Some(right) = right else {
                return Err(ElabError::nonce(
                    span,
                    format!("the niladic function {} calling itself", tradfn.name.text),
                ));
            };
            return self.recursive_call(position, left, right, span);
        }
        let outermost = !self.active_dfns.contains(&key);
        let left = left.map(|value| self.bind_value(value));
        let right = right.map(|value| self.bind_value(value));
        let functions_length = self.functions.len();
        let scope_length = self.scope_length();
        self.active_dfns.push(key);
        let result = self.call_tradfn_inlined(tradfn, left.clone(), right.clone(), span);
        self.active_dfns.pop();
        let unfolding_failed = matches!(&result, Err(ElabError::Nonce { message, .. }) if message == RECURSION_MESSAGE);
        let (true, true, Some(right)) = (outermost, unfolding_failed, right) else {
            return result;
        };
        self.truncate_scope(scope_length);
        self.functions.truncate(functions_length);
        self.inline_budget = super::INLINE_BUDGET;
        let result = self.call_as_recursive_function(Recursive::Tradfn(tradfn), left, right, span)?;
        // The call stays (it is bound, and prints what it prints); a function without a result has no value.
        Ok(if tradfn.result.is_none() {
            Val::Tuple(Vec::new())
        } else {
            result
        })
    }

    /// A call inlined: the body runs on the caller's environment, which keeps what it assigned outside the function.
    fn call_tradfn_inlined(
        &mut self,
        tradfn: &Rc<Tradfn>,
        left: Option<Val>,
        right: Option<Val>,
        span: Span,
    ) -> ElabResult<Val> {
        if self.call_depth >= MAX_CALL_DEPTH || self.inline_budget == 0 {
            return Err(ElabError::nonce(span, RECURSION_MESSAGE).with_hint(
                "aplc inlines traditional functions: recursion works when its conditions are decided by constants, or \
                 as a function of arrays that assigns no name outside it",
            ));
        }
        self.inline_budget -= 1;
        let (result, assigned_outside) = self.tradfn_body(tradfn, left, right, span)?;
        for (name, value) in assigned_outside {
            if self.assigns_outside_innermost_dfn(&name) {
                self.outer_writes.push((name.clone(), value.clone()));
            }
            self.env = self.env.bind(&name, value);
        }
        Ok(result)
    }

    /// The body of a recursive tradfn's function (`Elaborator::call_as_recursive_function`): it may not assign
    /// names outside it, which a TAIL function cannot change.
    pub(super) fn tradfn_body_as_function(
        &mut self,
        tradfn: &Rc<Tradfn>,
        left: Option<Val>,
        right: Val,
        span: Span,
    ) -> ElabResult<Val> {
        let (result, assigned_outside) = self.tradfn_body(tradfn, left, Some(right), span)?;
        if let Some((name, _)) = assigned_outside.first() {
            return Err(ElabError::nonce(
                span,
                format!(
                    "{RECURSION_MESSAGE}: the recursive function {} assigns {name}, a name outside it",
                    tradfn.name.text
                ),
            ));
        }
        // A function without a result (run for what it prints) returns a boolean that no caller reads.
        if tradfn.result.is_none() {
            return Ok(Val::Array(Arr::scalar_constant(Scalar::Bool(false))));
        }
        Ok(result)
    }

    /// Runs the body of a call on the current environment (left as it was): the result, and what the body assigned
    /// to names other than the function's own, oldest first (dynamic scope makes them the caller's).
    fn tradfn_body(
        &mut self,
        tradfn: &Rc<Tradfn>,
        left: Option<Val>,
        right: Option<Val>,
        span: Span,
    ) -> ElabResult<(Val, Vec<(String, Val)>)> {
        let caller_env = self.env.clone();
        let mut env = caller_env.clone();
        let locals = tradfn_local_names(tradfn);
        for name in locals.iter().filter(|name| !name.starts_with('⎕')) {
            env = env.bind_unset(name);
        }
        for (name, line) in labels_of(&tradfn.body) {
            env = env.bind(&name, Val::Array(Arr::scalar_constant(Scalar::Int(line))));
        }
        let call_start = env.clone();
        self.env = env;
        let arguments = [(&tradfn.left, left), (&tradfn.right, right)];
        for (pattern, value) in arguments {
            if let (Some(pattern), Some(value)) = (pattern, value) {
                if let Err(error) = self.bind_pattern(pattern, value) {
                    self.env = caller_env;
                    return Err(error);
                }
            }
        }
        let saved_print = self.print;
        let saved_context = std::mem::take(&mut self.tradfn_context);
        self.call_depth += 1;
        let outcome = self.run_body(&tradfn.body, span);
        self.call_depth -= 1;
        self.tradfn_context = saved_context;
        let body_env = std::mem::replace(&mut self.env, caller_env);
        if locals.iter().any(|name| name.eq_ignore_ascii_case("⎕PP")) {
            self.print.precision = saved_print.precision;
        }
        if locals.iter().any(|name| name.eq_ignore_ascii_case("⎕PW")) {
            self.print.width = saved_print.width;
        }
        outcome?;
        let result = match &tradfn.result {
            Some(name) => body_env.lookup(&name.text).cloned().ok_or_else(|| {
                ElabError::value(
                    span,
                    format!(
                        "{} ended without a value for its result {}",
                        tradfn.name.text, name.text
                    ),
                )
            })?,
            None => Val::Tuple(Vec::new()),
        };
        let assigned_outside = body_env
            .names_bound_since(&call_start)
            .into_iter()
            .rev()
            .filter(|name| !locals.contains(name) && !is_pseudo_variable(name))
            .map(|name| {
                let value = body_env.lookup(&name).expect("a name bound since the call").clone();
                (name, value)
            })
            .collect();
        Ok((result, assigned_outside))
    }

    /// Runs a list of statements, then (when the list ends normally) the lists in `after`, the rest of the enclosing
    /// lists that a clause which may `:Return`, `:Leave` or `:Continue` carries with it.
    fn run_block(&mut self, statements: &[Statement], after: &[&[Statement]]) -> ElabResult<()> {
        for (position, statement) in statements.iter().enumerate() {
            match &statement.kind {
                StatementKind::Expr(expr) => self.statement_with_printing(expr)?,
                StatementKind::Control(control) => {
                    let rest = &statements[position + 1..];
                    match &**control {
                        Control::Return(_) => {
                            self.go_to_line(Arr::scalar_constant(Scalar::Int(0)));
                            self.leave_enclosing_loops();
                            return Ok(());
                        }
                        Control::Branch { target, span } => {
                            return self.branch_statement(target, *span, rest, after);
                        }
                        // A label only names its line; `run_blocks_between_labels` splits the body at labels.
                        Control::Label { .. } => continue,
                        Control::Leave(_) => {
                            let flag = Val::Array(Arr::scalar_constant(Scalar::Bool(true)));
                            self.env = self.env.bind(LEAVE_FLAG, flag);
                            return Ok(());
                        }
                        Control::Continue(_) => return Ok(()),
                        branching if may_end_its_list(branching) => {
                            let mut continuation = vec![rest];
                            continuation.extend_from_slice(after);
                            return self.control(branching, &continuation, statement.span);
                        }
                        other => self.control(other, &[], statement.span)?,
                    }
                }
                StatementKind::Tradfn(tradfn) => {
                    return Err(ElabError::syntax(
                        tradfn.span,
                        "a traditional function defined inside another",
                    ))
                }
                StatementKind::Guard { .. } => {
                    return Err(ElabError::syntax(statement.span, "a guard outside a dfn"));
                }
            }
        }
        match after.split_first() {
            Some((next, later)) => self.run_block(next, later),
            None => Ok(()),
        }
    }

    /// `:Return` or a taken `→` inside a loop: the pass ends (as after `:Leave`), and the exit flag tells the code
    /// after the loop to end its list too (`loop_statement`).
    fn leave_enclosing_loops(&mut self) {
        if self.tradfn_context.loop_depth > 0 {
            self.set_flag(LEAVE_FLAG, true);
            self.set_flag(EXIT_FLAG, true);
        }
    }

    /// `→target`: when the target is not empty, the statements after it do not run and the function goes on at the
    /// line its first item names (the next block, in a function with labels) or returns; otherwise the statements
    /// after it run.
    fn branch_statement(
        &mut self,
        target: &crate::syntax::ast::Expr,
        span: Span,
        rest: &[Statement],
        after: &[&[Statement]],
    ) -> ElabResult<()> {
        let value = self.expr(target)?;
        let target = self.expect_array(value, target.span)?;
        if !matches!(target.base, Base::Bool | Base::Int) || target.rank > 1 {
            return Err(ElabError::domain(span, "→ needs a scalar or vector of line numbers"));
        }
        let target = self.ravel(target);
        let target = self.bind(target);
        let count = self.primitive_monadic(Primitive::Tally, Val::Array(target.clone()), span)?;
        let count = self.expect_array(count, span)?;
        let zero = Arr::scalar_constant(Scalar::Int(0));
        let taken = self.scalar_dyadic(Primitive::Less, zero, count, span)?;
        self.on_condition(
            taken,
            span,
            |this| {
                let line = this.first(target);
                let line = this.convert(line, Base::Int, span)?;
                this.check_branch_target(&line, span)?;
                this.go_to_line(line);
                this.leave_enclosing_loops();
                Ok(())
            },
            |this| this.run_block(rest, after),
        )
    }

    /// A line known when compiling must be 0 or a label's (aplc runs a function with labels block by block, from
    /// one label to the next).
    fn check_branch_target(&self, line: &Arr, span: Span) -> ElabResult<()> {
        let Some(line) = line.constant_scalar().and_then(Scalar::as_int) else {
            return Ok(());
        };
        let labels = self.tradfn_context.label_lines.as_deref().unwrap_or_default();
        if line == 0 || labels.contains(&line) {
            return Ok(());
        }
        Err(
            ElabError::nonce(span, format!("a branch to line {line}, which has no label"))
                .with_hint("branch to labels (→LOOP) or to 0 (return)"),
        )
    }

    /// Where the function goes on after this block: a line, in a function with labels (returning for a line
    /// without a block); without labels, the function returns.
    fn go_to_line(&mut self, line: Arr) {
        if self.tradfn_context.label_lines.is_some() {
            self.env = self.env.bind(NEXT_LINE, Val::Array(line));
        }
    }

    /// A tradfn's body: its statements in order, or, when it has labels, block by block.
    fn run_body(&mut self, body: &[Statement], span: Span) -> ElabResult<()> {
        let labels = labels_of(body);
        if labels.is_empty() {
            return self.run_block(body, &[]);
        }
        self.run_blocks_between_labels(body, &labels, span)
    }

    /// A body with labels, as a loop whose state holds the line of the next block to run: each pass runs the block
    /// that starts at that line (the statements up to the next label), which leaves the next line in the state
    /// (the following block's, or a branch's target); a line that starts no block ends the loop, and the function.
    ///
    /// The variables the function assigns are the loop's state, so each needs a value before the loop: the
    /// statements are elaborated once in their written order first (the code is discarded) to find each local's
    /// type, and a local that has no value yet starts as a placeholder of that type. A program that reads a local
    /// before assigning it (a VALUE ERROR in Dyalog) reads that placeholder instead.
    fn run_blocks_between_labels(
        &mut self,
        body: &[Statement],
        labels: &[(String, i64)],
        span: Span,
    ) -> ElabResult<()> {
        let lines: Vec<i64> = labels.iter().map(|(_, line)| *line).collect();
        self.tradfn_context.label_lines = Some(lines);
        let mut blocks: Vec<(i64, &[Statement])> = Vec::new();
        let mut start = 0;
        let mut start_line = FIRST_BLOCK;
        for (position, statement) in body.iter().enumerate() {
            if let StatementKind::Control(control) = &statement.kind {
                if let Control::Label { line, .. } = &**control {
                    blocks.push((start_line, &body[start..position]));
                    start = position + 1;
                    start_line = *line as i64;
                }
            }
        }
        blocks.push((start_line, &body[start..]));
        self.give_locals_placeholders(body)?;
        self.env = self
            .env
            .bind(NEXT_LINE, Val::Array(Arr::scalar_constant(Scalar::Int(FIRST_BLOCK))));
        self.elaborate_loop(span, None, &mut |this: &mut Elaborator| {
            let line = this.flag(NEXT_LINE);
            this.run_block_at(&blocks, line, span)?;
            // Done unless the next line starts a block.
            let next = this.flag(NEXT_LINE);
            let mut starts_block = Arr::scalar_constant(Scalar::Bool(false));
            for (block_line, _) in &blocks {
                let block_line = Arr::scalar_constant(Scalar::Int(*block_line));
                let is_this = this.scalar_dyadic(Primitive::Equal, next.clone(), block_line, span)?;
                starts_block = this.scalar_dyadic(Primitive::Or, starts_block, is_this, span)?;
            }
            let done = this.scalar_monadic(Primitive::Tilde, starts_block, span)?;
            this.env = this.env.bind(DONE_FLAG, Val::Array(done));
            Ok(())
        })?;
        Ok(())
    }

    /// The block that starts at `line`, which goes on at the next block's line unless it branches.
    fn run_block_at(&mut self, blocks: &[(i64, &[Statement])], line: Arr, span: Span) -> ElabResult<()> {
        let Some(((block_line, statements), later)) = blocks.split_first() else {
            return Ok(());
        };
        let following = later.first().map_or(0, |(next_line, _)| *next_line);
        let block_start = Arr::scalar_constant(Scalar::Int(*block_line));
        let is_this = self.scalar_dyadic(Primitive::Equal, line.clone(), block_start, span)?;
        self.on_condition(
            is_this,
            span,
            |this| {
                this.go_to_line(Arr::scalar_constant(Scalar::Int(following)));
                this.run_block(statements, &[])
            },
            |this| this.run_block_at(later, line, span),
        )
    }

    /// Gives each local (the result, the `;` names) that has no value the value of a placeholder of the type it has
    /// when the body is elaborated in its written order (branches not taken).
    fn give_locals_placeholders(&mut self, body: &[Statement]) -> ElabResult<()> {
        let before = self.env.clone();
        let saved_variables = self.next_variable;
        self.frames.push(Vec::new());
        let outcome = self.run_in_written_order(body);
        let written_order = std::mem::replace(&mut self.env, before.clone());
        self.frames.pop();
        self.next_variable = self.next_variable.max(saved_variables);
        outcome?;
        for name in written_order.names_bound_since(&before) {
            if is_pseudo_variable(&name) || !matches!(before.find(&name), Some(None)) {
                continue;
            }
            let Some(value) = written_order.lookup(&name) else {
                continue;
            };
            if !is_data(value) {
                continue;
            }
            let value_type = value_type(value, Span::default())?;
            let placeholder = self.placeholder_of_type(&value_type);
            self.env = self.env.bind(&name, placeholder);
        }
        Ok(())
    }

    /// The body's statements one after the other, with every branch not taken (for the types of its locals).
    fn run_in_written_order(&mut self, body: &[Statement]) -> ElabResult<()> {
        for statement in body {
            let is_branch = matches!(&statement.kind, StatementKind::Control(control)
                if matches!(&**control, Control::Branch { .. } | Control::Return(_)));
            if !is_branch {
                self.run_block(std::slice::from_ref(statement), &[])?;
            }
        }
        Ok(())
    }

    /// One control structure; `after` is what runs after each of its clauses (empty unless a clause may end the
    /// enclosing list).
    fn control(&mut self, control: &Control, after: &[&[Statement]], span: Span) -> ElabResult<()> {
        match control {
            Control::If { clauses, otherwise } => self.if_clauses(clauses, otherwise.as_deref(), after),
            Control::Select {
                value,
                cases,
                otherwise,
            } => {
                let value = self.expr(value)?;
                let value = self.bind_value(value);
                self.select_cases(&value, cases, otherwise.as_deref(), after)
            }
            Control::While { condition, body, until } => self.loop_statement(body, after, span, |this| {
                this.while_loop(condition, until.as_ref(), body, span)
            }),
            Control::Repeat { body, until } => {
                self.loop_statement(body, after, span, |this| this.repeat_loop(body, until.as_ref(), span))
            }
            Control::For { variable, values, body } => {
                self.loop_statement(body, after, span, |this| this.for_loop(variable, values, body, span))
            }
            Control::Return(_)
            | Control::Leave(_)
            | Control::Continue(_)
            | Control::Branch { .. }
            | Control::Label { .. } => {
                unreachable!("run_block handles the statements that end a list, and labels")
            }
        }
    }

    /// A loop, then, when its body may exit the function (`:Return` or `→` inside it), the statements after it
    /// (`after`) unless it did exit: then the enclosing loop's pass is left too, or, outside loops, the list ends.
    fn loop_statement(
        &mut self,
        body: &[Statement],
        after: &[&[Statement]],
        span: Span,
        run_loop: impl FnOnce(&mut Self) -> ElabResult<()>,
    ) -> ElabResult<()> {
        let exits = exits_the_function(body);
        if exits {
            // The flag is part of the loop's state (a name bound before the loop that a pass rebinds).
            self.set_flag(EXIT_FLAG, false);
        }
        self.tradfn_context.loop_depth += 1;
        let outcome = run_loop(self);
        self.tradfn_context.loop_depth -= 1;
        outcome?;
        if !exits {
            return Ok(());
        }
        let exited = self.flag(EXIT_FLAG);
        self.on_condition(
            exited,
            span,
            |this| {
                this.leave_enclosing_loops();
                Ok(())
            },
            |this| match after.split_first() {
                Some((next, later)) => this.run_block(next, later),
                None => Ok(()),
            },
        )
    }

    fn if_clauses(
        &mut self,
        clauses: &[(Condition, Vec<Statement>)],
        otherwise: Option<&[Statement]>,
        after: &[&[Statement]],
    ) -> ElabResult<()> {
        let Some(((condition, body), later)) = clauses.split_first() else {
            return self.run_block(otherwise.unwrap_or_default(), after);
        };
        let span = condition.first.span;
        let condition = self.condition(condition)?;
        self.on_condition(
            condition,
            span,
            |this| this.run_block(body, after),
            |this| this.if_clauses(later, otherwise, after),
        )
    }

    fn select_cases(
        &mut self,
        value: &Val,
        cases: &[Case],
        otherwise: Option<&[Statement]>,
        after: &[&[Statement]],
    ) -> ElabResult<()> {
        let Some((case, later)) = cases.split_first() else {
            return self.run_block(otherwise.unwrap_or_default(), after);
        };
        let candidates = self.expr(&case.value)?;
        let condition = self.case_matches(value, candidates, case.list, case.value.span)?;
        self.on_condition(
            condition,
            case.value.span,
            |this| this.run_block(&case.body, after),
            |this| this.select_cases(value, later, otherwise, after),
        )
    }

    /// `:Case v`: the selected value matches v. `:CaseList vs`: it matches some item of vs.
    fn case_matches(&mut self, value: &Val, candidates: Val, list: bool, span: Span) -> ElabResult<Arr> {
        if !list {
            let matched = self.primitive_dyadic(Primitive::Match, value.clone(), candidates, span)?;
            return self.expect_array(matched, span);
        }
        let items = match candidates {
            Val::Tuple(items) => items,
            Val::Array(array) => {
                // A simple array's items are scalars: only a scalar can match one.
                let Val::Array(selected) = value else {
                    return Ok(Arr::scalar_constant(Scalar::Bool(false)));
                };
                if selected.rank != 0 {
                    return Ok(Arr::scalar_constant(Scalar::Bool(false)));
                }
                let member = self.primitive_dyadic(Primitive::Epsilon, value.clone(), Val::Array(array), span)?;
                return self.expect_array(member, span);
            }
            other => {
                let matched = self.primitive_dyadic(Primitive::Match, value.clone(), other, span)?;
                return self.expect_array(matched, span);
            }
        };
        let mut any = Arr::scalar_constant(Scalar::Bool(false));
        for item in items {
            let matched = self.primitive_dyadic(Primitive::Match, value.clone(), item, span)?;
            let matched = self.expect_array(matched, span)?;
            any = self.scalar_dyadic(Primitive::Or, any, matched, span)?;
        }
        Ok(any)
    }

    /// The boolean scalar of a clause's condition, with `:AndIf`s and `:OrIf`s tested only as far as needed.
    fn condition(&mut self, condition: &Condition) -> ElabResult<Arr> {
        let mut result = self.condition_expression(&condition.first)?;
        for more in &condition.more {
            let (when_true, when_false): (Option<&_>, Option<&_>) = if condition.all {
                (Some(more), None)
            } else {
                (None, Some(more))
            };
            let decided = result.constant_scalar();
            result = match decided {
                Some(Scalar::Bool(true)) if condition.all => self.condition_expression(more)?,
                Some(Scalar::Bool(false)) if !condition.all => self.condition_expression(more)?,
                Some(_) => result,
                None => {
                    let value = self.conditional(
                        result,
                        |this| this.condition_or_constant(when_true, true),
                        |this| this.condition_or_constant(when_false, false),
                        more.span,
                    )?;
                    self.expect_array(value, more.span)?
                }
            };
        }
        Ok(result)
    }

    fn condition_or_constant(&mut self, expr: Option<&crate::syntax::ast::Expr>, constant: bool) -> ElabResult<Val> {
        match expr {
            Some(expr) => self.condition_expression(expr).map(Val::Array),
            None => Ok(Val::Array(Arr::scalar_constant(Scalar::Bool(constant)))),
        }
    }

    fn condition_expression(&mut self, expr: &crate::syntax::ast::Expr) -> ElabResult<Arr> {
        let value = self.expr(expr)?;
        let array = self.expect_array(value, expr.span)?;
        self.guard_condition(array, expr.span)
    }

    /// Runs `when_true` or `when_false` on the environment, as the condition says: the one clause when the condition
    /// is known, else both, each on its own copy of the environment, joined by a TAIL conditional over the names
    /// they rebind.
    fn on_condition(
        &mut self,
        condition: Arr,
        span: Span,
        when_true: impl FnOnce(&mut Self) -> ElabResult<()>,
        when_false: impl FnOnce(&mut Self) -> ElabResult<()>,
    ) -> ElabResult<()> {
        match condition.constant_scalar() {
            Some(Scalar::Bool(true)) => return when_true(self),
            Some(Scalar::Bool(false)) => return when_false(self),
            _ => {}
        }
        let condition = self.bind(condition);
        let before = self.env.clone();
        let (true_frame, true_env) = self.clause(when_true, &before)?;
        let (false_frame, false_env) = self.clause(when_false, &before)?;
        let mut joined: Vec<(String, Val, Val)> = Vec::new();
        let mut candidates = true_env.names_bound_since(&before);
        candidates.extend(false_env.names_bound_since(&before));
        for name in candidates {
            if joined.iter().any(|(seen, ..)| *seen == name) || true_env.same_binding(&false_env, &name) {
                continue;
            }
            let (Some(true_value), Some(false_value)) = (true_env.lookup(&name), false_env.lookup(&name)) else {
                // Assigned on one path only: no value after the condition, unless a loop around it makes the name
                // part of its state (and so gives it a value on every path in its next probe).
                let one_side = true_env.lookup(&name).or(false_env.lookup(&name));
                if let Some(value) = one_side.filter(|value| is_data(value)) {
                    let one_side_type = value_type(value, span)?;
                    self.tradfn_context.assigned_on_one_path.push((name, one_side_type));
                }
                continue;
            };
            if !is_data(true_value) || !is_data(false_value) {
                return Err(ElabError::nonce(
                    span,
                    format!("{name} is given a different function on the two paths of a condition"),
                ));
            }
            joined.push((name, true_value.clone(), false_value.clone()));
        }
        // The value of the conditional: a flag (so that it is never an empty tuple) and the joined names.
        let unit = || Val::Array(Arr::scalar_constant(Scalar::Bool(false)));
        let true_value = Val::Tuple(
            std::iter::once(unit())
                .chain(joined.iter().map(|(_, v, _)| v.clone()))
                .collect(),
        );
        let false_value = Val::Tuple(
            std::iter::once(unit())
                .chain(joined.iter().map(|(_, _, v)| v.clone()))
                .collect(),
        );
        let true_type = value_type(&true_value, span)?;
        let false_type = value_type(&false_value, span)?;
        let target = match super::dfns::join_types(&true_type, &false_type) {
            Some(target) => target,
            None => return Err(self.paths_disagree(&joined, span)),
        };
        let true_expr = self.finish_branch(true_frame, true_value, &target, span)?;
        let false_expr = self.finish_branch(false_frame, false_value, &target, span)?;
        let expr = Expr::If(
            Box::new(condition.expr),
            Box::new(true_expr),
            Box::new(false_expr),
            target.clone(),
        );
        let Val::Tuple(values) = self.bind_structured(expr, &value_of_type(&target), span)? else {
            unreachable!("a tuple type")
        };
        let mut env = before;
        for ((name, ..), value) in joined.iter().zip(values.into_iter().skip(1)) {
            env = env.bind(name, value);
        }
        self.env = env;
        Ok(())
    }

    /// The NONCE ERROR of a name that has another rank or kind on each outcome of a condition.
    fn paths_disagree(&self, joined: &[(String, Val, Val)], span: Span) -> ElabError {
        for (name, true_value, false_value) in joined {
            let (Ok(true_type), Ok(false_type)) = (value_type(true_value, span), value_type(false_value, span)) else {
                continue;
            };
            if super::dfns::join_types(&true_type, &false_type).is_none() {
                return rank_or_kind_changes(name, &false_type, &true_type, span);
            }
        }
        ElabError::nonce(span, "values of another rank or kind on each path of a condition")
    }

    /// Elaborates one clause of a condition in a scope of its own, from `before`; returns the scope and the
    /// environment the clause left.
    fn clause(
        &mut self,
        work: impl FnOnce(&mut Self) -> ElabResult<()>,
        before: &Env,
    ) -> ElabResult<(Vec<super::Entry>, Env)> {
        self.frames.push(Vec::new());
        self.env = before.clone();
        let outcome = work(self);
        let env = std::mem::replace(&mut self.env, before.clone());
        let frame = self.frames.pop().expect("the clause's frame");
        outcome?;
        Ok((frame, env))
    }

    // ----- loops -----

    /// `:While c`: when c holds, a loop whose pass is the body followed by the test of c for the next pass. Testing
    /// before the loop and at the end of each pass (rather than at the start of each) leaves the pass without a
    /// conditional around the body, so that its arrays can be updated in place.
    fn while_loop(
        &mut self,
        condition: &Condition,
        until: Option<&Condition>,
        body: &[Statement],
        span: Span,
    ) -> ElabResult<()> {
        let holds = self.condition(condition)?;
        // After a pass, `:Until u` is tested first, then the `:While` condition for the next pass.
        let mut tests: Vec<(&Condition, LoopTest)> =
            until.map(|until| (until, LoopTest::UntilHolds)).into_iter().collect();
        tests.push((condition, LoopTest::WhileHolds));
        self.loop_when(holds, span, &mut |this: &mut Elaborator| {
            this.loop_pass_body(body, &tests)
        })
    }

    /// A loop that runs (at least one pass) when `runs` holds. A name the loop gives its first value gets a
    /// placeholder when it does not run (read only by a program that would stop with a VALUE ERROR in Dyalog).
    fn loop_when(&mut self, runs: Arr, span: Span, pass: &mut LoopPass<'_>) -> ElabResult<()> {
        let first_assigned = std::cell::RefCell::new(Vec::new());
        self.on_condition(
            runs,
            span,
            |this| {
                *first_assigned.borrow_mut() = this.elaborate_loop(span, None, pass)?;
                Ok(())
            },
            |this| {
                for (name, state_type) in first_assigned.take() {
                    let placeholder = this.placeholder_of_type(&state_type);
                    this.env = this.env.bind(&name, placeholder);
                }
                Ok(())
            },
        )
    }

    fn placeholder_of_type(&mut self, value_type: &Type) -> Val {
        let placeholder = rebuild_value(super::dfns::placeholder_expr(value_type), &value_of_type(value_type));
        let placeholder = self.generalize_value(placeholder);
        self.bind_value(placeholder)
    }

    fn repeat_loop(&mut self, body: &[Statement], until: Option<&Condition>, span: Span) -> ElabResult<()> {
        let tests: Vec<(&Condition, LoopTest)> = until.map(|until| (until, LoopTest::UntilHolds)).into_iter().collect();
        self.elaborate_loop(span, None, &mut |this: &mut Elaborator| {
            this.loop_pass_body(body, &tests)
        })?;
        Ok(())
    }

    /// The statements of one pass with a fresh leave flag; the loop is done when the pass left it, or when one of
    /// the tests after it says so (in order, each only when the ones before did not: none after a `:Leave`).
    fn loop_pass_body(&mut self, body: &[Statement], tests: &[(&Condition, LoopTest)]) -> ElabResult<()> {
        self.set_flag(LEAVE_FLAG, false);
        self.run_block(body, &[])?;
        let left = self.flag(LEAVE_FLAG);
        let done = self.done_unless_tests_say(left, tests)?;
        self.env = self.env.bind(DONE_FLAG, Val::Array(done));
        Ok(())
    }

    /// `done`, or, when it does not hold, what the first test says, or the next, ...
    fn done_unless_tests_say(&mut self, done: Arr, tests: &[(&Condition, LoopTest)]) -> ElabResult<Arr> {
        let Some(((condition, test), later)) = tests.split_first() else {
            return Ok(done);
        };
        let span = condition.first.span;
        match done.constant_scalar() {
            Some(Scalar::Bool(false)) => {
                let done = self.loop_test(condition, *test)?;
                self.done_unless_tests_say(done, later)
            }
            Some(_) => Ok(done),
            None => {
                let value = self.conditional(
                    done,
                    |_| Ok(Val::Array(Arr::scalar_constant(Scalar::Bool(true)))),
                    |this| {
                        let done = this.loop_test(condition, *test)?;
                        this.done_unless_tests_say(done, later).map(Val::Array)
                    },
                    span,
                )?;
                self.expect_array(value, span)
            }
        }
    }

    /// Whether the loop is done, by its condition: `:Until c` when c holds, `:While c` when it does not.
    fn loop_test(&mut self, condition: &Condition, test: LoopTest) -> ElabResult<Arr> {
        let holds = self.condition(condition)?;
        match test {
            LoopTest::UntilHolds => Ok(holds),
            LoopTest::WhileHolds => self.scalar_monadic(Primitive::Tilde, holds, condition.first.span),
        }
    }

    /// `:For name :In values`: a loop over the ravel's items with a hidden counter, or, over a strand, one copy
    /// of the body per item. As for `:While`, the count is tested before the loop and at the end of each pass.
    fn for_loop(
        &mut self,
        variable: &NamePattern,
        values: &crate::syntax::ast::Expr,
        body: &[Statement],
        span: Span,
    ) -> ElabResult<()> {
        let values_span = values.span;
        let values = self.expr(values)?;
        let values = match values {
            Val::Tuple(items) => return self.unrolled_for_loop(variable, items, body, span),
            Val::Nested { items, .. } => return self.unrolled_for_loop(variable, items, body, span),
            other => self.expect_array(other, values_span)?,
        };
        let ravel = self.primitive_monadic(Primitive::Comma, Val::Array(values), values_span)?;
        let ravel = self.bind_value(ravel);
        let count = self.primitive_monadic(Primitive::Tally, ravel.clone(), values_span)?;
        let count = self.expect_array(count, values_span)?;
        let count = self.bind(count);
        let counter = format!(" k{}", self.fresh_name(""));
        self.env = self
            .env
            .bind(&counter, Val::Array(Arr::scalar_constant(Scalar::Int(0))));
        // Without a :Leave the loop makes exactly `count` passes (none for an empty vector): a `power`, with no
        // conditional around the loop (which would copy the arrays it changes, each time an enclosing loop runs it).
        let counted = !leaves_its_loop(body) && !exits_the_function(body);
        let mut pass = |this: &mut Elaborator| {
            let position = this.expect_array(this.env.lookup(&counter).expect("the counter").clone(), span)?;
            let one = Arr::scalar_constant(Scalar::Int(1));
            let next = this.scalar_dyadic(Primitive::Plus, position, one, span)?;
            let next = this.bind(next);
            let item = this.primitive_dyadic(Primitive::RightShoe, Val::Array(next.clone()), ravel.clone(), span)?;
            let item = this.bind_value(item);
            this.env = this.env.bind(&counter, Val::Array(next.clone()));
            this.bind_pattern(variable, item)?;
            this.loop_pass_body(body, &[])?;
            if counted {
                return Ok(());
            }
            // Done when the pass left, or was the last.
            let left = this.flag(DONE_FLAG);
            let last = this.scalar_dyadic(Primitive::GreaterEqual, next, count.clone(), span)?;
            let done = this.scalar_dyadic(Primitive::Or, left, last, span)?;
            this.env = this.env.bind(DONE_FLAG, Val::Array(done));
            Ok(())
        };
        if counted {
            self.elaborate_loop(span, Some(&count), &mut pass)?;
            return Ok(());
        }
        let zero = Arr::scalar_constant(Scalar::Int(0));
        let any = self.scalar_dyadic(Primitive::Less, zero, count.clone(), values_span)?;
        self.loop_when(any, span, &mut pass)
    }

    /// `:For` over items known when compiling: the body once per item, each pass after a `:Leave` skipped.
    fn unrolled_for_loop(
        &mut self,
        variable: &NamePattern,
        items: Vec<Val>,
        body: &[Statement],
        span: Span,
    ) -> ElabResult<()> {
        let outer_leave = self.env.lookup(LEAVE_FLAG).cloned();
        self.set_flag(LEAVE_FLAG, false);
        for item in items {
            let left = self.flag(LEAVE_FLAG);
            let pass = |this: &mut Elaborator| {
                this.bind_pattern(variable, item.clone())?;
                this.run_block(body, &[])
            };
            self.on_condition(left, span, |_| Ok(()), pass)?;
        }
        match outer_leave {
            Some(flag) => self.env = self.env.bind(LEAVE_FLAG, flag),
            None => self.set_flag(LEAVE_FLAG, false),
        }
        Ok(())
    }

    /// Binds a `:For`'s variable to an item, or a header's argument name to its value; or the names in
    /// parentheses to its items (`:For (A B) :In`, `∇ R←F (A B)`, as `(A B)←value`).
    fn bind_pattern(&mut self, variable: &NamePattern, item: Val) -> ElabResult<()> {
        match variable {
            NamePattern::Name(name) => {
                self.env = self.env.bind(&name.text, item);
            }
            NamePattern::Names(names, span) => {
                self.destructuring_assignment(names, item, *span)?;
            }
        }
        Ok(())
    }

    /// A loop: `pass` is elaborated first on placeholders to find the state (the names bound before the loop that
    /// a pass rebinds, with types that hold for every pass), then once on the state of a `powerUntil`, which runs
    /// passes until one sets the done flag, or of a `power` that runs `count` passes (none when it is 0).
    ///
    /// Returns the names of the state that had no value before the loop, with their types.
    fn elaborate_loop(
        &mut self,
        span: Span,
        count: Option<&Arr>,
        pass: &mut LoopPass<'_>,
    ) -> ElabResult<Vec<(String, Type)>> {
        let before = self.env.clone();
        let state = self.probe_loop_state(&before, span, pass)?;
        let mut state_types = vec![Type::scalar(Base::Bool)];
        state_types.extend(state.iter().map(|(_, state_type)| state_type.clone()));
        let state_type = Type::Tuple(state_types);
        // The pass, on a state variable.
        let parameter = self.fresh_name("s");
        let Val::Tuple(components) = rebuild_value(Expr::Var(parameter.clone()), &value_of_type(&state_type)) else {
            unreachable!("a tuple state")
        };
        let mut env = before.clone();
        for ((name, _), component) in state.iter().zip(components.into_iter().skip(1)) {
            env = env.bind(name, component);
        }
        self.frames.push(Vec::new());
        self.env = env;
        self.set_flag(DONE_FLAG, false);
        let outcome = pass(self).and_then(|()| {
            let mut next = vec![Val::Array(self.flag(DONE_FLAG))];
            next.extend(
                state
                    .iter()
                    .map(|(name, _)| self.env.lookup(name).expect("a state name").clone()),
            );
            let next = self.convert_value(Val::Tuple(next), &state_type, span)?;
            Ok(self.generalize_value(next))
        });
        self.env = before.clone();
        let frame = self.frames.pop().expect("the loop pass frame");
        let body = super::wrap_entries(frame, value_expr(&outcome?));
        let step = Expr::lambda(&parameter, state_type.clone(), body);
        let (previous, next) = (self.fresh_name("s"), self.fresh_name("s"));
        let done = Expr::Project(0, Box::new(Expr::Var(next.clone())));
        let predicate = Expr::lambda(
            &next,
            state_type.clone(),
            Expr::lambda(&previous, state_type.clone(), done),
        );
        let mut initial = vec![Val::Array(Arr::scalar_constant(Scalar::Bool(false)))];
        // A name the loop gives its first value starts as a placeholder (read only by a program that would stop
        // with a VALUE ERROR in Dyalog).
        initial.extend(state.iter().map(|(name, state_type)| match before.lookup(name) {
            Some(value) => value.clone(),
            None => rebuild_value(super::dfns::placeholder_expr(state_type), &value_of_type(state_type)),
        }));
        let initial = self.convert_value(Val::Tuple(initial), &state_type, span)?;
        let initial = value_expr(&self.generalize_value(initial));
        let looped = match count {
            Some(count) => Expr::op("power", vec![step, count.expr.clone(), initial]),
            None => Expr::op("powerUntil", vec![step, predicate, initial]),
        };
        let Val::Tuple(finals) = self.bind_structured(looped, &value_of_type(&state_type), span)? else {
            unreachable!("a tuple state")
        };
        let first_assigned = state
            .iter()
            .filter(|(name, _)| before.lookup(name).is_none())
            .cloned()
            .collect();
        let mut env = before;
        for ((name, _), value) in state.iter().zip(finals.into_iter().skip(1)) {
            env = env.bind(name, value);
        }
        self.env = env;
        Ok(first_assigned)
    }

    /// The state of a loop: each name bound before the loop that a pass rebinds, with a type that every pass keeps
    /// (bases joined, as `1` then `1.5` make a double).
    fn probe_loop_state(
        &mut self,
        before: &Env,
        span: Span,
        pass: &mut LoopPass<'_>,
    ) -> ElabResult<Vec<(String, Type)>> {
        let mut state: Vec<(String, Type)> = Vec::new();
        for _ in 0..LOOP_PROBES {
            let saved_variables = self.next_variable;
            let mut start = before.clone();
            for (name, state_type) in &state {
                let placeholder = self.placeholder_variable(state_type);
                start = start.bind(name, placeholder);
            }
            self.frames.push(Vec::new());
            self.env = start.clone();
            self.set_flag(DONE_FLAG, false);
            let enclosing_one_path = std::mem::take(&mut self.tradfn_context.assigned_on_one_path);
            let outcome = pass(self);
            let on_one_path = std::mem::replace(&mut self.tradfn_context.assigned_on_one_path, enclosing_one_path);
            let after = std::mem::replace(&mut self.env, before.clone());
            self.frames.pop();
            self.next_variable = self.next_variable.max(saved_variables);
            outcome?;
            let mut changed = false;
            for name in after.names_bound_since(&start) {
                let old_value = before.lookup(&name);
                if is_flag(&name) || after.same_binding(before, &name) {
                    continue;
                }
                let Some(new_value) = after.lookup(&name) else {
                    continue;
                };
                // A function first defined in the pass, or a nested loop's counter, is the pass's own.
                if old_value.is_none() && (!is_data(new_value) || is_pseudo_variable(&name)) {
                    continue;
                }
                if !is_data(new_value) || old_value.is_some_and(|old_value| !is_data(old_value)) {
                    return Err(ElabError::nonce(
                        span,
                        format!("a loop that gives {name} another function"),
                    ));
                }
                let old_type = old_value.map(|old_value| value_type(old_value, span)).transpose()?;
                let new_type = value_type(new_value, span)?;
                changed |= note_state_name(&mut state, name, old_type, new_type, span)?;
            }
            // A name assigned on one path of a pass (a :For's body runs on one path, the end of the loop is the
            // other) and that had no value before the loop.
            for (name, new_type) in on_one_path {
                if before.lookup(&name).is_none() && !is_pseudo_variable(&name) {
                    changed |= note_state_name(&mut state, name, None, new_type, span)?;
                }
            }
            if !changed {
                return Ok(state);
            }
        }
        Err(ElabError::nonce(span, "a loop whose variables' types do not settle"))
    }

    fn set_flag(&mut self, flag: &str, value: bool) {
        self.env = self
            .env
            .bind(flag, Val::Array(Arr::scalar_constant(Scalar::Bool(value))));
    }

    /// A flag's value (false when it was never set).
    fn flag(&self, flag: &str) -> Arr {
        match self.env.lookup(flag) {
            Some(Val::Array(array)) => array.clone(),
            _ => Arr::scalar_constant(Scalar::Bool(false)),
        }
    }
}

/// The tradfn a value is when it is a niladic one: its name alone calls it, so it reads as an array.
pub fn niladic_tradfn(value: &Val) -> Option<Rc<Tradfn>> {
    match value {
        Val::Function(function) => match &**function {
            Fun::Tradfn(tradfn, _) if tradfn.right.is_none() => Some(tradfn.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// A dyadic tradfn needs a left argument unless it is `{A}`; a monadic or niladic one takes none.
fn check_tradfn_valence(tradfn: &Tradfn, has_left: bool, has_right: bool, span: Span) -> ElabResult<()> {
    let name = &tradfn.name.text;
    match (&tradfn.left, has_left) {
        (Some(_), false) if !tradfn.optional_left => {
            return Err(ElabError::syntax(span, format!("{name} needs a left argument")))
        }
        (None, true) => return Err(ElabError::syntax(span, format!("{name} takes no left argument"))),
        _ => {}
    }
    if tradfn.right.is_some() != has_right {
        return Err(ElabError::syntax(
            span,
            format!("{name} called with the wrong number of arguments"),
        ));
    }
    Ok(())
}

/// The NONCE ERROR of a variable whose rank or kind changes through a control structure: the loop or conditional
/// that would need it to be both.
fn rank_or_kind_changes(name: &str, first: &Type, then: &Type, span: Span) -> ElabError {
    ElabError::nonce(
        span,
        format!(
            "{name} is {} on one path through this control structure and {} on another",
            type_in_words(first),
            type_in_words(then)
        ),
    )
    .with_hint(
        "a variable keeps one rank, and numbers or characters, through an :If or a loop: start a vector that grows \
         with ⍬ or '' (R←⍬, not R←0)",
    )
}

/// `an integer scalar`, `a character vector`, `a double matrix`, `a boolean rank-3 array`, `a strand`.
fn type_in_words(value_type: &Type) -> String {
    let Type::Array { base, rank } = value_type else {
        return "a strand".to_string();
    };
    let base = match base {
        Base::Bool => "boolean",
        Base::Int => "integer",
        Base::Double => "double",
        Base::Complex => "complex",
        Base::Char => "character",
    };
    let shape = match rank {
        0 => "scalar".to_string(),
        1 => "vector".to_string(),
        2 => "matrix".to_string(),
        rank => format!("rank-{rank} array"),
    };
    let article = if base.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {base} {shape}")
}

/// Adds a name that a loop's pass assigns to the loop's state, or joins the type it has there with the new one;
/// says whether the state changed. `old_type` is its type before the loop, if it had a value.
fn note_state_name(
    state: &mut Vec<(String, Type)>,
    name: String,
    old_type: Option<Type>,
    new_type: Type,
    span: Span,
) -> ElabResult<bool> {
    let position = state.iter().position(|(known, _)| *known == name);
    let known = match (position, old_type) {
        (Some(position), _) => state[position].1.clone(),
        (None, Some(old_type)) => old_type,
        (None, None) => new_type.clone(),
    };
    let joined = super::dfns::join_types(&known, &new_type)
        .ok_or_else(|| rank_or_kind_changes(&name, &known, &new_type, span))?;
    match position {
        Some(position) if state[position].1 == joined => Ok(false),
        Some(position) => {
            state[position].1 = joined;
            Ok(true)
        }
        None => {
            state.push((name, joined));
            Ok(true)
        }
    }
}

/// Whether a loop body may `:Leave` its loop (at any depth of `:If` and `:Select`; a nested loop's `:Leave` is its
/// own).
fn leaves_its_loop(body: &[Statement]) -> bool {
    controls(body).any(|control| match control {
        Control::Leave(_) => true,
        other => clause_bodies(other).into_iter().any(leaves_its_loop),
    })
}

/// Whether a loop body may `:Return` or branch (`→`) out of the function, at any depth (nested loops included).
fn exits_the_function(body: &[Statement]) -> bool {
    controls(body).any(|control| match control {
        Control::Return(_) | Control::Branch { .. } => true,
        Control::While { body, .. } | Control::Repeat { body, .. } | Control::For { body, .. } => {
            exits_the_function(body)
        }
        other => clause_bodies(other).into_iter().any(exits_the_function),
    })
}

/// The control structures among a list's statements.
fn controls(statements: &[Statement]) -> impl Iterator<Item = &Control> {
    statements.iter().filter_map(|statement| match &statement.kind {
        StatementKind::Control(control) => Some(&**control),
        _ => None,
    })
}

/// The bodies of the clauses of an `:If` or `:Select` (none for the other statements).
fn clause_bodies(control: &Control) -> Vec<&[Statement]> {
    match control {
        Control::If { clauses, otherwise } => clauses
            .iter()
            .map(|(_, body)| body.as_slice())
            .chain(otherwise.as_deref())
            .collect(),
        Control::Select { cases, otherwise, .. } => cases
            .iter()
            .map(|case| case.body.as_slice())
            .chain(otherwise.as_deref())
            .collect(),
        _ => Vec::new(),
    }
}

/// The labels of a body (at its top level, where the parser allows them) with their lines.
fn labels_of(body: &[Statement]) -> Vec<(String, i64)> {
    body.iter()
        .filter_map(|statement| match &statement.kind {
            StatementKind::Control(control) => match &**control {
                Control::Label { name, line } => Some((name.text.clone(), *line as i64)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// The names a call makes local: the result, the arguments and the `;` locals.
fn tradfn_local_names(tradfn: &Tradfn) -> Vec<String> {
    let arguments = [&tradfn.left, &tradfn.right];
    let argument_names = arguments.into_iter().flatten().flat_map(NamePattern::names);
    tradfn
        .result
        .iter()
        .chain(argument_names)
        .chain(tradfn.locals.iter())
        .map(|name| name.text.clone())
        .collect()
}

/// The names the elaborator binds for itself (flags, a `:For`'s counter) start with a blank, which no APL name can.
fn is_pseudo_variable(name: &str) -> bool {
    name.starts_with(' ')
}

/// A pass's own flags, which are not part of a loop's state (a `:For`'s counter is).
fn is_flag(name: &str) -> bool {
    name == DONE_FLAG || name == LEAVE_FLAG
}

fn is_data(value: &Val) -> bool {
    matches!(value, Val::Array(_) | Val::Tuple(_) | Val::Nested { .. })
}

/// Whether a clause of this `:If` or `:Select` may end the list it is in (`:Return`, `:Leave`, `:Continue`, at any
/// depth of nested `:If`s and `:Select`s; a nested loop's `:Leave` is its own), or this loop may (`:Return` or `→`
/// inside it).
fn may_end_its_list(control: &Control) -> bool {
    match control {
        Control::If { .. } | Control::Select { .. } => clause_bodies(control).into_iter().any(|body| {
            controls(body).any(|nested| {
                matches!(nested, Control::Return(_) | Control::Leave(_) | Control::Continue(_))
                    || may_end_its_list(nested)
            })
        }),
        // A loop's `:Leave` and `:Continue` are its own; a `:Return` or `→` inside it ends the list after it.
        Control::While { body, .. } | Control::Repeat { body, .. } | Control::For { body, .. } => {
            exits_the_function(body)
        }
        Control::Return(_) | Control::Leave(_) | Control::Continue(_) | Control::Branch { .. } => true,
        Control::Label { .. } => false,
    }
}
