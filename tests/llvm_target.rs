//! The target machine, the CPU attributes, the O3 pipeline (checked by the vectorisation of a sum reduction), and
//! the run-time function table as LLVM sees it.

mod llvm_support;

use inkwell::context::Context;
use inkwell::values::FastMathFlags;

use aplc::codegen::llvm::runtime_table::{
    declare_all_runtime_functions, runtime_error_kind_of, runtime_function_named, RuntimeFunctionId, RUNTIME_FUNCTIONS,
};
use aplc::codegen::llvm::target::{
    attach_target_cpu_attributes, create_target_machine, optimise_module, prepare_module_for_target, CodegenOptions,
    TargetCpu,
};
use aplc::codegen::llvm::verify_module;
use aplc::runtime::error::AplErrorKind;
use llvm_support::build_double_sum_module;

/// The module's IR after targeting the host and running O3.
fn optimised_ir_of_double_sum(flags: FastMathFlags) -> String {
    let context = Context::create();
    let module = build_double_sum_module(&context, flags);
    verify_module(&module).expect("the hand-built module is valid");
    let target_machine = create_target_machine(&CodegenOptions::default()).unwrap();
    prepare_module_for_target(&module, &target_machine);
    optimise_module(&module, &target_machine).unwrap();
    verify_module(&module).expect("O3 keeps the module valid");
    module.print_to_string().to_string()
}

#[test]
fn a_sum_of_doubles_with_reassoc_and_nsz_is_vectorised_by_o3() {
    let ir = optimised_ir_of_double_sum(FastMathFlags::AllowReassoc | FastMathFlags::NoSignedZeros);
    // Every x86-64 CPU has at least SSE2, so the vectoriser uses <2 x double> or wider.
    assert!(ir.contains("x double>"), "no vector of doubles in:\n{ir}");
    assert!(ir.contains("fadd reassoc nsz <"), "no vector addition in:\n{ir}");
}

#[test]
fn a_sum_of_doubles_without_fast_math_flags_stays_scalar() {
    // Without reassociation LLVM must add in order, which x86 cannot do with vectors: the flags are what matters.
    let ir = optimised_ir_of_double_sum(FastMathFlags::empty());
    assert!(!ir.contains("x double>"), "unexpected vector of doubles in:\n{ir}");
    // The loop is still there, adding one double at a time.
    assert!(ir.contains("fadd double"), "no scalar addition in:\n{ir}");
}

#[test]
fn prepared_functions_carry_the_target_cpu_and_features() {
    let context = Context::create();
    let module = build_double_sum_module(&context, FastMathFlags::empty());
    let target_machine = create_target_machine(&CodegenOptions::default()).unwrap();
    prepare_module_for_target(&module, &target_machine);
    let host = TargetCpu::host();
    let ir = module.print_to_string().to_string();
    assert!(ir.contains(&format!("\"target-cpu\"=\"{}\"", host.name)), "{ir}");
    assert!(ir.contains("\"target-features\"="), "{ir}");
    assert!(ir.contains("target datalayout = \"e-m:e"), "{ir}");
    assert!(ir.contains("target triple = \"x86_64"), "{ir}");
}

#[test]
fn a_named_cpu_uses_that_cpu_and_its_default_features() {
    let options = CodegenOptions {
        target_cpu: Some("x86-64-v3".to_string()),
        ..CodegenOptions::default()
    };
    assert_eq!(
        TargetCpu::from_options(&options),
        TargetCpu {
            name: "x86-64-v3".to_string(),
            features: String::new()
        }
    );
    let target_machine = create_target_machine(&options).unwrap();
    assert_eq!(target_machine.get_cpu().to_str(), Ok("x86-64-v3"));

    let context = Context::create();
    let module = build_double_sum_module(&context, FastMathFlags::empty());
    attach_target_cpu_attributes(&module, &TargetCpu::from_options(&options));
    let ir = module.print_to_string().to_string();
    assert!(ir.contains("\"target-cpu\"=\"x86-64-v3\""), "{ir}");
    assert!(!ir.contains("target-features"), "{ir}");
}

#[test]
fn native_and_host_mean_the_host_cpu() {
    let host = TargetCpu::host();
    assert!(!host.name.is_empty());
    for name in ["native", "host"] {
        let options = CodegenOptions {
            target_cpu: Some(name.to_string()),
            ..CodegenOptions::default()
        };
        assert_eq!(TargetCpu::from_options(&options), host);
    }
    assert_eq!(TargetCpu::from_options(&CodegenOptions::default()), host);
}

#[test]
fn runtime_functions_are_declared_with_their_c_signatures_and_attributes() {
    let context = Context::create();
    let module = context.create_module("declarations");
    declare_all_runtime_functions(&module);
    // Declaring again reuses the declarations.
    declare_all_runtime_functions(&module);
    verify_module(&module).unwrap();
    let ir = module.print_to_string().to_string();
    let expected_declarations = [
        "declare noalias ptr @aplrt_alloc(i64)",
        "declare void @aplrt_free(ptr, i64)",
        "declare void @aplrt_print_array(i32, i64, ptr, ptr, i32)",
        "declare void @aplrt_flush()",
        "declare void @aplrt_error(i32, ptr, i64)",
        "declare i64 @aplrt_now_millis()",
        "declare i64 @aplrt_roll(i64)",
        "declare void @aplrt_set_arguments(i32, ptr)",
        "declare i64 @aplrt_argument_int(i64, i64)",
        "declare double @aplrt_argument_double(i64, double)",
        "declare noalias ptr @aplrt_read_file(ptr, i64, ptr)",
        "declare noalias ptr @aplrt_format(i32, i64, ptr, ptr, i32, i32, ptr)",
        "declare i64 @aplrt_stack_floor()",
        "declare void @aplrt_note_comparison(ptr, i64, i64)",
        "declare i64 @aplrt_cl_launch(ptr, i64, ptr, i64, i64, ptr, i64, ptr, i64)",
        "declare void @aplrt_cl_to_host(ptr, i64)",
        "declare void @aplrt_cl_host_wrote(ptr)",
        "declare void @aplrt_cl_fresh(ptr, i64)",
        "declare void @aplrt_cl_forget(ptr)",
        "declare void @aplrt_cl_finish()",
    ];
    for declaration in expected_declarations {
        assert!(ir.contains(declaration), "missing `{declaration}` in:\n{ir}");
    }
    assert_eq!(ir.matches("declare ").count(), RUNTIME_FUNCTIONS.len());
    let error_function = module.get_function("aplrt_error").unwrap();
    let noreturn = inkwell::attributes::Attribute::get_named_enum_kind_id("noreturn");
    assert!(error_function
        .get_enum_attribute(inkwell::attributes::AttributeLoc::Function, noreturn)
        .is_some());
}

#[test]
fn the_table_has_one_entry_per_id_and_unique_names() {
    let ids = [
        RuntimeFunctionId::Alloc,
        RuntimeFunctionId::Free,
        RuntimeFunctionId::PrintArray,
        RuntimeFunctionId::Flush,
        RuntimeFunctionId::Error,
        RuntimeFunctionId::ErrorReport,
        RuntimeFunctionId::EnterSite,
        RuntimeFunctionId::LeaveSite,
        RuntimeFunctionId::NowMillis,
        RuntimeFunctionId::Roll,
        RuntimeFunctionId::SetArguments,
        RuntimeFunctionId::ArgumentInt,
        RuntimeFunctionId::ArgumentDouble,
        RuntimeFunctionId::ReadFile,
        RuntimeFunctionId::Format,
        RuntimeFunctionId::ReportBench,
        RuntimeFunctionId::ReadArrayFile,
        RuntimeFunctionId::ParallelFor,
        RuntimeFunctionId::Parameter,
        RuntimeFunctionId::NoteComparison,
        RuntimeFunctionId::SetDefaultThreads,
        RuntimeFunctionId::Finish,
        RuntimeFunctionId::StackFloor,
        RuntimeFunctionId::ClLaunch,
        RuntimeFunctionId::ClToHost,
        RuntimeFunctionId::ClHostWrote,
        RuntimeFunctionId::ClNewerOnDevice,
        RuntimeFunctionId::ClFresh,
        RuntimeFunctionId::ClForget,
        RuntimeFunctionId::ClFinish,
    ];
    assert_eq!(RUNTIME_FUNCTIONS.len(), ids.len());
    for id in ids {
        let definition = id.definition();
        assert_eq!(definition.id, id);
        assert!(definition.name.starts_with("aplrt_"));
        assert_eq!(
            runtime_function_named(definition.name).map(|function| function.id),
            Some(id)
        );
        assert_ne!(definition.address_in_this_process(), 0);
    }
    assert!(runtime_function_named("aplrt_missing").is_none());
}

#[test]
fn compiler_error_kinds_map_to_run_time_kinds_with_the_same_names() {
    for (position, kind) in AplErrorKind::ALL.into_iter().enumerate() {
        let runtime_kind = runtime_error_kind_of(kind);
        assert_eq!(runtime_kind.apl_name(), kind.apl_name());
        // The codes follow the order of the compiler's enum.
        assert_eq!(runtime_kind.code(), position as i32);
    }
}
