//! The host side of the OpenCL backend (`--backend opencl`, `aplc build --gpu`): the program stays native code, and
//! each outermost parallel construct that a kernel can express (`crate::codegen::opencl::kernel`) becomes a launch
//! of that kernel through the run-time library (`aplrt_cl_launch`).
//!
//! Data stays on the device between kernels. The run-time library keeps, per block, whether the host copy, the
//! device copy or both are current; the host code tells it where it reads and writes blocks:
//! - a statement that runs on the host and reads blocks that kernels use calls `aplrt_cl_to_host` for each first
//!   (a copy only when a kernel wrote the block since the host last saw it); one that stores into such blocks calls
//!   `aplrt_cl_host_wrote` after it (the next kernel that reads the block uploads it again);
//! - `alloc` tells the library the block is fresh (no upload before a kernel writes it), `free` that it is gone;
//! - a loop or branch whose body launches kernels is not one host statement: its own count or condition is synced,
//!   and its body statement by statement, so a ⍣ whose steps are kernels keeps its arrays on the device and only the
//!   values the host needs (a guard's scalar, what is printed) come back.
//!
//! Only blocks that some kernel uses (and the blocks they are swapped with) get these calls; a kernel's APL errors
//! come back as the error word's code, which the host turns into the same error (message and site) as on the CPU.
//!
//! Which constructs launch, and how:
//! - a construct whose work is a compile-time constant below `--opencl-min-work` stays on the host; one whose work
//!   is known only at run time is launched when it reaches its offload threshold (the program parameter
//!   `offload_<index>`, default `--opencl-min-work`) or, outside host loops, when a block it uses is newer on the
//!   device (the host would copy it back first), and otherwise runs on the host, with the same calls around it as
//!   any host statement;
//! - a `parfor` whose body is a perfect nest (`lets; for j < m { .. }` with independent inner iterations) is one
//!   work-item per element, the inner index varying fastest (coalesced accesses); any other `parfor` is one
//!   work-item per iteration;
//! - a reduction stores one partial result per chunk of `REDUCTION_CHUNK` elements, which the host folds in chunk
//!   order as the CPU backend does (`parallel.rs`); a work-group folds each chunk, in lanes combined as a tree
//!   ([`write_reduction_kernel`]).
//!
//! The program it translates is the memory IR for devices (`crate::loops::optimise_memory_for_devices`: no
//! index-space splitting, whose pieces would each be a launch).

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};

use inkwell::module::Linkage;
use inkwell::values::{BasicValueEnum, GlobalValue, IntValue};
use inkwell::{AddressSpace, IntPredicate};

use super::parallel::{captures_of, ChunkFolding, FoldingKind, LoopParts};
use super::{element_kind_of, internal_error, ProgramTranslator};
use crate::codegen::llvm::error::CodegenError;
use crate::codegen::llvm::runtime_table::{declare_runtime_function, RuntimeFunctionId};
use crate::codegen::opencl::kernel::{
    check_kernel_body, write_kernel, write_reduction_kernel, ChunkFold, Kernel, KernelBody, ReductionBody, Unsupported,
};
use crate::codegen::opencl::narrow::NARROW_UNIT;
use crate::codegen::opencl::{program_source, OpenClOptions};
use crate::loops::ir::{self, Block, Expr, Reduction, ScalarType, Stmt, Var};
use crate::loops::parameters::{parallel_for_work, reduce_work};
use crate::loops::printer::print_expr as print_expression;

/// The OpenCL side of a translated program: its kernels, and what `aplc dump --stage opencl` shows.
#[derive(Clone, Debug, Default)]
pub struct DeviceProgram {
    pub kernels: Vec<Kernel>,
    /// The host's schedule: each launch and each copy of a kernel's block back to the host, in program order,
    /// indented by the host loops around them.
    pub schedule: Vec<String>,
    /// The parallel constructs that stay on the host, each with why.
    pub left_on_host: Vec<String>,
    /// Places in the host code where an array a kernel wrote may come back to the host (a copy happens there when
    /// the device's copy is newer): in all, and inside host loops that launch kernels (a ⍣ whose arrays should
    /// stay on the device has none). The partial results of reductions are not counted.
    pub copies_to_host: usize,
    pub copies_to_host_in_loops: usize,
}

impl DeviceProgram {
    /// The whole OpenCL C program.
    pub fn source(&self) -> String {
        program_source(&self.kernels)
    }

    /// What `aplc dump --stage opencl` prints.
    pub fn describe(&self) -> String {
        let mut text = format!(
            "// opencl: kernels {}, copies-to-host {}, copies-to-host-in-loops {}\n",
            self.kernels.len(),
            self.copies_to_host,
            self.copies_to_host_in_loops
        );
        text.push_str(&self.source());
        text.push_str("\n// host schedule\n");
        for line in &self.schedule {
            text.push_str(&format!("//   {line}\n"));
        }
        if !self.left_on_host.is_empty() {
            text.push_str("// left on the host\n");
            for line in &self.left_on_host {
                text.push_str(&format!("//   {line}\n"));
            }
        }
        text
    }
}

/// The translation state of the OpenCL backend (the main program's translator only: functions and the bodies the
/// CPU runs in parallel have none).
pub(super) struct DeviceCode<'ctx> {
    options: OpenClOptions,
    program: RefCell<DeviceProgram>,
    /// The blocks kernels use, and those swapped with them: the only ones whose host accesses need the library's
    /// calls.
    device_blocks: RefCell<HashSet<u32>>,
    /// The blocks some kernel stores into (for the schedule's copies back).
    written_by_kernels: RefCell<HashSet<u32>>,
    /// What [`DeviceCode::decide_on_kernel`] said of each construct, by the id of its index variable.
    reasons_to_stay_on_host: RefCell<HashMap<u32, Option<String>>>,
    /// While a statement that launches nothing is translated: its nested statements need no calls of their own.
    in_host_statement: Cell<bool>,
    /// How many host loops and branches around the statement being translated launch kernels (the schedule's
    /// indentation), and how many of them are loops.
    schedule_depth: Cell<usize>,
    loop_depth: Cell<usize>,
    /// `ptr @aplc_opencl_source` and `i64 @aplc_opencl_source_length`, given their values when every kernel is known.
    source_globals: Cell<Option<(GlobalValue<'ctx>, GlobalValue<'ctx>)>>,
}

impl<'ctx> DeviceCode<'ctx> {
    pub(super) fn new(options: OpenClOptions) -> Self {
        DeviceCode {
            options,
            program: RefCell::new(DeviceProgram::default()),
            device_blocks: RefCell::new(HashSet::new()),
            written_by_kernels: RefCell::new(HashSet::new()),
            reasons_to_stay_on_host: RefCell::new(HashMap::new()),
            in_host_statement: Cell::new(false),
            schedule_depth: Cell::new(0),
            loop_depth: Cell::new(0),
            source_globals: Cell::new(None),
        }
    }

    /// Why a parallel construct (of the main program, outside other constructs) cannot be a kernel: work known to be
    /// too small, or a body a kernel cannot express. `None`: it becomes one.
    fn decide_on_kernel(&self, statement: &Stmt) -> Option<String> {
        let (work, checked) = match statement {
            Stmt::ParallelFor { index, count, body } => {
                (parallel_for_work(index, count, body), check_kernel_body(body, None))
            }
            Stmt::ParallelReduce {
                index,
                count,
                body,
                element,
                ..
            } => (reduce_work(index, count, body), check_kernel_body(body, Some(element))),
            _ => return Some("not a parallel construct".to_string()),
        };
        if let Some(work) = work.as_int().filter(|work| *work < self.options.min_work) {
            return Some(format!("its work ({work}) is below --opencl-min-work"));
        }
        checked.err().map(|Unsupported(reason)| reason)
    }

    fn record(&self, line: String) {
        let indent = "  ".repeat(self.schedule_depth.get());
        self.program.borrow_mut().schedule.push(format!("{indent}{line}"));
    }
}

/// `(lets, j, m, inner)` when a parallel map's body is `lets; for j < m { inner }` with `m` the same for every
/// iteration (it reads nothing the lets define) and the inner loop's iterations independent as well
/// (`parallelise`'s proof from the stores' LMADs): the nest can run as one map over `(i, j)`. The lets only define
/// (no mutable variable), so each work-item may compute them for itself.
fn collapsible_inner_loop(body: &[Stmt]) -> Option<(&[Stmt], &Var, &Expr, &[Stmt])> {
    let (last, prefix) = body.split_last()?;
    let Stmt::For {
        index,
        count,
        body: inner,
    } = last
    else {
        return None;
    };
    if !prefix.iter().all(|statement| matches!(statement, Stmt::Let { .. })) {
        return None;
    }
    let defined = ir::variables_defined_in(prefix);
    let independent = ir::reads_only_outside(count, &defined)
        && crate::loops::passes::parallelise::stores_are_disjoint_across_iterations(
            index,
            count,
            inner,
            &HashMap::new(),
        );
    independent.then_some((prefix, index, count, inner.as_slice()))
}

/// A reduction's kernel launch: its loop (the count is the element count's variable), the text of its size for the
/// schedule, its operator and how a chunk folds, the number of chunks, and the blocks of the partial results.
struct ReductionLaunch<'a, 'ctx> {
    parts: LoopParts<'a>,
    size_text: String,
    reduction: &'a Reduction,
    folding: &'a ChunkFolding,
    chunk_count: IntValue<'ctx>,
    partials: &'a [Block],
}

/// The work-items of a reduction kernel's group: one per lane of the chunk's fold
/// (`crate::codegen::opencl::kernel::REDUCTION_LANES`).
const REDUCTION_GROUP: i64 = 256;

/// The blocks `statements` read (loads, and the arrays that prints, formats, calls and file reads pass to the
/// run-time library or a function), except those allocated inside them.
fn blocks_read_by(statements: &[Stmt]) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut variables = Vec::new();
    ir::for_each_statement(statements, &mut |statement| {
        for expr in ir::statement_expressions(statement) {
            ir::collect_reads(expr, &mut variables, &mut blocks);
        }
        let arrays: Vec<&ir::ArrayRef> = match statement {
            Stmt::PrintArray { array, .. } => vec![array],
            Stmt::Format { source, .. } => vec![source],
            Stmt::ReadFile { path, .. } => vec![path],
            Stmt::Call { args, .. } => args
                .iter()
                .filter_map(|argument| match argument {
                    ir::Argument::Array(array) => Some(array),
                    ir::Argument::Scalar(_) => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        for array in arrays {
            if !blocks.contains(&array.block) {
                blocks.push(array.block);
            }
        }
    });
    let allocated = ir::blocks_allocated_in(statements);
    blocks.retain(|block| !allocated.contains(&block.id));
    blocks
}

/// The blocks a statement reads or stores into, each once (those it allocates itself excepted).
fn blocks_touched_by(statement: &Stmt) -> Vec<Block> {
    let statement = std::slice::from_ref(statement);
    let mut blocks = blocks_read_by(statement);
    for block in blocks_written_by(statement) {
        if !blocks.contains(&block) {
            blocks.push(block);
        }
    }
    blocks
}

/// The blocks `statements` store into, except those allocated inside them.
fn blocks_written_by(statements: &[Stmt]) -> Vec<Block> {
    let allocated = ir::blocks_allocated_in(statements);
    let mut blocks = ir::blocks_stored_in(statements);
    blocks.retain(|block| !allocated.contains(&block.id));
    blocks
}

/// The blocks read by a statement's own expressions (a loop's count, a condition), not by its body.
fn blocks_read_by_own_expressions(statement: &Stmt) -> Vec<Block> {
    let (mut variables, mut blocks) = (Vec::new(), Vec::new());
    for expr in ir::statement_expressions(statement) {
        ir::collect_reads(expr, &mut variables, &mut blocks);
    }
    blocks
}

impl<'module, 'ctx> ProgramTranslator<'module, 'ctx> {
    /// Why the parallel construct cannot be a kernel (`None`: it becomes one).
    fn reason_to_stay_on_host(&self, statement: &Stmt) -> Option<String> {
        let device = self.device.as_ref()?;
        if self.inside_parallel_body || self.call_context.is_some() {
            return Some("inside another construct or a function".to_string());
        }
        let index = match statement {
            Stmt::ParallelFor { index, .. } | Stmt::ParallelReduce { index, .. } => index,
            _ => return Some("not a parallel construct".to_string()),
        };
        // The walks over the program ask about each construct at every level around it: decided once.
        if let Some(reason) = device.reasons_to_stay_on_host.borrow().get(&index.id) {
            return reason.clone();
        }
        let reason = device.decide_on_kernel(statement);
        device
            .reasons_to_stay_on_host
            .borrow_mut()
            .insert(index.id, reason.clone());
        reason
    }

    /// Whether the statement is a parallel construct that runs as a kernel (when its work is at least its offload
    /// threshold, see [`Self::offload_work`]). Nothing inside a host statement does.
    pub(super) fn runs_on_device(&self, statement: &Stmt) -> bool {
        statement.is_parallel()
            && self
                .device
                .as_ref()
                .is_some_and(|device| !device.in_host_statement.get())
            && self.reason_to_stay_on_host(statement).is_none()
    }

    /// The work of a construct that runs on the device only when its work, known at run time, is at least its
    /// offload threshold (`None`: always on the device). The threshold is the program parameter
    /// `offload_<index>` (`APLC_PARAM_offload_<index>`, or `APLC_PARAM_offload` for all), whose default is
    /// `--opencl-min-work`: below it the host runs the construct (on its cores), since a launch and the copies it may
    /// need cost more than the work. With a default of 0 every construct a kernel can express runs on the device.
    fn offload_work(&self, statement: &Stmt) -> Option<(Expr, String)> {
        let device = self.device.as_ref()?;
        let (work, index) = match statement {
            Stmt::ParallelFor { index, count, body } => (parallel_for_work(index, count, body), index),
            Stmt::ParallelReduce { index, count, body, .. } => (reduce_work(index, count, body), index),
            _ => return None,
        };
        (device.options.min_work > 0 && work.as_int().is_none())
            .then(|| (work, crate::loops::parameters::offload_threshold_name(&index.name())))
    }

    /// A construct that runs on the device when its work is at least its offload threshold or, outside host loops, a
    /// block it uses is newer on the device ([`Self::or_a_block_is_newer_on_device`]), on the host otherwise.
    /// A reduction's result is defined by whichever ran, so both store it into one slot read after the choice.
    fn translate_offload_choice(&self, statement: &Stmt, work: &Expr, parameter: &str) -> Result<(), CodegenError> {
        let Some(device) = &self.device else {
            return self.translate_statement_itself(statement);
        };
        let work = self.translate_int(work)?;
        let worth_a_launch = self.reaches_parameter(work, parameter, device.options.min_work)?;
        // Inside a host loop the choice repeats: copying the blocks back once lets every later iteration run on the
        // host, where launching each time would cost a launch per iteration (a matrix product's row updates: tens of
        // thousands), so there the work alone decides.
        let outside_host_loops = device.loop_depth.get() == 0;
        let on_device = match outside_host_loops {
            true => self.or_a_block_is_newer_on_device(worth_a_launch, statement)?,
            false => worth_a_launch,
        };
        let result = match statement {
            Stmt::ParallelReduce { result, .. } => Some(result),
            _ => None,
        };
        let result_slot = match result {
            Some(var) => Some(
                self.emitter
                    .emit_entry_block_slot(self.register_type(var.ty), &var.name())?,
            ),
            None => None,
        };
        let keep_result = || -> Result<(), CodegenError> {
            if let (Some(var), Some(slot)) = (result, result_slot) {
                let value = self.read_variable(var)?;
                self.emitter.builder.build_store(slot, value)?;
            }
            Ok(())
        };
        device.record(match outside_host_loops {
            true => format!("when the work is at least {parameter}, or a block it uses is newer on the device:"),
            false => format!("when the work is at least {parameter}:"),
        });
        self.emitter.emit_if(
            on_device,
            "offload",
            |_| {
                self.translate_statement_itself(statement)?;
                keep_result()
            },
            |_| {
                self.translate_host_statement(statement)?;
                keep_result()
            },
        )?;
        device.record("else on the host".to_string());
        if let (Some(var), Some(slot)) = (result, result_slot) {
            let value = self
                .emitter
                .builder
                .build_load(self.register_type(var.ty), slot, &var.name())?;
            self.bind_variable(var, super::VariableStorage::Value(value));
        }
        Ok(())
    }

    /// `condition`, or-ed with whether a kernel wrote any block the statement reads or stores into since the host
    /// last saw it (`aplrt_cl_newer_on_device`): on the host the construct would first copy those whole blocks back
    /// (a loop's last few elements after its strips, tens of megabytes for microseconds of work), and the next kernel
    /// copy them up again.
    fn or_a_block_is_newer_on_device(
        &self,
        condition: IntValue<'ctx>,
        statement: &Stmt,
    ) -> Result<IntValue<'ctx>, CodegenError> {
        let blocks = blocks_touched_by(statement);
        let query = declare_runtime_function(self.emitter.module, RuntimeFunctionId::ClNewerOnDevice);
        let mut result = condition;
        for block in blocks {
            let pointer = self.block_pointer(block)?;
            let newer = self
                .emitter
                .builder
                .build_call(query, &[pointer.into()], "newer_on_device")?
                .try_as_basic_value()
                .basic()
                .ok_or_else(|| internal_error("aplrt_cl_newer_on_device returns nothing".to_string()))?
                .into_int_value();
            let newer = self.emitter.builder.build_int_compare(
                inkwell::IntPredicate::NE,
                newer,
                self.emitter.int_constant(0),
                "newer",
            )?;
            result = self.emitter.builder.build_or(result, newer, "on_device")?;
        }
        Ok(result)
    }

    /// Whether the statement launches a kernel (itself, or a statement nested in it).
    fn launches_kernels(&self, statement: &Stmt) -> bool {
        if statement.is_parallel() {
            return self.runs_on_device(statement);
        }
        statement
            .nested_lists()
            .iter()
            .any(|list| list.iter().any(|nested| self.launches_kernels(nested)))
    }

    /// Before translation: the blocks of every kernel of the program, and the blocks swapped with them.
    pub(super) fn find_device_blocks(&self, statements: &[Stmt]) {
        let Some(device) = &self.device else { return };
        let mut swaps = Vec::new();
        let mut stack: Vec<&[Stmt]> = vec![statements];
        while let Some(list) = stack.pop() {
            for statement in list {
                if let Stmt::Swap { first, second } = statement {
                    swaps.push((first.id, second.id));
                }
                if statement.is_parallel() {
                    if self.runs_on_device(statement) {
                        let blocks = blocks_touched_by(statement);
                        device
                            .device_blocks
                            .borrow_mut()
                            .extend(blocks.iter().map(|block| block.id));
                    } else {
                        let reason = self.reason_to_stay_on_host(statement).unwrap_or_default();
                        let index = match statement {
                            Stmt::ParallelFor { index, .. } | Stmt::ParallelReduce { index, .. } => index.name(),
                            _ => String::new(),
                        };
                        device
                            .program
                            .borrow_mut()
                            .left_on_host
                            .push(format!("{index}: {reason}"));
                    }
                    continue;
                }
                stack.extend(statement.nested_lists().into_iter().map(Vec::as_slice));
            }
        }
        // A swap exchanges the buffers behind two blocks: both names then reach device buffers.
        let mut device_blocks = device.device_blocks.borrow_mut();
        loop {
            let before = device_blocks.len();
            for &(first, second) in &swaps {
                if device_blocks.contains(&first) || device_blocks.contains(&second) {
                    device_blocks.insert(first);
                    device_blocks.insert(second);
                }
            }
            if device_blocks.len() == before {
                break;
            }
        }
    }

    /// One statement of a program with kernels: launches, and the calls that keep blocks coherent around what the
    /// host does (module documentation). `None` when the statement is nested in a host statement (no calls needed).
    pub(super) fn translate_statement_with_device(&self, statement: &Stmt) -> Option<Result<(), CodegenError>> {
        let device = self.device.as_ref()?;
        if device.in_host_statement.get() {
            return None;
        }
        Some(if self.runs_on_device(statement) {
            match self.offload_work(statement) {
                Some((work, parameter)) => self.translate_offload_choice(statement, &work, &parameter),
                None => self.translate_statement_itself(statement),
            }
        } else if self.launches_kernels(statement) {
            self.translate_statement_around_kernels(statement)
        } else {
            self.translate_host_statement(statement)
        })
    }

    /// A loop or branch whose body launches kernels: its own expressions read current host copies, then its body is
    /// translated statement by statement.
    fn translate_statement_around_kernels(&self, statement: &Stmt) -> Result<(), CodegenError> {
        let Some(device) = &self.device else {
            return self.translate_statement_itself(statement);
        };
        self.sync_to_host(
            &blocks_read_by_own_expressions(statement),
            "a loop count or condition",
            true,
        )?;
        let is_loop = statement.is_loop();
        let header = match statement {
            Stmt::For { index, count, .. } => format!("for {} < {} {{", index.name(), print_expression(count)),
            Stmt::While { condition, .. } => format!("while {} {{", print_expression(condition)),
            Stmt::If { condition, .. } => format!("if {} {{", print_expression(condition)),
            _ => "{".to_string(),
        };
        device.record(header);
        device.schedule_depth.set(device.schedule_depth.get() + 1);
        device.loop_depth.set(device.loop_depth.get() + usize::from(is_loop));
        let result = self.translate_statement_itself(statement);
        device.loop_depth.set(device.loop_depth.get() - usize::from(is_loop));
        device.schedule_depth.set(device.schedule_depth.get() - 1);
        device.record("}".to_string());
        result
    }

    /// In the schedule, where an `if` whose branches launch kernels turns to its `else` statements (the `if` line
    /// is [`Self::translate_statement_around_kernels`]'s). An `if` inside a host statement records nothing.
    pub(super) fn record_else_branch_in_schedule(&self, otherwise: &[Stmt]) {
        let Some(device) = &self.device else {
            return;
        };
        if device.in_host_statement.get() || otherwise.is_empty() {
            return;
        }
        let depth = device.schedule_depth.get();
        device.schedule_depth.set(depth.saturating_sub(1));
        device.record("} else {".to_string());
        device.schedule_depth.set(depth);
    }

    /// A statement that launches nothing: the blocks it reads come back first, the device copies of those it stores
    /// into are stale after it.
    fn translate_host_statement(&self, statement: &Stmt) -> Result<(), CodegenError> {
        let Some(device) = &self.device else {
            return self.translate_statement_itself(statement);
        };
        let what = match statement {
            Stmt::PrintArray { .. } | Stmt::PrintScalar { .. } => "print",
            Stmt::Format { .. } => "format",
            Stmt::Call { .. } => "a call",
            _ => "host code",
        };
        // A store changes some elements of a block: the others must be current on the host first, since the next
        // kernel that uses the block uploads all of it.
        self.sync_to_host(&blocks_touched_by(statement), what, true)?;
        device.in_host_statement.set(true);
        let result = self.translate_statement_itself(statement);
        device.in_host_statement.set(false);
        result?;
        self.mark_host_writes(std::slice::from_ref(statement))?;
        if let Stmt::Alloc { block, .. } = statement {
            if device.device_blocks.borrow().contains(&block.id) {
                let (pointer, bytes) = (self.block_pointer(*block)?, self.block_byte_count(*block)?);
                let function = declare_runtime_function(self.emitter.module, RuntimeFunctionId::ClFresh);
                self.emitter
                    .builder
                    .build_call(function, &[pointer.into(), bytes.into()], "")?;
            }
        }
        Ok(())
    }

    /// After host statements translated together (a run of constant stores): the device copies of the blocks they
    /// store into are stale.
    pub(super) fn device_copy_is_stale_after(&self, statements: &[Stmt]) -> Result<(), CodegenError> {
        match &self.device {
            Some(device) if !device.in_host_statement.get() => self.mark_host_writes(statements),
            _ => Ok(()),
        }
    }

    /// Before host statements translated together (a run of constant stores): the blocks they store into, current
    /// on the host (they change only some elements).
    pub(super) fn sync_before_host_writes(&self, statements: &[Stmt]) -> Result<(), CodegenError> {
        match &self.device {
            Some(device) if !device.in_host_statement.get() => {
                self.sync_to_host(&blocks_written_by(statements), "host code", true)
            }
            _ => Ok(()),
        }
    }

    /// `aplrt_cl_host_wrote` for each block that kernels use and `statements` store into.
    fn mark_host_writes(&self, statements: &[Stmt]) -> Result<(), CodegenError> {
        let Some(device) = &self.device else { return Ok(()) };
        for block in blocks_written_by(statements) {
            if device.device_blocks.borrow().contains(&block.id) {
                let pointer = self.block_pointer(block)?;
                let function = declare_runtime_function(self.emitter.module, RuntimeFunctionId::ClHostWrote);
                self.emitter.builder.build_call(function, &[pointer.into()], "")?;
            }
        }
        Ok(())
    }

    /// `aplrt_cl_to_host` for each of the blocks that kernels use; `arrays`: the blocks are the program's arrays
    /// (not partial results), counted in [`DeviceProgram::copies_to_host`].
    fn sync_to_host(&self, blocks: &[Block], reader: &str, arrays: bool) -> Result<(), CodegenError> {
        let Some(device) = &self.device else { return Ok(()) };
        for block in blocks {
            if !device.device_blocks.borrow().contains(&block.id) {
                continue;
            }
            if device.written_by_kernels.borrow().contains(&block.id) {
                device.record(format!("to host: {} (read by {reader})", block.name()));
                if arrays {
                    let mut program = device.program.borrow_mut();
                    program.copies_to_host += 1;
                    if device.loop_depth.get() > 0 {
                        program.copies_to_host_in_loops += 1;
                    }
                }
            }
            let (pointer, bytes) = (self.block_pointer(*block)?, self.block_byte_count(*block)?);
            let function = declare_runtime_function(self.emitter.module, RuntimeFunctionId::ClToHost);
            self.emitter
                .builder
                .build_call(function, &[pointer.into(), bytes.into()], "")?;
        }
        Ok(())
    }

    /// Before `free`: the device buffer goes too (the address may come back from the next allocation).
    pub(super) fn forget_device_copy(&self, block: Block) -> Result<(), CodegenError> {
        let Some(device) = &self.device else { return Ok(()) };
        if device.device_blocks.borrow().contains(&block.id) {
            let pointer = self.block_pointer(block)?;
            let function = declare_runtime_function(self.emitter.module, RuntimeFunctionId::ClForget);
            self.emitter.builder.build_call(function, &[pointer.into()], "")?;
        }
        Ok(())
    }

    /// Each iteration of a while loop whose body launches kernels: the condition's blocks, current on the host.
    pub(super) fn sync_while_condition(&self, condition: &Expr, body: &[Stmt]) -> Result<(), CodegenError> {
        let launches = body.iter().any(|statement| self.launches_kernels(statement));
        match &self.device {
            Some(device) if launches && !device.in_host_statement.get() => {
                let (mut variables, mut blocks) = (Vec::new(), Vec::new());
                ir::collect_reads(condition, &mut variables, &mut blocks);
                self.sync_to_host(&blocks, "a loop condition", true)
            }
            _ => Ok(()),
        }
    }

    /// `parfor index < count { body }` as a kernel: one work-item per iteration, or per iteration of the inner loop
    /// too when the body is a perfect nest ([`collapsible_inner_loop`]).
    pub(super) fn launch_parallel_for(&self, index: &Var, count: &Expr, body: &[Stmt]) -> Result<(), CodegenError> {
        if let Some((prefix, inner_index, inner_count, inner_body)) = collapsible_inner_loop(body) {
            return self.launch_collapsed_nest(index, count, prefix, inner_index, inner_count, inner_body);
        }
        let count_var = self.synthetic_var(ScalarType::Int, "n");
        self.translate_let(&count_var, count)?;
        self.launch_map(index, body, &count_var, &print_expression(count))
    }

    /// `parfor i < n { lets; for j < m { inner } }` as one work-item per `(i, j)`, j varying fastest: neighbouring
    /// work-items touch neighbouring elements of a row-major array (coalesced accesses on a GPU), and a grid of
    /// n·m work-items fills a device that n alone (a few thousand rows) would leave mostly idle.
    fn launch_collapsed_nest(
        &self,
        index: &Var,
        count: &Expr,
        prefix: &[Stmt],
        inner_index: &Var,
        inner_count: &Expr,
        inner_body: &[Stmt],
    ) -> Result<(), CodegenError> {
        let rows = self.synthetic_var(ScalarType::Int, "rows");
        let columns = self.synthetic_var(ScalarType::Int, "columns");
        let cells = self.synthetic_var(ScalarType::Int, "cells");
        self.translate_let(&rows, &Expr::max(count.clone(), Expr::Int(0)))?;
        self.translate_let(&columns, &Expr::max(inner_count.clone(), Expr::Int(0)))?;
        self.translate_let(&cells, &Expr::mul_int(Expr::var(&rows), Expr::var(&columns)))?;
        let cell = self.synthetic_var(ScalarType::Int, "cell");
        let mut body = vec![
            Stmt::Let {
                var: index.clone(),
                value: Expr::div_int(Expr::var(&cell), Expr::var(&columns)),
            },
            Stmt::Let {
                var: inner_index.clone(),
                value: Expr::modulo(Expr::var(&cell), Expr::var(&columns)),
            },
        ];
        body.extend(prefix.iter().cloned());
        body.extend(inner_body.iter().cloned());
        let size_text = format!("{} × {}", print_expression(count), print_expression(inner_count));
        self.launch_map(&cell, &body, &cells, &size_text)
    }

    /// A kernel of one work-item per value of `index` below `count_var`, running `body`.
    fn launch_map(&self, index: &Var, body: &[Stmt], count_var: &Var, size_text: &str) -> Result<(), CodegenError> {
        let captures = captures_of(body, &[index]);
        let name = self.kernel_name(index);
        let kernel = write_kernel(
            &KernelBody {
                name: &name,
                index,
                body,
                scalars: &captures.variables,
                blocks: &captures.blocks,
                site: self.current_site.get(),
            },
            self.float_mode,
        )
        .map_err(|Unsupported(reason)| internal_error(format!("kernel {name}: {reason}")))?;
        let global_size = self.read_variable(count_var)?.into_int_value();
        self.emit_launch(kernel, global_size, global_size, size_text)
    }

    /// `reduce result = op(neutral) for index < count { body; yield element }` as a kernel over the chunks, whose
    /// partial results the host folds in chunk order.
    pub(super) fn launch_parallel_reduce(
        &self,
        result: &Var,
        reduction: &Reduction,
        index: &Var,
        count: &Expr,
        body: &[Stmt],
        element: &Expr,
    ) -> Result<(), CodegenError> {
        let (count_var, chunks) = self.count_and_chunks(count)?;
        let folding = ChunkFolding::of(self, reduction);
        let chunk_count = self.read_variable(&chunks)?.into_int_value();
        let partials: Vec<Block> = folding
            .parts
            .iter()
            .map(|(part, _)| self.synthetic_block(part.ty))
            .collect();
        for partial in &partials {
            let bytes = self
                .emitter
                .emit_byte_count(element_kind_of(partial.element), chunk_count)?;
            let pointer = self.emitter.emit_alloc_bytes(bytes, &partial.name())?;
            self.set_block(*partial, pointer.into(), bytes)?;
            // The kernel writes every partial result: nothing to upload first.
            let fresh = declare_runtime_function(self.emitter.module, RuntimeFunctionId::ClFresh);
            self.emitter
                .builder
                .build_call(fresh, &[pointer.into(), bytes.into()], "")?;
            if let Some(device) = &self.device {
                device.device_blocks.borrow_mut().insert(partial.id);
            }
        }
        let launch = ReductionLaunch {
            parts: LoopParts {
                index,
                count: &count_var,
                body,
                element,
            },
            size_text: format!("chunks of {}", print_expression(count)),
            reduction,
            folding: &folding,
            chunk_count,
            partials: &partials,
        };
        self.launch_reduction_kernel(&launch)?;
        self.sync_to_host(&partials, "the fold of the partial results", false)?;
        let position = self.synthetic_var(ScalarType::Int, "c");
        let loads: Vec<Expr> = partials
            .iter()
            .map(|partial| Expr::load(*partial, Expr::var(&position)))
            .collect();
        let device = self.device.as_ref();
        if let Some(device) = device {
            device.in_host_statement.set(true);
        }
        let combined = self.combine_chunks(result, &folding, &position, &chunks, &loads, Vec::new());
        if let Some(device) = device {
            device.in_host_statement.set(false);
        }
        combined?;
        for partial in &partials {
            self.forget_device_copy(*partial)?;
            let (pointer, bytes) = (self.block_pointer(*partial)?, self.block_byte_count(*partial)?);
            self.emitter.emit_free(pointer, bytes)?;
        }
        Ok(())
    }

    /// The reduction's kernel (`write_reduction_kernel`): a work-group of [`REDUCTION_GROUP`] work-items per chunk.
    fn launch_reduction_kernel(&self, launch: &ReductionLaunch<'_, 'ctx>) -> Result<(), CodegenError> {
        let LoopParts {
            index,
            count,
            body,
            element,
        } = launch.parts;
        // The statements of one element and the element itself, for the values and blocks they read.
        let mut element_statements = body.to_vec();
        element_statements.push(Stmt::Let {
            var: self.synthetic_var(element.ty(), "element"),
            value: element.clone(),
        });
        let captures = captures_of(&element_statements, &[index]);
        let name = self.kernel_name(index);
        let fold = match &launch.folding.kind {
            FoldingKind::Operator(op) => ChunkFold::Operator {
                op: *op,
                neutral: &launch.reduction.neutral,
            },
            FoldingKind::ExactIntSum { .. } => ChunkFold::ExactIntSum,
        };
        let kernel = write_reduction_kernel(
            &ReductionBody {
                name: &name,
                index,
                body,
                element,
                fold,
                partials: launch.partials,
                scalars: &captures.variables,
                blocks: &captures.blocks,
                site: self.current_site.get(),
            },
            self.float_mode,
        )
        .map_err(|Unsupported(reason)| internal_error(format!("kernel {name}: {reason}")))?;
        // One work-group per chunk (of REDUCTION_GROUP work-items unless the run-time library chooses another size:
        // the kernel loops over the chunks whatever the number of groups, and over the lanes whatever their size).
        let element_count = self.read_variable(count)?.into_int_value();
        let work_items = self.emitter.builder.build_int_mul(
            launch.chunk_count,
            self.emitter.int_constant(REDUCTION_GROUP),
            "work_items",
        )?;
        self.emit_launch(kernel, work_items, element_count, &launch.size_text)
    }

    fn kernel_name(&self, index: &Var) -> String {
        let number = self
            .device
            .as_ref()
            .map_or(0, |device| device.program.borrow().kernels.len());
        format!("aplc_k{number}_{}", index.name())
    }

    /// `code = aplrt_cl_launch(source, name, global_size, scalars, blocks)`, then the kernel's APL errors by code.
    /// The kernel's first scalar, `aplc_n`, is `count` (its work-items stop there, or a reduction's elements do).
    fn emit_launch(
        &self,
        kernel: Kernel,
        global_size: IntValue<'ctx>,
        count: IntValue<'ctx>,
        size_text: &str,
    ) -> Result<(), CodegenError> {
        let Some(device) = &self.device else {
            return Err(internal_error("a kernel launch without the OpenCL backend".to_string()));
        };
        let context = self.emitter.context;
        let builder = &self.emitter.builder;
        let i64_type = context.i64_type();
        let pointer_type = context.ptr_type(AddressSpace::default());
        // The scalars, each as 8 bytes: the work-item count first, and last whether to run the 32-bit version.
        let scalar_count = kernel.scalars.len() + 1 + usize::from(kernel.narrow_parameters.is_some());
        let scalars = self
            .emitter
            .emit_entry_block_slot(i64_type.array_type(scalar_count as u32), "kernel_scalars")?;
        let store_scalar = |position: usize, value: IntValue<'ctx>| -> Result<(), CodegenError> {
            // SAFETY (of the GEP): position < scalar_count, the array's length.
            let slot = unsafe {
                builder.build_in_bounds_gep(
                    i64_type.array_type(scalar_count as u32),
                    scalars,
                    &[self.emitter.int_constant(0), self.emitter.int_constant(position as i64)],
                    "scalar",
                )?
            };
            builder.build_store(slot, value)?;
            Ok(())
        };
        store_scalar(0, count)?;
        for (position, var) in kernel.scalars.iter().enumerate() {
            let value = self.read_variable(var)?;
            let bits = match (var.ty, value) {
                (ScalarType::Double, BasicValueEnum::FloatValue(value)) => {
                    builder.build_bit_cast(value, i64_type, "double_bits")?.into_int_value()
                }
                (ScalarType::Int, BasicValueEnum::IntValue(value)) => value,
                (ScalarType::Bool | ScalarType::Char, BasicValueEnum::IntValue(value)) => {
                    builder.build_int_z_extend(value, i64_type, "widened")?
                }
                _ => {
                    return Err(internal_error(format!(
                        "kernel scalar {} of an unexpected type",
                        var.name()
                    )))
                }
            };
            store_scalar(position + 1, bits)?;
        }
        if let Some(parameters) = &kernel.narrow_parameters {
            let narrow = self.fits_the_32_bit_version(count, parameters)?;
            store_scalar(
                scalar_count - 1,
                builder.build_int_z_extend(narrow, i64_type, "narrow")?,
            )?;
        }
        // The blocks: pointer, byte count, whether the kernel stores into it.
        let block_type = context.struct_type(&[pointer_type.into(), i64_type.into(), i64_type.into()], false);
        let block_array_type = block_type.array_type(kernel.blocks.len().max(1) as u32);
        let blocks = self.emitter.emit_entry_block_slot(block_array_type, "kernel_blocks")?;
        for (position, (block, writes)) in kernel.blocks.iter().enumerate() {
            let fields = [
                self.block_pointer(*block)?.into(),
                self.block_byte_count(*block)?.into(),
                self.emitter.int_constant(i64::from(*writes)).into(),
            ];
            for (field, value) in fields.into_iter().enumerate() {
                // SAFETY (of the GEP): position < the array's length, field < 3.
                let slot = unsafe {
                    builder.build_in_bounds_gep(
                        block_array_type,
                        blocks,
                        &[
                            self.emitter.int_constant(0),
                            self.emitter.int_constant(position as i64),
                            context.i32_type().const_int(field as u64, false),
                        ],
                        "block_field",
                    )?
                };
                builder.build_store::<BasicValueEnum<'ctx>>(slot, value)?;
            }
            if *writes {
                device.written_by_kernels.borrow_mut().insert(block.id);
            }
            device.device_blocks.borrow_mut().insert(block.id);
        }
        let (source_pointer, source_length) = self.program_source_globals();
        let source = builder
            .build_load(pointer_type, source_pointer.as_pointer_value(), "opencl_source")?
            .into_pointer_value();
        let length = builder
            .build_load(i64_type, source_length.as_pointer_value(), "opencl_source_length")?
            .into_int_value();
        let name = builder.build_global_string_ptr(&kernel.name, "kernel_name")?;
        let launch = declare_runtime_function(self.emitter.module, RuntimeFunctionId::ClLaunch);
        let arguments = [
            source.into(),
            length.into(),
            name.as_pointer_value().into(),
            self.emitter.int_constant(kernel.name.len() as i64).into(),
            global_size.into(),
            scalars.into(),
            self.emitter.int_constant(scalar_count as i64).into(),
            blocks.into(),
            self.emitter.int_constant(kernel.blocks.len() as i64).into(),
        ];
        let code = builder
            .build_call(launch, &arguments, "kernel_error")?
            .try_as_basic_value()
            .basic()
            .ok_or_else(|| internal_error("aplrt_cl_launch returned no value".to_string()))?
            .into_int_value();
        for error in &kernel.errors {
            let failed = self.emitter.builder.build_int_compare(
                inkwell::IntPredicate::EQ,
                code,
                self.emitter.int_constant(i64::from(error.code)),
                "kernel_failed",
            )?;
            self.check_immediately_at(failed, error.kind, &error.message, error.site)?;
        }
        let reads: Vec<String> = kernel
            .blocks
            .iter()
            .map(|(block, writes)| format!("{}{}", block.name(), if *writes { " (written)" } else { "" }))
            .collect();
        device.record(format!(
            "launch {} over {size_text}: blocks [{}]",
            kernel.name,
            reads.join(", ")
        ));
        device.program.borrow_mut().kernels.push(kernel);
        Ok(())
    }

    /// Whether a kernel's 32-bit version may run (`codegen/opencl/narrow.rs`): the item count and each int
    /// parameter that version reads are at most `NARROW_UNIT` in magnitude.
    fn fits_the_32_bit_version(
        &self,
        count: IntValue<'ctx>,
        parameters: &[Var],
    ) -> Result<IntValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let unit = self.emitter.int_constant(NARROW_UNIT);
        let mut fits = builder.build_int_compare(IntPredicate::SLE, count, unit, "count_fits")?;
        for parameter in parameters {
            let value = self.read_variable(parameter)?.into_int_value();
            // |value| <= unit as one unsigned comparison: value + unit in [0, 2·unit].
            let shifted = builder.build_int_add(value, unit, "shifted")?;
            let twice = self.emitter.int_constant(2 * NARROW_UNIT);
            let within = builder.build_int_compare(IntPredicate::ULE, shifted, twice, "parameter_fits")?;
            fits = builder.build_and(fits, within, "fits")?;
        }
        Ok(fits)
    }

    /// The globals that hold the program's OpenCL C source and its length (filled in by
    /// [`Self::finish_device_code`]).
    fn program_source_globals(&self) -> (GlobalValue<'ctx>, GlobalValue<'ctx>) {
        let device = self.device.as_ref().expect("called with the OpenCL backend only");
        if let Some(globals) = device.source_globals.get() {
            return globals;
        }
        let module = self.emitter.module;
        let context = self.emitter.context;
        let pointer = module.add_global(context.ptr_type(AddressSpace::default()), None, "aplc_opencl_source");
        pointer.set_linkage(Linkage::Private);
        pointer.set_initializer(&context.ptr_type(AddressSpace::default()).const_null());
        let length = module.add_global(context.i64_type(), None, "aplc_opencl_source_length");
        length.set_linkage(Linkage::Private);
        length.set_initializer(&context.i64_type().const_zero());
        device.source_globals.set(Some((pointer, length)));
        (pointer, length)
    }

    /// At the end of the program: the source globals get the program's OpenCL C, and `aplrt_cl_finish` ends the
    /// device's work (and prints the statistics when asked). Returns what the dump shows.
    pub(super) fn finish_device_code(&self) -> Result<Option<DeviceProgram>, CodegenError> {
        let Some(device) = &self.device else { return Ok(None) };
        let program = device.program.borrow().clone();
        if let Some((pointer, length)) = device.source_globals.get() {
            let source = program.source();
            let text = self.emitter.context.const_string(source.as_bytes(), false);
            let global = self
                .emitter
                .module
                .add_global(text.get_type(), None, "aplc_opencl_program");
            global.set_linkage(Linkage::Private);
            global.set_constant(true);
            global.set_initializer(&text);
            pointer.set_initializer(&global.as_pointer_value());
            length.set_initializer(&self.emitter.int_constant(source.len() as i64));
            let finish = declare_runtime_function(self.emitter.module, RuntimeFunctionId::ClFinish);
            self.emitter.builder.build_call(finish, &[], "")?;
        }
        Ok(Some(program))
    }
}
