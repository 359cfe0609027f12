//! Property tests of the TAIL layer:
//! (a) print → parse → print is the identity on generated programs (any syntax, typed or not);
//! (b) type preservation: a generated well-typed program infers, its printed annotated form passes the checker with
//!     the same type, and evaluating it gives a value whose rank, length
//!     and base type match the inferred type, or an APL error; never a panic.

use aplc::source::SourceFile;
use aplc::tail::ast::{BaseType, Expr, ExprKind, Op, Shape, Type};
use aplc::tail::check::check_program;
use aplc::tail::infer::infer_program;
use aplc::tail::interp::{eval_program, MemoryHost};
use aplc::tail::value::{Scalar, Value};
use aplc::tail::{parse_program, print_program, print_type};
use proptest::prelude::*;

// ---- (a) Round trip of arbitrary syntax ----

fn arb_base() -> impl Strategy<Value = BaseType> {
    prop_oneof![
        Just(BaseType::Int),
        Just(BaseType::Double),
        Just(BaseType::Bool),
        Just(BaseType::Char),
        Just(BaseType::Complex),
        (0u32..3).prop_map(BaseType::Var),
    ]
}

fn arb_shape() -> impl Strategy<Value = Shape> {
    (0u64..4, prop::collection::vec(0u32..3, 0..3)).prop_map(|(constant, variables)| {
        variables
            .into_iter()
            .fold(Shape::constant(constant), |shape, v| shape.plus(&Shape::variable(v)))
    })
}

fn arb_type() -> impl Strategy<Value = Type> {
    let leaf = prop_oneof![
        (arb_base(), arb_shape()).prop_map(|(b, s)| Type::Array(b, s)),
        (arb_base(), arb_shape()).prop_map(|(b, s)| Type::Vector(b, s)),
        (arb_base(), arb_shape()).prop_map(|(b, s)| Type::Singleton(b, s)),
        (arb_base(), arb_shape()).prop_map(|(b, s)| Type::SingletonVector(b, s)),
        (0u32..3).prop_map(Type::Var),
    ];
    leaf.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, r)| Type::function(a, r)),
            prop::collection::vec(inner, 2..4).prop_map(Type::Tuple),
        ]
    })
}

fn synthetic(kind: ExprKind) -> Expr {
    Expr::synthetic(kind)
}

fn arb_name() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["v0", "v1", "x", "y_2"]).prop_map(str::to_string)
}

fn arb_expr() -> impl Strategy<Value = Expr> {
    let functions: Vec<Op> = Op::ALL.iter().copied().filter(|op| op.arity() > 0).collect();
    let leaf = prop_oneof![
        any::<i64>().prop_map(|x| synthetic(ExprKind::Int(x))),
        any::<f64>().prop_map(|x| synthetic(ExprKind::Double(x))),
        any::<bool>().prop_map(|x| synthetic(ExprKind::Bool(x))),
        any::<char>().prop_map(|x| synthetic(ExprKind::Char(x))),
        (any::<f64>(), any::<f64>()).prop_map(|(re, im)| synthetic(ExprKind::Complex(re, im))),
        arb_name().prop_map(|name| synthetic(ExprKind::Var(name))),
        prop::sample::select(functions).prop_map(|op| synthetic(ExprKind::OpRef(op))),
        arb_base().prop_map(|base| synthetic(ExprKind::Vector {
            elements: vec![],
            element_type: Some(base)
        })),
    ];
    leaf.prop_recursive(4, 40, 4, |inner| {
        let ops: Vec<Op> = Op::ALL.to_vec();
        let for_ops = inner.clone();
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..4).prop_map(|elements| synthetic(ExprKind::Vector {
                elements,
                element_type: None
            })),
            prop::sample::select(ops).prop_flat_map(move |op| {
                prop::collection::vec(for_ops.clone(), op.arity()..=op.arity())
                    .prop_map(move |args| synthetic(ExprKind::Op { op, args }))
            }),
            (arb_name(), prop::option::of(arb_type()), inner.clone(), inner.clone()).prop_map(
                |(name, ty, value, body)| synthetic(ExprKind::Let {
                    name,
                    ty,
                    value: Box::new(value),
                    body: Box::new(body)
                })
            ),
            (arb_name(), prop::option::of(arb_type()), inner.clone()).prop_map(|(parameter, ty, body)| synthetic(
                ExprKind::Lambda {
                    parameter,
                    ty,
                    body: Box::new(body)
                }
            )),
            prop::collection::vec(inner.clone(), 2..4).prop_map(|c| synthetic(ExprKind::Tuple(c))),
            (1usize..4, inner).prop_map(|(index, tuple)| synthetic(ExprKind::Project {
                index,
                tuple: Box::new(tuple)
            })),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn print_parse_print_is_the_identity(expr in arb_expr()) {
        let printed = print_program(&aplc::tail::Program::new(expr));
        let parsed = parse_program(&SourceFile::new("printed", printed.clone()))
            .unwrap_or_else(|e| panic!("printed text does not parse: {e} at {:?}\n{printed}", e.span));
        prop_assert_eq!(print_program(&parsed), printed);
    }

    #[test]
    fn types_print_and_parse_back(ty in arb_type()) {
        let printed = print_type(&ty);
        let parsed = aplc::tail::parse_type(&printed).unwrap_or_else(|e| panic!("{printed}: {e}"));
        prop_assert_eq!(print_type(&parsed), printed);
    }
}

// ---- (b) Type preservation on generated well-typed programs ----

/// A small deterministic generator (xorshift) so that one proptest seed gives one program.
struct Generator {
    state: u64,
    next_name: usize,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Int,
    Double,
    Bool,
}

impl Generator {
    fn below(&mut self, n: usize) -> usize {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        (self.state % n as u64) as usize
    }

    fn small_int(&mut self) -> String {
        let n = self.below(12) as i64 - 4;
        if n < 0 {
            format!("~{}", -n)
        } else {
            n.to_string()
        }
    }

    fn literal(&mut self, kind: Kind) -> String {
        match kind {
            Kind::Int => self.small_int(),
            Kind::Double => ["0.5", "~1.5", "2.0", "0.0", "10.25"][self.below(5)].to_string(),
            Kind::Bool => ["tt", "ff"][self.below(2)].to_string(),
        }
    }

    fn type_name(kind: Kind) -> &'static str {
        match kind {
            Kind::Int => "int",
            Kind::Double => "double",
            Kind::Bool => "bool",
        }
    }

    fn binary_op(&mut self, kind: Kind) -> &'static str {
        match kind {
            Kind::Int => ["addi", "subi", "muli", "maxi", "mini", "divi", "resi"][self.below(7)],
            Kind::Double => ["addd", "subd", "muld", "divd", "maxd"][self.below(5)],
            Kind::Bool => ["andb", "orb", "xorb"][self.below(3)],
        }
    }

    fn neutral(kind: Kind, op: &str) -> &'static str {
        match (kind, op) {
            (Kind::Int, "muli") => "1",
            (Kind::Int, "maxi") => "~1000",
            (Kind::Int, "mini") => "1000",
            (Kind::Int, _) => "0",
            (Kind::Double, "muld" | "divd") => "1.0",
            (Kind::Double, _) => "0.0",
            (Kind::Bool, "andb") => "tt",
            (Kind::Bool, _) => "ff",
        }
    }

    fn fresh_name(&mut self) -> String {
        self.next_name += 1;
        format!("v{}", self.next_name)
    }

    fn leaf(&mut self, kind: Kind, rank: usize) -> String {
        match rank {
            0 => self.literal(kind),
            1 => {
                let count = self.below(5);
                if count == 0 {
                    return format!("[]:{}", Self::type_name(kind));
                }
                let elements: Vec<String> = (0..count).map(|_| self.literal(kind)).collect();
                format!("[{}]", elements.join(","))
            }
            _ => {
                let (a, b) = (self.below(3), self.below(4));
                let source = self.leaf(kind, 1);
                format!("reshape([{a},{b}],{source})")
            }
        }
    }

    /// An expression of base type `kind` and rank `rank`.
    fn expr(&mut self, kind: Kind, rank: usize, depth: usize) -> String {
        if depth == 0 {
            return self.leaf(kind, rank);
        }
        let d = depth - 1;
        match rank {
            0 => match self.below(7) {
                0 => {
                    let op = self.binary_op(kind);
                    format!("{op}({},{})", self.expr(kind, 0, d), self.expr(kind, 0, d))
                }
                1 => match kind {
                    Kind::Int => format!("b2i({})", self.expr(Kind::Bool, 0, d)),
                    Kind::Double => format!("i2d({})", self.expr(Kind::Int, 0, d)),
                    Kind::Bool => format!("lti({},{})", self.expr(Kind::Int, 0, d), self.expr(Kind::Int, 0, d)),
                },
                2 => {
                    let r = 1 + self.below(2);
                    format!("first({})", self.expr(kind, r, d))
                }
                3 => {
                    let op = self.binary_op(kind);
                    format!("reduce({op},{},{})", Self::neutral(kind, op), self.expr(kind, 1, d))
                }
                4 if kind == Kind::Int => {
                    let r = 1 + self.below(2);
                    format!("tally({})", self.expr(Kind::Double, r, d))
                }
                5 => {
                    let name = self.fresh_name();
                    let op = self.binary_op(kind);
                    format!("let {name} = {} in {op}({name},{name})", self.expr(kind, 0, d))
                }
                _ => self.leaf(kind, 0),
            },
            1 => match self.below(16) {
                0 => {
                    let op = self.binary_op(kind);
                    format!("each(fn x => {op}(x,{}),{})", self.literal(kind), self.expr(kind, 1, d))
                }
                1 => {
                    let name = self.fresh_name();
                    let op = self.binary_op(kind);
                    format!(
                        "let {name} = {} in zipWith({op},{name},reverse({name}))",
                        self.expr(kind, 1, d)
                    )
                }
                2 => format!("rotate({},{})", self.small_int(), self.expr(kind, 1, d)),
                3 => format!("take({},{})", self.small_int(), self.expr(kind, 1, d)),
                4 => format!("drop({},{})", self.small_int(), self.expr(kind, 1, d)),
                5 => format!("cat({},{})", self.expr(kind, 1, d), self.expr(kind, 1, d)),
                6 => format!("cons({},{})", self.expr(kind, 0, d), self.expr(kind, 1, d)),
                7 => format!("rav({})", self.expr(kind, 2, d)),
                8 => {
                    let op = self.binary_op(kind);
                    format!("reduce({op},{},{})", Self::neutral(kind, op), self.expr(kind, 2, d))
                }
                9 => format!("compress({},{})", self.expr(Kind::Bool, 1, d), self.expr(kind, 1, d)),
                10 => format!("replicate({},{})", self.expr(Kind::Int, 1, d), self.expr(kind, 1, d)),
                11 => {
                    let op = self.binary_op(kind);
                    format!("scan({op},{},{})", Self::neutral(kind, op), self.expr(kind, 1, d))
                }
                12 => format!("index(1,{},{})", 1 + self.below(2), self.expr(kind, 2, d)),
                13 => format!("power(fn v => rotate(1,v),{},{})", self.below(3), self.expr(kind, 1, d)),
                14 if kind == Kind::Int => format!("gradeUp({})", self.expr(Kind::Double, 1, d)),
                15 if kind == Kind::Int => format!("iota({})", self.below(5)),
                _ => format!("vreverse({})", self.expr(kind, 1, d)),
            },
            _ => match self.below(9) {
                0 => format!(
                    "reshape([{},{}],{})",
                    self.below(3),
                    self.below(3),
                    self.expr(kind, 1, d)
                ),
                1 => format!("transp({})", self.expr(kind, 2, d)),
                2 => format!("transp2([2,1],{})", self.expr(kind, 2, d)),
                3 => {
                    let op = self.binary_op(kind);
                    format!("each(fn x => {op}({},x),{})", self.literal(kind), self.expr(kind, 2, d))
                }
                4 => format!("take({},{})", self.small_int(), self.expr(kind, 2, d)),
                5 => format!("vrotate({},{})", self.small_int(), self.expr(kind, 2, d)),
                6 => format!("catFirst({},{})", self.expr(kind, 2, d), self.expr(kind, 2, d)),
                7 => format!("snoc({},{})", self.expr(kind, 2, d), self.expr(kind, 1, d)),
                _ => {
                    let name = self.fresh_name();
                    format!(
                        "let {name}:[{}]2 = {} in drop(1,{name})",
                        Self::type_name(kind),
                        self.expr(kind, 2, d)
                    )
                }
            },
        }
    }
}

fn base_of(scalar: Scalar) -> BaseType {
    scalar.base_type()
}

/// Whether a value fits a (closed) type: rank, static length or value, and base type.
fn fits(value: &Value, ty: &Type) -> Result<(), String> {
    let (base, rank, length, static_value) = match ty {
        Type::Array(b, s) => (*b, s.as_constant(), None, None),
        Type::Vector(b, s) => (*b, Some(1), s.as_constant(), None),
        Type::Singleton(b, s) => (*b, Some(0), None, s.as_constant()),
        Type::SingletonVector(b, s) => (*b, Some(1), Some(1), s.as_constant()),
        Type::Tuple(types) => {
            let Value::Tuple(values) = value else {
                return Err("expected a tuple".into());
            };
            for (v, t) in values.iter().zip(types) {
                fits(v, t)?;
            }
            return Ok(());
        }
        _ => return Ok(()),
    };
    let array = value.to_array().ok_or("expected an array")?;
    if rank.is_some_and(|r| r as usize != array.rank()) {
        return Err(format!("rank {} for {}", array.rank(), print_type(ty)));
    }
    if length.is_some_and(|n| n as usize != array.shape[0]) {
        return Err(format!("length {} for {}", array.shape[0], print_type(ty)));
    }
    if !matches!(base, BaseType::Var(_)) && array.base_type() != base {
        return Err(format!("base type {:?} for {}", array.base_type(), print_type(ty)));
    }
    if let Some(n) = static_value {
        let element = array.data.get(0);
        let matches = match element {
            Scalar::Int(x) => x == n as i64,
            Scalar::Bool(b) => b as u64 == n,
            _ => false,
        };
        if !matches {
            return Err(format!(
                "value {element:?} ({:?}) for {}",
                base_of(element),
                print_type(ty)
            ));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn evaluation_preserves_the_inferred_type(seed in 1u64.., kind in 0usize..3, rank in 0usize..3, depth in 0usize..5) {
        let kind = [Kind::Int, Kind::Double, Kind::Bool][kind];
        let mut generator = Generator { state: seed, next_name: 0 };
        let text = generator.expr(kind, rank, depth);
        let mut program = parse_program(&SourceFile::new("generated", text.clone()))
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        let ty = infer_program(&mut program).unwrap_or_else(|e| panic!("{text}: {e}"));
        // The annotated program passes the checker with the same type after a print/parse round trip.
        let printed = print_program(&program);
        let reparsed = parse_program(&SourceFile::new("printed", printed.clone())).expect("printed program parses");
        let checked = check_program(&reparsed).unwrap_or_else(|e| panic!("{printed}\nchecker: {e}"));
        prop_assert_eq!(print_type(&checked), print_type(&ty));
        match eval_program(&program, &mut MemoryHost::default()) {
            Ok(value) => {
                if let Err(problem) = fits(&value, &ty) {
                    panic!("{text}\nhas type {} but evaluated to a value with {problem}", print_type(&ty));
                }
            }
            Err(_apl_error) => {}
        }
    }
}

// ---- (c) The interpreter never panics, even on programs that were not type-checked ----

fn arb_untyped_expr() -> impl Strategy<Value = Expr> {
    // Small numbers only (iota and reshape of huge sizes would exhaust memory), and no loops whose count or
    // predicate is arbitrary (they could run for ever).
    let ops: Vec<Op> = Op::ALL
        .iter()
        .copied()
        .filter(|op| !matches!(op, Op::Power | Op::PowerUntil))
        .collect();
    let functions: Vec<Op> = ops.iter().copied().filter(|op| op.arity() > 0).collect();
    let leaf = prop_oneof![
        (-3i64..12).prop_map(|x| synthetic(ExprKind::Int(x))),
        prop::sample::select(vec![0.0, -1.5, 2.0, 0.5]).prop_map(|x| synthetic(ExprKind::Double(x))),
        any::<bool>().prop_map(|x| synthetic(ExprKind::Bool(x))),
        prop::sample::select(vec!['a', ' ', 'z']).prop_map(|x| synthetic(ExprKind::Char(x))),
        Just(synthetic(ExprKind::Complex(1.0, -1.0))),
        arb_name().prop_map(|name| synthetic(ExprKind::Var(name))),
        prop::sample::select(functions).prop_map(|op| synthetic(ExprKind::OpRef(op))),
        arb_base().prop_map(|base| synthetic(ExprKind::Vector {
            elements: vec![],
            element_type: Some(base)
        })),
    ];
    leaf.prop_recursive(4, 32, 4, move |inner| {
        let for_ops = inner.clone();
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..4).prop_map(|elements| synthetic(ExprKind::Vector {
                elements,
                element_type: None
            })),
            prop::sample::select(ops.clone()).prop_flat_map(move |op| {
                prop::collection::vec(for_ops.clone(), op.arity()..=op.arity())
                    .prop_map(move |args| synthetic(ExprKind::Op { op, args }))
            }),
            (arb_name(), inner.clone(), inner.clone()).prop_map(|(name, value, body)| synthetic(ExprKind::Let {
                name,
                ty: None,
                value: Box::new(value),
                body: Box::new(body)
            })),
            (arb_name(), inner.clone()).prop_map(|(parameter, body)| synthetic(ExprKind::Lambda {
                parameter,
                ty: None,
                body: Box::new(body)
            })),
            prop::collection::vec(inner.clone(), 2..4).prop_map(|c| synthetic(ExprKind::Tuple(c))),
            (1usize..4, inner).prop_map(|(index, tuple)| synthetic(ExprKind::Project {
                index,
                tuple: Box::new(tuple)
            })),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn evaluation_never_panics(expr in arb_untyped_expr()) {
        let program = aplc::tail::Program::new(expr);
        let _ = eval_program(&program, &mut MemoryHost::default());
    }
}
