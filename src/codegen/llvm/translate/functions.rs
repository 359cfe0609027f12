//! The functions of a loop program (recursive APL dfns, `crate::loops::ir::Function`) as LLVM functions, and their
//! calls. An array parameter is the block's address and one `i64` per extent; an array result comes back through a
//! last parameter, a pointer to words the caller allocated: the block's address, its byte count and its extents
//! (the caller owns the block from then on).
//!
//! `fun f(x : int, ...) -> t` becomes the internal function `t aplc_fn_f(i64 depth, i64 floor, x, ...)`. `depth` is
//! the number of calls active once this one runs, and `floor` the lowest stack address the nested calls may reach:
//! both are passed along rather than kept in globals, so that calls on several threads never share them. A call
//! checks, before it jumps, that the callee's depth is at most `aplc_runtime::abi::MAX_CALL_DEPTH` (the limit every
//! backend has) and that the caller's frame is above `floor`; either failure is WS FULL at the call's site, so that
//! recursion never overflows the native stack. The outermost call asks the run-time library for the floor
//! (`aplrt_stack_floor`: the running thread's stack bound plus a margin, `aplc_runtime::stack`).

use std::collections::HashMap;
use std::rc::Rc;

use inkwell::module::Linkage;
use inkwell::types::{BasicMetadataTypeEnum, BasicType};
use inkwell::values::{BasicMetadataValueEnum, FunctionValue, IntValue, PointerValue};
use inkwell::{AddressSpace, IntPredicate};

use super::{internal_error, ProgramTranslator, VariableStorage};
use crate::codegen::llvm::emit::FunctionEmitter;
use crate::codegen::llvm::error::CodegenError;
use crate::codegen::llvm::runtime_table::{declare_runtime_function, RuntimeFunctionId};
use crate::loops::ir::{Argument, Function, ResultValue, Slot};
use crate::runtime::error::AplErrorKind;
use crate::source::Span;

/// The LLVM functions of a program's functions, by name.
pub(super) type FunctionTable<'ctx> = Rc<HashMap<String, FunctionValue<'ctx>>>;

/// The depth and stack floor of the calls a function makes (see the module documentation).
#[derive(Clone, Copy)]
pub(super) struct CallContext<'ctx> {
    depth: IntValue<'ctx>,
    floor: IntValue<'ctx>,
}

impl<'module, 'ctx> ProgramTranslator<'module, 'ctx> {
    /// Declares every function of the program, then translates each body; returns the translator, which calls them.
    pub(super) fn with_functions(mut self, functions: &[Function]) -> Result<Self, CodegenError> {
        if functions.is_empty() {
            return Ok(self);
        }
        let module = self.emitter.module;
        let context = self.emitter.context;
        let i64_type = context.i64_type();
        let pointer_type = context.ptr_type(AddressSpace::default());
        let mut table = HashMap::new();
        for function in functions {
            let mut parameter_types: Vec<BasicMetadataTypeEnum<'ctx>> = vec![i64_type.into(), i64_type.into()];
            for slot in &function.parameters {
                match slot {
                    Slot::Scalar(var) => parameter_types.push(self.register_type(var.ty).into()),
                    Slot::Array { shape, .. } => {
                        parameter_types.push(pointer_type.into());
                        parameter_types.extend(shape.iter().map(|_| BasicMetadataTypeEnum::from(i64_type)));
                    }
                }
            }
            let function_type = match &function.result {
                ResultValue::Scalar(value) => self.register_type(value.ty()).fn_type(&parameter_types, false),
                // The array comes back through a pointer to words: the block's address, its byte count, its extents.
                _ => {
                    parameter_types.push(pointer_type.into());
                    context.void_type().fn_type(&parameter_types, false)
                }
            };
            let value = module.add_function(
                &format!("aplc_fn_{}", function.name),
                function_type,
                Some(Linkage::Internal),
            );
            table.insert(function.name.clone(), value);
        }
        self.functions = Rc::new(table);
        for function in functions {
            self.translate_function(function)?;
        }
        Ok(self)
    }

    fn translate_function(&self, function: &Function) -> Result<(), CodegenError> {
        let value = *self
            .functions
            .get(&function.name)
            .ok_or_else(|| internal_error(format!("the function {} was not declared", function.name)))?;
        let parameter = |position: usize| {
            value
                .get_nth_param(position as u32)
                .ok_or_else(|| internal_error(format!("the function {} has no parameter {position}", function.name)))
        };
        let translator = ProgramTranslator {
            source: self.source.clone(),
            error_format: self.error_format,
            sites_after_messages: self.sites_after_messages,
            functions: self.functions.clone(),
            call_context: Some(CallContext {
                depth: parameter(0)?.into_int_value(),
                floor: parameter(1)?.into_int_value(),
            }),
            ..ProgramTranslator::new(
                FunctionEmitter::for_function(self.emitter.module, value),
                self.next_synthetic_id.get(),
                self.float_mode,
            )
        };
        let mut position = 2;
        for slot in &function.parameters {
            match slot {
                Slot::Scalar(var) => {
                    translator.bind_variable(var, VariableStorage::Value(parameter(position)?));
                    position += 1;
                }
                Slot::Array { block, shape } => {
                    // The caller's block: its byte count is never needed (the callee does not free it).
                    translator.set_block(*block, parameter(position)?, self.emitter.int_constant(0))?;
                    position += 1;
                    for var in shape {
                        translator.bind_variable(var, VariableStorage::Value(parameter(position)?));
                        position += 1;
                    }
                }
            }
        }
        translator.translate_statements(&function.body)?;
        match &function.result {
            ResultValue::Scalar(result) => {
                let result = translator.translate_expression(result)?;
                translator.emitter.builder.build_return(Some(&result))?;
            }
            ResultValue::Array(array) => {
                let out = parameter(position)?.into_pointer_value();
                let pointer = translator.block_pointer(array.block)?;
                let address =
                    translator
                        .emitter
                        .builder
                        .build_ptr_to_int(pointer, self.emitter.context.i64_type(), "address")?;
                let mut words = vec![address, translator.block_byte_count(array.block)?];
                for extent in &array.shape {
                    words.push(translator.translate_int(extent)?);
                }
                for (index, word) in words.into_iter().enumerate() {
                    let slot = translator.word_slot(out, index)?;
                    translator.emitter.builder.build_store(slot, word)?;
                }
                translator.emitter.builder.build_return(None)?;
            }
            ResultValue::Tuple(_) => {
                return Err(internal_error(format!(
                    "the function {} returns a tuple",
                    function.name
                )))
            }
        }
        self.next_synthetic_id.set(translator.next_synthetic_id.get());
        Ok(())
    }

    /// The `index`th 64-bit word from `words`.
    fn word_slot(&self, words: PointerValue<'ctx>, index: usize) -> Result<PointerValue<'ctx>, CodegenError> {
        let i64_type = self.emitter.context.i64_type();
        // SAFETY (for LLVM): the caller allocated as many words as the function writes.
        Ok(unsafe {
            self.emitter.builder.build_in_bounds_gep(
                i64_type,
                words,
                &[self.emitter.int_constant(index as i64)],
                "word",
            )?
        })
    }

    /// `call result = f(args) at site`: the depth and stack checks, then the call.
    pub(super) fn translate_call(
        &self,
        result: &Slot,
        function: &str,
        args: &[Argument],
        site: Option<Span>,
    ) -> Result<(), CodegenError> {
        let callee = *self
            .functions
            .get(function)
            .ok_or_else(|| internal_error(format!("a call of the undeclared function {function}")))?;
        let mut arguments: Vec<BasicMetadataValueEnum<'ctx>> = Vec::with_capacity(args.len() + 3);
        let mut values: Vec<BasicMetadataValueEnum<'ctx>> = Vec::with_capacity(args.len());
        for arg in args {
            match arg {
                Argument::Scalar(expr) => values.push(self.translate_expression(expr)?.into()),
                Argument::Array(array) => {
                    values.push(self.block_pointer(array.block)?.into());
                    for extent in &array.shape {
                        values.push(self.translate_int(extent)?.into());
                    }
                }
            }
        }
        let builder = &self.emitter.builder;
        let context = self.emitter.context;
        let i64_type = context.i64_type();
        // An address in this frame: where the stack is at the call.
        let marker = self.emitter.emit_entry_block_slot(context.i8_type(), "frame")?;
        let stack = builder.build_ptr_to_int(marker, i64_type, "stack")?;
        let (depth, floor) = match self.call_context {
            Some(CallContext { depth, floor }) => (depth, floor),
            None => {
                let stack_floor = declare_runtime_function(self.emitter.module, RuntimeFunctionId::StackFloor);
                let floor = builder
                    .build_call(stack_floor, &[], "floor")?
                    .try_as_basic_value()
                    .basic()
                    .ok_or_else(|| internal_error("aplrt_stack_floor returns no value".to_string()))?;
                (self.emitter.int_constant(0), floor.into_int_value())
            }
        };
        let callee_depth = builder.build_int_add(depth, self.emitter.int_constant(1), "depth")?;
        let too_deep = builder.build_int_compare(
            IntPredicate::SGT,
            callee_depth,
            self.emitter.int_constant(aplc_runtime::abi::MAX_CALL_DEPTH),
            "too_deep",
        )?;
        self.check_immediately_at(
            too_deep,
            AplErrorKind::WorkspaceFull,
            &crate::tail::interp::call_depth_message(),
            site,
        )?;
        let out_of_stack = builder.build_int_compare(IntPredicate::ULT, stack, floor, "out_of_stack")?;
        self.check_immediately_at(
            out_of_stack,
            AplErrorKind::WorkspaceFull,
            &crate::tail::interp::stack_exhausted_message(),
            site,
        )?;
        arguments.push(callee_depth.into());
        arguments.push(floor.into());
        arguments.extend(values);
        match result {
            Slot::Scalar(var) => {
                let value = self
                    .emitter
                    .builder
                    .build_call(callee, &arguments, &var.name())?
                    .try_as_basic_value()
                    .basic()
                    .ok_or_else(|| internal_error(format!("the function {function} returns no value")))?;
                self.bind_variable(var, VariableStorage::Value(value));
            }
            Slot::Array { block, shape } => {
                let words = self
                    .emitter
                    .emit_entry_block_slot(i64_type.array_type(2 + shape.len() as u32), "returned")?;
                arguments.push(words.into());
                self.emitter.builder.build_call(callee, &arguments, "")?;
                let word = |index: usize| -> Result<IntValue<'ctx>, CodegenError> {
                    let slot = self.word_slot(words, index)?;
                    Ok(self
                        .emitter
                        .builder
                        .build_load(i64_type, slot, "word")?
                        .into_int_value())
                };
                let pointer = self.emitter.builder.build_int_to_ptr(
                    word(0)?,
                    context.ptr_type(AddressSpace::default()),
                    &block.name(),
                )?;
                self.set_block(*block, pointer.into(), word(1)?)?;
                for (index, var) in shape.iter().enumerate() {
                    self.bind_variable(var, VariableStorage::Value(word(2 + index)?.into()));
                }
            }
        }
        Ok(())
    }
}
