//! The errors of the LLVM backend, each with a stable miette code. All user-facing wording of the backend is here.

use std::path::PathBuf;

use miette::Diagnostic;
use thiserror::Error;

#[derive(Debug, Error, Diagnostic, PartialEq, Eq)]
pub enum CodegenError {
    #[error("LLVM cannot generate code for the target {triple}: {message}")]
    #[diagnostic(code(aplc::codegen::unsupported_target))]
    UnsupportedTarget { triple: String, message: String },

    #[error("LLVM could not create a target machine for the CPU {cpu:?} on {triple}")]
    #[diagnostic(
        code(aplc::codegen::target_machine),
        help("check the --target-cpu name; `llc-19 -mcpu=help` lists the CPUs LLVM knows")
    )]
    TargetMachineCreation { triple: String, cpu: String },

    #[error("internal compiler error: the generated LLVM module {module_name} is invalid: {message}")]
    #[diagnostic(code(aplc::codegen::invalid_module))]
    InvalidModule { module_name: String, message: String },

    #[error("internal compiler error: building LLVM IR failed: {message}")]
    #[diagnostic(code(aplc::codegen::builder))]
    Builder { message: String },

    #[error("NONCE ERROR: the LLVM backend does not compile the operator {operator} yet")]
    #[diagnostic(
        code(aplc::codegen::unsupported_operator),
        help("run the program with the interpreter backend")
    )]
    UnsupportedOperator { operator: String },

    #[error("internal compiler error: the LLVM pass pipeline {pipeline} failed: {message}")]
    #[diagnostic(code(aplc::codegen::pass_pipeline))]
    PassPipeline { pipeline: String, message: String },

    #[error("LLVM could not create the JIT execution engine: {message}")]
    #[diagnostic(code(aplc::codegen::jit_creation))]
    JitCreation { message: String },

    #[error("internal compiler error: the generated module has no entry function {name}")]
    #[diagnostic(code(aplc::codegen::missing_entry))]
    MissingEntryFunction { name: String },

    #[error("internal compiler error: {name} is defined by the module but is a run-time library function")]
    #[diagnostic(code(aplc::codegen::runtime_function_defined))]
    RuntimeFunctionDefinedInModule { name: String },

    #[error("LLVM could not write the object file {path}: {message}")]
    #[diagnostic(code(aplc::codegen::object_emission))]
    ObjectEmission { path: PathBuf, message: String },

    #[error("the run-time library could not be written for the linker: {message}")]
    #[diagnostic(
        code(aplc::codegen::runtime_library_not_extracted),
        help("set XDG_CACHE_HOME (or TMPDIR) to a writable folder, or APLC_RUNTIME_LIB to the path of a libaplc_runtime.a")
    )]
    RuntimeLibraryNotExtracted { message: String },

    #[error("APLC_RUNTIME_LIB is set to {path}, which is not a file")]
    #[diagnostic(code(aplc::codegen::runtime_library_variable))]
    RuntimeLibraryVariableInvalid { path: PathBuf },

    #[error("could not run the C compiler {compiler} to link {output}: {message}")]
    #[diagnostic(
        code(aplc::codegen::linker_not_runnable),
        help("install a C compiler (on Debian: gcc), or set CC to one")
    )]
    LinkerNotRunnable {
        compiler: String,
        output: PathBuf,
        message: String,
    },

    #[error("linking {output} failed ({status}):\n{stderr}")]
    #[diagnostic(code(aplc::codegen::link_failed))]
    LinkFailed {
        output: PathBuf,
        status: String,
        stderr: String,
    },
}
