//! Narrow storage of small ints (issue #15, item 2): an int block every value stored into which provably fits a
//! signed 8-, 16- or 32-bit int is stored in that width ([`Storage`]). A store truncates, a load sign-extends, and the
//! program computes with the same 64-bit ints as before; what changes is the memory traffic, an eighth of it for the
//! neighbour counts of a board or the residues `7|x`, and the SIMD lanes a vectorised copy or comparison gets.
//!
//! The proof is the interval analysis of `overflow_checks.rs` ([`IntRanges`]), run over the whole program with a
//! record of the union of the ranges of the values stored into each int block. A load from a block is any int unless
//! the block is already known to be narrow, so the blocks are found in rounds: the first round narrows the blocks whose
//! stored values depend on no load (`b2i` of a comparison, a residue, a sum of a few of those), the next round those
//! that read the first round's (a sum of two rows of counts), and so on until a round finds nothing new. A block whose
//! stores read the block itself (a count incremented in a `⍣`) is never narrowed: its range would need an induction
//! the analysis does not do. Each round's ranges are sound because they rest only on earlier rounds' sound ranges.
//!
//! Only blocks that the program itself allocates, stores and loads are candidates: a block handed to the run-time
//! library (printed, formatted, read from a file, the program's result) or to a called function, or that a call or
//! the run-time library fills, keeps the 64-bit layout they expect (the checker refuses a narrow one there). Blocks
//! that `swap` exchanges are narrowed together, with the union of their ranges, or not at all.
//!
//! Where the ranges prove that checked arithmetic on the loaded values cannot overflow (`c×c` of counts), the pass
//! makes it wrapping, as `overflow_checks.rs` does during lowering with what it knows then.
//!
//! The pass runs last, after the passes that decide where arrays live (in-place updates may make one block hold two
//! arrays: the union of their stores covers both).

use std::collections::{HashMap, HashSet};

use super::overflow_checks::{IntRange, IntRanges};
use crate::loops::ir::{for_each_statement, Argument, Block, Program, ResultValue, ScalarType, Slot, Stmt, Storage};
use crate::loops::rewrite::{rename_block, rename_block_in_result};

/// Stores every int block whose values provably fit a narrower signed int in the narrowest of 8, 16 and 32 bits.
/// What the ranges of those blocks prove is kept too: the checked arithmetic on values loaded from them that cannot
/// overflow becomes wrapping (as `overflow_checks` does with the ranges it knows), so that `c×c` of counts vectorises.
pub fn store_small_ints_narrow(mut program: Program) -> Program {
    let known = small_int_blocks(&program);
    let mut ranges = IntRanges::recording_stores(known.clone());
    for function in &mut program.functions {
        ranges.rewrite_statements(&mut function.body);
    }
    ranges.rewrite_statements(&mut program.body);
    for (id, range) in known {
        let Some(storage) = narrow_storage_of(range) else {
            continue;
        };
        let from = Block::new(id, ScalarType::Int);
        let to = Block { storage, ..from };
        rename_block(&mut program.body, from, to);
        rename_block_in_result(&mut program.result, from, to);
        for function in &mut program.functions {
            rename_block(&mut function.body, from, to);
        }
    }
    program
}

/// The candidate blocks whose stored values provably fit 32 bits, with the range of those values.
fn small_int_blocks(program: &Program) -> HashMap<u32, IntRange> {
    let candidates = candidate_blocks(program);
    let swapped = swapped_pairs(program);
    let mut known: HashMap<u32, IntRange> = HashMap::new();
    loop {
        let stored = stored_ranges(program, &known);
        let mut found: HashMap<u32, IntRange> = stored
            .into_iter()
            .filter(|(id, range)| candidates.contains(id) && narrow_storage_of(*range).is_some())
            .collect();
        keep_swapped_blocks_together(&mut found, &swapped);
        let grew = found.keys().any(|id| !known.contains_key(id));
        known = found;
        if !grew {
            break;
        }
    }
    known
}

/// The narrowest signed int storage holding every value of the range (None: only 64 bits do).
fn narrow_storage_of(range: IntRange) -> Option<Storage> {
    [8u32, 16, 32].into_iter().find_map(|bits| {
        let limit = 1i128 << (bits - 1);
        (range.low >= -limit && range.high < limit).then(|| Storage::narrow_int(bits))?
    })
}

/// The union of the ranges of the values stored into each int block, loads from the blocks of `known` being in their
/// ranges. The walk rewrites checked arithmetic as `overflow_checks` does, on a copy that is then dropped: only what
/// it learns is kept.
fn stored_ranges(program: &Program, known: &HashMap<u32, IntRange>) -> HashMap<u32, IntRange> {
    let mut analysis = IntRanges::recording_stores(known.clone());
    for body in bodies(program) {
        analysis.rewrite_statements(&mut body.clone());
    }
    analysis.stored_ranges()
}

/// The statements of the program and of each of its functions.
fn bodies(program: &Program) -> impl Iterator<Item = &Vec<Stmt>> {
    std::iter::once(&program.body).chain(program.functions.iter().map(|function| &function.body))
}

/// The int blocks the program allocates with `alloc` and uses only in loads, stores, `swap`, `view` and `free`.
fn candidate_blocks(program: &Program) -> HashSet<u32> {
    let mut allocated = HashSet::new();
    let mut shared = HashSet::new();
    for body in bodies(program) {
        for_each_statement(body, &mut |statement| match statement {
            Stmt::Alloc { block, .. } if block.element == ScalarType::Int => {
                allocated.insert(block.id);
            }
            _ => shared.extend(blocks_shared_with_the_runtime_by(statement)),
        });
    }
    shared.extend(blocks_of_result(&program.result));
    for function in &program.functions {
        shared.extend(blocks_of_result(&function.result));
        shared.extend(function.parameters.iter().filter_map(Slot::block).map(|block| block.id));
    }
    allocated.difference(&shared).copied().collect()
}

/// The blocks a statement hands to the run-time library or a function, or has them fill.
fn blocks_shared_with_the_runtime_by(statement: &Stmt) -> Vec<u32> {
    match statement {
        Stmt::PrintArray { array, .. } => vec![array.block.id],
        Stmt::Format { source, result, .. } => vec![source.block.id, result.id],
        Stmt::ReadFile { path, result, .. } => vec![path.block.id, result.id],
        Stmt::Call { result, args, .. } => args
            .iter()
            .filter_map(|argument| match argument {
                Argument::Array(array) => Some(array.block.id),
                Argument::Scalar(_) => None,
            })
            .chain(result.block().map(|block| block.id))
            .collect(),
        _ => Vec::new(),
    }
}

fn blocks_of_result(result: &ResultValue) -> Vec<u32> {
    match result {
        ResultValue::Scalar(_) => Vec::new(),
        ResultValue::Array(array) => vec![array.block.id],
        ResultValue::Tuple(components) => components.iter().flat_map(blocks_of_result).collect(),
    }
}

fn swapped_pairs(program: &Program) -> Vec<(u32, u32)> {
    let mut pairs = Vec::new();
    for body in bodies(program) {
        for_each_statement(body, &mut |statement| {
            if let Stmt::Swap { first, second } = statement {
                pairs.push((first.id, second.id));
            }
        });
    }
    pairs
}

/// Blocks that a `swap` exchanges hold each other's values: both are narrowed, with the union of their ranges, or
/// neither is.
fn keep_swapped_blocks_together(found: &mut HashMap<u32, IntRange>, swapped: &[(u32, u32)]) {
    loop {
        let mut changed = false;
        for (first, second) in swapped {
            match (found.get(first).copied(), found.get(second).copied()) {
                (Some(a), Some(b)) if a != b => {
                    let both = a.union(b);
                    found.insert(*first, both);
                    found.insert(*second, both);
                    changed = true;
                }
                (Some(_), None) => {
                    found.remove(first);
                    changed = true;
                }
                (None, Some(_)) => {
                    found.remove(second);
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loops::check::check_program;
    use crate::loops::parser::parse_program;
    use crate::loops::printer::print_program;

    /// The program after the pass, printed (and checked: narrow blocks only where the checker allows them).
    fn narrowed(text: &str) -> String {
        let program = store_small_ints_narrow(parse_program(text).expect("parses"));
        check_program(&program).expect("the narrowed program is well formed");
        print_program(&program)
    }

    /// A program that stores `value` into a block of ten ints and prints the sum of two of them.
    fn storing(value: &str) -> String {
        format!(
            "alloc mem1 : bool[10]\nfor i2 < 10 {{\n  store mem1[i2] = (i2 < 5)\n}}\nalloc mem3 : int[10]\n\
             for i4 < 10 {{\n  store mem3[i4] = {value}\n}}\nprint(10) addi(mem3[0], mem3[9])\nfree mem3\nfree mem1\n\
             result 0\n"
        )
    }

    #[test]
    fn each_block_gets_the_narrowest_width_that_holds_every_value_stored() {
        let cases = [
            ("b2i(mem1[i4])", Some("int8")),
            ("(127 - b2i(mem1[i4]))", Some("int8")),
            ("(128 - b2i(mem1[i4]))", Some("int16")),
            ("(-128 + b2i(mem1[i4]))", Some("int8")),
            ("(-129 + b2i(mem1[i4]))", Some("int16")),
            ("(32767 + b2i(mem1[i4]))", Some("int32")),
            ("(2147483647 - b2i(mem1[i4]))", Some("int32")),
            ("(2147483647 + b2i(mem1[i4]))", None),
            ("(i4 % 7)", Some("int8")),
            ("(i4 * 1000)", Some("int16")),
            ("c2i(' ')", Some("int32")),
        ];
        for (value, storage) in cases {
            let printed = narrowed(&storing(value));
            let expected = format!("alloc mem3 : {}[10]", storage.unwrap_or("int"));
            assert!(
                printed.contains(&expected),
                "{value}: expected {expected} in\n{printed}"
            );
        }
    }

    #[test]
    fn a_block_of_values_loaded_from_a_narrow_block_is_narrowed_in_a_later_round() {
        let text = "alloc mem1 : int[10]\nfor i2 < 10 {\n  store mem1[i2] = (i2 % 3)\n}\nalloc mem3 : int[9]\n\
                    for i4 < 9 {\n  store mem3[i4] = (mem1[i4] + mem1[(i4 + 1)])\n}\nprint(10) mem3[8]\nfree mem3\n\
                    free mem1\nresult 0\n";
        let printed = narrowed(text);
        assert!(printed.contains("alloc mem1 : int8[10]"), "{printed}");
        assert!(printed.contains("alloc mem3 : int8[9]"), "{printed}");
    }

    #[test]
    fn a_block_that_accumulates_into_itself_stays_wide() {
        // Each pass adds one: the range after n passes needs an induction on n, which the analysis does not do.
        let text = "alloc mem1 : int[4]\nfor i2 < 4 {\n  store mem1[i2] = 0\n}\nfor i3 < 100 {\n  for i4 < 4 {\n    \
                    store mem1[i4] = (mem1[i4] + 1)\n  }\n}\nprint(10) mem1[0]\nfree mem1\nresult 0\n";
        assert!(narrowed(text).contains("alloc mem1 : int[4]"));
    }

    #[test]
    fn blocks_the_run_time_library_reads_stay_wide() {
        let printed =
            "alloc mem1 : int[3]\nfor i2 < 3 {\n  store mem1[i2] = i2\n}\nprint(10) mem1 : int[3]\nfree mem1\n\
                       result 0\n";
        assert!(narrowed(printed).contains("alloc mem1 : int[3]"));
        let result = "alloc mem1 : int[3]\nfor i2 < 3 {\n  store mem1[i2] = i2\n}\nresult mem1 : int[3]\n";
        assert!(narrowed(result).contains("alloc mem1 : int[3]"));
    }

    #[test]
    fn swapped_blocks_are_narrowed_together_or_not_at_all() {
        let both = "alloc mem1 : int[3]\nalloc mem2 : int[3]\nfor i3 < 3 {\n  store mem1[i3] = i3\n  \
                    store mem2[i3] = (300 + i3)\n}\nswap mem1, mem2\nprint(10) mem1[0]\nfree mem1\nfree mem2\nresult 0\n";
        let printed = narrowed(both);
        assert!(printed.contains("alloc mem1 : int16[3]"), "{printed}");
        assert!(printed.contains("alloc mem2 : int16[3]"), "{printed}");
        let neither = both.replace("print(10) mem1[0]", "print(10) mem2 : int[3]");
        let printed = narrowed(&neither);
        assert!(printed.contains("alloc mem1 : int[3]"), "{printed}");
        assert!(printed.contains("alloc mem2 : int[3]"), "{printed}");
    }

    #[test]
    fn narrow_blocks_print_and_parse_back() {
        let printed = narrowed(&storing("b2i(mem1[i4])"));
        let reparsed = parse_program(&printed).expect("the printed program parses");
        assert_eq!(print_program(&reparsed), printed);
    }
}
