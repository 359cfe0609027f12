//! Parallel constructs on a multicore CPU.
//!
//! An outermost `parfor i < n { body }` becomes a function `void aplc_parallel_i(ptr context, i64 start, i64 end)`
//! that runs iterations `start..end` (a plain counted loop, so its inner loops vectorise as before), and a call
//! `aplrt_parallel_for(function, context, n, work, threshold)`: the run-time library's pool runs pieces of `0..n` on
//! every thread, or the whole range on the calling thread when `work` is below the construct's threshold. The
//! context is a stack struct of the values the body reads from outside: scalars by value, blocks by pointer.
//!
//! An outermost `reduce` does the same over chunks of `REDUCTION_CHUNK` elements: the function folds each of its
//! chunks from the neutral element into a buffer of partial results (one per chunk), and the caller folds the
//! partials in chunk order. Below the threshold the same function runs every chunk on the calling thread, so the
//! result never depends on the thread count or the threshold.
//!
//! Inside a parallel body, constructs run sequentially (a `parfor` as a `for`, a `reduce` as the same chunked fold
//! inline): one level of parallelism is what a CPU of a few cores can use.
//!
//! The work estimate and the constructs too small ever to run in parallel are `crate::loops::parameters`'s.

use std::collections::HashSet;

use inkwell::module::Linkage;
use inkwell::types::{BasicType, BasicTypeEnum};
use inkwell::values::{BasicValueEnum, IntValue};
use inkwell::AddressSpace;

use super::{internal_error, ProgramTranslator, VariableStorage};
use crate::codegen::llvm::emit::FunctionEmitter;
use crate::codegen::llvm::error::CodegenError;
use crate::codegen::llvm::runtime_table::{declare_runtime_function, RuntimeFunctionId};
use crate::loops::ir::{self, Block, Expr, Reduction, ScalarType, Stmt, Var, REDUCTION_CHUNK};
use crate::loops::parameters::{
    is_below_default_threshold, parallel_for_work, reduce_work, threshold_name, DEFAULT_PARALLEL_THRESHOLD,
};
use crate::tail::ast::Op;

/// Marks an integer instruction `nuw` (inkwell builds `nsw` forms but has no `nuw` builder for them).
fn set_no_unsigned_wrap(value: IntValue<'_>) {
    if let Some(instruction) = value.as_instruction() {
        let _ = instruction.set_no_unsigned_wrap_flag(true);
    }
}

/// Partial results of a reduction up to this many chunks live on the stack; more go to the heap.
const PARTIALS_ON_STACK: i64 = 64;

/// What an outlined body reads from outside: the scalar variables and the blocks, in context-field order.
pub(super) struct Captures {
    pub(super) variables: Vec<Var>,
    pub(super) blocks: Vec<Block>,
}

impl<'module, 'ctx> ProgramTranslator<'module, 'ctx> {
    /// `parfor index < count { body }`.
    pub(super) fn translate_parallel_for(&self, index: &Var, count: &Expr, body: &[Stmt]) -> Result<(), CodegenError> {
        if self.inside_parallel_body || is_below_default_threshold(&parallel_for_work(index, count, body)) {
            return self.translate_for_loop(index, count, body);
        }
        let count_var = self.synthetic_var(ScalarType::Int, "n");
        self.translate_let(&count_var, count)?;
        let (start, end) = (
            self.synthetic_var(ScalarType::Int, "start"),
            self.synthetic_var(ScalarType::Int, "end"),
        );
        let offset = self.synthetic_var(ScalarType::Int, "t");
        self.position_lets
            .borrow_mut()
            .insert(index.id, Some(count_var.clone()));
        let mut task_body = vec![Stmt::Let {
            var: index.clone(),
            value: Expr::add_int(Expr::var(&start), Expr::var(&offset)),
        }];
        task_body.extend(body.iter().cloned());
        let tasks = vec![Stmt::For {
            index: offset,
            count: Expr::sub_int(Expr::var(&end), Expr::var(&start)),
            body: task_body,
        }];
        let mut captures = captures_of(&tasks, &[&start, &end]);
        // The count bounds the index (see `translate_position_let`), although no statement of the tasks reads it.
        if !captures.variables.contains(&count_var) {
            captures.variables.push(count_var.clone());
        }
        let function = self.outline(&index.name(), &captures, &start, &end, &tasks)?;
        let work = parallel_for_work(index, &Expr::var(&count_var), body);
        self.call_parallel_for(function, &captures, &Expr::var(&count_var), &work, &index.name())
    }

    /// `reduce result = op(neutral) for index < count { body; yield element }`.
    pub(super) fn translate_parallel_reduce(
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
        let loop_parts = LoopParts {
            index,
            count: &count_var,
            body,
            element,
        };
        if self.inside_parallel_body || is_below_default_threshold(&reduce_work(index, count, body)) {
            return self.translate_sequential_reduce(result, &folding, &loop_parts, &chunks);
        }
        let partials: Vec<Block> = folding
            .parts
            .iter()
            .map(|(part, _)| self.synthetic_block(part.ty))
            .collect();
        let (start, end) = (
            self.synthetic_var(ScalarType::Int, "start"),
            self.synthetic_var(ScalarType::Int, "end"),
        );
        let chunk = self.synthetic_var(ScalarType::Int, "chunk");
        let chunk_tasks = vec![Stmt::For {
            index: chunk.clone(),
            count: Expr::sub_int(Expr::var(&end), Expr::var(&start)),
            body: self.fold_one_chunk(
                &folding,
                &loop_parts,
                &Expr::add_int(Expr::var(&start), Expr::var(&chunk)),
                &partials,
            ),
        }];
        let captures = captures_of(&chunk_tasks, &[&start, &end]);
        let function = self.outline(&index.name(), &captures, &start, &end, &chunk_tasks)?;
        for partial in &partials {
            self.with_runtime_site(self.current_site.get(), || self.bind_partials_buffer(*partial, &chunks))?;
        }
        let work = reduce_work(index, &Expr::var(&count_var), body);
        self.call_parallel_for(function, &captures, &Expr::var(&chunks), &work, &index.name())?;
        // The partials, folded in chunk order into the result.
        let position = self.synthetic_var(ScalarType::Int, "c");
        let loads: Vec<Expr> = partials
            .iter()
            .map(|partial| Expr::load(*partial, Expr::var(&position)))
            .collect();
        self.combine_chunks(result, &folding, &position, &chunks, &loads, Vec::new())?;
        for partial in &partials {
            self.release_partials_buffer(*partial, &chunks)?;
        }
        Ok(())
    }

    /// `let n = count; let chunks = (n + C - 1) / C` before a reduction: its element count and its number of chunks.
    pub(super) fn count_and_chunks(&self, count: &Expr) -> Result<(Var, Var), CodegenError> {
        let count_var = self.synthetic_var(ScalarType::Int, "n");
        self.translate_let(&count_var, count)?;
        let chunks = self.synthetic_var(ScalarType::Int, "chunks");
        self.translate_let(
            &chunks,
            &Expr::div_int(
                Expr::add_int(Expr::var(&count_var), Expr::Int(REDUCTION_CHUNK - 1)),
                Expr::Int(REDUCTION_CHUNK),
            ),
        )?;
        Ok((count_var, chunks))
    }

    /// Inside a parallel body: the chunked fold inline, each chunk's parts combined into the result in chunk order.
    fn translate_sequential_reduce(
        &self,
        result: &Var,
        folding: &ChunkFolding,
        loop_parts: &LoopParts,
        chunks: &Var,
    ) -> Result<(), CodegenError> {
        if let FoldingKind::Operator(op) = folding.kind {
            return self.translate_sequential_fold(result, op, folding, loop_parts, chunks);
        }
        let chunk = self.synthetic_var(ScalarType::Int, "chunk");
        let chunk_loop = self.chunk_loop(folding, loop_parts, &Expr::var(&chunk));
        let parts: Vec<Expr> = folding.parts.iter().map(|(part, _)| Expr::var(part)).collect();
        self.combine_chunks(result, folding, &chunk, chunks, &parts, chunk_loop)
    }

    /// A reduction with an operator inside a parallel body: `var result = neutral`, then for at most one chunk the
    /// fold itself (`for index < n { body; result := op(result, element) }`), else the chunks folded in order. Both
    /// branches give the same bits: one chunk is the fold from the neutral element, and folding its part into the
    /// neutral element leaves the part as it is (the neutral element is exact, `chunked_reduction_start`). The first
    /// spares each short row of a matrix's row sums the loop over its one chunk (1M rows of 16: 24.1 ms with the
    /// chunk loop, where the fold of each row took 21.6 ms before rows became nested reductions).
    fn translate_sequential_fold(
        &self,
        result: &Var,
        op: Op,
        folding: &ChunkFolding,
        loop_parts: &LoopParts,
        chunks: &Var,
    ) -> Result<(), CodegenError> {
        let LoopParts {
            index,
            count,
            body,
            element,
        } = *loop_parts;
        let fold_step = |value: Expr| Stmt::Assign {
            var: result.clone(),
            value: Expr::Prim(op, vec![Expr::var(result), value]),
        };
        let mut whole_fold_body = body.to_vec();
        whole_fold_body.push(fold_step(element.clone()));
        let chunk = self.synthetic_var(ScalarType::Int, "chunk");
        let part = Expr::var(&folding.parts[0].0);
        let mut chunk_body = self.chunk_loop(folding, loop_parts, &Expr::var(&chunk));
        chunk_body.push(fold_step(part));
        self.translate_statements(&[
            Stmt::Mutable {
                var: result.clone(),
                value: folding.parts[0].1.clone(),
            },
            Stmt::If {
                condition: Expr::lt(Expr::var(chunks), Expr::Int(2)),
                then: vec![Stmt::For {
                    index: index.clone(),
                    count: Expr::var(count),
                    body: whole_fold_body,
                }],
                otherwise: vec![Stmt::For {
                    index: chunk,
                    count: Expr::var(chunks),
                    body: chunk_body,
                }],
            },
        ])
    }

    /// Folds each chunk's parts (`parts`, read after the statements `prefix` that compute them, if any) into
    /// `result` in chunk order: with the reduction's operator from its neutral element, or for an exact int sum in
    /// 128 bits.
    pub(super) fn combine_chunks(
        &self,
        result: &Var,
        folding: &ChunkFolding,
        position: &Var,
        chunks: &Var,
        parts: &[Expr],
        prefix: Vec<Stmt>,
    ) -> Result<(), CodegenError> {
        match &folding.kind {
            FoldingKind::Operator(op) => {
                let mut chunk_body = prefix;
                chunk_body.push(Stmt::Assign {
                    var: result.clone(),
                    value: Expr::Prim(*op, vec![Expr::var(result), parts[0].clone()]),
                });
                self.translate_statements(&[
                    Stmt::Mutable {
                        var: result.clone(),
                        value: folding.parts[0].1.clone(),
                    },
                    Stmt::For {
                        index: position.clone(),
                        count: Expr::var(chunks),
                        body: chunk_body,
                    },
                ])
            }
            FoldingKind::ExactIntSum { neutral } => {
                let wide = self.emitter.context.i128_type();
                let start = self.translate_int(neutral)?;
                let start = self.emitter.builder.build_int_s_extend(start, wide, "start")?;
                let total = self
                    .emitter
                    .emit_mutable_variable(wide.into(), "exact_sum", start.into())?;
                let chunk_count = self.read_variable(chunks)?.into_int_value();
                self.emitter.emit_for_loop(chunk_count, &position.name(), |_, chunk| {
                    self.bind_variable(position, VariableStorage::Value(chunk.into()));
                    self.translate_statements(&prefix)?;
                    let high = self.translate_int(&parts[0])?;
                    let low = self.translate_int(&parts[1])?;
                    self.add_split_sums(total, high, low)
                })?;
                let sum = self.narrow_exact_sum(total)?;
                self.bind_variable(result, VariableStorage::Value(sum.into()));
                Ok(())
            }
        }
    }

    /// `total += high × 2^32 + low` in 128 bits, where low (the sum of the elements' low halves, 0 ≤ low < 2^64 for a
    /// chunk) is what the wrapped sum leaves after the highs: `sum - high × 2^32` modulo 2^64.
    fn add_split_sums(
        &self,
        total: inkwell::values::PointerValue<'ctx>,
        high: IntValue<'ctx>,
        wrapped_sum: IntValue<'ctx>,
    ) -> Result<(), CodegenError> {
        let builder = &self.emitter.builder;
        let wide = self.emitter.context.i128_type();
        let highs_shifted = builder.build_left_shift(high, self.emitter.int_constant(32), "highs_shifted")?;
        let low = builder.build_int_sub(wrapped_sum, highs_shifted, "low")?;
        let high = builder.build_int_s_extend(high, wide, "high")?;
        let low = builder.build_int_z_extend(low, wide, "low")?;
        let shifted = builder.build_left_shift(high, wide.const_int(32, false), "high_part")?;
        let chunk_sum = builder.build_int_add(shifted, low, "chunk_sum")?;
        let before = builder.build_load(wide, total, "exact_sum")?.into_int_value();
        let after = builder.build_int_add(before, chunk_sum, "exact_sum")?;
        builder.build_store(total, after)?;
        Ok(())
    }

    /// The 128-bit sum as an int, or APL's DOMAIN ERROR when it does not fit in 64 bits.
    fn narrow_exact_sum(&self, total: inkwell::values::PointerValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let wide = self.emitter.context.i128_type();
        let sum = builder.build_load(wide, total, "exact_sum")?.into_int_value();
        let narrow = builder.build_int_truncate(sum, self.emitter.context.i64_type(), "sum")?;
        let widened = builder.build_int_s_extend(narrow, wide, "widened")?;
        let overflow = builder.build_int_compare(inkwell::IntPredicate::NE, widened, sum, "sum_overflow")?;
        let message = format!("{}: {}", Op::AddI.name(), crate::tail::scalar_ops::INTEGER_OVERFLOW);
        self.check_immediately(overflow, crate::runtime::error::AplErrorKind::Domain, &message)?;
        Ok(narrow)
    }

    /// The statements that fold chunk `chunk` and store its parts into `partials[chunk]` (one block per part).
    fn fold_one_chunk(
        &self,
        folding: &ChunkFolding,
        loop_parts: &LoopParts,
        chunk: &Expr,
        partials: &[Block],
    ) -> Vec<Stmt> {
        let chunk_var = self.synthetic_var(ScalarType::Int, "chunk");
        self.position_lets.borrow_mut().insert(chunk_var.id, None);
        let mut statements = vec![Stmt::Let {
            var: chunk_var.clone(),
            value: chunk.clone(),
        }];
        statements.extend(self.chunk_loop(folding, loop_parts, &Expr::var(&chunk_var)));
        for ((part, _), partial) in folding.parts.iter().zip(partials) {
            statements.push(Stmt::Store {
                block: *partial,
                index: Expr::var(&chunk_var),
                value: Expr::var(part),
            });
        }
        statements
    }

    /// `var part = neutral; for k < min(C, n - c·C) { let index = c·C + k; body; part := op(part, element) }`
    /// (for an exact int sum two parts, see [`ChunkFolding`]).
    fn chunk_loop(&self, folding: &ChunkFolding, loop_parts: &LoopParts, chunk: &Expr) -> Vec<Stmt> {
        let LoopParts {
            index,
            count,
            body,
            element,
        } = *loop_parts;
        let first = self.synthetic_var(ScalarType::Int, "first");
        let offset = self.synthetic_var(ScalarType::Int, "k");
        self.position_lets
            .borrow_mut()
            .extend([(first.id, None), (index.id, Some((*count).clone()))]);
        let mut step = vec![Stmt::Let {
            var: index.clone(),
            value: Expr::add_int(Expr::var(&first), Expr::var(&offset)),
        }];
        step.extend(body.iter().cloned());
        step.extend(self.accumulation_step(folding, element));
        let mut statements = vec![Stmt::Let {
            var: first.clone(),
            value: Expr::mul_int(chunk.clone(), Expr::Int(REDUCTION_CHUNK)),
        }];
        statements.extend(folding.parts.iter().map(|(part, neutral)| Stmt::Mutable {
            var: part.clone(),
            value: neutral.clone(),
        }));
        statements.push(Stmt::For {
            index: offset,
            count: Expr::min(
                Expr::Int(REDUCTION_CHUNK),
                Expr::sub_int(Expr::var(count), Expr::var(&first)),
            ),
            body: step,
        });
        statements
    }

    /// What one element adds to the parts of its chunk.
    fn accumulation_step(&self, folding: &ChunkFolding, element: &Expr) -> Vec<Stmt> {
        match &folding.kind {
            FoldingKind::Operator(op) => {
                let part = &folding.parts[0].0;
                vec![Stmt::Assign {
                    var: part.clone(),
                    value: Expr::Prim(*op, vec![Expr::var(part), element.clone()]),
                }]
            }
            FoldingKind::ExactIntSum { .. } => {
                // The sum of the highs (x ÷ 2^32 rounded down, an arithmetic shift) and the wrapped sum of the
                // elements themselves (see `FoldingKind::ExactIntSum`).
                let x = self.synthetic_var(ScalarType::Int, "x");
                let (high, sum) = (&folding.parts[0].0, &folding.parts[1].0);
                vec![
                    Stmt::Let {
                        var: x.clone(),
                        value: element.clone(),
                    },
                    Stmt::Assign {
                        var: high.clone(),
                        value: Expr::add_int(Expr::var(high), Expr::div_int(Expr::var(&x), Expr::Int(1 << 32))),
                    },
                    Stmt::Assign {
                        var: sum.clone(),
                        value: Expr::add_int(Expr::var(sum), Expr::var(&x)),
                    },
                ]
            }
        }
    }

    /// A position `let` (see `position_lets`): `a + b` or `a × b` of non-negative ints whose result is a position
    /// in an array, so it cannot overflow; translated with `nsw nuw`, which lets LLVM prove the position
    /// non-negative (an `srem`/`sdiv` of it by a constant becomes a cheap unsigned one, and the loop vectorises as it
    /// does with a known trip count).
    pub(super) fn translate_position_let(&self, var: &Var, value: &Expr) -> Result<(), CodegenError> {
        let builder = &self.emitter.builder;
        let name = var.name();
        let position = match value {
            Expr::Prim(Op::AddW, arguments) if arguments.len() == 2 => {
                let (a, b) = (self.translate_int(&arguments[0])?, self.translate_int(&arguments[1])?);
                let sum = builder.build_int_nsw_add(a, b, &name)?;
                set_no_unsigned_wrap(sum);
                sum
            }
            Expr::Prim(Op::MulW, arguments) if arguments.len() == 2 => {
                let (a, b) = (self.translate_int(&arguments[0])?, self.translate_int(&arguments[1])?);
                let product = builder.build_int_nsw_mul(a, b, &name)?;
                set_no_unsigned_wrap(product);
                product
            }
            _ => return Err(internal_error(format!("{name} is not a sum or product of positions"))),
        };
        let bound = self.position_lets.borrow().get(&var.id).cloned().flatten();
        if let Some(count) = bound {
            // `index <u n`: the chunk arithmetic hides that every index is below the construct's count, and without
            // that range LLVM keeps overflow tests of `index + k` (the wrap of a rotation) and cannot simplify them.
            let count = self.translate_int(&Expr::var(&count))?;
            let below = builder.build_int_compare(inkwell::IntPredicate::ULT, position, count, "index_below_count")?;
            self.assume(below)?;
        }
        self.bind_variable(var, VariableStorage::Value(position.into()));
        Ok(())
    }

    /// `llvm.assume(value >= 0)`: the first task of a parallel body (tasks are numbered from 0).
    fn assume_non_negative(&self, value: IntValue<'ctx>) -> Result<(), CodegenError> {
        let builder = &self.emitter.builder;
        let zero = value.get_type().const_zero();
        let non_negative = builder.build_int_compare(inkwell::IntPredicate::SGE, value, zero, "first_task_is_valid")?;
        self.assume(non_negative)
    }

    /// `llvm.assume(condition)`.
    fn assume(&self, condition: IntValue<'ctx>) -> Result<(), CodegenError> {
        let builder = &self.emitter.builder;
        let assume = inkwell::intrinsics::Intrinsic::find("llvm.assume")
            .and_then(|intrinsic| intrinsic.get_declaration(self.emitter.module, &[]))
            .ok_or_else(|| internal_error("llvm.assume is missing".to_string()))?;
        builder.build_call(assume, &[condition.into()], "")?;
        Ok(())
    }

    /// `aplrt_set_default_threads(threads)` at the program's start (`--threads N`).
    pub(super) fn emit_default_thread_count(&self, threads: usize) -> Result<(), CodegenError> {
        let function = declare_runtime_function(self.emitter.module, RuntimeFunctionId::SetDefaultThreads);
        let threads = self.emitter.int_constant(threads as i64);
        self.emitter.builder.build_call(function, &[threads.into()], "")?;
        Ok(())
    }

    // ---- Outlining ----

    /// A variable of the translation only (not of the IR), with an id no IR variable has.
    pub(super) fn synthetic_var(&self, ty: ScalarType, hint: &str) -> Var {
        let id = self.next_synthetic_id.get();
        self.next_synthetic_id.set(id + 1);
        Var {
            id,
            ty,
            hint: hint.into(),
        }
    }

    pub(super) fn synthetic_block(&self, element: ScalarType) -> Block {
        let id = self.next_synthetic_id.get();
        self.next_synthetic_id.set(id + 1);
        Block::new(id, element)
    }

    /// The function `void aplc_parallel_<name>(ptr context, i64 start, i64 end)` running `tasks` (statements that
    /// read `start` and `end`) with the captured values loaded from the context.
    ///
    /// It loads the captured values and calls `aplc_parallel_<name>_body(start, end, blocks…, values…)`, which runs
    /// the tasks and is always inlined: its block parameters are `noalias` (distinct blocks are distinct
    /// allocations), which the inliner turns into alias scopes, so that the loops of the body vectorise without
    /// run-time overlap tests, as they do where the blocks were allocated in the same function.
    fn outline(
        &self,
        name: &str,
        captures: &Captures,
        start: &Var,
        end: &Var,
        tasks: &[Stmt],
    ) -> Result<inkwell::values::FunctionValue<'ctx>, CodegenError> {
        let body = self.outline_body(name, captures, start, end, tasks)?;
        let context = self.emitter.context;
        let i64_type = context.i64_type();
        let pointer_type = context.ptr_type(AddressSpace::default());
        let function_type = context
            .void_type()
            .fn_type(&[pointer_type.into(), i64_type.into(), i64_type.into()], false);
        let module = self.emitter.module;
        let function = module.add_function(&format!("aplc_parallel_{name}"), function_type, Some(Linkage::Internal));
        let entry = FunctionEmitter::for_function(module, function);
        let parameter = |position: u32| {
            function
                .get_nth_param(position)
                .ok_or_else(|| internal_error("the parallel body has three parameters".to_string()))
        };
        let context_pointer = parameter(0)?.into_pointer_value();
        let struct_type = self.context_struct_type(captures);
        let load_field =
            |field: usize, field_type: BasicTypeEnum<'ctx>| -> Result<BasicValueEnum<'ctx>, CodegenError> {
                let pointer = entry
                    .builder
                    .build_struct_gep(struct_type, context_pointer, field as u32, "captured")?;
                Ok(entry.builder.build_load(field_type, pointer, "captured")?)
            };
        let mut arguments: Vec<inkwell::values::BasicMetadataValueEnum<'ctx>> =
            vec![parameter(1)?.into(), parameter(2)?.into()];
        for position in 0..captures.blocks.len() {
            arguments.push(load_field(captures.variables.len() + position, pointer_type.into())?.into());
        }
        for (field, var) in captures.variables.iter().enumerate() {
            if self.constant_value_of(var).is_none() {
                arguments.push(load_field(field, self.register_type(var.ty))?.into());
            }
        }
        entry.builder.build_call(body, &arguments, "")?;
        entry.builder.build_return(None)?;
        Ok(function)
    }

    /// `aplc_parallel_<name>_body(i64 start, i64 end, ptr noalias block…, value…)`: the tasks, with the blocks and the
    /// captured values that are not compile-time constants as parameters (see [`Self::outline`]).
    fn outline_body(
        &self,
        name: &str,
        captures: &Captures,
        start: &Var,
        end: &Var,
        tasks: &[Stmt],
    ) -> Result<inkwell::values::FunctionValue<'ctx>, CodegenError> {
        let context = self.emitter.context;
        let i64_type = context.i64_type();
        let pointer_type = context.ptr_type(AddressSpace::default());
        let variable_parameters: Vec<&Var> = captures
            .variables
            .iter()
            .filter(|var| self.constant_value_of(var).is_none())
            .collect();
        let mut parameter_types: Vec<inkwell::types::BasicMetadataTypeEnum<'ctx>> =
            vec![i64_type.into(), i64_type.into()];
        parameter_types.extend(
            captures
                .blocks
                .iter()
                .map(|_| inkwell::types::BasicMetadataTypeEnum::from(pointer_type)),
        );
        parameter_types.extend(
            variable_parameters
                .iter()
                .map(|var| inkwell::types::BasicMetadataTypeEnum::from(self.register_type(var.ty))),
        );
        let function_type = context.void_type().fn_type(&parameter_types, false);
        let module = self.emitter.module;
        let function = module.add_function(
            &format!("aplc_parallel_{name}_body"),
            function_type,
            Some(Linkage::Internal),
        );
        let attribute = |attribute_name: &str| {
            context.create_enum_attribute(
                inkwell::attributes::Attribute::get_named_enum_kind_id(attribute_name),
                0,
            )
        };
        function.add_attribute(inkwell::attributes::AttributeLoc::Function, attribute("alwaysinline"));
        for position in 0..captures.blocks.len() {
            function.add_attribute(
                inkwell::attributes::AttributeLoc::Param(2 + position as u32),
                attribute("noalias"),
            );
        }
        let translator = ProgramTranslator {
            inside_parallel_body: true,
            source: self.source.clone(),
            error_format: self.error_format,
            // The reduction's site, for the checks of the chunks' partial results (the body's own operations have
            // their sites).
            current_site: std::cell::Cell::new(self.current_site.get()),
            sites_after_messages: self.sites_after_messages,
            ..ProgramTranslator::new(
                FunctionEmitter::for_function(module, function),
                self.next_synthetic_id.get(),
                self.float_mode,
            )
        };
        let parameter = |position: usize| {
            function
                .get_nth_param(position as u32)
                .ok_or_else(|| internal_error(format!("the parallel body has no parameter {position}")))
        };
        translator.assume_non_negative(parameter(0)?.into_int_value())?;
        translator.position_lets.borrow_mut().extend(
            self.position_lets
                .borrow()
                .iter()
                .map(|(id, bound)| (*id, bound.clone())),
        );
        translator.bind_variable(start, VariableStorage::Value(parameter(0)?));
        translator.bind_variable(end, VariableStorage::Value(parameter(1)?));
        for (position, block) in captures.blocks.iter().enumerate() {
            translator.set_block(*block, parameter(2 + position)?, i64_type.const_zero())?;
        }
        let mut next_parameter = 2 + captures.blocks.len();
        for var in &captures.variables {
            // A constant (a count known at compile time) is used as such, so that LLVM sees trip counts and ranges.
            let value = match self.constant_value_of(var) {
                Some(constant) => constant,
                None => {
                    next_parameter += 1;
                    parameter(next_parameter - 1)?
                }
            };
            translator.bind_variable(var, VariableStorage::Value(value));
        }
        translator.translate_statements(tasks)?;
        translator.emitter.builder.build_return(None)?;
        self.next_synthetic_id.set(translator.next_synthetic_id.get());
        Ok(function)
    }

    /// The value of `var` when it is a compile-time constant here.
    fn constant_value_of(&self, var: &Var) -> Option<BasicValueEnum<'ctx>> {
        match self.variable_storage(var).ok()? {
            VariableStorage::Value(BasicValueEnum::IntValue(value)) if value.is_const() => Some(value.into()),
            VariableStorage::Value(BasicValueEnum::FloatValue(value)) if value.is_const() => Some(value.into()),
            _ => None,
        }
    }

    fn context_struct_type(&self, captures: &Captures) -> inkwell::types::StructType<'ctx> {
        let pointer_type = self.emitter.context.ptr_type(AddressSpace::default());
        let fields: Vec<BasicTypeEnum> = captures
            .variables
            .iter()
            .map(|var| self.register_type(var.ty))
            .chain(captures.blocks.iter().map(|_| pointer_type.as_basic_type_enum()))
            .collect();
        self.emitter.context.struct_type(&fields, false)
    }

    /// Fills a context struct with the captured values and calls `aplrt_parallel_for`.
    fn call_parallel_for(
        &self,
        function: inkwell::values::FunctionValue<'ctx>,
        captures: &Captures,
        tasks: &Expr,
        work: &Expr,
        name: &str,
    ) -> Result<(), CodegenError> {
        let struct_type = self.context_struct_type(captures);
        let context_pointer = self.emitter.emit_entry_block_slot(struct_type, "parallel_context")?;
        let builder = &self.emitter.builder;
        for (field, var) in captures.variables.iter().enumerate() {
            let pointer = builder.build_struct_gep(struct_type, context_pointer, field as u32, "capture")?;
            builder.build_store(pointer, self.read_variable(var)?)?;
        }
        for (position, block) in captures.blocks.iter().enumerate() {
            let field = (captures.variables.len() + position) as u32;
            let pointer = builder.build_struct_gep(struct_type, context_pointer, field, "capture")?;
            builder.build_store(pointer, self.block_pointer(*block)?)?;
        }
        let tasks = self.translate_int(tasks)?;
        let work = self.translate_int(work)?;
        let threshold = self.parameter_value(&threshold_name(name), DEFAULT_PARALLEL_THRESHOLD)?;
        self.note_comparison(&threshold_name(name), work)?;
        let parallel_for = declare_runtime_function(self.emitter.module, RuntimeFunctionId::ParallelFor);
        let arguments = [
            function.as_global_value().as_pointer_value().into(),
            context_pointer.into(),
            tasks.into(),
            work.into(),
            threshold.into(),
        ];
        self.emitter.builder.build_call(parallel_for, &arguments, "")?;
        Ok(())
    }

    /// `reached(name, value)`: `value >= name`, the parameter read once per process. The run-time library is told
    /// the value compared (it logs it for `aplc tune` when asked to, and returns at once otherwise). The OpenCL
    /// backend's host code has its own defaults (a device wants far more parallelism than a CPU).
    pub(super) fn translate_threshold(&self, name: &str, value: &Expr) -> Result<IntValue<'ctx>, CodegenError> {
        let value = self.translate_int(value)?;
        let default = crate::loops::parameters::default_value(name, self.device.is_some());
        self.reaches_parameter(value, name, default)
    }

    /// `value >= name` for a threshold parameter with this default, the comparison noted for `aplc tune`: every
    /// run-time choice between versions (`reached`, an offload threshold) is this.
    pub(super) fn reaches_parameter(
        &self,
        value: IntValue<'ctx>,
        name: &str,
        default: i64,
    ) -> Result<IntValue<'ctx>, CodegenError> {
        let threshold = self.parameter_value(name, default)?;
        self.note_comparison(name, value)?;
        Ok(self
            .emitter
            .builder
            .build_int_compare(inkwell::IntPredicate::SGE, value, threshold, "reached")?)
    }

    /// Tells the run-time library that `value` was compared against the parameter `name` (see `aplc tune`).
    fn note_comparison(&self, name: &str, value: IntValue<'ctx>) -> Result<(), CodegenError> {
        let text = self.emitter.builder.build_global_string_ptr(name, "parameter_name")?;
        let function = declare_runtime_function(self.emitter.module, RuntimeFunctionId::NoteComparison);
        let arguments = [
            text.as_pointer_value().into(),
            self.emitter.int_constant(name.len() as i64).into(),
            value.into(),
        ];
        self.emitter.builder.build_call(function, &arguments, "")?;
        Ok(())
    }

    /// The value of a program parameter, read from the run-time library on first use and kept in a global.
    pub(super) fn parameter_value(&self, name: &str, default: i64) -> Result<IntValue<'ctx>, CodegenError> {
        let module = self.emitter.module;
        let i64_type = self.emitter.context.i64_type();
        let unset = i64_type.const_int(i64::MIN as u64, true);
        let global_name = format!("aplc_parameter_{name}");
        let global = module.get_global(&global_name).unwrap_or_else(|| {
            let global = module.add_global(i64_type, None, &global_name);
            global.set_linkage(Linkage::Internal);
            global.set_initializer(&unset);
            global
        });
        let slot = self.emitter.emit_entry_block_slot(i64_type, "parameter")?;
        let builder = &self.emitter.builder;
        let cached = builder
            .build_load(i64_type, global.as_pointer_value(), name)?
            .into_int_value();
        builder.build_store(slot, cached)?;
        let is_unset = builder.build_int_compare(inkwell::IntPredicate::EQ, cached, unset, "parameter_unset")?;
        self.emitter.emit_if(
            is_unset,
            "read_parameter",
            |emitter| {
                let text = emitter.builder.build_global_string_ptr(name, "parameter_name")?;
                let function = declare_runtime_function(emitter.module, RuntimeFunctionId::Parameter);
                let arguments = [
                    text.as_pointer_value().into(),
                    emitter.int_constant(name.len() as i64).into(),
                    emitter.int_constant(default).into(),
                ];
                let value = emitter
                    .builder
                    .build_call(function, &arguments, "parameter")?
                    .try_as_basic_value()
                    .basic()
                    .ok_or_else(|| internal_error("aplrt_parameter returned no value".to_string()))?;
                emitter.builder.build_store(global.as_pointer_value(), value)?;
                emitter.builder.build_store(slot, value)?;
                Ok(())
            },
            |_| Ok(()),
        )?;
        Ok(self.emitter.builder.build_load(i64_type, slot, name)?.into_int_value())
    }

    /// Binds `partials` to a buffer of `chunks` elements: on the stack for a few chunks, from the heap otherwise.
    fn bind_partials_buffer(&self, partials: Block, chunks: &Var) -> Result<(), CodegenError> {
        let element_type = self.emitter.element_type(super::element_kind_of(partials.element));
        let stack = self
            .emitter
            .emit_entry_block_slot(element_type.array_type(PARTIALS_ON_STACK as u32), "partials")?;
        let chunk_count = self.read_variable(chunks)?.into_int_value();
        let bytes = self
            .emitter
            .emit_byte_count(super::element_kind_of(partials.element), chunk_count)?;
        let slots = self.block_slots(partials)?;
        let builder = &self.emitter.builder;
        builder.build_store(slots.pointer, stack)?;
        builder.build_store(slots.byte_count, self.emitter.int_constant(0))?;
        let on_heap = builder.build_int_compare(
            inkwell::IntPredicate::SGT,
            chunk_count,
            self.emitter.int_constant(PARTIALS_ON_STACK),
            "partials_on_heap",
        )?;
        self.emitter.emit_if(
            on_heap,
            "partials",
            |emitter| {
                let heap = emitter.emit_alloc_bytes(bytes, "partials")?;
                emitter.builder.build_store(slots.pointer, heap)?;
                emitter.builder.build_store(slots.byte_count, bytes)?;
                Ok(())
            },
            |_| Ok(()),
        )
    }

    /// Frees the partials buffer when it came from the heap (its byte count is 0 on the stack).
    fn release_partials_buffer(&self, partials: Block, chunks: &Var) -> Result<(), CodegenError> {
        let chunk_count = self.read_variable(chunks)?.into_int_value();
        let on_heap = self.emitter.builder.build_int_compare(
            inkwell::IntPredicate::SGT,
            chunk_count,
            self.emitter.int_constant(PARTIALS_ON_STACK),
            "partials_on_heap",
        )?;
        let pointer = self.block_pointer(partials)?;
        let bytes = self.block_byte_count(partials)?;
        self.emitter.emit_if(
            on_heap,
            "free_partials",
            |emitter| emitter.emit_free(pointer, bytes),
            |_| Ok(()),
        )
    }
}

/// The loop of a reduction: `for index < count { body; yield element }`.
#[derive(Clone, Copy)]
pub(super) struct LoopParts<'a> {
    pub(super) index: &'a Var,
    pub(super) count: &'a Var,
    pub(super) body: &'a [Stmt],
    pub(super) element: &'a Expr,
}

/// How a chunk of a reduction is folded.
pub(super) enum FoldingKind {
    /// `part := op(part, x)` from the neutral element.
    Operator(Op),
    /// APL's `+/` on ints, which is the exact sum (see `Op::AddI`). Each element is `high × 2^32 + low` with
    /// 0 ≤ low < 2^32. A chunk sums the highs (at most 2^43 in magnitude for `REDUCTION_CHUNK` = 4096 elements, so
    /// exact) and the elements themselves, wrapping; the sum of the lows is below 2^44, so it is the wrapped sum minus
    /// the highs' part modulo 2^64, exactly. Both are plain adds (and a shift) that vectorise. The chunks' exact sums
    /// are added in 128 bits, which holds the sum of up to 2^64 elements; the neutral element is added to that sum.
    ExactIntSum { neutral: Expr },
}

/// The parts a chunk folds into, each with its start value, and how.
pub(super) struct ChunkFolding {
    pub(super) kind: FoldingKind,
    pub(super) parts: Vec<(Var, Expr)>,
}

impl ChunkFolding {
    pub(super) fn of(translator: &ProgramTranslator<'_, '_>, reduction: &Reduction) -> ChunkFolding {
        if reduction.op == Op::AddI {
            return ChunkFolding {
                kind: FoldingKind::ExactIntSum {
                    neutral: reduction.neutral.clone(),
                },
                parts: vec![
                    (translator.synthetic_var(ScalarType::Int, "high"), Expr::Int(0)),
                    (translator.synthetic_var(ScalarType::Int, "sum"), Expr::Int(0)),
                ],
            };
        }
        let ty = reduction.neutral.ty();
        ChunkFolding {
            kind: FoldingKind::Operator(reduction.op),
            parts: vec![(translator.synthetic_var(ty, "part"), reduction.neutral.clone())],
        }
    }
}

/// The variables and blocks `statements` read from outside them (`bound` are defined by the caller of the outlined
/// function, not captured).
pub(super) fn captures_of(statements: &[Stmt], bound: &[&Var]) -> Captures {
    let mut defined: HashSet<u32> = bound.iter().map(|var| var.id).collect();
    let mut allocated = HashSet::new();
    let mut used: Vec<Var> = Vec::new();
    let mut blocks: Vec<Block> = Vec::new();
    ir::for_each_statement(statements, &mut |statement| {
        for var in ir::defined_variables_of(statement) {
            defined.insert(var.id);
        }
        match statement {
            Stmt::Alloc { block, .. } => {
                allocated.insert(block.id);
            }
            Stmt::Store { block, .. } if !blocks.contains(block) => blocks.push(*block),
            _ => {}
        }
        for expr in ir::statement_expressions(statement) {
            ir::collect_reads(expr, &mut used, &mut blocks);
        }
    });
    let mut seen = HashSet::new();
    Captures {
        variables: used
            .into_iter()
            .filter(|var| !defined.contains(&var.id) && seen.insert(var.id))
            .collect(),
        blocks: blocks
            .into_iter()
            .filter(|block| !allocated.contains(&block.id))
            .collect(),
    }
}
