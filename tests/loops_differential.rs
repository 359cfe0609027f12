//! Differential tests: every TAIL program here (and every `.tail` file under apl-tests/tail) runs in the reference
//! TAIL interpreter and through the loop IR (lowered, checked, interpreted); both must print the same lines and end
//! the same way (same result display, or the same APL error kind).

mod loops_common;

use loops_common::{lower_checked, run_loops, run_tail, typed_program, Outcome};

/// Runs both and compares; returns the loop outcome for extra assertions.
fn same_behaviour(text: &str) -> Outcome {
    let program = typed_program(text);
    let expected = run_tail(&program);
    let lowered = lower_checked(&program).unwrap_or_else(|e| panic!("{e}\nfor\n{text}"));
    // The printed IR parses back to the same text; the parsed program must behave the same too.
    let printed = aplc::loops::print_program(&lowered);
    let reparsed = aplc::loops::parser::parse_program(&printed).unwrap_or_else(|e| panic!("{e}\n{printed}"));
    assert_eq!(aplc::loops::print_program(&reparsed), printed, "print/parse/print");
    assert_eq!(run_loops(&reparsed), run_loops(&lowered), "parsed program for\n{text}");
    let actual = run_loops(&lowered);
    assert_eq!(
        actual,
        expected,
        "loop IR and TAIL interpreter differ for\n{text}\nIR:\n{}",
        aplc::loops::print_program(&lowered)
    );
    actual
}

fn ok_lines(text: &str) -> Vec<String> {
    let outcome = same_behaviour(text);
    outcome.ended.unwrap_or_else(|e| panic!("{e} for {text}"))
}

fn error_kind(text: &str) -> String {
    let outcome = same_behaviour(text);
    outcome.ended.expect_err("an APL error")
}

/// Corpus files that use what the loop lowering does not support yet, with the construct named in the NONCE error.
const UNSUPPORTED_CORPUS_FILES: &[(&str, &str)] = &[];

#[test]
fn corpus_tail_files_behave_the_same() {
    let directory = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("apl-tests/tail");
    let mut compared = 0;
    let mut paths: Vec<_> = std::fs::read_dir(directory)
        .expect("apl-tests/tail")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "tail"))
        .collect();
    paths.sort();
    for path in paths {
        let name = path.file_name().expect("a file name").to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).expect("readable");
        let file = aplc::source::SourceFile::new(name.clone(), text.clone());
        let mut program = aplc::tail::parse_program(&file).expect("corpus files parse");
        if aplc::tail::infer::infer_program(&mut program).is_err() {
            assert!(text.contains("(*! TYPE ERROR *)"), "{name}: unexpected type error");
            continue;
        }
        if let Some((_, construct)) = UNSUPPORTED_CORPUS_FILES.iter().find(|(file, _)| *file == name) {
            let error = lower_checked(&program)
                .err()
                .unwrap_or_else(|| panic!("{name} now lowers: compare it"));
            let message = error.to_string();
            assert!(
                message.starts_with("NONCE ERROR") && message.contains(construct),
                "{name}: {message}"
            );
            continue;
        }
        same_behaviour(&text);
        compared += 1;
    }
    assert!(compared >= 15, "compared only {compared} corpus files");
}

#[test]
fn signal_and_inner_product_give_the_hand_computed_results() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("apl-tests/tail");
    let signal = std::fs::read_to_string(root.join("signal.tail")).expect("signal.tail");
    assert_eq!(ok_lines(&signal), vec!["258.5573404"]);
    let inner = std::fs::read_to_string(root.join("inner_product.tail")).expect("inner_product.tail");
    assert_eq!(ok_lines(&inner), vec!["65780"]);
}

#[test]
fn scalars_iota_each_zipwith_and_reduce() {
    // 1+2+...+10 = 55; squares; elementwise sums; APL's right fold 1-(2-3) = 2.
    assert_eq!(ok_lines("reduce(addi, 0, iota(10))"), vec!["55"]);
    assert_eq!(ok_lines("each(fn x => muli(x, x), iota(5))"), vec!["1 4 9 16 25"]);
    assert_eq!(ok_lines("zipWith(addi, iota(3), [10,20,30])"), vec!["11 22 33"]);
    assert_eq!(ok_lines("reduce(subi, 0, iota(3))"), vec!["2"]);
    ok_lines("addi(1, muli(2, 3))");
    ok_lines("each(fn x => lti(x, 3), iota(5))");
    ok_lines("each(i2d, iota(4))");
    ok_lines("reduce(addd, 0.0, each(fn x => divd(1.0, i2d(x)), iota(7)))");
    ok_lines("['a','b','c']");
    ok_lines("each(fn x => eqc(x, 'b'), ['a','b','c'])");
    ok_lines("reduce(andb, tt, each(fn x => lti(x, 9), iota(5)))");
    ok_lines("zipWith(fn x => fn y => addi(muli(x, 10), y), iota(3), [7,8,9])");
    ok_lines("reduce(addi, 0, iota(0))");
    ok_lines("each(fn x => muli(x, 2), 5)");
}

#[test]
fn reduce_on_matrices_and_non_identity_neutrals() {
    // Rows of 3 4⍴⍳12 sum to 10 26 42.
    assert_eq!(ok_lines("reduce(addi, 0, reshape([3,4], iota(12)))"), vec!["10 26 42"]);
    // A non-empty row ignores the neutral element: ⌈/ of ¯1 ¯2 ¯3 is ¯1.
    assert_eq!(
        ok_lines("reduce(maxi, 0, reshape([2,3], [~1,~2,~3,4,5,6]))"),
        vec!["¯1 6"]
    );
    // Empty rows give the neutral element.
    assert_eq!(
        ok_lines("reduce(maxi, ~100, reshape([2,0], iota(0)))"),
        vec!["¯100 ¯100"]
    );
    ok_lines("reduce(subi, 0, reshape([2,3], iota(6)))");
    ok_lines("reduce(addi, 0, transp(reshape([2,3], iota(6))))");
    ok_lines("reduce(muli, 1, reduce(addi, 0, reshape([2,2,3], iota(12))))");
}

#[test]
fn errors_of_structural_checks() {
    assert_eq!(error_kind("zipWith(addi, iota(3), iota(4))"), "LENGTH ERROR");
    assert_eq!(error_kind("iota(~1)"), "DOMAIN ERROR");
    assert_eq!(error_kind("reshape([2,~1], iota(3))"), "DOMAIN ERROR");
    assert_eq!(
        error_kind("cat(reshape([2,2], iota(4)), reshape([3,2], iota(6)))"),
        "LENGTH ERROR"
    );
    assert_eq!(error_kind("index(1, 5, reshape([3,4], iota(12)))"), "INDEX ERROR");
    assert_eq!(error_kind("index(2, 0, reshape([3,4], iota(12)))"), "INDEX ERROR");
    assert_eq!(error_kind("compress([tt,ff], iota(3))"), "LENGTH ERROR");
    assert_eq!(error_kind("replicate([1,2], iota(3))"), "LENGTH ERROR");
    assert_eq!(error_kind("expand([tt,ff,tt], iota(3))"), "LENGTH ERROR");
    assert_eq!(error_kind("update(reshape([2,2], iota(4)), [3,1], 9)"), "INDEX ERROR");
    assert_eq!(error_kind("transp2([1,1], reshape([2,2], iota(4)))"), "DOMAIN ERROR");
    // An element-level error inside a fused loop.
    assert_eq!(error_kind("each(fn x => divd(1.0, x), [1.0, 0.0])"), "DOMAIN ERROR");
}

#[test]
fn errors_come_after_the_same_output() {
    let outcome = same_behaviour("let a = print(10, iota(3)) in zipWith(addi, a, iota(2))");
    assert_eq!(outcome.printed, vec!["1 2 3"]);
    assert_eq!(outcome.ended, Err("LENGTH ERROR".to_string()));
}

#[test]
fn reshape_ravel_and_shape() {
    assert_eq!(ok_lines("reshape([2,3], iota(4))"), vec!["1 2 3", "4 1 2"]);
    // An empty source gives fill elements.
    assert_eq!(ok_lines("reshape([2,2], zilde())"), vec!["0 0", "0 0"]);
    ok_lines("reshape([5], reshape([0], iota(5)))");
    ok_lines("reshape([2,3], each(fn x => muli(x, 3), iota(4)))");
    ok_lines("reshape([0,3], iota(4))");
    ok_lines("rav(transp(reshape([2,3], iota(6))))");
    ok_lines("rav(reshape([2,3], iota(6)))");
    ok_lines("shape(reshape([2,3], iota(6)))");
    ok_lines("tally(reshape([4,3], iota(6)))");
    ok_lines("reshape(shape(reshape([2,3], iota(6))), iota(3))");
    ok_lines("reshape([3], 7)");
}

#[test]
fn transpositions() {
    assert_eq!(ok_lines("transp(reshape([2,3], iota(6)))"), vec!["1 4", "2 5", "3 6"]);
    ok_lines("transp2([2,1,3], reshape([2,3,4], iota(24)))");
    ok_lines("transp2([3,1,2], reshape([2,3,4], iota(24)))");
    ok_lines("transp2([2,3,1], each(fn x => muli(x, 2), reshape([2,3,4], iota(24))))");
    ok_lines("let a = mem(reshape([2,3,4], iota(24))) in transp2([3,1,2], a)");
    ok_lines("transp(iota(3))");
}

#[test]
fn take_and_drop() {
    assert_eq!(ok_lines("take(5, iota(3))"), vec!["1 2 3 0 0"]);
    assert_eq!(ok_lines("take(~5, iota(3))"), vec!["0 0 1 2 3"]);
    ok_lines("take(2, reshape([3,2], iota(6)))");
    ok_lines("take(~2, reshape([3,2], iota(6)))");
    ok_lines("take(~4, reshape([3,2], iota(6)))");
    ok_lines("take(0, iota(3))");
    ok_lines("takeV(2, iota(5))");
    ok_lines("takeLastV(2, iota(5))");
    assert_eq!(ok_lines("drop(1, iota(5))"), vec!["2 3 4 5"]);
    assert_eq!(ok_lines("drop(~2, iota(5))"), vec!["1 2 3"]);
    ok_lines("drop(10, iota(3))");
    ok_lines("drop(~10, iota(3))");
    ok_lines("drop(1, reshape([3,2], iota(6)))");
    ok_lines("let a = mem(reshape([3,2], iota(6))) in drop(~1, a)");
    ok_lines("dropV(2, iotaV(5))");
    ok_lines("dropLastV(2, iotaV(5))");
    ok_lines("drop(1, transp(reshape([2,3], iota(6))))");
}

#[test]
fn rotations_and_reversals() {
    assert_eq!(ok_lines("rotate(1, iota(5))"), vec!["2 3 4 5 1"]);
    assert_eq!(ok_lines("rotate(~7, iota(5))"), vec!["4 5 1 2 3"]);
    ok_lines("rotateV(~1, iotaV(4))");
    ok_lines("vrotate(1, reshape([3,2], iota(6)))");
    ok_lines("rotate(1, reshape([2,3], iota(6)))");
    ok_lines("rotate(3, zilde())");
    ok_lines("reverse(reshape([2,3], iota(6)))");
    ok_lines("vreverse(reshape([2,3], iota(6)))");
    ok_lines("let a = mem(reshape([3,2], iota(6))) in vreverse(a)");
    ok_lines("let a = mem(reshape([3,2], iota(6))) in reverse(a)");
    ok_lines("vreverse(zilde())");
}

#[test]
fn first_catenation_and_index() {
    assert_eq!(ok_lines("first(iota(0))"), vec!["0"]);
    ok_lines("first(reshape([2,2], [5,6,7,8]))");
    ok_lines("first(3)");
    assert_eq!(ok_lines("cat(iota(3), iota(2))"), vec!["1 2 3 1 2"]);
    ok_lines("cat(reshape([2,2], iota(4)), reshape([2,3], iota(6)))");
    ok_lines("catFirst(reshape([2,2], iota(4)), reshape([3,2], iota(6)))");
    ok_lines("cons(0, iota(3))");
    ok_lines("snoc(iota(3), 9)");
    ok_lines("consV(0, iotaV(3))");
    ok_lines("snocV(iotaV(3), 9)");
    ok_lines("catV([1,2], [3])");
    ok_lines("cons(iota(2), reshape([2,3], iota(6)))");
    assert_eq!(ok_lines("index(1, 2, reshape([3,4], iota(12)))"), vec!["5 6 7 8"]);
    assert_eq!(ok_lines("index(2, 3, reshape([3,4], iota(12)))"), vec!["3 7 11"]);
    ok_lines("let a = mem(reshape([3,4], iota(12))) in index(1, 3, a)");
    ok_lines("index(2, 2, reshape([2,3,4], iota(24)))");
}

#[test]
fn scan_compress_replicate_expand_update() {
    assert_eq!(ok_lines("scan(addi, 0, iota(5))"), vec!["1 3 6 10 15"]);
    // -\1 2 3 4 is 1 ¯1 2 ¯2 (each prefix folded from the right).
    assert_eq!(ok_lines("scan(subi, 0, iota(4))"), vec!["1 ¯1 2 ¯2"]);
    ok_lines("scan(addi, 0, reshape([2,3], iota(6)))");
    ok_lines("scan(maxd, ~1.0E300, [1.5, 0.5, 2.5])");
    assert_eq!(ok_lines("compress([tt,ff,tt], iota(3))"), vec!["1 3"]);
    ok_lines("compress([tt], iota(3))");
    ok_lines("compress([ff,tt], reshape([2,2], iota(4)))");
    assert_eq!(ok_lines("replicate([2,0,~1], iota(3))"), vec!["1 1 0"]);
    ok_lines("replicate([2], reshape([2,2], iota(4)))");
    assert_eq!(ok_lines("expand([tt,ff,tt], [5,6])"), vec!["5 0 6"]);
    assert_eq!(
        ok_lines("update(reshape([2,2], iota(4)), [2,1], 9)"),
        vec!["1 2", "9 4"]
    );
}

#[test]
fn power_loops() {
    assert_eq!(
        ok_lines("power(fn x => zipWith(addi, x, x), 3, iota(4))"),
        vec!["8 16 24 32"]
    );
    assert_eq!(ok_lines("power(fn x => muli(x, 2), 10, 1)"), vec!["1024"]);
    assert_eq!(
        ok_lines("power(fn x => cat(x, x), 2, iota(2))"),
        vec!["1 2 1 2 1 2 1 2"]
    );
    ok_lines("power(fn x => rotate(1, x), 2, reshape([2,3], iota(6)))");
    ok_lines("power(fn x => transp(x), 3, reshape([2,3], iota(6)))");
    ok_lines("power(fn x => x, 0, iota(3))");
    ok_lines("power(fn x => each(fn y => addi(y, 1), x), ~2, iota(3))");
}

#[test]
fn lets_prints_tuples_and_conditionals() {
    ok_lines("let a = each(fn x => muli(x, x), iota(4)) in zipWith(addi, a, a)");
    ok_lines("let a = iota(4) in let b = each(fn x => reduce(addi, 0, take(x, a)), a) in b");
    let outcome = same_behaviour("let a = print(10, iota(3)) in let b = print(10, reduce(addi, 0, a)) in muli(b, 2)");
    assert_eq!(outcome.printed, vec!["1 2 3", "6"]);
    assert_eq!(outcome.ended, Ok(vec!["12".to_string()]));
    ok_lines("(iota(2), 5)");
    ok_lines("#2((iota(2), 5))");
    ok_lines("condScl(fn x => addi(x, 1), tt, 5)");
    ok_lines("condScl(fn x => addi(x, 1), ff, 5)");
    ok_lines("let f = fn x => muli(x, 3) in each(f, iota(3))");
    ok_lines("print(10, reshape([2,2], [1.5, 2.25, 3.0, 4.0]))");
}

#[test]
fn plus_reduction_of_empty_rows_gives_the_neutral_element_and_zero_to_a_negative_power_fails() {
    // An empty row gives the neutral element 0.0; the right fold of a single element is that element. Zero (of
    // either sign) to the power ¯1 overflows to ∞, a DOMAIN ERROR on both sides (Dyalog's `0*¯1`).
    assert_eq!(ok_lines("reduce(addd, 0.0, drop(1, [1.0]))"), vec!["0"]);
    assert_eq!(ok_lines("reduce(addd, 0.0, [2.5])"), vec!["2.5"]);
    assert_eq!(error_kind("powd(reduce(addd, 0.0, [negd(0.0)]), ~1.0)"), "DOMAIN ERROR");
    assert_eq!(
        error_kind("powd(reduce(addd, 0.0, drop(1, [1.0])), ~1.0)"),
        "DOMAIN ERROR"
    );
    let n_is_zero = "let n = reduce(addi, 0, iota(0)) in ";
    assert_eq!(
        ok_lines(&format!("{n_is_zero}reduce(addd, 0.0, reshape([n], [1.0]))")),
        vec!["0"]
    );
    assert_eq!(
        error_kind("each(fn x => powd(x, ~1.0), reduce(addd, 0.0, reshape([2,0], [1.0])))"),
        "DOMAIN ERROR"
    );
    assert_eq!(
        ok_lines("each(fn x => addd(x, 1.5), reduce(addd, 0.0, reshape([2,0], [1.0])))"),
        vec!["1.5 1.5"]
    );
}

#[test]
fn searching_sorting_and_number_bases() {
    // 3 1 2 ⍳ 2 is 3; positions not found are 1 + the length.
    assert_eq!(ok_lines("indexOf([3,1,2], 2)"), vec!["3"]);
    assert_eq!(ok_lines("indexOf([3,1,2,1], [1,5,3])"), vec!["2 5 1"]);
    ok_lines("indexOf(['a','b'], reshape([2,2], ['b','c','a','a']))");
    ok_lines("indexOf(zilde(), iota(3))");
    assert_eq!(ok_lines("member([2,7], [3,1,2])"), vec!["1 0"]);
    ok_lines("member(reshape([2,2], [1.5,2.0,3.0,1.5]), [1.5])");
    assert_eq!(ok_lines("where([tt,ff,tt,tt])"), vec!["1 3 4"]);
    ok_lines("where(each(fn x => lti(x, 0), iota(4)))");
    // ⍋3 1 2 1 is 2 4 3 1 (stable); ⍒ is 1 3 2 4.
    assert_eq!(ok_lines("gradeUp([3,1,2,1])"), vec!["2 4 3 1"]);
    assert_eq!(ok_lines("gradeDown([3,1,2,1])"), vec!["1 3 2 4"]);
    ok_lines("gradeUp(['d','a','c','a'])");
    ok_lines("gradeDown([1.5, ~2.0, 1.5, 9.0])");
    ok_lines("gradeUp([tt,ff,tt])");
    ok_lines("gradeUp(zilde())");
    ok_lines("gradeUp(vreverse(mem([5,3,4])))");
    // 10 10⊥1 2 is 12; 24 60⊥1 30 is 90; 2⊥1 0 1 is 5.
    assert_eq!(ok_lines("decode([10,10], [1,2])"), vec!["12"]);
    assert_eq!(ok_lines("decode([24,60], [1,30])"), vec!["90"]);
    assert_eq!(ok_lines("decode([2], [1,0,1])"), vec!["5"]);
    ok_lines("decode(zilde(), [1,2])");
    assert_eq!(error_kind("decode([2,2,2], [1,0])"), "LENGTH ERROR");
    // 10 10⊤123 is 2 3; 0 10⊤123 is 12 3.
    assert_eq!(ok_lines("encode([10,10], 123)"), vec!["2 3"]);
    assert_eq!(ok_lines("encode([0,10], 123)"), vec!["12 3"]);
    ok_lines("encode([2,2,2], ~3)");
    // powerUntil: doubling from 1 until above 100 gives 128.
    assert_eq!(
        ok_lines("powerUntil(fn x => muli(x, 2), fn x => fn y => gti(x, 100), 1)"),
        vec!["128"]
    );
}

#[test]
fn power_until_on_arrays_and_static_vector_folding() {
    // Rotating 1 2 3 until the first element is 3 takes two steps: 3 1 2.
    assert_eq!(
        ok_lines("powerUntil(fn x => rotate(1, x), fn x => fn y => eqi(first(x), 3), iota(3))"),
        vec!["3 1 2"]
    );
    // Doubling the length until it exceeds 5: 2 → 4 → 8 elements.
    assert_eq!(
        ok_lines("powerUntil(fn x => cat(x, x), fn x => fn y => lti(5, tally(x)), [1,2])"),
        vec!["1 2 1 2 1 2 1 2"]
    );
    ok_lines(
        "powerUntil(fn x => each(fn y => divi(y, 2), x), \
         fn x => fn y => eqi(reduce(addi, 0, x), reduce(addi, 0, y)), [40, 7])",
    );
    // Static vectors: take, drop, cons, snoc and cat of literals.
    assert_eq!(ok_lines("take(~5, [1,2,3])"), vec!["0 0 1 2 3"]);
    assert_eq!(ok_lines("take(~2, [1,2,3])"), vec!["2 3"]);
    assert_eq!(ok_lines("drop(~1, [1,2,3])"), vec!["1 2"]);
    assert_eq!(ok_lines("consV(0, [1,2])"), vec!["0 1 2"]);
    assert_eq!(ok_lines("snocV([1,2], 0)"), vec!["1 2 0"]);
    ok_lines("let s = [2,3] in reshape(catV(s, dropLastV(1, s)), iota(4))");
    ok_lines("let s = [2,3] in let t = print(10, s) in reshape(s, t)");
}

#[test]
fn tuple_states_of_power_power_until_and_cond() {
    // Fibonacci by pairs: (a, b) → (b, a+b) ten times from (0, 1) gives (55, 89).
    assert_eq!(
        ok_lines("#1(power(fn s:([int]0,[int]0) => (#2(s), addi(#1(s), #2(s))), 10, (0, 1)))"),
        vec!["55"]
    );
    // Euclid's gcd of 48 and 18 with an (a, b) state, (a, b) → (b, a mod b) until b is 0: (18,12) (12,6) (6,0).
    assert_eq!(
        ok_lines(
            "#1(powerUntil(fn s:([int]0,[int]0) => (#2(s), resi(#2(s), #1(s))), \
             fn n:([int]0,[int]0) => fn o:([int]0,[int]0) => eqi(#2(n), 0), (48, 18)))"
        ),
        vec!["6"]
    );
    // A conditional step on a tuple state, taken and not taken.
    ok_lines("#1(power(fn s:([int]0,[int]0) => condScl(fn t:([int]0,[int]0) => (#2(t), #1(t)), lti(#1(s), #2(s)), s), 3, (1, 2)))");
    ok_lines("condScl(fn t:([int]0,[double]0) => (addi(#1(t), 1), #2(t)), tt, (1, 2.5))");
    ok_lines("condScl(fn t:([int]0,[int]0) => (#2(t), #1(t)), ff, (1, 2))");
    ok_lines("power(fn s:([int]0,[double]0) => (addi(#1(s), 1), muld(#2(s), 2.0)), 3, (0, 1.5))");
}

#[test]
fn format_through_the_runtime() {
    assert_eq!(ok_lines("format(10, iota(3))"), vec!["1 2 3"]);
    ok_lines("format(3, [3.14159, 2.5])");
    ok_lines("format(10, 42)");
    ok_lines("format(10, ['a','b'])");
    ok_lines("formatMatrix(10, reshape([2,2], [1, 20, 300, 4]))");
    ok_lines("reduce(addi, 0, each(fn c => b2i(eqc(c, ' ')), format(10, iota(12))))");
    assert_eq!(error_kind("format(0, iota(3))"), "DOMAIN ERROR");
    assert_eq!(error_kind("format(10, reshape([2,2], iota(4)))"), "RANK ERROR");
}

#[test]
fn blocks_allocated_inside_loops_are_freed_per_iteration() {
    // Each element allocates (mem, format) inside the fill loop; the interpreter rejects a block allocated twice,
    // so these only run when every iteration frees what it allocated.
    assert_eq!(
        ok_lines("each(fn x => reduce(addi, 0, mem(iota(x))), iota(4))"),
        vec!["1 3 6 10"]
    );
    assert_eq!(
        ok_lines("each(fn x => c2i(first(format(10, x))), [7, 42])"),
        vec!["55 52"]
    );
    ok_lines("power(fn v => each(fn x => tally(where(each(fn y => lti(y, x), v))), v), 2, [3,1,2])");
}
