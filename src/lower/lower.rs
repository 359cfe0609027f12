//! TAIL → loop IR. The lowering walks the typed TAIL program once, in evaluation order, emitting statements. Scalars
//! become IR expressions (bound to variables when they are let-bound or non-trivial), arrays become [`Arr`]s: pull
//! arrays whose elements are computed on demand by index functions (digest §4.2), or materialised arrays in a memory
//! block. Structural checks (zipWith shapes, index bounds, negative extents) are emitted where the op is evaluated,
//! so they fail after the same output as in the TAIL interpreter.
//!
//! Materialisation (the thesis' rules): a let-bound array used more than once or under a lambda, the source of a
//! reshape, the argument of a power loop, and the results of reduce (rank ≥ 2), scan, compress, replicate, expand,
//! update, vector literals and `mem`. Everything else composes index functions and allocates nothing. A shared
//! let-bound array stays a pull array when it is cheap to recompute or read at one index by one consumer (the rules
//! and the cost model are in `fusion.rs`).
//!
//! Element-level APL errors (a division by zero inside an `each`) are raised when the element is computed, which in a
//! fused loop may be later than in the interpreter, or never when the element is not needed (`first(each(...))`).
//!
//! After lowering, [`insert_frees`] frees every block after the last statement that mentions it (at the nesting level
//! of its allocation), except the blocks the program returns.

use super::fusion::{is_cheap_to_duplicate, memoised, used_element_wise_once};
use super::pull::{Arr, Materialised, Pull};
use crate::loops::error::LowerError;
use crate::loops::ir::{self, ArrayRef, Block, Expr, Layout, ResultValue, ScalarType, Stmt, Var};
use crate::loops::rewrite::mentions_block;
use crate::runtime::error::AplErrorKind;
use crate::source::Span;
use crate::tail::ast::{self as tail, ExprKind, Op};
use crate::tail::scalar_ops::is_scalar_op;
use std::collections::HashSet;
use std::rc::Rc;

pub type LowerResult<T> = Result<T, LowerError>;

/// The body of [`Lowerer::nested_loops`]: gets the multi-index and the row-major position.
pub type LoopBody<'a> = &'a mut dyn FnMut(&mut Lowerer, &[Expr], Expr) -> LowerResult<()>;

/// Let-bound vector literals up to this length are not materialised even when used many times.
const MAX_SHARED_LITERAL: usize = 8;

/// A TAIL value during lowering.
#[derive(Clone)]
pub enum Lowered {
    Scalar(Expr),
    Array(Arr),
    Function(Function),
    Tuple(Vec<Lowered>),
}

impl Lowered {
    /// The value with every pull array's index function run at `site` (see [`Pull::at_site`]).
    fn at_site(self, site: Span) -> Lowered {
        match self {
            Lowered::Array(Arr::Pull(pull)) => Lowered::Array(Arr::Pull(pull.at_site(site))),
            Lowered::Tuple(components) => Lowered::Tuple(components.into_iter().map(|c| c.at_site(site)).collect()),
            other => other,
        }
    }
}

/// A function value: an operator name or a lambda with its environment.
#[derive(Clone)]
pub enum Function {
    Op(Op),
    Lambda {
        parameter: Rc<str>,
        body: Rc<tail::Expr>,
        env: Env,
    },
}

/// A persistent environment (newest binding first), cheap to capture in lambdas.
#[derive(Clone, Default)]
pub struct Env {
    head: Option<Rc<EnvNode>>,
}

struct EnvNode {
    name: Rc<str>,
    value: Lowered,
    next: Option<Rc<EnvNode>>,
}

impl Env {
    pub fn bind(&self, name: &str, value: Lowered) -> Env {
        Env {
            head: Some(Rc::new(EnvNode {
                name: Rc::from(name),
                value,
                next: self.head.clone(),
            })),
        }
    }

    pub fn lookup(&self, name: &str) -> Option<&Lowered> {
        let mut node = self.head.as_deref();
        while let Some(binding) = node {
            if &*binding.name == name {
                return Some(&binding.value);
            }
            node = binding.next.as_deref();
        }
        None
    }
}

/// Lowers a typed TAIL program (after `infer_program`) to a loop program.
pub fn lower_program(program: &tail::Program) -> LowerResult<ir::Program> {
    let mut lowerer = Lowerer::default();
    let functions = lowerer.lower_functions(program)?;
    let value = lowerer.lower(&program.body, &Env::default())?;
    let result = lowerer.result_value(value)?;
    let mut body = lowerer.statements.pop().expect("the top-level statement list");
    let mut keep = HashSet::new();
    collect_result_blocks(&result, &mut keep);
    insert_frees(&mut body, &keep);
    lowerer.finish_statements(&mut body);
    Ok(ir::Program {
        functions,
        body,
        result,
    })
}

pub(super) fn collect_result_blocks(result: &ResultValue, blocks: &mut HashSet<u32>) {
    match result {
        ResultValue::Scalar(_) => {}
        ResultValue::Array(array) => {
            blocks.insert(array.block.id);
        }
        ResultValue::Tuple(components) => components.iter().for_each(|c| collect_result_blocks(c, blocks)),
    }
}

/// The state of the lowering: fresh-name supply and the stack of statement lists being built (the innermost is where
/// statements go; loop and branch bodies push a new list).
pub struct Lowerer {
    next_id: u32,
    statements: Vec<Vec<Stmt>>,
    /// The blocks that hold a REPL line's inputs, by input number (see `input.rs`).
    pub(super) input_blocks: Vec<(usize, Block)>,
    /// A unique id per statement list in `statements` (parallel to it): a variable bound in a list whose id is
    /// still here is in scope (memoised reads in `fusion.rs`).
    scope_ids: Vec<u64>,
    next_scope_id: u64,
    /// The ids of mutable variables (`var x = e`), whose value depends on where they are read.
    mutable_ids: HashSet<u32>,
    /// How many loops over the elements of an array enclose the statements being built (see
    /// [`Lowerer::with_every_element_evaluated`]).
    pub(super) element_loops: usize,
    /// The APL text whose code is being lowered (the span of the innermost TAIL node that has one): what the checks
    /// emitted now report as their position.
    pub(super) site: Option<Span>,
    /// Multi-indices already computed from row-major positions (see [`Lowerer::to_multi_index`]).
    pub(super) multi_indices: Vec<MultiIndexEntry>,
    /// The parameters and the result of each function of the program, by name (`functions.rs`).
    pub(super) function_signatures: std::collections::HashMap<String, super::functions::Signature>,
    /// Vectors already sorted for ⍋ ⍒ ⍳ ∊ (`search.rs`), so that searching one vector twice sorts it once.
    pub(super) search_structures: Vec<super::search::SearchStructureEntry>,
}

/// A multi-index computed from a stable row-major position in the statement list `scope`: while that list is open,
/// the same position in the same shape reuses its variables.
pub(super) struct MultiIndexEntry {
    pub(super) shape: Vec<Expr>,
    pub(super) position: Expr,
    pub(super) scope: u64,
    pub(super) index: Vec<Expr>,
}

impl Default for Lowerer {
    fn default() -> Lowerer {
        Lowerer {
            next_id: 0,
            statements: vec![Vec::new()],
            input_blocks: Vec::new(),
            scope_ids: vec![0],
            next_scope_id: 1,
            mutable_ids: HashSet::new(),
            element_loops: 0,
            site: None,
            multi_indices: Vec::new(),
            search_structures: Vec::new(),
            function_signatures: std::collections::HashMap::new(),
        }
    }
}

impl Lowerer {
    /// The rewrites that end the lowering of a statement list (a program's, or a function's body).
    pub(super) fn finish_statements(&mut self, body: &mut Vec<Stmt>) {
        crate::loops::passes::invariant_mutables::make_invariant_mutables_lets(body);
        crate::loops::passes::overflow_checks::remove_overflow_checks(body);
        crate::loops::passes::index_simplify::simplify_statements(body);
        crate::loops::passes::interchange::interchange_statements(body, &mut self.next_id);
        crate::loops::passes::row_fusion::fuse_rows(body);
    }

    // ---- Building statements ----

    pub fn fresh_var(&mut self, ty: ScalarType, hint: &str) -> Var {
        self.next_id += 1;
        Var {
            id: self.next_id,
            ty,
            hint: Rc::from(hint),
        }
    }

    pub fn fresh_block(&mut self, element: ScalarType) -> Block {
        self.next_id += 1;
        Block::new(self.next_id, element)
    }

    /// The state of the fresh-name supply, for a probe whose statements are discarded (see `restore_name_supply`).
    pub fn name_supply(&self) -> u32 {
        self.next_id
    }

    /// Gives back the names taken since `name_supply` returned `supply` (only when nothing named since is kept).
    pub fn restore_name_supply(&mut self, supply: u32) {
        self.next_id = supply;
    }

    pub fn emit(&mut self, statement: Stmt) {
        self.statements.last_mut().expect("a statement list").push(statement);
    }

    /// Runs `build` with a fresh statement list and returns the statements it emitted with its result.
    pub fn capture<T>(&mut self, build: impl FnOnce(&mut Lowerer) -> LowerResult<T>) -> LowerResult<(Vec<Stmt>, T)> {
        self.statements.push(Vec::new());
        self.scope_ids.push(self.next_scope_id);
        self.next_scope_id += 1;
        let result = build(self);
        self.scope_ids.pop();
        let statements = self.statements.pop().expect("pushed above");
        result.map(|value| (statements, value))
    }

    /// The statements emitted so far into the statement list being built.
    pub fn current_statements(&self) -> &[Stmt] {
        self.statements.last().expect("a statement list")
    }

    /// The id of the statement list being built.
    pub fn current_scope(&self) -> u64 {
        *self.scope_ids.last().expect("a statement list")
    }

    /// Forgets the multi-indices computed in statement lists that are closed (their variables are out of scope).
    pub(super) fn forget_closed_multi_indices(&mut self) {
        let scope_ids = &self.scope_ids;
        self.multi_indices.retain(|entry| scope_ids.contains(&entry.scope));
    }

    /// Whether the statement list with this id is still being built (so what it bound is in scope here).
    pub fn scope_is_open(&self, scope: u64) -> bool {
        self.scope_ids.contains(&scope)
    }

    /// Whether an expression has the same value wherever it is read in the scope of its variables: no mutable
    /// variable and no load (a block may be written in between).
    pub fn is_stable(&self, expr: &Expr) -> bool {
        match expr {
            Expr::Var(var) => !self.mutable_ids.contains(&var.id),
            Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) => true,
            Expr::Prim(_, args) => args.iter().all(|arg| self.is_stable(arg)),
            Expr::Load { .. } => false,
            Expr::Select(c, a, b) => self.is_stable(c) && self.is_stable(a) && self.is_stable(b),
            Expr::At(_, inner) => self.is_stable(inner),
            Expr::Threshold { .. } => false,
        }
    }

    /// What a probe whose statements are discarded may change (the fresh-name counter and the set of mutable
    /// variables), saved before it and restored after it so that the probe leaves no trace.
    pub fn probe_state(&self) -> (u32, HashSet<u32>) {
        (self.next_id, self.mutable_ids.clone())
    }

    pub fn restore_probe_state(&mut self, (next_id, mutable_ids): (u32, HashSet<u32>)) {
        self.next_id = next_id;
        self.mutable_ids = mutable_ids;
    }

    /// `let x = e` for a non-trivial expression; trivial ones are returned as they are.
    pub fn bind(&mut self, value: Expr, hint: &str) -> Expr {
        if value.is_trivial() {
            return value;
        }
        let var = self.fresh_var(value.ty(), hint);
        self.emit(Stmt::Let {
            var: var.clone(),
            value,
        });
        Expr::Var(var)
    }

    /// A mutable variable initialised to `value`.
    pub fn mutable(&mut self, value: Expr, hint: &str) -> Var {
        let var = self.fresh_var(value.ty(), hint);
        self.mutable_ids.insert(var.id);
        self.emit(Stmt::Mutable {
            var: var.clone(),
            value,
        });
        var
    }

    /// `for i < count { body(i) }`.
    pub fn for_loop(
        &mut self,
        count: Expr,
        hint: &str,
        body: impl FnOnce(&mut Lowerer, Expr) -> LowerResult<()>,
    ) -> LowerResult<()> {
        let index = self.fresh_var(ScalarType::Int, hint);
        self.element_loops += 1;
        let captured = self.capture(|lowerer| body(lowerer, Expr::Var(index.clone())));
        self.element_loops -= 1;
        let (statements, ()) = captured?;
        self.emit(Stmt::For {
            index,
            count,
            body: statements,
        });
        Ok(())
    }

    /// Nested loops over a shape in row-major order; `body` gets the multi-index and the flat position (a running
    /// counter, so no multiplications).
    pub fn nested_loops(&mut self, shape: &[Expr], body: LoopBody<'_>) -> LowerResult<()> {
        if shape.is_empty() {
            return body(self, &[], Expr::Int(0));
        }
        if shape.len() == 1 {
            return self.for_loop(shape[0].clone(), "i", |lowerer, i| {
                body(lowerer, std::slice::from_ref(&i), i.clone())
            });
        }
        let counter = self.mutable(Expr::Int(0), "p");
        self.nested_loops_from(shape, &mut Vec::new(), &counter, body)
    }

    fn nested_loops_from(
        &mut self,
        shape: &[Expr],
        prefix: &mut Vec<Expr>,
        counter: &Var,
        body: LoopBody<'_>,
    ) -> LowerResult<()> {
        if prefix.len() == shape.len() {
            body(self, prefix, Expr::var(counter))?;
            self.emit(Stmt::Assign {
                var: counter.clone(),
                value: Expr::add_int(Expr::var(counter), Expr::Int(1)),
            });
            return Ok(());
        }
        let extent = shape[prefix.len()].clone();
        let index = self.fresh_var(ScalarType::Int, "i");
        self.element_loops += 1;
        let captured = self.capture(|lowerer| {
            prefix.push(Expr::Var(index.clone()));
            let result = lowerer.nested_loops_from(shape, prefix, counter, body);
            prefix.pop();
            result
        });
        self.element_loops -= 1;
        let (statements, ()) = captured?;
        self.emit(Stmt::For {
            index,
            count: extent,
            body: statements,
        });
        Ok(())
    }

    /// `cond ? then() : otherwise()`, as a select when neither side emits statements, otherwise as an `if` that
    /// assigns a mutable variable (so only the chosen side's statements run).
    pub fn choose(
        &mut self,
        condition: Expr,
        ty: ScalarType,
        then: impl FnOnce(&mut Lowerer) -> LowerResult<Expr>,
        otherwise: impl FnOnce(&mut Lowerer) -> LowerResult<Expr>,
    ) -> LowerResult<Expr> {
        match condition {
            Expr::Bool(true) => return then(self),
            Expr::Bool(false) => return otherwise(self),
            _ => {}
        }
        let (then_statements, then_value) = self.capture(then)?;
        let (otherwise_statements, otherwise_value) = self.capture(otherwise)?;
        if let (Some(then_value), Some(otherwise_value)) = (
            inline_lets(&then_statements, &then_value),
            inline_lets(&otherwise_statements, &otherwise_value),
        ) {
            return Ok(Expr::select(condition, then_value, otherwise_value));
        }
        let result = self.mutable(ty.fill(), "r");
        let assign = |mut statements: Vec<Stmt>, value: Expr| {
            statements.push(Stmt::Assign {
                var: result.clone(),
                value,
            });
            statements
        };
        let then_statements = assign(then_statements, then_value);
        let otherwise_statements = assign(otherwise_statements, otherwise_value);
        self.emit(Stmt::If {
            condition,
            then: then_statements,
            otherwise: otherwise_statements,
        });
        Ok(Expr::Var(result))
    }

    /// Emits `if condition { then } else { otherwise }`, or just one side when the condition is constant.
    pub fn emit_if(&mut self, condition: Expr, then: Vec<Stmt>, otherwise: Vec<Stmt>) {
        let chosen = match condition {
            Expr::Bool(true) => then,
            Expr::Bool(false) => otherwise,
            condition => {
                self.emit(Stmt::If {
                    condition,
                    then,
                    otherwise,
                });
                return;
            }
        };
        for statement in chosen {
            self.emit(statement);
        }
    }

    /// Emits `if failed { error kind message }` (nothing when `failed` is statically false).
    pub fn fail_if(&mut self, failed: Expr, kind: AplErrorKind, message: &str) {
        let error = Stmt::Error {
            kind,
            message: message.to_string(),
            site: self.site,
        };
        match failed {
            Expr::Bool(false) => {}
            Expr::Bool(true) => self.emit(error),
            condition => self.emit(Stmt::If {
                condition,
                then: vec![error],
                otherwise: vec![],
            }),
        }
    }

    // ---- Expressions ----

    /// Lowers one TAIL expression. A node with source text behind it becomes the site of the checks emitted while it
    /// is lowered, and of those its pull arrays emit later, wherever their elements are read.
    pub fn lower(&mut self, expr: &tail::Expr, env: &Env) -> LowerResult<Lowered> {
        if expr.span.is_empty() || matches!(expr.kind, ExprKind::Var(_)) {
            return self.lower_at_enclosing_site(expr, env);
        }
        let enclosing = self.site.replace(expr.span);
        let lowered = self.lower_at_enclosing_site(expr, env);
        self.site = enclosing;
        Ok(lowered?.at_site(expr.span))
    }

    fn lower_at_enclosing_site(&mut self, expr: &tail::Expr, env: &Env) -> LowerResult<Lowered> {
        match &expr.kind {
            ExprKind::Int(n) => Ok(Lowered::Scalar(Expr::Int(*n))),
            ExprKind::Double(x) => Ok(Lowered::Scalar(Expr::Double(*x))),
            ExprKind::Bool(b) => Ok(Lowered::Scalar(Expr::Bool(*b))),
            ExprKind::Char(c) => Ok(Lowered::Scalar(Expr::Char(*c))),
            ExprKind::Complex(re, im) => Ok(Lowered::Scalar(Expr::complex(*re, *im))),
            ExprKind::Var(name) => env
                .lookup(name)
                .cloned()
                .ok_or_else(|| LowerError::ill_typed(format!("unbound variable {name}"))),
            ExprKind::Vector { elements, element_type } => {
                let mut values = Vec::with_capacity(elements.len());
                for element in elements {
                    let value = self.lower(element, env)?;
                    let value = self.as_scalar(value)?;
                    values.push(self.bind(value, "e"));
                }
                let element = match values.first() {
                    Some(first) => first.ty(),
                    None => element_type
                        .map(|base| scalar_type(base, "an empty vector"))
                        .transpose()?
                        .unwrap_or(ScalarType::Int),
                };
                Ok(Lowered::Array(Arr::Literal {
                    element,
                    elements: values,
                }))
            }
            ExprKind::Op { op, args } => {
                let mut values = Vec::with_capacity(args.len());
                for arg in args {
                    values.push(self.lower(arg, env)?);
                }
                if reads_only_the_shape_of_a_computed_array(*op, args) {
                    if let Some(Lowered::Array(arr)) = values.pop() {
                        values.push(Lowered::Array(self.with_every_element_evaluated(arr)?));
                    }
                }
                self.lower_op(*op, values)
            }
            ExprKind::OpRef(op) => Ok(Lowered::Function(Function::Op(*op))),
            ExprKind::Let { name, value, body, .. } => {
                let value = self.lower(value, env)?;
                let value = self.bind_let(name, value, body)?;
                if let Lowered::Array(Arr::Mat(mat)) = &value {
                    self.emit(Stmt::View {
                        name: name.clone(),
                        block: mat.block,
                        shape: mat.shape.clone(),
                        layout: mat.layout.clone(),
                    });
                }
                let env = env.bind(name, value);
                self.lower(body, &env)
            }
            ExprKind::Lambda { parameter, body, .. } => Ok(Lowered::Function(Function::Lambda {
                parameter: Rc::from(parameter.as_str()),
                body: Rc::new((**body).clone()),
                env: env.clone(),
            })),
            ExprKind::Tuple(components) => {
                let mut values = Vec::with_capacity(components.len());
                for component in components {
                    values.push(self.lower(component, env)?);
                }
                Ok(Lowered::Tuple(values))
            }
            ExprKind::Project { index, tuple } => match self.lower(tuple, env)? {
                Lowered::Tuple(mut values) if *index >= 1 && *index <= values.len() => {
                    Ok(values.swap_remove(index - 1))
                }
                _ => Err(LowerError::ill_typed("projection out of a non-tuple")),
            },
            ExprKind::Call { function, args } => self.lower_call(function, args, env),
        }
    }

    /// What a `let` binds: scalars get a variable; arrays used more than once or under a lambda are materialised.
    fn bind_let(&mut self, name: &str, value: Lowered, body: &tail::Expr) -> LowerResult<Lowered> {
        match value {
            Lowered::Scalar(expr) => Ok(Lowered::Scalar(self.bind(expr, name))),
            Lowered::Array(arr) => {
                let uses = count_uses(name, body, false);
                let shared = uses.count > 1 || uses.under_lambda;
                if uses.count == 0 || first_event(name, body) == Event::Effect {
                    // Never read (`≢` of it was folded to a constant, or the name is unused), or read only after
                    // something the program prints: APL computed it here, so an element that fails must fail here,
                    // before that output (see `with_every_element_evaluated`).
                    return Ok(Lowered::Array(self.with_every_element_evaluated(arr)?));
                }
                match arr {
                    // One element of a block (`T←V[J]`) is read where the let binds it, as APL reads it: a later
                    // read could see the block after an in-place update (`V[J]←V[J+1]` before `V[J+1]←T`), and
                    // the update passes may then store into the block itself.
                    Arr::Mat(_) if arr.rank() == 0 => {
                        let element = self.as_scalar(Lowered::Array(arr))?;
                        Ok(Lowered::Scalar(self.bind(element, name)))
                    }
                    Arr::Pull(pull) if shared && !self.is_cheap_to_recompute(&pull) => {
                        // Memoised reads are keyed by their index form. A rank ≥ 2 array read flat is read through
                        // `to_multi_index`, which gives one position the same multi-index every time, so reads of
                        // both forms at one element meet in the memo.
                        if used_element_wise_once(name, body) {
                            Ok(Lowered::Array(Arr::Pull(memoised(pull))))
                        } else {
                            Ok(Lowered::Array(Arr::Mat(self.materialise(&Arr::Pull(pull))?)))
                        }
                    }
                    // Short literals (shape and axis vectors) stay static: re-materialising one costs a few stores.
                    Arr::Literal { ref elements, .. } if shared && elements.len() > MAX_SHARED_LITERAL => {
                        Ok(Lowered::Array(self.indexable(arr)?))
                    }
                    other => Ok(Lowered::Array(other)),
                }
            }
            other => Ok(other),
        }
    }

    // ---- Conversions between lowered values ----

    pub fn as_scalar(&mut self, value: Lowered) -> LowerResult<Expr> {
        match value {
            Lowered::Scalar(expr) => Ok(expr),
            Lowered::Array(arr) if arr.rank() == 0 => {
                let arr = self.indexable(arr)?;
                self.read_shaped(&arr, &[])
            }
            Lowered::Array(_) => Err(LowerError::ill_typed("an array where a scalar is expected")),
            _ => Err(LowerError::ill_typed("a function or tuple where a scalar is expected")),
        }
    }

    pub fn as_int(&mut self, value: Lowered) -> LowerResult<Expr> {
        let expr = self.as_scalar(value)?;
        match expr.ty() {
            ScalarType::Int => Ok(expr),
            ScalarType::Bool => Ok(Expr::Prim(Op::B2I, vec![expr])),
            _ => Err(LowerError::ill_typed("expected an int")),
        }
    }

    /// The value as an array (a scalar becomes a rank-0 pull array).
    pub fn as_array(&mut self, value: Lowered) -> LowerResult<Arr> {
        match value {
            Lowered::Array(arr) => Ok(arr),
            Lowered::Scalar(expr) => {
                let expr = self.bind(expr, "s");
                Ok(Arr::Pull(Pull::scalar(expr)))
            }
            _ => Err(LowerError::ill_typed("a function or tuple where an array is expected")),
        }
    }

    /// The elements of a vector whose length is known statically (shape vectors, axis vectors, index vectors).
    pub fn static_vector(&mut self, arr: Arr, what: &str) -> LowerResult<Vec<Expr>> {
        if let Arr::Literal { elements, .. } = &arr {
            return Ok(elements.clone());
        }
        if arr.rank() != 1 {
            return Err(LowerError::ill_typed(format!("{what} must be a vector")));
        }
        let Some(length) = arr.shape()[0].as_int() else {
            return Err(LowerError::unsupported(format!(
                "{what} of a length unknown at compile time"
            )));
        };
        let arr = self.indexable(arr)?;
        let mut elements = Vec::new();
        for k in 0..length {
            let element = self.read_flat(&arr, Expr::Int(k))?;
            elements.push(self.bind(element, "e"));
        }
        Ok(elements)
    }

    // ---- Functions ----

    /// Applies a function to values (curried: extra arguments go to the result).
    pub fn apply(&mut self, function: &Function, mut args: Vec<Lowered>) -> LowerResult<Lowered> {
        match function {
            Function::Op(op) => {
                if args.len() != op.arity() {
                    return Err(LowerError::unsupported(format!("partial application of {}", op.name())));
                }
                self.lower_op(*op, args)
            }
            Function::Lambda { parameter, body, env } => {
                if args.is_empty() {
                    return Ok(Lowered::Function(function.clone()));
                }
                let rest = args.split_off(1);
                let argument = match args.pop().expect("one argument") {
                    Lowered::Scalar(expr) => Lowered::Scalar(self.bind(expr, parameter)),
                    other => other,
                };
                let env = env.bind(parameter, argument);
                let result = self.lower(body, &env)?;
                if rest.is_empty() {
                    Ok(result)
                } else {
                    match result {
                        Lowered::Function(inner) => self.apply(&inner, rest),
                        _ => Err(LowerError::ill_typed("too many arguments for a function")),
                    }
                }
            }
        }
    }

    pub fn as_function(value: Lowered) -> LowerResult<Function> {
        match value {
            Lowered::Function(function) => Ok(function),
            _ => Err(LowerError::ill_typed("expected a function")),
        }
    }

    /// Applies a scalar function to scalar expressions, giving a scalar expression.
    pub fn apply_scalar(&mut self, function: &Function, args: &[Expr]) -> LowerResult<Expr> {
        if let Function::Op(op) = function {
            if is_scalar_op(*op) && op.arity() == args.len() {
                return Ok(self.operation_at_current_site(*op, args.to_vec()));
            }
        }
        let args = args.iter().cloned().map(Lowered::Scalar).collect();
        let result = self.apply(function, args)?;
        self.as_scalar(result)
    }

    /// The element type a scalar function returns for arguments of the given types, found by lowering it once on
    /// placeholder variables and discarding the statements.
    pub fn result_type(&mut self, function: &Function, argument_types: &[ScalarType]) -> LowerResult<ScalarType> {
        let (_, ty) = self.capture(|lowerer| {
            let args: Vec<Expr> = argument_types
                .iter()
                .map(|ty| Expr::Var(lowerer.fresh_var(*ty, "probe")))
                .collect();
            Ok(lowerer.apply_scalar(function, &args)?.ty())
        })?;
        Ok(ty)
    }

    // ---- The program result ----

    pub(super) fn result_value(&mut self, value: Lowered) -> LowerResult<ResultValue> {
        match value {
            Lowered::Scalar(expr) => Ok(ResultValue::Scalar(self.bind(expr, "result"))),
            Lowered::Array(arr) if arr.rank() == 0 => {
                let expr = self.as_scalar(Lowered::Array(arr))?;
                Ok(ResultValue::Scalar(self.bind(expr, "result")))
            }
            Lowered::Array(arr) => Ok(ResultValue::Array(self.array_ref(&arr)?)),
            Lowered::Tuple(components) => Ok(ResultValue::Tuple(
                components
                    .into_iter()
                    .map(|c| self.result_value(c))
                    .collect::<LowerResult<_>>()?,
            )),
            Lowered::Function(_) => Err(LowerError::unsupported("a function as the program's result")),
        }
    }

    /// A row-major block at offset 0 holding the array (the array's own block when it already is one).
    pub fn array_ref(&mut self, arr: &Arr) -> LowerResult<ArrayRef> {
        let arr = self.indexable(arr.clone())?;
        let mat = match arr {
            Arr::Mat(mat) if mat.layout.offset == Expr::Int(0) && mat.layout.is_row_major(&mat.shape) => mat,
            other => self.materialise(&other)?,
        };
        Ok(ArrayRef {
            block: mat.block,
            shape: mat.shape,
        })
    }

    /// `print(code, x)`: prints through the runtime with the print code of ⎕PP and ⎕PW
    /// ([`aplc_runtime::display::PrintSettings`]) and returns x.
    fn print(&mut self, precision: &Expr, value: Lowered) -> LowerResult<Lowered> {
        match value {
            Lowered::Scalar(expr) => {
                let expr = self.bind(expr, "s");
                self.emit(Stmt::PrintScalar {
                    value: expr.clone(),
                    precision: precision.clone(),
                });
                Ok(Lowered::Scalar(expr))
            }
            Lowered::Array(arr) if arr.rank() == 0 => {
                let expr = self.as_scalar(Lowered::Array(arr))?;
                self.print(precision, Lowered::Scalar(expr))
            }
            Lowered::Array(arr) => {
                let array = self.array_ref(&arr)?;
                self.emit(Stmt::PrintArray {
                    array: array.clone(),
                    precision: precision.clone(),
                });
                Ok(Lowered::Array(Arr::Mat(Materialised {
                    block: array.block,
                    layout: Layout::row_major(&array.shape),
                    shape: array.shape,
                })))
            }
            Lowered::Tuple(components) => {
                let mut printed = Vec::new();
                for component in components {
                    printed.push(self.print(precision, component)?);
                }
                Ok(Lowered::Tuple(printed))
            }
            Lowered::Function(_) => Err(LowerError::unsupported("printing a function")),
        }
    }

    // ---- Operators ----

    pub fn lower_op(&mut self, op: Op, args: Vec<Lowered>) -> LowerResult<Lowered> {
        if args.len() != op.arity() {
            return Err(LowerError::ill_typed(format!(
                "{} applied to {} arguments",
                op.name(),
                args.len()
            )));
        }
        if is_scalar_op(op) {
            let mut scalars = Vec::with_capacity(args.len());
            for arg in args {
                scalars.push(self.as_scalar(arg)?);
            }
            return Ok(Lowered::Scalar(self.scalar_operation(op, scalars)));
        }
        let mut args = args.into_iter();
        let mut next = move || args.next().expect("arity checked");
        match op {
            Op::Zilde => Ok(Lowered::Array(Arr::Literal {
                element: ScalarType::Int,
                elements: vec![],
            })),
            Op::Pi => Ok(Lowered::Scalar(Expr::Double(std::f64::consts::PI))),
            Op::Roll => {
                let bound = self.as_scalar(next())?;
                Ok(Lowered::Scalar(self.roll(bound)))
            }
            Op::ArgInt | Op::ArgDouble => {
                let index = self.as_int(next())?;
                let default = self.as_scalar(next())?;
                let argument = self.operation_at_current_site(op, vec![index, default]);
                Ok(Lowered::Scalar(self.bind(argument, "argument")))
            }
            Op::InputI | Op::InputD | Op::InputB | Op::InputC => {
                let index = self.as_int(next())?;
                let length = self.as_int(next())?;
                self.input(op, index, length)
            }
            Op::Mem => match next() {
                Lowered::Array(arr) => {
                    let arr = self.indexable(arr)?;
                    match arr {
                        Arr::Mat(mat) => Ok(Lowered::Array(Arr::Mat(mat))),
                        other => Ok(Lowered::Array(Arr::Mat(self.materialise(&other)?))),
                    }
                }
                other => Ok(other),
            },
            Op::Print => {
                let code = self.as_int(next())?;
                let code = self.bind(code, "pp");
                let outside = print_code_out_of_range(&code);
                self.fail_if(outside, AplErrorKind::Domain, "print precision or width out of range");
                let value = next();
                self.print(&code, value)
            }
            Op::Each | Op::EachV => {
                let function = Self::as_function(next())?;
                let arr = self.as_array(next())?;
                Ok(Lowered::Array(self.each(function, arr)?))
            }
            Op::ZipWith => {
                let function = Self::as_function(next())?;
                let left = self.as_array(next())?;
                let right = self.as_array(next())?;
                Ok(Lowered::Array(self.zip_with(function, left, right)?))
            }
            Op::Reduce => {
                let function = Self::as_function(next())?;
                let neutral = self.as_scalar(next())?;
                let arr = self.as_array(next())?;
                self.reduce(function, neutral, arr)
            }
            Op::Scan => {
                let function = Self::as_function(next())?;
                // The neutral element is not needed: APL's scan starts from each row's first element.
                let _neutral = self.as_scalar(next())?;
                let arr = self.as_array(next())?;
                Ok(Lowered::Array(self.scan(function, arr)?))
            }
            Op::Compress | Op::Replicate | Op::Expand => {
                let counts = self.as_array(next())?;
                let arr = self.as_array(next())?;
                // A count of 0 skips an element that APL computed all the same (expand reads every element).
                let arr = if op == Op::Expand {
                    arr
                } else {
                    self.with_every_element_evaluated(arr)?
                };
                Ok(Lowered::Array(self.compress_like(op, counts, arr)?))
            }
            Op::Power => {
                let function = Self::as_function(next())?;
                let count = self.as_int(next())?;
                let value = next();
                self.power(function, count, value)
            }
            Op::Bench => {
                let function = Self::as_function(next())?;
                let count = self.as_int(next())?;
                let count = self.bind(count, "iterations");
                let value = next();
                let start = self.fresh_var(ScalarType::Int, "start");
                self.emit(Stmt::ReadClock { var: start.clone() });
                let result = self.power(function, count.clone(), value)?;
                self.emit(Stmt::ReportBench {
                    iterations: Expr::Prim(Op::MaxI, vec![count, Expr::Int(0)]),
                    start: Expr::var(&start),
                });
                Ok(result)
            }
            Op::ReadFile | Op::ReadIntVecFile | Op::ReadDoubleVecFile => {
                let path = self.as_array(next())?;
                let path = self.array_ref(&path)?;
                let element = match op {
                    Op::ReadFile => ScalarType::Char,
                    Op::ReadIntVecFile => ScalarType::Int,
                    _ => ScalarType::Double,
                };
                let result = self.fresh_block(element);
                let length = self.fresh_var(ScalarType::Int, "n");
                self.emit(Stmt::ReadFile {
                    path,
                    result,
                    length: length.clone(),
                    site: self.site,
                });
                let shape = vec![Expr::var(&length)];
                Ok(Lowered::Array(Arr::Mat(Materialised {
                    block: result,
                    layout: Layout::row_major(&shape),
                    shape,
                })))
            }
            Op::NowI => {
                let now = self.fresh_var(ScalarType::Int, "now");
                self.emit(Stmt::ReadClock { var: now.clone() });
                Ok(Lowered::Scalar(Expr::var(&now)))
            }
            Op::Format | Op::FormatMatrix => {
                let precision = self.as_int(next())?;
                let precision = self.bind(precision, "pp");
                let outside = Expr::or(
                    Expr::lt(precision.clone(), Expr::Int(1)),
                    Expr::lt(Expr::Int(17), precision.clone()),
                );
                self.fail_if(outside, AplErrorKind::Domain, "print precision outside 1..17");
                let arr = self.as_array(next())?;
                let matrix = op == Op::FormatMatrix;
                if (matrix && arr.rank() != 2) || (!matrix && arr.rank() > 1) {
                    self.fail_if(
                        Expr::Bool(true),
                        AplErrorKind::Rank,
                        "format of an array of the wrong rank",
                    );
                }
                let source = self.array_ref(&arr)?;
                let result = self.fresh_block(ScalarType::Char);
                let shape: Vec<Var> = (0..if matrix { 2 } else { 1 })
                    .map(|_| self.fresh_var(ScalarType::Int, "n"))
                    .collect();
                self.emit(Stmt::Format {
                    source,
                    precision,
                    matrix,
                    result,
                    shape: shape.clone(),
                    site: self.site,
                });
                let shape: Vec<Expr> = shape.iter().map(Expr::var).collect();
                Ok(Lowered::Array(Arr::Mat(Materialised {
                    block: result,
                    layout: Layout::row_major(&shape),
                    shape,
                })))
            }
            Op::PowerUntil => {
                let function = Self::as_function(next())?;
                let predicate = Self::as_function(next())?;
                let state = next();
                self.power_until(function, predicate, state)
            }
            Op::CondScl => {
                let function = Self::as_function(next())?;
                let condition = self.as_scalar(next())?;
                let state = next();
                self.conditional(function, condition, state)
            }
            _ => self.lower_structural(op, &mut next),
        }
    }
}

/// A branch made of a few `let`s and a value, as one expression (the lets substituted), so that a `choose` can be a
/// select; `None` when the branch has other statements or too many lets.
fn inline_lets(statements: &[Stmt], value: &Expr) -> Option<Expr> {
    const MAX_INLINED: usize = 3;
    if statements.len() > MAX_INLINED {
        return None;
    }
    let mut bindings: Vec<(u32, Expr)> = Vec::new();
    for (position, statement) in statements.iter().enumerate() {
        match statement {
            Stmt::Let { var, value: bound } => {
                let bound = substitute(bound, &bindings);
                // Substituting a variable used twice duplicates its computation: only for cheap values.
                let later_uses: usize = statements[position + 1..]
                    .iter()
                    .map(|later| match later {
                        Stmt::Let { value, .. } => var_uses(value, var.id),
                        _ => 0,
                    })
                    .sum::<usize>()
                    + var_uses(value, var.id);
                if later_uses > 1 && !is_cheap_to_duplicate(&bound) {
                    return None;
                }
                bindings.push((var.id, bound));
            }
            _ => return None,
        }
    }
    Some(substitute(value, &bindings))
}

fn var_uses(expr: &Expr, id: u32) -> usize {
    match expr {
        Expr::Var(var) => usize::from(var.id == id),
        Expr::Prim(_, args) => args.iter().map(|a| var_uses(a, id)).sum(),
        Expr::Load { index, .. } => var_uses(index, id),
        Expr::Select(c, a, b) => var_uses(c, id) + var_uses(a, id) + var_uses(b, id),
        Expr::At(_, inner) => var_uses(inner, id),
        _ => 0,
    }
}

fn substitute(expr: &Expr, bindings: &[(u32, Expr)]) -> Expr {
    match expr {
        Expr::Var(var) => bindings
            .iter()
            .rev()
            .find(|(id, _)| *id == var.id)
            .map_or_else(|| expr.clone(), |(_, value)| value.clone()),
        Expr::Prim(op, args) => Expr::Prim(*op, args.iter().map(|a| substitute(a, bindings)).collect()),
        Expr::Load { block, index } => Expr::load(*block, substitute(index, bindings)),
        Expr::Select(c, a, b) => Expr::Select(
            Box::new(substitute(c, bindings)),
            Box::new(substitute(a, bindings)),
            Box::new(substitute(b, bindings)),
        ),
        Expr::At(site, inner) => Expr::At(*site, Box::new(substitute(inner, bindings))),
        other => other.clone(),
    }
}

/// The loop type of a TAIL base type.
pub fn scalar_type(base: tail::BaseType, what: &str) -> LowerResult<ScalarType> {
    ScalarType::from_base(base).ok_or_else(|| LowerError::ill_typed(format!("unresolved element type of {what}")))
}

/// How often a variable is used in an expression, and whether any use is inside a lambda.
#[derive(Clone, Copy, Debug, Default)]
struct Uses {
    count: usize,
    under_lambda: bool,
}

fn count_uses(name: &str, expr: &tail::Expr, in_lambda: bool) -> Uses {
    let mut uses = Uses::default();
    let mut add = |more: Uses| {
        uses.count += more.count;
        uses.under_lambda |= more.under_lambda;
    };
    match &expr.kind {
        // `⍴x` and `≢x` read no element: a pull array stays one however often its shape is asked for.
        _ if reads_only_the_shape_of(name, expr) => {}
        ExprKind::Var(other) if other == name => {
            return Uses {
                count: 1,
                under_lambda: in_lambda,
            }
        }
        ExprKind::Vector { elements, .. } => elements.iter().for_each(|e| add(count_uses(name, e, in_lambda))),
        ExprKind::Op { args, .. } | ExprKind::Call { args, .. } => {
            args.iter().for_each(|e| add(count_uses(name, e, in_lambda)))
        }
        ExprKind::Tuple(components) => components.iter().for_each(|e| add(count_uses(name, e, in_lambda))),
        ExprKind::Project { tuple, .. } => add(count_uses(name, tuple, in_lambda)),
        ExprKind::Let {
            name: bound,
            value,
            body,
            ..
        } => {
            add(count_uses(name, value, in_lambda));
            if bound != name {
                add(count_uses(name, body, in_lambda));
            }
        }
        ExprKind::Lambda { parameter, body, .. } if parameter != name => add(count_uses(name, body, true)),
        _ => {}
    }
    uses
}

/// Whether `expr` is `shape(name)` or `tally(name)`: a use of the array's shape only, which lowering answers from
/// the shape of a pull array without computing an element.
fn reads_only_the_shape_of(name: &str, expr: &tail::Expr) -> bool {
    match &expr.kind {
        ExprKind::Op {
            op: Op::Shape | Op::Tally,
            args,
        } => matches!(args.as_slice(), [argument] if matches!(&argument.kind, ExprKind::Var(other) if other == name)),
        _ => false,
    }
}

/// Whether `op(args)` is `⍴e` or `≢e` of an array expression `e` that is not a name: APL computes `e` before `⍴` sees
/// it, so an element of `e` that fails must fail there, though no element is read (`⍴÷0×⍳3` is a DOMAIN ERROR). A
/// let-bound name is its binding's business: `bind_let` evaluates an array that only `⍴` and `≢` read.
fn reads_only_the_shape_of_a_computed_array(op: Op, args: &[tail::Expr]) -> bool {
    matches!(op, Op::Shape | Op::ShapeV | Op::Tally)
        && matches!(args, [argument] if !matches!(argument.kind, ExprKind::Var(_)))
}

/// What comes first when `expr` is evaluated: a read of `name`, an observable effect (a print, a file read, the clock,
/// ...), or neither. Arguments are evaluated before the operation they are given to, in order, and a function
/// argument (a lambda) runs during the operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    Use,
    Effect,
    Neither,
}

fn first_event(name: &str, expr: &tail::Expr) -> Event {
    let first_of = |exprs: &mut dyn Iterator<Item = &tail::Expr>| {
        exprs
            .map(|e| first_event(name, e))
            .find(|event| *event != Event::Neither)
            .unwrap_or(Event::Neither)
    };
    match &expr.kind {
        _ if reads_only_the_shape_of(name, expr) => Event::Neither,
        ExprKind::Var(other) if other == name => Event::Use,
        ExprKind::Vector { elements, .. } => first_of(&mut elements.iter()),
        ExprKind::Tuple(components) => first_of(&mut components.iter()),
        ExprKind::Project { tuple, .. } => first_event(name, tuple),
        // A function may print.
        ExprKind::Call { args, .. } => match first_of(&mut args.iter()) {
            Event::Neither => Event::Effect,
            event => event,
        },
        // The arguments are values before the operation runs; the functions among them run during it.
        ExprKind::Op { op, args } => {
            let is_function = |arg: &&tail::Expr| matches!(arg.kind, ExprKind::Lambda { .. });
            match first_of(&mut args.iter().filter(|arg| !is_function(arg))) {
                Event::Neither => match first_of(&mut args.iter().filter(is_function)) {
                    Event::Neither if crate::opt::safety::is_effectful(*op) => Event::Effect,
                    event => event,
                },
                event => event,
            }
        }
        ExprKind::Let {
            name: bound,
            value,
            body,
            ..
        } => match first_event(name, value) {
            Event::Neither if bound != name => first_event(name, body),
            event => event,
        },
        ExprKind::Lambda { parameter, body, .. } if parameter != name => first_event(name, body),
        _ => Event::Neither,
    }
}

// ---- Freeing blocks ----

/// Inserts `free b` after the last statement of each list that mentions a block allocated in that list (blocks in
/// `keep` are left to the runtime).
pub fn insert_frees(statements: &mut Vec<Stmt>, keep: &HashSet<u32>) {
    for statement in statements.iter_mut() {
        match statement {
            Stmt::For { body, .. } | Stmt::While { body, .. } => insert_frees(body, keep),
            Stmt::If { then, otherwise, .. } => {
                insert_frees(then, keep);
                insert_frees(otherwise, keep);
            }
            _ => {}
        }
    }
    let allocated: Vec<Block> = statements
        .iter()
        .filter_map(|s| match s {
            Stmt::Alloc { block, .. } | Stmt::Format { result: block, .. } | Stmt::ReadFile { result: block, .. }
                if !keep.contains(&block.id) =>
            {
                Some(*block)
            }
            // An array a call returns belongs to the caller.
            Stmt::Call {
                result: ir::Slot::Array { block, .. },
                ..
            } if !keep.contains(&block.id) => Some(*block),
            _ => None,
        })
        .collect();
    // Insert from the back so that earlier positions stay valid.
    let mut insertions: Vec<(usize, Block)> = allocated
        .into_iter()
        .map(|block| {
            let last = statements
                .iter()
                .rposition(|s| mentions_block(s, block.id))
                .expect("the allocation mentions the block");
            (last + 1, block)
        })
        .collect();
    insertions.sort_by_key(|(position, block)| (std::cmp::Reverse(*position), std::cmp::Reverse(block.id)));
    for (position, block) in insertions {
        statements.insert(position, Stmt::Free { block });
    }
}

/// Whether a print code ([`aplc_runtime::display::PrintSettings`]: ⎕PP plus 100 × ⎕PW, 0 for the default ⎕PW) is
/// out of range: a ⎕PP outside 1..17 or a ⎕PW outside 42..32767. Elaboration makes only valid constant codes, so
/// this folds away.
fn print_code_out_of_range(code: &Expr) -> Expr {
    use aplc_runtime::display::PrintSettings;
    let precision = Expr::Prim(Op::ResI, vec![Expr::Int(100), code.clone()]);
    let width = Expr::div_int(code.clone(), Expr::Int(100));
    let (narrowest, widest) = (
        *PrintSettings::WIDTHS.start() as i64,
        *PrintSettings::WIDTHS.end() as i64,
    );
    let bad_precision = Expr::or(
        Expr::lt(precision.clone(), Expr::Int(1)),
        Expr::lt(Expr::Int(17), precision),
    );
    let bad_width = Expr::or(
        Expr::lt(code.clone(), Expr::Int(0)),
        Expr::or(
            Expr::and(
                Expr::lt(Expr::Int(0), width.clone()),
                Expr::lt(width.clone(), Expr::Int(narrowest)),
            ),
            Expr::lt(Expr::Int(widest), width),
        ),
    );
    Expr::or(bad_precision, bad_width)
}
