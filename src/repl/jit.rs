//! The native line backend: each line is type-checked, optimised, lowered to the loop IR with its inputs as blocks
//! passed in ([`crate::lower::input`]), compiled by LLVM's JIT in the session's process, and run in a forked child
//! process ([`super::child`]) that sends the line's outputs back through a pipe.

use super::child::{run_in_child, ChildOutcome, InterruptGuard};
use super::session::{timed, BackendError, InterpreterBackend, LineBackend, LineOutcome, LineRequest};
use super::values::{bind_inputs, decode_values, encode_value, kind_of, native_data_pointer, InputForm};
use crate::codegen::llvm::error::CodegenError;
use crate::codegen::llvm::line::{compile_line, CompiledLine};
use crate::codegen::llvm::target::CodegenOptions;
use crate::codegen::llvm::translate::line::OutputSlot;
use crate::driver::LoweringError;
use crate::loops::LowerError;
use crate::runtime::error::{AplError, AplErrorKind};
use crate::tail;
use crate::tail::interp::Host;
use inkwell::context::Context;

/// Native code through LLVM's JIT, run in a child process.
#[derive(Default)]
pub struct JitBackend {
    pub options: CodegenOptions,
}

impl LineBackend for JitBackend {
    fn run_line(&mut self, line: LineRequest, host: &mut dyn Host) -> Result<LineOutcome, BackendError> {
        match self.run_natively(&line) {
            // What native code cannot do yet (complex numbers, `⍕`, `?`), the interpreter does: the session
            // keeps working, at the interpreter's speed for that line.
            Err(BackendError::Lowering(error)) if is_unsupported(&error) => InterpreterBackend.run_line(line, host),
            other => other,
        }
    }
}

fn is_complex_array(value: &crate::tail::value::Value) -> bool {
    matches!(value, crate::tail::value::Value::Array(array)
        if matches!(array.data, crate::tail::value::ArrayData::Complex(_)))
}

/// Whether a lowering error says that native code does not support a construct yet (rather than a bug).
fn is_unsupported(error: &LoweringError) -> bool {
    matches!(
        error,
        LoweringError::Loops(LowerError::Unsupported { .. })
            | LoweringError::Codegen(CodegenError::UnsupportedOperator { .. })
    )
}

impl JitBackend {
    fn run_natively(&mut self, line: &LineRequest) -> Result<LineOutcome, BackendError> {
        if line.inputs.iter().any(|(_, value)| is_complex_array(value)) {
            // Native entries take no complex inputs yet.
            return Err(BackendError::Lowering(LoweringError::Loops(LowerError::unsupported(
                "complex arrays as a line's inputs",
            ))));
        }
        let guard = InterruptGuard::install();
        let mut phases = Vec::new();
        let (mut program, native_inputs) = bind_inputs(line.program.clone(), &line.inputs, InputForm::Native);
        timed(&mut phases, "infer", || tail::infer::infer_program(&mut program)).map_err(BackendError::Type)?;
        let typed_program = program.clone();
        let optimised = timed(&mut phases, "optimise", || {
            crate::pass::run_pipeline(program, &crate::pass::tail_pipeline(), crate::pass::Verify::Off)
        })
        .map_err(|error| BackendError::Lowering(LoweringError::Pass(error)))?;
        let lowered = timed(&mut phases, "lower", || {
            crate::lower::input::lower_line_program(&optimised)
        })
        .map_err(|error| BackendError::Lowering(LoweringError::Loops(error)))?;
        let context = Context::create();
        let compiled = timed(&mut phases, "compile", || {
            compile_line(&context, &lowered, &self.options)
        })
        .map_err(|error| BackendError::Lowering(LoweringError::Codegen(error)))?;
        if guard.interrupted() {
            return Err(BackendError::Interrupted);
        }
        let mut pointers = Vec::with_capacity(native_inputs.len());
        for array in &native_inputs {
            let pointer = native_data_pointer(array)
                .ok_or_else(|| BackendError::Runtime(AplError::new(AplErrorKind::Nonce, "complex numbers")))?;
            pointers.push(pointer);
        }
        let outcome = timed(&mut phases, "run", || {
            run_in_child(&guard, || {
                // SAFETY: every input the line reads is one of `native_inputs`, with the element type and length
                // its `inputX(k, n)` says (both come from the same array in `bind_inputs`).
                let words = unsafe { compiled.run(&pointers) };
                // SAFETY: the words are what the entry wrote for the compiled line's output slots.
                unsafe { encode_outputs(&compiled, &words) }
            })
        });
        let outputs = match outcome {
            ChildOutcome::Finished(bytes) => decode_values(&bytes).map_err(BackendError::Failed)?,
            ChildOutcome::Failed { stderr, status } => return Err(error_from_child(&stderr, status)),
            ChildOutcome::Interrupted => return Err(BackendError::Interrupted),
            ChildOutcome::Broken(message) => return Err(BackendError::Failed(message)),
        };
        let outputs = if line.output_count == 0 { Vec::new() } else { outputs };
        Ok(LineOutcome {
            typed_program,
            phases,
            outputs,
        })
    }
}

/// The outputs in the pipe's format.
///
/// # Safety
/// `words` must be what the compiled line's entry wrote: each array slot's data pointer points to as many elements
/// as its extents say.
unsafe fn encode_outputs(compiled: &CompiledLine<'_>, words: &[u64]) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut next = 0;
    for slot in &compiled.outputs {
        match *slot {
            OutputSlot::Scalar(element) => {
                let (kind, size) = kind_of(element);
                let word = words[next].to_le_bytes();
                encode_value(kind, &[], &word[..size], &mut bytes);
            }
            OutputSlot::Array { element, rank } => {
                let (kind, size) = kind_of(element);
                let data = words[next] as usize as *const u8;
                let shape: Vec<usize> = words[next + 1..next + 1 + rank].iter().map(|&w| w as usize).collect();
                let count: usize = shape.iter().product();
                let elements = if count == 0 {
                    &[][..]
                } else {
                    // SAFETY: the caller guarantees `count` elements of `size` bytes behind the pointer.
                    unsafe { std::slice::from_raw_parts(data, count * size) }
                };
                encode_value(kind, &shape, elements, &mut bytes);
            }
        }
        next += slot.word_count();
    }
    bytes
}

/// The run-time library's `NAME: message` line as an APL error (so that it renders as a diagnostic at the line), or
/// the child's own words when it is not one.
fn error_from_child(stderr: &str, status: i32) -> BackendError {
    let line = stderr.lines().find(|line| !line.trim().is_empty()).unwrap_or("").trim();
    for kind in AplErrorKind::ALL {
        let name = kind.apl_name();
        if line == name {
            return BackendError::Runtime(AplError::new(kind, ""));
        }
        if let Some(message) = line.strip_prefix(name).and_then(|rest| rest.strip_prefix(": ")) {
            let (message, site) = crate::codegen::llvm::translate::message_and_site(message);
            let error = AplError::new(kind, message);
            return BackendError::Runtime(match site {
                Some(site) => error.with_span(site),
                None => error,
            });
        }
    }
    if line.is_empty() {
        BackendError::Failed(format!("the line's process ended with status {status}"))
    } else {
        BackendError::Failed(stderr.trim_end().to_string())
    }
}
