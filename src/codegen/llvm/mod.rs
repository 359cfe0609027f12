//! The LLVM backend (LLVM 19 through inkwell). This module owns everything around the translation of the memory IR
//! into LLVM IR:
//! - [`target`]: the target machine (host CPU or `--target-cpu`), the attributes that make every function use it,
//!   and the O3 pipeline, which must be run explicitly (the target machine's optimisation level only affects
//!   instruction selection);
//! - [`emit`]: the constructs the translation is made of (loops, conditionals, mutable scalars, blocks, run-time
//!   calls), emitted the way LLVM's optimiser wants them;
//! - [`runtime_table`]: the one table of run-time library functions that generated code may call;
//! - [`jit`]: running a module in-process with MCJIT, the run-time functions mapped to the ones linked into aplc;
//! - [`aot`]: writing an object file and linking it with `cc` against `libaplc_runtime.a` into an executable that
//!   needs no LLVM;
//! - [`translate`]: the loop IR (`crate::loops::ir`) into LLVM IR;
//! - [`cpu_names`]: the CPU names LLVM 19 accepts for `--target-cpu`;
//! - [`error`]: what can go wrong in all of these.
//!
//! A generated module provides a program entry, `i32 aplc_main()` ([`PROGRAM_ENTRY_FUNCTION_NAME`]), that returns
//! the exit status. The JIT calls it directly; AOT adds a C `main` around it.

pub mod aot;
pub mod cpu_names;
pub mod emit;
pub mod error;
pub mod jit;
pub mod line;
pub mod runtime_table;
pub mod target;
pub mod translate;

use std::path::Path;

use inkwell::context::Context;
use inkwell::module::Module;

use crate::loops::ir::Program;
use error::CodegenError;
use target::{create_target_machine, optimise_module, prepare_module_for_target, CodegenOptions};

/// The name of the function a generated module runs as the program: `i32 aplc_main(void)`, returning the exit
/// status. Not `main`, so that the same module serves the JIT (inside aplc, which has its own `main`) and AOT.
pub const PROGRAM_ENTRY_FUNCTION_NAME: &str = "aplc_main";

/// Checks the module with LLVM's verifier. Every module is verified before it is optimised or compiled: a module
/// that fails is a bug in code generation, and LLVM's passes may crash on it instead of reporting it.
pub fn verify_module(module: &Module<'_>) -> Result<(), CodegenError> {
    module.verify().map_err(|message| CodegenError::InvalidModule {
        module_name: module.get_name().to_string_lossy().into_owned(),
        message: message.to_string(),
    })
}

/// `aplc run --backend jit`: translates the loop program, compiles it in this process and runs it; returns its exit
/// status (0). The program's output goes to standard output (flushed before returning); an APL error prints its
/// message on standard error and exits the process with status 1, as a compiled executable would.
pub fn run_loop_program_in_jit(program: &Program, options: &CodegenOptions) -> Result<i32, CodegenError> {
    let context = Context::create();
    let module = translate::translate_program(&context, program, options)?;
    let compiled = jit::compile_module_for_jit(&module, PROGRAM_ENTRY_FUNCTION_NAME, options)?;
    // SAFETY: the module was generated from a checked loop program and verified; it only calls the run-time library.
    Ok(unsafe { compiled.run() })
}

/// `aplc build prog.apl -o prog` and `aplc run --backend aot`: translates the loop program and links it with the
/// run-time library (found as [`aot::find_runtime_library`] describes) into an executable at `output`.
pub fn build_executable(program: &Program, options: &CodegenOptions, output: &Path) -> Result<(), CodegenError> {
    let runtime_library = aot::find_runtime_library()?;
    let context = Context::create();
    let module = translate::translate_program(&context, program, options)?;
    aot::compile_module_to_executable(
        &module,
        PROGRAM_ENTRY_FUNCTION_NAME,
        options,
        runtime_library.path(),
        output,
    )
}

/// `aplc dump --stage llvm`: the module's text, as translated or after the O3 pipeline for the chosen CPU.
/// The kernels and host schedule of the program with the OpenCL backend (`options.opencl`; the defaults when unset).
pub fn opencl_program(
    program: &Program,
    options: &CodegenOptions,
) -> Result<translate::opencl::DeviceProgram, CodegenError> {
    let options = CodegenOptions {
        opencl: Some(options.opencl.clone().unwrap_or_default()),
        ..options.clone()
    };
    let context = Context::create();
    let (_, device_program) = translate::translate_program_with_device_code(&context, program, &options)?;
    Ok(device_program.unwrap_or_default())
}

/// `aplc dump --stage opencl`: [`opencl_program`] as text.
pub fn opencl_text(program: &Program, options: &CodegenOptions) -> Result<String, CodegenError> {
    Ok(opencl_program(program, options)?.describe())
}

pub fn llvm_ir_text(program: &Program, options: &CodegenOptions, optimised: bool) -> Result<String, CodegenError> {
    let context = Context::create();
    let module = translate::translate_program(&context, program, options)?;
    if optimised {
        let target_machine = create_target_machine(options)?;
        prepare_module_for_target(&module, &target_machine);
        optimise_module(&module, &target_machine)?;
    }
    Ok(module.print_to_string().to_string())
}
