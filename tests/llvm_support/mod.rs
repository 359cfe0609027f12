//! Small LLVM modules built by hand with inkwell, shared by the `llvm_*` tests: they stand in for what code
//! generation from the memory IR will produce, and exercise the run-time table, the JIT and AOT end to end.
//! Every builder returns a module the tests verify before use.

#![allow(dead_code)] // Each test file uses some of the builders.

use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::values::{BasicValueEnum, FunctionValue, IntValue, PointerValue};
use inkwell::{AddressSpace, IntPredicate};

use aplc::codegen::llvm::runtime_table::{declare_runtime_function, RuntimeFunctionId, RUNTIME_FUNCTIONS};
use aplc::codegen::llvm::PROGRAM_ENTRY_FUNCTION_NAME;
use aplc_runtime::abi::{ElementKind, RuntimeErrorKind};

/// The message the LENGTH ERROR module reports.
pub const LENGTH_ERROR_MESSAGE: &str = "vectors of 2 and 3 elements";

/// `aplc_main`: allocates `n` i64s with `aplrt_alloc`, fills them with 1..n, sums them in a second loop, stores the
/// sum in a one-element block, prints it as a scalar with `aplrt_print_array`, frees both blocks and returns 0.
pub fn build_sum_of_first_integers_module(context: &Context, n: u64) -> Module<'_> {
    let module = context.create_module("sum_of_first_integers");
    let builder = context.create_builder();
    let main_function = add_program_entry(&module);
    builder.position_at_end(context.append_basic_block(main_function, "entry"));
    let i64_type = context.i64_type();
    let count = i64_type.const_int(n, false);
    let byte_count = builder
        .build_int_mul(count, i64_type.const_int(8, false), "byte_count")
        .unwrap();
    let numbers = call_alloc(&module, &builder, byte_count, "numbers");

    // for index in 0..n: numbers[index] = index + 1
    build_counted_loop(
        &builder,
        main_function,
        count,
        i64_type.const_zero().into(),
        "fill",
        |index, unchanged| {
            let element = element_pointer(&builder, numbers, index, "element");
            let value = builder
                .build_int_add(index, i64_type.const_int(1, false), "value")
                .unwrap();
            builder.build_store(element, value).unwrap();
            unchanged
        },
    );

    // sum = +/ numbers
    let sum = build_counted_loop(
        &builder,
        main_function,
        count,
        i64_type.const_zero().into(),
        "sum",
        |index, sum| {
            let element = element_pointer(&builder, numbers, index, "element");
            let value = builder.build_load(i64_type, element, "value").unwrap().into_int_value();
            builder
                .build_int_add(sum.into_int_value(), value, "sum_next")
                .unwrap()
                .into()
        },
    );

    let result = call_alloc(&module, &builder, i64_type.const_int(8, false), "result");
    builder.build_store(result, sum).unwrap();
    call_print_scalar(&module, &builder, ElementKind::Int, result);
    call_free(&module, &builder, numbers, byte_count);
    call_free(&module, &builder, result, i64_type.const_int(8, false));
    builder.build_return(Some(&context.i32_type().const_zero())).unwrap();
    module
}

/// `aplc_main`: prints the integer scalar 7, then stops with a LENGTH ERROR carrying [`LENGTH_ERROR_MESSAGE`].
pub fn build_length_error_module(context: &Context) -> Module<'_> {
    let module = context.create_module("length_error");
    let builder = context.create_builder();
    let main_function = add_program_entry(&module);
    builder.position_at_end(context.append_basic_block(main_function, "entry"));
    let i64_type = context.i64_type();
    let seven = call_alloc(&module, &builder, i64_type.const_int(8, false), "seven");
    builder.build_store(seven, i64_type.const_int(7, false)).unwrap();
    call_print_scalar(&module, &builder, ElementKind::Int, seven);
    let message = builder
        .build_global_string_ptr(LENGTH_ERROR_MESSAGE, "message")
        .unwrap();
    let error_function = declare_runtime_function(&module, RuntimeFunctionId::Error);
    let arguments = [
        context
            .i32_type()
            .const_int(RuntimeErrorKind::Length.code() as u64, false)
            .into(),
        message.as_pointer_value().into(),
        i64_type.const_int(LENGTH_ERROR_MESSAGE.len() as u64, false).into(),
    ];
    builder.build_call(error_function, &arguments, "").unwrap();
    builder.build_unreachable().unwrap();
    module
}

/// `aplc_main`: stores the address of every run-time table function into a global with volatile stores (so that
/// the linker must resolve each of them), then returns 0.
pub fn build_module_referencing_every_runtime_function(context: &Context) -> Module<'_> {
    let module = context.create_module("every_runtime_function");
    let builder = context.create_builder();
    let main_function = add_program_entry(&module);
    builder.position_at_end(context.append_basic_block(main_function, "entry"));
    let pointer_type = context.ptr_type(AddressSpace::default());
    let sink = module.add_global(pointer_type, None, "function_address_sink");
    sink.set_initializer(&pointer_type.const_null());
    for runtime_function in RUNTIME_FUNCTIONS {
        let declaration = declare_runtime_function(&module, runtime_function.id);
        let store = builder
            .build_store(
                sink.as_pointer_value(),
                declaration.as_global_value().as_pointer_value(),
            )
            .unwrap();
        store.set_volatile(true).unwrap();
    }
    builder.build_return(Some(&context.i32_type().const_zero())).unwrap();
    module
}

/// `aplc_main`: prints, as integer scalars and in order, the values `compute` builds (calls of run-time functions,
/// typically), then returns 0.
pub fn build_program_printing_integers<'ctx>(
    context: &'ctx Context,
    name: &str,
    compute: impl FnOnce(&Module<'ctx>, &Builder<'ctx>) -> Vec<IntValue<'ctx>>,
) -> Module<'ctx> {
    let module = context.create_module(name);
    let builder = context.create_builder();
    let main_function = add_program_entry(&module);
    builder.position_at_end(context.append_basic_block(main_function, "entry"));
    let i64_type = context.i64_type();
    for value in compute(&module, &builder) {
        let block = call_alloc(&module, &builder, i64_type.const_int(8, false), "scalar");
        builder.build_store(block, value).unwrap();
        call_print_scalar(&module, &builder, ElementKind::Int, block);
        call_free(&module, &builder, block, i64_type.const_int(8, false));
    }
    builder.build_return(Some(&context.i32_type().const_zero())).unwrap();
    module
}

/// A call of a run-time function that returns an `i64`, with constant `i64` arguments.
pub fn call_integer_function<'ctx>(
    module: &Module<'ctx>,
    builder: &Builder<'ctx>,
    id: RuntimeFunctionId,
    arguments: &[i64],
) -> IntValue<'ctx> {
    let function = declare_runtime_function(module, id);
    let i64_type = module.get_context().i64_type();
    let arguments: Vec<_> = arguments
        .iter()
        .map(|&argument| i64_type.const_int(argument as u64, true).into())
        .collect();
    builder
        .build_call(function, &arguments, "result")
        .unwrap()
        .try_as_basic_value()
        .basic()
        .unwrap()
        .into_int_value()
}

/// Calls `aplrt_alloc(bytes)` and frees the block (for checking allocation failures).
pub fn call_alloc_and_free<'ctx>(module: &Module<'ctx>, builder: &Builder<'ctx>, bytes: i64) {
    let byte_count = module.get_context().i64_type().const_int(bytes as u64, true);
    let block = call_alloc(module, builder, byte_count, "block");
    call_free(module, builder, block, byte_count);
}

/// Reads the file at `path` with `aplrt_read_file`, frees the contents, and returns the length it reported.
pub fn call_read_file_length<'ctx>(module: &Module<'ctx>, builder: &Builder<'ctx>, path: &str) -> IntValue<'ctx> {
    let context = module.get_context();
    let i64_type = context.i64_type();
    let path_text = builder.build_global_string_ptr(path, "path").unwrap();
    let length_slot = builder.build_alloca(i64_type, "length_slot").unwrap();
    let read_function = declare_runtime_function(module, RuntimeFunctionId::ReadFile);
    let arguments = [
        path_text.as_pointer_value().into(),
        i64_type.const_int(path.len() as u64, false).into(),
        length_slot.into(),
    ];
    let contents = builder
        .build_call(read_function, &arguments, "contents")
        .unwrap()
        .try_as_basic_value()
        .basic()
        .unwrap()
        .into_pointer_value();
    let length = builder
        .build_load(i64_type, length_slot, "length")
        .unwrap()
        .into_int_value();
    call_free(module, builder, contents, length);
    length
}

/// `double sum_doubles(ptr data, i64 n)`: a sum reduction loop whose `fadd` carries the fast-math flags given (the
/// only way LLVM may reorder the additions and so vectorise the loop).
pub fn build_double_sum_module(context: &Context, flags: inkwell::values::FastMathFlags) -> Module<'_> {
    let module = context.create_module("double_sum");
    let builder = context.create_builder();
    let f64_type = context.f64_type();
    let pointer_type = context.ptr_type(AddressSpace::default());
    let function_type = f64_type.fn_type(&[pointer_type.into(), context.i64_type().into()], false);
    let function = module.add_function("sum_doubles", function_type, None);
    builder.position_at_end(context.append_basic_block(function, "entry"));
    let data = function.get_nth_param(0).unwrap().into_pointer_value();
    let count = function.get_nth_param(1).unwrap().into_int_value();
    let sum = build_counted_loop(
        &builder,
        function,
        count,
        f64_type.const_zero().into(),
        "sum",
        |index, sum| {
            let element = unsafe { builder.build_in_bounds_gep(f64_type, data, &[index], "element") }.unwrap();
            let value = builder
                .build_load(f64_type, element, "value")
                .unwrap()
                .into_float_value();
            let next = builder
                .build_float_add(sum.into_float_value(), value, "sum_next")
                .unwrap();
            next.as_instruction().unwrap().set_fast_math_flags(flags).unwrap();
            next.into()
        },
    );
    builder.build_return(Some(&sum)).unwrap();
    module
}

/// Adds `i32 aplc_main()`.
pub fn add_program_entry<'ctx>(module: &Module<'ctx>) -> FunctionValue<'ctx> {
    let context = module.get_context();
    module.add_function(
        PROGRAM_ENTRY_FUNCTION_NAME,
        context.i32_type().fn_type(&[], false),
        None,
    )
}

/// Builds `for index in 0..count { carried = body(index, carried) }` at the builder's position and leaves the
/// builder after the loop; returns the final carried value (the initial one when `count` is 0).
pub fn build_counted_loop<'ctx>(
    builder: &Builder<'ctx>,
    function: FunctionValue<'ctx>,
    count: IntValue<'ctx>,
    initial: BasicValueEnum<'ctx>,
    name: &str,
    body: impl FnOnce(IntValue<'ctx>, BasicValueEnum<'ctx>) -> BasicValueEnum<'ctx>,
) -> BasicValueEnum<'ctx> {
    let context = function.get_type().get_context();
    let i64_type = context.i64_type();
    let preheader = builder.get_insert_block().unwrap();
    let header = context.append_basic_block(function, &format!("{name}_header"));
    let body_block = context.append_basic_block(function, &format!("{name}_body"));
    let exit = context.append_basic_block(function, &format!("{name}_exit"));
    builder.build_unconditional_branch(header).unwrap();

    builder.position_at_end(header);
    let index = builder.build_phi(i64_type, &format!("{name}_index")).unwrap();
    let carried = builder
        .build_phi(initial.get_type(), &format!("{name}_carried"))
        .unwrap();
    let index_value = index.as_basic_value().into_int_value();
    let in_range = builder
        .build_int_compare(IntPredicate::SLT, index_value, count, "in_range")
        .unwrap();
    builder.build_conditional_branch(in_range, body_block, exit).unwrap();

    builder.position_at_end(body_block);
    let next_carried = body(index_value, carried.as_basic_value());
    let next_index = builder
        .build_int_add(index_value, i64_type.const_int(1, false), "next_index")
        .unwrap();
    let latch = builder.get_insert_block().unwrap();
    builder.build_unconditional_branch(header).unwrap();

    index.add_incoming(&[(&i64_type.const_zero(), preheader), (&next_index, latch)]);
    carried.add_incoming(&[(&initial, preheader), (&next_carried, latch)]);
    builder.position_at_end(exit);
    carried.as_basic_value()
}

fn element_pointer<'ctx>(
    builder: &Builder<'ctx>,
    base: PointerValue<'ctx>,
    index: IntValue<'ctx>,
    name: &str,
) -> PointerValue<'ctx> {
    let i64_type = index.get_type();
    unsafe { builder.build_in_bounds_gep(i64_type, base, &[index], name) }.unwrap()
}

fn call_alloc<'ctx>(
    module: &Module<'ctx>,
    builder: &Builder<'ctx>,
    byte_count: IntValue<'ctx>,
    name: &str,
) -> PointerValue<'ctx> {
    let alloc_function = declare_runtime_function(module, RuntimeFunctionId::Alloc);
    builder
        .build_call(alloc_function, &[byte_count.into()], name)
        .unwrap()
        .try_as_basic_value()
        .basic()
        .unwrap()
        .into_pointer_value()
}

fn call_free<'ctx>(module: &Module<'ctx>, builder: &Builder<'ctx>, block: PointerValue<'ctx>, bytes: IntValue<'ctx>) {
    let free_function = declare_runtime_function(module, RuntimeFunctionId::Free);
    builder
        .build_call(free_function, &[block.into(), bytes.into()], "")
        .unwrap();
}

/// `aplrt_print_array(kind, 0, null, data, 10)`: prints a scalar with `⎕PP←10`.
fn call_print_scalar<'ctx>(
    module: &Module<'ctx>,
    builder: &Builder<'ctx>,
    kind: ElementKind,
    data: PointerValue<'ctx>,
) {
    let context = module.get_context();
    let print_function = declare_runtime_function(module, RuntimeFunctionId::PrintArray);
    let arguments = [
        context.i32_type().const_int(kind.code() as u64, false).into(),
        context.i64_type().const_zero().into(),
        context.ptr_type(AddressSpace::default()).const_null().into(),
        data.into(),
        context.i32_type().const_int(10, false).into(),
    ];
    builder.build_call(print_function, &arguments, "").unwrap();
}
