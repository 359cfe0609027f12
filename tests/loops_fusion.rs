//! The materialisation rules of `src/lower/fusion.rs` and the loop shapes of reductions and rotations: which shared
//! arrays are recomputed, which are read once per element through memoised reads, which are still materialised, the
//! direction of fold loops and rotations without divisions. Every program is also run through the loop interpreter
//! and compared with the TAIL interpreter and with a value worked out by hand.

mod loops_common;

use aplc::loops::ir;
use loops_common::{loop_ir, run_loops, run_tail, typed_program};

/// Lowers, runs on both interpreters, checks they agree and that the result is `expected`; returns the counts and
/// the printed IR.
fn lowered_and_run(text: &str, expected: &str) -> (ir::Counts, String) {
    let (program, printed) = loop_ir(text);
    let outcome = run_loops(&program);
    assert_eq!(outcome, run_tail(&typed_program(text)), "{printed}");
    assert_eq!(outcome.ended, Ok(vec![expected.to_string()]), "{printed}");
    (ir::count(&program), printed)
}

fn occurrences(printed: &str, needle: &str) -> usize {
    printed.matches(needle).count()
}

#[test]
fn cheap_shared_arrays_are_recomputed_not_materialised() {
    // signal's 0,⍳N used twice: v is 0 1 2 3 4 5, ¯1⌽v is 5 0 1 2 3 4, their difference ¯5 1 1 1 1 1 sums to 0.
    let (counts, printed) = lowered_and_run(
        "let v0 = iotaV(5) in let v = consV(0, v0) in reduce(addi, 0, zipWith(subi, v, rotate(~1, v)))",
        "0",
    );
    assert_eq!((counts.allocations, counts.loops), (0, 1), "{printed}");
}

#[test]
fn a_shared_array_read_at_one_index_is_computed_once_per_element() {
    // a = 1 1/2 1/3 1/4; +/a+a×a = 25/12 + 205/144 = 505/144 = 3.50694444...
    let (counts, printed) = lowered_and_run(
        "let a = each(fn x => divd(1.0, i2d(x)), iota(4)) in \
         reduce(addd, 0.0, zipWith(addd, a, each(fn y => muld(y, y), a)))",
        "3.506944444",
    );
    assert_eq!((counts.allocations, counts.loops), (0, 1), "{printed}");
    assert_eq!(occurrences(&printed, "divd"), 1, "{printed}");
}

#[test]
fn a_chain_of_shared_element_wise_arrays_is_one_loop() {
    // The shape of easter: y = ⌊i÷7⌋ for i in 1..20 (0 six times, 1 and 2 seven times each), b = y+3×y = 4×y used
    // twice, and b×(b-y) = 12×y² sums to 7×12 + 7×48 = 420.
    let (counts, printed) = lowered_and_run(
        "let y = each(fn x => floor(divd(i2d(x), 7.0)), iota(20)) in \
         let b = zipWith(addi, y, each(fn x => muli(x, 3), y)) in \
         reduce(addi, 0, zipWith(muli, b, zipWith(subi, b, y)))",
        "420",
    );
    assert_eq!((counts.allocations, counts.loops), (0, 1), "{printed}");
    // One floor division by 7, and no floor of a double division: i is in 1..20, so the range analysis decides the
    // guard that picks the double division for magnitudes beyond 2^46.
    assert_eq!(occurrences(&printed, "/ 7)"), 1, "{printed}");
    assert_eq!(occurrences(&printed, "floor"), 0, "{printed}");
}

#[test]
fn a_shared_array_read_by_two_consumers_is_materialised_once() {
    // Two reductions are two loops: a (a division per element) is written once and read by both.
    let (program, printed) =
        loop_ir("let a = each(fn x => divd(1.0, i2d(x)), iota(4)) in (reduce(addd, 0.0, a), reduce(muld, 1.0, a))");
    let counts = ir::count(&program);
    assert_eq!(counts.allocations, 1, "{printed}");
    assert_eq!(occurrences(&printed, "divd"), 1, "{printed}");
    // a read at two indices (a and 1⌽a) is materialised too: a's block and the result's.
    let (program, printed) =
        loop_ir("let a = each(fn x => divd(1.0, i2d(x)), iota(4)) in zipWith(addd, a, rotate(1, a))");
    assert_eq!(ir::count(&program).allocations, 2, "{printed}");
}

#[test]
fn memoised_reads_inside_a_branch_stay_in_the_branch() {
    // The overtake reads the fused product inside a branch; a = 0.5 1 1.5, a×a = 0.25 1 2.25, then two fills.
    let (counts, printed) = lowered_and_run(
        "let a = each(fn x => divd(i2d(x), 2.0), iota(3)) in take(5, zipWith(muld, a, a))",
        "0.25 1 2.25 0 0",
    );
    assert_eq!(counts.allocations, 1, "{printed}");
    assert_eq!(occurrences(&printed, "divd"), 1, "{printed}");
}

#[test]
fn commutative_reductions_run_forwards_and_the_others_keep_the_right_fold() {
    let sum = "let a = mem(iota(4)) in reduce(addi, 0, a)";
    let (_, printed) = lowered_and_run(sum, "10");
    assert!(!printed.contains(" - k"), "{printed}");
    // -/1 2 3 4 is 1-(2-(3-4)) = ¯2: read from the end.
    let (_, printed) = lowered_and_run("let a = mem(iota(4)) in reduce(subi, 0, a)", "¯2");
    assert!(printed.contains(" - k"), "{printed}");
    // ⌈/ on doubles keeps APL's order too (only + and × on doubles may reassociate).
    let (_, printed) = lowered_and_run(
        "let a = mem(each(fn x => i2d(x), iota(4))) in reduce(maxd, ~1.0, a)",
        "4",
    );
    assert!(printed.contains(" - k"), "{printed}");
}

#[test]
fn rotations_need_no_division_per_element() {
    // ¯7⌽⍳5 rotates right by 2: 4 5 1 2 3.
    let (_, printed) = lowered_and_run("rotate(~7, iota(5))", "4 5 1 2 3");
    assert_eq!(occurrences(&printed, "%"), 0, "{printed}");
    // A count known only at run time is reduced once, outside the loop: 7⌽⍳5 is 3 4 5 1 2.
    let (program, printed) = loop_ir("let k = reduce(addi, 0, [3, 4]) in rotate(k, iota(5))");
    let outcome = run_loops(&program);
    assert_eq!(outcome.ended, Ok(vec!["3 4 5 1 2".to_string()]), "{printed}");
    assert_eq!(occurrences(&printed, "%"), 1, "{printed}");
}

#[test]
fn floor_of_an_int_divided_by_a_constant_is_an_int_division_with_the_same_results() {
    // ⌊x÷7 by hand: ¯7→¯1, ¯1→¯1, 0→0, 6→0, 7→1, 100→14, 2^46-1 = 7×10052677739666+1 → 10052677739666, and
    // beyond the exact range (2^46, ¯2^46) the double form: 10052677739666 and ¯10052677739667. The display shows
    // integers beyond 32 bits as doubles of 10 digits, so each quotient is printed as its residue modulo 1000 (APL's,
    // never negative: ¯1 gives 999, ¯10052677739667 gives 333), which keeps the digits that tell them apart.
    let values = "[~7, ~1, 0, 6, 7, 100, 70368744177663, 70368744177664, ~70368744177664]";
    let (_, printed) = lowered_and_run(
        &format!("each(fn x => resi(1000, floor(divd(i2d(x), 7.0))), {values})"),
        "999 999 0 0 1 14 666 666 333",
    );
    assert!(printed.contains(" / 7)"), "{printed}");
    // Far beyond it the tolerant floor of the rounded double is kept: 1E17÷7 rounds to 14285714285714286.
    let (_, printed) = lowered_and_run(
        "each(fn x => resi(1000, floor(divd(i2d(x), 7.0))), [100000000000000000])",
        "286",
    );
    assert!(printed.contains("floor"), "{printed}");
    // A divisor that is not a positive integer keeps the double division.
    let (_, printed) = lowered_and_run("each(fn x => floor(divd(i2d(x), 2.5)), [5, 6])", "2 2");
    assert!(!printed.contains(" / "), "{printed}");
}
