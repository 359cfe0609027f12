//! The parallel scan in chunks (src/lower/scan.rs): a row longer than one chunk (`REDUCTION_CHUNK`) becomes the
//! chunks' totals and the scan from each chunk's prefix, two parallel maps around a sequential loop over the chunks;
//! a row of one chunk or less stays the running accumulator. The loop-IR checker proves the chunks' stores disjoint
//! (a chunk's length is `mini(4096, n − first)`, at most 4096, and the chunks are 4096 apart); the values are
//! checked against the TAIL interpreter and by hand, on every backend, in apl-tests/primitives/scan_in_chunks.apl.

use aplc::driver::{loop_program, lowered_loop_program, run_source_capturing, Backend};
use aplc::loops::check::check_program;
use aplc::loops::parser::parse_program;
use aplc::loops::structure::structure_counts;
use aplc::loops::{ir::REDUCTION_CHUNK, print_program};
use aplc::source::SourceFile;

/// Phase 3 of a scan of n1 ints, written as lowering writes it: chunk c stores positions `4096·c + j` for
/// `j < mini(4096, n1 − 4096·c)`.
const CHUNKS: &str = "let n1 : int = argInt(1, 30000)\nalloc mem2 : int[n1]\n\
                      let chunks3 : int = ((n1 + 4095) / 4096)\nparfor c4 < chunks3 {\n  \
                      let first5 : int = (c4 * 4096)\n  let length6 : int = mini(4096, (n1 - first5))\n  \
                      var acc7 : int = 0\n  for j8 < length6 {\n    acc7 := (acc7 + j8)\n    \
                      store mem2[(first5 + j8)] = acc7\n  }\n}\nfree mem2\nresult 0\n";

fn check_text(text: &str) -> Result<(), String> {
    let program = parse_program(text).map_err(|error| format!("{error:?}"))?;
    check_program(&program).map_err(|error| error.to_string())
}

#[test]
fn the_checker_proves_chunks_of_at_most_their_spacing_disjoint_and_rejects_longer_ones() {
    check_text(CHUNKS).expect("chunks 4096 apart of at most 4096 elements are disjoint");
    for overlapping in [
        // A chunk may be one element longer than the spacing: its last element is the next chunk's first.
        CHUNKS.replace("mini(4096, (n1 - first5))", "mini(4097, (n1 - first5))"),
        // Without the bound, a chunk's length is anything.
        CHUNKS.replace("mini(4096, (n1 - first5))", "(n1 - first5)"),
        // Chunks closer together than their length.
        CHUNKS.replace("(c4 * 4096)", "(c4 * 4095)"),
    ] {
        let error = check_text(&overlapping).expect_err("overlapping chunks are rejected");
        assert!(error.contains("may store to the same position"), "{error}");
    }
}

#[test]
fn the_checker_reads_the_lets_outside_a_parfor_as_the_pass_that_made_it_did() {
    // One row of length n3: its stores stay within [0, n3), so the one iteration's row does not reach the next one's
    // only when n3 ≥ 1. That holds for 5000 + argInt(1, 30), whose let is outside the loop, and not for argInt alone
    // (an empty row would have every iteration store at position 0).
    let row = |length: &str| {
        format!(
            "let n3 : int = {length}\nalloc mem4 : bool[n3]\nparfor r5 < 1 {{\n  let start6 : int = (r5 * n3)\n  \
             if (0 < n3) {{\n    store mem4[start6] = ff\n  }}\n}}\nfree mem4\nresult 0\n"
        )
    };
    check_text(&row("(5000 + argInt(1, 30))")).expect("a row of at least 5000 elements");
    let error = check_text(&row("argInt(1, 30)")).expect_err("a row that may be empty");
    assert!(error.contains("may store to the same position"), "{error}");
}

fn counts_of(source: &str) -> (aplc::loops::structure::StructureCounts, String) {
    let file = SourceFile::new("scan.apl", source.to_string());
    let program = loop_program(&file).expect("the program compiles");
    check_program(&program).expect("the loop IR checks");
    (structure_counts(&program), print_program(&program))
}

/// The `parfor`s over a scan's chunks (lowering names their index `c`).
fn chunk_maps(printed: &str) -> usize {
    printed
        .lines()
        .filter(|line| line.trim_start().starts_with("parfor c"))
        .count()
}

#[test]
fn a_vector_longer_than_one_chunk_is_scanned_in_two_parallel_maps_and_a_shorter_one_sequentially() {
    let scan_of_length = |n: i64| format!("⎕←+/+\\{n}⍴⍳7");
    let (long, printed) = counts_of(&scan_of_length(REDUCTION_CHUNK + 1));
    assert_eq!(chunk_maps(&printed), 2, "{printed}");
    // The source's materialisation is the third.
    assert_eq!(long.parallel_maps, 3, "{printed}");
    assert_eq!(long.sequential_loops, 1, "the loop over the chunks' totals:\n{printed}");
    assert!(printed.contains("mini(4096, "), "{printed}");
    let (_, printed) = counts_of(&scan_of_length(REDUCTION_CHUNK));
    assert_eq!(chunk_maps(&printed), 0, "{printed}");
    assert!(!printed.contains("chunks"), "{printed}");
    // A length known at run time: both forms, under a test of the length.
    let (_, printed) = counts_of("N←5000 ⎕ArgInt 1\n⎕←+/+\\N⍴⍳7");
    assert_eq!(chunk_maps(&printed), 2, "{printed}");
    assert!(printed.contains(&format!("< {})", REDUCTION_CHUNK + 1)), "{printed}");
}

#[test]
fn only_operators_that_fold_in_any_order_are_scanned_in_chunks() {
    for (scan, data, chunked) in [
        ("+", "1 2 3", true),
        ("⌈", "1 2 3", true),
        ("+", "0.5 2", true),
        ("×", "0.5 2", true),
        ("∨", "1 0 0", true),
        ("≠", "1 0 0", true),
        ("×", "1 2 3", false), // int ×: each step's overflow check depends on the order
        ("⌈", "0.5 2", false), // double ⌈: not among the operators a parallel reduction may fold in any order
        ("-", "1 2 3", false),
    ] {
        let source = format!("⎕←+/{scan}\\10000⍴{data}");
        let program = lowered_loop_program(&SourceFile::new("scan.apl", source.clone())).expect("it compiles");
        let printed = print_program(&program);
        assert_eq!(printed.contains("chunks"), chunked, "{source}:\n{printed}");
    }
}

#[test]
fn an_int_sum_scan_wraps_only_in_its_totals_and_stops_where_a_sequential_scan_stops() {
    // The totals and prefixes are wrapping adds (+, printed infix); the scan's own steps are APL's checked addi.
    let (_, printed) = counts_of("⎕←+/+\\10000⍴⍳7");
    assert!(printed.contains("addi(acc"), "{printed}");
    let total_steps = printed
        .lines()
        .filter(|line| line.contains("total") && line.contains(":= ("))
        .count();
    assert_eq!(total_steps, 1, "{printed}");
    // 4.7E18 then zeros, then 2.3E18 twice in the second chunk: the prefix 9.3E18 does not fit.
    let overflowing = "w←(4700000000000000000),(5000⍴0),(2⍴2300000000000000000)\n⎕←+/+\\w";
    // (apl-tests/errors/domain_int_overflow_scan_in_later_chunk.apl runs it on the native backends too.)
    for backend in [Backend::Interp, Backend::Mem] {
        let report = run_source_capturing(&SourceFile::new("overflow.apl", overflowing.to_string()), backend);
        let error = report.error.expect("the scan overflows");
        assert_eq!(error.apl_name, "DOMAIN ERROR", "{}: {}", backend.name(), error.rendered);
    }
}
