//! The emission helpers the memory-IR translation is built from, each checked by running a small program built
//! with them in the JIT and comparing its output with what APL prints, worked out by hand.

use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::values::{BasicValue, FloatValue, IntValue, PointerValue};
use inkwell::IntPredicate;

use aplc::codegen::llvm::emit::{FunctionEmitter, DEFAULT_PRINT_PRECISION};
use aplc::codegen::llvm::error::CodegenError;
use aplc::codegen::llvm::jit::run_module_in_jit;
use aplc::codegen::llvm::target::{create_target_machine, optimise_module, prepare_module_for_target, CodegenOptions};
use aplc::codegen::llvm::{verify_module, PROGRAM_ENTRY_FUNCTION_NAME};
use aplc_runtime::abi::{capture_output_of, ElementKind, RuntimeErrorKind};

/// Builds `aplc_main` with `emit_body` (which must not return), adds `return 0`, verifies the module, runs it in
/// the JIT and returns what it printed.
fn output_of_program(emit_body: impl FnOnce(&FunctionEmitter<'_, '_>) -> Result<(), CodegenError>) -> String {
    let context = Context::create();
    let module = context.create_module("emitted");
    build_program(&module, emit_body);
    let (status, output) = capture_output_of(|| unsafe {
        run_module_in_jit(&module, PROGRAM_ENTRY_FUNCTION_NAME, &CodegenOptions::default())
    });
    assert_eq!(status, Ok(0));
    String::from_utf8(output).unwrap()
}

fn build_program(module: &Module<'_>, emit_body: impl FnOnce(&FunctionEmitter<'_, '_>) -> Result<(), CodegenError>) {
    let emitter = FunctionEmitter::for_new_program_entry(module);
    emit_body(&emitter).expect("the body is emitted");
    emitter.emit_return_status(0).unwrap();
    verify_module(module).expect("the emitted module is valid");
}

/// Loads an `i64` from a mutable scalar's slot.
fn load_int<'ctx>(
    emitter: &FunctionEmitter<'_, 'ctx>,
    slot: PointerValue<'ctx>,
    name: &str,
) -> Result<IntValue<'ctx>, CodegenError> {
    let i64_type = emitter.context.i64_type();
    Ok(emitter.builder.build_load(i64_type, slot, name)?.into_int_value())
}

#[test]
fn a_for_loop_fills_a_block_and_a_mutable_scalar_sums_it() {
    let output = output_of_program(|emitter| {
        let count = emitter.int_constant(100);
        let numbers = emitter.emit_alloc_elements(ElementKind::Int, count, "numbers")?;
        emitter.emit_for_loop(count, "fill", |emitter, index| {
            let value = emitter.builder.build_int_add(index, emitter.int_constant(1), "value")?;
            emitter.emit_store_element(ElementKind::Int, numbers, index, value.into())
        })?;
        let i64_type = emitter.context.i64_type();
        let sum = emitter.emit_mutable_variable(i64_type.into(), "sum", emitter.int_constant(0).into())?;
        emitter.emit_for_loop(count, "sum", |emitter, index| {
            let element = emitter
                .emit_load_element(ElementKind::Int, numbers, index)?
                .into_int_value();
            let partial = emitter.builder.build_load(i64_type, sum, "partial")?.into_int_value();
            let next = emitter.builder.build_int_add(partial, element, "next")?;
            emitter.builder.build_store(sum, next)?;
            Ok(())
        })?;
        let total = emitter.builder.build_load(i64_type, sum, "total")?;
        emitter.emit_print_scalar(ElementKind::Int, total, DEFAULT_PRINT_PRECISION)?;
        let bytes = emitter.emit_byte_count(ElementKind::Int, count)?;
        emitter.emit_free(numbers, bytes)
    });
    // +/⍳100 = 100 × 101 / 2.
    assert_eq!(output, "5050\n");
}

#[test]
fn a_for_loop_with_a_non_positive_count_runs_nothing() {
    let output = output_of_program(|emitter| {
        let i64_type = emitter.context.i64_type();
        let runs = emitter.emit_mutable_variable(i64_type.into(), "runs", emitter.int_constant(0).into())?;
        emitter.emit_for_loop(emitter.int_constant(-3), "never", |emitter, _| {
            let so_far = emitter.builder.build_load(i64_type, runs, "so_far")?.into_int_value();
            let next = emitter.builder.build_int_add(so_far, emitter.int_constant(1), "next")?;
            emitter.builder.build_store(runs, next)?;
            Ok(())
        })?;
        let total = emitter.builder.build_load(i64_type, runs, "total")?;
        emitter.emit_print_scalar(ElementKind::Int, total, DEFAULT_PRINT_PRECISION)
    });
    assert_eq!(output, "0\n");
}

#[test]
fn a_matrix_prints_with_its_shape() {
    let output = output_of_program(|emitter| {
        let count = emitter.int_constant(6);
        let block = emitter.emit_alloc_elements(ElementKind::Int, count, "matrix")?;
        emitter.emit_for_loop(count, "fill", |emitter, index| {
            let value = emitter
                .builder
                .build_int_mul(index, emitter.int_constant(10), "value")?;
            emitter.emit_store_element(ElementKind::Int, block, index, value.into())
        })?;
        let shape = [emitter.int_constant(2), emitter.int_constant(3)];
        emitter.emit_print_array(ElementKind::Int, &shape, block, DEFAULT_PRINT_PRECISION)
    });
    // 2 3⍴0 10 20 30 40 50: columns are right-aligned to the widest number in each.
    assert_eq!(output, " 0 10 20\n30 40 50\n");
}

#[test]
fn a_while_loop_with_an_if_counts_the_collatz_steps_of_27() {
    let output = output_of_program(|emitter| {
        let i64_type = emitter.context.i64_type();
        let number = emitter.emit_mutable_variable(i64_type.into(), "number", emitter.int_constant(27).into())?;
        let steps = emitter.emit_mutable_variable(i64_type.into(), "steps", emitter.int_constant(0).into())?;
        emitter.emit_while_loop(
            "collatz",
            |emitter| {
                let current = load_int(emitter, number, "current")?;
                let one = emitter.int_constant(1);
                Ok(emitter
                    .builder
                    .build_int_compare(IntPredicate::NE, current, one, "not_one")?)
            },
            |emitter| {
                let current = load_int(emitter, number, "current")?;
                let parity = emitter
                    .builder
                    .build_int_signed_rem(current, emitter.int_constant(2), "parity")?;
                let is_even =
                    emitter
                        .builder
                        .build_int_compare(IntPredicate::EQ, parity, emitter.int_constant(0), "even")?;
                emitter.emit_if(
                    is_even,
                    "step",
                    |emitter| {
                        let half = emitter
                            .builder
                            .build_int_signed_div(current, emitter.int_constant(2), "half")?;
                        emitter.builder.build_store(number, half)?;
                        Ok(())
                    },
                    |emitter| {
                        let tripled = emitter
                            .builder
                            .build_int_mul(current, emitter.int_constant(3), "tripled")?;
                        let next = emitter
                            .builder
                            .build_int_add(tripled, emitter.int_constant(1), "next")?;
                        emitter.builder.build_store(number, next)?;
                        Ok(())
                    },
                )?;
                let counted = load_int(emitter, steps, "counted")?;
                let more = emitter
                    .builder
                    .build_int_add(counted, emitter.int_constant(1), "more")?;
                emitter.builder.build_store(steps, more)?;
                Ok(())
            },
        )?;
        let total = emitter.builder.build_load(i64_type, steps, "total")?;
        emitter.emit_print_scalar(ElementKind::Int, total, DEFAULT_PRINT_PRECISION)
    });
    // 27 reaches 1 after 111 steps of n → n÷2 (even) or 3n+1 (odd), a well-known value.
    assert_eq!(output, "111\n");
}

#[test]
fn an_error_in_a_branch_not_taken_does_not_fire_and_code_after_it_is_valid() {
    let output = output_of_program(|emitter| {
        // 5 < 3 is false, so the else branch runs.
        let condition = emitter.builder.build_int_compare(
            IntPredicate::SLT,
            emitter.int_constant(5),
            emitter.int_constant(3),
            "five_below_three",
        )?;
        emitter.emit_if(
            condition,
            "check",
            |emitter| {
                emitter.emit_apl_error(RuntimeErrorKind::Length, "never raised")?;
                // Statements after an error still need a place to go.
                emitter.emit_print_scalar(
                    ElementKind::Int,
                    emitter.int_constant(-1).into(),
                    DEFAULT_PRINT_PRECISION,
                )
            },
            |emitter| emitter.emit_print_scalar(ElementKind::Int, emitter.int_constant(7).into(), 10),
        )
    });
    assert_eq!(output, "7\n");
}

#[test]
fn characters_booleans_and_doubles_print_as_apl_shows_them() {
    let output = output_of_program(|emitter| {
        let characters = emitter.emit_alloc_elements(ElementKind::Char, emitter.int_constant(3), "characters")?;
        for (index, character) in "APL".chars().enumerate() {
            let code_point = emitter.context.i32_type().const_int(character as u64, false);
            emitter.emit_store_element(
                ElementKind::Char,
                characters,
                emitter.int_constant(index as i64),
                code_point.into(),
            )?;
        }
        emitter.emit_print_array(ElementKind::Char, &[emitter.int_constant(3)], characters, 10)?;

        let booleans = emitter.emit_alloc_elements(ElementKind::Bool, emitter.int_constant(3), "booleans")?;
        for (index, bit) in [1u64, 0, 1].into_iter().enumerate() {
            let byte = emitter.context.i8_type().const_int(bit, false);
            emitter.emit_store_element(
                ElementKind::Bool,
                booleans,
                emitter.int_constant(index as i64),
                byte.into(),
            )?;
        }
        emitter.emit_print_array(ElementKind::Bool, &[emitter.int_constant(3)], booleans, 10)?;

        let third = emitter.context.f64_type().const_float(1.0 / 3.0);
        emitter.emit_print_scalar(ElementKind::Double, third.as_basic_value_enum(), 3)?;
        emitter.emit_print_scalar(
            ElementKind::Double,
            third.as_basic_value_enum(),
            DEFAULT_PRINT_PRECISION,
        )
    });
    // ÷3 with ⎕PP←3, then with the default ⎕PP←10.
    assert_eq!(output, "APL\n1 0 1\n0.333\n0.3333333333\n");
}

#[test]
fn a_reduction_emitted_with_the_reduction_add_is_vectorised() {
    let context = Context::create();
    let module = context.create_module("reduction");
    let f64_type = context.f64_type();
    let pointer_type = context.ptr_type(inkwell::AddressSpace::default());
    let function_type = f64_type.fn_type(&[pointer_type.into(), context.i64_type().into()], false);
    let function = module.add_function("sum_doubles", function_type, None);
    let emitter = FunctionEmitter::for_function(&module, function);
    let data = function.get_nth_param(0).unwrap().into_pointer_value();
    let count = function.get_nth_param(1).unwrap().into_int_value();
    let sum = emitter
        .emit_mutable_variable(f64_type.into(), "sum", f64_type.const_zero().into())
        .unwrap();
    emitter
        .emit_for_loop(count, "sum", |emitter, index| {
            let element = emitter
                .emit_load_element(ElementKind::Double, data, index)?
                .into_float_value();
            let partial = emitter.builder.build_load(f64_type, sum, "partial")?.into_float_value();
            let next = emitter.emit_reduction_float_add(partial, element, true, "next")?;
            emitter.builder.build_store(sum, next)?;
            Ok(())
        })
        .unwrap();
    let total = emitter.builder.build_load(f64_type, sum, "total").unwrap();
    emitter.builder.build_return(Some(&total)).unwrap();
    verify_module(&module).unwrap();

    let target_machine = create_target_machine(&CodegenOptions::default()).unwrap();
    prepare_module_for_target(&module, &target_machine);
    optimise_module(&module, &target_machine).unwrap();
    let ir = module.print_to_string().to_string();
    // The stack slot became a register (mem2reg) and the loop a vector loop.
    assert!(!ir.contains("alloca"), "{ir}");
    assert!(ir.contains("x double>"), "{ir}");
}

/// `aplc_main`: prints `*1`, `2*0.5`, `⍟10` and `1○1` (exp, power, natural log, sine) of doubles read with volatile
/// loads from a global, so that LLVM cannot fold them and must call the C maths library at run time.
fn build_maths_library_program(context: &Context) -> Module<'_> {
    let module = context.create_module("maths_library");
    let f64_type = context.f64_type();
    let inputs = module.add_global(f64_type.array_type(3), None, "inputs");
    inputs.set_initializer(&f64_type.const_array(&[
        f64_type.const_float(1.0),
        f64_type.const_float(2.0),
        f64_type.const_float(10.0),
    ]));
    {
        let emitter = FunctionEmitter::for_new_program_entry(&module);
        let input = |position: i64| {
            let pointer = emitter
                .emit_element_pointer(
                    ElementKind::Double,
                    inputs.as_pointer_value(),
                    emitter.int_constant(position),
                )
                .unwrap();
            let load = emitter.builder.build_load(f64_type, pointer, "input").unwrap();
            load.as_instruction_value().unwrap().set_volatile(true).unwrap();
            load.into_float_value()
        };
        let (one, two, ten) = (input(0), input(1), input(2));
        let results = [
            emitter.emit_double_intrinsic("llvm.exp", &[one], "exp").unwrap(),
            emit_square_root_as_power(&emitter, two, one).unwrap(),
            emitter.emit_double_intrinsic("llvm.log", &[ten], "log").unwrap(),
            emitter.emit_double_intrinsic("llvm.sin", &[one], "sin").unwrap(),
        ];
        for result in results {
            emitter
                .emit_print_scalar(ElementKind::Double, result.into(), DEFAULT_PRINT_PRECISION)
                .unwrap();
        }
        emitter.emit_return_status(0).unwrap();
    }
    verify_module(&module).expect("the emitted module is valid");
    module
}

/// `base * one ÷ 2` through `llvm.pow`, written as a generic function as the translation will be.
fn emit_square_root_as_power<'ctx>(
    emitter: &FunctionEmitter<'_, 'ctx>,
    base: FloatValue<'ctx>,
    one: FloatValue<'ctx>,
) -> Result<FloatValue<'ctx>, CodegenError> {
    let half = emitter
        .builder
        .build_float_mul(one, emitter.context.f64_type().const_float(0.5), "half")?;
    emitter.emit_double_intrinsic("llvm.pow", &[base, half], "pow")
}

/// e, √2, ln 10 and sin 1 to ten significant digits (⎕PP←10).
const MATHS_LIBRARY_OUTPUT: &str = "2.718281828\n1.414213562\n2.302585093\n0.8414709848\n";

#[test]
fn maths_intrinsics_reach_the_c_maths_library_in_the_jit() {
    let context = Context::create();
    let module = build_maths_library_program(&context);
    let (status, output) = capture_output_of(|| unsafe {
        run_module_in_jit(&module, PROGRAM_ENTRY_FUNCTION_NAME, &CodegenOptions::default())
    });
    assert_eq!(status, Ok(0));
    assert_eq!(String::from_utf8(output).unwrap(), MATHS_LIBRARY_OUTPUT);
}

#[test]
fn maths_intrinsics_link_against_libm_in_aot() {
    use aplc::codegen::llvm::aot::{compile_module_to_executable, find_runtime_library};
    let context = Context::create();
    let module = build_maths_library_program(&context);
    let directory = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("llvm_emit_maths");
    std::fs::create_dir_all(&directory).unwrap();
    let executable = directory.join("program");
    let runtime_library = find_runtime_library().unwrap();
    compile_module_to_executable(
        &module,
        PROGRAM_ENTRY_FUNCTION_NAME,
        &CodegenOptions::default(),
        runtime_library.path(),
        &executable,
    )
    .unwrap();
    let output = std::process::Command::new(&executable).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stdout), MATHS_LIBRARY_OUTPUT);
}

#[test]
fn an_unknown_intrinsic_is_an_error_not_a_crash() {
    let context = Context::create();
    let module = context.create_module("unknown_intrinsic");
    let emitter = FunctionEmitter::for_new_program_entry(&module);
    let one = context.f64_type().const_float(1.0);
    let result = emitter.emit_double_intrinsic("llvm.no_such_thing", &[one], "nothing");
    assert_eq!(
        result.err(),
        Some(CodegenError::Builder {
            message: "llvm.no_such_thing is not an LLVM intrinsic on doubles".to_string()
        })
    );
}
