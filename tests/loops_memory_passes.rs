//! The memory passes on hand-written loop IR: what each rewrites into what (the expected text is written by hand),
//! and, as important, the cases where a pass must leave the program alone because the rewrite would be unsound
//! (a source block still used, a size that changes between iterations, a formula that reads memory...). Every
//! result is checked by the loop-IR checker and must print what the input printed.

mod loops_common;

use aplc::loops::ir::Program;
use aplc::loops::parser::parse_program;

/// Parses, checks, runs the pass, checks again, and compares the two runs; returns the printed result.
fn apply(pass: fn(Program) -> Program, text: &str) -> String {
    loops_common::apply_pass(pass, text)
}

/// The pass must leave the program exactly as it was.
fn unchanged(pass: fn(Program) -> Program, text: &str) {
    assert_eq!(apply(pass, text), text);
}

const REUSE: fn(Program) -> Program = aplc::loops::passes::in_place::reuse_dying_blocks;
const HOIST: fn(Program) -> Program = aplc::loops::passes::hoist::hoist_allocations;
const RECOMPUTE: fn(Program) -> Program = aplc::loops::passes::rematerialise::recompute_cheap_blocks;

/// An int vector 1 2 3 4 in mem1, with one element changed so that it is not a formula of its index.
const FOUR: &str = "alloc mem1 : int[4]\nfor i2 < 4 {\n  store mem1[i2] = (i2 + 1)\n}\nstore mem1[3] = 9\n";

#[test]
fn a_copy_whose_source_dies_at_it_becomes_an_update_in_place() {
    let text = format!(
        "{FOUR}alloc mem3 : int[4]\nfor i4 < 4 {{\n  store mem3[i4] = mem1[i4]\n}}\nfree mem1\n\
         store mem3[0] = 7\nprint(10) mem3 : int[4]\nfree mem3\nresult 0\n"
    );
    let expected = format!("{FOUR}store mem1[0] = 7\nprint(10) mem1 : int[4]\nfree mem1\nresult 0\n");
    assert_eq!(apply(REUSE, &text), expected);
}

#[test]
fn the_block_returned_as_the_result_is_renamed_too() {
    let text = format!(
        "{FOUR}alloc mem3 : int[4]\nfor i4 < 4 {{\n  store mem3[i4] = mem1[i4]\n}}\nfree mem1\n\
         store mem3[0] = 7\nresult mem3 : int[4]\n"
    );
    let expected = format!("{FOUR}store mem1[0] = 7\nresult mem1 : int[4]\n");
    assert_eq!(apply(REUSE, &text), expected);
}

#[test]
fn a_copy_stays_when_its_source_is_used_after_it() {
    // mem1 is printed after the update of the copy: reusing it would print 7 2 3 9 twice.
    unchanged(
        REUSE,
        &format!(
            "{FOUR}alloc mem3 : int[4]\nfor i4 < 4 {{\n  store mem3[i4] = mem1[i4]\n}}\nstore mem3[0] = 7\n\
             print(10) mem1 : int[4]\nfree mem1\nprint(10) mem3 : int[4]\nfree mem3\nresult 0\n"
        ),
    );
    // Only read (not stored into) before its free: still a use of the old value after the copy's update.
    unchanged(
        REUSE,
        &format!(
            "{FOUR}alloc mem3 : int[4]\nfor i4 < 4 {{\n  store mem3[i4] = mem1[i4]\n}}\nstore mem3[0] = 7\n\
             let x5 : int = mem1[0]\nfree mem1\nprint(10) x5\nprint(10) mem3 : int[4]\nfree mem3\nresult 0\n"
        ),
    );
}

#[test]
fn a_partial_or_rearranging_copy_stays() {
    // Three of four elements: mem3's last element is not mem1's (a correct program stores it before reading).
    unchanged(
        REUSE,
        &format!(
            "{FOUR}alloc mem3 : int[4]\nfor i4 < 3 {{\n  store mem3[i4] = mem1[i4]\n}}\nfree mem1\n\
             store mem3[3] = 7\nprint(10) mem3 : int[4]\nfree mem3\nresult 0\n"
        ),
    );
    // A reversal is a copy, but not one that leaves the same elements in the same places.
    unchanged(
        REUSE,
        &format!(
            "{FOUR}alloc mem3 : int[4]\nfor i4 < 4 {{\n  store mem3[i4] = mem1[(3 - i4)]\n}}\nfree mem1\n\
             print(10) mem3 : int[4]\nfree mem3\nresult 0\n"
        ),
    );
}

#[test]
fn an_allocation_of_invariant_size_freed_in_each_iteration_moves_out_with_its_size() {
    let text = "let k1 : int = 3\nvar s2 : int = 0\nfor it3 < 4 {\n  let n4 : int = (k1 * 2)\n  \
                alloc mem5 : int[n4]\n  for i6 < n4 {\n    store mem5[i6] = (i6 + it3)\n  }\n  \
                s2 := (s2 + mem5[1])\n  free mem5\n}\nprint(10) s2\nresult 0\n";
    let expected = "let k1 : int = 3\nvar s2 : int = 0\nlet n4 : int = (k1 * 2)\nalloc mem5 : int[n4]\n\
                    for it3 < 4 {\n  for i6 < n4 {\n    store mem5[i6] = (i6 + it3)\n  }\n  \
                    s2 := (s2 + mem5[1])\n}\nfree mem5\nprint(10) s2\nresult 0\n";
    assert_eq!(apply(HOIST, text), expected);
}

#[test]
fn an_allocation_climbs_out_of_a_whole_nest() {
    let text = "var s1 : int = 0\nfor a2 < 2 {\n  for b3 < 3 {\n    alloc mem4 : int[5]\n    \
                store mem4[4] = (a2 + b3)\n    s1 := (s1 + mem4[4])\n    free mem4\n  }\n}\nprint(10) s1\n\
                result 0\n";
    let expected = "var s1 : int = 0\nalloc mem4 : int[5]\nfor a2 < 2 {\n  for b3 < 3 {\n    \
                    store mem4[4] = (a2 + b3)\n    s1 := (s1 + mem4[4])\n  }\n}\nfree mem4\nprint(10) s1\n\
                    result 0\n";
    assert_eq!(apply(HOIST, text), expected);
}

#[test]
fn allocations_whose_size_changes_or_that_are_swapped_stay_in_the_loop() {
    // The size depends on the loop index.
    unchanged(
        HOIST,
        "var s1 : int = 0\nfor it2 < 4 {\n  let n3 : int = (it2 + 1)\n  alloc mem4 : int[n3]\n  \
         store mem4[0] = it2\n  s1 := (s1 + mem4[0])\n  free mem4\n}\nprint(10) s1\nresult 0\n",
    );
    // The size reads a variable the loop assigns.
    unchanged(
        HOIST,
        "var s1 : int = 1\nfor it2 < 4 {\n  alloc mem3 : int[s1]\n  store mem3[0] = it2\n  \
         s1 := (s1 + mem3[0])\n  free mem3\n}\nprint(10) s1\nresult 0\n",
    );
    // The size could fail (a division by a variable): evaluating it when the loop runs zero times would be wrong.
    unchanged(
        HOIST,
        "let k1 : int = 0\nvar s2 : int = 0\nfor it3 < k1 {\n  let n4 : int = (6 / k1)\n  \
         alloc mem5 : int[n4]\n  store mem5[0] = it3\n  s2 := (s2 + mem5[0])\n  free mem5\n}\nprint(10) s2\n\
         result 0\n",
    );
    // A block swapped in the loop denotes another buffer at its free, here one of another size (the state's).
    unchanged(
        HOIST,
        "alloc mem1 : int[3]\nstore mem1[0] = 1\nfor it2 < 3 {\n  alloc mem3 : int[2]\n  \
         store mem3[0] = (mem1[0] + 1)\n  swap mem1, mem3\n  free mem3\n}\nprint(10) mem1[0]\nfree mem1\n\
         result 0\n",
    );
}

#[test]
fn a_block_filled_by_a_safe_formula_of_its_index_is_recomputed_at_its_loads() {
    let text = "alloc mem1 : int[5]\nfor i2 < 5 {\n  store mem1[i2] = ((i2 < 1) ? 0 : (i2 * 3))\n}\n\
                var s3 : int = 0\nfor k4 < 4 {\n  s3 := (s3 + (mem1[(k4 + 1)] - mem1[k4]))\n}\nfree mem1\n\
                print(10) s3\nresult 0\n";
    let expected = "var s3 : int = 0\nfor k4 < 4 {\n  \
                    s3 := (s3 + ((((k4 + 1) < 1) ? 0 : ((k4 + 1) * 3)) - ((k4 < 1) ? 0 : (k4 * 3))))\n}\n\
                    print(10) s3\nresult 0\n";
    assert_eq!(apply(RECOMPUTE, text), expected);
    // A one-element block holding a constant.
    let text = "alloc mem1 : bool[1]\nstore mem1[0] = ff\nalloc mem2 : bool[3]\nfor i3 < 3 {\n  \
                store mem2[i3] = mem1[0]\n}\nfree mem1\nprint(10) mem2 : bool[3]\nfree mem2\nresult 0\n";
    let expected = "alloc mem2 : bool[3]\nfor i3 < 3 {\n  store mem2[i3] = ff\n}\nprint(10) mem2 : bool[3]\n\
                    free mem2\nresult 0\n";
    assert_eq!(apply(RECOMPUTE, text), expected);
}

#[test]
fn blocks_that_are_not_a_safe_formula_stay() {
    // Stored into again after the fill.
    unchanged(RECOMPUTE, &format!("{FOUR}print(10) mem1[3]\nfree mem1\nresult 0\n"));
    // Printed as an array.
    unchanged(
        RECOMPUTE,
        "alloc mem1 : int[3]\nfor i2 < 3 {\n  store mem1[i2] = i2\n}\nprint(10) mem1 : int[3]\nfree mem1\n\
         result 0\n",
    );
    // The formula can fail (a division by a variable that is 0): recomputing it where it is never loaded would lose
    // the DOMAIN ERROR.
    unchanged(
        RECOMPUTE,
        "let z1 : int = 0\nalloc mem2 : int[3]\nfor i3 < 3 {\n  store mem2[i3] = (i3 / z1)\n}\nfree mem2\n\
         result 0\n",
    );
    // The formula reads a mutable variable that changes before the load.
    unchanged(
        RECOMPUTE,
        "var v1 : int = 1\nalloc mem2 : int[3]\nfor i3 < 3 {\n  store mem2[i3] = (i3 + v1)\n}\nv1 := 5\n\
         print(10) mem2[2]\nfree mem2\nresult 0\n",
    );
    // The formula reads memory.
    unchanged(
        RECOMPUTE,
        &format!(
            "{FOUR}alloc mem3 : int[4]\nfor i4 < 4 {{\n  store mem3[i4] = (mem1[i4] + 1)\n}}\n\
             print(10) mem3[0]\nfree mem1\nfree mem3\nresult 0\n"
        ),
    );
}

#[test]
fn the_mem_dump_lists_blocks_with_their_views_and_reads_back() {
    let text = "alloc mem1 : int[6]\nfor i2 < 6 {\n  store mem1[i2] = (i2 * i2)\n}\nstore mem1[0] = 4\n\
                view a3 : int [2][3]@mem1 -> 0+{(2:3),(3:1)}\nview t4 : int [3][2]@mem1 -> 0+{(3:1),(2:3)}\n\
                for k5 < 2 {\n  alloc mem6 : int8[3]\n  store mem6[0] = k5\n  print(10) mem6[0]\n  free mem6\n}\n\
                free mem1\nresult 0\n";
    let program = parse_program(text).unwrap();
    let dump = aplc::loops::memory_printer::print_memory_program(&program);
    let expected_header = "# memory: allocs 2, allocs-in-loops 1, loops 2, copies 0, frees 2, sequential-loops 2, parallel-maps 0, parallel-reductions 0, \
                           select-free-innermost-loops 2, versions 0, register-tiles 0, narrow-blocks 1\n\
                           # mem1 : int[6] allocated outside loops\n\
                           #   a3 = [2][3]@mem1 -> 0+{(2:3),(3:1)}\n\
                           #   t4 = [3][2]@mem1 -> 0+{(3:1),(2:3)}\n\
                           # mem6 : int8[3] allocated inside a loop\n";
    assert_eq!(dump, format!("{expected_header}{text}"));
    let reparsed = parse_program(&dump).unwrap();
    assert_eq!(aplc::loops::memory_printer::print_memory_program(&reparsed), dump);
}

#[test]
fn the_lets_of_a_fill_loop_are_substituted_into_the_formula() {
    let text = "alloc mem1 : int[4]\nfor i2 < 4 {\n  let x3 : int = (i2 + 1)\n  let y4 : int = (x3 * x3)\n  \
                store mem1[i2] = (7 * y4)\n}\nprint(10) mem1[2]\nfree mem1\nresult 0\n";
    let expected = "print(10) (7 * ((2 + 1) * (2 + 1)))\nresult 0\n";
    assert_eq!(apply(RECOMPUTE, text), expected);
    // A let that could fail keeps the block.
    unchanged(
        RECOMPUTE,
        "let z1 : int = 2\nalloc mem2 : int[4]\nfor i3 < 4 {\n  let x4 : int = (i3 / z1)\n  \
         store mem2[i3] = (7 * x4)\n}\nprint(10) mem2[2]\nfree mem2\nresult 0\n",
    );
}

#[test]
fn a_shape_variable_the_loop_assigns_its_own_value_is_invariant() {
    // s1 := n3 with n3 = s1 read before the assignment: s1 is the same in every iteration (a ⍣ loop's state shape).
    let text = "var s1 : int = 3\nvar t2 : int = 0\nfor it3 < 4 {\n  let n4 : int = s1\n  let n5 : int = (n4 * 2)\n  \
                alloc mem6 : int[n5]\n  store mem6[0] = it3\n  t2 := (t2 + mem6[0])\n  free mem6\n  s1 := n4\n}\n\
                print(10) t2\nresult 0\n";
    let expected = "var s1 : int = 3\nvar t2 : int = 0\nlet n4 : int = s1\nlet n5 : int = (n4 * 2)\n\
                    alloc mem6 : int[n5]\nfor it3 < 4 {\n  store mem6[0] = it3\n  t2 := (t2 + mem6[0])\n  \
                    s1 := n4\n}\nfree mem6\nprint(10) t2\nresult 0\n";
    assert_eq!(apply(HOIST, text), expected);
    // Assigned something else as well (here in a branch): not invariant.
    unchanged(
        HOIST,
        "var s1 : int = 3\nvar t2 : int = 0\nfor it3 < 4 {\n  let n4 : int = s1\n  alloc mem5 : int[n4]\n  \
         store mem5[0] = it3\n  t2 := (t2 + mem5[0])\n  free mem5\n  s1 := n4\n  if (it3 == 1) {\n    \
         s1 := (n4 + 1)\n  }\n}\nprint(10) t2\nresult 0\n",
    );
    // Assigned the value of another variable: its size changes from the second iteration on.
    unchanged(
        HOIST,
        "var s1 : int = 3\nvar u2 : int = 5\nvar t3 : int = 0\nfor it4 < 4 {\n  let n5 : int = u2\n  \
         alloc mem6 : int[s1]\n  store mem6[0] = it4\n  t3 := (t3 + mem6[0])\n  free mem6\n  s1 := n5\n}\n\
         print(10) t3\nresult 0\n",
    );
}

#[test]
fn a_next_state_of_the_state_size_is_double_buffered_with_the_state() {
    // mem1 (4 elements) is the state; every iteration allocates mem5 of n4 = s2*2 = 4 elements (s2 only ever
    // assigned its own value), swaps, and frees the old state: the two buffers can alternate.
    let body = "  let n3 : int = s2\n  let n4 : int = (n3 * 2)\n  alloc mem5 : int[n4]\n  \
                for i6 < n4 {\n    store mem5[i6] = (mem1[i6] + i6)\n  }\n  swap mem1, mem5\n";
    let text = format!(
        "alloc mem1 : int[4]\nfor i7 < 4 {{\n  store mem1[i7] = 1\n}}\nvar s2 : int = 2\nfor it8 < 3 {{\n{body}  \
         free mem5\n  s2 := n3\n}}\nprint(10) mem1 : int[4]\nfree mem1\nresult 0\n"
    );
    let expected = "alloc mem1 : int[4]\nfor i7 < 4 {\n  store mem1[i7] = 1\n}\nvar s2 : int = 2\n\
                    let n3 : int = s2\nlet n4 : int = (n3 * 2)\nalloc mem5 : int[n4]\nfor it8 < 3 {\n  \
                    for i6 < n4 {\n    store mem5[i6] = (mem1[i6] + i6)\n  }\n  swap mem1, mem5\n  s2 := n3\n}\n\
                    free mem5\nprint(10) mem1 : int[4]\nfree mem1\nresult 0\n";
    assert_eq!(apply(HOIST, &text), expected);
    // The state was allocated with 5 elements: after the first swap the kept buffer would have another size.
    unchanged(HOIST, &text.replace("alloc mem1 : int[4]", "alloc mem1 : int[5]"));
    // The old state is still read after the swap: its buffer is not dead.
    unchanged(
        HOIST,
        &text.replace("  free mem5\n", "  print(10) mem5[0]\n  free mem5\n"),
    );
}

#[test]
fn a_state_shape_recomputed_to_its_own_value_is_found_constant_and_double_buffered() {
    // s3 := 1 + (s3 - mini(1, s3)) is s3 again for s3 = 2, so n7 is 4 in every iteration, the state's size.
    let text = "alloc mem1 : int[4]\nfor i2 < 4 {\n  store mem1[i2] = 1\n}\nvar s3 : int = 2\nfor it4 < 3 {\n  \
                let d5 : int = mini(1, s3)\n  let n6 : int = (1 + (s3 - d5))\n  let n7 : int = (n6 * 2)\n  \
                alloc mem8 : int[n7]\n  for i9 < n7 {\n    store mem8[i9] = (mem1[i9] + i9)\n  }\n  \
                swap mem1, mem8\n  free mem8\n  s3 := n6\n}\nprint(10) mem1 : int[4]\nfree mem1\nresult 0\n";
    let expected = "alloc mem1 : int[4]\nfor i2 < 4 {\n  store mem1[i2] = 1\n}\nvar s3 : int = 2\n\
                    let d5 : int = mini(1, s3)\nlet n6 : int = (1 + (s3 - d5))\nlet n7 : int = (n6 * 2)\n\
                    alloc mem8 : int[n7]\nfor it4 < 3 {\n  for i9 < n7 {\n    store mem8[i9] = (mem1[i9] + i9)\n  \
                    }\n  swap mem1, mem8\n  s3 := n6\n}\nfree mem8\nprint(10) mem1 : int[4]\nfree mem1\nresult 0\n";
    assert_eq!(apply(HOIST, text), expected);
    // s3 := s3 + 1 grows: the fixpoint drops it, and the allocation that depends on it stays in the loop.
    unchanged(
        HOIST,
        "var s1 : int = 2\nvar t2 : int = 0\nfor it3 < 3 {\n  let n4 : int = (s1 + 1)\n  alloc mem5 : int[n4]\n  \
         store mem5[0] = it3\n  t2 := (t2 + mem5[0])\n  free mem5\n  s1 := n4\n}\nprint(10) t2\nresult 0\n",
    );
}
