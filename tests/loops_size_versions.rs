//! The second version of a program for run-time sizes below 2^31 (src/loops/passes/size_versions.rs). Every rewrite
//! is checked by the loop-IR checker and must print, on the loop-IR interpreter, what the input printed
//! (`apply_pass`); the sums in the comments are worked out by hand.

mod loops_common;

use aplc::loops::passes::size_versions::version_on_small_sizes;

fn apply(text: &str) -> String {
    loops_common::apply_pass(version_on_small_sizes, text)
}

/// A map of `7×(i+1)` over a run-time size `n` (default `size`), then its sum: Σ 7(i+1) for i < n = 7n(n+1)/2.
fn scaled_indices(size: i64) -> String {
    format!(
        "let n1 : int = argInt(1, {size})\nalloc mem2 : int[n1]\nfor i3 < n1 {{\n  let x4 : int = addw(i3, 1)\n  \
         store mem2[i3] = at(0, 1, muli(7, x4))\n}}\nreduce acc5 : int = addi(0) commutative for k6 < n1 {{\n  \
         yield mem2[k6]\n}}\nprint(10) acc5\nfree mem2\nresult 0\n"
    )
}

#[test]
fn a_run_time_size_gets_a_version_below_two_to_the_31_without_the_checks_it_decides() {
    // n = 4: 7 × (1 + 2 + 3 + 4) = 70, printed by both versions (apply_pass compares).
    let versioned = apply(&scaled_indices(4));
    assert!(versioned.contains("if (n1 < 2147483648) {"), "{versioned}");
    let (small, large) = versioned.split_once("} else {").expect("two versions");
    // Below 2^31, 7×(i+1) fits: its check is gone from the first version. The sum keeps its check in both: 2^31
    // values of up to 7×2^31 may add up to 3.2E19, beyond the int range.
    assert!(!small.contains("muli("), "{small}");
    assert!(small.contains("= addi(0)"), "{small}");
    // The second version is the program as it was.
    assert!(large.contains("muli(7, "), "{large}");
    assert!(large.contains("= addi(0)"), "{large}");
}

#[test]
fn a_program_whose_checks_no_size_decides_stays_as_it_was() {
    // A mutable may hold any int, whatever n is: no bound on n removes addi(v, 1).
    let text = "let n1 : int = argInt(1, 3)\nvar v2 : int = argInt(2, 5)\nfor i3 < n1 {\n  \
                print(10) at(0, 1, addi(v2, i3))\n}\nresult 0\n";
    let unchanged = apply(text);
    assert!(!unchanged.contains("2147483648"), "{unchanged}");
    // Nor does a program with no checked operation in a loop.
    let plain = "let n1 : int = argInt(1, 3)\nfor i2 < n1 {\n  print(10) i2\n}\nresult 0\n";
    assert!(!apply(plain).contains("2147483648"));
}
