//! Unit tests for each optimiser pass: a small TAIL program is parsed, annotated by inference, rewritten by one pass,
//! checked by the TAIL checker, run before and after (same printed lines, result or APL error kind), and printed.
//! The expected texts were worked out by hand from each pass's rules.

use aplc::opt;
use aplc::pass::{run_pipeline, tail_pipeline, Pass, Verify, INPUT};
use aplc::source::SourceFile;
use aplc::tail::ast::{ExprKind, Program};
use aplc::tail::check::check_program;
use aplc::tail::infer::infer_program;
use aplc::tail::interp::{display_lines, eval_program, MemoryHost};
use aplc::tail::{parse_program, print_program};

fn parse_and_infer(text: &str) -> Program {
    let mut program = parse_program(&SourceFile::new("test", text)).unwrap_or_else(|e| panic!("{e}: {text}"));
    infer_program(&mut program).unwrap_or_else(|e| panic!("{e}: {text}"));
    program
}

fn outcome(program: &Program) -> Vec<String> {
    let mut host = MemoryHost::default();
    let result = eval_program(program, &mut host);
    let mut lines = host.printed_lines;
    match result {
        Ok(value) => lines.extend(display_lines(&value)),
        Err(error) => lines.push(format!("error: {}", error.kind.apl_name())),
    }
    lines
}

/// Runs one pass and returns the printed result, after checking types and behaviour.
fn run(pass: fn(Program) -> Program, text: &str) -> String {
    let program = parse_and_infer(text);
    let rewritten = pass(program.clone());
    let printed = print_program(&rewritten);
    check_program(&rewritten).unwrap_or_else(|e| panic!("ill-typed after the pass: {e}\n{printed}"));
    assert_eq!(outcome(&rewritten), outcome(&program), "behaviour changed:\n{printed}");
    printed
}

/// The outcome of a program (to assert that the tests exercise the error or effect they are about).
fn outcome_of(text: &str) -> Vec<String> {
    outcome(&parse_and_infer(text))
}

// ---- Constant folding ----

#[test]
fn fold_evaluates_scalar_arithmetic_on_literals() {
    assert_eq!(run(opt::fold_constants, "addi(2,muli(3,4))"), "14");
    assert_eq!(run(opt::fold_constants, "negi(3)"), "~3");
    assert_eq!(run(opt::fold_constants, "addd(1.5,2.0)"), "3.5");
    assert_eq!(run(opt::fold_constants, "andb(tt,notb(tt))"), "ff");
    assert_eq!(run(opt::fold_constants, "b2iV(tt)"), "1");
    assert_eq!(run(opt::fold_constants, "i2d(7)"), "7.0");
}

#[test]
fn fold_evaluates_shape_vector_operations_on_literal_vectors() {
    // ⍴ of the dropped vector: 1↓2 3 is 3, then 3,3 2.
    assert_eq!(run(opt::fold_constants, "catV(dropV(b2iV(tt),[2,3]),[3,2])"), "[3,3,2]");
    assert_eq!(run(opt::fold_constants, "firstV(shapeV([7,8,9]))"), "3");
    assert_eq!(run(opt::fold_constants, "takeV(2,[5,6,7])"), "[5,6]");
    assert_eq!(run(opt::fold_constants, "consV(0,[1,2])"), "[0,1,2]");
    assert_eq!(run(opt::fold_constants, "snocV([1,2],3)"), "[1,2,3]");
    assert_eq!(run(opt::fold_constants, "iotaV(3)"), "[1,2,3]");
    assert_eq!(run(opt::fold_constants, "dropLastV(1,iotaV(3))"), "[1,2]");
    // 1⌽1 2 is 2 1.
    assert_eq!(run(opt::fold_constants, "vrotateV(1,[1,2])"), "[2,1]");
}

#[test]
fn fold_keeps_long_iotas_as_the_thesis_does() {
    assert_eq!(run(opt::fold_constants, "iotaV(5)"), "iotaV(5)");
    assert_eq!(run(opt::fold_constants, "takeV(9,[1])"), "takeV(9,[1])");
}

#[test]
fn fold_leaves_failing_applications_to_fail_at_run_time() {
    assert_eq!(run(opt::fold_constants, "divi(1,0)"), "divi(1,0)");
    assert_eq!(outcome_of("divi(1,0)"), ["error: DOMAIN ERROR"]);
    assert_eq!(run(opt::fold_constants, "iota(~1)"), "iota(~1)");
    // The shape of a failing zipWith is known ([2]), but folding it would drop the LENGTH ERROR.
    let text = "shape(zipWith(addi,[1,2],[1,2,3]))";
    assert_eq!(run(opt::fold_constants, text), text);
    assert_eq!(outcome_of(text), ["error: LENGTH ERROR"]);
}

#[test]
fn fold_replaces_shapes_known_from_types_and_values() {
    assert_eq!(
        run(opt::fold_constants, "let x:<int>15 = iotaV(15) in shape(x)"),
        "let x:<int>15 = iotaV(15) in\n[15]"
    );
    assert_eq!(
        run(
            opt::fold_constants,
            "let m:[int]2 = reshape([3,2],iotaV(5)) in let t:[int]2 = transp(m) in catV(shape(m),shape(t))"
        ),
        "let m:[int]2 = reshape([3,2],iotaV(5)) in\nlet t:[int]2 = transp(m) in\n[3,2,2,3]"
    );
    assert_eq!(
        run(
            opt::fold_constants,
            "let m:[int]2 = reshape([4,5],iota(20)) in tally(m)"
        ),
        "let m:[int]2 = reshape([4,5],iota(20)) in\n4"
    );
}

#[test]
fn fold_propagates_literal_lets() {
    assert_eq!(
        run(opt::fold_constants, "let n:[int]0 = 4 in addi(n,1)"),
        "let n:[int]0 = 4 in\n5"
    );
    // A literal vector is not copied into a lambda (it would be built per call); a scalar is.
    assert_eq!(
        run(
            opt::fold_constants,
            "let v:<int>2 = [1,2] in let k:[int]0 = 3 in each(fn x:[int]0 => addi(k,reduce(addi,x,v)),v)"
        ),
        "let v:<int>2 = [1,2] in\nlet k:[int]0 = 3 in\neach(fn x:[int]0 => addi(3,reduce(addi,x,v)),[1,2])"
    );
}

#[test]
fn fold_selects_elements_of_vectors_of_variables() {
    assert_eq!(
        run(
            opt::fold_constants,
            "each(fn x:[int]0 => let v:<int>2 = [x,3] in addi(index(1,2,v),first(v)),[1,2])"
        ),
        "each(fn x:[int]0 => let v:<int>2 = [x,3] in\naddi(3,x),[1,2])"
    );
    // Position 3 is outside: the INDEX ERROR stays.
    let text = "each(fn x:[int]0 => let v:<int>2 = [x,3] in\nindex(1,3,v),[1,2])";
    assert_eq!(run(opt::fold_constants, text), text);
    assert_eq!(outcome_of(text), ["error: INDEX ERROR"]);
}

#[test]
fn fold_folds_the_result_of_a_power_body() {
    // `5` (S(int,5)) in place of `addi(2,3)`: the checker gives the loop state the type [int]0 (the literal's type
    // without its value), so the initial value 0 still fits and the folded program checks (run() checks it).
    assert_eq!(
        run(opt::fold_constants, "power(fn y:[int]0 => addi(2,3),2,0)"),
        "power(fn y:[int]0 => 5,2,0)"
    );
    // Inside the body, operator arguments are folded.
    assert_eq!(
        run(opt::fold_constants, "power(fn y:[int]0 => addi(y,muli(2,3)),2,0)"),
        "power(fn y:[int]0 => addi(y,6),2,0)"
    );
}

// ---- Peephole rules ----

const MATRIX: &str = "let x:[int]2 = reshape([2,3],iotaV(6)) in ";
const CUBE: &str = "let x:[int]3 = reshape([2,3,4],iota(24)) in ";

fn peephole(prefix: &str, text: &str) -> String {
    let printed = run(opt::simplify_peepholes, &format!("{prefix}{text}"));
    printed
        .split_once(" in\n")
        .map(|(_, rest)| rest.to_string())
        .unwrap_or(printed)
}

#[test]
fn peephole_simplifies_transpositions() {
    assert_eq!(peephole(MATRIX, "transp2([2,1],x)"), "transp(x)");
    assert_eq!(peephole(MATRIX, "transp(transp(x))"), "x");
    assert_eq!(peephole(MATRIX, "transp2([1,2],x)"), "x");
    assert_eq!(peephole(CUBE, "transp2([2,1,3],transp2([2,1,3],x))"), "x");
    // transp2([1,3,2]) gives axes (a0,a2,a1), transp reverses to (a1,a2,a0): source axis 0 → 2, 1 → 0, 2 → 1.
    assert_eq!(peephole(CUBE, "transp(transp2([1,3,2],x))"), "transp2([3,1,2],x)");
    assert_eq!(peephole(CUBE, "transp2([3,2,1],x)"), "transp(x)");
    assert_eq!(peephole(CUBE, "transp2([2,3,1],x)"), "transp2([2,3,1],x)");
    // A vector is its own transpose.
    assert_eq!(peephole("let v:<int>3 = [1,2,3] in ", "transp(v)"), "v");
}

#[test]
fn peephole_keeps_transpositions_that_fail() {
    let text = "transp2([1,1],x)";
    assert_eq!(peephole(MATRIX, text), text);
    assert_eq!(outcome_of(&format!("{MATRIX}{text}")), ["error: DOMAIN ERROR"]);
}

#[test]
fn peephole_cancels_reversals_and_identities() {
    assert_eq!(peephole(MATRIX, "reverse(reverse(x))"), "x");
    assert_eq!(peephole(MATRIX, "vreverse(vreverse(x))"), "x");
    assert_eq!(peephole(MATRIX, "rotate(0,x)"), "x");
    assert_eq!(peephole(MATRIX, "vrotate(0,x)"), "x");
    assert_eq!(peephole(MATRIX, "mem(mem(x))"), "mem(x)");
    assert_eq!(peephole(MATRIX, "reshape([2,3],x)"), "x");
    assert_eq!(peephole(MATRIX, "reshape([3,2],x)"), "reshape([3,2],x)");
}

#[test]
fn peephole_fuses_each_chains() {
    assert_eq!(
        peephole(
            MATRIX,
            "each(fn a:[int]0 => addi(a,1),each(fn b:[int]0 => muli(b,2),x))"
        ),
        "each(fn o1:[int]0 => let a:[int]0 = muli(o1,2) in\naddi(a,1),x)"
    );
    assert_eq!(
        peephole(MATRIX, "each(negi,each(absi,x))"),
        "each(fn o1:[int]0 => negi(absi(o1)),x)"
    );
    assert_eq!(
        peephole("let v:<int>3 = [1,2,3] in ", "eachV(i2d,eachV(negi,v))"),
        "eachV(fn o1:[int]0 => i2d(negi(o1)),v)"
    );
    assert_eq!(
        peephole(MATRIX, "each(negi,zipWith(divi,x,x))"),
        "zipWith(fn o1:[int]0 => fn o2:[int]0 => negi(divi(o1,o2)),x,x)"
    );
    // `|` of the most negative int overflows: fused into zipWith, it would fail after zipWith's shape check instead
    // of before it, so it stays apart; `×` (signi) cannot fail and fuses.
    assert_eq!(
        peephole(MATRIX, "zipWith(divi,each(absi,x),x)"),
        "zipWith(divi,each(absi,x),x)"
    );
    assert_eq!(
        peephole(MATRIX, "zipWith(divi,each(signi,x),x)"),
        "zipWith(fn o1:[int]0 => fn o2:[int]0 => divi(signi(o1),o2),x,x)"
    );
    assert_eq!(
        peephole(MATRIX, "zipWith(divi,x,each(signi,x))"),
        "zipWith(fn o1:[int]0 => fn o2:[int]0 => divi(o1,signi(o2)),x,x)"
    );
    // A lambda applied to a computed first argument binds it with a let (the second argument is a variable).
    assert_eq!(
        peephole(
            MATRIX,
            "zipWith(fn a:[int]0 => fn b:[int]0 => subi(a,b),each(signi,x),x)"
        ),
        "zipWith(fn o1:[int]0 => fn o2:[int]0 => let a:[int]0 = signi(o1) in\nsubi(a,o2),x,x)"
    );
}

#[test]
fn peephole_does_not_fuse_two_functions_that_can_fail_or_print() {
    // Unfused, the divisions fail on 0 before anything is printed; fused, 1 would be printed first.
    let text = "each(fn a:[int]0 => print(10,a),each(fn b:[int]0 => divi(1,b),[1,0]))";
    assert_eq!(run(opt::simplify_peepholes, text), text);
    assert_eq!(outcome_of(text), ["error: DOMAIN ERROR"]);
    // One printing function and one safe function (the compiler's wrapping `addw`) fuse: the prints keep their
    // element order. APL's `addi` may overflow, so with it they stay apart.
    assert_eq!(
        run(
            opt::simplify_peepholes,
            "each(fn a:[int]0 => print(10,a),each(fn b:[int]0 => addw(b,1),[1,2]))"
        ),
        "each(fn o1:[int]0 => let a:[int]0 = addw(o1,1) in\nprint(10,a),[1,2])"
    );
    assert_eq!(
        outcome_of("each(fn a:[int]0 => print(10,a),each(fn b:[int]0 => addw(b,1),[1,2]))"),
        ["2", "3", "2 3"]
    );
    let text = "each(fn a:[int]0 => print(10,a),each(fn b:[int]0 => addi(b,1),[1,9223372036854775807]))";
    assert_eq!(run(opt::simplify_peepholes, text), text);
    assert_eq!(outcome_of(text), ["error: DOMAIN ERROR"]);
    // Two functions that can fail only with double arithmetic's DOMAIN ERROR (1e308×50 overflows, ÷0) fuse: the error
    // is the same whichever element fails first.
    let text = "each(fn a:[double]0 => muld(a,50.0),each(fn b:[double]0 => divd(1.0,b),[1.0,0.5]))";
    let fused = run(opt::simplify_peepholes, text);
    assert_eq!(fused.matches("each(").count(), 1, "{fused}");
    assert_eq!(outcome_of(text), ["50 100"]);
    let failing = "each(fn a:[double]0 => muld(a,1.0E308),each(fn b:[double]0 => divd(1.0,b),[1.0,0.5]))";
    assert_eq!(run(opt::simplify_peepholes, failing).matches("each(").count(), 1);
    assert_eq!(outcome_of(failing), ["error: DOMAIN ERROR"]);
    // A failing function is not moved after zipWith's length check.
    let text = "zipWith(addi,each(fn b:[int]0 => divi(1,b),[0]),[1,2])";
    assert_eq!(run(opt::simplify_peepholes, text), text);
    assert_eq!(outcome_of(text), ["error: DOMAIN ERROR"]);
}

// ---- Inlining ----

#[test]
fn inline_replaces_trivial_and_single_use_lets() {
    assert_eq!(
        run(
            opt::inline_lets,
            "let a:[int]0 = 5 in let b:[int]1 = iota(a) in reduce(addi,0,b)"
        ),
        "reduce(addi,0,iota(5))"
    );
    assert_eq!(
        run(
            opt::inline_lets,
            "let a:[int]1 = iota(4) in let b:[int]1 = a in addi(first(b),tally(b))"
        ),
        "let a:[int]1 = iota(4) in\naddi(first(a),tally(a))"
    );
}

#[test]
fn inline_does_not_move_computations_into_lambdas_or_reshape_sources() {
    let text = "let a:[int]1 = iota(3) in\neach(fn x:[int]0 => reduce(addi,x,a),[1,2])";
    assert_eq!(run(opt::inline_lets, text), text);
    let text = "let a:[int]2 = transp(reshape([2,2],iotaV(4))) in\nreshape([3,3],a)";
    assert_eq!(run(opt::inline_lets, text), text);
}

#[test]
fn inline_keeps_errors_in_order() {
    // `a` fails with LENGTH ERROR before `b` fails with DOMAIN ERROR; moving `a` to its use would swap them.
    let text = "let a:[int]1 = zipWith(addi,[1,2],[1,2,3]) in let b:[int]0 = divi(1,0) in addi(b,reduce(addi,0,a))";
    assert_eq!(
        run(opt::inline_lets, text),
        "let a:[int]1 = zipWith(addi,[1,2],[1,2,3]) in\naddi(divi(1,0),reduce(addi,0,a))"
    );
    assert_eq!(outcome_of(text), ["error: LENGTH ERROR"]);
    // A safe value may move past a computation that can fail.
    assert_eq!(
        run(
            opt::inline_lets,
            "let a:[int]1 = iota(3) in let b:[int]0 = divi(6,2) in addi(b,reduce(addi,0,a))"
        ),
        "addi(divi(6,2),reduce(addi,0,iota(3)))"
    );
}

#[test]
fn inline_copies_literals_into_the_result_of_a_power_body() {
    assert_eq!(
        run(opt::inline_lets, "let a:[int]0 = 5 in\npower(fn y:[int]0 => a,2,0)"),
        "power(fn y:[int]0 => 5,2,0)"
    );
}

#[test]
fn inline_renames_shadowing_binders_before_moving_code() {
    // Moving `x` (bound to b's `y + 1`) under the inner `let y` must not capture it.
    assert_eq!(
        run(
            opt::inline_lets,
            "let y:[int]0 = 1 in let x:[int]0 = addi(y,divi(y,y)) in let y:[int]0 = 10 in muli(x,y)"
        ),
        "muli(addi(1,divi(1,1)),10)"
    );
}

// ---- Dead code ----

#[test]
fn dead_code_drops_unused_safe_lets() {
    assert_eq!(run(opt::eliminate_dead_code, "let a:[int]1 = iota(3) in 7"), "7");
    assert_eq!(
        run(
            opt::eliminate_dead_code,
            "let a:[int]1 = iota(3) in let b:[int]0 = first(a) in 7"
        ),
        "7"
    );
}

#[test]
fn dead_code_keeps_lets_that_fail_or_have_effects() {
    let text = "let a:[int]1 = zipWith(addi,[1,2],[1,2,3]) in\n7";
    assert_eq!(run(opt::eliminate_dead_code, text), text);
    assert_eq!(outcome_of(text), ["error: LENGTH ERROR"]);
    let text = "let a:[int]0 = print(10,3) in\n7";
    assert_eq!(run(opt::eliminate_dead_code, text), text);
    assert_eq!(outcome_of(text), ["3", "7"]);
    let text = "let a:[int]0 = roll(6) in\n7";
    assert_eq!(run(opt::eliminate_dead_code, text), text);
    let text = "let a:[int]1 = iota(~1) in\n7";
    assert_eq!(run(opt::eliminate_dead_code, text), text);
    assert_eq!(outcome_of(text), ["error: DOMAIN ERROR"]);
}

// ---- Let-floating ----

#[test]
fn float_moves_loop_invariant_lets_out_of_lambdas() {
    assert_eq!(
        run(
            opt::float_lets,
            "let y:[int]1 = iota(4) in each(fn x:[int]0 => let c:[int]0 = reduce(maxi,0,y) in addi(x,c),y)"
        ),
        "let y:[int]1 = iota(4) in\nlet c:[int]0 = reduce(maxi,0,y) in\neach(fn x:[int]0 => addi(x,c),y)"
    );
    // Out of a power body, and then out of the enclosing let value.
    assert_eq!(
        run(
            opt::float_lets,
            "let r:[int]0 = power(fn s:[int]0 => let k:[int]0 = muli(3,4) in addi(s,k),3,0) in r"
        ),
        "let k:[int]0 = muli(3,4) in\nlet r:[int]0 = power(fn s:[int]0 => addi(s,k),3,0) in\nr"
    );
}

#[test]
fn float_moves_indexing_known_to_be_in_range() {
    assert_eq!(
        run(
            opt::float_lets,
            "let v:<int>3 = [4,5,6] in each(fn x:[int]0 => let k:[int]0 = index(1,2,v) in addi(x,k),v)"
        ),
        "let v:<int>3 = [4,5,6] in\nlet k:[int]0 = index(1,2,v) in\neach(fn x:[int]0 => addi(x,k),v)"
    );
    // Position 4 is outside the vector: the INDEX ERROR must not happen when the lambda is never called.
    let text = "let v:<int>3 = [4,5,6] in\neach(fn x:[int]0 => let k:[int]0 = index(1,4,v) in\naddi(x,k),[]:int)";
    assert_eq!(run(opt::float_lets, text), text);
    assert_eq!(outcome_of(text), [""]);
}

#[test]
fn float_keeps_lets_that_depend_on_the_parameter_or_can_fail() {
    let text = "let y:[int]1 = iota(4) in\neach(fn x:[int]0 => let c:[int]0 = muli(x,2) in\naddi(x,c),y)";
    assert_eq!(run(opt::float_lets, text), text);
    // The lambda is never called on the empty vector, so the division by zero never happens.
    let text = "each(fn x:[int]0 => let c:[int]0 = divi(1,0) in\naddi(x,c),zilde())";
    assert_eq!(run(opt::float_lets, text), text);
    assert_eq!(outcome_of(text), [""]);
}

#[test]
fn float_sinks_lets_towards_their_first_use() {
    assert_eq!(
        run(
            opt::float_lets,
            "let a:[int]0 = 3 in let b:[int]0 = 4 in let c:[int]0 = addi(b,1) in addi(a,c)"
        ),
        "let b:[int]0 = 4 in\nlet c:[int]0 = addi(b,1) in\nlet a:[int]0 = 3 in\naddi(a,c)"
    );
    // Neither value is safe: sinking `a` would print 4 before the DOMAIN ERROR.
    let text = "let a:[int]0 = divi(1,0) in\nlet b:[int]0 = print(10,4) in\naddi(a,b)";
    assert_eq!(run(opt::float_lets, text), text);
    assert_eq!(outcome_of(text), ["error: DOMAIN ERROR"]);
}

#[test]
fn float_flattens_lets_in_let_values() {
    assert_eq!(
        run(
            opt::float_lets,
            "let x:[int]0 = (let y:[int]0 = 2 in addi(y,1)) in muli(x,x)"
        ),
        "let y:[int]0 = 2 in\nlet x:[int]0 = addi(y,1) in\nmuli(x,x)"
    );
}

// ---- The pass framework ----

#[test]
fn the_pipeline_lists_named_and_described_passes() {
    let pipeline = tail_pipeline();
    assert!(pipeline.len() >= 5);
    for pass in &pipeline {
        assert!(!pass.name.is_empty() && !pass.description.is_empty());
        assert!(
            pass.name.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
            "{}",
            pass.name
        );
    }
    let names: std::collections::HashSet<&str> = pipeline.iter().map(|pass| pass.name).collect();
    for expected in [
        "fold-constants",
        "simplify-peepholes",
        "inline-lets",
        "eliminate-dead-code",
        "float-lets",
    ] {
        assert!(names.contains(expected), "{expected} is missing");
    }
}

/// A deliberately wrong pass: drops the annotation of the outermost `let`.
fn forget_annotation(mut program: Program) -> Program {
    if let ExprKind::Let { ty, .. } = &mut program.body.kind {
        *ty = None;
    }
    program
}

#[test]
fn verification_names_the_pass_that_broke_the_program() {
    let broken = Pass {
        name: "forget-annotation",
        description: "drops an annotation (test only)",
        run: forget_annotation,
    };
    let program = parse_and_infer("let a = iota(3) in reduce(addi,0,a)");
    let passes = [tail_pipeline()[0], broken];
    let error = run_pipeline(program.clone(), &passes, Verify::On).expect_err("the checker rejects the result");
    assert_eq!(error.pass, "forget-annotation");
    assert!(error.to_string().contains("forget-annotation"), "{error}");
    // Without verification the pipeline does not look.
    assert!(run_pipeline(program, &passes, Verify::Off).is_ok());
}

#[test]
fn verification_rejects_an_unannotated_input() {
    let program = parse_program(&SourceFile::new("test", "let a = 3 in a")).expect("parses");
    let error = run_pipeline(program, &tail_pipeline(), Verify::On).expect_err("no annotation");
    assert_eq!(error.pass, INPUT);
}

#[test]
fn fold_does_not_build_huge_arrays_at_compile_time() {
    // Folding evaluates the operator; iota of ten billion would allocate 80 GB before the length limit applies.
    let text = "reduce(addi,0,iotaV(10000000000))";
    let program = parse_and_infer(text);
    let folded = opt::fold_constants(program);
    assert_eq!(print_program(&folded), text);
    // Small counts still fold.
    assert_eq!(run(opt::fold_constants, "iotaV(3)"), "[1,2,3]");
}

#[test]
fn fold_does_not_run_unbounded_loops_at_compile_time() {
    // !⍣>1: 1! is 1, never greater than 1, so the loop never ends (at run time, as in Dyalog); folding it hung the
    // compiler (found by tests/front_end_fuzz.rs). A huge ⍣ count would take as long.
    for text in ["powerUntil(facti,gti,1)", "power(negi,1000000000000,1)"] {
        let program = parse_and_infer(text);
        let folded = opt::fold_constants(program);
        assert_eq!(print_program(&folded), text);
    }
    // A small count still folds: (3!)! is 720.
    assert_eq!(run(opt::fold_constants, "power(facti,2,3)"), "720");
}
