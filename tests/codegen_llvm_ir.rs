//! The LLVM IR the backend generates: verified as translated, with descriptive names, and optimised into
//! vectorised loops where the loop IR allows it.

mod codegen_support;

use std::path::Path;

use aplc::codegen::llvm::llvm_ir_text;
use aplc::codegen::llvm::target::CodegenOptions;
use codegen_support::{lowered_program_showing_result, source_file, typed_tail};

fn loop_program_of_file(relative_path: &str) -> aplc::loops::ir::Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative_path);
    let text = std::fs::read_to_string(&path).expect("a readable program");
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let typed = typed_tail(&source_file(&name, &text)).expect("well typed");
    lowered_program_showing_result(&typed).expect("lowers")
}

/// A corpus program with its size made large enough for its reduction to run in parallel: a construct with less work
/// than the default threshold, known at compile time, runs sequentially and has no outlined body.
fn large_loop_program_of_file(relative_path: &str, replacements: &[(&str, &str)]) -> aplc::loops::ir::Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative_path);
    let mut text = std::fs::read_to_string(&path).expect("a readable program");
    for (from, to) in replacements {
        assert!(text.contains(from), "{from} is not in {relative_path}");
        text = text.replace(from, to);
    }
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let typed = typed_tail(&source_file(&name, &text)).expect("well typed");
    lowered_program_showing_result(&typed).expect("lowers")
}

fn large_signal_tail() -> aplc::loops::ir::Program {
    large_loop_program_of_file(
        "apl-tests/tail/signal.tail",
        &[
            ("<int>100 = iotaV(100)", "<int>100000 = iotaV(100000)"),
            ("<int>101", "<int>100001"),
        ],
    )
}

fn typed_loop_program(name: &str, text: &str) -> aplc::loops::ir::Program {
    let typed = typed_tail(&source_file(name, text)).expect("well typed");
    lowered_program_showing_result(&typed).expect("lowers")
}

fn optimised_ir(program: &aplc::loops::ir::Program) -> String {
    llvm_ir_text(program, &CodegenOptions::default(), true).expect("the program compiles")
}

fn unoptimised_ir(program: &aplc::loops::ir::Program) -> String {
    llvm_ir_text(program, &CodegenOptions::default(), false).expect("the program translates")
}

/// The text of the function `name` in an LLVM module (from its `define` line to its closing brace).
fn function_text<'a>(ir: &'a str, name: &str) -> &'a str {
    let start = ir
        .find(&format!("@{name}("))
        .and_then(|position| ir[..position].rfind("define "))
        .unwrap_or_else(|| panic!("no function {name}:\n{ir}"));
    let end = ir[start..].find("\n}\n").map_or(ir.len(), |length| start + length + 3);
    &ir[start..end]
}

/// The name of the first outlined function (a parallel body) of an LLVM module.
fn first_parallel_body_name(ir: &str) -> &str {
    ir.lines()
        .find_map(|line| line.strip_prefix("define internal void @"))
        .and_then(|rest| rest.split('(').next())
        .unwrap_or_else(|| panic!("no outlined parallel body:\n{ir}"))
}

/// `+/ signal ⍳100000` is a parallel reduction: its chunks are folded in an outlined function whose loop over the
/// elements vectorises into a sum of vectors of doubles, whatever the host's vector width; the program's entry only
/// combines the partial sums (one per chunk) and computes no element.
fn assert_the_sum_vectorises_in_the_parallel_body(ir: &str) {
    let body_name = first_parallel_body_name(ir);
    assert!(body_name.starts_with("aplc_parallel_"), "{body_name}");
    let body = function_text(ir, body_name);
    assert!(body.contains("llvm.loop"), "no loop in the parallel body:\n{body}");
    assert!(
        body.lines()
            .any(|line| line.contains("fadd reassoc nsz <") && line.contains("x double>")),
        "the sum of a chunk is not a vector reduction:\n{ir}"
    );
    // The entry combines the partial sums (LLVM may do that with vectors too) but computes no element.
    let entry = function_text(ir, "aplc_main");
    assert!(
        !entry.contains("fdiv"),
        "element work outside the parallel body:\n{entry}"
    );
    assert!(
        entry.contains(&format!("@aplrt_parallel_for(ptr nonnull @{body_name}")),
        "{entry}"
    );
    assert!(ir.contains("!\"llvm.loop.isvectorized\""), "{ir}");
}

#[test]
fn the_signal_tail_program_vectorises_in_its_parallel_reduction() {
    let program = large_signal_tail();
    assert_the_sum_vectorises_in_the_parallel_body(&optimised_ir(&program));
}

#[test]
fn the_signal_apl_program_vectorises_in_its_parallel_reduction() {
    let program = large_loop_program_of_file("apl-tests/programs/signal.apl", &[("⍳100", "⍳100000")]);
    assert_the_sum_vectorises_in_the_parallel_body(&optimised_ir(&program));
}

/// The sum benchmark reads its size at run time (`N←100000000 ⎕ArgInt 1`), so LLVM cannot fold `+/⍳N` into its
/// value, as it did while N was a constant of the source: the optimised module reads the argument and keeps a
/// vectorised loop of int additions in the outlined body of the parallel reduction.
#[test]
fn the_sum_benchmark_keeps_its_loop_because_its_size_is_read_at_run_time() {
    let program = loop_program_of_file("bench/programs/sum/sum.apl");
    let ir = optimised_ir(&program);
    let entry = function_text(&ir, "aplc_main");
    assert!(
        entry.contains("call i64 @aplrt_argument_int(i64 1, i64 100000000)"),
        "{entry}"
    );
    assert!(
        !ir.contains("5000000050000000"),
        "the sum was folded into its value:\n{ir}"
    );
    let body_name = first_parallel_body_name(&ir);
    let body = function_text(&ir, body_name);
    assert!(body.contains("llvm.loop"), "no loop in the parallel body:\n{body}");
    assert!(
        body.lines()
            .any(|line| line.contains("add <") && line.contains("x i64>")),
        "the chunk's sum is not a vector of int additions:\n{body}"
    );
}

#[test]
fn the_translated_module_names_values_after_the_loop_ir() {
    let program = loop_program_of_file("apl-tests/tail/signal.tail");
    let printed_loop_ir = aplc::loops::print_program(&program);
    let ir = unoptimised_ir(&program);
    // The loop IR calls the accumulator acc<N> and the block mem1 (see the loops snapshot of signal).
    let accumulator = printed_loop_ir
        .split_whitespace()
        .find(|word| word.starts_with("acc"))
        .expect("an accumulator in the loop IR");
    assert!(ir.contains(&format!("%{accumulator} = alloca double")), "{ir}");
    // Every let-bound computation keeps its loop-IR name, e.g. `let j16 : int = (99 - k15)` becomes `%j16 = sub`.
    let let_bound_names: Vec<&str> = printed_loop_ir
        .lines()
        .filter_map(|line| line.trim().strip_prefix("let "))
        .filter_map(|rest| rest.split_whitespace().next())
        .collect();
    assert!(!let_bound_names.is_empty(), "{printed_loop_ir}");
    for name in let_bound_names {
        assert!(ir.contains(&format!("%{name} = ")), "%{name} missing:\n{ir}");
    }
    assert!(ir.contains("define i32 @aplc_main()"), "{ir}");
    // signal allocates nothing (0,⍳N is recomputed); a materialised array keeps its block's name.
    let with_block = typed_loop_program("block.tail", "let a = mem(iota(5)) in reduce(addi, 0, a)");
    let block_ir = unoptimised_ir(&with_block);
    assert!(
        block_ir.contains("%mem1 = call align 64 ptr @aplrt_alloc"),
        "{block_ir}"
    );
    assert!(
        ir.contains("call void @aplrt_print_array(i32 2, i64 0, ptr null"),
        "{ir}"
    );
}

#[test]
fn only_associative_double_reductions_may_reassociate() {
    // -/ is a right fold that must keep its order; +/ and ⌈/ may be reordered.
    let minus = typed_loop_program("minus.tail", "reduce(subd, 0.0, each(i2d, iota(100)))");
    let minus_ir = unoptimised_ir(&minus);
    assert!(minus_ir.contains("fsub double"), "{minus_ir}");
    assert!(!minus_ir.contains("reassoc"), "{minus_ir}");
    let plus = typed_loop_program("plus.tail", "reduce(addd, 0.0, each(i2d, iota(100)))");
    assert!(unoptimised_ir(&plus).contains("fadd reassoc nsz double"));
    let max = typed_loop_program("max.tail", "reduce(maxd, ~1000.0, each(i2d, iota(100)))");
    assert!(unoptimised_ir(&max).contains("call reassoc nsz double @llvm.maxnum.f64"));
    // An ordinary addition outside a reduction gets no flags.
    let each = typed_loop_program("each.tail", "each(fn x => addd(x, 1.5), each(i2d, iota(100)))");
    assert!(!unoptimised_ir(&each).contains("reassoc"));
}

#[test]
fn a_row_sum_is_a_nested_reduction_with_its_site_and_reassociates() {
    // The rows of a double matrix of run-time width are summed by a nested parallel reduction per row
    // (`passes::interchange` makes the row's fold one), which carries the APL reduction's site for its error report;
    // its chunks are still folded with reassociated additions, their check after each chunk's loop.
    let source = "n←100 ⎕ArgInt 1\nm←(3,n)⍴÷⍳3×n\n⎕←+/m\n";
    let program = typed_loop_program("rows.apl", source);
    let printed = aplc::loops::print_program(&program);
    let reduction = source.find("+/").expect("the source has a reduction");
    let nested = printed
        .lines()
        .find(|line| line.starts_with("  reduce acc") && line.contains("commutative for k"))
        .unwrap_or_else(|| panic!("the row is no nested reduction:\n{printed}"));
    assert!(
        nested.ends_with(&format!(" at {reduction}..{} {{", reduction + 2)),
        "{nested}"
    );
    let ir = unoptimised_ir(&program);
    assert!(ir.contains("fadd reassoc nsz double"), "{ir}");
}

#[test]
fn a_row_sum_of_a_known_width_within_one_chunk_stays_a_sequential_fold_with_its_site() {
    // A row of 26 elements is one chunk whatever happens: its fold stays the loop LLVM unrolls best, and the step's
    // site (for the error report) must not hide that it is a reduction (reassociated, its check after the loop).
    let program = typed_loop_program("rows.apl", "m←(3,26)⍴÷⍳78\n⎕←+/m\n");
    let printed = aplc::loops::print_program(&program);
    assert!(printed.contains(":= at("), "the row step has no site:\n{printed}");
    let ir = unoptimised_ir(&program);
    assert!(ir.contains("fadd reassoc nsz double"), "{ir}");
}

#[test]
fn an_explicit_check_calls_aplrt_error_with_its_kind() {
    // zipWith of 3 and 4 elements: the loop IR's explicit LENGTH ERROR check (kind 1 in the run-time ABI).
    let program = typed_loop_program("length.tail", "zipWith(addi, iota(3), iota(4))");
    let ir = unoptimised_ir(&program);
    assert!(ir.contains("call void @aplrt_error(i32 1,"), "{ir}");
}

#[test]
fn a_baseline_cpu_also_gets_the_vectorised_signal_loop() {
    // x86-64 without extensions still has SSE2, two doubles per vector register.
    let program = large_signal_tail();
    let options = CodegenOptions {
        target_cpu: Some("x86-64".to_string()),
        ..CodegenOptions::default()
    };
    let ir = llvm_ir_text(&program, &options, true).expect("the program compiles");
    assert!(ir.contains("\"target-cpu\"=\"x86-64\""), "{ir}");
    assert_the_sum_vectorises_in_the_parallel_body(&ir);
}

#[test]
fn a_variable_used_before_its_definition_is_an_internal_error() {
    use aplc::codegen::llvm::error::CodegenError;
    use aplc::loops::ir::{Expr, Program, ResultValue, ScalarType, Stmt, Var};
    let undefined = Var {
        id: 7,
        ty: ScalarType::Int,
        hint: "x".into(),
    };
    let program = Program {
        functions: Vec::new(),
        body: vec![Stmt::PrintScalar {
            value: Expr::Var(undefined),
            precision: Expr::Int(10),
        }],
        result: ResultValue::Scalar(Expr::Int(0)),
    };
    let error = llvm_ir_text(&program, &CodegenOptions::default(), false).expect_err("an undefined variable");
    assert_eq!(
        error,
        CodegenError::Builder {
            message: "x7 is used before it is defined".to_string()
        }
    );
}

#[test]
fn nan_checks_implied_by_their_uses_are_left_out() {
    // 2×x+1 summed over enough elements to run in parallel: the product is an argument of the sum, the sum only feeds
    // the reduction, whose accumulators are checked after their loops: one not-finite test (`|x| ueq ∞`: NaN or ∞)
    // of each chunk's partial sum (in the parallel body, before it is inlined into its entry), one of the total, and
    // none (`|x| one ∞`) on the arguments.
    let sum = typed_loop_program(
        "nan_sum.tail",
        "reduce(addd, 0.0, each(fn x => addd(muld(i2d(x), 2.0), 1.0), iota(100000)))",
    );
    let sum_ir = unoptimised_ir(&sum);
    assert_eq!(sum_ir.matches("fcmp ueq").count(), 2, "{sum_ir}");
    assert_eq!(
        function_text(&sum_ir, "aplc_parallel_k2_body")
            .matches("fcmp ueq")
            .count(),
        1,
        "{sum_ir}"
    );
    assert_eq!(sum_ir.matches("fcmp one").count(), 0, "{sum_ir}");
    // Stored, the outer sum keeps its check; ⌈/ (maxnum drops NaN) keeps the check of each element it reads.
    let not_finite_tests = |text: &str| {
        unoptimised_ir(&typed_loop_program("checks.tail", text))
            .matches("fcmp ueq")
            .count()
    };
    assert_eq!(
        not_finite_tests("each(fn x => addd(muld(i2d(x), 2.0), 1.0), iota(10))"),
        1
    );
    assert_eq!(
        not_finite_tests("reduce(maxd, ~1.0, each(fn x => addd(muld(i2d(x), 2.0), 1.0), iota(10)))"),
        1
    );
    // A dividend's ∞ makes the quotient ∞, so its check is implied; but x÷∞ is 0, so a divisor keeps its own check.
    assert_eq!(
        not_finite_tests("each(fn x => divd(muld(i2d(x), 2.0), 3.0), iota(10))"),
        1
    );
    assert_eq!(
        not_finite_tests("each(fn x => divd(3.0, muld(i2d(x), 2.0)), iota(10))"),
        2
    );
}

#[test]
fn long_literal_vectors_are_copied_from_constant_arrays() {
    // 20 numbers: one private constant array copied into the block, not 20 stores (a 20,000-number strand took
    // seconds to compile store by store); 15 numbers stay stores.
    let program_with_literal = |count: i64| {
        let numbers: Vec<String> = (1..=count).rev().map(|n| n.to_string()).collect();
        let program = typed_loop_program("literal.apl", &format!("x←{}\n+/x[⍋x]", numbers.join(" ")));
        unoptimised_ir(&program)
    };
    let long = program_with_literal(20);
    assert_eq!(
        long.matches("private unnamed_addr constant [20 x i64]").count(),
        1,
        "{long}"
    );
    assert!(long.contains("call void @llvm.memcpy"), "{long}");
    // (a 20 stored elsewhere is the count the parallel loop over x captures, not an element)
    assert!(!long.contains("store i64 20, ptr %element"), "{long}");
    let short = program_with_literal(15);
    assert!(!short.contains("constant [15 x i64]"), "{short}");
    assert!(short.contains("store i64 15, ptr %element"), "{short}");
}

#[test]
fn a_sum_of_booleans_is_computed_and_compared_in_bytes() {
    // c, a sum of four booleans (0 to 4), is read twice by one element-wise consumer, so it is a `let` in the loop of
    // the reduction: computed in i8 and compared in i8 (src/codegen/llvm/translate/narrow.rs).
    let program = typed_loop_program(
        "count.apl",
        "n←100 ⎕ArgInt 1\nv←(⍳n)>50\nw←(⍳n)>20\nc←v+w+v+w\n⎕←+/(c=2)∨c=3\n",
    );
    let ir = unoptimised_ir(&program);
    assert!(ir.contains("add nsw i8"), "{ir}");
    assert!(ir.contains("icmp eq i8"), "{ir}");
}

#[test]
fn a_sum_of_booleans_beyond_a_byte_takes_16_bits_and_other_ints_stay_64() {
    // 130 booleans sum to at most 130, beyond i8's 127.
    let terms = vec!["v"; 130].join("+");
    let program = typed_loop_program("wide.apl", &format!("n←100 ⎕ArgInt 1\nv←(⍳n)>50\n⎕←+/{terms}\n"));
    assert!(unoptimised_ir(&program).contains("add nsw i16"));
    // An int that is not a boolean has no small range: the sum stays 64 bits.
    let program = typed_loop_program("ints.apl", "n←100 ⎕ArgInt 1\nv←(⍳n)>50\n⎕←+/v+⍳n\n");
    let ir = unoptimised_ir(&program);
    assert!(!ir.contains("add nsw i8") && !ir.contains("add nsw i16"), "{ir}");
}
