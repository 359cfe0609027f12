//! The building blocks the translation of the memory IR into LLVM IR is made of: structured control flow (`for`,
//! `while`, `if`), mutable scalars, memory blocks and their elements, and calls of the run-time library (allocation,
//! printing, errors). Each helper emits one construct at the builder's position and leaves the builder after it, so
//! a translation is a walk over the IR that calls one helper per statement.
//!
//! Conventions the helpers keep, because LLVM's optimiser depends on them:
//! - Mutable scalars live in stack slots allocated in the function's entry block (SROA and mem2reg promote only
//!   those to registers); loops then need no hand-written phi nodes.
//! - Loop counters are `i64`, counted from 0 with a signed `<` test, so that a non-positive count runs nothing and
//!   the loop vectoriser recognises the induction variable.
//! - Element pointers use `inbounds` GEPs (the memory IR never indexes outside a block).
//! - After an APL error (a call that never returns) the builder continues in a fresh block that nothing branches
//!   to, so that the statements after it can still be emitted; LLVM removes that block.

use inkwell::basic_block::BasicBlock;
use inkwell::builder::{Builder, BuilderError};
use inkwell::context::ContextRef;
use inkwell::intrinsics::Intrinsic;
use inkwell::module::Module;
use inkwell::types::{BasicType, BasicTypeEnum};
use inkwell::values::{
    BasicValue, BasicValueEnum, FastMathFlags, FloatValue, FunctionValue, InstructionOpcode, IntValue, PointerValue,
};
use inkwell::{AddressSpace, IntPredicate};

use aplc_runtime::abi::{ElementKind, RuntimeErrorKind};

use super::error::CodegenError;
use super::runtime_table::{declare_runtime_function, RuntimeFunctionId};
use super::PROGRAM_ENTRY_FUNCTION_NAME;

/// The `⎕PP` programs print with unless they set it: Dyalog's default of 10 significant digits.
pub const DEFAULT_PRINT_PRECISION: i32 = 10;

impl From<BuilderError> for CodegenError {
    fn from(error: BuilderError) -> CodegenError {
        CodegenError::Builder {
            message: error.to_string(),
        }
    }
}

/// Emits the body of one function: the module (for run-time declarations and constants), a builder, and the
/// function being built.
pub struct FunctionEmitter<'module, 'ctx> {
    pub module: &'module Module<'ctx>,
    pub context: ContextRef<'ctx>,
    pub builder: Builder<'ctx>,
    pub function: FunctionValue<'ctx>,
}

impl<'module, 'ctx> FunctionEmitter<'module, 'ctx> {
    /// Adds the program entry `i32 aplc_main()` to the module and positions the emitter in its entry block.
    pub fn for_new_program_entry(module: &'module Module<'ctx>) -> FunctionEmitter<'module, 'ctx> {
        let context = module.get_context();
        let entry_type = context.i32_type().fn_type(&[], false);
        let function = module.add_function(PROGRAM_ENTRY_FUNCTION_NAME, entry_type, None);
        FunctionEmitter::for_function(module, function)
    }

    /// Positions a new emitter at the end of the function's entry block, created if the function has no body yet.
    pub fn for_function(
        module: &'module Module<'ctx>,
        function: FunctionValue<'ctx>,
    ) -> FunctionEmitter<'module, 'ctx> {
        let context = module.get_context();
        let builder = context.create_builder();
        let entry_block = function
            .get_first_basic_block()
            .unwrap_or_else(|| context.append_basic_block(function, "entry"));
        builder.position_at_end(entry_block);
        FunctionEmitter {
            module,
            context,
            builder,
            function,
        }
    }

    // ---- Constants and types ----

    pub fn int_constant(&self, value: i64) -> IntValue<'ctx> {
        self.context.i64_type().const_int(value as u64, true)
    }

    pub fn i32_constant(&self, value: i32) -> IntValue<'ctx> {
        self.context.i32_type().const_int(value as u64, true)
    }

    /// The LLVM type of one element of this kind in memory (booleans take a byte, as the run-time ABI says).
    pub fn element_type(&self, kind: ElementKind) -> BasicTypeEnum<'ctx> {
        let f64_type = self.context.f64_type();
        match kind {
            ElementKind::Bool => self.context.i8_type().into(),
            ElementKind::Int => self.context.i64_type().into(),
            ElementKind::Double => f64_type.into(),
            ElementKind::Char => self.context.i32_type().into(),
            ElementKind::Complex => self
                .context
                .struct_type(&[f64_type.into(), f64_type.into()], false)
                .into(),
        }
    }

    // ---- Control flow ----

    /// `for index < count { body }`: the index runs 0, 1, ..., count - 1; nothing runs when count ≤ 0. `body` emits
    /// the loop body at the builder's position, given the index.
    pub fn emit_for_loop(
        &self,
        count: IntValue<'ctx>,
        name: &str,
        body: impl FnOnce(&Self, IntValue<'ctx>) -> Result<(), CodegenError>,
    ) -> Result<(), CodegenError> {
        let i64_type = self.context.i64_type();
        let preheader = self.current_block()?;
        let header = self
            .context
            .append_basic_block(self.function, &format!("{name}_header"));
        let body_block = self.context.append_basic_block(self.function, &format!("{name}_body"));
        let exit = self.context.append_basic_block(self.function, &format!("{name}_exit"));
        self.builder.build_unconditional_branch(header)?;

        self.builder.position_at_end(header);
        let index_phi = self.builder.build_phi(i64_type, name)?;
        let index = index_phi.as_basic_value().into_int_value();
        let in_range = self
            .builder
            .build_int_compare(IntPredicate::SLT, index, count, &format!("{name}_in_range"))?;
        self.builder.build_conditional_branch(in_range, body_block, exit)?;

        self.builder.position_at_end(body_block);
        body(self, index)?;
        let next_index = self
            .builder
            .build_int_add(index, i64_type.const_int(1, false), &format!("{name}_next"))?;
        let latch = self.current_block()?;
        self.builder.build_unconditional_branch(header)?;

        index_phi.add_incoming(&[(&i64_type.const_zero(), preheader), (&next_index, latch)]);
        self.builder.position_at_end(exit);
        Ok(())
    }

    /// `while condition { body }`: `condition` emits the test (an `i1`), which runs before every iteration.
    pub fn emit_while_loop(
        &self,
        name: &str,
        condition: impl FnOnce(&Self) -> Result<IntValue<'ctx>, CodegenError>,
        body: impl FnOnce(&Self) -> Result<(), CodegenError>,
    ) -> Result<(), CodegenError> {
        let header = self
            .context
            .append_basic_block(self.function, &format!("{name}_header"));
        let body_block = self.context.append_basic_block(self.function, &format!("{name}_body"));
        let exit = self.context.append_basic_block(self.function, &format!("{name}_exit"));
        self.builder.build_unconditional_branch(header)?;

        self.builder.position_at_end(header);
        let keep_going = condition(self)?;
        self.builder.build_conditional_branch(keep_going, body_block, exit)?;

        self.builder.position_at_end(body_block);
        body(self)?;
        self.branch_unless_terminated(header)?;
        self.builder.position_at_end(exit);
        Ok(())
    }

    /// `if condition { then } else { otherwise }` on an `i1`. A branch that ends in an error needs no jump to the
    /// join block.
    pub fn emit_if(
        &self,
        condition: IntValue<'ctx>,
        name: &str,
        then: impl FnOnce(&Self) -> Result<(), CodegenError>,
        otherwise: impl FnOnce(&Self) -> Result<(), CodegenError>,
    ) -> Result<(), CodegenError> {
        let then_block = self.context.append_basic_block(self.function, &format!("{name}_then"));
        let otherwise_block = self.context.append_basic_block(self.function, &format!("{name}_else"));
        let join = self.context.append_basic_block(self.function, &format!("{name}_join"));
        self.builder
            .build_conditional_branch(condition, then_block, otherwise_block)?;

        self.builder.position_at_end(then_block);
        then(self)?;
        self.branch_unless_terminated(join)?;

        self.builder.position_at_end(otherwise_block);
        otherwise(self)?;
        self.branch_unless_terminated(join)?;

        self.builder.position_at_end(join);
        Ok(())
    }

    /// Returns the exit status from the function.
    pub fn emit_return_status(&self, status: i32) -> Result<(), CodegenError> {
        self.builder.build_return(Some(&self.i32_constant(status)))?;
        Ok(())
    }

    fn current_block(&self) -> Result<BasicBlock<'ctx>, CodegenError> {
        self.builder.get_insert_block().ok_or(CodegenError::Builder {
            message: BuilderError::UnsetPosition.to_string(),
        })
    }

    fn branch_unless_terminated(&self, target: BasicBlock<'ctx>) -> Result<(), CodegenError> {
        if self.current_block()?.get_terminator().is_none() {
            self.builder.build_unconditional_branch(target)?;
        }
        Ok(())
    }

    // ---- Mutable scalars ----

    /// A stack slot in the entry block (where mem2reg finds it), initialised at the current position.
    pub fn emit_mutable_variable(
        &self,
        value_type: BasicTypeEnum<'ctx>,
        name: &str,
        initial: BasicValueEnum<'ctx>,
    ) -> Result<PointerValue<'ctx>, CodegenError> {
        let slot = self.emit_entry_block_slot(value_type, name)?;
        self.builder.build_store(slot, initial)?;
        Ok(slot)
    }

    /// An uninitialised stack slot of `value_type` in the entry block, before its first instruction.
    pub fn emit_entry_block_slot(
        &self,
        value_type: impl BasicType<'ctx>,
        name: &str,
    ) -> Result<PointerValue<'ctx>, CodegenError> {
        let entry_builder = self.context.create_builder();
        let entry_block = self.function.get_first_basic_block().ok_or(CodegenError::Builder {
            message: "the function has no entry block".to_string(),
        })?;
        match entry_block.get_first_instruction() {
            Some(first_instruction) => entry_builder.position_before(&first_instruction),
            None => entry_builder.position_at_end(entry_block),
        }
        Ok(entry_builder.build_alloca(value_type, name)?)
    }

    // ---- Memory blocks ----

    /// `aplrt_alloc(bytes)`: a 64-byte aligned block.
    pub fn emit_alloc_bytes(&self, bytes: IntValue<'ctx>, name: &str) -> Result<PointerValue<'ctx>, CodegenError> {
        let alloc_function = declare_runtime_function(self.module, RuntimeFunctionId::Alloc);
        let call = self.builder.build_call(alloc_function, &[bytes.into()], name)?;
        call.try_as_basic_value()
            .basic()
            .map(|value| value.into_pointer_value())
            .ok_or(CodegenError::Builder {
                message: "aplrt_alloc returned no value".to_string(),
            })
    }

    /// The number of bytes `count` elements of `kind` take.
    pub fn emit_byte_count(&self, kind: ElementKind, count: IntValue<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        let element_size = self.int_constant(kind.element_size_in_bytes() as i64);
        Ok(self.builder.build_int_mul(count, element_size, "byte_count")?)
    }

    /// A block for `count` elements of `kind`.
    pub fn emit_alloc_elements(
        &self,
        kind: ElementKind,
        count: IntValue<'ctx>,
        name: &str,
    ) -> Result<PointerValue<'ctx>, CodegenError> {
        let bytes = self.emit_byte_count(kind, count)?;
        self.emit_alloc_bytes(bytes, name)
    }

    /// `aplrt_free(block, bytes)`; `bytes` must be the size the block was allocated with.
    pub fn emit_free(&self, block: PointerValue<'ctx>, bytes: IntValue<'ctx>) -> Result<(), CodegenError> {
        let free_function = declare_runtime_function(self.module, RuntimeFunctionId::Free);
        self.builder
            .build_call(free_function, &[block.into(), bytes.into()], "")?;
        Ok(())
    }

    /// The address of element `index` of a block of `kind` elements.
    pub fn emit_element_pointer(
        &self,
        kind: ElementKind,
        block: PointerValue<'ctx>,
        index: IntValue<'ctx>,
    ) -> Result<PointerValue<'ctx>, CodegenError> {
        // SAFETY (for LLVM): the memory IR only indexes inside its blocks, which is what `inbounds` promises.
        let pointer = unsafe {
            self.builder
                .build_in_bounds_gep(self.element_type(kind), block, &[index], "element")
        }?;
        Ok(pointer)
    }

    pub fn emit_load_element(
        &self,
        kind: ElementKind,
        block: PointerValue<'ctx>,
        index: IntValue<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        let pointer = self.emit_element_pointer(kind, block, index)?;
        Ok(self.builder.build_load(self.element_type(kind), pointer, "value")?)
    }

    pub fn emit_store_element(
        &self,
        kind: ElementKind,
        block: PointerValue<'ctx>,
        index: IntValue<'ctx>,
        value: BasicValueEnum<'ctx>,
    ) -> Result<(), CodegenError> {
        let pointer = self.emit_element_pointer(kind, block, index)?;
        self.builder.build_store(pointer, value)?;
        Ok(())
    }

    // ---- Arithmetic that needs flags ----

    /// `left + right` for one step of a sum reduction over doubles; with `reassociate`, with the fast-math flags that
    /// let LLVM reorder the additions (`reassoc`, `nsz`), without which it cannot vectorise the reduction. Only for
    /// associative reductions: the result may differ from the in-order sum in the last bits, as APL allows for `+/`.
    /// A product added by the step may fuse with it ([`allow_contraction`]).
    pub fn emit_reduction_float_add(
        &self,
        left: FloatValue<'ctx>,
        right: FloatValue<'ctx>,
        reassociate: bool,
        name: &str,
    ) -> Result<FloatValue<'ctx>, CodegenError> {
        let sum = self.builder.build_float_add(left, right, name)?;
        if reassociate {
            allow_reassociation(sum)?;
        }
        allow_contraction(sum)?;
        Ok(sum)
    }

    /// `left × right` for one step of a product reduction over doubles; see [`Self::emit_reduction_float_add`].
    pub fn emit_reduction_float_mul(
        &self,
        left: FloatValue<'ctx>,
        right: FloatValue<'ctx>,
        reassociate: bool,
        name: &str,
    ) -> Result<FloatValue<'ctx>, CodegenError> {
        let product = self.builder.build_float_mul(left, right, name)?;
        if reassociate {
            allow_reassociation(product)?;
        }
        Ok(product)
    }

    /// A call of an LLVM floating-point intrinsic on doubles, such as `llvm.exp`, `llvm.log`, `llvm.pow`,
    /// `llvm.sin`, `llvm.floor` or `llvm.fabs` (overloaded on `double`). LLVM folds calls on constants, turns some
    /// into instructions, and lowers the rest to the C maths library (`exp`, `pow`, ...), which AOT executables link
    /// with `-lm` and the JIT finds in the aplc process.
    pub fn emit_double_intrinsic(
        &self,
        intrinsic_name: &str,
        arguments: &[FloatValue<'ctx>],
        name: &str,
    ) -> Result<FloatValue<'ctx>, CodegenError> {
        let unknown_intrinsic = || CodegenError::Builder {
            message: format!("{intrinsic_name} is not an LLVM intrinsic on doubles"),
        };
        let intrinsic = Intrinsic::find(intrinsic_name).ok_or_else(unknown_intrinsic)?;
        let f64_type: BasicTypeEnum<'ctx> = self.context.f64_type().into();
        let declaration = intrinsic
            .get_declaration(self.module, &[f64_type])
            .ok_or_else(unknown_intrinsic)?;
        let arguments: Vec<_> = arguments.iter().map(|&argument| argument.into()).collect();
        let call = self.builder.build_call(declaration, &arguments, name)?;
        call.try_as_basic_value()
            .basic()
            .map(|value| value.into_float_value())
            .ok_or_else(unknown_intrinsic)
    }

    // ---- Run-time library calls ----

    /// Prints an array whose ravel is `data` (elements of `kind`, row-major, offset 0) with the given shape; the
    /// shape is passed through a stack array.
    pub fn emit_print_array(
        &self,
        kind: ElementKind,
        shape: &[IntValue<'ctx>],
        data: PointerValue<'ctx>,
        print_precision: i32,
    ) -> Result<(), CodegenError> {
        let shape_pointer = if shape.is_empty() {
            self.context.ptr_type(AddressSpace::default()).const_null()
        } else {
            let shape_type = self.context.i64_type().array_type(shape.len() as u32);
            let shape_slot = self.emit_entry_block_slot(shape_type, "shape")?;
            for (axis, &length) in shape.iter().enumerate() {
                let axis_pointer =
                    self.emit_element_pointer(ElementKind::Int, shape_slot, self.int_constant(axis as i64))?;
                self.builder.build_store(axis_pointer, length)?;
            }
            shape_slot
        };
        let print_function = declare_runtime_function(self.module, RuntimeFunctionId::PrintArray);
        let arguments = [
            self.i32_constant(kind.code()).into(),
            self.int_constant(shape.len() as i64).into(),
            shape_pointer.into(),
            data.into(),
            self.i32_constant(print_precision).into(),
        ];
        self.builder.build_call(print_function, &arguments, "")?;
        Ok(())
    }

    /// Prints one scalar (kept in a stack slot for the call).
    pub fn emit_print_scalar(
        &self,
        kind: ElementKind,
        value: BasicValueEnum<'ctx>,
        print_precision: i32,
    ) -> Result<(), CodegenError> {
        let slot = self.emit_entry_block_slot(self.element_type(kind), "printed_scalar")?;
        self.builder.build_store(slot, value)?;
        self.emit_print_array(kind, &[], slot, print_precision)
    }

    /// Stops the program with an APL error (`aplrt_error`), and continues emitting in a block nothing reaches.
    pub fn emit_apl_error(&self, kind: RuntimeErrorKind, message: &str) -> Result<(), CodegenError> {
        self.emit_error_call(RuntimeFunctionId::Error, kind, message)
    }

    /// Calls `aplrt_error_report`: stops the program with an APL error reported by `report`, the text the compiler
    /// drew (message and marked source line).
    pub fn emit_apl_error_report(&self, kind: RuntimeErrorKind, report: &str) -> Result<(), CodegenError> {
        self.emit_error_call(RuntimeFunctionId::ErrorReport, kind, report)
    }

    fn emit_error_call(
        &self,
        function: RuntimeFunctionId,
        kind: RuntimeErrorKind,
        message: &str,
    ) -> Result<(), CodegenError> {
        let message_text = self.builder.build_global_string_ptr(message, "error_message")?;
        let error_function = declare_runtime_function(self.module, function);
        let arguments = [
            self.i32_constant(kind.code()).into(),
            message_text.as_pointer_value().into(),
            self.int_constant(message.len() as i64).into(),
        ];
        self.builder.build_call(error_function, &arguments, "")?;
        self.builder.build_unreachable()?;
        let after_error = self.context.append_basic_block(self.function, "after_error");
        self.builder.position_at_end(after_error);
        Ok(())
    }

    /// Flushes the program's output (`aplrt_flush`).
    pub fn emit_flush(&self) -> Result<(), CodegenError> {
        let flush_function = declare_runtime_function(self.module, RuntimeFunctionId::Flush);
        self.builder.build_call(flush_function, &[], "")?;
        Ok(())
    }
}

/// Sets `reassoc` and `nsz` on a floating-point instruction.
fn allow_reassociation(value: FloatValue<'_>) -> Result<(), CodegenError> {
    set_flags(value, FastMathFlags::AllowReassoc | FastMathFlags::NoSignedZeros)
}

/// Lets one step of a sum, `sum = x × y + acc` (an `fadd` of an `fmul`), be computed as one fused multiply-add
/// with a single rounding: sets `contract` on the `fadd` and on each `fmul` among its operands (nothing when no
/// operand is a product). LLVM fuses them on a
/// CPU with FMA instructions when the product has no other use (its own NaN check, when not implied by the sum's,
/// is one; see `translate/nan_checks.rs`). Only for the steps of sums, which APL lets reassociate already: a matrix
/// product's steps run at twice the speed (one instruction instead of two), and each result is at least as close to
/// the exact value (the product is not rounded before it is added). A product that overflows but whose fused sum
/// does not (an exactly representable cancellation) then gives that finite sum rather than a DOMAIN ERROR.
pub fn allow_contraction(sum: FloatValue<'_>) -> Result<(), CodegenError> {
    let Some(instruction) = sum.as_instruction_value() else {
        return Ok(());
    };
    if instruction.get_opcode() != InstructionOpcode::FAdd {
        return Ok(());
    }
    let products: Vec<FloatValue<'_>> = (0..instruction.get_num_operands())
        .filter_map(|position| match instruction.get_operand(position)?.value()? {
            BasicValueEnum::FloatValue(term) => Some(term),
            _ => None,
        })
        .filter(|term| term.as_instruction_value().map(|i| i.get_opcode()) == Some(InstructionOpcode::FMul))
        .collect();
    if products.is_empty() {
        return Ok(());
    }
    add_flags(sum, FastMathFlags::AllowContract)?;
    for product in products {
        add_flags(product, FastMathFlags::AllowContract)?;
    }
    Ok(())
}

/// Sets the fast-math `flags` of a floating-point instruction (nothing when constant folding left a constant).
fn set_flags(value: FloatValue<'_>, flags: FastMathFlags) -> Result<(), CodegenError> {
    let Some(instruction) = value.as_instruction_value() else {
        return Ok(());
    };
    instruction
        .set_fast_math_flags(flags)
        .map_err(|error| CodegenError::Builder {
            message: error.to_string(),
        })
}

/// Adds `flags` to the fast-math flags a floating-point instruction has.
fn add_flags(value: FloatValue<'_>, flags: FastMathFlags) -> Result<(), CodegenError> {
    let Some(instruction) = value.as_instruction_value() else {
        return Ok(());
    };
    let present = instruction
        .get_fast_math_flags()
        .map_err(|error| CodegenError::Builder {
            message: error.to_string(),
        })?;
    set_flags(value, present | flags)
}
