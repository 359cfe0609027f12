//! Elaboration tests. End to end: parse, elaborate, infer and check the TAIL, evaluate it on the TAIL interpreter with
//! a recording host, and compare the printed lines with what Dyalog prints (worked out by hand).

use super::*;
use crate::syntax::parse_program;
use crate::tail::interp::{eval_program, MemoryHost};

/// The TAIL program of a script, inferred, or the first error in APL terms.
fn compile(text: &str) -> Result<crate::tail::ast::Program, String> {
    let file = SourceFile::new("test.apl", text);
    let program = parse_program(&file).map_err(|e| format!("{e}"))?;
    let mut tail_program = elaborate_program(&program, &file)
        .map_err(|e| e.errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "))?;
    let printed = crate::tail::print_program(&tail_program);
    crate::tail::infer::infer_program(&mut tail_program).map_err(|e| format!("TAIL type error: {e}\n{printed}"))?;
    crate::tail::check::check_program(&tail_program).map_err(|e| format!("TAIL check error: {e}\n{printed}"))?;
    Ok(tail_program)
}

/// The lines a script prints.
fn run(text: &str) -> Result<Vec<String>, String> {
    let program = compile(text)?;
    let mut host = MemoryHost::default();
    eval_program(&program, &mut host).map_err(|e| format!("{e}\n{}", crate::tail::print_program(&program)))?;
    Ok(host.printed_lines)
}

#[track_caller]
fn check(text: &str, expected: &[&str]) {
    match run(text) {
        Ok(lines) => assert_eq!(lines, expected, "program:\n{text}"),
        Err(error) => panic!("program:\n{text}\nfailed: {error}"),
    }
}

/// The APL error name of a script that must fail to compile.
#[track_caller]
fn check_error(text: &str, expected_name: &str) {
    match compile(text) {
        Ok(program) => panic!(
            "program:\n{text}\ncompiled to:\n{}",
            crate::tail::print_program(&program)
        ),
        Err(error) => assert!(error.starts_with(expected_name), "program:\n{text}\nerror: {error}"),
    }
}

// ----- scalar functions and promotion -----

#[test]
fn arithmetic_on_scalars_and_vectors() {
    check("1+2", &["3"]);
    check("1 2+3", &["4 5"]);
    check("1 2 3×4 5 6", &["4 10 18"]);
    check("10-1 2 3", &["9 8 7"]);
    check("-3", &["¯3"]);
    check("1 2 3÷2", &["0.5 1 1.5"]);
    check("÷4", &["0.25"]);
    check("2*10", &["1024"]);
    check("⌈2.5 ¯2.5", &["3 ¯2"]);
    check("⌊2.5 ¯2.5", &["2 ¯3"]);
    check("3⌈1 5 2", &["3 5 3"]);
    check("3|7 ¯7", &["1 2"]);
    check("|¯4 2", &["4 2"]);
    check("×¯3 0 5", &["¯1 0 1"]);
}

#[test]
fn comparisons_and_booleans() {
    check("1 2 3<2", &["1 0 0"]);
    check("2=1 2 3", &["0 1 0"]);
    check("1 0 1∧1 1 0", &["1 0 0"]);
    check("1 0 1∨0 0 0", &["1 0 1"]);
    check("~1 0", &["0 1"]);
    check("1 2≠1 3", &["0 1"]);
    check("'abc'='abd'", &["1 1 0"]);
}

#[test]
fn promotion_inserts_conversions() {
    check("1+0.5", &["1.5"]);
    check("1 0 1+1", &["2 1 2"]);
    check("2.5×1 2", &["2.5 5"]);
}

#[test]
fn circle_and_logarithms() {
    check("○1", &["3.141592654"]);
    check("1○0", &["0"]);
    check("2○0", &["1"]);
    check("⍟1", &["0"]);
    check("2⍟8", &["3"]);
}

// ----- reduce and scan -----

#[test]
fn reductions_fold_from_the_right_with_identity_items() {
    check("-/1 2 3 4", &["¯2"]);
    check("+/⍳0", &["0"]);
    check("×/⍳5", &["120"]);
    check("+/1 0 1 1", &["3"]);
    check("∧/1 1 0", &["0"]);
    check("⌈/3 1 4 1 5", &["5"]);
    check("+/2 3⍴⍳6", &["6 15"]);
    check("+⌿2 3⍴⍳6", &["5 7 9"]);
    check("÷/2 4 8", &["4"]);
}

#[test]
fn reduce_with_a_dfn_folds_onto_the_last_element() {
    check("{⍺-⍵}/1 2 3 4", &["¯2"]);
    check("{⍺+⍵}/⍳10", &["55"]);
    check("{⍺+2×⍵}/⍳3", &["17"]);
    // An axis known to be empty fails when the program runs: the reduction may sit in a guard's branch not taken.
    let program = compile("{⍺+2×⍵}/⍬").expect("compiles");
    let error = eval_program(&program, &mut MemoryHost::default()).expect_err("an empty reduction fails");
    assert!(error.to_string().starts_with("DOMAIN ERROR"), "{error}");
}

#[test]
fn reducing_with_a_dfn_over_an_axis_of_unknown_length_fails_only_when_it_is_empty_at_run_time() {
    // `⍳n` with n computed by the program (`?1` is always 1) may be empty, and `{⍺+2×⍵}` has no identity item: a DOMAIN ERROR when the
    // program finds the axis empty, the reduction otherwise (1 f (2 f 3) with f(a,b) = a+2b is 1+2×8 = 17).
    let lines_and_error = |text: &str| {
        let program = compile(text).expect("compiles");
        let mut host = MemoryHost::default();
        let error = eval_program(&program, &mut host).err().map(|error| error.to_string());
        (host.printed_lines, error)
    };
    let (lines, error) = lines_and_error("n←¯1+?1\n⎕←{⍺+2×⍵}/⍳n+3\n{⍺+2×⍵}/⍳n");
    assert_eq!(lines, ["17"]);
    let error = error.expect("the empty reduction fails");
    assert!(
        error.starts_with("DOMAIN ERROR") && error.contains("no identity item"),
        "{error}"
    );
    // Every row of a matrix is empty even when there are rows: 3 0⍴0 has no identity to give for each row.
    let (_, error) = lines_and_error("n←¯1+?1\n{⍺+2×⍵}/3 n⍴0");
    assert!(error.is_some_and(|error| error.starts_with("DOMAIN ERROR")));
    check("{⍺+2×⍵}/1 2 3", &["17"]);
}

#[test]
fn scans() {
    check("+\\⍳5", &["1 3 6 10 15"]);
    check("-\\1 2 3", &["1 ¯1 2"]);
    check("×\\1 2 3 4", &["1 2 6 24"]);
}

// ----- structural functions -----

#[test]
fn structural_basics() {
    check("⌽⍳5", &["5 4 3 2 1"]);
    check("2 3⍴⍳6", &["1 2 3", "4 5 6"]);
    check("⍴2 3⍴⍳6", &["2 3"]);
    check("≢⍳7", &["7"]);
    // ⍳ of a value known only to elaboration (⍬⍴ gives a scalar TAIL types as [int]0): found by the fuzzer.
    check("⍳ ⍬ ⍴ 1 2 3", &["1"]);
    check("3↑⍳10", &["1 2 3"]);
    check("¯2↑⍳5", &["4 5"]);
    check("2↓⍳5", &["3 4 5"]);
    check("1⌽⍳5", &["2 3 4 5 1"]);
    check("¯1⌽⍳5", &["5 1 2 3 4"]);
    check("⍉2 3⍴⍳6", &["1 4", "2 5", "3 6"]);
    check("1 2,3 4", &["1 2 3 4"]);
    check("0,⍳3", &["0 1 2 3"]);
    check("⊃5 6 7", &["5"]);
    check(",2 2⍴⍳4", &["1 2 3 4"]);
    check("⍋3 1 2", &["2 3 1"]);
    check("⍒3 1 2", &["1 3 2"]);
    check("(2 2⍴⍳4)⍪5 6", &["1 2", "3 4", "5 6"]);
    check("⊖2 2⍴⍳4", &["3 4", "1 2"]);
}

#[test]
fn compress_replicate_and_search() {
    check("1 0 1/⍳3", &["1 3"]);
    check("1 2 3/4 5 6", &["4 5 5 6 6 6"]);
    check("(⍳5)>2", &["0 0 1 1 1"]);
    check("((⍳5)>2)/⍳5", &["3 4 5"]);
    check("10 20 30⍳20 40", &["2 4"]);
    check("2 5∊1 2 3", &["1 0"]);
    check("⍸0 1 1 0", &["2 3"]);
    check("1 2 3 4~2 4", &["1 3"]);
    check("2⊥1 0 1", &["5"]);
}

// ----- dfns, guards and recursion -----

#[test]
fn dfns() {
    check("{⍵+1} 5", &["6"]);
    check("3 {⍺×⍵} 4", &["12"]);
    check("f←{⍵×⍵}\nf 1 2 3", &["1 4 9"]);
    check("{⍺←10 ⋄ ⍺+⍵} 1", &["11"]);
    check("2 {⍺←10 ⋄ ⍺+⍵} 1", &["3"]);
    check("{x←⍵+1 ⋄ x×2} 3", &["8"]);
}

#[test]
fn guards_and_recursion() {
    check("{⍵=0:1 ⋄ ⍵×∇ ⍵-1} 5", &["120"]);
    check("f←{⍵>0:⍵ ⋄ -⍵}\nf ¯3\nf 4", &["3", "4"]);
    check("g←{⍵>0:'pos' ⋄ 'neg'}\ng 1", &["pos"]);
    check("h←{⍵≥10:⍵ ⋄ ⍵+100}\nh¨5 15", &["105 15"]);
}

#[test]
fn signal_program() {
    let text = "diff←{1↓⍵-¯1⌽⍵}\nsignal←{¯50⌈50⌊50×(diff 0,⍵)÷0.01+⍵}\n+/ signal ⍳100";
    check(text, &["258.5573404"]);
    let printed = crate::tail::print_program(&compile(text).unwrap());
    assert!(printed.contains("i2d"), "{printed}");
    assert!(printed.contains("reduce(addd,0.0"), "{printed}");
}

#[test]
fn signal_and_inner_product_tail_snapshots() {
    let signal = "diff←{1↓⍵-¯1⌽⍵}\nsignal←{¯50⌈50⌊50×(diff 0,⍵)÷0.01+⍵}\n+/ signal ⍳100";
    insta::assert_snapshot!("signal", crate::tail::print_program(&compile(signal).unwrap()));
    let product = "A←3 2⍴⍳5\nB←⍉A\n×/+/A+.×B";
    insta::assert_snapshot!("inner_product", crate::tail::print_program(&compile(product).unwrap()));
}

#[test]
fn boolean_inner_products_are_packed_into_words() {
    // Rows 110, 011 against columns 101, 011: shared positions 1 / 2 and 3 / 3, so counts 1 1 / 1 2.
    let text = "A←2 3⍴1 1 0 0 1 1\nB←3 2⍴1 0 0 1 1 1\nA+.∧B\nA≠.∧B";
    check(text, &["1 1", "1 2", "1 1", "1 0"]);
    let program = compile(text).unwrap();
    insta::assert_snapshot!("packed_boolean_inner_product", crate::tail::print_program(&program));
    let printed = crate::tail::print_program(&program);
    assert!(!printed.contains("andb") && printed.contains("popcnt"), "{printed}");
    // Ints are not packed (the same product on 1×A keeps the element-wise form).
    let ints = crate::tail::print_program(&compile("A←1×2 3⍴1 1 0 0 1 1\nA+.×3 2⍴1 0 0 1 1 1").unwrap());
    assert!(!ints.contains("popcnt"), "{ints}");
}

// ----- operators and trains -----

#[test]
fn each_outer_inner_products() {
    check("{⍵×2}¨1 2 3", &["2 4 6"]);
    check("1 2 3{⍺+⍵}¨4 5 6", &["5 7 9"]);
    check("1 2∘.×1 2 3", &["1 2 3", "2 4 6"]);
    check("1 2 3+.×4 5 6", &["32"]);
    check("x←2 2⍴1 2 3 4\nx+.×x", &[" 7 10", "15 22"]);
    check("A←3 2⍴⍳5\nB←⍉A\n×/+/A+.×B", &["65780"]);
}

#[test]
fn power_commute_compose() {
    check("f←{⍵+1}\nf⍣5⊢0", &["5"]);
    check("{⍵×2}⍣10⊢1", &["1024"]);
    check("-⍨5", &["0"]);
    check("2-⍨5", &["3"]);
    check("2∘×1 2 3", &["2 4 6"]);
    check("×∘2⊢3", &["6"]);
    check("(-∘⌽)1 2 3", &["¯3 ¯2 ¯1"]);
}

#[test]
fn rank_operator_on_scalars_whole_arguments_and_cells() {
    check("{⍵×2}⍤0⊢1 2 3", &["2 4 6"]);
    check("(+/⍤1)1 2 3", &["6"]);
    // Rows of 1 1 / 1 1: each sums to 2.
    check("(+/⍤1)2 2⍴1", &["2 2"]);
    check("1 2(+⍤1)2 2⍴10", &["11 12", "11 12"]);
    check("(2 2⍴1)(+⍤1)2 2⍴1", &["2 2", "2 2"]);
    check_error("(2 2⍴1)(+⍤1)2 2 2⍴1", "RANK ERROR");
}

#[test]
fn at_operator() {
    check("0@2 4⊢1 2 3 4 5", &["1 0 3 0 5"]);
    check("(-@2 4)1 2 3 4 5", &["1 ¯2 3 ¯4 5"]);
    check("0@(>∘3)⊢1 5 2 7", &["1 0 2 0"]);
}

#[test]
fn trains() {
    check("(+/÷≢)1 2 3 4", &["2.5"]);
    check("(1+⊢)5", &["6"]);
    check("(-⌽)1 2 3", &["¯3 ¯2 ¯1"]);
    check("3(+×-)1", &["8"]);
}

// ----- output, assignment, indexing, tuples -----

#[test]
fn output_and_assignment() {
    check("x←3\nx", &["3"]);
    check("⎕←1 2\n3", &["1 2", "3"]);
    check("x←1\nx+←2\nx", &["3"]);
    check("2×x←3", &["6"]);
    check("a←1 2 3\na", &["1 2 3"]);
}

#[test]
fn indexing() {
    check("x←10 20 30\nx[2]", &["20"]);
    check("x←10 20 30\nx[3 1]", &["30 10"]);
    check("m←2 3⍴⍳6\nm[2;3]", &["6"]);
    check("m←2 3⍴⍳6\nm[2;]", &["4 5 6"]);
    check("m←2 3⍴⍳6\nm[;1]", &["1 4"]);
    check("x←1 2 3\nx[2]←9\nx", &["1 9 3"]);
    check("2⊃10 20 30", &["20"]);
}

#[test]
fn tuples_from_mixed_strands() {
    // t[2] is the enclosed item ⊂3 4 5, a scalar, which +/ leaves as it is (Dyalog shows it after a blank); 2⊃t is
    // the vector itself, whose sum is 12.
    check("t←(1 2)(3 4 5)\n+/t[2]\n+/2⊃t", &[" 3 4 5", "12"]);
    check(
        "step←{(1+1⊃⍵)(2×2⊃⍵)}\nr←step⍣10⊢0 (1 1)\n1⊃r\n2⊃r",
        &["10", "1024 1024"],
    );
    // ⍵[2] keeps the item enclosed, so a step that strands it again nests one level deeper each time: 0 (1 1) has
    // the mixed depth ¯2, one step ¯3, two steps ¯4.
    check("step←{(⍵[1]+1)(⍵[2]×2)}\n≡step step 0 (1 1)", &["¯4"]);
}

#[test]
fn each_over_strands_and_nested_results() {
    // 'ab' 'cde': lengths 2 3; each reversed and enlisted, ba then edc.
    check("w←'ab' 'cde'\n≢¨w\n∊⌽¨w", &["2 3", "baedc"]);
    // The first of each word: a simple vector of chars.
    check("⊃¨'ab' 'cde'", &["ac"]);
    check("+/¨(1 2)(3 4 5)", &["3 12"]);
    // ⍳¨⍳5 has 1+2+3+4+5 items in all.
    check("≢∊⍳¨⍳5", &["15"]);
    // A scalar goes with every item: (11 12)(13 14), shown as Dyalog shows a nested vector.
    check("(1 2)(3 4)+¨10", &[" 11 12  13 14"]);
}

#[test]
fn a_strand_of_different_length_than_its_partner_is_a_length_error() {
    check_error("(1 2)(3 4)+¨1 2 3", "LENGTH ERROR");
}

#[test]
fn complex_numbers() {
    check("1J2+3J¯1", &["4J1"]);
    check("1J1×1J¯1", &["2"]);
    check("|3J4", &["5"]);
}

#[test]
fn grade_matrix_rows_lexicographically() {
    check("⍋3 2⍴3 1 1 2 1 1", &["3 2 1"]);
    check("⍒3 2⍴3 1 1 2 1 1", &["1 2 3"]);
}

#[test]
fn int32_functions_compute_in_32_bits() {
    check("1 ⎕INT32SHL 31", &["¯2147483648"]);
    check("¯1 ⎕INT32SHR 28", &["15"]);
    check("12 ⎕INT32AND 10", &["8"]);
}

#[test]
fn system_names() {
    check("⎕IO", &["1"]);
    check("⎕IO←1\n⍳3", &["1 2 3"]);
}

// ----- errors -----

#[test]
fn errors_are_reported_in_apl_terms() {
    check_error("x+1", "VALUE ERROR");
    check_error("1 2 3+4 5", "LENGTH ERROR");
    check_error("(2 2⍴1)+1 2", "RANK ERROR");
    check_error("+\\(1 2)(3 4)", "NONCE ERROR");
    check_error("⎕IO←0", "NONCE ERROR");
    check_error("{⍺+⍵} 1", "VALUE ERROR");
    check_error("f←{⍵=0:0 ⋄ ∇ ⍵-1}\nf ⍳3", "");
}

// ----- the apl-tests corpus -----

/// What a corpus file expects: its output lines and, if it must fail, the APL error name.
struct Expectation {
    lines: Vec<String>,
    error: Option<String>,
    skipped: bool,
}

fn expectation(text: &str) -> Expectation {
    let mut expectation = Expectation {
        lines: Vec::new(),
        error: None,
        skipped: false,
    };
    for line in text.lines() {
        let line = line.trim_start();
        if let Some(rest) = line.strip_prefix("⍝>") {
            expectation
                .lines
                .push(rest.strip_prefix(' ').unwrap_or(rest).to_string());
        } else if let Some(rest) = line.strip_prefix("⍝!") {
            expectation.error = Some(rest.trim().to_string());
        } else if let Some(rest) = line.strip_prefix("⍝?") {
            if rest.trim().starts_with("skip interp") {
                expectation.skipped = true;
            }
        }
    }
    expectation
}

/// Whether a corpus file behaves as its header says, on the TAIL interpreter.
fn corpus_file_passes(text: &str) -> Result<(), String> {
    let expected = expectation(text);
    let program = match compile(text) {
        Ok(program) => program,
        Err(error) => {
            return match &expected.error {
                Some(name) if error.starts_with(name.as_str()) && expected.lines.is_empty() => Ok(()),
                _ => Err(error),
            }
        }
    };
    let mut host = MemoryHost::default();
    let result = eval_program(&program, &mut host);
    if host.printed_lines != expected.lines {
        return Err(format!(
            "printed {:?}, expected {:?}",
            host.printed_lines, expected.lines
        ));
    }
    match (result, &expected.error) {
        (Ok(_), None) => Ok(()),
        (Err(error), Some(name)) if error.kind.apl_name() == name => Ok(()),
        (Err(error), _) => Err(format!("run-time error {error}")),
        (Ok(_), Some(name)) => Err(format!("expected {name}")),
    }
}

fn corpus_files(directory: &std::path::Path, files: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(directory) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if !path.ends_with("syntax") && !path.ends_with("tail") {
                corpus_files(&path, files);
            }
        } else if path.extension().is_some_and(|e| e == "apl") {
            files.push(path);
        }
    }
}

fn corpus_files_including_all(directory: &std::path::Path, files: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(directory) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            corpus_files_including_all(&path, files);
        } else if path.extension().is_some_and(|e| e == "apl") {
            files.push(path);
        }
    }
}

/// The corpus is the lead's harness's business; this test guards against elaboration regressions on it, and with
/// `APLC_CORPUS_REPORT=1` lists every failing file.
#[test]
fn corpus_files_pass_on_the_interpreter() {
    // Recursive functions nest thousands of calls deep in the interpreter: more than a test thread's stack.
    crate::driver::on_pipeline_stack(|| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("apl-tests");
        let mut files = Vec::new();
        corpus_files(&root, &mut files);
        files.sort();
        let mut passed = 0;
        let mut failures = Vec::new();
        for file in &files {
            let text = std::fs::read_to_string(file).expect("a corpus file");
            if expectation(&text).skipped {
                continue;
            }
            match std::panic::catch_unwind(|| corpus_file_passes(&text)) {
                Ok(Ok(())) => passed += 1,
                Ok(Err(error)) => failures.push(format!("{}: {}", file.display(), error.lines().next().unwrap_or(""))),
                Err(_) => failures.push(format!("{}: PANIC", file.display())),
            }
        }
        if std::env::var("APLC_CORPUS_REPORT").is_ok() {
            for failure in &failures {
                println!("{failure}");
            }
            println!("{passed} passed, {} failed", failures.len());
        }
        assert!(failures.iter().all(|f| !f.ends_with("PANIC")), "panics: {failures:#?}");
        // The syntax corpus (valid and invalid scripts) must never make elaboration panic.
        let mut syntax_files = Vec::new();
        corpus_files_including_all(&root.join("syntax"), &mut syntax_files);
        for file in &syntax_files {
            let text = std::fs::read_to_string(file).expect("a syntax corpus file");
            let outcome = std::panic::catch_unwind(|| {
                let _ = compile(&text);
            });
            assert!(outcome.is_ok(), "elaboration panicked on {}", file.display());
        }
        assert!(passed >= 300, "only {passed} corpus files pass");
    })
}

// ----- resolution of tricky sequences -----

/// The resolved tree of an expression, written with brackets: `(f x)` monadic, `(x f y)` dyadic, `{f /}` an
/// operator with its operands, `[a b]` a strand, `<f g h>` a fork, `<g h>` an atop. Names `f g h` are functions and
/// `x y` arrays.
fn resolved(text: &str) -> String {
    use super::resolve::Node;
    let file = SourceFile::new("test.apl", text);
    let program = parse_program(&file).expect("parses");
    let ast::StatementKind::Expr(expr) = &program.statements[0].kind else {
        panic!("an expression")
    };
    let span = Span::default();
    let function = |p| Val::Function(Rc::new(Fun::Primitive(p, span)));
    let array = Val::Array(Arr::dynamic(Expr::Var("a".to_string()), Base::Int, 1));
    let env = Env::default()
        .bind("f", function(ast::Primitive::Plus))
        .bind("g", function(ast::Primitive::Times))
        .bind("h", function(ast::Primitive::Minus))
        .bind("x", array.clone())
        .bind("y", array);
    let node = Resolver::new(&env).resolve(&expr.items, expr.span).expect("resolves");
    fn render(node: &Node<'_>, file: &SourceFile) -> String {
        match node {
            Node::Atom(item, _) => file.slice(item.span()).to_string(),
            Node::Given(..) => "given".to_string(),
            Node::Strand(elements, _) => {
                format!(
                    "[{}]",
                    elements.iter().map(|e| render(e, file)).collect::<Vec<_>>().join(" ")
                )
            }
            Node::Monadic { function, argument, .. } => {
                format!("({} {})", render(function, file), render(argument, file))
            }
            Node::Dyadic {
                left, function, right, ..
            } => {
                format!(
                    "({} {} {})",
                    render(left, file),
                    render(function, file),
                    render(right, file)
                )
            }
            Node::Derived {
                operator, left, right, ..
            } => match right {
                Some(right) => format!(
                    "{{{} {} {}}}",
                    render(left, file),
                    file.slice(operator.span()),
                    render(right, file)
                ),
                None => format!("{{{} {}}}", render(left, file), file.slice(operator.span())),
            },
            Node::Fork {
                left, middle, right, ..
            } => {
                format!(
                    "<{} {} {}>",
                    render(left, file),
                    render(middle, file),
                    render(right, file)
                )
            }
            Node::Atop { left, right, .. } => format!("<{} {}>", render(left, file), render(right, file)),
        }
    }
    render(&node, &file)
}

#[test]
fn resolution_of_tricky_sequences() {
    assert_eq!(resolved("f g x"), "(f (g x))");
    assert_eq!(resolved("+/⍳5"), "({+ /} (⍳ 5))");
    assert_eq!(resolved("1 2+3"), "(1 2 + 3)");
    assert_eq!(resolved("x f.g y"), "(x {f . g} y)");
    assert_eq!(resolved("(+/÷≢)x"), "((+/÷≢) x)");
    assert_eq!(resolved("+/÷≢"), "<{+ /} ÷ ≢>");
    assert_eq!(resolved("2∘×"), "{2 ∘ ×}");
    assert_eq!(resolved("f⍣3⊢x"), "({f ⍣ 3} (⊢ x))");
    assert_eq!(resolved("x∘.×y"), "(x {× ∘.} y)");
    assert_eq!(resolved("-⍨x"), "({- ⍨} x)");
    assert_eq!(resolved("x y f x"), "([x y] f x)");
    assert_eq!(resolved("f g"), "<f g>");
    assert_eq!(resolved("x f g h y"), "(x f (g (h y)))");
    assert_eq!(resolved("f∘g¨x"), "({{f ∘ g} ¨} x)");
    assert_eq!(resolved("1 f g"), "<1 f g>");
}

// ----- loops, predicates, operators, prelude functions, annotations -----

#[test]
fn tail_recursion_becomes_a_loop() {
    check("sum←{⍺←0 ⋄ ⍵=0:⍺ ⋄ (⍺+⍵)∇ ⍵-1}\nsum 1000", &["500500"]);
    check("gcd←{⍵=0:⍺ ⋄ ⍵ ∇ ⍵|⍺}\n(48×⊃⍳1) gcd 18", &["6"]);
    let program = crate::tail::print_program(&compile("sum←{⍺←0 ⋄ ⍵=0:⍺ ⋄ (⍺+⍵)∇ ⍵-1}\nsum 1000").unwrap());
    assert!(program.contains("powerUntil"), "{program}");
}

#[test]
fn recursion_on_constants_unfolds() {
    check(
        "fib←{⍵<2:⍵ ⋄ (∇ ⍵-1)+∇ ⍵-2}\nfib¨0 1 2 3 4 5 6 7",
        &["0 1 1 2 3 5 8 13"],
    );
    // Short index vectors carry their values, so ⍳5 unfolds too; a long one is a run-time array.
    check("fib←{⍵<2:⍵ ⋄ (∇ ⍵-1)+∇ ⍵-2}\nfib¨⍳5", &["1 1 2 3 5"]);
}

#[test]
fn other_recursion_becomes_a_function() {
    // ⍳20 is a run-time array: each element is a call of the recursive function.
    let fib = "fib←{⍵<2:⍵ ⋄ (∇ ⍵-1)+∇ ⍵-2}\nfib¨⍳20";
    check(
        fib,
        &["1 1 2 3 5 8 13 21 34 55 89 144 233 377 610 987 1597 2584 4181 6765"],
    );
    let program = crate::tail::print_program(&compile(fib).unwrap());
    assert!(program.starts_with("fun rec"), "{program}");
    assert!(program.contains("call rec"), "{program}");
    // A vector argument: 1+2+3+4+5 = 15.
    check("n←⍳5 ⎕ArgInt 1\nsum←{0=≢⍵:0 ⋄ (⊃⍵)+sum 1↓⍵}\nsum n", &["15"]);
    // A recursive call that changes ⍵'s rank is not supported: a NONCE ERROR at the call.
    check_error("n←⍳5 ⎕ArgInt 1\ng←{0=≢⍵:0 ⋄ 1+g 1 1⍴1↓,⍵}\ng n", "NONCE ERROR");
}

#[test]
fn power_with_a_predicate() {
    check("{⍵÷2}⍣{⍺<1}⊢100", &["0.78125"]);
    check("{1+÷⍵}⍣≡⊢1", &["1.618033989"]);
}

#[test]
fn user_operators() {
    check("twice←{⍺⍺ ⍺⍺ ⍵}\n{⍵+1}twice 5", &["7"]);
    check("on←{(⍵⍵ ⍺)⍺⍺(⍵⍵ ⍵)}\n3 +on{⍵×⍵} 4", &["25"]);
}

#[test]
fn prelude_backed_primitives() {
    check("1 2⌽2 3⍴⍳6", &["2 3 1", "6 4 5"]);
    check("2 2 2⊤1 2 3", &["0 0 0", "0 1 1", "1 0 1"]);
    check("12 15∨8 10", &["4 5"]);
    check("0 12 ¯4∨5 0 6", &["5 12 2"]);
    check("4 0∧6 3", &["12 0"]);
    check("1 0 1\\1 2", &["1 0 2"]);
    check("⍸2 0 1", &["1 1 3"]);
    check("∪3 1 3 2 1", &["3 1 2"]);
    check("1 2 3∪2 5", &["1 2 3 5"]);
    check("1 2 3 4∩4 2 7", &["2 4"]);
}

#[test]
fn indexed_assignment_in_general() {
    check("v←10 20 30 40\nv[1 3]←7 8\nv", &["7 20 8 40"]);
    check("m←2 3⍴⍳6\nm[;2]←0\nm", &["1 0 3", "4 0 6"]);
    check_error("v←1 2 3 4\nv[1 2]←7 8 9", "LENGTH ERROR");
}

#[test]
fn annotations_are_checked_at_calls() {
    check("sq←{ ⍝: int → int\n ⍵×⍵\n}\nsq 7", &["49"]);
    check("d←{ ⍝: <int>(ρ+1) → <int>ρ\n 1↓⍵-¯1⌽⍵\n}\n⍴d ⍳10", &["9"]);
    // κ stands for every base type: ⍵-¯1⌽⍵ gives ints for booleans, so the thesis' polymorphic type is rejected.
    check_error("d←{ ⍝: <κ>(ρ+1) → <κ>ρ\n 1↓⍵-¯1⌽⍵\n}\n⍴d ⍳10", "TYPE ERROR");
    check_error("half←{ ⍝: <int>ρ → <int>ρ\n ⍵÷2\n}\nhalf 2 4 6", "TYPE ERROR");
    check_error("t←{ ⍝: <int>ρ → <int>ρ\n 1↓⍵\n}\nt 1 2 3", "TYPE ERROR");
    check_error("⍝: v : <int>3\nv←1 2", "TYPE ERROR");
    check("⍝: v : <double>2\nv←1 2\nv", &["1 2"]);
}

#[test]
fn annotations_of_uncalled_dfns_are_parsed_and_checked() {
    check("t←{ ⍝: <int>(ρ+1) → <int>ρ\n 1↓⍵\n}\n1", &["1"]);
    check_error("t←{ ⍝: <int>ρ → <int>(ρ+5)\n 1↓⍵\n}\n1", "TYPE ERROR");
    check_error("t←{ ⍝: <int>ρ → \n 1↓⍵\n}\n1", "SYNTAX ERROR");
    // An operator's annotation is checked at its uses only; parsed all the same.
    check("op←{ ⍝: <int>ρ → <int>(ρ+5)\n ⍺⍺ ⍵\n}\n1", &["1"]);
    check_error("op←{ ⍝: <int\n ⍺⍺ ⍵\n}\n1", "SYNTAX ERROR");
    // Checked once where the dfn is made, whatever the program does with it afterwards; an annotation on a dfn
    // inside another dfn is checked where the inner dfn is made.
    check("f←{ ⍝: <int>ρ → <int>ρ\n ⌽⍵\n}\ng←f\n(f 1 2),g 3 4", &["2 1 4 3"]);
    check_error(
        "f←{ ⍝: <int>ρ → <int>ρ\n h←{ ⍝: <int>ρ → int\n  ⍵\n }\n h ⍵\n}\n1",
        "TYPE ERROR",
    );
}

#[test]
fn constant_domain_errors_are_static() {
    check_error("~2", "DOMAIN ERROR");
}

#[test]
fn division_by_zero_and_the_logarithm_of_zero_are_left_to_the_float_mode_at_run_time() {
    // ∞ and ¯∞ in the IEEE float mode, which the elaborator does not know: compiled, and a DOMAIN ERROR only when the
    // program runs in Dyalog's mode.
    for text in ["⍟0", "÷0", "1÷0"] {
        let program = compile(text).unwrap_or_else(|error| panic!("{text}: {error}"));
        let error = eval_program(&program, &mut MemoryHost::default()).unwrap_err();
        assert!(error.to_string().starts_with("DOMAIN ERROR"), "{text}: {error}");
    }
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    const TOKENS: &[&str] = &[
        "1", "0", "2.5", "¯3", "1 2 3", "'ab'", "⍬", "x", "f", "(", ")", "{", "}", "⍺", "⍵", "∇", "+", "-", "×", "÷",
        "⍴", ",", "⍳", "/", "\\", "¨", "∘.", ".", "⍣", "∘", "⍨", "⌽", "↑", "↓", "⊃", "≢", "=", "<", "[", "]", ";", "⋄",
        ":", "←", "⍉", "○", "|", "⌈", "⍋", "∊", "⊤", "⊥", "!", "~",
    ];

    /// Items that always parse when juxtaposed: arrays, functions and operators.
    const ITEMS: &[&str] = &[
        "1",
        "0",
        "2.5",
        "¯3",
        "1 2 3",
        "0 1 1",
        "'ab'",
        "⍬",
        "x",
        "m",
        "f",
        "+",
        "-",
        "×",
        "÷",
        "⍴",
        ",",
        "⍳",
        "/",
        "\\",
        "¨",
        "∘.×",
        "+.×",
        "⍣2",
        "∘",
        "⍨",
        "⌽",
        "⊖",
        "↑",
        "↓",
        "⊃",
        "≢",
        "=",
        "<",
        "⍉",
        "○",
        "|",
        "⌈",
        "⌊",
        "⍋",
        "∊",
        "~",
        "(+/÷≢)",
        "{⍵+1}",
        "{⍺×⍵}",
        "(2 2⍴⍳4)",
        "x[2]",
        "m[1;]",
        "⌿",
        "⍪",
        "≡",
        "*",
        "⍟",
        "{⍵>1:⍵ ⋄ -⍵}",
        "(1 2)(3 4 5)",
        "{⍺←2 ⋄ ⍺×⍵}",
        "⍣{⍺>10}",
        "∘.+",
        "@2",
        "⍤0",
        "{⍵=0:0 ⋄ ∇ ⍵-1}",
        "⊤",
        "⊥",
        "∪",
        "∩",
        "⍸",
        "!",
        "?",
        "⌷",
        "⍕",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        /// Juxtaposed items either elaborate to TAIL that infers and checks, or give an APL error.
        #[test]
        fn elaborated_item_sequences_type_check(items in proptest::collection::vec(0..ITEMS.len(), 1..7)) {
            let body: Vec<&str> = items.iter().map(|i| ITEMS[*i]).collect();
            let body = body.join(" ");
            let text = format!("x←1 2 3\nm←2 3⍴⍳6\nf←{{⍵+1}}\n{body}");
            let file = SourceFile::new("fuzz.apl", text.as_str());
            let Ok(program) = parse_program(&file) else { return Ok(()) };
            match elaborate_program(&program, &file) {
                Err(errors) => {
                    for error in &errors.errors {
                        prop_assert!(!error.to_string().contains("internal error"), "{text}: {error}");
                    }
                }
                Ok(mut tail_program) => {
                    let printed = crate::tail::print_program(&tail_program);
                    let inferred = crate::tail::infer::infer_program(&mut tail_program);
                    prop_assert!(inferred.is_ok(), "{text}\n{printed}\n{inferred:?}");
                    let checked = crate::tail::check::check_program(&tail_program);
                    prop_assert!(checked.is_ok(), "{text}\n{printed}\n{checked:?}");
                    // Run-time APL errors are fine; the interpreter finding the program ill-typed is not.
                    // (Loops may not terminate, and big arrays take long: run only small loop-free programs.)
                    let may_loop = body.contains('⍣') || body.contains('∇');
                    let may_be_big = ['⍴', '⍳', '!', '*', '⊤', '↑', '/', '⍉'].iter().any(|c| body.contains(*c));
                    let mut host = MemoryHost::default();
                    if may_loop || may_be_big {
                        return Ok(());
                    }
                    if let Err(error) = eval_program(&tail_program, &mut host) {
                        prop_assert!(!error.message.contains("not well typed"), "{text}\n{printed}\n{error}");
                    }
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// Whatever the token soup, elaboration answers with TAIL or an APL error, never an internal error.
        #[test]
        fn elaboration_never_fails_internally(tokens in proptest::collection::vec(0..TOKENS.len(), 1..12)) {
            let body: Vec<&str> = tokens.iter().map(|i| TOKENS[*i]).collect();
            let text = format!("x←1 2 3\nf←{{⍵+1}}\n{}", body.join(" "));
            let file = SourceFile::new("fuzz.apl", text.as_str());
            if let Ok(program) = parse_program(&file) {
                match elaborate_program(&program, &file) {
                    Err(errors) => {
                        for error in &errors.errors {
                            prop_assert!(!error.to_string().contains("internal error"), "{text}: {error}");
                        }
                    }
                    Ok(mut tail_program) => {
                        let printed = crate::tail::print_program(&tail_program);
                        let inferred = crate::tail::infer::infer_program(&mut tail_program);
                        prop_assert!(inferred.is_ok(), "{text}\n{printed}\n{inferred:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn a_session_keeps_names_across_pieces() {
    let mut session = Session::new();
    let mut outputs = Vec::new();
    for (number, text) in ["x←⍳3\nf←{⍵×10}", "f x", "y←+/x\ny", "z+1", "y×2"].iter().enumerate() {
        let file = SourceFile::new(format!("piece{number}"), *text);
        let program = parse_program(&file).expect("parses");
        match session.elaborate(&program, &file) {
            Ok(mut tail_program) => {
                crate::tail::infer::infer_program(&mut tail_program).expect("types");
                let mut host = MemoryHost::default();
                eval_program(&tail_program, &mut host).expect("runs");
                outputs.push(host.printed_lines.join("|"));
            }
            Err(errors) => outputs.push(errors.errors[0].apl_name().to_string()),
        }
    }
    assert_eq!(outputs, ["", "10 20 30", "6", "VALUE ERROR", "12"]);
}

#[test]
fn messages_name_the_real_problem() {
    // The first error of a script, with its help line.
    let first_error = |text: &str| {
        let file = SourceFile::new("test.apl", text);
        let errors = elaborate_program(&parse_program(&file).unwrap(), &file).unwrap_err();
        let error = &errors.errors[0];
        let hint = miette::Diagnostic::help(error)
            .map(|help| help.to_string())
            .unwrap_or_default();
        (error.to_string(), hint)
    };
    // ⊥ and ⊤ on characters are a DOMAIN ERROR about characters, not a missing floating-point feature.
    let (decode, _) = first_error("2⊥'ab'");
    assert!(
        decode.starts_with("DOMAIN ERROR") && decode.contains("characters"),
        "{decode}"
    );
    let (encode, _) = first_error("2 2⊤'a'");
    assert!(
        encode.starts_with("DOMAIN ERROR") && encode.contains("characters"),
        "{encode}"
    );
    // Monadic < does not exist: a SYNTAX ERROR (Dyalog: SYNTAX or VALENCE ERROR), not a NONCE ERROR.
    for glyph in ["<", "≤", "=", "≥", ">", "∧", "∨", "⍲", "⍱", "⊥", "⊤", "∩"] {
        let (message, _) = first_error(&format!("{glyph}1"));
        assert!(
            message.starts_with("SYNTAX ERROR") && message.contains("no monadic form"),
            "{glyph}: {message}"
        );
    }
    // A dfn calls itself by the name it is bound to (as with ∇), also from a dfn nested in it (the name is read when
    // the call runs, as in Dyalog), and a dfn may call one the script defines after it; a name defined nowhere is a
    // VALUE ERROR.
    check("f←{⍵=0:1 ⋄ ⍵×f ⍵-1}\nf 5", &["120"]);
    check("f←{⍵=0:1 ⋄ {⍵×f ⍵-1}⍵}\nf 5", &["120"]);
    check("f←{1+g ⍵}\ng←{⍵×2}\nf 5", &["11"]);
    let (message, _) = first_error("f←{⍵×g ⍵}\nf 5");
    assert!(message.starts_with("VALUE ERROR") && message.contains('g'), "{message}");
    check("f←{⍵=0:1 ⋄ ⍵×∇ ⍵-1}\nf 5", &["120"]);
}
