//! Index-space splitting (src/loops/passes/index_split.rs): stencils of random sizes and shifts print on the loop-IR
//! interpreter and the JIT what the TAIL interpreter prints (the pieces cover every element, at every size, including
//! the sizes below the splitting threshold and the empty ones); bounds whose wrapping computation would overflow run
//! the loop as it was; and the checker's proof that a parallel map's pieces store to distinct positions holds.

mod loops_common;

use aplc::driver::{run_source_capturing, Backend};
use aplc::loops::interp::run_program;
use aplc::loops::parser::parse_program;
use aplc::loops::passes::index_split::split_index_spaces;
use aplc::loops::structure::structure_counts;
use aplc::source::SourceFile;
use aplc::tail::interp::MemoryHost;
use proptest::prelude::*;

/// A number as APL writes it.
fn number(value: i64) -> String {
    value.to_string().replace('-', "¯")
}

/// A stencil program over an r×c matrix and a vector of c elements, both of run-time size (`⎕ArgInt` defaults, so
/// the cut points are symbolic), with shifts k and d; `which` picks the stencil.
fn stencil(which: usize, rows: i64, columns: i64, k: i64, d: i64) -> String {
    let (k, d) = (number(k), number(d));
    let body = match which {
        0 => format!("⎕←({k}⌽M)-M"),
        1 => format!("⎕←({k}⊖M)+2×M"),
        2 => format!("⎕←(({d}↑M)⍪(-{d})↓M)-M"),
        3 => format!("⎕←(((r,{d})↑M),(0,-{d})↓M)-M"),
        4 => format!("⎕←(({k}⌽v)-v),(({k}⌽⌽v)×2)"),
        5 => "⎕←(1⊖M)+(¯1⊖M)+(1⌽M)+(¯1⌽M)+(1⊖1⌽M)+(¯1⊖¯1⌽M)".to_string(),
        6 => "T←M÷7\n⎕←T+0.25×((1↑T)⍪¯1↓T)+((1↓T)⍪¯1↑T)+(((r,1)↑T),0 ¯1↓T)+((0 1↓T),(r,¯1)↑T)-4×T".to_string(),
        _ => format!("⎕←{k}⌽({d}↓v),{d}⍴0"),
    };
    format!("⎕PP←8\nr←{rows} ⎕ArgInt 1\nc←{columns} ⎕ArgInt 2\nM←(r c)⍴⍳r×c\nv←⍳c\n{body}\n")
}

/// Sizes from empty to a few times the splitting threshold, shifts beyond the extents both ways.
fn stencil_case() -> impl Strategy<Value = String> {
    (0usize..8, 0i64..40, 0i64..40, -45i64..45, 0i64..4)
        .prop_map(|(which, rows, columns, k, d)| stencil(which, rows, columns, k, d))
}

#[derive(Debug, PartialEq)]
struct Outcome {
    printed: String,
    error: Option<String>,
}

fn run_in_process(text: &str, backend: Backend) -> Outcome {
    let report = run_source_capturing(&SourceFile::new("stencil.apl", text.to_string()), backend);
    Outcome {
        printed: report.stdout,
        error: report.error.map(|error| error.apl_name),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    /// The loop-IR interpreter runs the split loops (the memory passes end with the splitting).
    #[test]
    fn stencils_of_random_sizes_agree_on_interp_and_mem(text in stencil_case()) {
        let expected = run_in_process(&text, Backend::Interp);
        let actual = run_in_process(&text, Backend::Mem);
        prop_assert_eq!(actual, expected, "on\n{}", text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]

    /// Native code compiled from the split loops (a child process each).
    #[test]
    fn stencils_of_random_sizes_agree_on_interp_and_jit(text in stencil_case()) {
        let path = std::env::temp_dir().join(format!("aplc-index-split-{}.apl", std::process::id()));
        std::fs::write(&path, &text).expect("the case is written");
        let expected = run_in_process(&text, Backend::Interp);
        let output = loops_common::run_aplc_child(&path, "jit");
        prop_assert!(output.status.success() == expected.error.is_none(), "on\n{}", text);
        prop_assert_eq!(String::from_utf8_lossy(&output.stdout).into_owned(), expected.printed, "on\n{}", text);
    }
}

/// What a loop program prints on the loop interpreter.
fn printed(program: &aplc::loops::ir::Program) -> Vec<String> {
    let mut host = MemoryHost::default();
    run_program(program, &mut host).expect("the program runs");
    host.printed_lines
}

/// `(i + a) < b` over 40 elements, a and b program arguments with these defaults.
fn comparison_program(a: i64, b: i64) -> String {
    format!(
        "let a1 : int = argInt(1, {a})\nlet b2 : int = argInt(2, {b})\nalloc mem3 : int[40]\nfor i4 < 40 {{\n  \
         store mem3[i4] = (((i4 + a1) < b2) ? 1 : 2)\n}}\nprint(10) mem3 : int[40]\nfree mem3\nresult 0\n"
    )
}

#[test]
fn a_loop_is_cut_where_its_comparison_changes() {
    // i + ¯5 < 10 holds for i < 15: fifteen 1s, then twenty-five 2s, in two pieces under the test.
    let program = parse_program(&comparison_program(-5, 10)).expect("the program parses");
    let split = split_index_spaces(program.clone());
    let expected: Vec<String> = vec![[vec!["1"; 15], vec!["2"; 25]].concat().join(" ")];
    assert_eq!(printed(&program), expected);
    assert_eq!(printed(&split), expected);
    // The loop as it was, and its two pieces, neither of which selects.
    assert_eq!(structure_counts(&program).loops, 1);
    assert_eq!(structure_counts(&split).loops, 3);
    assert_eq!(structure_counts(&split).select_free_innermost_loops, 2);
    aplc::loops::check::check_program(&split).expect("the split program is well formed");
}

#[test]
fn bounds_whose_computation_would_overflow_run_the_loop_as_it_was() {
    // With a = -2^62 and b = 2^62, i + a < b holds everywhere, but the cut point b - a = 2^63 wraps to -2^63: taken
    // at its word, every element would fall in the second piece. The atoms are beyond ±2^40, so the test before the
    // loop chooses the loop as it was.
    let (a, b) = (-(1_i64 << 62), 1_i64 << 62);
    let program = parse_program(&comparison_program(a, b)).expect("the program parses");
    let split = split_index_spaces(program.clone());
    assert_eq!(
        structure_counts(&split).loops,
        3,
        "the loop is still split (the test decides at run time)"
    );
    let all_ones = vec![vec!["1"; 40].join(" ")];
    assert_eq!(printed(&program), all_ones);
    assert_eq!(printed(&split), all_ones);
}

#[test]
fn the_checker_proves_the_pieces_of_a_row_store_within_the_row() {
    // A parallel map over rows whose columns were split in three pieces: joined back, the pieces cover 0..n, so
    // distinct rows store to distinct positions.
    let pieces = "let n1 : int = argInt(1, 30)\nalloc mem2 : int[(n1 * n1)]\nparfor i3 < n1 {\n  \
                  let m4 : int = maxi(0, mini(1, n1))\n  let m5 : int = maxi(m4, mini((n1 - 1), n1))\n  \
                  for j6 < m4 {\n    store mem2[((i3 * n1) + j6)] = 1\n  }\n  \
                  for j7 < (m5 - m4) {\n    let j8 : int = (m4 + j7)\n    store mem2[((i3 * n1) + j8)] = 2\n  }\n  \
                  for j9 < (n1 - m5) {\n    let j10 : int = (m5 + j9)\n    store mem2[((i3 * n1) + j10)] = 3\n  }\n}\n\
                  free mem2\nresult 0\n";
    let program = parse_program(pieces).expect("the program parses");
    aplc::loops::check::check_program(&program).expect("the pieces are proved disjoint across rows");
    // The last piece running one column too far overlaps the next row: not a partition, and rejected.
    let overlapping = pieces.replace("for j9 < (n1 - m5)", "for j9 < ((n1 + 1) - m5)");
    let program = parse_program(&overlapping).expect("the program parses");
    let error = aplc::loops::check::check_program(&program).expect_err("overlapping rows are rejected");
    assert!(error.to_string().contains("may store to the same position"), "{error}");
}

#[test]
fn the_copies_of_a_deep_nest_stay_within_the_program_growth_bound() {
    // A 3-D stencil: rotations along every axis in a ⍣, so each of three nested loops has cuts. Splitting every level
    // would copy the innermost body dozens of times (8x the compile time); the copies of the whole program may add
    // at most PROGRAM_GROWTH times its size (at least SIZE_BUDGET nodes), plus the tests and cut points.
    use aplc::loops::passes::index_split::{body_size, PROGRAM_GROWTH, SIZE_BUDGET};
    use aplc::loops::passes::memory_passes::{memory_pipeline, INDEX_SPLITTING};
    let text = "n←20 ⎕ArgInt 1\nA←(n n n)⍴⍳n×n×n\n\
                C←{(1⌽⍵)+(¯1⌽⍵)+(1⊖⍵)+(¯1⊖⍵)+(2 1 3⍉1⊖2 1 3⍉⍵)+(2 1 3⍉¯1⊖2 1 3⍉⍵)-6×⍵}⍣3⊢A\n⎕←+/,C\n";
    let lowered = aplc::driver::lowered_loop_program(&SourceFile::new("deep.apl", text.to_string()))
        .unwrap_or_else(|error| panic!("{}", error.render_plain()));
    let passes = memory_pipeline();
    let split_at = passes
        .iter()
        .position(|pass| pass.name == INDEX_SPLITTING)
        .expect("the pipeline splits index spaces");
    let before = passes[..split_at]
        .iter()
        .fold(lowered, |program, pass| (pass.run)(program));
    let after = (passes[split_at].run)(before.clone());
    let (size_before, size_after) = (body_size(&before.body), body_size(&after.body));
    assert!(
        structure_counts(&after).select_free_innermost_loops > structure_counts(&before).select_free_innermost_loops,
        "nothing was split"
    );
    let allowed_copies = (size_before * PROGRAM_GROWTH).max(SIZE_BUDGET);
    assert!(
        size_after <= size_before + allowed_copies + size_before / 2,
        "{size_before} nodes became {size_after}"
    );
    assert_eq!(printed(&before), printed(&after));
}
