//! TAIL's concrete syntax: literal printing, type printing, spans and syntax errors.

use aplc::source::SourceFile;
use aplc::tail::ast::{BaseType, ExprKind, Shape, Type};
use aplc::tail::parser::{parse_expr, parse_type};
use aplc::tail::printer::{print_char, print_double, print_int};
use aplc::tail::{parse_program, print_program, print_type};

fn round_trip(text: &str) -> String {
    print_program(&parse_program(&SourceFile::new("t", text)).unwrap_or_else(|e| panic!("{text}: {e}")))
}

fn syntax_error(text: &str) -> (String, usize) {
    let error = parse_program(&SourceFile::new("t", text)).expect_err(text);
    (error.message, error.span.start)
}

#[test]
fn numbers_print_in_sml_style() {
    assert_eq!(print_int(-3), "~3");
    assert_eq!(print_int(42), "42");
    assert_eq!(print_double(0.0), "0.0");
    assert_eq!(print_double(-50.0), "~50.0");
    assert_eq!(print_double(0.01), "0.01");
    assert_eq!(print_double(1.5e-7), "1.5E~7");
    assert_eq!(print_double(1e20), "1.0E20");
    assert_eq!(print_double(f64::INFINITY), "1.0E999");
    assert_eq!(print_double(f64::NEG_INFINITY), "~1.0E999");
    for text in ["0.0", "~50.0", "1.5E~3", "2.5E10", "~1.0E999", "0.1", "~3", "7"] {
        assert_eq!(
            round_trip(text),
            text.replace("1.5E~3", "0.0015").replace("2.5E10", "25000000000.0")
        );
    }
    assert_eq!(parse_expr("1.5E~3").unwrap().kind, ExprKind::Double(0.0015));
    assert_eq!(
        parse_expr("~1.0E999").unwrap().kind,
        ExprKind::Double(f64::NEG_INFINITY)
    );
    assert_eq!(round_trip("2.0j~3.5"), "2.0j~3.5");
    assert_eq!(parse_expr("~1j2").unwrap().kind, ExprKind::Complex(-1.0, 2.0));
}

#[test]
fn chars_print_with_escapes() {
    assert_eq!(print_char('a'), "'a'");
    assert_eq!(print_char('\''), "'\\''");
    assert_eq!(print_char('\\'), "'\\\\'");
    assert_eq!(print_char('\n'), "'\\n'");
    assert_eq!(print_char('\u{7}'), "'\\u{7}'");
    assert_eq!(print_char('⍴'), "'⍴'");
    for c in ['a', '\'', '\\', '\n', '\t', '\u{7}', '⍴', ' '] {
        assert_eq!(parse_expr(&print_char(c)).unwrap().kind, ExprKind::Char(c));
    }
}

#[test]
fn types_print_in_the_thesis_notation() {
    assert_eq!(print_type(&Type::array(BaseType::Int, 2)), "[int]2");
    assert_eq!(print_type(&Type::vector(BaseType::Int, 3)), "<int>3");
    assert_eq!(
        print_type(&Type::Singleton(BaseType::Int, Shape::constant(2))),
        "S(int,2)"
    );
    assert_eq!(
        print_type(&Type::SingletonVector(BaseType::Int, Shape::constant(17))),
        "SV(int,17)"
    );
    assert_eq!(print_type(&Type::scalar(BaseType::Double)), "[double]0");
    let rank = Shape::variable(4).plus_constant(1);
    assert_eq!(print_type(&Type::Array(BaseType::Var(2), rank)), "['a2]('n4+1)");
    let f = Type::function(Type::function(Type::Var(1), Type::Var(1)), Type::Var(1));
    assert_eq!(print_type(&f), "('t1 -> 't1) -> 't1");
    // `int` alone is the scalar type; arrows associate to the right.
    assert_eq!(parse_type("int").unwrap(), Type::scalar(BaseType::Int));
    assert_eq!(
        print_type(&parse_type("int -> int -> bool").unwrap()),
        "[int]0 -> [int]0 -> [bool]0"
    );
    assert_eq!(
        print_type(&parse_type("([char]1, complex)").unwrap()),
        "([char]1,[complex]0)"
    );
    assert_eq!(print_type(&parse_type("<int>('n3+'n3+2)").unwrap()), "<int>('n3+'n3+2)");
    assert!(parse_type("[int]").is_err());
    assert!(
        parse_type("['a]'a").is_err(),
        "one name cannot be a base and a shape variable"
    );
}

#[test]
fn programs_print_one_let_per_line() {
    let text = "let v0:<int>3 = [9,8,6] in (* a comment *) let v1 = fn x:[int]0 => addi(x,1) in\n  each(v1, v0)";
    assert_eq!(
        round_trip(text),
        "let v0:<int>3 = [9,8,6] in\nlet v1 = fn x:[int]0 => addi(x,1) in\neach(v1,v0)"
    );
    assert_eq!(round_trip("[]:char"), "[]:char");
    assert_eq!(round_trip("#2((1, tt, 'c'))"), "#2((1,tt,'c'))");
    assert_eq!(round_trip("reduce(addd, 0.0, x)"), "reduce(addd,0.0,x)");
    assert_eq!(round_trip("zilde()"), "zilde()");
}

#[test]
fn nodes_carry_the_span_of_their_text() {
    let text = "let x = addi(1,2) in x";
    let program = parse_program(&SourceFile::new("t", text)).unwrap();
    let ExprKind::Let { value, body, .. } = &program.body.kind else {
        panic!()
    };
    assert_eq!(&text[value.span.start..value.span.end], "addi(1,2)");
    assert_eq!(&text[body.span.start..body.span.end], "x");
    assert_eq!((program.body.span.start, program.body.span.end), (0, text.len()));
}

#[test]
fn syntax_errors_say_what_was_expected_and_where() {
    assert_eq!(syntax_error("addi(1"), ("expected `,` or `)`".to_string(), 6));
    assert_eq!(syntax_error("let x = 1 x").0, "expected `in`");
    assert_eq!(
        syntax_error("[]").0,
        "an empty vector literal needs its element type, as in `[]:int`"
    );
    assert_eq!(syntax_error("addi(1,2,3)").0, "addi takes 2 arguments, given 3");
    assert_eq!(syntax_error("pi").0, "pi takes no arguments and is written `pi()`");
    assert_eq!(syntax_error("(* open").0, "unterminated comment");
    assert_eq!(syntax_error("'ab'").0, "expected `'` to close the character");
    assert_eq!(
        syntax_error("let addi = 1 in 2").0,
        "`addi` is reserved and cannot be bound"
    );
    assert_eq!(syntax_error("1 2"), ("expected the end of the program".to_string(), 2));
    assert_eq!(syntax_error("#0(x)").0, "projections count from 1");
    assert_eq!(syntax_error("@").0, "unexpected `@`");
    assert_eq!(
        syntax_error("99999999999999999999").0,
        "bad number `99999999999999999999`"
    );
}

#[test]
fn programs_built_with_the_shorthands_print_as_written() {
    use aplc::tail::ast::{Expr, Op};
    let each = Expr::op(
        Op::Each,
        vec![
            Expr::lambda(
                "x",
                Some(Type::scalar(BaseType::Int)),
                Expr::op(Op::I2D, vec![Expr::var("x")]),
            ),
            Expr::var("v"),
        ],
    );
    let body = Expr::op(Op::Reduce, vec![Expr::op_ref(Op::AddD), Expr::double(0.0), each]);
    let vector = Expr::vector(vec![Expr::int(1), Expr::int(-2)], None);
    let program = aplc::tail::Program::new(Expr::let_in("v", None, vector, body));
    assert_eq!(
        print_program(&program),
        "let v = [1,~2] in\nreduce(addd,0.0,each(fn x:[int]0 => i2d(x),v))"
    );
    let empty = Expr::vector(vec![], Some(BaseType::Char));
    let tuple = Expr::project(2, Expr::tuple(vec![Expr::bool(true), Expr::char('a'), empty]));
    assert_eq!(aplc::tail::print_expr(&tuple), "#2((tt,'a',[]:char))");
}
