//! The MCJIT path: hand-built modules compiled in-process, with the run-time functions mapped to aplc's own copy of
//! the run-time library and the program's output captured per thread.

mod llvm_support;

use inkwell::context::Context;

use aplc::codegen::llvm::error::CodegenError;
use aplc::codegen::llvm::jit::{compile_module_for_jit, run_module_in_jit};
use aplc::codegen::llvm::target::CodegenOptions;
use aplc::codegen::llvm::{verify_module, PROGRAM_ENTRY_FUNCTION_NAME};
use aplc_runtime::abi::capture_output_of;
use llvm_support::{
    add_program_entry, build_length_error_module, build_module_referencing_every_runtime_function,
    build_sum_of_first_integers_module, LENGTH_ERROR_MESSAGE,
};

/// Runs the module's entry in the JIT with its output captured; returns the exit status and the output.
fn run_in_jit_capturing_output(module: &inkwell::module::Module<'_>) -> (i32, String) {
    verify_module(module).expect("the hand-built module is valid");
    let (status, output) = capture_output_of(|| unsafe {
        run_module_in_jit(module, PROGRAM_ENTRY_FUNCTION_NAME, &CodegenOptions::default())
    });
    (status.expect("the module compiles"), String::from_utf8(output).unwrap())
}

#[test]
fn the_sum_of_one_to_one_hundred_prints_5050() {
    let context = Context::create();
    let module = build_sum_of_first_integers_module(&context, 100);
    // 1 + 2 + ... + 100 = 100 × 101 / 2.
    assert_eq!(run_in_jit_capturing_output(&module), (0, "5050\n".to_string()));
}

#[test]
fn the_sum_over_no_numbers_prints_0() {
    let context = Context::create();
    let module = build_sum_of_first_integers_module(&context, 0);
    assert_eq!(run_in_jit_capturing_output(&module), (0, "0\n".to_string()));
}

#[test]
fn a_named_baseline_cpu_also_runs() {
    let context = Context::create();
    let module = build_sum_of_first_integers_module(&context, 1000);
    let options = CodegenOptions {
        target_cpu: Some("x86-64".to_string()),
        ..CodegenOptions::default()
    };
    let (status, output) =
        capture_output_of(|| unsafe { run_module_in_jit(&module, PROGRAM_ENTRY_FUNCTION_NAME, &options) });
    // 1000 × 1001 / 2.
    assert_eq!(status, Ok(0));
    assert_eq!(String::from_utf8(output).unwrap(), "500500\n");
}

#[test]
fn every_runtime_function_is_mapped_in_the_jit() {
    let context = Context::create();
    let module = build_module_referencing_every_runtime_function(&context);
    // Without a mapping, MCJIT fails to resolve the unexported aplrt_* symbols and the program cannot be built.
    assert_eq!(run_in_jit_capturing_output(&module), (0, String::new()));
}

#[test]
fn a_module_without_the_entry_function_is_refused() {
    let context = Context::create();
    let module = context.create_module("no_entry");
    let result = compile_module_for_jit(&module, PROGRAM_ENTRY_FUNCTION_NAME, &CodegenOptions::default());
    assert_eq!(
        result.err(),
        Some(CodegenError::MissingEntryFunction {
            name: "aplc_main".to_string()
        })
    );
}

#[test]
fn an_invalid_module_is_reported_with_the_verifier_message() {
    let context = Context::create();
    let module = context.create_module("unterminated");
    let entry = add_program_entry(&module);
    // A block without a terminator instruction.
    context.append_basic_block(entry, "entry");
    let result = compile_module_for_jit(&module, PROGRAM_ENTRY_FUNCTION_NAME, &CodegenOptions::default());
    match result.err() {
        Some(CodegenError::InvalidModule { module_name, message }) => {
            assert_eq!(module_name, "unterminated");
            assert!(message.contains("terminator"), "verifier said: {message}");
        }
        other => panic!("expected InvalidModule, got {other:?}"),
    }
}

#[test]
fn a_module_that_defines_a_runtime_function_is_refused() {
    let context = Context::create();
    let module = build_sum_of_first_integers_module(&context, 3);
    let alloc = module.get_function("aplrt_alloc").unwrap();
    // Give the declaration a body that returns null: it would shadow the run-time library.
    let builder = context.create_builder();
    builder.position_at_end(context.append_basic_block(alloc, "entry"));
    builder
        .build_return(Some(&context.ptr_type(inkwell::AddressSpace::default()).const_null()))
        .unwrap();
    verify_module(&module).expect("still a valid module");
    let result = compile_module_for_jit(&module, PROGRAM_ENTRY_FUNCTION_NAME, &CodegenOptions::default());
    assert_eq!(
        result.err(),
        Some(CodegenError::RuntimeFunctionDefinedInModule {
            name: "aplrt_alloc".to_string()
        })
    );
}

/// Set in the child process of [`an_apl_error_in_jit_code_exits_the_process_with_status_1`].
const JIT_ERROR_CHILD_VARIABLE: &str = "APLC_TEST_JIT_ERROR_CHILD";

/// An APL error ends the whole process, so this test plays two roles: run normally, it starts this test binary
/// again, filtered to this test, as a child with [`JIT_ERROR_CHILD_VARIABLE`] set, and checks how the child ends; as
/// the child, it runs the LENGTH ERROR module in the JIT, which never returns.
#[test]
fn an_apl_error_in_jit_code_exits_the_process_with_status_1() {
    if std::env::var_os(JIT_ERROR_CHILD_VARIABLE).is_some() {
        let context = Context::create();
        let module = build_length_error_module(&context);
        let status = unsafe { run_module_in_jit(&module, PROGRAM_ENTRY_FUNCTION_NAME, &CodegenOptions::default()) };
        panic!("the program should have stopped with LENGTH ERROR, but returned {status:?}");
    }
    let child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "an_apl_error_in_jit_code_exits_the_process_with_status_1",
            "--test-threads=1",
            "--quiet",
        ])
        .env(JIT_ERROR_CHILD_VARIABLE, "1")
        .output()
        .expect("the test binary runs");
    let stdout = String::from_utf8_lossy(&child.stdout);
    let stderr = String::from_utf8_lossy(&child.stderr);
    assert_eq!(child.status.code(), Some(1), "stdout:\n{stdout}\nstderr:\n{stderr}");
    // The test harness prints its own lines on standard output too (few, with --quiet); the program's 7 is one line
    // among them.
    assert!(stdout.lines().any(|line| line == "7"), "stdout:\n{stdout}");
    assert!(
        stderr
            .lines()
            .any(|line| line == format!("LENGTH ERROR: {LENGTH_ERROR_MESSAGE}")),
        "stderr:\n{stderr}"
    );
}
