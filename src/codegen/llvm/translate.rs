//! The translation of a loop-IR program (`crate::loops::ir`) into an LLVM module with the program entry
//! `i32 aplc_main()`. The walk is one helper per statement ([`ProgramTranslator::translate_statement`]) and one per
//! scalar expression ([`scalar`]); the constructs themselves are emitted by [`FunctionEmitter`].
//!
//! How the IR maps to LLVM:
//! - `let` binds an SSA value (named after the IR variable); `var`/`:=` use an entry-block stack slot, which mem2reg
//!   promotes, so loops need no hand-written phi nodes.
//! - A block is a pointer from `aplrt_alloc` (fresh memory, `noalias`, 64-byte aligned) kept in a stack slot with its
//!   byte count beside it (for `aplrt_free`, and so that `swap` exchanges both).
//! - Booleans are `i1` in registers and one byte in memory; chars are `i32` code points; complex numbers are
//!   `{ double, double }` in registers and in memory (the run-time library's layout).
//! - `for` is a counted loop with an `i64` induction variable from 0 and the count computed once before it.
//!
//! Two things exist for the vectoriser, which refuses loops with calls or early exits and reductions whose
//! accumulator has other uses:
//! - Deferred domain checks. A double operation whose result is not a finite real number (`÷0`, `¯1*0.5`, `1e308×10`)
//!   is a DOMAIN ERROR. Inside a `for` loop whose body has no observable effect (no print, no explicit error, no while loop), such
//!   checks do not branch: each failure is or-ed into a flag, and the flags are tested once after the outermost such
//!   loop. The program then stops with the same error kind after the same output; only the values it stored in the
//!   meantime (invisible, since it stops) differ. Int overflow (`addi subi muli negi absi`) is deferred the same way:
//!   a wrapped int cannot reach an APL index check before the flags are tested (a loop nest with an `error`
//!   statement does not defer); at worst it leads to another DOMAIN ERROR (an int division by a wrapped 0) or, as
//!   the size of an allocation inside the nest, to WS FULL first. Other checks whose result may
//!   become an index or a count (int division, floor, conversions) always branch at once. Checks implied by the
//!   checks of their uses are left out there (`nan_checks.rs`).
//! - Reductions. An assignment `acc := f(x, acc)` with `f` one of `addd maxd mind`, the only use of `acc` in its
//!   loop, gets the `reassoc` and `nsz` fast-math flags (APL lets `+/` on doubles associate; no other operation gets
//!   them, so `-/` keeps its order). A product `muld` keeps its order too: its magnitude compounds, and vector lanes
//!   that each fold every 32nd element can overflow where the ordered fold does not (`×/` of 8192 alternating 0.5s
//!   and 2s is 1, but lanes of only 2s reach 2*1024). Each step's not-a-real-number check moves after the loop: no
//!   value of a running program is NaN (every operation that makes one from non-NaN arguments stops the program),
//!   and NaN stays NaN under `+` and `×`, so the final accumulator is NaN exactly when one step was. A loop with more
//!   than [`MOST_REASSOCIATED_REDUCTIONS`] of them (a register tile's 128 accumulators) keeps each fold in order, and
//!   checks each result with a branch of its own after the loop (see [`ProgramTranslator::check_reduction_result`]):
//!   the SLP vectoriser vectorises such a loop across its accumulators. A `+` step, and the `+` of an accumulating
//!   store (`store B[e] = addd(x, B[e])`), may fuse with the product it adds into one fused multiply-add
//!   (`emit::allow_contraction`): a sum, which APL lets reassociate, may also round a product once.

mod functions;
pub mod line;
mod nan_checks;
mod narrow;
pub mod opencl;
mod parallel;
mod scalar;
mod special_functions;

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};

use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::types::{BasicTypeEnum, IntType};
use inkwell::values::{BasicValue, BasicValueEnum, FloatValue, IntValue, PointerValue};
use inkwell::AddressSpace;

use aplc_runtime::abi::{
    diagnostic_code, ElementKind, ALLOCATION_ALIGNMENT, SITE_CODE_MARKER, SITE_ERROR_MARKER, SITE_JSON_ERROR_MARKER,
};

use super::emit::FunctionEmitter;
use super::error::CodegenError;
use super::runtime_table::{declare_runtime_function, runtime_error_kind_of, RuntimeFunctionId};
use super::target::CodegenOptions;
use super::verify_module;
use crate::diagnostics::{json_string, ErrorFormat};
use crate::loops::ir::{ArrayRef, Block, Expr, Program, ScalarType, Stmt, Storage, Var};
use crate::runtime::error::{AplError, AplErrorKind};
use crate::runtime::float_mode::FloatMode;
use crate::source::{SourceFile, Span};
use crate::tail::ast::Op;

/// The name of the module a program is translated into.
pub const PROGRAM_MODULE_NAME: &str = "aplc_program";

/// Translates a loop program into a verified module whose `aplc_main` runs it and returns 0 (an APL error exits
/// with status 1 inside `aplrt_error`). The program's result value is not printed: a program shows what it prints.
/// Of the options, the translation reads the thread count and the float mode (the target is chosen when the module is
/// compiled).
pub fn translate_program<'ctx>(
    context: &'ctx Context,
    program: &Program,
    options: &CodegenOptions,
) -> Result<Module<'ctx>, CodegenError> {
    Ok(translate_program_with_device_code(context, program, options)?.0)
}

/// [`translate_program`], with the OpenCL side of the program when `options.opencl` asks for kernels: what
/// `aplc dump --stage opencl` shows (see `opencl.rs`).
pub fn translate_program_with_device_code<'ctx>(
    context: &'ctx Context,
    program: &Program,
    options: &CodegenOptions,
) -> Result<(Module<'ctx>, Option<opencl::DeviceProgram>), CodegenError> {
    let module = context.create_module(PROGRAM_MODULE_NAME);
    let device_program = {
        let first_synthetic_id = program.largest_id() + 1;
        let translator = ProgramTranslator {
            source: options.source.clone(),
            error_format: options.error_format,
            device: options.opencl.clone().map(opencl::DeviceCode::new),
            ..ProgramTranslator::new(
                FunctionEmitter::for_new_program_entry(&module),
                first_synthetic_id,
                options.float_mode(),
            )
        };
        let translator = translator.with_functions(&program.functions)?;
        if let Some(threads) = options.threads {
            translator.emit_default_thread_count(threads)?;
        }
        translator.find_device_blocks(&program.body);
        translator.translate_statements(&program.body)?;
        let device_program = translator.finish_device_code()?;
        translator.emitter.emit_return_status(0)?;
        device_program
    };
    verify_module(&module)?;
    Ok((module, device_program))
}

/// Where a variable's value is: an SSA value (`let`, loop indices) or a stack slot (`var`).
#[derive(Clone, Copy)]
enum VariableStorage<'ctx> {
    Value(BasicValueEnum<'ctx>),
    Slot(PointerValue<'ctx>, BasicTypeEnum<'ctx>),
}

/// The stack slots that hold a block's pointer and its size in bytes.
#[derive(Clone, Copy)]
struct BlockSlots<'ctx> {
    pointer: PointerValue<'ctx>,
    byte_count: PointerValue<'ctx>,
}

/// The flags of the deferred domain checks of one loop nest: one `i1` slot per distinct error message and site,
/// tested in the order they were first needed.
#[derive(Default)]
struct DeferredChecks<'ctx> {
    flags: Vec<(String, Option<Span>, PointerValue<'ctx>)>,
}

/// The state of the walk over one function. Interior mutability because the emitter's loop and branch helpers take
/// closures that translate nested statements.
pub(super) struct ProgramTranslator<'module, 'ctx> {
    emitter: FunctionEmitter<'module, 'ctx>,
    variables: RefCell<HashMap<u32, VariableStorage<'ctx>>>,
    blocks: RefCell<HashMap<u32, BlockSlots<'ctx>>>,
    /// Present while translating a loop nest whose domain checks are deferred.
    deferred_checks: RefCell<Option<DeferredChecks<'ctx>>>,
    /// While an arm of a `select` is evaluated speculatively: the condition under which it is the chosen arm, so that
    /// its deferred checks count only then.
    speculation_guard: RefCell<Option<IntValue<'ctx>>>,
    /// The accumulators of the reductions of the loops being translated, by variable id.
    reduction_accumulators: RefCell<HashSet<u32>>,
    /// Those of them whose steps keep their order (no `reassoc`): the accumulators of a loop with more than
    /// [`MOST_REASSOCIATED_REDUCTIONS`] reductions.
    accumulators_in_order: RefCell<HashSet<u32>>,
    /// Set just before the value of an accumulating store (`store B[e] = addd(x, B[e])`, a step of a sum kept in
    /// memory) is translated; taken by its `addd`, which may then fuse with a product (`emit::allow_contraction`).
    contract_next_sum: Cell<bool>,
    /// The `let`s of the deferring loop nest being translated whose NaN check their uses imply (`nan_checks.rs`).
    lets_checked_by_uses: RefCell<HashSet<u32>>,
    /// Set just before an operation is translated whose NaN check is implied; taken by that operation.
    elide_next_nan_check: Cell<bool>,
    /// While the operation that took `elide_next_nan_check` emits its checks.
    nan_check_elided: Cell<bool>,
    /// In the outlined body of a parallel construct, where nested constructs run sequentially (`parallel.rs`).
    inside_parallel_body: bool,
    /// Whether double results that are not finite real numbers stop the program (Dyalog) or flow on (IEEE).
    float_mode: FloatMode,
    /// The next id of a variable or block the translation makes up (above every id of the program).
    next_synthetic_id: Cell<u32>,
    /// The `let`s of element positions that the parallel translation makes up (`start + t`, `chunk × C + k`): sums
    /// and products of non-negative values that cannot overflow, translated with `nsw`/`nuw` so that LLVM knows the
    /// positions are non-negative (`parallel.rs`). An element index maps to the count it is below (`index < n`),
    /// which the translation states with `llvm.assume` so that LLVM knows the index's range inside a chunk.
    position_lets: RefCell<HashMap<u32, Option<Var>>>,
    /// The int `let`s computed in a narrow type (`narrow.rs`), by variable id.
    narrow_values: RefCell<HashMap<u32, narrow::NarrowValue<'ctx>>>,
    /// The program's source, for the reports of errors whose check has a site ([`CodegenOptions::source`]).
    source: Option<SourceFile>,
    /// How those reports are written ([`CodegenOptions::error_format`]).
    error_format: ErrorFormat,
    /// The site of the operation being translated (`Expr::At`): where the errors of its checks point.
    current_site: Cell<Option<Span>>,
    /// A REPL line's code, whose errors go to the session (which renders them against its transcript): a site is
    /// written after the message as [`SITE_MARKER`]` START..END`.
    sites_after_messages: bool,
    /// The program's functions, which `call` statements call (`functions.rs`).
    functions: functions::FunctionTable<'ctx>,
    /// In a function's body: the depth and stack floor its calls pass on (`None`: the outermost calls start them).
    call_context: Option<functions::CallContext<'ctx>>,
    /// With the OpenCL backend, in the main program: its kernels and the host's side of them (`opencl.rs`).
    device: Option<opencl::DeviceCode<'ctx>>,
}

/// What separates an error's message from its site in a REPL line's error line (see [`site_after_message`]).
pub const SITE_MARKER: &str = " @site";

/// `message @site START..END`: an error line that carries its site to the REPL session.
pub fn site_after_message(message: &str, site: Span) -> String {
    format!("{message}{SITE_MARKER} {}..{}", site.start, site.end)
}

/// The message and site of an error line written by [`site_after_message`] (the line itself and no site otherwise).
pub fn message_and_site(line: &str) -> (&str, Option<Span>) {
    let Some((message, range)) = line.rsplit_once(SITE_MARKER) else {
        return (line, None);
    };
    let site = range.trim().split_once("..").and_then(|(start, end)| {
        let (start, end) = (start.parse().ok()?, end.parse().ok()?);
        (start <= end).then(|| Span::new(start, end))
    });
    match site {
        Some(site) => (message, Some(site)),
        None => (line, None),
    }
}

impl<'module, 'ctx> ProgramTranslator<'module, 'ctx> {
    fn new(emitter: FunctionEmitter<'module, 'ctx>, first_synthetic_id: u32, float_mode: FloatMode) -> Self {
        ProgramTranslator {
            emitter,
            variables: RefCell::new(HashMap::new()),
            blocks: RefCell::new(HashMap::new()),
            deferred_checks: RefCell::new(None),
            speculation_guard: RefCell::new(None),
            reduction_accumulators: RefCell::new(HashSet::new()),
            accumulators_in_order: RefCell::new(HashSet::new()),
            contract_next_sum: Cell::new(false),
            lets_checked_by_uses: RefCell::new(HashSet::new()),
            elide_next_nan_check: Cell::new(false),
            nan_check_elided: Cell::new(false),
            inside_parallel_body: false,
            float_mode,
            next_synthetic_id: Cell::new(first_synthetic_id),
            position_lets: RefCell::new(HashMap::new()),
            narrow_values: RefCell::new(HashMap::new()),
            source: None,
            error_format: ErrorFormat::Human,
            current_site: Cell::new(None),
            sites_after_messages: false,
            functions: Default::default(),
            call_context: None,
            device: None,
        }
    }

    /// Raises the APL error of a check: reported with the source line when the check has a site and the source is
    /// known, as the plain `NAME: message` line otherwise.
    fn emit_checked_error(&self, kind: AplErrorKind, message: &str, site: Option<Span>) -> Result<(), CodegenError> {
        match (site, &self.source) {
            (Some(site), Some(source)) => {
                let report = AplError::new(kind, message)
                    .with_span(site)
                    .report_against_in(source, self.error_format);
                self.emitter.emit_apl_error_report(runtime_error_kind_of(kind), &report)
            }
            (Some(site), None) if self.sites_after_messages => self
                .emitter
                .emit_apl_error(runtime_error_kind_of(kind), &site_after_message(message, site)),
            _ => self.emitter.emit_apl_error(runtime_error_kind_of(kind), message),
        }
    }

    /// Emits a run-time call that may stop with an APL error (`emit`) so that the error reports `site`: the run-time
    /// library is given the report drawn for the site around the call (`aplrt_enter_site`, `aplrt_leave_site`).
    pub(super) fn with_runtime_site<T>(
        &self,
        site: Option<Span>,
        emit: impl FnOnce() -> Result<T, CodegenError>,
    ) -> Result<T, CodegenError> {
        let Some(template) = site.and_then(|site| self.site_report_template(site)) else {
            return emit();
        };
        self.emit_enter_site(&template)?;
        let result = emit()?;
        let leave = declare_runtime_function(self.emitter.module, RuntimeFunctionId::LeaveSite);
        self.emitter.builder.build_call(leave, &[], "")?;
        Ok(result)
    }

    /// Calls `aplrt_enter_site` with a report template (see [`Self::site_report_template`]).
    pub(super) fn emit_enter_site(&self, template: &str) -> Result<(), CodegenError> {
        let text = self.emitter.builder.build_global_string_ptr(template, "site_report")?;
        let enter = declare_runtime_function(self.emitter.module, RuntimeFunctionId::EnterSite);
        let arguments = [
            text.as_pointer_value().into(),
            self.emitter.int_constant(template.len() as i64).into(),
        ];
        self.emitter.builder.build_call(enter, &arguments, "")?;
        Ok(())
    }

    /// The report of an error at `site` with markers where the run-time library puts the error's code and
    /// `NAME: message` (it knows them only when the error happens), or `None` without a source to draw against.
    pub(super) fn site_report_template(&self, site: Span) -> Option<String> {
        let error_marker = SITE_ERROR_MARKER.to_string();
        if let Some(source) = &self.source {
            let drawn = AplError::new(AplErrorKind::Domain, error_marker.clone())
                .with_span(site)
                .report_against_in(source, self.error_format);
            let code = diagnostic_code(AplErrorKind::Domain.apl_name());
            // In JSON the error goes inside a string: a marker of its own says that it must be quoted there.
            let (header, marker) = match self.error_format {
                ErrorFormat::Human => (format!("DOMAIN ERROR: {error_marker}"), error_marker),
                ErrorFormat::Json => (
                    json_string(&format!("DOMAIN ERROR: {error_marker}")),
                    SITE_JSON_ERROR_MARKER.to_string(),
                ),
            };
            return Some(
                drawn
                    .replacen(&code, &SITE_CODE_MARKER.to_string(), 1)
                    .replacen(&header, &marker, 1),
            );
        }
        self.sites_after_messages
            .then(|| site_after_message(&error_marker, site))
    }

    /// Translates an operation with a site: its checks report that site.
    pub(super) fn with_site<T>(&self, site: Span, translate: impl FnOnce() -> T) -> T {
        let enclosing = self.current_site.replace(Some(site));
        let result = translate();
        self.current_site.set(enclosing);
        result
    }

    fn translate_statements(&self, statements: &[Stmt]) -> Result<(), CodegenError> {
        let mut rest = statements;
        while let Some(statement) = rest.first() {
            let run = constant_store_run(rest);
            if run.len() >= MIN_CONSTANT_STORE_RUN {
                self.sync_before_host_writes(run)?;
                self.translate_constant_stores(run)?;
                self.device_copy_is_stale_after(run)?;
                rest = &rest[run.len()..];
            } else {
                self.translate_statement(statement)?;
                rest = &rest[1..];
            }
        }
        Ok(())
    }

    /// A run of stores of literals to consecutive positions of one block (the fill of a literal vector, from
    /// [`constant_store_run`]) as one copy from a constant global array: one store per element would make LLVM's
    /// work, and the compile time, grow with the literal (a 20,000-number strand took seconds).
    fn translate_constant_stores(&self, run: &[Stmt]) -> Result<(), CodegenError> {
        let Some(Stmt::Store { block, index, .. }) = run.first() else {
            return Err(internal_error("an empty run of constant stores".to_string()));
        };
        let first = self.translate_int(index)?;
        let context = self.emitter.context;
        let values = run.iter().filter_map(|statement| match statement {
            Stmt::Store { value, .. } => Some(value),
            _ => None,
        });
        let (array_type, initializer) = match block.element {
            ScalarType::Int => {
                let int_type = self.storage_int_type(block.storage);
                let constants: Vec<IntValue<'ctx>> = values
                    .filter_map(Expr::as_int)
                    .map(|value| int_type.const_int(value as u64, true))
                    .collect();
                (
                    int_type.array_type(constants.len() as u32),
                    int_type.const_array(&constants),
                )
            }
            ScalarType::Double => {
                let constants: Vec<FloatValue<'ctx>> = values
                    .filter_map(|value| match value {
                        Expr::Double(value) => Some(context.f64_type().const_float(*value)),
                        _ => None,
                    })
                    .collect();
                (
                    context.f64_type().array_type(constants.len() as u32),
                    context.f64_type().const_array(&constants),
                )
            }
            ScalarType::Bool | ScalarType::Char => {
                let integer_type = match block.element {
                    ScalarType::Bool => context.i8_type(),
                    _ => context.i32_type(),
                };
                let constants: Vec<IntValue<'ctx>> = values
                    .filter_map(|value| match value {
                        Expr::Bool(value) => Some(u64::from(*value)),
                        Expr::Char(value) => Some(u64::from(*value)),
                        _ => None,
                    })
                    .map(|value| integer_type.const_int(value, false))
                    .collect();
                (
                    integer_type.array_type(constants.len() as u32),
                    integer_type.const_array(&constants),
                )
            }
            ScalarType::Complex => return Err(internal_error("a run of complex constant stores".to_string())),
        };
        if array_type.len() as usize != run.len() {
            return Err(internal_error(
                "a constant store of another type than its block".to_string(),
            ));
        }
        let global = self.emitter.module.add_global(array_type, None, "literal");
        global.set_initializer(&initializer);
        global.set_constant(true);
        global.set_unnamed_addr(true);
        global.set_linkage(inkwell::module::Linkage::Private);
        let destination = self.element_pointer(*block, first)?;
        let bytes = self.block_byte_count_of(*block, self.emitter.int_constant(run.len() as i64))?;
        self.emitter
            .builder
            .build_memcpy(destination, 1, global.as_pointer_value(), 1, bytes)
            .map_err(|error| internal_error(error.to_string()))?;
        Ok(())
    }

    fn translate_statement(&self, statement: &Stmt) -> Result<(), CodegenError> {
        if let Some(translated) = self.translate_statement_with_device(statement) {
            return translated;
        }
        self.translate_statement_itself(statement)
    }

    /// The statement's own translation (with the OpenCL backend, inside the calls that keep blocks coherent).
    fn translate_statement_itself(&self, statement: &Stmt) -> Result<(), CodegenError> {
        match statement {
            Stmt::Let { var, value } => self.translate_let(var, value),
            Stmt::Mutable { var, value } => self.translate_mutable(var, value),
            Stmt::Assign { var, value } => self.translate_assign(var, value),
            Stmt::For { index, count, body } => self.translate_for_loop(index, count, body),
            Stmt::While { condition, body } => self.translate_while_loop(condition, body),
            Stmt::ParallelFor { index, count, body } if self.runs_on_device(statement) => {
                self.launch_parallel_for(index, count, body)
            }
            Stmt::ParallelFor { index, count, body } => self.translate_parallel_for(index, count, body),
            Stmt::ParallelReduce {
                result,
                reduction,
                index,
                count,
                body,
                element,
                site,
            } => {
                let on_device = self.runs_on_device(statement);
                let translate = || match on_device {
                    true => self.launch_parallel_reduce(result, reduction, index, count, body, element),
                    false => self.translate_parallel_reduce(result, reduction, index, count, body, element),
                };
                match site {
                    Some(site) => self.with_site(*site, translate),
                    None => translate(),
                }
            }
            Stmt::If {
                condition,
                then,
                otherwise,
            } => self.translate_if(condition, then, otherwise),
            Stmt::Alloc { block, size, site } => self.with_runtime_site(*site, || self.translate_alloc(*block, size)),
            Stmt::Store { block, index, value } => self.translate_store(*block, index, value),
            Stmt::Free { block } => self.translate_free(*block),
            Stmt::Swap { first, second } => self.translate_swap(*first, *second),
            Stmt::PrintArray { array, precision } => self.translate_print_array(array, precision),
            Stmt::PrintScalar { value, precision } => self.translate_print_scalar(value, precision),
            Stmt::Error { kind, message, site } => self.emit_checked_error(*kind, message, *site),
            Stmt::ReadClock { var } => self.translate_read_clock(var),
            Stmt::ReadFile {
                path,
                result,
                length,
                site,
            } => self.with_runtime_site(*site, || self.translate_read_file(path, *result, length)),
            Stmt::ReportBench { iterations, start } => self.translate_report_bench(iterations, start),
            Stmt::View { .. } => Ok(()),
            Stmt::Call {
                result,
                function,
                args,
                site,
            } => self.translate_call(result, function, args, *site),
            Stmt::Format {
                source,
                precision,
                matrix,
                result,
                shape,
                site,
            } => self.with_runtime_site(*site, || {
                self.translate_format(source, precision, *matrix, *result, shape)
            }),
        }
    }

    // ---- Scalar variables ----

    /// The value takes the variable's name, unless it is another variable's (or a constant, which has no name).
    fn translate_let(&self, var: &Var, value: &Expr) -> Result<(), CodegenError> {
        if self.position_lets.borrow().contains_key(&var.id) {
            return self.translate_position_let(var, value);
        }
        let is_fresh_computation = !matches!(value, Expr::Var(_));
        if matches!(value.without_site(), Expr::Prim(..)) && self.lets_checked_by_uses.borrow().contains(&var.id) {
            self.elide_next_nan_check.set(true);
        }
        let value = match self.translate_narrow_let(var, value)? {
            Some(widened) => widened.into(),
            None => self.translate_expression(value)?,
        };
        if is_fresh_computation && value.as_instruction_value().is_some() {
            value.set_name(&var.name());
        }
        self.bind_variable(var, VariableStorage::Value(value));
        Ok(())
    }

    fn translate_mutable(&self, var: &Var, value: &Expr) -> Result<(), CodegenError> {
        let initial = self.translate_expression(value)?;
        let value_type = self.register_type(var.ty);
        let slot = self.emitter.emit_mutable_variable(value_type, &var.name(), initial)?;
        self.bind_variable(var, VariableStorage::Slot(slot, value_type));
        Ok(())
    }

    fn translate_assign(&self, var: &Var, value: &Expr) -> Result<(), CodegenError> {
        let new_value = if self.reduction_accumulators.borrow().contains(&var.id) {
            self.translate_reduction_step(var, value)?
        } else {
            self.translate_expression(value)?
        };
        let slot = match self.variable_storage(var)? {
            VariableStorage::Slot(slot, _) => slot,
            VariableStorage::Value(_) => {
                return Err(internal_error(format!(
                    "{} is assigned but was not declared with var",
                    var.name()
                )))
            }
        };
        self.emitter.builder.build_store(slot, new_value)?;
        Ok(())
    }

    fn bind_variable(&self, var: &Var, storage: VariableStorage<'ctx>) {
        self.variables.borrow_mut().insert(var.id, storage);
    }

    fn variable_storage(&self, var: &Var) -> Result<VariableStorage<'ctx>, CodegenError> {
        self.variables
            .borrow()
            .get(&var.id)
            .copied()
            .ok_or_else(|| internal_error(format!("{} is used before it is defined", var.name())))
    }

    fn read_variable(&self, var: &Var) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        match self.variable_storage(var)? {
            VariableStorage::Value(value) => Ok(value),
            VariableStorage::Slot(slot, value_type) => {
                Ok(self.emitter.builder.build_load(value_type, slot, &var.name())?)
            }
        }
    }

    // ---- Control flow ----

    fn translate_for_loop(&self, index: &Var, count: &Expr, body: &[Stmt]) -> Result<(), CodegenError> {
        let count = self.translate_int(count)?;
        let opens_deferral = self.deferred_checks.borrow().is_none() && body_has_no_observable_effect(body);
        if opens_deferral {
            *self.deferred_checks.borrow_mut() = Some(DeferredChecks::default());
            *self.lets_checked_by_uses.borrow_mut() = nan_checks::lets_checked_by_their_uses(body);
        }
        let reductions = if self.deferred_checks.borrow().is_some() {
            reduction_steps_of_loop(body)
        } else {
            Vec::new()
        };
        self.reduction_accumulators
            .borrow_mut()
            .extend(reductions.iter().map(|(var, _, _)| var.id));
        let many = reductions.len() > MOST_REASSOCIATED_REDUCTIONS;
        self.accumulators_in_order.borrow_mut().extend(
            reductions
                .iter()
                .filter(|(_, op, _)| many || *op == Op::MulD)
                .map(|(var, _, _)| var.id),
        );
        let loop_name = index.name();
        self.emitter.emit_for_loop(count, &loop_name, |_, index_value| {
            index_value.set_name(&loop_name);
            self.bind_variable(index, VariableStorage::Value(index_value.into()));
            self.translate_statements(body)
        })?;
        for (accumulator, op, site) in &reductions {
            self.reduction_accumulators.borrow_mut().remove(&accumulator.id);
            self.accumulators_in_order.borrow_mut().remove(&accumulator.id);
            match site {
                Some(site) => self.with_site(*site, || self.check_reduction_result(accumulator, *op, many))?,
                None => self.check_reduction_result(accumulator, *op, many)?,
            }
        }
        if opens_deferral {
            self.lets_checked_by_uses.borrow_mut().clear();
            self.test_deferred_checks()?;
        }
        Ok(())
    }

    fn translate_while_loop(&self, condition: &Expr, body: &[Stmt]) -> Result<(), CodegenError> {
        self.emitter.emit_while_loop(
            "while",
            |_| {
                self.sync_while_condition(condition, body)?;
                self.translate_bool(condition)
            },
            |_| self.translate_statements(body),
        )
    }

    fn translate_if(&self, condition: &Expr, then: &[Stmt], otherwise: &[Stmt]) -> Result<(), CodegenError> {
        let condition = self.translate_bool(condition)?;
        self.emitter.emit_if(
            condition,
            "if",
            |_| self.translate_statements(then),
            |_| {
                self.record_else_branch_in_schedule(otherwise);
                self.translate_statements(otherwise)
            },
        )
    }

    // ---- Memory blocks ----

    fn block_slots(&self, block: Block) -> Result<BlockSlots<'ctx>, CodegenError> {
        if let Some(slots) = self.blocks.borrow().get(&block.id) {
            return Ok(*slots);
        }
        let pointer_type = self.emitter.context.ptr_type(AddressSpace::default());
        let slots = BlockSlots {
            pointer: self.emitter.emit_entry_block_slot(pointer_type, &block.name())?,
            byte_count: self
                .emitter
                .emit_entry_block_slot(self.emitter.context.i64_type(), &format!("{}_bytes", block.name()))?,
        };
        self.blocks.borrow_mut().insert(block.id, slots);
        Ok(slots)
    }

    fn block_pointer(&self, block: Block) -> Result<PointerValue<'ctx>, CodegenError> {
        let slots = self.block_slots(block)?;
        let pointer_type = self.emitter.context.ptr_type(AddressSpace::default());
        Ok(self
            .emitter
            .builder
            .build_load(pointer_type, slots.pointer, &block.name())?
            .into_pointer_value())
    }

    fn block_byte_count(&self, block: Block) -> Result<IntValue<'ctx>, CodegenError> {
        let slots = self.block_slots(block)?;
        let name = format!("{}_bytes", block.name());
        Ok(self
            .emitter
            .builder
            .build_load(self.emitter.context.i64_type(), slots.byte_count, &name)?
            .into_int_value())
    }

    /// `aplrt_alloc` with the alignment it guarantees stated on the call, so that the vectoriser may use aligned
    /// accesses.
    fn translate_alloc(&self, block: Block, size: &Expr) -> Result<(), CodegenError> {
        let count = self.translate_int(size)?;
        let bytes = self.block_byte_count_of(block, count)?;
        let alloc_function = declare_runtime_function(self.emitter.module, RuntimeFunctionId::Alloc);
        let call = self
            .emitter
            .builder
            .build_call(alloc_function, &[bytes.into()], &block.name())?;
        let align_kind = Attribute::get_named_enum_kind_id("align");
        let alignment = self
            .emitter
            .context
            .create_enum_attribute(align_kind, ALLOCATION_ALIGNMENT as u64);
        call.add_attribute(AttributeLoc::Return, alignment);
        let pointer = call
            .try_as_basic_value()
            .basic()
            .ok_or_else(|| internal_error("aplrt_alloc returned no value".to_string()))?;
        self.set_block(block, pointer, bytes)
    }

    /// Makes `block` the memory at `pointer` of `bytes` bytes (from `aplrt_alloc` or a run-time function that
    /// allocates), so that its loads, stores and `free` find it.
    fn set_block(
        &self,
        block: Block,
        pointer: BasicValueEnum<'ctx>,
        bytes: IntValue<'ctx>,
    ) -> Result<(), CodegenError> {
        let slots = self.block_slots(block)?;
        self.emitter.builder.build_store(slots.pointer, pointer)?;
        self.emitter.builder.build_store(slots.byte_count, bytes)?;
        Ok(())
    }

    fn translate_free(&self, block: Block) -> Result<(), CodegenError> {
        self.forget_device_copy(block)?;
        let pointer = self.block_pointer(block)?;
        let bytes = self.block_byte_count(block)?;
        self.emitter.emit_free(pointer, bytes)
    }

    fn translate_swap(&self, first: Block, second: Block) -> Result<(), CodegenError> {
        let first_slots = self.block_slots(first)?;
        let second_slots = self.block_slots(second)?;
        let (first_pointer, first_bytes) = (self.block_pointer(first)?, self.block_byte_count(first)?);
        let (second_pointer, second_bytes) = (self.block_pointer(second)?, self.block_byte_count(second)?);
        let builder = &self.emitter.builder;
        builder.build_store(first_slots.pointer, second_pointer)?;
        builder.build_store(first_slots.byte_count, second_bytes)?;
        builder.build_store(second_slots.pointer, first_pointer)?;
        builder.build_store(second_slots.byte_count, first_bytes)?;
        Ok(())
    }

    fn translate_store(&self, block: Block, index: &Expr, value: &Expr) -> Result<(), CodegenError> {
        let position = self.translate_int(index)?;
        self.contract_next_sum.set(is_accumulating_sum(block, index, value));
        let value = self.translate_expression(value);
        self.contract_next_sum.set(false);
        let value = value?;
        let memory_value = self.to_memory_representation(block.element, block.storage, value)?;
        let pointer = self.element_pointer(block, position)?;
        self.emitter.builder.build_store(pointer, memory_value)?;
        Ok(())
    }

    pub(super) fn translate_load(&self, block: Block, index: &Expr) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        let position = self.translate_int(index)?;
        let pointer = self.element_pointer(block, position)?;
        let loaded = self
            .emitter
            .builder
            .build_load(self.memory_element_type(block), pointer, "value")?;
        self.to_register_representation(block.element, block.storage, loaded)
    }

    /// The type of one element of a block in memory: the run-time library's layout of its element type, or the
    /// narrow int of a narrow block.
    fn memory_element_type(&self, block: Block) -> BasicTypeEnum<'ctx> {
        match block.storage {
            Storage::Natural => self.emitter.element_type(element_kind_of(block.element)),
            _ => self.storage_int_type(block.storage).into(),
        }
    }

    /// The int type of an int storage: i64, or the narrow int.
    fn storage_int_type(&self, storage: Storage) -> IntType<'ctx> {
        let context = self.emitter.context;
        match storage {
            Storage::Natural => context.i64_type(),
            Storage::Int8 => context.i8_type(),
            Storage::Int16 => context.i16_type(),
            Storage::Int32 => context.i32_type(),
        }
    }

    /// The bytes of `count` elements of a block.
    fn block_byte_count_of(&self, block: Block, count: IntValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        match block.storage.narrow_bits() {
            None => self.emitter.emit_byte_count(element_kind_of(block.element), count),
            Some(bits) => {
                let element_size = self.emitter.int_constant(i64::from(bits / 8));
                Ok(self.emitter.builder.build_int_mul(count, element_size, "byte_count")?)
            }
        }
    }

    /// The address of element `position` of a block.
    fn element_pointer(&self, block: Block, position: IntValue<'ctx>) -> Result<PointerValue<'ctx>, CodegenError> {
        let base = self.block_pointer(block)?;
        // SAFETY (for LLVM): the memory IR only indexes inside its blocks, which is what `inbounds` promises.
        let pointer = unsafe {
            self.emitter
                .builder
                .build_in_bounds_gep(self.memory_element_type(block), base, &[position], "element")
        }?;
        Ok(pointer)
    }

    /// Booleans are bytes in memory; a narrow block's ints are truncated to its width (the narrowing pass proved that
    /// every value stored fits, so nothing is lost).
    fn to_memory_representation(
        &self,
        element: ScalarType,
        storage: Storage,
        value: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        Ok(match (element, storage) {
            (ScalarType::Bool, _) => builder
                .build_int_z_extend(value.into_int_value(), self.emitter.context.i8_type(), "byte")?
                .into(),
            (ScalarType::Int, Storage::Int8 | Storage::Int16 | Storage::Int32) => builder
                .build_int_truncate(value.into_int_value(), self.storage_int_type(storage), "narrow")?
                .into(),
            _ => value,
        })
    }

    /// Any non-zero byte reads as true, as the run-time library's ABI says; a narrow int is sign-extended.
    fn to_register_representation(
        &self,
        element: ScalarType,
        storage: Storage,
        value: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        Ok(match (element, storage) {
            (ScalarType::Bool, _) => {
                let byte = value.into_int_value();
                let zero = self.emitter.context.i8_type().const_zero();
                builder
                    .build_int_compare(inkwell::IntPredicate::NE, byte, zero, "bit")?
                    .into()
            }
            (ScalarType::Int, Storage::Int8 | Storage::Int16 | Storage::Int32) => builder
                .build_int_s_extend(value.into_int_value(), self.emitter.context.i64_type(), "widened")?
                .into(),
            _ => value,
        })
    }

    // ---- Printing ----

    fn translate_print_array(&self, array: &ArrayRef, precision: &Expr) -> Result<(), CodegenError> {
        let shape = array
            .shape
            .iter()
            .map(|extent| self.translate_int(extent))
            .collect::<Result<Vec<_>, _>>()?;
        let data = self.block_pointer(array.block)?;
        let precision = self.translate_print_precision(precision)?;
        self.emit_print_call(element_kind_of(array.block.element), &shape, data, precision)
    }

    fn translate_print_scalar(&self, value: &Expr, precision: &Expr) -> Result<(), CodegenError> {
        let element = value.ty();
        let value = self.translate_expression(value)?;
        let memory_value = self.to_memory_representation(element, Storage::Natural, value)?;
        let kind = element_kind_of(element);
        let slot = self
            .emitter
            .emit_entry_block_slot(self.emitter.element_type(kind), "printed_scalar")?;
        self.emitter.builder.build_store(slot, memory_value)?;
        let precision = self.translate_print_precision(precision)?;
        self.emit_print_call(kind, &[], slot, precision)
    }

    fn translate_print_precision(&self, precision: &Expr) -> Result<IntValue<'ctx>, CodegenError> {
        let precision = self.translate_int(precision)?;
        let i32_type = self.emitter.context.i32_type();
        Ok(self
            .emitter
            .builder
            .build_int_truncate(precision, i32_type, "print_precision")?)
    }

    /// `aplrt_print_array(kind, rank, shape, data, precision)` with the shape in a stack array.
    fn emit_print_call(
        &self,
        kind: ElementKind,
        shape: &[IntValue<'ctx>],
        data: PointerValue<'ctx>,
        precision: IntValue<'ctx>,
    ) -> Result<(), CodegenError> {
        let shape_pointer = self.emit_shape_array(shape)?;
        let print_function = declare_runtime_function(self.emitter.module, RuntimeFunctionId::PrintArray);
        let arguments = [
            self.emitter.i32_constant(kind.code()).into(),
            self.emitter.int_constant(shape.len() as i64).into(),
            shape_pointer.into(),
            data.into(),
            precision.into(),
        ];
        self.emitter.builder.build_call(print_function, &arguments, "")?;
        Ok(())
    }

    // ---- Clock ----

    /// `clock v`: `v = aplrt_now_millis()`.
    fn translate_read_clock(&self, var: &Var) -> Result<(), CodegenError> {
        let now_function = declare_runtime_function(self.emitter.module, RuntimeFunctionId::NowMillis);
        let call = self.emitter.builder.build_call(now_function, &[], &var.name())?;
        let now = call
            .try_as_basic_value()
            .basic()
            .ok_or_else(|| internal_error("aplrt_now_millis returns no value".to_string()))?;
        self.bind_variable(var, VariableStorage::Value(now));
        Ok(())
    }

    /// `read_file path -> block : t[n]`: `block = aplrt_read_array_file(kind, path, path_length, &n)`.
    fn translate_read_file(&self, path: &ArrayRef, result: Block, length: &Var) -> Result<(), CodegenError> {
        let [path_length] = path.shape.as_slice() else {
            return Err(internal_error(
                "read_file of a file name that is not a vector".to_string(),
            ));
        };
        let path_length = self.translate_int(path_length)?;
        let path_data = self.block_pointer(path.block)?;
        let kind = element_kind_of(result.element);
        let i64_type = self.emitter.context.i64_type();
        let length_slot = self.emitter.emit_entry_block_slot(i64_type, "file_length")?;
        let read_function = declare_runtime_function(self.emitter.module, RuntimeFunctionId::ReadArrayFile);
        let arguments = [
            self.emitter.i32_constant(kind.code()).into(),
            path_data.into(),
            path_length.into(),
            length_slot.into(),
        ];
        let call = self
            .emitter
            .builder
            .build_call(read_function, &arguments, &result.name())?;
        let pointer = call
            .try_as_basic_value()
            .basic()
            .ok_or_else(|| internal_error("aplrt_read_array_file returned no value".to_string()))?;
        let count = self
            .emitter
            .builder
            .build_load(i64_type, length_slot, &length.name())?
            .into_int_value();
        let bytes = self.emitter.emit_byte_count(kind, count)?;
        self.set_block(result, pointer, bytes)?;
        self.bind_variable(length, VariableStorage::Value(count.into()));
        Ok(())
    }

    /// `report_bench(n, start)`: `aplrt_report_bench(n, start)`.
    fn translate_report_bench(&self, iterations: &Expr, start: &Expr) -> Result<(), CodegenError> {
        let report_function = declare_runtime_function(self.emitter.module, RuntimeFunctionId::ReportBench);
        let arguments = [
            self.translate_int(iterations)?.into(),
            self.translate_int(start)?.into(),
        ];
        self.emitter.builder.build_call(report_function, &arguments, "")?;
        Ok(())
    }

    /// The extents in a stack array for a run-time call (a null pointer for a scalar).
    fn emit_shape_array(&self, shape: &[IntValue<'ctx>]) -> Result<PointerValue<'ctx>, CodegenError> {
        let context = self.emitter.context;
        if shape.is_empty() {
            return Ok(context.ptr_type(AddressSpace::default()).const_null());
        }
        let shape_type = context.i64_type().array_type(shape.len() as u32);
        let shape_slot = self.emitter.emit_entry_block_slot(shape_type, "shape")?;
        for (axis, &extent) in shape.iter().enumerate() {
            let axis_index = self.emitter.int_constant(axis as i64);
            self.emitter
                .emit_store_element(ElementKind::Int, shape_slot, axis_index, extent.into())?;
        }
        Ok(shape_slot)
    }

    // ---- Format ----

    /// `⍕` through `aplrt_format`, which allocates the text: its pointer and byte count go to the result block's
    /// slots (so that `free` works as for any block), and its extents define the shape variables.
    fn translate_format(
        &self,
        source: &ArrayRef,
        precision: &Expr,
        matrix: bool,
        result: Block,
        shape: &[Var],
    ) -> Result<(), CodegenError> {
        let source_shape = source
            .shape
            .iter()
            .map(|extent| self.translate_int(extent))
            .collect::<Result<Vec<_>, _>>()?;
        let source_shape_pointer = self.emit_shape_array(&source_shape)?;
        let data = self.block_pointer(source.block)?;
        let precision = self.translate_print_precision(precision)?;
        let context = self.emitter.context;
        let extents_slot = self
            .emitter
            .emit_entry_block_slot(context.i64_type().array_type(shape.len() as u32), "format_extents")?;
        let format_function = declare_runtime_function(self.emitter.module, RuntimeFunctionId::Format);
        let arguments = [
            self.emitter
                .i32_constant(element_kind_of(source.block.element).code())
                .into(),
            self.emitter.int_constant(source_shape.len() as i64).into(),
            source_shape_pointer.into(),
            data.into(),
            precision.into(),
            self.emitter.i32_constant(i32::from(matrix)).into(),
            extents_slot.into(),
        ];
        let call = self
            .emitter
            .builder
            .build_call(format_function, &arguments, &result.name())?;
        let text = call
            .try_as_basic_value()
            .basic()
            .ok_or_else(|| internal_error("aplrt_format returned no value".to_string()))?;
        let mut character_count = self.emitter.int_constant(1);
        for (axis, var) in shape.iter().enumerate() {
            let axis_index = self.emitter.int_constant(axis as i64);
            let extent = self
                .emitter
                .emit_load_element(ElementKind::Int, extents_slot, axis_index)?
                .into_int_value();
            extent.set_name(&var.name());
            self.bind_variable(var, VariableStorage::Value(extent.into()));
            character_count = self
                .emitter
                .builder
                .build_int_mul(character_count, extent, "format_length")?;
        }
        let bytes = self.emitter.emit_byte_count(ElementKind::Char, character_count)?;
        self.set_block(result, text, bytes)
    }

    // ---- Domain checks ----

    /// A check whose failure stops the program with a DOMAIN ERROR: deferred inside a loop nest without effects (and
    /// then counted only when a speculated `select` arm is the chosen one), immediate elsewhere.
    pub(super) fn check_deferrable_domain(&self, failed: IntValue<'ctx>, message: String) -> Result<(), CodegenError> {
        if self.deferred_checks.borrow().is_none() {
            return self.check_immediately(failed, AplErrorKind::Domain, &message);
        }
        let guarded = match *self.speculation_guard.borrow() {
            Some(guard) => self.emitter.builder.build_and(failed, guard, "chosen_and_failed")?,
            None => failed,
        };
        let flag = self.deferred_flag_for(&message, self.current_site.get())?;
        let bool_type = self.emitter.context.bool_type();
        let builder = &self.emitter.builder;
        let pending = builder
            .build_load(bool_type, flag, "domain_error_pending")?
            .into_int_value();
        let updated = builder.build_or(pending, guarded, "domain_error_pending")?;
        builder.build_store(flag, updated)?;
        Ok(())
    }

    fn deferred_flag_for(&self, message: &str, site: Option<Span>) -> Result<PointerValue<'ctx>, CodegenError> {
        let existing = self.deferred_checks.borrow().as_ref().and_then(|checks| {
            checks
                .flags
                .iter()
                .find(|(flag_message, flag_site, _)| flag_message == message && *flag_site == site)
                .map(|(_, _, flag)| *flag)
        });
        if let Some(flag) = existing {
            return Ok(flag);
        }
        // The flag starts false in the entry block, which runs once; a loop nest entered again (inside a loop with
        // effects) finds it false, because it was found false when the nest last ended.
        let bool_type = self.emitter.context.bool_type();
        let flag = self.emitter.emit_entry_block_slot(bool_type, "domain_error_pending")?;
        let entry_block = self.emitter.function.get_first_basic_block();
        let init_builder = self.emitter.context.create_builder();
        if let Some(entry_block) = entry_block {
            match flag
                .as_instruction_value()
                .and_then(|alloca| alloca.get_next_instruction())
            {
                Some(next) => init_builder.position_before(&next),
                None => init_builder.position_at_end(entry_block),
            }
            init_builder.build_store(flag, bool_type.const_zero())?;
        }
        if let Some(checks) = self.deferred_checks.borrow_mut().as_mut() {
            checks.flags.push((message.to_string(), site, flag));
        }
        Ok(flag)
    }

    /// After the loop nest: stops with the first (in program order) deferred error whose flag is set.
    fn test_deferred_checks(&self) -> Result<(), CodegenError> {
        let Some(checks) = self.deferred_checks.borrow_mut().take() else {
            return Ok(());
        };
        let bool_type = self.emitter.context.bool_type();
        for (message, site, flag) in checks.flags {
            let failed = self
                .emitter
                .builder
                .build_load(bool_type, flag, "domain_error_pending")?
                .into_int_value();
            self.check_immediately_at(failed, AplErrorKind::Domain, &message, site)?;
        }
        Ok(())
    }

    /// `if failed { aplrt_error(kind, message) }`, continuing after it.
    pub(super) fn check_immediately(
        &self,
        failed: IntValue<'ctx>,
        kind: AplErrorKind,
        message: &str,
    ) -> Result<(), CodegenError> {
        self.check_immediately_at(failed, kind, message, self.current_site.get())
    }

    /// `if failed { error kind message }` with the error reported at `site`, continuing after it.
    fn check_immediately_at(
        &self,
        failed: IntValue<'ctx>,
        kind: AplErrorKind,
        message: &str,
        site: Option<Span>,
    ) -> Result<(), CodegenError> {
        if failed.get_zero_extended_constant() == Some(0) {
            return Ok(());
        }
        let context = self.emitter.context;
        let function = self.emitter.function;
        let error_block = context.append_basic_block(function, "domain_check_failed");
        let continue_block = context.append_basic_block(function, "domain_check_passed");
        self.emitter
            .builder
            .build_conditional_branch(failed, error_block, continue_block)?;
        self.emitter.builder.position_at_end(error_block);
        self.emit_checked_error(kind, message, site)?;
        // `emit_apl_error` continues in a block nothing reaches; it needs a terminator.
        self.emitter.builder.build_unreachable()?;
        self.emitter.builder.position_at_end(continue_block);
        Ok(())
    }

    /// The not-a-real-number check of a reduction's final value. Where a loop has many reductions (a register tile),
    /// each is checked at once, with a branch, not or-ed into a deferred flag: the `or` of many flags is a horizontal
    /// reduction that LLVM's SLP vectoriser would vectorise by making all the accumulators one vector, and with them
    /// the whole loop, loads of single elements included (as gathers); the branches cost one compare each per loop.
    fn check_reduction_result(&self, accumulator: &Var, op: Op, immediately: bool) -> Result<(), CodegenError> {
        if !matches!(op, Op::AddD | Op::MulD) || !self.float_mode.checks_finite_results() {
            // max and min never make NaN or ∞ from finite numbers.
            return Ok(());
        }
        let value = self.read_variable(accumulator)?.into_float_value();
        let not_finite = self.is_not_finite(value)?;
        if immediately {
            return self.check_immediately(not_finite, AplErrorKind::Domain, &not_a_finite_real_number(op));
        }
        self.check_deferrable_domain(not_finite, not_a_finite_real_number(op))
    }

    /// Whether a double is NaN or infinite: `|x| = ∞` or unordered (`fcmp ueq`).
    pub(super) fn is_not_finite(&self, value: FloatValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        self.compare_magnitude_with_infinity(inkwell::FloatPredicate::UEQ, value, "is_not_finite")
    }

    /// Whether a double is a finite number: `|x| ≠ ∞` and ordered (`fcmp one`).
    pub(super) fn is_finite(&self, value: FloatValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        self.compare_magnitude_with_infinity(inkwell::FloatPredicate::ONE, value, "is_finite")
    }

    fn compare_magnitude_with_infinity(
        &self,
        predicate: inkwell::FloatPredicate,
        value: FloatValue<'ctx>,
        name: &str,
    ) -> Result<IntValue<'ctx>, CodegenError> {
        // A constant is decided now, so that a check of a constant that passes leaves no code (as a folded `fcmp`).
        if let Some((constant, _)) = value.get_constant() {
            let finite = constant.is_finite();
            let holds = if predicate == inkwell::FloatPredicate::ONE {
                finite
            } else {
                !finite
            };
            return Ok(self.emitter.context.bool_type().const_int(u64::from(holds), false));
        }
        let magnitude = self.emitter.emit_double_intrinsic("llvm.fabs", &[value], "magnitude")?;
        let infinity = self.emitter.context.f64_type().const_float(f64::INFINITY);
        Ok(self
            .emitter
            .builder
            .build_float_compare(predicate, magnitude, infinity, name)?)
    }

    // ---- Types ----

    pub(super) fn register_type(&self, scalar_type: ScalarType) -> BasicTypeEnum<'ctx> {
        let context = self.emitter.context;
        match scalar_type {
            ScalarType::Int => context.i64_type().into(),
            ScalarType::Double => context.f64_type().into(),
            ScalarType::Bool => context.bool_type().into(),
            ScalarType::Char => context.i32_type().into(),
            ScalarType::Complex => self.emitter.element_type(ElementKind::Complex),
        }
    }
}

/// The message of the DOMAIN ERROR of a double result that is NaN or infinite, as the interpreter words it.
pub(super) fn not_a_finite_real_number(op: Op) -> String {
    format!("{}: {}", op.name(), crate::tail::scalar_ops::NOT_A_FINITE_REAL_NUMBER)
}

/// The shortest run of constant stores that is copied from a constant array rather than stored one by one.
const MIN_CONSTANT_STORE_RUN: usize = 16;

/// The longest prefix of `statements` that stores literals of the block's element type to consecutive literal
/// positions of one block (`store b[k] = c; store b[k+1] = d; ...`), as the fill of a literal vector is lowered.
fn constant_store_run(statements: &[Stmt]) -> &[Stmt] {
    let store = |statement: &Stmt| match statement {
        Stmt::Store {
            block,
            index: Expr::Int(position),
            value,
        } => {
            let literal = matches!(
                (block.element, value),
                (ScalarType::Int, Expr::Int(_))
                    | (ScalarType::Double, Expr::Double(_))
                    | (ScalarType::Bool, Expr::Bool(_))
                    | (ScalarType::Char, Expr::Char(_))
            );
            literal.then_some((*block, *position))
        }
        _ => None,
    };
    let Some((block, first)) = statements.first().and_then(store) else {
        return &statements[..0];
    };
    let length = statements
        .iter()
        .enumerate()
        .take_while(|(offset, statement)| store(statement) == Some((block, first + *offset as i64)))
        .count();
    &statements[..length]
}

/// The run-time library's element kind of a block's elements.
pub fn element_kind_of(element: ScalarType) -> ElementKind {
    match element {
        ScalarType::Int => ElementKind::Int,
        ScalarType::Double => ElementKind::Double,
        ScalarType::Bool => ElementKind::Bool,
        ScalarType::Char => ElementKind::Char,
        ScalarType::Complex => ElementKind::Complex,
    }
}

pub(super) fn internal_error(message: String) -> CodegenError {
    CodegenError::Builder { message }
}

/// Whether a loop body can run with deferred domain checks: nothing in it prints, stops with an explicit error, or
/// loops an unknown number of times.
fn body_has_no_observable_effect(statements: &[Stmt]) -> bool {
    statements.iter().all(|statement| match statement {
        Stmt::Let { .. }
        | Stmt::Mutable { .. }
        | Stmt::Assign { .. }
        | Stmt::Store { .. }
        | Stmt::Alloc { .. }
        | Stmt::Free { .. }
        | Stmt::Swap { .. }
        | Stmt::View { .. } => true,
        Stmt::For { body, .. } | Stmt::ParallelFor { body, .. } | Stmt::ParallelReduce { body, .. } => {
            body_has_no_observable_effect(body)
        }
        Stmt::If { then, otherwise, .. } => {
            body_has_no_observable_effect(then) && body_has_no_observable_effect(otherwise)
        }
        Stmt::While { .. }
        | Stmt::ReadFile { .. }
        | Stmt::ReadClock { .. }
        | Stmt::ReportBench { .. }
        | Stmt::PrintArray { .. }
        | Stmt::PrintScalar { .. }
        | Stmt::Error { .. }
        | Stmt::Call { .. }
        | Stmt::Format { .. } => false,
    })
}

/// The most reductions one loop may have for their steps to get `reassoc`. Reassociation is there for the loop
/// vectoriser, which folds each reduction into vector lanes along the loop; a loop with many accumulators (a register
/// tile of a matrix product: 128 of them, `passes/register_tiles.rs`) is vectorised across them instead by the SLP
/// vectoriser, and with `reassoc` the loop vectoriser would also fold every one along the loop, one vector each and
/// with gathers: slower, and no longer the fold in order. Their not-a-real-number checks still move after the loop.
const MOST_REASSOCIATED_REDUCTIONS: usize = 4;

/// The reductions of a loop body: top-level assignments `acc := f(x, acc)` (or `f(acc, x)`) with `f` an associative
/// double operation, where `acc` is declared outside the body and appears nowhere else in it; with the step's site.
fn reduction_steps_of_loop(body: &[Stmt]) -> Vec<(Var, Op, Option<Span>)> {
    body.iter()
        .filter_map(|statement| match statement {
            Stmt::Assign { var, value } => Some((var, value, site_of(value))),
            _ => None,
        })
        .filter_map(|(var, value, site)| match value.without_site() {
            Expr::Prim(op, arguments)
                if matches!(op, Op::AddD | Op::MulD | Op::MaxD | Op::MinD) && arguments.len() == 2 =>
            {
                let mentions = |expression: &Expr| expression_mentions_variable(expression, var);
                let is_accumulator = |expression: &Expr| matches!(expression, Expr::Var(other) if other == var);
                let shape_matches = (is_accumulator(&arguments[0]) && !mentions(&arguments[1]))
                    || (is_accumulator(&arguments[1]) && !mentions(&arguments[0]));
                (shape_matches && count_variable_mentions(body, var) == 2).then(|| (var.clone(), *op, site))
            }
            _ => None,
        })
        .collect()
}

/// Whether `store block[index] = value` is one step of a sum kept in memory: `value` adds something to the element
/// it replaces (`addd(x, block[index])` or `addd(block[index], x)`), as the rows of a matrix product that no register
/// tile covers do. Such a step may fuse with a product, as the steps of reductions may.
fn is_accumulating_sum(block: Block, index: &Expr, value: &Expr) -> bool {
    let Expr::Prim(Op::AddD, arguments) = value.without_site() else {
        return false;
    };
    let is_the_element = |argument: &Expr| matches!(argument, Expr::Load { block: loaded, index: at } if *loaded == block && **at == *index);
    arguments.iter().any(is_the_element)
}

/// The site of an operation (`Expr::At`), if it has one.
fn site_of(expr: &Expr) -> Option<Span> {
    match expr {
        Expr::At(site, _) => Some(*site),
        _ => None,
    }
}

/// How often a variable is read or assigned in the statements (an assignment counts once, each read once).
fn count_variable_mentions(statements: &[Stmt], var: &Var) -> usize {
    let mut count = 0;
    crate::loops::ir::for_each_statement(statements, &mut |statement| {
        count += crate::loops::ir::statement_expressions(statement)
            .into_iter()
            .map(|expression| count_in_expression(expression, var))
            .sum::<usize>();
        match statement {
            Stmt::Assign { var: assigned, .. } | Stmt::Mutable { var: assigned, .. } if assigned == var => count += 1,
            _ => {}
        }
    });
    count
}

fn count_in_expression(expression: &Expr, var: &Var) -> usize {
    match expression {
        Expr::Var(other) => usize::from(other == var),
        Expr::Prim(_, arguments) => arguments
            .iter()
            .map(|argument| count_in_expression(argument, var))
            .sum(),
        Expr::Load { index, .. } => count_in_expression(index, var),
        Expr::Select(condition, then, otherwise) => {
            count_in_expression(condition, var) + count_in_expression(then, var) + count_in_expression(otherwise, var)
        }
        Expr::At(_, inner) | Expr::Threshold { value: inner, .. } => count_in_expression(inner, var),
        Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) => 0,
    }
}

fn expression_mentions_variable(expression: &Expr, var: &Var) -> bool {
    count_in_expression(expression, var) > 0
}
