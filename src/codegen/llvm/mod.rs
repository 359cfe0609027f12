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
//! - [`error`]: what can go wrong in all of these.
//!
//! A generated module provides a program entry, `i32 aplc_main()` ([`PROGRAM_ENTRY_FUNCTION_NAME`]), that returns
//! the exit status. The JIT calls it directly; AOT adds a C `main` around it.

pub mod aot;
pub mod emit;
pub mod error;
pub mod jit;
pub mod runtime_table;
pub mod target;

use inkwell::module::Module;

use error::CodegenError;

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
