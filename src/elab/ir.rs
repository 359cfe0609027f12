//! The TAIL terms elaboration builds, before they are converted to `crate::tail::ast` (see `lower.rs`).
//!
//! Elaboration works on this small mirror of TAIL rather than on `tail::ast` directly so that the compile-time
//! functions (primitives, dfns, operators) only need the few constructors below; ops are named by their TAIL names
//! (`addi`, `zipWith`, `reduce`, ...) and the conversion maps each name to the TAIL op it denotes.

use crate::source::Span;
use std::fmt;

/// TAIL base types, ordered by APL's promotion lattice bool < int < double < complex (char stands apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Base {
    Bool,
    Int,
    Double,
    Complex,
    Char,
}

impl Base {
    pub fn is_numeric(self) -> bool {
        self != Base::Char
    }

    /// The least type both promote to, or `None` (char with a number).
    pub fn join(self, other: Base) -> Option<Base> {
        if self == other {
            Some(self)
        } else if self.is_numeric() && other.is_numeric() {
            Some(self.max(other))
        } else {
            None
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Base::Bool => "bool",
            Base::Int => "int",
            Base::Double => "double",
            Base::Complex => "complex",
            Base::Char => "char",
        }
    }
}

/// The type of a let-bound or lambda-bound variable: an array of static rank, or a tuple of such.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    Array { base: Base, rank: usize },
    Tuple(Vec<Type>),
}

impl Type {
    pub fn scalar(base: Base) -> Type {
        Type::Array { base, rank: 0 }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Var(String),
    Int(i64),
    Double(f64),
    Bool(bool),
    Char(char),
    Complex(f64, f64),
    /// A literal vector `[e1, ..., en]` of scalars of one base type; `Vector(vec![], base)` is an empty vector.
    Vector(Vec<Expr>, Base),
    /// A fully applied op, by its TAIL name.
    Op(&'static str, Vec<Expr>),
    Lambda(String, Type, Box<Expr>),
    Let(String, Type, Box<Expr>, Box<Expr>),
    Tuple(Vec<Expr>),
    /// The `index`th (0-based) component of a tuple.
    Project(usize, Box<Expr>),
    /// `if c then t else e`, with a scalar boolean condition; both branches have the given type.
    If(Box<Expr>, Box<Expr>, Box<Expr>, Type),
    /// Evaluate the first expression for its effect (printing), then the second.
    Sequence(Box<Expr>, Box<Expr>),
    /// The code of the APL text at a span (a primitive's glyph, an index's brackets): a run-time error raised inside
    /// it points there. Transparent for everything else ([`Expr::without_site`]); printed as its inner expression.
    At(Span, Box<Expr>),
    /// A call of a recursive function ([`FunctionDef`]) by name.
    Call(String, Vec<Expr>),
}

/// A recursive dfn compiled as a function of its (scalar) arguments: TAIL's `fun name(x:τ, ...) : τ = body`.
/// The body reads only the parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDef {
    pub name: String,
    pub parameters: Vec<(String, Type)>,
    pub result: Type,
    pub body: Expr,
}

impl Expr {
    pub fn op(name: &'static str, arguments: Vec<Expr>) -> Expr {
        Expr::Op(name, arguments)
    }

    pub fn lambda(parameter: &str, parameter_type: Type, body: Expr) -> Expr {
        Expr::Lambda(parameter.to_string(), parameter_type, Box::new(body))
    }

    /// `expr` as the code of the APL text at `span`; trivial expressions (which cannot fail) and expressions that
    /// already have a site stay as they are.
    pub fn at(span: Span, expr: Expr) -> Expr {
        if expr.is_trivial() || matches!(expr, Expr::At(..) | Expr::Vector(..)) || span.is_empty() {
            expr
        } else {
            Expr::At(span, Box::new(expr))
        }
    }

    /// The expression under its source sites: what the elaborator's structural tests (is this an op, a literal?) see.
    pub fn without_site(&self) -> &Expr {
        match self {
            Expr::At(_, inner) => inner.without_site(),
            other => other,
        }
    }

    /// Whether the expression is cheap and pure enough to duplicate instead of let-binding it.
    pub fn is_trivial(&self) -> bool {
        matches!(
            self,
            Expr::Var(_) | Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) | Expr::Complex(..)
        )
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Array { base, rank } => write!(f, "[{}]{}", base.name(), rank),
            Type::Tuple(types) => {
                write!(f, "(")?;
                for (position, component) in types.iter().enumerate() {
                    if position > 0 {
                        write!(f, " * ")?;
                    }
                    write!(f, "{component}")?;
                }
                write!(f, ")")
            }
        }
    }
}

fn write_double(f: &mut fmt::Formatter<'_>, value: f64) -> fmt::Result {
    let text = if value.is_finite() && value == value.trunc() && value.abs() < 1e15 {
        format!("{value:.1}")
    } else {
        format!("{value}")
    };
    write!(f, "{}", text.replace('-', "~"))
}

/// `name(a1,a2,...)`.
fn write_application(f: &mut fmt::Formatter<'_>, name: &str, arguments: &[Expr]) -> fmt::Result {
    write!(f, "{name}(")?;
    for (position, argument) in arguments.iter().enumerate() {
        if position > 0 {
            write!(f, ",")?;
        }
        write!(f, "{argument}")?;
    }
    write!(f, ")")
}

impl fmt::Display for Expr {
    /// The thesis' concrete syntax (`let v1:[int]1 = iota(5) in ...`), for debugging and snapshots.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Var(name) => write!(f, "{name}"),
            Expr::Int(value) => write!(f, "{}", value.to_string().replace('-', "~")),
            Expr::Double(value) => write_double(f, *value),
            Expr::Bool(value) => write!(f, "{}", if *value { "tt" } else { "ff" }),
            Expr::Char(value) => write!(f, "'{value}'"),
            Expr::Complex(re, im) => {
                write_double(f, *re)?;
                write!(f, "j")?;
                write_double(f, *im)
            }
            Expr::Vector(elements, base) => {
                if elements.is_empty() {
                    return write!(f, "[]:{}", base.name());
                }
                write!(f, "[")?;
                for (position, element) in elements.iter().enumerate() {
                    if position > 0 {
                        write!(f, ",")?;
                    }
                    write!(f, "{element}")?;
                }
                write!(f, "]")
            }
            Expr::Op(name, arguments) => write_application(f, name, arguments),
            Expr::Lambda(name, parameter_type, body) => write!(f, "fn {name}:{parameter_type} => {body}"),
            Expr::Let(name, value_type, value, body) => write!(f, "let {name}:{value_type} = {value} in\n{body}"),
            Expr::Tuple(components) => {
                write!(f, "(")?;
                for (position, component) in components.iter().enumerate() {
                    if position > 0 {
                        write!(f, ",")?;
                    }
                    write!(f, "{component}")?;
                }
                write!(f, ")")
            }
            Expr::Project(index, tuple) => write!(f, "#{index}({tuple})"),
            Expr::If(condition, then, otherwise, _) => write!(f, "if {condition} then {then} else {otherwise}"),
            Expr::Sequence(effect, rest) => write!(f, "{effect};\n{rest}"),
            Expr::At(_, inner) => write!(f, "{inner}"),
            Expr::Call(function, arguments) => write_application(f, &format!("call {function}"), arguments),
        }
    }
}
