//! Reductions over product ranges (src/loops/passes/product_ranges.rs): a reduction over R×Y elements that reads its
//! index modulo Y becomes a map of R reductions over Y into a block, then a reduction over that block, without a
//! division per element. Every rewrite is checked by the loop-IR checker and must print, on the loop-IR interpreter,
//! exactly what the input printed; the expected sums are worked out by hand in the comments. The reductions that must
//! stay (a double sum, a checked sum of unbounded elements, an index read without a residue) stay.

mod loops_common;

use aplc::loops::passes::product_ranges::split_product_ranges;

fn apply(text: &str) -> String {
    loops_common::apply_pass(split_product_ranges, text)
}

/// What a program prints on the loop-IR interpreter.
fn printed(text: &str) -> Vec<String> {
    let program = aplc::loops::parser::parse_program(text).expect("the program parses");
    let mut host = aplc::tail::interp::MemoryHost::default();
    aplc::loops::interp::run_program(&program, &mut host).expect("the program runs");
    host.printed_lines
}

/// `reduce` with `op` over `R×Y` elements (R and Y program arguments with these defaults) of `element`, which may
/// read the index `k5` and the modulus `y1` after the `lets`; prints the result.
fn reduction(op: &str, y: i64, r: i64, lets: &str, element: &str) -> String {
    format!(
        "let y1 : int = argInt(1, {y})\nlet r2 : int = argInt(2, {r})\nlet c3 : int = (r2 * y1)\n\
         reduce acc4 : int = {op}(0) commutative for k5 < c3 {{\n{lets}  yield {element}\n}}\nprint(10) acc4\nresult 0\n"
    )
}

#[test]
fn a_wrapping_sum_of_a_residue_becomes_a_map_of_row_sums_under_a_test_of_the_modulus() {
    // Σ over 5 cycles of m² for m = 1..7: 5 × (1 + 4 + 9 + 16 + 25 + 36 + 49) = 5 × 140 = 700.
    let text = reduction("addw", 7, 5, "  let m6 : int = ((k5 % y1) + 1)\n", "(m6 * m6)");
    assert_eq!(printed(&text), ["700"]);
    let split = apply(&text);
    assert!(!split.contains("(k5 % y1)"), "{split}");
    // The modulus is a run-time value: the split runs when 0 < y ≤ 2^40, the reduction as it was otherwise.
    assert!(split.contains("if andb((y1 > 0), (y1 <= 1099511627776))"), "{split}");
    assert_eq!(
        split.matches("reduce ").count(),
        3,
        "two in the split, the original beside: {split}"
    );
    assert!(split.contains("parfor") || split.contains("for q"), "{split}");
}

#[test]
fn the_index_read_whole_is_the_row_times_the_modulus_plus_the_residue() {
    // Σ_{k<35} k + Σ_{k<35} (k mod 7) = 35·34/2 + 5 × (0 + 1 + … + 6) = 595 + 105 = 700.
    let text = reduction("addw", 7, 5, "", "(k5 + (k5 % y1))");
    assert_eq!(printed(&text), ["700"]);
    let split = apply(&text);
    assert!(split.contains("((q") && split.contains("* y1) + r"), "{split}");
}

#[test]
fn a_checked_sum_of_bounded_elements_splits_with_wrapping_row_sums() {
    // Element (k mod 25) mod 19 + (k ÷ 25) mod 3 for 4 rows of 25: the residues give 4 × (0+…+18 + 0+…+5) =
    // 4 × (171 + 15) = 744, the quotients 25 × (0 + 1 + 2 + 0) = 75: 819.
    let text = reduction(
        "addi",
        25,
        4,
        "  let m6 : int = ((k5 % y1) % 19)\n  let q7 : int = ((k5 / y1) % 3)\n",
        "(m6 + q7)",
    );
    assert_eq!(printed(&text), ["819"]);
    let split = apply(&text);
    // Each element is below 21, so a row's wrapping sum is exact while y ≤ (2^63 - 1) ÷ 20 (capped at 2^40).
    assert!(split.contains("= addw(0) commutative for r"), "{split}");
    assert!(split.contains("= addi(0) commutative for q"), "{split}");
    assert!(!split.contains("(k5 / y1)") && !split.contains("(k5 % y1)"), "{split}");
}

#[test]
fn a_negative_modulus_runs_the_reduction_as_it_was() {
    // y = ¯3, r = ¯4: 12 elements, k mod ¯3 in 0 ¯2 ¯1 0 ¯2 ¯1 …: 4 × ((0+1)² + (¯2+1)² + (¯1+1)²) = 8.
    let text = reduction("addw", -3, -4, "  let m6 : int = ((k5 % y1) + 1)\n", "(m6 * m6)");
    assert_eq!(printed(&text), ["8"]);
    let split = apply(&text);
    assert_eq!(printed(&split), ["8"]);
}

#[test]
fn a_constant_modulus_splits_without_a_test() {
    let text = "let c3 : int = (5 * 7)\nreduce acc4 : int = addw(0) commutative for k5 < c3 {\n  \
                let m6 : int = ((k5 % 7) + 1)\n  yield (m6 * m6)\n}\nprint(10) acc4\nresult 0\n";
    assert_eq!(printed(text), ["700"]);
    let split = apply(text);
    assert!(!split.contains("if "), "{split}");
    assert_eq!(split.matches("reduce ").count(), 2, "{split}");
}

#[test]
fn reductions_that_regrouping_could_change_stay() {
    // A double sum (regrouping rounds differently), a checked sum of loaded (unbounded) elements, and a reduction
    // that reads its index without a residue or a quotient.
    let double_sum = "let y1 : int = argInt(1, 7)\nlet r2 : int = argInt(2, 5)\nlet c3 : int = (r2 * y1)\n\
                      reduce acc4 : double = addd(-0.0) commutative for k5 < c3 {\n  \
                      yield i2d((k5 % y1))\n}\nprint(10) acc4\nresult 0\n";
    assert_eq!(apply(double_sum), double_sum);
    let loaded = "let y1 : int = argInt(1, 7)\nlet r2 : int = argInt(2, 5)\nlet c3 : int = (r2 * y1)\n\
                  alloc mem9 : int[7]\nfor i10 < 7 {\n  store mem9[i10] = (i10 * 1000)\n}\n\
                  reduce acc4 : int = addi(0) commutative for k5 < c3 {\n  yield mem9[(k5 % y1)]\n}\n\
                  print(10) acc4\nfree mem9\nresult 0\n";
    assert_eq!(apply(loaded), loaded);
    let whole_index = reduction("addw", 7, 5, "", "(k5 * 2)");
    assert_eq!(apply(&whole_index), whole_index);
}

#[test]
fn a_map_and_a_sequential_loop_over_a_product_range_become_rows_in_the_same_order() {
    // mem4[k] = k mod 7 + k ÷ 7 over 5 rows of 7: row q holds q, q+1, …, q+6. The sequential loop folds
    // s := (3s + k mod 7) mod 1000003 in index order, which only the same order reproduces.
    let text = "let y1 : int = argInt(1, 7)\nlet r2 : int = argInt(2, 5)\nlet c3 : int = (r2 * y1)\n\
                alloc mem4 : int[c3]\nfor k5 < c3 {\n  store mem4[k5] = ((k5 % y1) + (k5 / y1))\n}\n\
                var s6 : int = 0\nfor k7 < c3 {\n  s6 := (((s6 * 3) + (k7 % y1)) % 1000003)\n}\n\
                print(10) mem4 : int[c3]\nprint(10) s6\nfree mem4\nresult 0\n";
    let rows: Vec<String> = (0..5).flat_map(|q| (0..7).map(move |r| (q + r).to_string())).collect();
    let fold = (0..35).fold(0_i64, |s, k| (3 * s + k % 7) % 1_000_003);
    let expected = [rows.join(" "), fold.to_string()];
    assert_eq!(printed(text), expected);
    let split = apply(text);
    assert_eq!(printed(&split), expected);
    // Each loop under the test of y, its rows without a residue or a quotient, the loop as it was beside them.
    assert_eq!(
        split.matches("if andb((y1 > 0), (y1 <= 1099511627776))").count(),
        2,
        "{split}"
    );
    assert_eq!(
        split.matches("% y1)").count(),
        2,
        "only in the loops as they were: {split}"
    );
    assert_eq!(split.matches("/ y1)").count(), 1, "only in the loop as it was: {split}");
    assert!(
        split.contains("store mem4[((q"),
        "the store's index is q·y + r: {split}"
    );
}
