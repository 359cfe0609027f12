//! Random differential testing: small random TAIL programs over int arrays of rank 1 and 2 (every structural op the
//! lowering supports, with random counts so that LENGTH/INDEX/DOMAIN errors and empty arrays occur) must behave the
//! same in the TAIL interpreter and through the loop IR.

mod loops_common;

use loops_common::generators::program;
use loops_common::{lower_checked, run_loops, run_tail, typed_program};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn random_programs_behave_the_same(text in program()) {
        let program = typed_program(&text);
        let expected = run_tail(&program);
        let lowered = lower_checked(&program).unwrap_or_else(|e| panic!("{e} for {text}"));
        let actual = run_loops(&lowered);
        prop_assert_eq!(actual, expected, "{}\n{}", text, aplc::loops::print_program(&lowered));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    /// The loop IR parser gives an error value, never a panic, on damaged text (a printed program with one character
    /// removed or replaced).
    #[test]
    fn damaged_loop_ir_never_panics_the_parser(text in program(), cut in any::<prop::sample::Index>(), replace in any::<bool>()) {
        let program = typed_program(&text);
        let lowered = lower_checked(&program).unwrap_or_else(|e| panic!("{e} for {text}"));
        let printed = aplc::loops::print_program(&lowered);
        let mut chars: Vec<char> = printed.chars().collect();
        let position = cut.index(chars.len());
        if replace {
            chars[position] = '(';
        } else {
            chars.remove(position);
        }
        let damaged: String = chars.into_iter().collect();
        if let Ok(parsed) = aplc::loops::parser::parse_program(&damaged) {
            // Whatever parses must still print (the checker may reject it).
            let _ = aplc::loops::print_program(&parsed);
            let _ = aplc::loops::check::check_program(&parsed);
        }
    }
}
