//! The elaborator's TAIL terms (`ir.rs`) to `crate::tail::ast`.
//!
//! Mostly one constructor to one constructor. Three things are decided here: an effect (printing) becomes a `let` of
//! a fresh name; a conditional becomes two `condScl`s, so that only the chosen branch runs; and a lambda that only
//! applies one op to its parameters is written as the op itself (`reduce(addd, 0.0, x)`, as in the thesis).
//!
//! Source sites (`Expr::At`) become the spans of the TAIL nodes built inside them, so that a run-time error raised by
//! any of those nodes points at the APL text; nodes outside every site have the empty span (no position).

use super::ir::{Base, Expr, FunctionDef, Type};
use crate::source::Span;
use crate::tail::ast as tail;

/// Lowering fails only on an op name that TAIL does not have, which is a bug in elaboration.
pub fn lower_program(expr: &Expr, functions: &[FunctionDef]) -> Result<tail::Program, String> {
    let mut lowering = Lowering {
        next_name: 0,
        site: Span::default(),
    };
    let mut lowered_functions = Vec::new();
    for function in functions {
        lowered_functions.push(tail::Function {
            name: function.name.clone(),
            parameters: function
                .parameters
                .iter()
                .map(|(name, ty)| (name.clone(), lower_type(ty)))
                .collect(),
            result: lower_type(&function.result),
            body: lowering.expr(&function.body)?,
        });
    }
    Ok(tail::Program {
        functions: lowered_functions,
        body: lowering.expr(expr)?,
    })
}

pub fn base_type(base: Base) -> tail::BaseType {
    match base {
        Base::Bool => tail::BaseType::Bool,
        Base::Int => tail::BaseType::Int,
        Base::Double => tail::BaseType::Double,
        Base::Complex => tail::BaseType::Complex,
        Base::Char => tail::BaseType::Char,
    }
}

pub fn lower_type(value_type: &Type) -> tail::Type {
    match value_type {
        Type::Array { base, rank } => tail::Type::array(base_type(*base), *rank as u64),
        Type::Tuple(components) => tail::Type::Tuple(components.iter().map(lower_type).collect()),
    }
}

struct Lowering {
    next_name: usize,
    /// The span of the innermost `Expr::At` being lowered.
    site: Span,
}

fn op(name: &str) -> Result<tail::Op, String> {
    tail::Op::from_name(name).ok_or_else(|| format!("internal error: elaboration used an unknown TAIL op {name}"))
}

impl Lowering {
    fn node(&self, kind: tail::ExprKind) -> tail::Expr {
        tail::Expr::new(kind, self.site)
    }

    fn fresh(&mut self, stem: &str) -> String {
        self.next_name += 1;
        format!("{stem}{}", self.next_name)
    }

    fn expr(&mut self, expr: &Expr) -> Result<tail::Expr, String> {
        use tail::ExprKind as K;
        let site = self.site;
        let kind = match expr {
            Expr::Var(name) => K::Var(name.clone()),
            Expr::Int(value) => K::Int(*value),
            Expr::Double(value) => K::Double(*value),
            Expr::Bool(value) => K::Bool(*value),
            Expr::Char(value) => K::Char(*value),
            Expr::Complex(re, im) => K::Complex(*re, *im),
            Expr::Vector(elements, base) => K::Vector {
                elements: elements.iter().map(|e| self.expr(e)).collect::<Result<_, _>>()?,
                element_type: Some(base_type(*base)),
            },
            Expr::Op(name, arguments) => K::Op {
                op: op(name)?,
                args: arguments.iter().map(|a| self.expr(a)).collect::<Result<_, _>>()?,
            },
            Expr::Lambda(parameter, parameter_type, body) => match eta_reducible(expr) {
                Some((name, op_site)) => {
                    return Ok(tail::Expr::new(K::OpRef(op(name)?), op_site.unwrap_or(site)));
                }
                None => K::Lambda {
                    parameter: parameter.clone(),
                    ty: Some(lower_type(parameter_type)),
                    body: Box::new(self.expr(body)?),
                },
            },
            Expr::Let(name, _, value, body) => K::Let {
                name: name.clone(),
                ty: None,
                value: Box::new(self.expr(value)?),
                body: Box::new(self.expr(body)?),
            },
            Expr::Tuple(components) => K::Tuple(components.iter().map(|c| self.expr(c)).collect::<Result<_, _>>()?),
            Expr::Project(index, tuple) => K::Project {
                index: index + 1,
                tuple: Box::new(self.expr(tuple)?),
            },
            Expr::Call(function, arguments) => K::Call {
                function: function.clone(),
                args: arguments.iter().map(|a| self.expr(a)).collect::<Result<_, _>>()?,
            },
            Expr::Sequence(effect, rest) => K::Let {
                name: self.fresh("_e"),
                ty: None,
                value: Box::new(self.expr(effect)?),
                body: Box::new(self.expr(rest)?),
            },
            Expr::At(span, inner) => {
                self.site = *span;
                let lowered = self.expr(inner);
                self.site = site;
                return lowered;
            }
            Expr::If(condition, then, otherwise, value_type) => {
                // condScl(f, b, x) is `b ? f x : x`; nesting two keeps both branches lazy.
                let condition = self.expr(condition)?;
                let negated = self.node(K::Op {
                    op: op("notb")?,
                    args: vec![condition.clone()],
                });
                let else_lambda = self.constant_lambda(value_type, otherwise)?;
                let else_value = self.node(K::Op {
                    op: op("condScl")?,
                    args: vec![else_lambda, negated, placeholder(value_type)],
                });
                let then_lambda = self.constant_lambda(value_type, then)?;
                K::Op {
                    op: op("condScl")?,
                    args: vec![then_lambda, condition, else_value],
                }
            }
        };
        Ok(tail::Expr::new(kind, site))
    }
}

impl Lowering {
    /// `fn _:τ => body`, ignoring its argument.
    fn constant_lambda(&mut self, value_type: &Type, body: &Expr) -> Result<tail::Expr, String> {
        let parameter = self.fresh("_u");
        let body = Box::new(self.expr(body)?);
        Ok(self.node(tail::ExprKind::Lambda {
            parameter,
            ty: Some(lower_type(value_type)),
            body,
        }))
    }
}

/// Some value of a type (never looked at: the branch not taken of a conditional).
fn placeholder(value_type: &Type) -> tail::Expr {
    let node = tail::Expr::synthetic;
    use tail::ExprKind as K;
    match value_type {
        Type::Array { base, rank: 0 } => node(match base {
            Base::Bool => K::Bool(false),
            Base::Int => K::Int(0),
            Base::Double => K::Double(0.0),
            Base::Complex => K::Complex(0.0, 0.0),
            Base::Char => K::Char(' '),
        }),
        Type::Array { base, rank } => node(K::Op {
            op: tail::Op::Reshape,
            args: vec![
                node(K::Vector {
                    elements: (0..*rank).map(|_| node(K::Int(0))).collect(),
                    element_type: Some(tail::BaseType::Int),
                }),
                node(K::Vector {
                    elements: vec![],
                    element_type: Some(base_type(*base)),
                }),
            ],
        }),
        Type::Tuple(components) => node(K::Tuple(components.iter().map(placeholder).collect())),
    }
}

/// `fn x => fn y => op(x, y)` or `fn x => op(x)`: the op's name, and the source site around the op if it has one.
fn eta_reducible(expr: &Expr) -> Option<(&'static str, Option<Span>)> {
    let Expr::Lambda(x, _, body) = expr else { return None };
    let (site, body) = split_site(body);
    match body {
        Expr::Op(name, arguments) if matches!(arguments.as_slice(), [Expr::Var(a)] if a == x) => Some((name, site)),
        Expr::Lambda(y, _, inner) => {
            let (inner_site, inner) = split_site(inner);
            match inner {
                Expr::Op(name, arguments) if matches!(arguments.as_slice(), [Expr::Var(a), Expr::Var(b)] if a == x && b == y) => {
                    Some((name, inner_site.or(site)))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// The innermost source site around an expression, and the expression under it.
fn split_site(expr: &Expr) -> (Option<Span>, &Expr) {
    match expr {
        Expr::At(span, inner) => {
            let (inner_span, innermost) = split_site(inner);
            (inner_span.or(Some(*span)), innermost)
        }
        other => (None, other),
    }
}
