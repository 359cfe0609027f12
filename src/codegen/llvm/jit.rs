//! Running a module in the aplc process with LLVM's MCJIT. aplc links the run-time library as a Rust library, but
//! its `aplrt_*` symbols are not exported from the executable, so MCJIT cannot find them by name: every run-time
//! function the module declares is mapped explicitly to its address (from the [`runtime_table`]). Other external
//! symbols (the C maths library, for instance) are resolved by MCJIT in the process's shared libraries.
//!
//! The module is verified, made to target the host (or `--target-cpu`) and optimised with O3 before MCJIT compiles
//! it; see [`super::target`] for why each step is needed.
//!
//! [`runtime_table`]: super::runtime_table

use inkwell::execution_engine::{ExecutionEngine, JitFunction};
use inkwell::module::Module;
use inkwell::OptimizationLevel;

use aplc_runtime::abi::aplrt_flush;

use super::error::CodegenError;
use super::runtime_table::RUNTIME_FUNCTIONS;
use super::target::{create_target_machine, optimise_module, prepare_module_for_target, CodegenOptions};
use super::verify_module;

/// The C type of a program entry: no arguments, the exit status as result.
pub type ProgramEntryFunction = unsafe extern "C" fn() -> i32;

/// A module compiled to machine code in this process, ready to run its entry function. Holds the execution engine,
/// which owns the code.
pub struct JitProgram<'ctx> {
    _execution_engine: ExecutionEngine<'ctx>,
    entry_function: JitFunction<'ctx, ProgramEntryFunction>,
}

impl<'ctx> JitProgram<'ctx> {
    /// Runs the entry function and flushes the program's output, returning the exit status. An APL error inside
    /// the program exits the whole process with status 1, as an AOT executable would (see `aplrt_error`).
    ///
    /// # Safety
    /// The module must be correct code: it runs in this process without any protection.
    pub unsafe fn run(&self) -> i32 {
        // SAFETY: the caller vouches for the generated code.
        let status = unsafe { self.entry_function.call() };
        aplrt_flush();
        status
    }
}

/// Compiles the module for running in this process: verifies it, targets and optimises it, creates the MCJIT
/// engine, maps the run-time functions, and looks up `entry_function_name` (an `i32 ()` function).
pub fn compile_module_for_jit<'ctx>(
    module: &Module<'ctx>,
    entry_function_name: &str,
    options: &CodegenOptions,
) -> Result<JitProgram<'ctx>, CodegenError> {
    verify_module(module)?;
    require_entry_function(module, entry_function_name)?;
    let target_machine = create_target_machine(options)?;
    prepare_module_for_target(module, &target_machine);
    optimise_module(module, &target_machine)?;
    let execution_engine = module
        .create_jit_execution_engine(OptimizationLevel::Aggressive)
        .map_err(|message| CodegenError::JitCreation {
            message: message.to_string(),
        })?;
    map_runtime_functions(&execution_engine, module)?;
    // SAFETY: `require_entry_function` checked that the entry has the type `ProgramEntryFunction` describes.
    let entry_function = unsafe { execution_engine.get_function::<ProgramEntryFunction>(entry_function_name) }
        .map_err(|_| CodegenError::MissingEntryFunction {
            name: entry_function_name.to_string(),
        })?;
    Ok(JitProgram {
        _execution_engine: execution_engine,
        entry_function,
    })
}

/// Compiles and runs the module's entry function, returning its exit status.
///
/// # Safety
/// As for [`JitProgram::run`].
pub unsafe fn run_module_in_jit(
    module: &Module<'_>,
    entry_function_name: &str,
    options: &CodegenOptions,
) -> Result<i32, CodegenError> {
    let program = compile_module_for_jit(module, entry_function_name, options)?;
    // SAFETY: passed on to the caller.
    Ok(unsafe { program.run() })
}

/// Points every run-time function the module declares at aplc's own copy. A module that defines a function of the
/// same name is a code generation bug: the definition would silently shadow the run-time library.
pub(super) fn map_runtime_functions(
    execution_engine: &ExecutionEngine<'_>,
    module: &Module<'_>,
) -> Result<(), CodegenError> {
    for runtime_function in RUNTIME_FUNCTIONS {
        let Some(declaration) = module.get_function(runtime_function.name) else {
            continue;
        };
        if declaration.count_basic_blocks() > 0 {
            return Err(CodegenError::RuntimeFunctionDefinedInModule {
                name: runtime_function.name.to_string(),
            });
        }
        execution_engine.add_global_mapping(&declaration, runtime_function.address_in_this_process());
    }
    Ok(())
}

/// Checks that the entry function is defined, takes no parameters and returns an `i32`, which is what calling it
/// as a [`ProgramEntryFunction`] assumes.
pub fn require_entry_function(module: &Module<'_>, entry_function_name: &str) -> Result<(), CodegenError> {
    let missing = || CodegenError::MissingEntryFunction {
        name: entry_function_name.to_string(),
    };
    let function = module.get_function(entry_function_name).ok_or_else(missing)?;
    let function_type = function.get_type();
    let returns_i32 = function_type
        .get_return_type()
        .is_some_and(|return_type| return_type.is_int_type() && return_type.into_int_type().get_bit_width() == 32);
    if function.count_basic_blocks() == 0 || function_type.count_param_types() != 0 || !returns_i32 {
        return Err(missing());
    }
    Ok(())
}
