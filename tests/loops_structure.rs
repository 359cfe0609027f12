//! Structure checks on the printed/lowered loop IR: which programs fuse into one loop, which allocate nothing new,
//! and how power loops are double buffered; plus insta snapshots of the printed IR for a few programs, and the list of
//! operators the lowering does not support yet (each must give a NONCE error value, never a panic).

mod loops_common;

use aplc::loops::ir::{self, Stmt};
use loops_common::{loop_ir, lower_checked, run_loops, run_tail, typed_program};

fn counts(text: &str) -> ir::Counts {
    ir::count(&loop_ir(text).0)
}

/// Allocations in the top-level statement list and inside loops, separately.
fn allocations_outside_and_inside_loops(program: &ir::Program) -> (usize, usize) {
    let outside = program.body.iter().filter(|s| matches!(s, Stmt::Alloc { .. })).count();
    (outside, ir::count(program).allocations - outside)
}

#[test]
fn signal_shape_is_one_loop_without_allocation() {
    let counts = counts("reduce(addd, 0.0, each(fn x => divd(1.0, i2d(x)), iota(100)))");
    assert_eq!(counts.allocations, 0);
    assert_eq!(counts.loops, 1);
}

#[test]
fn scalar_regions_fuse_into_one_loop() {
    // +/{(⍵×⍵)+2×⍵}¨⍳n allocates nothing.
    let fused = counts("reduce(addi, 0, each(fn w => addi(muli(w, w), muli(2, w)), iota(1000)))");
    assert_eq!((fused.allocations, fused.loops), (0, 1));
    // z←(x×x)+(y×y)+2×x×y over two materialised inputs: one more loop and z the only new allocation.
    let inputs = "let x = mem(iota(50)) in let y = mem(each(fn a => muli(a, 3), iota(50))) in ";
    let base = counts(&format!("{inputs}reduce(addi, 0, zipWith(addi, x, y))"));
    let z = counts(&format!(
        "{inputs}let z = zipWith(addi, zipWith(addi, zipWith(muli, x, x), zipWith(muli, y, y)), \
         zipWith(muli, each(fn a => muli(2, a), x), y)) in print(10, z)"
    ));
    assert_eq!(base.allocations, 2);
    assert_eq!(z.allocations, base.allocations + 1);
    assert_eq!(z.loops, base.loops);
}

#[test]
fn layout_changes_of_a_materialised_array_allocate_nothing() {
    // `a` is materialised once (one allocation, one fill loop); each view of it must add neither.
    let base = "let a = mem(reshape([3,4], iota(12))) in ";
    let reference = counts(&format!("{base}reduce(addi, 0, rav(a))"));
    assert_eq!((reference.allocations, reference.loops), (1, 2));
    for view in [
        "transp(a)",
        "drop(1, a)",
        "drop(~1, a)",
        "index(1, 2, a)",
        "vreverse(a)",
        "reverse(a)",
    ] {
        let program = format!("{base}reduce(addi, 0, rav({view}))");
        let found = counts(&program);
        assert_eq!(found.allocations, reference.allocations, "{view} allocated");
        assert_eq!(found.loops, reference.loops, "{view} added a loop");
    }
}

#[test]
fn views_of_a_materialised_array_are_lmads_on_the_same_block() {
    let (program, printed) = loop_ir(
        "let a = mem(reshape([3,4], iota(12))) in let t = transp(a) in let d = drop(1, a) in \
         let e = drop(~1, a) in let r = vreverse(a) in let i = index(1, 2, a) in (t, d, e, r, i)",
    );
    let views: Vec<&str> = printed.lines().filter(|l| l.starts_with("view")).collect();
    // a is 0+{(3:4),(4:1)}; ⍉ swaps the pairs; 1↓ moves the offset one row; ¯1↓ shrinks the extent; ⊖ starts at
    // the last row with a negative stride; row 2 fixes the first index at 1.
    assert_eq!(
        views,
        vec![
            "view a : int [3][4]@mem1 -> 0+{(3:4),(4:1)}",
            "view t : int [4][3]@mem1 -> 0+{(4:1),(3:4)}",
            "view d : int [2][4]@mem1 -> 4+{(2:4),(4:1)}",
            "view e : int [2][4]@mem1 -> 0+{(2:4),(4:1)}",
            "view r : int [3][4]@mem1 -> 8+{(3:-4),(4:1)}",
            "view i : int [4]@mem1 -> 4+{(4:1)}",
        ],
        "{printed}"
    );
    // The result tuple copies the views that are not row-major from offset 0 (all but e, a prefix of a's block);
    // the views themselves allocate nothing.
    assert_eq!(ir::count(&program).allocations, 1 + 4, "{printed}");
}

#[test]
fn reshape_of_a_row_major_block_to_the_same_size_is_a_new_layout() {
    let (program, printed) = loop_ir("let a = mem(iota(6)) in let b = reshape([2,3], a) in transp(b)");
    assert!(
        printed.contains("view b : int [2][3]@mem1 -> 0+{(2:3),(3:1)}"),
        "{printed}"
    );
    // a's block, and the copy of the transposed result (row-major for the runtime).
    assert_eq!(ir::count(&program).allocations, 2, "{printed}");
}

#[test]
fn fixed_shape_power_loop_is_double_buffered() {
    let (program, printed) = loop_ir("power(fn x => each(fn y => addi(y, 1), rotate(1, x)), 5, iota(8))");
    let (outside, inside) = allocations_outside_and_inside_loops(&program);
    assert_eq!((outside, inside), (2, 0), "{printed}");
    assert!(printed.contains("swap"), "{printed}");
}

#[test]
fn shape_changing_power_loop_allocates_per_iteration_and_frees() {
    let (program, printed) = loop_ir("power(fn x => cat(x, x), 3, iota(2))");
    let (outside, inside) = allocations_outside_and_inside_loops(&program);
    assert_eq!((outside, inside), (1, 1), "{printed}");
    assert_eq!(ir::count(&program).frees, 1, "{printed}");
}

#[test]
fn let_bound_arrays_used_twice_are_materialised_once_used_once_are_fused() {
    // a costs a division per element (too dear to recompute, see lower/fusion.rs) and is read at two indices.
    let twice = counts("let a = each(fn x => divd(1.0, i2d(x)), iota(4)) in zipWith(addd, a, rotate(1, a))");
    // a's block and the result block.
    assert_eq!(twice.allocations, 2);
    let once = counts("let a = each(fn x => muli(x, x), iota(4)) in reduce(addi, 0, a)");
    assert_eq!((once.allocations, once.loops), (0, 1));
    // Used under a lambda counts as many uses.
    let under_lambda =
        counts("let a = each(fn x => divd(1.0, i2d(x)), iota(4)) in each(fn i => first(drop(i, a)), iota(2))");
    assert_eq!(under_lambda.allocations, 2);
}

#[test]
fn temporary_blocks_are_freed_and_results_are_not() {
    let (program, printed) =
        loop_ir("let a = mem(iota(5)) in let b = mem(each(fn x => muli(x, 2), a)) in reduce(addi, 0, b)");
    let counts = ir::count(&program);
    assert_eq!((counts.allocations, counts.frees), (2, 2), "{printed}");
    let (program, printed) = loop_ir("let a = mem(iota(5)) in each(fn x => muli(x, 2), a)");
    let counts = ir::count(&program);
    // a is freed; the result block belongs to the runtime.
    assert_eq!((counts.allocations, counts.frees), (2, 1), "{printed}");
}

#[test]
fn snapshots_of_printed_loop_ir() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("apl-tests/tail");
    let signal = std::fs::read_to_string(root.join("signal.tail")).expect("signal.tail");
    insta::assert_snapshot!("signal", loop_ir(&signal).1);
    insta::assert_snapshot!(
        "power_double_buffered",
        loop_ir("power(fn x => each(fn y => addi(y, 1), rotate(1, x)), 5, iota(8))").1
    );
    insta::assert_snapshot!(
        "reduce_matrix_rows",
        loop_ir("reduce(subi, 0, reshape([2,3], iota(6)))").1
    );
    let inner = std::fs::read_to_string(root.join("inner_product.tail")).expect("inner_product.tail");
    insta::assert_snapshot!("inner_product", loop_ir(&inner).1);
    // Functions first, each with its parameters, body and `return`; a call is a statement with its result variable.
    let recursive = std::fs::read_to_string(root.join("recursive_functions.tail")).expect("recursive_functions.tail");
    insta::assert_snapshot!("recursive_functions", loop_ir(&recursive).1);
}

/// Operators the lowering does not support yet: each gives a NONCE error naming the construct.
#[test]
fn unsupported_operators_give_a_nonce_error() {
    let unsupported = [(
        "transp2(rotateV(nowi(), [1,2]), reshape([2,2], iota(4)))",
        "transp2 with axes unknown",
    )];
    for (text, name) in unsupported {
        let program = typed_program(text);
        let error = lower_checked(&program)
            .err()
            .unwrap_or_else(|| panic!("{text} lowered"));
        let message = error.to_string();
        assert!(
            message.starts_with("NONCE ERROR: loop lowering does not support") && message.contains(name),
            "{text}: {message}"
        );
        assert_eq!(error.to_apl_error().kind, aplc::runtime::error::AplErrorKind::Nonce);
    }
}

#[test]
fn a_conditional_over_a_strand_with_an_array_runs_as_the_interpreter_does() {
    // condScl over (1, iota(3)): the array gets a block of its own, replaced in the branch taken (issue #14, item 1;
    // this was a NONCE ERROR, "arrays inside the tuple state of a loop").
    for condition in ["tt", "ff"] {
        let text = format!(
            "let t:([int]0,[int]1) = condScl(fn x:([int]0,[int]1) => (addi(#1(x),1), each(fn y:[int]0 => muli(y,2), #2(x))), \
             {condition}, (1, iota(3))) in let _e1:[int]0 = print(10, #1(t)) in let _e2:[int]1 = print(10, #2(t)) in 0"
        );
        let program = typed_program(&text);
        let lowered = lower_checked(&program).unwrap_or_else(|error| panic!("{text}: {error}"));
        let expected = if condition == "tt" {
            ["2", "2 4 6"]
        } else {
            ["1", "1 2 3"]
        };
        assert_eq!(run_loops(&lowered).printed, expected, "{text}");
        assert_eq!(run_tail(&program).printed, expected, "{text}");
    }
}

#[test]
fn clock_and_file_input_are_runtime_statements() {
    use aplc::loops::printer::print_program;
    // ⎕NOW is one clock read; a bench loop reads the clock before the power loop and reports after it.
    let clock = print_program(&lower_checked(&typed_program("print(10, gti(nowi(), 0))")).unwrap());
    assert_eq!(clock.matches("clock ").count(), 1, "{clock}");
    let bench = print_program(&lower_checked(&typed_program("bench(fn x:[int]0 => addi(x, 1), 5, 0)")).unwrap());
    let (before, after) = bench.split_once("for ").expect("a loop");
    assert!(
        before.contains("clock ") && after.contains("report_bench(") && !after.contains("clock "),
        "{bench}"
    );
    // A file read is one runtime statement that defines its block and length; the block is freed like any other.
    let file = lower_checked(&typed_program("reduce(addi, 0, readIntVecFile(['f']))")).unwrap();
    let text = print_program(&file);
    assert_eq!(text.matches("read_file ").count(), 1, "{text}");
    assert!(text.contains(": int[n"), "{text}");
    assert_eq!(ir::count(&file).frees, ir::count(&file).allocations + 1, "{text}");
}

#[test]
fn hand_written_loop_ir_parses_runs_and_bad_text_is_a_syntax_error() {
    // Σ 1..10 by hand, with a block, a while loop and a print.
    let text = "alloc mem1 : int[10]\n\
                for i2 < 10 {\n  store mem1[i2] = (i2 + 1)\n}\n\
                var acc3 : int = 0\nvar k4 : int = 0\n\
                while (k4 < 10) {\n  acc3 := (acc3 + mem1[k4])\n  k4 := (k4 + 1)\n}\n\
                print(10) mem1 : int[10]\nfree mem1\nresult acc3\n";
    let program = aplc::loops::parser::parse_program(text).expect("parses");
    aplc::loops::check::check_program(&program).expect("checks");
    assert_eq!(aplc::loops::print_program(&program), text);
    let outcome = loops_common::run_loops(&program);
    assert_eq!(outcome.printed, vec!["1 2 3 4 5 6 7 8 9 10"]);
    assert_eq!(outcome.ended, Ok(vec!["55".to_string()]));
    for bad in [
        "let x1 : int = y2\nresult x1\n",
        "alloc mem1 : int[3]\nstore mem2[0] = 1\nresult 0\n",
        "for i1 < 3 {\nresult 0\n",
        "let x1 : quux = 1\nresult x1\n",
        "let x1 : int = (1 ^ 2)\nresult x1\n",
        "error NOPE \"x\"\nresult 0\n",
        "let x1 : int = 1\n",
        "result 1\nlet x1 : int = 1\n",
    ] {
        assert!(aplc::loops::parser::parse_program(bad).is_err(), "accepted {bad:?}");
    }
}

#[test]
fn driver_dumps_the_loop_stage() {
    use aplc::driver::{dump, Stage};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("apl-tests");
    let signal = aplc::driver::read_source(&root.join("tail/signal.tail")).expect("signal.tail");
    // The driver lowers the optimised program: v3 (used twice, but cheap to recompute) is not materialised, and
    // the reduction is one fused loop, in a text the loop IR parser reads back.
    let printed = dump(&signal, Stage::Loops).expect("signal lowers");
    let program = aplc::loops::parser::parse_program(&printed).unwrap_or_else(|e| panic!("{e}\n{printed}"));
    let counts = ir::count(&program);
    assert_eq!((counts.allocations, counts.loops), (0, 1), "{printed}");
    let roll = aplc::source::SourceFile::new("roll.apl", "?6\n");
    let printed = dump(&roll, Stage::Loops).expect("roll lowers");
    assert!(printed.contains("roll(6)"), "{printed}");
    aplc::loops::parser::parse_program(&printed).unwrap_or_else(|e| panic!("{e}\n{printed}"));
}

/// A roll is drawn once where it is lowered, and an array whose elements roll is materialised at once (row-major,
/// the order the interpreter draws in), even when its only consumer could fuse with it: a pull array would draw
/// when and as often as it is read. The loop program draws the same numbers as the TAIL interpreter.
#[test]
fn rolling_arrays_are_materialised_in_row_major_order() {
    let text = "let v = each(fn x => roll(addi(x, 5)), iota(6)) in\n\
                let p = print(10, reverse(v)) in\n\
                reduce(addi, 0, each(fn x => roll(6), iota(4)))";
    let (program, printed) = loop_ir(text);
    assert_eq!(printed.matches("roll(").count(), 2, "{printed}");
    // Both rolling arrays are blocks, although `reverse` and `reduce` read them once each: two blocks more than the
    // same program with a pure function in place of `roll` (where only the printed array is a block).
    let (pure, pure_printed) = loop_ir(&text.replace("roll(", "negi("));
    assert_eq!(ir::count(&pure).allocations, 1, "{pure_printed}");
    assert_eq!(ir::count(&program).allocations, 3, "{printed}");
    let typed = typed_program(text);
    let expected = loops_common::run_tail(&typed);
    assert_eq!(loops_common::run_loops(&program), expected);
    // The draws are those of the shared generator: `?6` to `?11` and then four `?6`, in this order.
    let mut generator = aplc_runtime::abi::RollGenerator::with_seed(aplc_runtime::abi::ROLL_SEED);
    let mut first: Vec<String> = (6..=11).map(|n| generator.roll(n).to_string()).collect();
    first.reverse();
    let sum: i64 = (0..4).map(|_| generator.roll(6)).sum();
    assert_eq!(expected.printed, vec![first.join(" ")]);
    assert_eq!(expected.ended, Ok(vec![sum.to_string()]));
}

/// Complex numbers are one loop value: constants are `mkx(re, im)`, blocks hold complex elements, and the printed
/// program reads back.
#[test]
fn complex_numbers_lower_to_complex_values_and_blocks() {
    let text = "let z = [1.0j2.0, 3.0j~4.0] in\nlet p = print(10, zipWith(mulx, z, z)) in\nreduce(addx, 0.0j0.0, z)";
    let (program, printed) = loop_ir(text);
    assert!(printed.contains("mkx(1.0, 2.0)"), "{printed}");
    assert!(printed.contains(": complex"), "{printed}");
    let reparsed = aplc::loops::parser::parse_program(&printed).unwrap_or_else(|e| panic!("{e}\n{printed}"));
    assert_eq!(aplc::loops::print_program(&reparsed), printed);
    // (1+2i)² = 1+4i-4 = ¯3J4; (3-4i)² = 9-24i-16 = ¯7J¯24; the sum is 4J¯2.
    let outcome = loops_common::run_loops(&program);
    assert_eq!(outcome.printed, vec!["¯3J4 ¯7J¯24"]);
    assert_eq!(outcome.ended, Ok(vec!["4J¯2".to_string()]));
}

#[test]
fn a_view_whose_layout_is_not_an_lmad_prints_and_parses_back() {
    // The reversal of a vector of run-time length starts at max(n-1, 0): not a sum of products, so the view is
    // printed with the loop IR's own expressions, and the parser reads those back.
    let text = "let s1 : int = argInt(1, 4)\nalloc mem2 : int[s1]\n\
                view v3 : int [s1]@mem2 -> (maxi((s1 - 1), 0))+{(s1:-1)}\nfree mem2\nresult 0\n";
    let program = aplc::loops::parser::parse_program(text).unwrap_or_else(|error| panic!("{error}"));
    let view = program
        .body
        .iter()
        .find(|statement| matches!(statement, Stmt::View { .. }));
    let Some(Stmt::View { layout, shape, .. }) = view else {
        panic!("no view in {program:?}")
    };
    assert_eq!(shape.len(), 1);
    assert!(
        matches!(&layout.offset, ir::Expr::Prim(aplc::tail::ast::Op::MaxI, _)),
        "{layout:?}"
    );
    assert_eq!(aplc::loops::print_program(&program), text);
    // A malformed annotation is still a syntax error.
    let broken = text.replace("+{(s1:-1)}", "+{(s1:-1)");
    assert!(aplc::loops::parser::parse_program(&broken).is_err());
}
