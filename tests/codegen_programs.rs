//! Differential tests of the LLVM backend: every program here runs in the TAIL interpreter, in the loop-IR
//! interpreter, as an AOT executable and in the JIT (both in child processes); all four must print the same lines
//! (what the program prints, then its result) and end with the same status (0, or 1 after an APL error).

mod codegen_support;

use std::path::{Path, PathBuf};

use aplc::codegen::llvm::error::CodegenError;
use aplc::codegen::llvm::llvm_ir_text;
use aplc::codegen::llvm::target::CodegenOptions;

use codegen_support::{
    aot_outcome, jit_outcome, loop_interpreter_outcome, lowered_program_showing_result, run_jit_child_if_requested,
    scratch_directory, source_file, tail_interpreter_outcome, typed_tail, Outcome,
};

/// The test a JIT child process runs (see `codegen_support`); an ordinary run passes through it.
#[test]
fn jit_child_process_entry() {
    run_jit_child_if_requested();
}

const JIT_CHILD_TEST: &str = "jit_child_process_entry";

/// How one program fared: compared on every backend, or not lowered or not compiled (a NONCE ERROR naming the
/// construct the loop stage or the LLVM backend lacks).
enum Comparison {
    Compared(Outcome),
    NotLowered(String),
}

/// Runs the program everywhere and asserts that all outcomes agree; returns the common outcome.
fn compare_backends(name: &str, text: &str, directory: &Path) -> Comparison {
    let file = source_file(name, text);
    let typed = typed_tail(&file).unwrap_or_else(|error| panic!("{name}: {error}"));
    let program = match lowered_program_showing_result(&typed) {
        Ok(program) => program,
        Err(error) => return Comparison::NotLowered(error.to_string()),
    };
    match llvm_ir_text(&program, &CodegenOptions::default(), false) {
        Err(error @ CodegenError::UnsupportedOperator { .. }) => return Comparison::NotLowered(error.to_string()),
        Err(error) => panic!("{name}: translation failed: {error}"),
        Ok(_) => {}
    }
    let expected = loop_interpreter_outcome(&program);
    assert_eq!(
        tail_interpreter_outcome(&typed),
        expected,
        "{name}: the TAIL and loop-IR interpreters differ"
    );
    let executable_name = Path::new(name).file_stem().unwrap().to_string_lossy().into_owned();
    assert_eq!(
        aot_outcome(&program, directory, &executable_name),
        expected,
        "{name}: AOT executable"
    );
    assert_eq!(jit_outcome(&file, directory, JIT_CHILD_TEST), expected, "{name}: JIT");
    Comparison::Compared(expected)
}

fn expect_compared(name: &str, text: &str, directory: &Path) -> Outcome {
    match compare_backends(name, text, directory) {
        Comparison::Compared(outcome) => outcome,
        Comparison::NotLowered(reason) => panic!("{name} does not lower: {reason}"),
    }
}

fn corpus_files(directory: &str, extension: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(directory);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|error| panic!("{}: {error}", root.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|found| found == extension))
        .collect();
    paths.sort();
    paths
}

#[test]
fn every_tail_corpus_program_behaves_the_same_compiled() {
    let directory = scratch_directory("tail_corpus");
    let mut compared = Vec::new();
    let mut not_lowered = Vec::new();
    for path in corpus_files("apl-tests/tail", "tail") {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).expect("a readable corpus file");
        if typed_tail(&source_file(&name, &text)).is_err() {
            assert!(text.contains("(*! TYPE ERROR *)"), "{name}: unexpected front-end error");
            continue;
        }
        match compare_backends(&name, &text, &directory) {
            Comparison::Compared(_) => compared.push(name),
            Comparison::NotLowered(reason) => {
                assert!(reason.starts_with("NONCE ERROR"), "{name}: {reason}");
                not_lowered.push(name);
            }
        }
    }
    eprintln!("compared {compared:?}; not lowered or compiled: {not_lowered:?}");
    assert!(
        compared.len() >= 15,
        "compared only {compared:?}; not lowered: {not_lowered:?}"
    );
}

#[test]
fn signal_prints_the_hand_computed_sum() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("apl-tests/tail/signal.tail"))
        .expect("signal.tail");
    let outcome = expect_compared("signal.tail", &text, &scratch_directory("signal"));
    // 50 × (1/1.01 + 1/2.01 + ... + 1/100.01) = 258.5573403661738..., shown with 10 significant digits.
    assert_eq!(
        outcome,
        Outcome {
            lines: vec!["258.5573404".to_string()],
            status: 0,
            error: None,
        }
    );
}

#[test]
fn small_tail_programs_behave_the_same_compiled() {
    let directory = scratch_directory("small_tail");
    // Each with its result worked out by hand where it is short.
    let programs: &[(&str, Option<&[&str]>)] = &[
        ("reduce(addi, 0, iota(10))", Some(&["55"])),
        ("each(fn x => muli(x, x), iota(5))", Some(&["1 4 9 16 25"])),
        // APL's right fold: 1-(2-3) = 2.
        ("reduce(subi, 0, iota(3))", Some(&["2"])),
        ("reduce(subd, 0.0, each(i2d, iota(4)))", Some(&["¯2"])),
        // floor division and residue: ⌊¯7÷2 = ¯4; 3|¯7 = 2; ¯3|7 = ¯2.
        (
            "[divi(~7, 2), resi(3, ~7), resi(~3, 7), resi(0, 5)]",
            Some(&["¯4 2 ¯2 5"]),
        ),
        ("reduce(addi, 0, reshape([3,4], iota(12)))", Some(&["10 26 42"])),
        (
            "reduce(maxd, ~1000.0, each(fn x => muld(x, x), [~3.0, 2.0, 1.5]))",
            Some(&["9"]),
        ),
        ("reduce(muld, 1.0, each(i2d, iota(5)))", Some(&["120"])),
        ("each(fn x => eqc(x, 'b'), ['a','b','c'])", Some(&["0 1 0"])),
        ("reduce(andb, tt, each(fn x => lti(x, 9), iota(5)))", Some(&["1"])),
        ("['a','b','c']", Some(&["abc"])),
        // 0÷0 is 1 in APL.
        ("divd(0.0, 0.0)", Some(&["1"])),
        (
            "reduce(addd, 0.0, each(fn x => divd(1.0, i2d(x)), iota(4)))",
            Some(&["2.083333333"]),
        ),
        ("each(fn x => floor(muld(x, 0.5)), [1.0, 2.0, ~3.0])", Some(&["0 1 ¯2"])),
        ("each(fn x => ceil(x), [0.5, ~0.5, 2.0])", Some(&["1 0 2"])),
        // 20! = 2432902008176640000 is beyond 32 bits, which the display shows as a double (as Dyalog holds it); the
        // difference from the exact value shows that the int is exact.
        ("each(facti, [0, 1, 5, 20])", Some(&["1 1 120 2.432902008E18"])),
        ("subi(facti(20), 2432902008176639990)", Some(&["10"])),
        ("each(fn x => powi(x, 3), [2, ~3, 10])", Some(&["8 ¯27 1000"])),
        ("each(fn x => eqd(x, 0.3), [addd(0.1, 0.2), 0.31])", Some(&["1 0"])),
        ("each(fn x => resd(1.0, x), [2.5, ~0.25, 3.0])", Some(&["0.5 0.75 0"])),
        ("each(fn x => signi(x), [~4, 0, 9])", Some(&["¯1 0 1"])),
        ("each(sqrt, [4.0, 2.25])", Some(&["2 1.5"])),
        ("reduce(addi, 0, iota(0))", Some(&["0"])),
        ("each(fn x => i2c(addi(x, 96)), iota(3))", Some(&["abc"])),
        (
            "zipWith(fn x => fn y => addi(muli(x, 10), y), iota(3), [7,8,9])",
            Some(&["17 28 39"]),
        ),
        // Γ(1.5) = √π÷2 = 0.88622692545...; 4! = 24.
        ("each(factd, [0.5, 4.0])", Some(&["0.8862269255 24"])),
        // Row 4 of Pascal's triangle; 5!÷(2!×3!) = 10; 2 of 4 is... 4!÷(2!×2!) = 6, and (2-4)! fails, giving 0.
        ("each(fn x => binomi(x, 4), [0, 1, 2, 3, 4, 5])", Some(&["1 4 6 4 1 0"])),
        (
            "[binomd(2.0, 5.0), binomd(2.0, 4.0), binomd(4.0, 2.0)]",
            Some(&["10 6 0"]),
        ),
        // 62 choose 31 = 465428353255261088 fits; 67 choose 33 does not (about 1.42E19 > 2⁶³).
        ("subi(binomi(31, 62), 465428353255261000)", Some(&["88"])),
        ("binomi(33, 67)", Some(&[])),
        ("binomi(~1, 3)", Some(&[])),
        ("facti(21)", Some(&[])),
        // ⎕INT32AND/OR/XOR/NOT on the low 32 bits: 1100∧1010 = 1000, ∨ = 1110, ≠ = 0110; ~0 = ¯1; 2³²+1 has low bits 1.
        (
            "[andi(12, 10), ori(12, 10), xori(12, 10), noti(0), andi(4294967297, 3)]",
            Some(&["8 14 6 ¯1 1"]),
        ),
        // 32-bit shifts: 1<<31 is the lowest int32; ¯1 >>> 28 keeps four ones; ¯16 >> 2 = ¯4; 1<<32 shifts out.
        (
            "[shli(1, 31), shri(~1, 28), shari(~16, 2), shli(1, 32)]",
            Some(&["¯2147483648 15 ¯4 0"]),
        ),
        ("[b2i(i2b(1)), d2i(3.0), d2i(~2.0)]", Some(&["1 3 ¯2"])),
        ("i2b(2)", Some(&[])),
        ("d2i(2.5)", Some(&[])),
        ("ln(0.0)", Some(&[])),
        // APL errors: the output before them, then status 1.
        ("let x:[int]0 = print(10, 7) in divi(1, 0)", Some(&["7"])),
        ("let x:[int]0 = print(10, 42) in divd(1.0, 0.0)", Some(&["42"])),
        (
            "reduce(addd, 0.0, each(fn x => divd(1.0, subd(i2d(x), 3.0)), iota(5)))",
            Some(&[]),
        ),
        ("each(fn x => sqrt(subd(2.0, i2d(x))), iota(4))", Some(&[])),
        ("each(fn x => facti(subi(3, x)), iota(5))", Some(&[])),
        ("zipWith(addi, iota(3), iota(4))", Some(&[])),
        // Complex numbers: (2+3i)(1+i) = 2+2i+3i-3; (1+i)÷(1-i) = (1+i)²÷2 = i; |3+4i| = 5; 0÷0 is 1, 1÷0 an error.
        ("mulx(2.0j3.0, 1.0j1.0)", Some(&["¯1J5"])),
        ("divx(1.0j1.0, 1.0j~1.0)", Some(&["0J1"])),
        (
            "[magnx(3.0j4.0), rex(conjx(2.0j5.0)), imx(conjx(2.0j5.0))]",
            Some(&["5 2 ¯5"]),
        ),
        ("divx(0.0j0.0, 0.0j0.0)", Some(&["1"])),
        ("divx(1.0j0.0, 0.0j0.0)", Some(&[])),
        ("reduce(addx, 0.0j0.0, [1.0j1.0, 2.0j~3.0])", Some(&["3J¯2"])),
        (
            "each(fn x => mulx(d2x(i2d(x)), 0.0j1.0), iota(3))",
            Some(&["0J1 0J2 0J3"]),
        ),
        // ⍕: the display text as chars; a matrix has its columns right-aligned.
        ("format(10, [1, 22, 333])", Some(&["1 22 333"])),
        ("tally(format(10, [0.5, 2.0]))", Some(&["5"])),
        (
            "formatMatrix(10, reshape([2,2], [1, 10, 100, 5]))",
            Some(&["  1 10", "100  5"]),
        ),
        // ?1 is always 1; ?0 is a DOMAIN ERROR.
        ("each(fn x => roll(1), iota(3))", Some(&["1 1 1"])),
        ("roll(0)", Some(&[])),
        // NaN (∞-∞) made in an argument whose own check is left out (nan_checks.rs): the check of the operation using
        // it, or of the reduction's final accumulator, still stops the program; without a NaN nothing stops.
        (
            "reduce(addd, 0.0, each(fn x => addd(subd(muld(i2d(x), 1.0E306), muld(i2d(x), 1.0E306)), 1.0), \
             each(fn x => muli(x, 1000), iota(3))))",
            Some(&[]),
        ),
        (
            "each(fn x => let y:[double]0 = subd(muld(i2d(x), 1.0E306), muld(i2d(x), 1.0E306)) in muld(y, 2.0), \
             each(fn x => muli(x, 1000), iota(3)))",
            Some(&[]),
        ),
        ("each(fn x => addd(muld(i2d(x), 2.0), 1.0), iota(3))", Some(&["3 5 7"])),
        // A deferred check in a vectorisable loop still stops after the output before the loop.
        (
            "let p:[int]0 = print(10, 5) in reduce(addd, 0.0, each(fn x => divd(1.0, subd(i2d(x), 3.0)), iota(5)))",
            Some(&["5"]),
        ),
    ];
    for (index, (text, expected_lines)) in programs.iter().enumerate() {
        let name = format!("small_{index}.tail");
        let outcome = expect_compared(&name, text, &directory);
        if let Some(expected_lines) = expected_lines {
            assert_eq!(outcome.lines, *expected_lines, "{text}");
        }
    }
}

#[test]
fn apl_programs_behave_the_same_compiled() {
    let directory = scratch_directory("apl_programs");
    let mut compared = Vec::new();
    let mut not_lowered = Vec::new();
    for path in corpus_files("apl-tests/programs", "apl") {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).expect("a readable corpus file");
        if typed_tail(&source_file(&name, &text)).is_err() {
            continue;
        }
        match compare_backends(&name, &text, &directory) {
            Comparison::Compared(_) => compared.push(name),
            Comparison::NotLowered(_) => not_lowered.push(name),
        }
    }
    eprintln!("compared {compared:?}; not lowered or compiled: {not_lowered:?}");
    assert!(
        compared.iter().any(|name| name == "signal.apl") && compared.len() >= 5,
        "compared only {compared:?}; not lowered: {not_lowered:?}"
    );
}

/// The APL corpus outside programs/ (about 250 programs that the loop stage lowers; the others are skipped as NONCE
/// there): every one compiled, AOT and JIT, against the interpreters. Failures are collected so that one run shows
/// them all.
#[test]
fn every_lowered_apl_corpus_program_behaves_the_same_compiled() {
    // Recursive functions nest as deep as the depth limit in the interpreters, which need more than a test
    // thread's stack for that.
    aplc::driver::on_pipeline_stack(|| {
        let directory = scratch_directory("apl_corpus");
        let mut compared = 0;
        let mut failures = Vec::new();
        let corpus_directories = [
            "apl-tests/primitives",
            "apl-tests/operators",
            "apl-tests/dfns",
            "apl-tests/errors",
            "apl-tests/indexing",
            "apl-tests/trains",
            "apl-tests/types",
        ];
        for corpus_directory in corpus_directories {
            for path in corpus_files(corpus_directory, "apl") {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                let text = std::fs::read_to_string(&path).expect("a readable corpus file");
                if typed_tail(&source_file(&name, &text)).is_err() {
                    continue;
                }
                match std::panic::catch_unwind(|| compare_backends(&name, &text, &directory)) {
                    Ok(Comparison::Compared(_)) => compared += 1,
                    Ok(Comparison::NotLowered(_)) => {}
                    Err(_) => failures.push(format!("{corpus_directory}/{name}")),
                }
            }
        }
        eprintln!("compared {compared} programs");
        assert_eq!(failures, Vec::<String>::new(), "programs whose compiled runs differ");
        assert!(compared >= 200, "compared only {compared} programs");
    })
}
