//! The typing of every TAIL operator: one well-typed use with its inferred type (written by hand from the thesis'
//! schemes and the subtyping rules) and one ill-typed use that inference must reject. A final test checks that the
//! tables cover every operator in the op table.

use aplc::source::SourceFile;
use aplc::tail::ast::{ExprKind, Op};
use aplc::tail::check::check_program;
use aplc::tail::error::TypeError;
use aplc::tail::infer::infer_program;
use aplc::tail::{parse_program, print_program, print_type};
use std::collections::BTreeSet;

fn infer(text: &str) -> Result<String, TypeError> {
    let mut program = parse_program(&SourceFile::new("t.tail", text)).unwrap_or_else(|e| panic!("{text}: {e}"));
    let ty = infer_program(&mut program)?;
    // The annotated program must pass the checker with the same type.
    let printed = print_program(&program);
    let reparsed = parse_program(&SourceFile::new("printed", printed.clone())).expect("printed program parses");
    let checked = check_program(&reparsed).unwrap_or_else(|e| panic!("{printed}: checker: {e}"));
    assert_eq!(print_type(&checked), print_type(&ty), "{printed}");
    Ok(print_type(&ty))
}

/// Scalar operators grouped by signature: (argument types, result type, names).
const SCALAR_GROUPS: &[(&[&str], &str, &[&str])] = &[
    (
        &["int", "int"],
        "int",
        &[
            "addi", "subi", "muli", "divi", "resi", "mini", "maxi", "powi", "andi", "ori", "xori", "shli", "shri",
            "shari", "binomi", "addw", "subw", "mulw",
        ],
    ),
    (
        &["int"],
        "int",
        &["negi", "absi", "signi", "noti", "popcnt", "facti", "negw"],
    ),
    (
        &["double", "double"],
        "double",
        &[
            "addd", "subd", "muld", "divd", "resd", "mind", "maxd", "powd", "binomd", "logd",
        ],
    ),
    (
        &["double"],
        "double",
        &[
            "negd", "absd", "signd", "expd", "ln", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
            "asinh", "acosh", "atanh", "sqrt", "factd",
        ],
    ),
    (&["double"], "int", &["floor", "ceil"]),
    (&["complex", "complex"], "complex", &["addx", "subx", "mulx", "divx"]),
    (&["complex"], "complex", &["negx", "conjx", "expx"]),
    (&["complex"], "double", &["magnx", "rex", "imx"]),
    (&["double", "double"], "complex", &["mkx"]),
    (&["complex", "complex"], "bool", &["eqx", "neqx"]),
    (&["int", "int"], "bool", &["lti", "ltei", "gti", "gtei", "eqi", "neqi"]),
    (
        &["double", "double"],
        "bool",
        &["ltd", "lted", "gtd", "gted", "eqd", "neqd"],
    ),
    (
        &["char", "char"],
        "bool",
        &["ltc", "ltec", "gtc", "gtec", "eqc", "neqc"],
    ),
    (
        &["bool", "bool"],
        "bool",
        &["andb", "orb", "xorb", "nandb", "norb", "eqb"],
    ),
    (&["bool"], "bool", &["notb"]),
    (&["int"], "double", &["i2d"]),
    (&["int"], "bool", &["i2b"]),
    (&["double"], "int", &["d2i"]),
    (&["bool"], "int", &["b2i"]),
    (&["double"], "complex", &["d2x"]),
    (&["char"], "int", &["c2i"]),
    (&["int"], "char", &["i2c"]),
    (&["int"], "int", &["roll"]),
];

fn sample(base: &str) -> &'static str {
    match base {
        "int" => "~1",
        "double" => "1.5",
        "bool" => "tt",
        "char" => "'a'",
        "complex" => "1.0j2.0",
        _ => unreachable!(),
    }
}

fn wrong_sample(base: &str) -> &'static str {
    match base {
        "int" | "complex" => "1.5",
        _ => "1",
    }
}

/// Non-scalar operators: (well-typed use, its type, ill-typed use).
const ARRAY_OPS: &[(&str, &str, &str)] = &[
    ("b2iV(tt)", "S(int,1)", "b2iV(notb(tt))"),
    ("zilde()", "<int>0", "addi(zilde(),1)"),
    ("pi()", "[double]0", "addi(pi(),1)"),
    ("nowi()", "[int]0", "addd(nowi(),1.0)"),
    ("nonEmptyRows(iota(3))", "[int]1", "nonEmptyRows(3)"),
    ("iota(3)", "[int]1", "iota([1,2])"),
    ("iotaV(3)", "<int>3", "iotaV(addi(1,2))"),
    ("shape(reshape([2,3],iota(6)))", "<int>2", "addi(shape(iota(3)),1)"),
    ("shapeV([1,2,3])", "SV(int,3)", "shapeV(iota(3))"),
    ("reshape([2,2],iota(4))", "[int]2", "reshape(iota(2),iota(4))"),
    ("rav(reshape([2,2],iota(4)))", "[int]1", "addi(rav(1),1)"),
    ("tally(iota(3))", "[int]0", "tally(addi)"),
    ("reverse(iota(3))", "[int]1", "addi(reverse(iota(3)),1)"),
    (
        "vreverse(reshape([2,2],iota(4)))",
        "[int]2",
        "addi(vreverse(iota(3)),1)",
    ),
    ("vreverseV([1,2])", "<int>2", "vreverseV(iota(2))"),
    ("rotate(1,iota(3))", "[int]1", "rotate(1.0,iota(3))"),
    ("rotateV(1,[1,2])", "<int>2", "rotateV(1,iota(2))"),
    ("vrotate(1,reshape([2,2],iota(4)))", "[int]2", "vrotate(tt,iota(3))"),
    ("vrotateV(1,[1,2])", "<int>2", "vrotateV(1,iota(2))"),
    ("transp(reshape([2,2],iota(4)))", "[int]2", "addi(transp(iota(3)),1)"),
    (
        "transp2([2,1],reshape([2,2],iota(4)))",
        "[int]2",
        "transp2([2,1,3],reshape([2,2],iota(4)))",
    ),
    ("take(2,iota(3))", "[int]1", "take(2,3)"),
    ("drop(2,reshape([2,2],iota(4)))", "[int]2", "drop(2,3)"),
    ("takeV(2,iota(5))", "<int>2", "takeV(addi(1,1),iota(5))"),
    ("dropV(1,[1,2,3])", "<int>2", "dropV(4,[1,2,3])"),
    ("takeLastV(2,iota(5))", "<int>2", "takeLastV(~2,iota(5))"),
    ("dropLastV(1,[1,2,3])", "<int>2", "dropLastV(1,iota(3))"),
    ("first(iota(3))", "[int]0", "first(addi)"),
    ("firstV([7])", "S(int,7)", "firstV([7,8])"),
    ("cat(iota(2),iota(3))", "[int]1", "cat(iota(2),reshape([1,1],[1]))"),
    (
        "catFirst(reshape([1,2],[1]),reshape([1,2],[2]))",
        "[int]2",
        "catFirst(iota(2),[1.5])",
    ),
    ("catV([1],[2,3])", "<int>3", "catV([1],iota(2))"),
    ("cons(0,iota(2))", "[int]1", "cons(iota(2),iota(2))"),
    ("snoc(iota(2),3)", "[int]1", "snoc(iota(2),[3])"),
    ("consV(0,[1,2])", "<int>3", "consV(0.5,[1,2])"),
    ("snocV([1,2],3)", "<int>3", "snocV([1,2],3.5)"),
    ("each(i2d,iota(3))", "[double]1", "each(addi,iota(3))"),
    ("eachV(i2d,[1,2])", "<double>2", "eachV(i2d,iota(2))"),
    (
        "zipWith(addi,iota(2),iota(2))",
        "[int]1",
        "zipWith(addi,iota(2),reshape([1,1],[1]))",
    ),
    (
        "reduce(addi,0,reshape([2,2],iota(4)))",
        "[int]1",
        "reduce(addi,0.0,iota(3))",
    ),
    ("scan(addi,0,iota(3))", "[int]1", "scan(addi,0,[1.5])"),
    ("compress([tt,ff],iota(2))", "[int]1", "compress([1,0],iota(2))"),
    ("replicate([1,2],iota(2))", "[int]1", "replicate([tt],iota(2))"),
    ("expand([tt,ff],iota(1))", "[int]1", "expand([tt],1)"),
    ("power(negi,3,1)", "[int]0", "power(negi,1.5,1)"),
    (
        "powerUntil(negi,fn a => fn b => lti(a,b),1)",
        "[int]0",
        "powerUntil(negi,fn a => a,1)",
    ),
    ("condScl(negi,tt,1)", "[int]0", "condScl(negi,1,1)"),
    ("bench(negi,3,1)", "[int]0", "bench(negi,tt,1)"),
    ("index(1,2,reshape([2,2],iota(4)))", "[int]1", "index(1,2,3)"),
    ("update(iota(3),[2],9)", "[int]1", "update(iota(3),[2],9.5)"),
    ("scatter(iota(3),[2,1],[9,8])", "[int]1", "scatter(iota(3),[2],[9.5])"),
    (
        "indexOf(iota(3),reshape([2,2],iota(4)))",
        "[int]2",
        "indexOf(iota(3),[1.5])",
    ),
    (
        "member(iota(2),iota(3))",
        "[bool]1",
        "member(iota(2),reshape([1,1],[1]))",
    ),
    ("where([tt,ff])", "[int]1", "where(iota(2))"),
    ("gradeUp(reshape([2,2],[2.5,1.5]))", "[int]1", "gradeUp(2)"),
    ("gradeDown(['b','a'])", "[int]1", "gradeDown(1)"),
    ("decode([2,2],[1,0])", "[int]0", "decode([2,2],[1.5])"),
    ("encode([2,2],3)", "[int]1", "encode([2,2],[3,4])"),
    ("mem(iota(2))", "[int]1", "addi(mem(iota(2)),1)"),
    ("print(10,1.5)", "[double]0", "addi(print(10,1.5),1)"),
    ("print(10,iota(2))", "[int]1", "print(1.5,1)"),
    ("format(10,iota(3))", "[char]1", "addi(format(10,1),1)"),
    (
        "formatMatrix(10,reshape([2,2],iota(4)))",
        "[char]2",
        "formatMatrix(10,iota(3))",
    ),
    ("readFile(['f'])", "[char]1", "readFile(iota(1))"),
    ("readIntVecFile(['f'])", "[int]1", "readIntVecFile(iota(1))"),
    ("readDoubleVecFile(['f'])", "[double]1", "readDoubleVecFile(1.5)"),
    // Program arguments: the index is an int, the default of the argument's type.
    ("argInt(1,100)", "[int]0", "argInt(1,2.5)"),
    ("argDouble(2,0.5)", "[double]0", "argDouble(1.5,0.5)"),
    // A REPL line's inputs: the length is a singleton, so the vector's length is known.
    ("inputI(0,3)", "<int>3", "inputI(0,1.5)"),
    ("inputD(1,2)", "<double>2", "inputD(1.5,2)"),
    ("inputB(0,0)", "<bool>0", "inputB(0,[1])"),
    ("inputC(2,4)", "<char>4", "inputC('a',4)"),
];

#[test]
fn scalar_operators_have_their_signatures() {
    for (arguments, result, names) in SCALAR_GROUPS {
        for name in *names {
            let good: Vec<&str> = arguments.iter().map(|a| sample(a)).collect();
            let good = format!("{name}({})", good.join(","));
            assert_eq!(
                infer(&good).unwrap_or_else(|e| panic!("{good}: {e}")),
                format!("[{result}]0"),
                "{good}"
            );
            let mut bad: Vec<&str> = arguments.iter().map(|a| sample(a)).collect();
            bad[0] = wrong_sample(arguments[0]);
            let bad = format!("{name}({})", bad.join(","));
            assert!(
                matches!(infer(&bad), Err(TypeError::Mismatch { .. })),
                "{bad} should not type-check"
            );
        }
    }
}

#[test]
fn array_operators_have_their_schemes() {
    for (good, ty, bad) in ARRAY_OPS {
        assert_eq!(infer(good).unwrap_or_else(|e| panic!("{good}: {e}")), *ty, "{good}");
        assert!(infer(bad).is_err(), "{bad} should not type-check");
    }
}

#[test]
fn the_tables_cover_every_operator() {
    let mut covered: BTreeSet<&str> = SCALAR_GROUPS
        .iter()
        .flat_map(|(_, _, names)| names.iter().copied())
        .collect();
    for (good, _, _) in ARRAY_OPS {
        let program = parse_program(&SourceFile::new("t", *good)).unwrap();
        match program.body.kind {
            ExprKind::Op { op, .. } => covered.insert(op.name()),
            _ => panic!("{good} is not an operator application"),
        };
    }
    let missing: Vec<&str> = Op::ALL
        .iter()
        .map(|op| op.name())
        .filter(|name| !covered.contains(name))
        .collect();
    assert!(missing.is_empty(), "operators without typing tests: {missing:?}");
}

#[test]
fn type_errors_name_both_types_in_tail_syntax() {
    let error = infer("addi(1.5,2)").unwrap_err();
    assert_eq!(error.to_string(), "type mismatch: expected [int]0, found [double]0");
    let error = infer("reduce(addi,0,[1.5])").unwrap_err();
    assert!(error.to_string().contains("found <double>1"), "{error}");
    assert!(matches!(infer("x"), Err(TypeError::UnboundVariable { .. })));
}

#[test]
fn literals_have_singleton_types_and_subsume() {
    assert_eq!(infer("3").unwrap(), "S(int,3)");
    assert_eq!(infer("~3").unwrap(), "[int]0");
    assert_eq!(infer("tt").unwrap(), "S(bool,1)");
    assert_eq!(infer("[1,2,3]").unwrap(), "<int>3");
    assert_eq!(infer("[5]").unwrap(), "SV(int,5)");
    assert_eq!(infer("[]:double").unwrap(), "<double>0");
    assert_eq!(infer("(1,2.5)").unwrap(), "(S(int,1),[double]0)");
    assert_eq!(infer("#2((1,2.5))").unwrap(), "[double]0");
    // A vector literal is usable as an array of rank 1, a singleton as a scalar.
    assert_eq!(infer("let v:[int]1 = [1,2,3] in v").unwrap(), "[int]1");
    assert_eq!(infer("let n:[int]0 = 4 in n").unwrap(), "[int]0");
    assert_eq!(infer("let v = [1,2] in let w:<int>2 = v in w").unwrap(), "<int>2");
    assert!(infer("let v:<int>3 = [1,2] in v").is_err());
    assert!(infer("let v:[int]2 = [1,2] in v").is_err());
}

#[test]
fn shapes_are_equal_up_to_associativity_commutativity_and_constants() {
    // catV adds the lengths: (1+2)+3 and 3+(2+1) are both 6.
    assert_eq!(infer("catV(catV([1],[2,3]),[4,5,6])").unwrap(), "<int>6");
    assert_eq!(
        infer("let v:<int>6 = catV([4,5,6],catV([2,3],[1])) in v").unwrap(),
        "<int>6"
    );
    // dropV solves 2 + 'm = 5 for 'm.
    assert_eq!(infer("dropV(2,[1,2,3,4,5])").unwrap(), "<int>3");
    // Shape variables in annotations: a polymorphic identity on vectors keeps the length.
    assert_eq!(infer("let v:<int>('n+1) = [1,2,3] in v").unwrap(), "<int>3");
}

#[test]
fn let_bound_functions_are_polymorphic() {
    // The same let-bound function is used at int and at double; without generalisation the second use would clash.
    assert_eq!(
        infer("let f = fn x => x in (each(f,[1,2]),each(f,[1.5]))").unwrap(),
        "([int]1,[double]1)"
    );
}

#[test]
fn checker_requires_annotations() {
    let program = parse_program(&SourceFile::new("t", "let x = 1 in x")).unwrap();
    assert!(matches!(
        check_program(&program),
        Err(TypeError::MissingAnnotation { .. })
    ));
    let program = parse_program(&SourceFile::new("t", "each(fn x => x,[1])")).unwrap();
    assert!(matches!(
        check_program(&program),
        Err(TypeError::MissingAnnotation { .. })
    ));
    let program = parse_program(&SourceFile::new(
        "t",
        "let x:[int]0 = 1 in each(fn y:[int]0 => addi(x,y),[1])",
    ))
    .unwrap();
    assert_eq!(print_type(&check_program(&program).unwrap()), "[int]1");
    // An annotation that does not fit the value is an error in the checker too.
    let program = parse_program(&SourceFile::new("t", "let x:[double]0 = 1 in x")).unwrap();
    assert!(matches!(check_program(&program), Err(TypeError::Mismatch { .. })));
}

#[test]
fn loop_states_forget_known_values() {
    // The `'t` of power/condScl/powerUntil is the type of a state that changes between iterations, so a lambda
    // returning a literal binds it to the literal's type without its value: `S(int,5)` would reject the start `0`.
    assert_eq!(infer("power(fn y:[int]0 => 5,2,0)").unwrap(), "[int]0");
    assert_eq!(infer("power(fn y => 5,2,0)").unwrap(), "[int]0");
    assert_eq!(infer("power(fn y => [5],2,[0])").unwrap(), "<int>1");
    assert_eq!(infer("power(fn y => (1,[5]),2,(0,[7]))").unwrap(), "([int]0,<int>1)");
    assert_eq!(infer("condScl(fn y => 2.5,tt,0.5)").unwrap(), "[double]0");
    assert_eq!(infer("powerUntil(fn y => 3,fn a => fn b => tt,0)").unwrap(), "[int]0");
    // Lengths and ranks are still part of the state's type: a state cannot change its length.
    assert!(infer("power(fn y => [1,2],2,[0])").is_err());
    assert!(infer("power(fn y => 1.5,2,0)").is_err());
    // ... unless the lambda's parameter says the length is unknown: then that is the state's type (the elaborator
    // writes `[int]1` for a guard's argument, whose branches may give vectors of any length).
    assert_eq!(infer("condScl(fn y:[int]1 => [2,3,5],tt,[]:int)").unwrap(), "[int]1");
    assert_eq!(infer("power(fn y:[int]1 => [1,2],2,[0])").unwrap(), "[int]1");
    assert!(infer("condScl(fn y:[int]2 => [2,3,5],tt,[]:int)").is_err());
}
