//! The translation of a REPL line ([`LineProgram`]) into a module whose entry is
//! `i32 aplc_line(ptr inputs, ptr outputs)`:
//! - `inputs` points to one data pointer per input number; the block of each input is bound to its pointer (and
//!   never freed: the caller owns the data);
//! - `outputs` points to 64-bit words that receive the program's result, one leaf of the result tuple after the
//!   other, as [`OutputSlot`] describes.
//!
//! The status returned is 0; an APL error exits the process inside `aplrt_error`, as in a whole program.

use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::values::{BasicValueEnum, IntValue, PointerValue};
use inkwell::AddressSpace;

use aplc_runtime::abi::ElementKind;

use super::{internal_error, ProgramTranslator, PROGRAM_MODULE_NAME};
use crate::codegen::llvm::emit::FunctionEmitter;
use crate::codegen::llvm::error::CodegenError;
use crate::codegen::llvm::verify_module;
use crate::loops::ir::LineProgram;
use crate::loops::ir::{ResultValue, ScalarType};
use crate::runtime::float_mode::FloatMode;

/// The name of a line's entry function.
pub const LINE_ENTRY_FUNCTION_NAME: &str = "aplc_line";

/// How one leaf of a line's result is written to the output words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputSlot {
    /// One word: an int as is, a double's bits, a bool as 0 or 1, a char's code point.
    Scalar(ScalarType),
    /// `1 + rank` words: the data pointer (row-major, elements as the run-time library lays them out), then the
    /// extents. The data stays allocated; the caller reads it and the process ends.
    Array { element: ScalarType, rank: usize },
}

impl OutputSlot {
    pub fn word_count(self) -> usize {
        match self {
            OutputSlot::Scalar(_) => 1,
            OutputSlot::Array { rank, .. } => 1 + rank,
        }
    }
}

/// The leaves of a result in order (a tuple's components flattened, depth first).
pub fn output_slots(result: &ResultValue) -> Vec<OutputSlot> {
    let mut slots = Vec::new();
    collect_output_slots(result, &mut slots);
    slots
}

fn collect_output_slots(result: &ResultValue, slots: &mut Vec<OutputSlot>) {
    match result {
        ResultValue::Scalar(value) => slots.push(OutputSlot::Scalar(value.ty())),
        ResultValue::Array(array) => slots.push(OutputSlot::Array {
            element: array.block.element,
            rank: array.shape.len(),
        }),
        ResultValue::Tuple(components) => components
            .iter()
            .for_each(|component| collect_output_slots(component, slots)),
    }
}

/// Translates a line into a verified module with the entry [`LINE_ENTRY_FUNCTION_NAME`].
pub fn translate_line_program<'ctx>(
    context: &'ctx Context,
    line: &LineProgram,
    float_mode: FloatMode,
) -> Result<Module<'ctx>, CodegenError> {
    let module = context.create_module(PROGRAM_MODULE_NAME);
    {
        let pointer_type = context.ptr_type(AddressSpace::default());
        let entry_type = context
            .i32_type()
            .fn_type(&[pointer_type.into(), pointer_type.into()], false);
        let function = module.add_function(LINE_ENTRY_FUNCTION_NAME, entry_type, None);
        // The inputs' blocks are not defined by any statement: synthetic ids go above theirs too.
        let largest_input = line.inputs.iter().map(|input| input.block.id).max().unwrap_or(0);
        let first_synthetic_id = line.program.largest_id().max(largest_input) + 1;
        let translator = ProgramTranslator {
            sites_after_messages: true,
            ..ProgramTranslator::new(
                FunctionEmitter::for_function(&module, function),
                first_synthetic_id,
                float_mode,
            )
        };
        let parameter = |position: u32| {
            function
                .get_nth_param(position)
                .map(|value| value.into_pointer_value())
                .ok_or_else(|| internal_error("the line entry has two parameters".to_string()))
        };
        let (inputs, outputs) = (parameter(0)?, parameter(1)?);
        let translator = translator.with_functions(&line.program.functions)?;
        translator.bind_inputs(line, inputs)?;
        translator.translate_statements(&line.program.body)?;
        let mut next_word = 0;
        translator.write_result(&line.program.result, outputs, &mut next_word)?;
        translator.emitter.emit_return_status(0)?;
    }
    verify_module(&module)?;
    Ok(module)
}

impl<'ctx> ProgramTranslator<'_, 'ctx> {
    /// Each input block's pointer is `inputs[k]`; its byte count is 0, which `aplrt_free` ignores.
    fn bind_inputs(&self, line: &LineProgram, inputs: PointerValue<'ctx>) -> Result<(), CodegenError> {
        let pointer_type = self.emitter.context.ptr_type(AddressSpace::default());
        for input in &line.inputs {
            let address = self.word_pointer(inputs, input.index)?;
            let name = format!("input{}", input.index);
            let data = self.emitter.builder.build_load(pointer_type, address, &name)?;
            let slots = self.block_slots(input.block)?;
            self.emitter.builder.build_store(slots.pointer, data)?;
            self.emitter
                .builder
                .build_store(slots.byte_count, self.emitter.int_constant(0))?;
        }
        Ok(())
    }

    fn write_result(
        &self,
        result: &ResultValue,
        outputs: PointerValue<'ctx>,
        next_word: &mut usize,
    ) -> Result<(), CodegenError> {
        match result {
            ResultValue::Scalar(value) => {
                let word = self.scalar_as_word(value.ty(), self.translate_expression(value)?)?;
                self.store_word(outputs, next_word, word.into())
            }
            ResultValue::Array(array) => {
                let data = self.block_pointer(array.block)?;
                self.store_word(outputs, next_word, data.into())?;
                for extent in &array.shape {
                    let extent = self.translate_int(extent)?;
                    self.store_word(outputs, next_word, extent.into())?;
                }
                Ok(())
            }
            ResultValue::Tuple(components) => components
                .iter()
                .try_for_each(|component| self.write_result(component, outputs, next_word)),
        }
    }

    fn scalar_as_word(&self, ty: ScalarType, value: BasicValueEnum<'ctx>) -> Result<IntValue<'ctx>, CodegenError> {
        let builder = &self.emitter.builder;
        let word_type = self.emitter.context.i64_type();
        Ok(match ty {
            ScalarType::Int => value.into_int_value(),
            ScalarType::Double => builder.build_bit_cast(value, word_type, "bits")?.into_int_value(),
            ScalarType::Bool | ScalarType::Char => {
                builder.build_int_z_extend(value.into_int_value(), word_type, "word")?
            }
            // Two doubles do not fit a word; the REPL runs such a line on the interpreter.
            ScalarType::Complex => {
                return Err(CodegenError::UnsupportedOperator {
                    operator: "a complex scalar as a line's output".to_string(),
                })
            }
        })
    }

    fn store_word(
        &self,
        outputs: PointerValue<'ctx>,
        next_word: &mut usize,
        value: BasicValueEnum<'ctx>,
    ) -> Result<(), CodegenError> {
        let address = self.word_pointer(outputs, *next_word)?;
        *next_word += 1;
        self.emitter.builder.build_store(address, value)?;
        Ok(())
    }

    /// The address of the 64-bit word `index` of an array of words (or of pointers, which are as wide).
    fn word_pointer(&self, words: PointerValue<'ctx>, index: usize) -> Result<PointerValue<'ctx>, CodegenError> {
        self.emitter
            .emit_element_pointer(ElementKind::Int, words, self.emitter.int_constant(index as i64))
    }
}
