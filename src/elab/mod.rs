//! Elaboration: the APL AST to well-typed TAIL.
//!
//! Compilation by inlining, as in the thesis' compiler: every primitive, dfn and operator is a compile-time function
//! over tagged TAIL expressions ([`env::Arr`]: an expression with its static base type, rank, and whatever extents or
//! values are known). Arguments are let-bound before they are used twice, so inlining never duplicates work. Item
//! sequences are resolved (`resolve.rs`) with the environment at hand, since the parse depends on what names denote.
//!
//! A script becomes one TAIL expression that evaluates the statements in order; a statement whose value is not
//! assigned is printed (as is `⎕←x`), through the TAIL print op with the print precision then in force.
//!
//! Public API: [`elaborate_program`] (a script to a TAIL program, annotation errors included), [`Session`] (a REPL's
//! piece-by-piece elaboration), [`elaborate_to_ir`] (the elaborator's own TAIL terms, for debugging).
//!
//! Code map: `resolve.rs` (classes, operators, strands, right-to-left, trains), `env.rs` (compile-time values),
//! `scalar.rs` (scalar functions, promotion, scalar extension, constant folding), `structural.rs` (`⍴ , ⍳ ⌽ ↑ ...`),
//! `operators.rs` (`/ \ ¨ ∘. . ⍣ ⍨ ∘ ⍤ @` and identity items), `dfns.rs` (dfn application, guards, recursion),
//! `indexing.rs` (`A[i;j]`, indexed assignment), `search.rs` (`⍳ ∊ ≡ ~ ⊥ ⊤`), `system.rs` (`⎕` names),
//! `annotations.rs` (`⍝:` types, checked at calls), `annotation_check.rs` (every annotation parsed; each annotated
//! dfn checked once, generically), `symbolic_shapes.rs` (lengths as linear terms of shape variables, for that check),
//! `ir.rs` (the TAIL terms built here, with the source sites of run-time errors), `lower.rs` (those terms to
//! `crate::tail::ast`), `error.rs`, and `prelude/prelude.apl` (primitives whose clearest definition is APL).

pub mod annotation_check;
pub mod annotations;
pub mod boolean_products;
pub mod dfns;
pub mod env;
pub mod error;
pub mod indexing;
pub mod ir;
pub mod line;
pub mod linear_algebra;
pub mod lower;
pub mod operators;
pub mod resolve;
pub mod scalar;
pub mod search;
pub mod selective;
pub mod self_reference;
pub mod strands;
pub mod structural;
pub mod symbolic_shapes;
pub mod system;
pub mod tradfns;

#[cfg(test)]
mod tests;

use crate::source::{SourceFile, Span};
use crate::syntax::ast;
use crate::syntax::ast::Primitive;
use aplc_runtime::display::PrintSettings;
use env::{Arr, Closure, Env, Fun, Opr, Scalar, Val};
pub use error::{ElabError, ElabErrors, ElabResult};
use ir::{Base, Expr, Type};
use resolve::{Class, Node, Resolver};
use std::rc::Rc;

/// The NONCE ERROR of a function applied to scalars (by each, reduce, scan) that returns a non-scalar: a nested
/// result, which each alone can give, as a strand (`strands.rs`).
pub const NESTED_RESULT: &str = "a function that returns an array where a scalar is needed";

/// APL definitions of some primitives' harder cases.
const PRELUDE: &str = include_str!("../../prelude/prelude.apl");

/// Dyalog's default print precision.
pub const DEFAULT_PRINT_PRECISION: u32 = 10;

/// Elaborate a whole script to one TAIL term (in the elaborator's mirror of TAIL, `ir::Expr`).
pub fn elaborate_to_ir(program: &ast::Program, file: &SourceFile) -> Result<Expr, ElabErrors> {
    let mut elaborator = Elaborator::new(program);
    match elaborator.program(program) {
        Ok(expr) => Ok(expr),
        Err(error) => Err(ElabErrors::new(file, vec![error])),
    }
}

/// Elaborate a whole script to a TAIL program (which `tail::infer` then types).
///
/// Inlining recursion nests deeply, so elaboration runs on a thread of its own with a large stack.
pub fn elaborate_program(program: &ast::Program, file: &SourceFile) -> Result<crate::tail::ast::Program, ElabErrors> {
    let outcome = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("aplc-elaborate".to_string())
            .stack_size(ELABORATION_STACK_BYTES)
            .spawn_scoped(scope, || elaborate_on_this_thread(program, file))
            .map(|handle| handle.join())
    });
    match outcome {
        Ok(Ok(result)) => result,
        // No thread could be started, or it panicked (a bug): report it as an error rather than crash.
        _ => Err(ElabErrors::new(
            file,
            vec![ElabError::nonce(Span::default(), "internal error: elaboration failed")],
        )),
    }
}

/// The stack of the elaboration thread (address space only; pages are touched as inlining nests).
const ELABORATION_STACK_BYTES: usize = 1 << 30;

fn elaborate_on_this_thread(
    program: &ast::Program,
    file: &SourceFile,
) -> Result<crate::tail::ast::Program, ElabErrors> {
    let mut elaborator = Elaborator::new(program);
    let expr = match elaborator.program(program) {
        Ok(expr) => expr,
        Err(error) => return Err(ElabErrors::new(file, vec![error])),
    };
    lower::lower_program(&expr, &elaborator.functions)
        .map_err(|message| ElabErrors::new(file, vec![ElabError::nonce(Span::default(), message)]))
}

/// An elaboration that goes on over several pieces of script (a REPL): names bound by earlier pieces stay bound.
///
/// Each piece becomes a TAIL program that first recomputes the earlier pieces' bindings (without their printing) and
/// then runs the new statements, so every program stands alone. A piece that fails leaves the session as it was.
/// The session holds compile-time values (`Rc`), so it lives on one thread; deep recursion unfolding needs a large
/// stack there (as [`elaborate_program`] arranges for itself).
pub struct Session {
    elaborator: Elaborator,
}

impl Default for Session {
    fn default() -> Session {
        Session::new()
    }
}

impl Session {
    pub fn new() -> Session {
        let empty = ast::Program {
            statements: Vec::new(),
            comments: Vec::new(),
        };
        Session {
            elaborator: Elaborator::new(&empty),
        }
    }

    pub fn elaborate(
        &mut self,
        program: &ast::Program,
        file: &SourceFile,
    ) -> Result<crate::tail::ast::Program, ElabErrors> {
        let elaborator = &mut self.elaborator;
        let saved_entries = elaborator.frames[0].clone();
        let saved_env = elaborator.env.clone();
        let saved_globals = elaborator.globals.clone();
        let saved_print = elaborator.print;
        let saved_functions = elaborator.functions.len();
        // A piece's spans start again at 0, so an earlier piece's checked annotations say nothing about this one's.
        elaborator.annotations_checked.clear();
        let mut outcome = annotation_check::parse_every_annotation(&program.statements);
        for statement in &program.statements {
            if outcome.is_err() {
                break;
            }
            outcome = elaborator.top_level_statement(statement);
        }
        let lowered = outcome.and_then(|()| {
            let body = wrap_entries(elaborator.frames[0].clone(), Expr::Int(0));
            lower::lower_program(&body, &elaborator.functions)
                .map_err(|message| ElabError::nonce(Span::default(), message))
        });
        match lowered {
            Ok(tail_program) => {
                // Later pieces recompute these bindings but must not print again.
                elaborator.frames[0].retain(|entry| matches!(entry, Entry::Let(..)));
                Ok(tail_program)
            }
            Err(error) => {
                elaborator.frames[0] = saved_entries;
                elaborator.env = saved_env;
                elaborator.globals = saved_globals;
                elaborator.print = saved_print;
                elaborator.functions.truncate(saved_functions);
                Err(ElabErrors::new(file, vec![error]))
            }
        }
    }
}

/// One binding or effect accumulated in the current scope, wrapped around the scope's result at its end.
#[derive(Clone, Debug)]
enum Entry {
    Let(String, Type, Expr),
    Effect(Expr),
}

/// The state of one elaboration.
pub struct Elaborator {
    /// Open scopes (the program, lambda bodies, conditional branches), innermost last.
    frames: Vec<Vec<Entry>>,
    next_variable: usize,
    /// The environment in force at the current point.
    pub env: Env,
    /// The top-level environment, consulted when a dfn mentions a global assigned after the dfn was defined.
    pub globals: Env,
    /// `⎕PP` and `⎕PW` where elaboration stands (a print carries them; `⍕` reads ⎕PP).
    pub print: PrintSettings,
    /// Nesting of inlined dfn calls, to stop runaway recursion.
    pub call_depth: usize,
    /// `⍝:` annotations on the lines before assignments, by statement span start.
    pub comments: Vec<ast::Comment>,
    /// How many more dfn calls may be inlined in the current top-level statement (recursion unfolding is bounded).
    pub inline_budget: usize,
    /// How many dfn calls the current top-level statement has inlined in all (never reset by a retry).
    pub inlined_in_statement: usize,
    /// The dfns being inlined, innermost last (to find the outermost call of a recursive dfn).
    active_dfns: Vec<dfns::CalleeKey>,
    /// Per inlined call, innermost last: whether the call is being compiled as a loop (tail recursion).
    loops: Vec<Option<dfns::LoopMode>>,
    /// Let-bound variables whose TAIL type is a vector of known length (`<κ>n`), so that the V ops apply to them.
    static_length_variables: std::collections::HashSet<String>,
    /// A `⍝: name : type` annotation waiting for its assignment.
    pending_annotation: Option<(String, String, Span)>,
    /// The prelude's functions, elaborated on first use.
    prelude: Option<Env>,
    /// Let-bound int scalars that TAIL may type as singletons (`S(int,n)`).
    singleton_variables: std::collections::HashSet<String>,
    /// The APL text whose code is being built (the innermost primitive application or indexing): what the code's
    /// run-time errors point at (`Expr::At`).
    site: Option<Span>,
    /// Inside a prelude dfn: the user's call every site of its body is replaced by.
    fixed_site: Option<Span>,
    /// While the prelude's definitions are elaborated (their closures are marked as the prelude's).
    loading_prelude: bool,
    /// The annotations whose dfn has had its generic check (each is checked once).
    annotations_checked: std::collections::HashSet<Span>,
    /// The recursive dfns compiled as functions so far (`dfns.rs`); every program of a session gets all of them.
    pub functions: Vec<ir::FunctionDef>,
    /// The recursive dfns whose function is being built, innermost last (`dfns.rs`).
    recursive: Vec<dfns::RecursiveBuild>,
    /// What the last body elaborated for a recursive function left in its mode (the probe's findings).
    last_probe: Option<dfns::RecursiveMode>,
    /// Where the statement being elaborated is in the tradfn being called (`tradfns.rs`).
    tradfn_context: tradfns::TradfnContext,
    /// What traditional functions called inside dfns assigned to names outside those dfns (Dyalog's dynamic scope),
    /// oldest first: a dfn call carries them out to its caller ([`Elaborator::carry_outer_writes_out`]).
    outer_writes: Vec<(String, Val)>,
}

/// The elaborator's scopes and position, saved before an attempt that may fail half-way ([`Elaborator::attempt`]).
struct Checkpoint {
    frames: Vec<Vec<Entry>>,
    env: Env,
    call_depth: usize,
    inline_budget: usize,
    active_dfns: usize,
    loops: usize,
    recursive: usize,
    site: Option<Span>,
    fixed_site: Option<Span>,
    outer_writes: usize,
}

/// How deep inlined calls may nest before elaboration gives up on a recursion it cannot unfold.
pub const MAX_CALL_DEPTH: usize = 128;

/// How many dfn calls one top-level statement may inline (bounds recursion unfolded on constants).
pub const INLINE_BUDGET: usize = 20_000;

/// How many dfn calls one top-level statement may inline in all, over every way of compiling a recursion tried in
/// turn (unfolding, a loop, a recursive function), each of which starts with a fresh [`INLINE_BUDGET`]. Such tries
/// nest when a recursion runs through a local dfn (`f←{… g←{f ⍵} ⋄ g …}`), and their work then multiplies: this
/// bound turns what would be hours of elaboration into a NONCE ERROR.
pub const MAX_INLINED_CALLS_PER_STATEMENT: usize = 5 * INLINE_BUDGET;

/// The NONCE ERROR of a statement that reached [`MAX_INLINED_CALLS_PER_STATEMENT`].
pub const TOO_MUCH_INLINING_MESSAGE: &str = "a recursion that elaboration cannot compile within its bounds";

impl Elaborator {
    pub fn new(program: &ast::Program) -> Elaborator {
        Elaborator {
            frames: vec![Vec::new()],
            next_variable: 0,
            env: Env::default(),
            globals: Env::default(),
            print: PrintSettings::with_precision(DEFAULT_PRINT_PRECISION),
            call_depth: 0,
            comments: program.comments.clone(),
            static_length_variables: Default::default(),
            singleton_variables: Default::default(),
            prelude: None,
            pending_annotation: None,
            inline_budget: INLINE_BUDGET,
            inlined_in_statement: 0,
            active_dfns: Vec::new(),
            loops: Vec::new(),
            site: None,
            fixed_site: None,
            loading_prelude: false,
            annotations_checked: Default::default(),
            functions: Vec::new(),
            recursive: Vec::new(),
            last_probe: None,
            tradfn_context: Default::default(),
            outer_writes: Vec::new(),
        }
    }

    fn program(&mut self, program: &ast::Program) -> ElabResult<Expr> {
        annotation_check::parse_every_annotation(&program.statements)?;
        for statement in &program.statements {
            self.top_level_statement(statement)?;
        }
        let frame = self.frames.pop().expect("the program frame");
        self.frames.push(Vec::new());
        Ok(wrap_entries(frame, Expr::Int(0)))
    }

    fn top_level_statement(&mut self, statement: &ast::Statement) -> ElabResult<()> {
        let expr = match &statement.kind {
            ast::StatementKind::Expr(expr) => expr,
            ast::StatementKind::Tradfn(tradfn) => {
                self.define_tradfn(tradfn);
                self.globals = self.env.clone();
                return Ok(());
            }
            ast::StatementKind::Guard { .. } => return Err(ElabError::syntax(statement.span, "a guard outside a dfn")),
            ast::StatementKind::Control(_) => {
                return Err(ElabError::syntax(
                    statement.span,
                    "a control structure outside a traditional function",
                ))
            }
        };
        if let Some(annotation) = &statement.annotation {
            self.check_statement_annotation(annotation, expr)?;
        }
        self.inline_budget = INLINE_BUDGET;
        self.inlined_in_statement = 0;
        self.statement_with_printing(expr)?;
        self.globals = self.env.clone();
        Ok(())
    }

    /// A statement of a script or of a tradfn: its value is printed unless it is an assignment or the shy result of
    /// a call.
    pub fn statement_with_printing(&mut self, expr: &ast::Expr) -> ElabResult<()> {
        let is_assignment = self.is_whole_assignment(expr);
        let is_shy = self.is_call_of_dfn_with_shy_result(expr);
        let value = self.expr(expr)?;
        if !is_assignment && !is_shy {
            self.print_value(&value, expr.span)?;
        }
        Ok(())
    }

    /// Whether the statement is a call of a dfn whose statements are all assignments: such a dfn returns the value
    /// of its last assignment as a shy result, which a session does not print (`f←{a←⍵×2}` then `f 3` prints
    /// nothing; `{⎕←⍵}4` prints 4 once, by its `⎕←`). A result used by anything else (`1+f 3`) is an ordinary value.
    fn is_call_of_dfn_with_shy_result(&self, expr: &ast::Expr) -> bool {
        if expr.assignment.is_some() {
            return false;
        }
        let Ok(node) = Resolver::new(&self.env).resolve(&expr.items, expr.span) else {
            return false;
        };
        let function = match &node {
            Node::Monadic { function, .. } | Node::Dyadic { function, .. } => function,
            // A niladic tradfn's name alone is its call.
            Node::Atom(ast::Item::Name(name), _) => {
                return self
                    .env
                    .lookup(&name.text)
                    .and_then(tradfns::niladic_tradfn)
                    .is_some_and(|tradfn| tradfn_result_is_shy(&tradfn))
            }
            _ => return false,
        };
        if let Node::Atom(ast::Item::Name(name), _) = &**function {
            if let Some(Val::Function(function)) = self.env.lookup(&name.text) {
                if let Fun::Tradfn(tradfn, _) = &**function {
                    return tradfn_result_is_shy(tradfn);
                }
            }
        }
        let body: &[ast::Statement] = match &**function {
            Node::Atom(ast::Item::Dfn(dfn), _) => &dfn.body,
            Node::Atom(ast::Item::Name(name), _) => match self.env.lookup(&name.text) {
                Some(Val::Function(function)) => match &**function {
                    Fun::Dfn(closure, _) if closure.operands.is_none() => &closure.dfn.body,
                    _ => return false,
                },
                _ => return false,
            },
            _ => return false,
        };
        !body.is_empty()
            && body.iter().all(|statement| match &statement.kind {
                ast::StatementKind::Expr(expr) => {
                    expr.assignment.is_some() && expr.items.iter().all(|item| matches!(item, ast::Item::Name(_)))
                }
                _ => false,
            })
    }

    /// Print an array (or each component of a tuple) with the current ⎕PP and ⎕PW; `span` is the APL text
    /// whose value it is.
    pub fn print_value(&mut self, value: &Val, span: Span) -> ElabResult<()> {
        match value {
            Val::Array(array) => {
                let bound = self.bind(array.clone());
                let code = Expr::Int(self.print.code());
                self.effect(Expr::op("print", vec![code, bound.expr.clone()]));
                Ok(())
            }
            Val::Tuple(components) => {
                if let Some(line) = self.nested_vector_line(components)? {
                    // Printed as a matrix of one row: where Dyalog folds a nested vector's display longer than ⎕PW
                    // is not known here, so it stays on one line (a simple vector's folds).
                    let line = self.as_one_row(line, span)?;
                    return self.print_value(&Val::Array(line), span);
                }
                for component in components {
                    self.print_value(component, span)?;
                }
                Ok(())
            }
            // Dyalog shows `⊂1 2` as the one item of a vector would be shown: ` 1 2`.
            Val::Nested { shape, items } if shape.is_empty() => self.print_value(&Val::Tuple(items.clone()), span),
            Val::Nested { .. } => Err(ElabError::nonce(span, "showing a nested array of rank 2 or more")),
            // Dyalog shows a function's definition; a compiled program has nothing to show.
            Val::Function(_) | Val::Operator(_) => Ok(()),
        }
    }

    /// How Dyalog shows a nested vector (a strand such as `(1 2) (3 4 5)`): the items side by side, each as it is
    /// shown alone, aligned at the top; two blanks between items where either of the two is not a scalar, one
    /// between two scalars (none between two characters), and a blank before a first item that is not a scalar: ` 1 2  3 4 5`, `1  2 3  4`,
    /// ` ab  cde`; a strand item likewise (`1 (2 (3 4))` shows `1  2  3 4`). A matrix item makes the display a
    /// character matrix (`'ab' (2 2⍴⍳4)` shows ` ab  1 2` over `     3 4`). `None` for a strand with items of
    /// rank 3 or more, which is shown an item per line.
    pub(super) fn nested_vector_line(&mut self, components: &[Val]) -> ElabResult<Option<Arr>> {
        let span = Span::default();
        let mut items = Vec::new();
        let mut characters = Vec::new();
        for component in components {
            let item = match component {
                Val::Array(item) if item.rank <= 2 => (self.format(item.clone(), span)?, item.rank == 0),
                Val::Tuple(items) => match self.nested_vector_line(items)? {
                    Some(inner) => (inner, false),
                    None => return Ok(None),
                },
                _ => return Ok(None),
            };
            characters.push(matches!(component, Val::Array(item) if item.rank == 0 && item.base == Base::Char));
            items.push(item);
        }
        let rows = if items.iter().any(|(text, _)| text.rank == 2) {
            Some(self.as_rows_of_one_height(&mut items, span)?)
        } else {
            None
        };
        let mut display: Option<Arr> = None;
        let mut previous_is_scalar = true;
        for (position, (text, is_scalar)) in items.into_iter().enumerate() {
            let gap = match display {
                None => usize::from(!is_scalar),
                // Character scalars side by side are the text of a simple mixed vector: `'a' 'b' 1` shows `ab 1`.
                Some(_) if characters[position] && characters[position - 1] => 0,
                Some(_) => 1 + usize::from(!is_scalar || !previous_is_scalar),
            };
            previous_is_scalar = is_scalar;
            let blanks = self.blank_columns(gap, rows.clone(), span)?;
            let spaced = match blanks {
                Some(blanks) => self.catenate_last(blanks, text, span)?,
                None => text,
            };
            display = Some(match display {
                None => spaced,
                Some(display) => self.catenate_last(display, spaced, span)?,
            });
        }
        Ok(display)
    }

    /// A character vector as a matrix of one row; a matrix as it is.
    fn as_one_row(&mut self, text: Arr, span: Span) -> ElabResult<Arr> {
        if text.rank != 1 {
            return Ok(text);
        }
        let text = self.bind(text);
        let length = self.tally(&text);
        let shape = self.catenate_last(Arr::scalar_constant(Scalar::Int(1)), length, span)?;
        self.reshape(shape, text, span)
    }

    /// The items' displays (character vectors and matrices) as matrices of as many rows as the tallest, padded
    /// with blank rows below; the number of rows.
    fn as_rows_of_one_height(&mut self, items: &mut [(Arr, bool)], span: Span) -> ElabResult<Arr> {
        for (text, _) in items.iter_mut() {
            let row = self.as_one_row(text.clone(), span)?;
            *text = self.bind(row);
        }
        let mut rows: Option<Arr> = None;
        for (text, _) in items.iter() {
            let height = self.tally(text);
            rows = Some(match rows {
                None => height,
                Some(rows) => self.scalar_dyadic(Primitive::Ceiling, rows, height, span)?,
            });
        }
        let rows = self.bind(rows.expect("a strand has items"));
        for (text, _) in items.iter_mut() {
            *text = self.take_or_drop("take", rows.clone(), text.clone(), span)?;
        }
        Ok(rows)
    }

    /// `count` blank columns: a vector, or with `rows` a matrix of that many rows; `None` for none.
    fn blank_columns(&mut self, count: usize, rows: Option<Arr>, span: Span) -> ElabResult<Option<Arr>> {
        if count == 0 {
            return Ok(None);
        }
        let blanks = Arr::vector_constant(vec![Scalar::Char(' '); count], Base::Char);
        let Some(rows) = rows else {
            return Ok(Some(blanks));
        };
        let width = Arr::scalar_constant(Scalar::Int(count as i64));
        let shape = self.catenate_last(rows, width, span)?;
        Ok(Some(self.reshape(shape, blanks, span)?))
    }

    /// Runs `work`; when it fails with a NONCE ERROR (a form it does not compile), the scopes it left half-built are
    /// undone, so that the caller may compile the same thing another way, and the error is returned. Other errors
    /// are the program's and are returned as they are.
    pub fn attempt<T>(&mut self, work: impl FnOnce(&mut Self) -> ElabResult<T>) -> ElabResult<T> {
        let checkpoint = Checkpoint {
            frames: self.frames.clone(),
            env: self.env.clone(),
            call_depth: self.call_depth,
            inline_budget: self.inline_budget,
            active_dfns: self.active_dfns.len(),
            loops: self.loops.len(),
            recursive: self.recursive.len(),
            site: self.site,
            fixed_site: self.fixed_site,
            outer_writes: self.outer_writes.len(),
        };
        let result = work(self);
        if matches!(result, Err(ElabError::Nonce { .. })) {
            self.frames = checkpoint.frames;
            self.env = checkpoint.env;
            self.call_depth = checkpoint.call_depth;
            self.inline_budget = checkpoint.inline_budget;
            self.active_dfns.truncate(checkpoint.active_dfns);
            self.loops.truncate(checkpoint.loops);
            self.recursive.truncate(checkpoint.recursive);
            self.site = checkpoint.site;
            self.fixed_site = checkpoint.fixed_site;
            self.outer_writes.truncate(checkpoint.outer_writes);
        }
        result
    }

    /// A function of `prelude/prelude.apl`.
    /// The function that the prelude's operator `name` derives from its operands (`left name` or `left name right`).
    pub fn prelude_operator_derived(
        &mut self,
        name: &str,
        (left, right): (Val, Option<Val>),
        span: Span,
    ) -> ElabResult<Rc<Fun>> {
        self.load_prelude(span)?;
        let operator = match self.prelude.as_ref().and_then(|env| env.lookup(name)) {
            Some(Val::Operator(operator)) => operator.clone(),
            _ => {
                return Err(ElabError::nonce(
                    span,
                    format!("internal error: the prelude has no operator {name}"),
                ))
            }
        };
        let Opr::Dfn { closure, .. } = &*operator else {
            return Err(ElabError::nonce(
                span,
                format!("internal error: {name} is not a dfn operator"),
            ));
        };
        let mut closure = (**closure).clone();
        closure.operands = Some((left, right));
        closure.operator = Some(operator.clone());
        Ok(Rc::new(Fun::Dfn(closure, span)))
    }

    pub fn prelude_function(&mut self, name: &str, span: Span) -> ElabResult<Rc<Fun>> {
        self.load_prelude(span)?;
        match self.prelude.as_ref().and_then(|env| env.lookup(name)) {
            Some(Val::Function(function)) => Ok(function.clone()),
            _ => Err(ElabError::nonce(
                span,
                format!("internal error: the prelude has no function {name}"),
            )),
        }
    }

    /// Elaborates the prelude's definitions, once.
    fn load_prelude(&mut self, span: Span) -> ElabResult<()> {
        if self.prelude.is_none() {
            let file = SourceFile::new("prelude.apl", PRELUDE);
            let program = crate::syntax::parse_program(&file)
                .map_err(|_| ElabError::nonce(span, "internal error: the prelude does not parse"))?;
            let saved_env = std::mem::take(&mut self.env);
            self.loading_prelude = true;
            let mut result = Ok(());
            for statement in &program.statements {
                if let ast::StatementKind::Expr(expr) = &statement.kind {
                    if let Err(error) = self.expr(expr) {
                        result = Err(error);
                        break;
                    }
                }
            }
            self.loading_prelude = false;
            let prelude = std::mem::replace(&mut self.env, saved_env);
            result?;
            self.prelude = Some(prelude);
        }
        Ok(())
    }

    // ----- scopes, variables and let-binding -----

    pub fn fresh_name(&mut self, stem: &str) -> String {
        self.next_variable += 1;
        format!("{stem}{}", self.next_variable)
    }

    /// The number of entries in the current scope (to undo a failed attempt with [`Self::truncate_scope`]).
    pub fn scope_length(&self) -> usize {
        self.frames.last().map_or(0, |frame| frame.len())
    }

    pub fn truncate_scope(&mut self, length: usize) {
        if let Some(frame) = self.frames.last_mut() {
            frame.truncate(length);
        }
    }

    pub fn effect(&mut self, expr: Expr) {
        self.frames
            .last_mut()
            .expect("a frame is open")
            .push(Entry::Effect(expr));
    }

    /// Let-bind an array unless its expression is trivial, so that it can be used any number of times.
    pub fn bind(&mut self, array: Arr) -> Arr {
        let short_literal = matches!(array.expr.without_site(), Expr::Vector(ref elements, _)
            if elements.len() <= 1 || (elements.len() <= 16 && elements.iter().all(Expr::is_trivial)));
        if array.expr.is_trivial() || short_literal {
            return array;
        }
        let name = self.fresh_name("v");
        let value_type = array.tail_type();
        let expr = array.expr.clone();
        if self.knows_length(&expr) {
            self.static_length_variables.insert(name.clone());
        }
        if array.rank == 0
            && array.base == Base::Int
            && matches!(expr.without_site(), Expr::Op("tally" | "firstV" | "negi", _))
        {
            self.singleton_variables.insert(name.clone());
        }
        self.push_let(&name, value_type, expr);
        Arr {
            expr: Expr::Var(name),
            ..array
        }
    }

    /// Whether TAIL's type inference gives this expression a vector type of known length (`<κ>n`): vector literals
    /// and the V ops (and variables bound to them). The V ops (`catV`, `dropV`, ...) need such arguments.
    pub fn knows_length(&self, expr: &Expr) -> bool {
        match expr.without_site() {
            Expr::Vector(..) => true,
            Expr::Var(name) => self.static_length_variables.contains(name),
            Expr::Op(name, arguments) => match *name {
                "shape" | "iotaV" | "takeV" | "takeLastV" | "dropV" | "dropLastV" => true,
                "catV" => arguments.iter().all(|a| self.knows_length(a)),
                "consV" | "snocV" => true,
                _ => false,
            },
            _ => false,
        }
    }

    /// A value whose TAIL type is the plain `[κ]r` (no vector length, no singleton): what the polymorphic ops
    /// `power`, `powerUntil` and `condScl` need for the values they pass around.
    pub fn generalize_value(&self, value: Val) -> Val {
        match value {
            Val::Array(array) => {
                let expr = match array.expr.without_site() {
                    Expr::Bool(_) => Expr::op("andb", vec![array.expr.clone(), Expr::Bool(true)]),
                    Expr::Int(_) => Expr::op("addi", vec![array.expr.clone(), Expr::Int(0)]),
                    Expr::Double(_) => Expr::op("addd", vec![array.expr.clone(), Expr::Double(0.0)]),
                    expr if array.rank == 1 && self.knows_length(expr) => Expr::op("rav", vec![expr.clone()]),
                    Expr::Var(name) if array.rank == 0 && self.singleton_variables.contains(name) => {
                        Expr::op("addi", vec![array.expr.clone(), Expr::Int(0)])
                    }
                    _ => return Val::Array(array),
                };
                Val::Array(Arr { expr, ..array })
            }
            Val::Tuple(components) => Val::Tuple(components.into_iter().map(|c| self.generalize_value(c)).collect()),
            Val::Nested { shape, items } => Val::Nested {
                shape,
                items: items.into_iter().map(|item| self.generalize_value(item)).collect(),
            },
            other => other,
        }
    }

    /// Let-bind every array inside a value.
    /// The value of `expr`, whose value has the structure of `like` (a loop over a state, say), bound to variables.
    /// A tuple is bound once as a whole and its components are projected from the variable: projections of the
    /// expression itself would repeat it once per component (the loop run twice, its output printed twice).
    pub fn bind_structured(&mut self, expr: Expr, like: &Val, span: Span) -> ElabResult<Val> {
        if !matches!(like, Val::Tuple(_) | Val::Nested { .. }) {
            return Ok(self.bind_value(operators::rebuild_value(expr, like)));
        }
        let name = self.fresh_name("t");
        let value_type = operators::value_type(like, span)?;
        self.push_let(&name, value_type, expr);
        Ok(self.bind_value(operators::rebuild_value(Expr::Var(name), like)))
    }

    /// `let name : value_type = expr` in the innermost open scope, the code of the APL text being elaborated.
    fn push_let(&mut self, name: &str, value_type: Type, expr: Expr) {
        let expr = match self.site {
            Some(site) => Expr::at(site, expr),
            None => expr,
        };
        self.frames
            .last_mut()
            .expect("a frame is open")
            .push(Entry::Let(name.to_string(), value_type, expr));
    }

    pub fn bind_value(&mut self, value: Val) -> Val {
        match value {
            Val::Array(array) => Val::Array(self.bind(array)),
            Val::Tuple(components) => Val::Tuple(components.into_iter().map(|c| self.bind_value(c)).collect()),
            Val::Nested { shape, items } => Val::Nested {
                shape,
                items: items.into_iter().map(|item| self.bind_value(item)).collect(),
            },
            other => other,
        }
    }

    /// Elaborate `body` in a new scope; the scope's bindings are wrapped around the array it returns.
    pub fn scoped(&mut self, body: impl FnOnce(&mut Self) -> ElabResult<Arr>) -> ElabResult<Arr> {
        self.frames.push(Vec::new());
        let result = body(self);
        let frame = self.frames.pop().expect("the scope's frame");
        let array = result?;
        Ok(Arr {
            expr: wrap_entries(frame, array.expr.clone()),
            ..array
        })
    }

    /// A TAIL lambda over one scalar of base `base`, whose body `body` computes from the parameter; the body must
    /// give a scalar. Returns the lambda and the body's base type.
    pub fn scalar_lambda(
        &mut self,
        base: Base,
        span: Span,
        body: impl FnOnce(&mut Self, Arr) -> ElabResult<Val>,
    ) -> ElabResult<(Expr, Base)> {
        let parameter = self.fresh_name("x");
        let argument = Arr::dynamic(Expr::Var(parameter.clone()), base, 0);
        let result = self.scoped(|this| {
            let value = this.without_assignments_outside(span, |this| body(this, argument))?;
            this.expect_scalar(value, span)
        })?;
        Ok((Expr::lambda(&parameter, Type::scalar(base), result.expr), result.base))
    }

    /// A curried TAIL lambda over two scalars (for `zipWith`, `reduce`, `scan`).
    pub fn scalar_lambda2(
        &mut self,
        left_base: Base,
        right_base: Base,
        span: Span,
        body: impl FnOnce(&mut Self, Arr, Arr) -> ElabResult<Val>,
    ) -> ElabResult<(Expr, Base)> {
        let left_name = self.fresh_name("x");
        let right_name = self.fresh_name("y");
        let left = Arr::dynamic(Expr::Var(left_name.clone()), left_base, 0);
        let right = Arr::dynamic(Expr::Var(right_name.clone()), right_base, 0);
        let result = self.scoped(|this| {
            let value = this.without_assignments_outside(span, |this| body(this, left, right))?;
            this.expect_scalar(value, span)
        })?;
        let inner = Expr::lambda(&right_name, Type::scalar(right_base), result.expr);
        Ok((Expr::lambda(&left_name, Type::scalar(left_base), inner), result.base))
    }

    fn expect_scalar(&mut self, value: Val, span: Span) -> ElabResult<Arr> {
        match value {
            Val::Array(array) if array.rank == 0 => Ok(array),
            Val::Array(_) | Val::Tuple(_) | Val::Nested { .. } => Err(ElabError::nonce(span, NESTED_RESULT).with_hint(
                "reduce and scan apply their function to scalars; each makes a strand of non-scalar results only \
                 over a strand or a vector of at most 64 items whose length is known when compiling",
            )),
            _ => Err(ElabError::nonce(span, "a function result where a scalar is needed")),
        }
    }

    /// Runs `body`, which elaborates code that runs once per element or iteration, or maybe not at all (a lambda, a
    /// guard's branch): a traditional function called there that assigns a name outside it would need that name
    /// carried through the loop or the conditional, which aplc does not do there, so it is refused rather than
    /// lost. `span` is where to point when the assignment has no place of its own.
    pub fn without_assignments_outside<T>(
        &mut self,
        span: Span,
        body: impl FnOnce(&mut Self) -> ElabResult<T>,
    ) -> ElabResult<T> {
        let env = self.env.clone();
        let writes = self.outer_writes.len();
        let result = body(self);
        let assigned = self.env.names_bound_since(&env);
        self.env = env;
        let carried = self.outer_writes.split_off(writes);
        let result = result?;
        match assigned.first().or(carried.first().map(|(name, _)| name)) {
            Some(name) => Err(ElabError::nonce(
                span,
                format!(
                    "a function that assigns {name}, a name outside it, called once per element, iteration or branch"
                ),
            )
            .with_hint(
                "a traditional function called from ¨, ⍣, / or a guard may assign only its own names (its header's \
                 result, arguments and ; locals); return the new value instead, or call it from a :For loop",
            )),
            None => Ok(result),
        }
    }

    /// After a dfn call, in the caller's environment (restored after the call): what the call assigned to names
    /// outside the dfn since entry `since` of the log is the caller's now, as dynamic scope has it (`{BUMP ⍵}10`
    /// where BUMP does `CNT←CNT+⍵`); names outside the caller's dfn in turn stay in the log for its own call to carry
    /// out.
    pub fn carry_outer_writes_out(&mut self, since: usize) {
        for (name, value) in self.outer_writes.split_off(since) {
            let outer = self.assigns_outside_innermost_dfn(&name);
            self.env = self.env.bind(&name, value.clone());
            if outer {
                self.outer_writes.push((name, value));
            }
        }
    }

    /// Whether assigning `name` here changes a name outside the innermost dfn: the dfn has none of its own, or the
    /// name was assigned outside before (which binds it in the dfn's environment too, so that the dfn reads the new
    /// value).
    pub fn assigns_outside_innermost_dfn(&self, name: &str) -> bool {
        self.outer_writes.iter().any(|(written, _)| written == name) || !self.env.is_local_to_innermost_dfn(name)
    }

    // ----- expressions -----

    pub fn expr(&mut self, expr: &ast::Expr) -> ElabResult<Val> {
        let own_items = self.items_before_assignment_targets(expr);
        let items = &expr.items[..own_items];
        let assigned = match &expr.assignment {
            Some(assignment) if own_items < expr.items.len() => {
                let names = self.strand_of_target_names(expr, own_items);
                let value = self.expr(&assignment.value)?;
                let span = expr.items[own_items].span().join(assignment.span);
                Some(self.destructuring_assignment(&names, value, span)?)
            }
            Some(assignment) => Some(self.assignment(assignment)?),
            None => None,
        };
        match assigned {
            Some(value) if items.is_empty() => Ok(value),
            Some(value) => {
                let value_span = expr.assignment.as_ref().map(|a| a.span).unwrap_or(expr.span);
                if !matches!(value, Val::Array(_) | Val::Tuple(_) | Val::Nested { .. }) {
                    return Err(ElabError::syntax(
                        value_span,
                        "a function assignment inside an expression",
                    ));
                }
                let (env, globals) = (self.env.clone(), self.globals.clone());
                let resolver = Resolver::new(&env).with_globals(&globals);
                let node = resolver.resolve_with(items, Some((value, value_span)), expr.span)?;
                self.node(&node)
            }
            None => {
                let (env, globals) = (self.env.clone(), self.globals.clone());
                let node = Resolver::new(&env)
                    .with_globals(&globals)
                    .resolve(&expr.items, expr.span)?;
                self.node(&node)
            }
        }
    }

    /// How many of the items before an assignment belong to the expression around it. Dyalog reads `a b←v` as the
    /// multiple assignment `(a b)←v` when the names before the target are variables or not yet defined (a function
    /// name there is applied to the assignment's value: `f b←v`). The parser, which knows no name classes, gives
    /// `a` to the expression and `b` to the target; here the trailing names that do not denote functions or
    /// operators join the target.
    fn items_before_assignment_targets(&self, expr: &ast::Expr) -> usize {
        let plain_name_target = expr.assignment.as_ref().is_some_and(|assignment| {
            matches!(assignment.target, ast::AssignTarget::Name(_))
                && assignment.indices.is_none()
                && assignment.modifier.is_empty()
        });
        if !plain_name_target {
            return expr.items.len();
        }
        let names_of_variables = expr
            .items
            .iter()
            .rev()
            .take_while(|item| match item {
                ast::Item::Name(name) => {
                    matches!(
                        self.env.lookup(&name.text),
                        None | Some(Val::Array(_) | Val::Tuple(_) | Val::Nested { .. })
                    )
                }
                _ => false,
            })
            .count();
        expr.items.len() - names_of_variables
    }

    /// Whether the statement is an assignment and nothing else (its value is not printed, and a dfn goes on after it).
    pub fn is_whole_assignment(&self, expr: &ast::Expr) -> bool {
        expr.assignment.is_some() && self.items_before_assignment_targets(expr) == 0
    }

    /// The names of a multiple assignment written without parentheses: the items from `first` on, then the target.
    fn strand_of_target_names(&self, expr: &ast::Expr, first: usize) -> Vec<ast::Name> {
        let mut names: Vec<ast::Name> = expr.items[first..]
            .iter()
            .map(|item| match item {
                ast::Item::Name(name) => name.clone(),
                other => unreachable!("items_before_assignment_targets counted only names, not {other:?}"),
            })
            .collect();
        if let Some(ast::AssignTarget::Name(target)) = expr.assignment.as_ref().map(|a| &a.target) {
            names.push(target.clone());
        }
        names
    }

    fn assignment(&mut self, assignment: &ast::Assignment) -> ElabResult<Val> {
        let recursive_dfn = match &assignment.target {
            ast::AssignTarget::Name(name) if assignment.modifier.is_empty() && assignment.indices.is_none() => {
                self_reference::dfn_with_self_references_as_del(&assignment.value, &name.text)
            }
            _ => None,
        };
        let value = self.expr(recursive_dfn.as_ref().unwrap_or(&assignment.value))?;
        match &assignment.target {
            ast::AssignTarget::QuadOutput(span) => {
                if !assignment.modifier.is_empty() || assignment.indices.is_some() {
                    return Err(ElabError::syntax(*span, "⎕ cannot be indexed or modified"));
                }
                self.print_value(&value, assignment.span)?;
                Ok(value)
            }
            ast::AssignTarget::SystemName(name) => self.assign_system_name(name, value, assignment),
            // `⍺←v` as a dfn statement is handled by the dfn body; anywhere else it is an error.
            ast::AssignTarget::Alpha(span) => {
                Err(ElabError::syntax(*span, "⍺← must be a statement of its own in a dfn"))
            }
            ast::AssignTarget::Names(names, span) => self.destructuring_assignment(names, value, *span),
            ast::AssignTarget::Selection(selection, _) => self.selective_assignment(selection, assignment, value),
            // The value of an assignment is its right argument, whatever the target (Dyalog): `y←x[1]←9` sets y to 9,
            // `x[1]←x[2]←5` sets both elements, and in `x+←x+←1` the outer `+←` adds 1, not the inner new x.
            ast::AssignTarget::Name(name) => {
                if assignment.modifier.is_empty() && assignment.indices.is_none() {
                    return self.bind_name(name, value, assignment.span);
                }
                let value = self.bind_value(value);
                let current = self.value_to_update(name)?;
                let modifier = self.modifier_function(&assignment.modifier, assignment.span)?;
                // Run-time errors of the update (an index out of range, a value of the wrong length) point at it.
                let updated = self.at_site(assignment.span, |this| match (&assignment.indices, modifier) {
                    (Some(indices), modifier) => {
                        this.indexed_assignment(current, name.span, indices, modifier, value.clone(), assignment.span)
                    }
                    // `x f← v` is `x ← x f v`.
                    (None, Some(function)) => this.apply_dyadic(&function, current, value.clone(), assignment.span),
                    (None, None) => unreachable!("a plain assignment is bound above"),
                })?;
                self.update_name(name, updated, assignment.span)?;
                Ok(value)
            }
        }
    }

    /// The value of a name that an indexed, modified or selective assignment changes: it must have one.
    pub fn value_to_update(&self, name: &ast::Name) -> ElabResult<Val> {
        match self.env.lookup(&name.text) {
            Some(current) => Ok(current.clone()),
            None => Err(ElabError::value(name.span, format!("undefined name {}", name.text))),
        }
    }

    /// Binds the new value of a name that an indexed, modified or selective assignment changed. In a dfn without a
    /// name of its own by that name (and in a traditional function called there), that changes the name outside
    /// (Dyalog's `x f← v`, `x[i]← v`): the dfn reads the new value, and its call carries it out
    /// ([`Elaborator::carry_outer_writes_out`]).
    pub fn update_name(&mut self, name: &ast::Name, updated: Val, span: Span) -> ElabResult<Val> {
        let outer = self.assigns_outside_innermost_dfn(&name.text);
        let value = self.bind_name(name, updated, span)?;
        if outer {
            self.outer_writes.push((name.text.clone(), value.clone()));
        }
        Ok(value)
    }

    /// `(a b c)←v`: each name gets its item of `v`, a strand (tuple) of as many items or a vector of that length; a
    /// scalar gives every name its value. The value of the assignment is `v`.
    pub(super) fn destructuring_assignment(&mut self, names: &[ast::Name], value: Val, span: Span) -> ElabResult<Val> {
        let value = self.bind_value(value);
        let items: Vec<Val> = match &value {
            Val::Tuple(items) if items.len() == names.len() => items.clone(),
            Val::Tuple(items) => {
                return Err(ElabError::length(
                    span,
                    format!("{} names for a strand of {} items", names.len(), items.len()),
                ))
            }
            Val::Array(array) if array.rank == 0 => vec![value.clone(); names.len()],
            Val::Nested { shape, items } if shape.is_empty() => vec![items[0].clone(); names.len()],
            Val::Nested { .. } => return Err(ElabError::rank(span, "(a b …)← needs a vector or a strand")),
            Val::Array(array) if array.rank == 1 => {
                if array.extents[0].is_some_and(|length| length != names.len() as i64) {
                    return Err(ElabError::length(
                        span,
                        format!(
                            "{} names for a vector of {} items",
                            names.len(),
                            array.extents[0].unwrap_or(0)
                        ),
                    ));
                }
                let mut items = Vec::with_capacity(names.len());
                for position in 1..=names.len() {
                    let index = Val::Array(Arr::scalar_constant(Scalar::Int(position as i64)));
                    items.push(self.primitive_dyadic(ast::Primitive::RightShoe, index, value.clone(), span)?);
                }
                items
            }
            Val::Array(_) => return Err(ElabError::rank(span, "(a b …)← needs a vector or a strand")),
            Val::Function(_) | Val::Operator(_) => {
                return Err(ElabError::syntax(span, "(a b …)← assigns arrays, not functions"))
            }
        };
        for (name, item) in names.iter().zip(items) {
            let item = self.bind_value(item);
            self.env = self.env.bind(&name.text, item);
        }
        Ok(value)
    }

    /// Binds `name` to `value` (let-bound, checked against a pending type annotation) and returns the bound value.
    fn bind_name(&mut self, name: &ast::Name, value: Val, span: Span) -> ElabResult<Val> {
        let value = self.bind_value(value);
        let value = self.apply_pending_annotation(&name.text, value, span)?;
        self.env = self.env.bind(&name.text, value.clone());
        Ok(value)
    }

    /// The function `f` of a modified assignment `x f← v` or `x[i] f← v`; `None` when there is none.
    pub(super) fn modifier_function(&mut self, modifier: &[ast::Item], span: Span) -> ElabResult<Option<Rc<Fun>>> {
        if modifier.is_empty() {
            return Ok(None);
        }
        let env = self.env.clone();
        let node = Resolver::new(&env).resolve(modifier, span)?;
        if node.is_array() {
            return Err(ElabError::syntax(
                span,
                "the modifier of a modified assignment must be a function",
            ));
        }
        self.function_node(&node).map(Some)
    }

    // ----- resolved trees -----

    pub fn node(&mut self, node: &Node<'_>) -> ElabResult<Val> {
        match node {
            Node::Atom(item, _) => self.item(item),
            Node::Given(value, _) => Ok((**value).clone()),
            Node::Strand(elements, span) => {
                let mut values = Vec::with_capacity(elements.len());
                for element in elements.iter().rev() {
                    match element {
                        // Adjacent numbers strand item by item with the other items: `'name' 1 2 3` has four items.
                        Node::Atom(ast::Item::Numbers(numbers, numbers_span), _) => {
                            for number in numbers.iter().rev() {
                                values.push(self.numbers(std::slice::from_ref(number), *numbers_span)?);
                            }
                        }
                        _ => values.push(self.node(element)?),
                    }
                }
                values.reverse();
                self.strand(values, *span)
            }
            Node::Monadic {
                function,
                argument,
                span,
            } => {
                let argument = self.node(argument)?;
                let function = self.function_node(function)?;
                self.apply_monadic(&function, argument, *span)
            }
            Node::Dyadic {
                left,
                function,
                right,
                span,
            } => {
                let right = self.node(right)?;
                let function = self.function_node(function)?;
                let left = self.node(left)?;
                self.apply_dyadic(&function, left, right, *span)
            }
            Node::Derived { .. } | Node::Fork { .. } | Node::Atop { .. } => {
                Ok(Val::Function(self.function_node(node)?))
            }
        }
    }

    /// Elaborate a node that denotes a function.
    pub fn function_node(&mut self, node: &Node<'_>) -> ElabResult<Rc<Fun>> {
        match node {
            // `/ ⌿ \ ⍀` as the operand of an operator: replicate and expand (`resolve.rs`, `mark_replicate_functions`).
            Node::Atom(ast::Item::Primitive(primitive, span), Class::Function)
                if resolve::primitive_class(*primitive) != Class::Function =>
            {
                Ok(Rc::new(Fun::Primitive(*primitive, *span)))
            }
            Node::Atom(item, _) => match self.item(item)? {
                Val::Function(function) => Ok(function),
                _ => Err(ElabError::syntax(item.span(), "expected a function")),
            },
            Node::Derived {
                operator,
                left,
                right,
                span,
            } => {
                let left = self.operand(left)?;
                let right = match right {
                    Some(right) => Some(self.operand(right)?),
                    None => None,
                };
                self.derive(operator, left, right, *span)
            }
            Node::Fork {
                left, middle, right, ..
            } => {
                let left = self.operand(left)?;
                let middle = self.function_node(middle)?;
                let right = self.function_node(right)?;
                Ok(Rc::new(Fun::Fork(left, middle, right)))
            }
            Node::Atop { left, right, .. } => {
                let left = self.function_node(left)?;
                let right = self.function_node(right)?;
                Ok(Rc::new(Fun::Atop(left, right)))
            }
            other => Err(ElabError::syntax(other.span(), "expected a function")),
        }
    }

    /// An operand: a function or an (elaborated, let-bound) array.
    fn operand(&mut self, node: &Node<'_>) -> ElabResult<Val> {
        if node.is_array() {
            let value = self.node(node)?;
            Ok(self.bind_value(value))
        } else {
            Ok(Val::Function(self.function_node(node)?))
        }
    }

    /// Apply an operator item to its operands.
    fn derive(&mut self, operator: &ast::Item, left: Val, right: Option<Val>, span: Span) -> ElabResult<Rc<Fun>> {
        match operator {
            ast::Item::Primitive(primitive, _) => Ok(Rc::new(Fun::Derived {
                operator: *primitive,
                left,
                right,
                span,
            })),
            ast::Item::SystemName(name) if resolve::system_name_is_dyadic_operator(&name.text) => {
                let (Val::Function(function), Some(count @ (Val::Array(_) | Val::Tuple(_)))) = (left, right) else {
                    return Err(ElabError::syntax(
                        span,
                        "⎕BENCH takes a function on its left and a count on its right",
                    ));
                };
                Ok(Rc::new(Fun::Bench { function, count, span }))
            }
            _ => match self.item(operator)? {
                Val::Operator(operator_value) => match &*operator_value {
                    Opr::Primitive(primitive, _) => Ok(Rc::new(Fun::Derived {
                        operator: *primitive,
                        left,
                        right,
                        span,
                    })),
                    Opr::AlongAxis {
                        primitive,
                        axis,
                        span: axis_span,
                    } => Ok(Rc::new(Fun::AlongAxis {
                        along_last: Rc::new(Fun::Derived {
                            operator: *primitive,
                            left,
                            right,
                            span,
                        }),
                        axis: *axis,
                        span: *axis_span,
                    })),
                    Opr::Dfn { closure, .. } => {
                        let mut closure = (**closure).clone();
                        closure.operands = Some((left, right));
                        closure.operator = Some(operator_value.clone());
                        Ok(Rc::new(Fun::Dfn(closure, span)))
                    }
                },
                _ => Err(ElabError::syntax(operator.span(), "expected an operator")),
            },
        }
    }

    // ----- items -----

    pub fn item(&mut self, item: &ast::Item) -> ElabResult<Val> {
        match item {
            ast::Item::Numbers(numbers, span) => self.numbers(numbers, *span),
            ast::Item::String(text, _) => {
                let characters: Vec<Scalar> = text.chars().map(Scalar::Char).collect();
                if characters.len() == 1 {
                    Ok(Val::Array(Arr::scalar_constant(characters[0])))
                } else {
                    Ok(Val::Array(Arr::vector_constant(characters, Base::Char)))
                }
            }
            ast::Item::Zilde(_) => Ok(Val::Array(Arr::vector_constant(Vec::new(), Base::Bool))),
            ast::Item::Name(name) => match self.lookup_name(&name.text) {
                Some(value) => match tradfns::niladic_tradfn(value) {
                    Some(tradfn) => self.call_tradfn(&tradfn, None, None, name.span),
                    None => Ok(value.clone()),
                },
                None => Err(ElabError::value(name.span, format!("undefined name {}", name.text))),
            },
            ast::Item::SystemName(name) => self.system_name(name),
            ast::Item::Special(special, span) => {
                let key = resolve::special_key(*special);
                match self.env.lookup(key) {
                    Some(value) => Ok(value.clone()),
                    None => Err(ElabError::value(
                        *span,
                        match special {
                            ast::SpecialName::Alpha => "⍺ is not defined (the dfn was called monadically)".to_string(),
                            _ => format!("{key} used outside a dfn"),
                        },
                    )),
                }
            }
            ast::Item::Primitive(primitive, span) => match resolve::primitive_class(*primitive) {
                Class::Function => Ok(Val::Function(Rc::new(Fun::Primitive(*primitive, *span)))),
                _ => Ok(Val::Operator(Rc::new(Opr::Primitive(*primitive, *span)))),
            },
            ast::Item::Parenthesised(expr, _) => self.expr(expr),
            ast::Item::Dfn(dfn) => {
                let closure = Closure {
                    dfn: Rc::new((**dfn).clone()),
                    env: self.env.clone(),
                    operands: None,
                    operator: None,
                    from_prelude: self.loading_prelude,
                };
                match resolve::dfn_class(&dfn.body) {
                    Class::MonadicOperator => Ok(Val::Operator(Rc::new(Opr::Dfn {
                        closure: Box::new(closure),
                        dyadic: false,
                        span: dfn.span,
                    }))),
                    Class::DyadicOperator => Ok(Val::Operator(Rc::new(Opr::Dfn {
                        closure: Box::new(closure),
                        dyadic: true,
                        span: dfn.span,
                    }))),
                    _ => {
                        if let Some(annotation) = &dfn.annotation {
                            self.check_annotated_dfn_once(&closure, annotation)?;
                        }
                        Ok(Val::Function(Rc::new(Fun::Dfn(closure, dfn.span))))
                    }
                }
            }
            ast::Item::Indexed { base, indices, span } => {
                let base_value = self.item(base)?;
                match base_value {
                    Val::Function(function) => self.function_with_axis(function, indices, *span),
                    Val::Operator(operator) => self.operator_with_axis(&operator, indices, *span),
                    array => self.at_site(*span, |this| this.index(array, indices, *span)),
                }
            }
        }
    }

    /// The value of a user name: its binding in the current environment (none when a tradfn localised it and has
    /// not assigned it yet), else in the top level's (a global assigned after the dfn that reads it was defined).
    pub fn lookup_name(&self, name: &str) -> Option<&Val> {
        match self.env.find(name) {
            Some(value) => value,
            None => self.globals.lookup(name),
        }
    }

    fn numbers(&mut self, numbers: &[ast::NumberLiteral], span: Span) -> ElabResult<Val> {
        let scalars: Vec<Scalar> = numbers
            .iter()
            .map(|number| match *number {
                ast::NumberLiteral::Int(0) => Scalar::Bool(false),
                ast::NumberLiteral::Int(1) => Scalar::Bool(true),
                ast::NumberLiteral::Int(value) => Scalar::Int(value),
                ast::NumberLiteral::Float(value) => Scalar::Double(value),
                ast::NumberLiteral::Complex(re, im) => Scalar::Complex(re, im),
            })
            .collect();
        let _ = span;
        if scalars.len() == 1 {
            return Ok(Val::Array(Arr::scalar_constant(scalars[0])));
        }
        let base = scalars.iter().map(|s| s.base()).max().unwrap_or(Base::Bool);
        Ok(Val::Array(Arr::vector_constant(scalars, base)))
    }

    /// A strand of arrays: a vector if every element is a scalar of one kind, otherwise a tuple.
    pub fn strand(&mut self, values: Vec<Val>, span: Span) -> ElabResult<Val> {
        let all_scalars = values.iter().all(|value| matches!(value, Val::Array(a) if a.rank == 0));
        if all_scalars {
            let arrays: Vec<Arr> = values
                .into_iter()
                .map(|value| match value {
                    Val::Array(array) => array,
                    _ => unreachable!("checked above"),
                })
                .collect();
            let base = arrays
                .iter()
                .map(|a| a.base)
                .try_fold(arrays[0].base, |joined, b| joined.join(b));
            if let Some(base) = base {
                if arrays.iter().all(|a| a.constant.is_some()) {
                    let values = arrays
                        .iter()
                        .map(|a| a.constant_scalar().expect("constant scalar"))
                        .collect();
                    return Ok(Val::Array(Arr::vector_constant(values, base)));
                }
                let count = arrays.len() as i64;
                let mut elements = Vec::with_capacity(arrays.len());
                for array in arrays {
                    let converted = self.convert(array, base, span)?;
                    elements.push(converted.expr);
                }
                return Ok(Val::Array(
                    Arr::dynamic(Expr::Vector(elements, base), base, 1).with_extents(vec![Some(count)]),
                ));
            }
            let values = arrays.into_iter().map(Val::Array).collect();
            return Ok(Val::Tuple(values));
        }
        if values
            .iter()
            .any(|value| matches!(value, Val::Function(_) | Val::Operator(_)))
        {
            return Err(ElabError::syntax(span, "a function in a strand"));
        }
        Ok(Val::Tuple(values.into_iter().map(|v| self.bind_value(v)).collect()))
    }

    // ----- application -----

    pub fn apply_monadic(&mut self, function: &Fun, argument: Val, span: Span) -> ElabResult<Val> {
        match function {
            Fun::Primitive(primitive, primitive_span) => self.at_site(*primitive_span, |this| {
                this.primitive_monadic(*primitive, argument, *primitive_span)
            }),
            Fun::System(name, name_span) => self.at_site(*name_span, |this| {
                this.system_function_monadic(name, argument, *name_span)
            }),
            Fun::Dfn(closure, _) => self.call_dfn(closure, None, argument, span),
            Fun::Tradfn(tradfn, _) => self.call_tradfn(tradfn, None, Some(argument), span),
            Fun::Derived {
                operator,
                left,
                right,
                span: derived_span,
            } => self.at_site(*derived_span, |this| {
                this.derived_monadic(*operator, left, right.as_ref(), argument, *derived_span)
            }),
            Fun::Fork(left, middle, right) => {
                let argument = self.bind_value(argument);
                let right_value = self.apply_monadic(right, argument.clone(), span)?;
                let left_value = match left {
                    Val::Function(left) => self.apply_monadic(left, argument, span)?,
                    array => array.clone(),
                };
                self.apply_dyadic(middle, left_value, right_value, span)
            }
            Fun::Atop(left, right) => {
                let inner = self.apply_monadic(right, argument, span)?;
                self.apply_monadic(left, inner, span)
            }
            Fun::WithAxis {
                primitive,
                axis,
                laminate: false,
                span: axis_span,
            } => self.at_site(*axis_span, |this| {
                let argument = this.expect_array(argument, *axis_span)?;
                this.apply_monadic_with_axis(*primitive, *axis, argument, *axis_span)
                    .map(Val::Array)
            }),
            Fun::WithAxis { span, .. } => Err(ElabError::nonce(*span, "monadic , with a fractional axis")),
            Fun::AlongAxis {
                along_last,
                axis,
                span: axis_span,
            } => self.at_site(*axis_span, |this| {
                this.apply_along_axis(along_last, *axis, None, argument, *axis_span)
            }),
            Fun::Bench {
                function,
                count,
                span: bench_span,
            } => {
                let count = self.expect_array(count.clone(), *bench_span)?;
                self.timed_power(count, argument, *bench_span, &mut |this, x| {
                    this.apply_monadic(function, x, *bench_span)
                })
            }
        }
    }

    pub fn apply_dyadic(&mut self, function: &Fun, left: Val, right: Val, span: Span) -> ElabResult<Val> {
        match function {
            Fun::Primitive(primitive, primitive_span) => self.at_site(*primitive_span, |this| {
                this.primitive_dyadic(*primitive, left, right, *primitive_span)
            }),
            Fun::System(name, name_span) => self.at_site(*name_span, |this| {
                this.system_function_dyadic(name, left, right, *name_span)
            }),
            Fun::Dfn(closure, _) => self.call_dfn(closure, Some(left), right, span),
            Fun::Tradfn(tradfn, _) => self.call_tradfn(tradfn, Some(left), Some(right), span),
            Fun::Derived {
                operator,
                left: left_operand,
                right: right_operand,
                span: derived_span,
            } => self.at_site(*derived_span, |this| {
                this.derived_dyadic(
                    *operator,
                    left_operand,
                    right_operand.as_ref(),
                    left,
                    right,
                    *derived_span,
                )
            }),
            Fun::Fork(left_tine, middle, right_tine) => {
                let left = self.bind_value(left);
                let right = self.bind_value(right);
                let right_value = self.apply_dyadic(right_tine, left.clone(), right.clone(), span)?;
                let left_value = match left_tine {
                    Val::Function(left_tine) => self.apply_dyadic(left_tine, left, right, span)?,
                    array => array.clone(),
                };
                self.apply_dyadic(middle, left_value, right_value, span)
            }
            Fun::Atop(outer, inner) => {
                let inner_value = self.apply_dyadic(inner, left, right, span)?;
                self.apply_monadic(outer, inner_value, span)
            }
            Fun::WithAxis {
                primitive,
                axis,
                laminate,
                span: axis_span,
            } => self.at_site(*axis_span, |this| {
                let left = this.expect_array(left, *axis_span)?;
                let right = this.expect_array(right, *axis_span)?;
                if *laminate {
                    return this.laminate(*axis, (left, right), *axis_span).map(Val::Array);
                }
                this.apply_dyadic_with_axis(*primitive, *axis, left, right, *axis_span)
                    .map(Val::Array)
            }),
            Fun::AlongAxis {
                along_last,
                axis,
                span: axis_span,
            } => self.at_site(*axis_span, |this| {
                this.apply_along_axis(along_last, *axis, Some(left), right, *axis_span)
            }),
            Fun::Bench {
                function,
                count,
                span: bench_span,
            } => {
                let count = self.expect_array(count.clone(), *bench_span)?;
                let left = self.bind_value(left);
                self.timed_power(count, right, *bench_span, &mut |this, x| {
                    this.apply_dyadic(function, left.clone(), x, *bench_span)
                })
            }
        }
    }

    /// Elaborates the code of the APL text at `span` (a primitive's glyph, a derived function's operator, an index's
    /// brackets): the code it builds, bindings and value, is marked with the span, so that a run-time error raised
    /// by it points there. Inside a prelude dfn every site is the user's call of the prelude function.
    pub(super) fn at_site(&mut self, span: Span, work: impl FnOnce(&mut Self) -> ElabResult<Val>) -> ElabResult<Val> {
        let span = self.fixed_site.unwrap_or(span);
        let enclosing = self.site.replace(span);
        let result = work(self);
        self.site = enclosing;
        Ok(value_at_site(span, result?))
    }

    /// Elaborates the body of a prelude dfn called at `span`: its run-time errors point at that call.
    pub fn with_fixed_site<T>(&mut self, span: Span, work: impl FnOnce(&mut Self) -> T) -> T {
        if self.fixed_site.is_some() {
            return work(self);
        }
        self.fixed_site = Some(span);
        let result = work(self);
        self.fixed_site = None;
        result
    }

    /// The array inside a value, or a clear error for a function or a tuple where an array is needed.
    pub fn expect_array(&self, value: Val, span: Span) -> ElabResult<Arr> {
        match value {
            Val::Array(array) => Ok(array),
            Val::Tuple(_) | Val::Nested { .. } => Err(ElabError::nonce(
                span,
                "a nested array (a strand or ⊂) where this primitive needs a simple array",
            )
            .with_hint(
                "on nested arrays whose items are known when compiling, aplc compiles each, the scalar functions, \
                 ∘.f, f/, f.g, and ⍴ ≢ ≡ ⊃ ↑ ∊ , ⌽ ⍳ (grammar.md §2); t[k] with a constant k picks an item",
            )),
            Val::Function(_) | Val::Operator(_) => Err(ElabError::syntax(span, "a function where an array is needed")),
        }
    }
}

/// Every array of a value marked as the code of the APL text at `span`.
fn value_at_site(span: Span, value: Val) -> Val {
    match value {
        Val::Array(array) => Val::Array(Arr {
            expr: Expr::at(span, array.expr),
            ..array
        }),
        Val::Tuple(components) => Val::Tuple(components.into_iter().map(|c| value_at_site(span, c)).collect()),
        Val::Nested { shape, items } => Val::Nested {
            shape,
            items: items.into_iter().map(|item| value_at_site(span, item)).collect(),
        },
        other => other,
    }
}

/// A tradfn's result is not shown when the call is a whole statement: it has none, or it is `{R}←`.
fn tradfn_result_is_shy(tradfn: &ast::Tradfn) -> bool {
    tradfn.result.is_none() || tradfn.shy_result
}

/// Wrap a scope's bindings and effects, innermost last, around its result.
fn wrap_entries(entries: Vec<Entry>, result: Expr) -> Expr {
    entries.into_iter().rev().fold(result, |body, entry| match entry {
        Entry::Let(name, value_type, value) => Expr::Let(name, value_type, Box::new(value), Box::new(body)),
        Entry::Effect(effect) => Expr::Sequence(Box::new(effect), Box::new(body)),
    })
}
