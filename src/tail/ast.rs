//! The abstract syntax of TAIL: types, expressions and programs.
//!
//! A TAIL program is one expression, usually a chain of `let`s ending in the result. Operators are always fully
//! applied (`reduce(addd, 0.0, x)`); an operator name used as an argument (`addd` above) is a function value, the
//! eta-expansion `fn x => fn y => addd(x, y)`. Lambdas appear only as operator arguments.
//!
//! Types follow the thesis (digest §2.2): `[κ]ρ` is an array of base type κ and rank ρ, `<κ>ρ` a vector of length ρ,
//! `S(κ,ρ)` a scalar whose value is ρ and `SV(κ,ρ)` a one-element vector whose element is ρ. Shapes ρ are naturals
//! written as a constant plus a sum of shape variables, kept normalised so that equality is up to associativity,
//! commutativity and constant folding of `+`.
//!
//! The operator table (names, arities, type schemes, documentation) lives in `ops.rs`; [`Op`] is re-exported here.

use crate::source::Span;
use std::collections::BTreeMap;

pub use super::ops::Op;

/// A base (element) type κ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BaseType {
    /// 64-bit signed integers.
    Int,
    /// IEEE double precision.
    Double,
    Bool,
    /// Unicode scalar values.
    Char,
    /// Pairs of doubles (real, imaginary).
    Complex,
    /// A base-type variable (printed `'a3`).
    Var(u32),
}

/// A shape type ρ: a natural number `constant + v1 + v2 + ...` where the shape variables form a multiset
/// (variable id to multiplicity). Two shapes are equal exactly when their normal forms are equal.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Shape {
    pub constant: u64,
    pub variables: BTreeMap<u32, u32>,
}

impl Shape {
    /// The constant shape `n`.
    pub fn constant(n: u64) -> Shape {
        Shape {
            constant: n,
            variables: BTreeMap::new(),
        }
    }

    /// The shape variable `'n<id>`.
    pub fn variable(id: u32) -> Shape {
        let mut variables = BTreeMap::new();
        variables.insert(id, 1);
        Shape { constant: 0, variables }
    }

    /// `self + other`, normalised.
    pub fn plus(&self, other: &Shape) -> Shape {
        let mut sum = self.clone();
        sum.constant += other.constant;
        for (variable, count) in &other.variables {
            *sum.variables.entry(*variable).or_insert(0) += count;
        }
        sum
    }

    /// `self + n`.
    pub fn plus_constant(&self, n: u64) -> Shape {
        let mut sum = self.clone();
        sum.constant += n;
        sum
    }

    /// The constant value, when the shape has no variables.
    pub fn as_constant(&self) -> Option<u64> {
        self.variables.is_empty().then_some(self.constant)
    }

    /// The single variable, when the shape is exactly one variable.
    pub fn as_variable(&self) -> Option<u32> {
        if self.constant == 0 && self.variables.len() == 1 {
            let (variable, count) = self.variables.iter().next().expect("one variable");
            (*count == 1).then_some(*variable)
        } else {
            None
        }
    }
}

/// A type τ.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// `[κ]ρ`: an array of rank ρ. `[κ]0` is a scalar (the printer writes it `[κ]0`; the parser also accepts `κ`).
    Array(BaseType, Shape),
    /// `<κ>ρ`: a vector of length ρ.
    Vector(BaseType, Shape),
    /// `S(κ,ρ)`: a scalar whose value is ρ (κ is int or bool).
    Singleton(BaseType, Shape),
    /// `SV(κ,ρ)`: a one-element vector whose element is ρ.
    SingletonVector(BaseType, Shape),
    /// `τ -> τ'`.
    Function(Box<Type>, Box<Type>),
    /// `(τ1, τ2, ...)`: a tuple of two or more values (the APL front end's mixed strands).
    Tuple(Vec<Type>),
    /// A type variable (printed `'t3`), standing for any type; used by polymorphic ops such as `print` and `power`.
    Var(u32),
}

impl Type {
    /// The scalar type `[κ]0`.
    pub fn scalar(base: BaseType) -> Type {
        Type::Array(base, Shape::constant(0))
    }

    /// `[κ]n` for a constant rank.
    pub fn array(base: BaseType, rank: u64) -> Type {
        Type::Array(base, Shape::constant(rank))
    }

    /// `<κ>n` for a constant length.
    pub fn vector(base: BaseType, length: u64) -> Type {
        Type::Vector(base, Shape::constant(length))
    }

    pub fn function(argument: Type, result: Type) -> Type {
        Type::Function(Box::new(argument), Box::new(result))
    }

    /// The least precise type that keeps rank and length but forgets known values: `S(κ,n)` becomes `[κ]0` and
    /// `SV(κ,n)` becomes `<κ>1`, inside tuples too. A loop state (the value `power` iterates) must have such a type,
    /// because each iteration may produce a different value.
    pub fn without_known_values(&self) -> Type {
        match self {
            Type::Singleton(base, _) => Type::scalar(*base),
            Type::SingletonVector(base, _) => Type::vector(*base, 1),
            Type::Tuple(components) => Type::Tuple(components.iter().map(Type::without_known_values).collect()),
            other => other.clone(),
        }
    }
}

/// A type scheme `∀ base-vars shape-vars type-vars . τ`.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeScheme {
    pub base_variables: Vec<u32>,
    pub shape_variables: Vec<u32>,
    pub type_variables: Vec<u32>,
    pub body: Type,
}

impl TypeScheme {
    /// A scheme with no quantified variables.
    pub fn monomorphic(body: Type) -> TypeScheme {
        TypeScheme {
            base_variables: vec![],
            shape_variables: vec![],
            type_variables: vec![],
            body,
        }
    }
}

/// A whole TAIL program: the recursive functions it defines, then one expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// Functions that call themselves (or each other) by name with [`ExprKind::Call`]: the recursion of APL dfns that
    /// is neither unfolded at compile time nor a tail call. Each is closed (its body reads only its parameters) and
    /// monomorphic. Empty for most programs.
    pub functions: Vec<Function>,
    pub body: Expr,
}

impl Program {
    /// A program without functions.
    pub fn new(body: Expr) -> Program {
        Program {
            functions: Vec::new(),
            body,
        }
    }

    /// The program with `rewrite` applied to every function body and to the main body (what a pass over
    /// expressions does to a whole program).
    pub fn map_bodies(self, mut rewrite: impl FnMut(Expr) -> Expr) -> Program {
        let functions = self
            .functions
            .into_iter()
            .map(|function| Function {
                body: rewrite(function.body),
                ..function
            })
            .collect();
        Program {
            functions,
            body: rewrite(self.body),
        }
    }

    /// The function named `name`.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|function| function.name == name)
    }
}

/// `fun name(x1:τ1, ..., xn:τn) : τ = body;`: a (recursive) function of a program, called with
/// [`ExprKind::Call`]. The parameter and result types carry no known values (`[int]0`, not `S(int,3)`).
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub parameters: Vec<(String, Type)>,
    pub result: Type,
    pub body: Expr,
}

/// How many calls of a program's functions may be active at once, on every backend: a deeper recursion stops the
/// program with WS FULL (as Dyalog does when recursion exhausts its stack) instead of overflowing the native stack.
pub const MAX_CALL_DEPTH: usize = aplc_runtime::abi::MAX_CALL_DEPTH as usize;

/// An expression with the span of the text it came from (a default span when it was built by a pass).
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }

    /// An expression with no source text behind it (built by the front end or a pass).
    pub fn synthetic(kind: ExprKind) -> Expr {
        Expr {
            kind,
            span: Span::default(),
        }
    }

    // Shorthands for building programs (spans default; set `span` afterwards where the text is known).

    pub fn int(value: i64) -> Expr {
        Expr::synthetic(ExprKind::Int(value))
    }

    pub fn double(value: f64) -> Expr {
        Expr::synthetic(ExprKind::Double(value))
    }

    pub fn bool(value: bool) -> Expr {
        Expr::synthetic(ExprKind::Bool(value))
    }

    pub fn char(value: char) -> Expr {
        Expr::synthetic(ExprKind::Char(value))
    }

    pub fn var(name: impl Into<String>) -> Expr {
        Expr::synthetic(ExprKind::Var(name.into()))
    }

    /// `op(args)`; the number of arguments must be the op's arity (the checker reports it otherwise).
    pub fn op(op: Op, args: Vec<Expr>) -> Expr {
        Expr::synthetic(ExprKind::Op { op, args })
    }

    /// The op as a function value.
    pub fn op_ref(op: Op) -> Expr {
        Expr::synthetic(ExprKind::OpRef(op))
    }

    /// `[e1,...,en]` of the given element type (needed when empty, inferred otherwise).
    pub fn vector(elements: Vec<Expr>, element_type: Option<BaseType>) -> Expr {
        Expr::synthetic(ExprKind::Vector { elements, element_type })
    }

    /// `let name:ty = value in body`.
    pub fn let_in(name: impl Into<String>, ty: Option<Type>, value: Expr, body: Expr) -> Expr {
        Expr::synthetic(ExprKind::Let {
            name: name.into(),
            ty,
            value: Box::new(value),
            body: Box::new(body),
        })
    }

    /// `fn parameter:ty => body`.
    pub fn lambda(parameter: impl Into<String>, ty: Option<Type>, body: Expr) -> Expr {
        Expr::synthetic(ExprKind::Lambda {
            parameter: parameter.into(),
            ty,
            body: Box::new(body),
        })
    }

    pub fn tuple(components: Vec<Expr>) -> Expr {
        Expr::synthetic(ExprKind::Tuple(components))
    }

    /// `#index(tuple)`, 1-based.
    pub fn project(index: usize, tuple: Expr) -> Expr {
        Expr::synthetic(ExprKind::Project {
            index,
            tuple: Box::new(tuple),
        })
    }
}

/// The expression forms.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// An int literal; negative ones print as `~3`.
    Int(i64),
    /// A double literal; always printed with a `.` or an exponent (`0.0`, `~50.0`, `1.5E~3`).
    Double(f64),
    /// `tt` or `ff`.
    Bool(bool),
    /// `'a'`, with escapes `'\n'`, `'\''`, `'\\'`, `'\u{2374}'`.
    Char(char),
    /// A complex literal `re j im`, printed `2.0j3.0` (negative parts with `~`: `~1.0j~0.5`).
    Complex(f64, f64),
    /// A variable bound by `let` or `fn`.
    Var(String),
    /// A 1-D vector literal `[e1,...,en]`. `element_type` is required for the empty literal (printed `[]:int`) and is
    /// otherwise filled in by inference.
    Vector {
        elements: Vec<Expr>,
        element_type: Option<BaseType>,
    },
    /// A fully applied operator `op(e1,...,en)`.
    Op { op: Op, args: Vec<Expr> },
    /// An operator name used as a function value (eta-expanded), e.g. `addd` in `reduce(addd,0.0,x)`.
    OpRef(Op),
    /// `let x:τ = e1 in e2`. The type is optional in input and always present after inference.
    Let {
        name: String,
        ty: Option<Type>,
        value: Box<Expr>,
        body: Box<Expr>,
    },
    /// `fn x:τ => e`. The parameter type is optional in input and always present after inference.
    Lambda {
        parameter: String,
        ty: Option<Type>,
        body: Box<Expr>,
    },
    /// `(e1, e2, ...)`: a tuple of two or more components.
    Tuple(Vec<Expr>),
    /// `#k(e)`: the k-th component of a tuple, 1-based (like SML's `#1`).
    Project { index: usize, tuple: Box<Expr> },
    /// `call f(e1,...,en)`: a call of the program's function `f` (see [`Function`]). It may raise any APL error,
    /// WS FULL when calls nest deeper than [`MAX_CALL_DEPTH`].
    Call { function: String, args: Vec<Expr> },
}
