//! The functions of a loop program (recursive APL dfns, `crate::loops::ir::Function`) as LLVM functions, and their
//! calls.
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
use inkwell::values::{BasicMetadataValueEnum, FunctionValue, IntValue};
use inkwell::IntPredicate;

use super::{internal_error, ProgramTranslator, VariableStorage};
use crate::codegen::llvm::emit::FunctionEmitter;
use crate::codegen::llvm::error::CodegenError;
use crate::codegen::llvm::runtime_table::{declare_runtime_function, RuntimeFunctionId};
use crate::loops::ir::{Expr, Function, Var};
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
        let mut table = HashMap::new();
        for function in functions {
            let mut parameter_types: Vec<BasicMetadataTypeEnum<'ctx>> = vec![i64_type.into(), i64_type.into()];
            parameter_types.extend(
                function
                    .parameters
                    .iter()
                    .map(|var| BasicMetadataTypeEnum::from(self.register_type(var.ty))),
            );
            let function_type = self
                .register_type(function.result.ty())
                .fn_type(&parameter_types, false);
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
        for (position, var) in function.parameters.iter().enumerate() {
            translator.bind_variable(var, VariableStorage::Value(parameter(2 + position)?));
        }
        translator.translate_statements(&function.body)?;
        let result = translator.translate_expression(&function.result)?;
        translator.emitter.builder.build_return(Some(&result))?;
        self.next_synthetic_id.set(translator.next_synthetic_id.get());
        Ok(())
    }

    /// `call result = f(args) at site`: the depth and stack checks, then the call.
    pub(super) fn translate_call(
        &self,
        result: &Var,
        function: &str,
        args: &[Expr],
        site: Option<Span>,
    ) -> Result<(), CodegenError> {
        let callee = *self
            .functions
            .get(function)
            .ok_or_else(|| internal_error(format!("a call of the undeclared function {function}")))?;
        let mut arguments: Vec<BasicMetadataValueEnum<'ctx>> = Vec::with_capacity(args.len() + 2);
        let mut values = Vec::with_capacity(args.len());
        for arg in args {
            values.push(self.translate_expression(arg)?);
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
        arguments.extend(values.into_iter().map(BasicMetadataValueEnum::from));
        let value = self
            .emitter
            .builder
            .build_call(callee, &arguments, &result.name())?
            .try_as_basic_value()
            .basic()
            .ok_or_else(|| internal_error(format!("the function {function} returns no value")))?;
        self.bind_variable(result, VariableStorage::Value(value));
        Ok(())
    }
}
