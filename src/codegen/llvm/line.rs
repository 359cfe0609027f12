//! REPL lines compiled in this process: a [`LineProgram`] translated (see [`translate::line`]), optimised and
//! compiled with MCJIT, ready to be called with its inputs and a buffer for its outputs. The REPL calls the entry in a
//! forked child process, since an APL error inside it ends the process (`aplrt_error`).
//!
//! [`translate::line`]: super::translate::line

use inkwell::context::Context;
use inkwell::execution_engine::{ExecutionEngine, JitFunction};
use inkwell::OptimizationLevel;

use aplc_runtime::abi::aplrt_flush;

use super::error::CodegenError;
use super::jit::map_runtime_functions;
use super::target::{create_target_machine, optimise_module, prepare_module_for_target, CodegenOptions};
use super::translate::line::{output_slots, translate_line_program, OutputSlot, LINE_ENTRY_FUNCTION_NAME};
use super::verify_module;
use crate::loops::ir::LineProgram;

/// The C type of a line's entry: input data pointers, output words, the status as result.
pub type LineEntryFunction = unsafe extern "C" fn(*const *const u8, *mut u64) -> i32;

/// A compiled line: the execution engine that owns the code, the entry, and the layout of its outputs.
pub struct CompiledLine<'ctx> {
    _execution_engine: ExecutionEngine<'ctx>,
    entry_function: JitFunction<'ctx, LineEntryFunction>,
    pub outputs: Vec<OutputSlot>,
}

impl CompiledLine<'_> {
    /// The number of 64-bit output words the entry writes.
    pub fn output_word_count(&self) -> usize {
        self.outputs.iter().map(|slot| slot.word_count()).sum()
    }

    /// Runs the line and flushes its printed output; returns the output words.
    ///
    /// # Safety
    /// `inputs` must hold, for every input number the line reads, a pointer to as many elements of the input's type
    /// (laid out as the run-time library's element kinds say) as the line expects. The code runs in this process,
    /// and an APL error inside it exits the process.
    pub unsafe fn run(&self, inputs: &[*const u8]) -> Vec<u64> {
        let mut words = vec![0u64; self.output_word_count()];
        // SAFETY: the caller vouches for the inputs; the output buffer has the words the entry writes.
        unsafe { self.entry_function.call(inputs.as_ptr(), words.as_mut_ptr()) };
        aplrt_flush();
        words
    }
}

/// Translates, verifies, optimises and compiles a line for running in this process.
pub fn compile_line<'ctx>(
    context: &'ctx Context,
    line: &LineProgram,
    options: &CodegenOptions,
) -> Result<CompiledLine<'ctx>, CodegenError> {
    let module = translate_line_program(context, line, options.float_mode())?;
    verify_module(&module)?;
    let target_machine = create_target_machine(options)?;
    prepare_module_for_target(&module, &target_machine);
    optimise_module(&module, &target_machine)?;
    let execution_engine = module
        .create_jit_execution_engine(OptimizationLevel::Aggressive)
        .map_err(|message| CodegenError::JitCreation {
            message: message.to_string(),
        })?;
    map_runtime_functions(&execution_engine, &module)?;
    // SAFETY: `translate_line_program` defined the entry with exactly the type `LineEntryFunction` describes.
    let entry_function = unsafe { execution_engine.get_function::<LineEntryFunction>(LINE_ENTRY_FUNCTION_NAME) }
        .map_err(|_| CodegenError::MissingEntryFunction {
            name: LINE_ENTRY_FUNCTION_NAME.to_string(),
        })?;
    Ok(CompiledLine {
        _execution_engine: execution_engine,
        entry_function,
        outputs: output_slots(&line.program.result),
    })
}
