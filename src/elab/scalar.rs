//! Scalar functions: promotion along bool < int < double < complex, scalar extension, and constant folding.
//!
//! A scalar primitive is compiled at the scalar level first (`addi(x,y)`), then lifted over arrays: scalar with
//! scalar is the op itself, array with array a `zipWith`, scalar with array an `each` over a lambda that mentions
//! the (let-bound) scalar. Constant arguments are folded at compile time, which is what lets `○`'s selector, axis
//! arguments and guard conditions on constants be known statically.

use super::env::{Arr, Scalar, Val};
use super::error::{ElabError, ElabResult};
use super::ir::{Base, Expr};
use super::Elaborator;
use crate::source::Span;
use crate::syntax::ast::Primitive;
use crate::tail::ast::Op;
use crate::tail::scalar_ops::{apply_scalar_op, is_scalar_op};
use crate::tail::value::Scalar as TailScalar;
use std::rc::Rc;

/// The scalar primitives (those that apply element by element with scalar extension).
pub fn is_scalar_primitive(primitive: Primitive) -> bool {
    use Primitive::*;
    matches!(
        primitive,
        Plus | Minus
            | Times
            | Divide
            | Stile
            | Ceiling
            | Floor
            | Star
            | Log
            | Circle
            | Factorial
            | And
            | Or
            | Nand
            | Nor
            | Less
            | LessEqual
            | Equal
            | GreaterEqual
            | Greater
            | NotEqual
    )
}

/// Monadic scalar primitives (`~` and `?` are scalar monadically only).
pub fn is_scalar_monadic(primitive: Primitive) -> bool {
    use Primitive::*;
    matches!(
        primitive,
        Plus | Minus | Times | Divide | Stile | Ceiling | Floor | Star | Log | Circle | Factorial | Tilde | Question
    )
}

/// Promote a scalar expression up the lattice.
pub fn promote_scalar(expr: Expr, from: Base, to: Base) -> Expr {
    if from == to {
        return expr;
    }
    match (&expr, to) {
        (Expr::Bool(value), Base::Int) => return Expr::Int(*value as i64),
        (Expr::Bool(value), Base::Double) => return Expr::Double(*value as i64 as f64),
        (Expr::Int(value), Base::Double) => return Expr::Double(*value as f64),
        _ => {}
    }
    match (from, to) {
        (Base::Bool, Base::Int) => Expr::op("b2i", vec![expr]),
        (Base::Int, Base::Double) => Expr::op("i2d", vec![expr]),
        (Base::Bool, Base::Double) => Expr::op("i2d", vec![Expr::op("b2i", vec![expr])]),
        (Base::Double, Base::Complex) => Expr::op("d2x", vec![expr]),
        (Base::Int, Base::Complex) => Expr::op("d2x", vec![Expr::op("i2d", vec![expr])]),
        (Base::Bool, Base::Complex) => Expr::op("d2x", vec![Expr::op("i2d", vec![Expr::op("b2i", vec![expr])])]),
        _ => expr,
    }
}

fn scalar(expr: Expr, base: Base) -> Arr {
    Arr::dynamic(expr, base, 0)
}

impl Elaborator {
    /// Convert an array up the promotion lattice (a no-op for the same base; an error for char and numbers).
    pub fn convert(&mut self, array: Arr, base: Base, span: Span) -> ElabResult<Arr> {
        if array.base == base {
            return Ok(array);
        }
        if !array.base.is_numeric() || !base.is_numeric() || array.base > base {
            return Err(ElabError::domain(
                span,
                format!(
                    "cannot use {} values where {} values are needed",
                    array.base.name(),
                    base.name()
                ),
            ));
        }
        if let Some(values) = &array.constant {
            let values: Vec<Scalar> = values.iter().map(|value| value.promote(base)).collect();
            return Ok(constant_array(values, base, array.extents.clone(), array.expr.clone()));
        }
        let from = array.base;
        if array.rank == 0 {
            return Ok(Arr {
                expr: promote_scalar(array.expr, from, base),
                base,
                ..array
            });
        }
        let parameter = self.fresh_name("c");
        let lambda = Expr::lambda(
            &parameter,
            super::ir::Type::scalar(from),
            promote_scalar(Expr::Var(parameter.clone()), from, base),
        );
        Ok(Arr {
            expr: Expr::op("each", vec![lambda, array.expr]),
            base,
            rank: array.rank,
            extents: array.extents,
            constant: None,
        })
    }

    /// Apply a dyadic function element-wise with scalar extension; `element` compiles one application on scalars.
    pub fn pointwise_dyadic(
        &mut self,
        left: Arr,
        right: Arr,
        span: Span,
        element: &mut dyn FnMut(&mut Self, Arr, Arr) -> ElabResult<Val>,
    ) -> ElabResult<Arr> {
        if left.rank == 0 && right.rank == 0 {
            let left = self.bind(left);
            let right = self.bind(right);
            let value = element(self, left, right)?;
            return self.expect_array(value, span);
        }
        if left.rank == 0 {
            let left = self.bind(left);
            let (lambda, base) = self.scalar_lambda(right.base, span, |this, x| element(this, left.clone(), x))?;
            return Ok(
                Arr::dynamic(Expr::op("each", vec![lambda, right.expr]), base, right.rank).with_extents(right.extents),
            );
        }
        if right.rank == 0 {
            let right = self.bind(right);
            let (lambda, base) = self.scalar_lambda(left.base, span, |this, x| element(this, x, right.clone()))?;
            return Ok(
                Arr::dynamic(Expr::op("each", vec![lambda, left.expr]), base, left.rank).with_extents(left.extents)
            );
        }
        // A one-element array goes with every element of the other argument, as a scalar does (Dyalog's singleton
        // extension: `(,5)+1 2 3`, `V÷⍴V`, `(2 2⍴⍳4)+,10`); of two, the one of lower rank.
        let singleton = |array: &Arr| array.extents.iter().all(|extent| *extent == Some(1));
        let (left_single, right_single) = (singleton(&left), singleton(&right));
        if left_single && (!right_single || left.rank < right.rank) {
            let left = self.first(left);
            return self.pointwise_dyadic(left, right, span, element);
        }
        if right_single && (!left_single || right.rank < left.rank) {
            let right = self.first(right);
            return self.pointwise_dyadic(left, right, span, element);
        }
        if left.rank != right.rank {
            return Err(ElabError::rank(
                span,
                format!(
                    "arguments of rank {} and {} (a scalar function needs equal ranks)",
                    left.rank, right.rank
                ),
            ));
        }
        let mut extents = Vec::with_capacity(left.rank);
        for (left_extent, right_extent) in left.extents.iter().zip(&right.extents) {
            match (left_extent, right_extent) {
                (Some(l), Some(r)) if l != r => {
                    return Err(ElabError::length(span, format!("arguments of lengths {l} and {r}")));
                }
                _ => extents.push(left_extent.or(*right_extent)),
            }
        }
        let (lambda, base) = self.scalar_lambda2(left.base, right.base, span, |this, x, y| element(this, x, y))?;
        Ok(Arr::dynamic(
            Expr::op("zipWith", vec![lambda, left.expr, right.expr]),
            base,
            left.rank,
        )
        .with_extents(extents))
    }

    /// Apply a monadic function element-wise (an `each`, or the function itself on a scalar).
    pub fn pointwise_monadic(
        &mut self,
        argument: Arr,
        span: Span,
        element: &mut dyn FnMut(&mut Self, Arr) -> ElabResult<Val>,
    ) -> ElabResult<Arr> {
        if argument.rank == 0 {
            let argument = self.bind(argument);
            let value = element(self, argument)?;
            return self.expect_array(value, span);
        }
        let (lambda, base) = self.scalar_lambda(argument.base, span, |this, x| element(this, x))?;
        Ok(
            Arr::dynamic(Expr::op("each", vec![lambda, argument.expr]), base, argument.rank)
                .with_extents(argument.extents),
        )
    }

    pub fn scalar_dyadic(&mut self, primitive: Primitive, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        if let Some(folded) = self.fold_dyadic_arrays(primitive, &left, &right, span) {
            return Ok(folded);
        }
        if primitive == Primitive::Circle && left.rank == 1 && right.rank == 0 && left.constant.is_some() {
            // Several circle functions of one value: a vector of applications.
            let selectors = left.constant.clone().expect("checked");
            let right = self.bind(right);
            let mut elements = Vec::new();
            for selector in selectors.iter() {
                elements.push(self.scalar_dyadic_element(
                    primitive,
                    Arr::scalar_constant(*selector),
                    right.clone(),
                    span,
                )?);
            }
            // Some circle functions are complex (8○, ¯11○, ¯12○): the vector has the widest type of its items.
            let base = if elements.iter().any(|element| element.base == Base::Complex) {
                Base::Complex
            } else {
                Base::Double
            };
            let count = elements.len() as i64;
            let exprs = elements
                .into_iter()
                .map(|element| promote_scalar(element.expr, element.base, base))
                .collect();
            return Ok(Arr::dynamic(Expr::Vector(exprs, base), base, 1).with_extents(vec![Some(count)]));
        }
        if let Some(base @ (Base::Int | Base::Double)) = gcd_lcm_base(primitive, &left, &right) {
            let name = match (primitive, base) {
                (Primitive::Or, _) => "gcd",
                (_, Base::Int) => "lcm",
                _ => "lcm_double",
            };
            let function = self.prelude_function(name, span)?;
            let left = self.convert(left, base, span)?;
            let right = self.convert(right, base, span)?;
            return self
                .pointwise_dyadic(left, right, span, &mut |this, x, y| {
                    this.apply_dyadic(&function, Val::Array(x), Val::Array(y), span)
                })
                .map_err(|error| error.at(span));
        }
        if primitive == Primitive::Circle && left.constant.is_none() {
            return Err(ElabError::nonce(span, "○ with a left argument that is not a constant")
                .with_hint("write the circle-function selector as a literal, e.g. 2○x"));
        }
        self.pointwise_dyadic(left, right, span, &mut |this, x, y| {
            this.scalar_dyadic_element(primitive, x, y, span).map(Val::Array)
        })
    }

    pub fn scalar_monadic(&mut self, primitive: Primitive, argument: Arr, span: Span) -> ElabResult<Arr> {
        if primitive == Primitive::Question && argument_may_hold_zero(&argument) {
            return self.pointwise_monadic(argument, span, &mut |_, x| Ok(Val::Array(roll_with_zero_element(x))));
        }
        if let Some(values) = &argument.constant {
            if let Some(message) = values.iter().find_map(|value| monadic_domain_error(primitive, *value)) {
                return Err(ElabError::domain(span, message));
            }
            if values.len() <= MAX_FOLDED_LENGTH {
                let folded: Option<Vec<Scalar>> = values
                    .iter()
                    .map(|v| {
                        self.fold_element(|this| this.scalar_monadic_element(primitive, Arr::scalar_constant(*v), span))
                    })
                    .collect();
                if let Some(folded) = folded {
                    if let Some(array) = constant_like(folded, &argument) {
                        return Ok(array);
                    }
                }
            }
        }
        self.pointwise_monadic(argument, span, &mut |this, x| {
            this.scalar_monadic_element(primitive, x, span).map(Val::Array)
        })
    }

    /// One dyadic scalar primitive on two scalars (trivial expressions: variables or literals), folded to a constant
    /// when its arguments are constants (by [`evaluate_constant`], the interpreter's scalar functions).
    pub fn scalar_dyadic_element(
        &mut self,
        primitive: Primitive,
        left: Arr,
        right: Arr,
        span: Span,
    ) -> ElabResult<Arr> {
        self.dyadic_element_unfolded(primitive, left, right, span).map(folded)
    }

    fn dyadic_element_unfolded(&mut self, primitive: Primitive, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        use Primitive::*;
        let joined = left.base.join(right.base);
        // Of the scalar functions only = and ≠ take characters: `'a'<'b'` is a DOMAIN ERROR in Dyalog.
        let char_operands = left.base == Base::Char || right.base == Base::Char;
        if char_operands && !matches!(primitive, Equal | NotEqual) {
            return Err(ElabError::domain(span, format!("{} on characters", primitive.glyph())));
        }
        let Some(joined) = joined else {
            // A character compared with a number: never equal.
            return Ok(Arr::scalar_constant(Scalar::Bool(primitive == NotEqual)));
        };
        let promote = |array: &Arr, base: Base| promote_scalar(array.expr.clone(), array.base, base);
        let arithmetic =
            |base: Base, int_op: &'static str, double_op: &'static str, complex_op: Option<&'static str>| {
                let base = base.max(Base::Int);
                let name = match base {
                    Base::Int => Some(int_op),
                    Base::Double => Some(double_op),
                    Base::Complex => complex_op,
                    _ => None,
                };
                (base, name)
            };
        let (operation_base, result_base, name, negate): (Base, Base, Option<&'static str>, bool) = match primitive {
            Plus => {
                let (b, n) = arithmetic(joined, "addi", "addd", Some("addx"));
                (b, b, n, false)
            }
            Minus => {
                let (b, n) = arithmetic(joined, "subi", "subd", Some("subx"));
                (b, b, n, false)
            }
            Times => {
                let (b, n) = arithmetic(joined, "muli", "muld", Some("mulx"));
                (b, b, n, false)
            }
            Divide => {
                let b = joined.max(Base::Double);
                (b, b, if b == Base::Double { Some("divd") } else { Some("divx") }, false)
            }
            Stile => {
                let (b, n) = arithmetic(joined, "resi", "resd", None);
                (b, b, n, false)
            }
            Ceiling if joined == Base::Bool => (Base::Bool, Base::Bool, Some("orb"), false),
            Floor if joined == Base::Bool => (Base::Bool, Base::Bool, Some("andb"), false),
            Ceiling => {
                let (b, n) = arithmetic(joined, "maxi", "maxd", None);
                (b, b, n, false)
            }
            Floor => {
                let (b, n) = arithmetic(joined, "mini", "mind", None);
                (b, b, n, false)
            }
            Star => {
                let b = joined.max(Base::Double);
                (b, b, if b == Base::Double { Some("powd") } else { None }, false)
            }
            Log => {
                let x = promote(&right, Base::Double);
                let base = promote(&left, Base::Double);
                if joined == Base::Complex {
                    return Err(ElabError::nonce(span, "⍟ on complex numbers"));
                }
                let expr = Expr::op("divd", vec![Expr::op("ln", vec![x]), Expr::op("ln", vec![base])]);
                return Ok(scalar(expr, Base::Double));
            }
            Circle => return self.circle_element(left, right, span),
            Equal | NotEqual if joined == Base::Complex => {
                let name = if primitive == Equal { "eqx" } else { "neqx" };
                let expr = Expr::op(
                    name,
                    vec![promote(&left, Base::Complex), promote(&right, Base::Complex)],
                );
                return Ok(scalar(expr, Base::Bool));
            }
            Equal | NotEqual if joined == Base::Bool => {
                let name = if primitive == Equal { "eqb" } else { "xorb" };
                return Ok(scalar(Expr::op(name, vec![left.expr, right.expr]), Base::Bool));
            }
            Less | LessEqual | Equal | GreaterEqual | Greater | NotEqual => {
                let base = if joined == Base::Bool { Base::Int } else { joined };
                let (suffix, ok) = match base {
                    Base::Int => ("i", true),
                    Base::Double => ("d", true),
                    Base::Char => ("c", true),
                    _ => ("", false),
                };
                if !ok {
                    return Err(ElabError::domain(
                        span,
                        format!("{} on complex numbers", primitive.glyph()),
                    ));
                }
                let stem = match primitive {
                    Less => "lt",
                    LessEqual => "lte",
                    Equal | NotEqual => "eq",
                    GreaterEqual => "gte",
                    _ => "gt",
                };
                let name: &'static str = Box::leak(format!("{stem}{suffix}").into_boxed_str());
                (base, Base::Bool, Some(name), primitive == NotEqual)
            }
            And | Or | Nand | Nor => {
                if joined != Base::Bool {
                    return Err(ElabError::nonce(
                        span,
                        format!("{} on numbers other than 0 and 1 (GCD/LCM)", primitive.glyph()),
                    ));
                }
                let name = match primitive {
                    And => "andb",
                    Or => "orb",
                    Nand => "nandb",
                    _ => "norb",
                };
                (Base::Bool, Base::Bool, Some(name), false)
            }
            Factorial => {
                if joined <= Base::Int {
                    (Base::Int, Base::Int, Some("binomi"), false)
                } else if joined == Base::Double {
                    (Base::Double, Base::Double, Some("binomd"), false)
                } else {
                    (Base::Complex, Base::Complex, None, false)
                }
            }
            _ => {
                return Err(ElabError::nonce(
                    span,
                    format!("dyadic {} as a scalar function", primitive.glyph()),
                ))
            }
        };
        let Some(name) = name else {
            return Err(ElabError::nonce(
                span,
                format!("{} on {} values", primitive.glyph(), operation_base.name()),
            ));
        };
        let call = Expr::op(
            name,
            vec![promote(&left, operation_base), promote(&right, operation_base)],
        );
        let expr = if negate { Expr::op("notb", vec![call]) } else { call };
        Ok(scalar(expr, result_base))
    }

    /// `k○x` with a constant selector k, for every k from ¯12 to 12 (Dyalog's definitions).
    fn circle_element(&mut self, left: Arr, right: Arr, span: Span) -> ElabResult<Arr> {
        let Some(selector) = left.constant_scalar().and_then(|s| s.as_int()) else {
            return Err(ElabError::nonce(
                span,
                "○ with a left argument that is not a constant integer",
            ));
        };
        if !(-12..=12).contains(&selector) {
            return Err(ElabError::domain(
                span,
                format!("{selector}○: the circle functions are ¯12○ to 12○"),
            ));
        }
        if right.base == Base::Complex {
            return circle_of_complex(selector, right.expr, span);
        }
        Ok(circle_of_real(
            selector,
            promote_scalar(right.expr.clone(), right.base, Base::Double),
        ))
    }

    /// One monadic scalar primitive on a scalar (a trivial expression), folded as [`Self::scalar_dyadic_element`].
    pub fn scalar_monadic_element(&mut self, primitive: Primitive, argument: Arr, span: Span) -> ElabResult<Arr> {
        self.monadic_element_unfolded(primitive, argument, span).map(folded)
    }

    /// The constant value of one scalar application on constants, or `None` when it does not elaborate or fails (it
    /// then fails at run time, after the output before it, as it would without folding).
    fn fold_element(&mut self, element: impl FnOnce(&mut Self) -> ElabResult<Arr>) -> Option<Scalar> {
        element(self).ok()?.constant_scalar()
    }

    /// Fold a dyadic scalar primitive over two constant arrays (with scalar extension).
    fn fold_dyadic_arrays(&mut self, primitive: Primitive, left: &Arr, right: &Arr, span: Span) -> Option<Arr> {
        let (left_values, right_values) = (left.constant.clone()?, right.constant.clone()?);
        if left_values.len().max(right_values.len()) > MAX_FOLDED_LENGTH {
            return None;
        }
        let (like, count) = if left.rank == 0 {
            (right, right_values.len())
        } else if right.rank == 0 || (left.extents == right.extents && left_values.len() == right_values.len()) {
            (left, left_values.len())
        } else {
            return None;
        };
        // A scalar is extended; otherwise the two have the same shape.
        let value_at = |values: &[Scalar], rank: usize, k: usize| if rank == 0 { values[0] } else { values[k] };
        let values = (0..count)
            .map(|k| {
                let (l, r) = (
                    value_at(&left_values, left.rank, k),
                    value_at(&right_values, right.rank, k),
                );
                self.fold_element(|this| {
                    this.scalar_dyadic_element(primitive, Arr::scalar_constant(l), Arr::scalar_constant(r), span)
                })
            })
            .collect::<Option<Vec<_>>>()?;
        if values.is_empty() {
            return None;
        }
        constant_like(values, like)
    }

    fn monadic_element_unfolded(&mut self, primitive: Primitive, argument: Arr, span: Span) -> ElabResult<Arr> {
        use Primitive::*;
        let base = argument.base;
        if base == Base::Char {
            return Err(ElabError::domain(
                span,
                format!("monadic {} on characters", primitive.glyph()),
            ));
        }
        let x = argument.expr.clone();
        let as_int = || promote_scalar(x.clone(), base, Base::Int);
        let as_double = || promote_scalar(x.clone(), base, Base::Double);
        let (expr, result_base) = match (primitive, base) {
            (Plus, Base::Complex) => (Expr::op("conjx", vec![x]), Base::Complex),
            (Plus, _) => (x, base),
            (Minus, Base::Bool | Base::Int) => (Expr::op("negi", vec![as_int()]), Base::Int),
            (Minus, Base::Double) => (Expr::op("negd", vec![x]), Base::Double),
            (Minus, Base::Complex) => (Expr::op("negx", vec![x]), Base::Complex),
            (Times, Base::Bool) => (x, Base::Bool),
            (Times, Base::Int) => (Expr::op("signi", vec![x]), Base::Int),
            (Times, Base::Double) => (Expr::op("signd", vec![x]), Base::Double),
            (Divide, Base::Complex) => return Err(ElabError::nonce(span, "÷ on complex numbers")),
            (Divide, _) => (Expr::op("divd", vec![Expr::Double(1.0), as_double()]), Base::Double),
            (Stile, Base::Bool) => (x, Base::Bool),
            (Stile, Base::Int) => (Expr::op("absi", vec![x]), Base::Int),
            (Stile, Base::Double) => (Expr::op("absd", vec![x]), Base::Double),
            (Stile, Base::Complex) => (Expr::op("magnx", vec![x]), Base::Double),
            (Ceiling | Floor, Base::Bool | Base::Int) => (x, base),
            (Ceiling, Base::Double) => (Expr::op("ceil", vec![x]), Base::Int),
            (Floor, Base::Double) => (Expr::op("floor", vec![x]), Base::Int),
            (Star, Base::Complex) => (Expr::op("expx", vec![x]), Base::Complex),
            (Star, _) => (Expr::op("expd", vec![as_double()]), Base::Double),
            (Log, Base::Complex) => return Err(ElabError::nonce(span, "⍟ on complex numbers")),
            (Log, _) => (Expr::op("ln", vec![as_double()]), Base::Double),
            (Circle, Base::Complex) => return Err(ElabError::nonce(span, "○ on complex numbers")),
            (Circle, _) => (
                Expr::op("muld", vec![Expr::Double(std::f64::consts::PI), as_double()]),
                Base::Double,
            ),
            (Tilde, Base::Bool) => (Expr::op("notb", vec![x]), Base::Bool),
            (Tilde, Base::Int) => (Expr::op("eqi", vec![x, Expr::Int(0)]), Base::Bool),
            (Tilde, _) => return Err(ElabError::domain(span, "~ needs 0s and 1s")),
            (Question, Base::Bool | Base::Int) => (Expr::op("roll", vec![as_int()]), Base::Int),
            (Question, _) => return Err(ElabError::domain(span, "? needs positive integers")),
            // In doubles, as Dyalog does beyond 32 bits: !21 and beyond do not fit an int (!25 is 1.551121004E25);
            // below, the double product is exact and shows as the integer.
            (Factorial, Base::Bool | Base::Int) => (Expr::op("factd", vec![as_double()]), Base::Double),
            (Factorial, Base::Double) => (Expr::op("factd", vec![x]), Base::Double),
            _ => return Err(ElabError::nonce(span, format!("monadic {}", primitive.glyph()))),
        };
        Ok(scalar(expr, result_base))
    }
}

/// `k○x` for a real x (a double expression) and k in ¯12..12. 8○, ¯8○, ¯11○ and ¯12○ are complex for every real x.
fn circle_of_real(selector: i64, x: Expr) -> Arr {
    let square = Expr::op("muld", vec![x.clone(), x.clone()]);
    let sqrt = |e: Expr| Expr::op("powd", vec![e, Expr::Double(0.5)]);
    let double = |op: &'static str| scalar(Expr::op(op, vec![x.clone()]), Base::Double);
    let complex = |re: Expr, im: Expr| scalar(Expr::op("mkx", vec![re, im]), Base::Complex);
    match selector {
        0 => scalar(sqrt(Expr::op("subd", vec![Expr::Double(1.0), square])), Base::Double),
        1 => double("sin"),
        2 => double("cos"),
        3 => double("tan"),
        4 => scalar(sqrt(Expr::op("addd", vec![Expr::Double(1.0), square])), Base::Double),
        5 => double("sinh"),
        6 => double("cosh"),
        7 => double("tanh"),
        // 8○x is (¯1-x*2)*0.5, imaginary for real x; ¯8○x is its negation.
        8 | -8 => {
            let magnitude = sqrt(Expr::op("addd", vec![Expr::Double(1.0), square]));
            let imaginary = if selector == 8 {
                magnitude
            } else {
                Expr::op("negd", vec![magnitude])
            };
            complex(Expr::Double(0.0), imaginary)
        }
        // Real part, and ¯9○ (x itself) and ¯10○ (conjugate), which a real number is.
        9 | -9 | -10 => scalar(x, Base::Double),
        10 => double("absd"),
        11 => scalar(Expr::Double(0.0), Base::Double),
        // The phase of a real number: 0, or π for a negative one.
        12 => {
            let negative = Expr::op(
                "i2d",
                vec![Expr::op("b2i", vec![Expr::op("ltd", vec![x, Expr::Double(0.0)])])],
            );
            scalar(
                Expr::op("muld", vec![Expr::Double(std::f64::consts::PI), negative]),
                Base::Double,
            )
        }
        -1 => double("asin"),
        -2 => double("acos"),
        -3 => double("atan"),
        -4 => scalar(sqrt(Expr::op("subd", vec![square, Expr::Double(1.0)])), Base::Double),
        -5 => double("asinh"),
        -6 => double("acosh"),
        -7 => double("atanh"),
        // ¯11○x is 0J1×x; ¯12○x is *0J1×x, cos x + i sin x.
        -11 => complex(Expr::Double(0.0), x),
        _ => complex(Expr::op("cos", vec![x.clone()]), Expr::op("sin", vec![x])),
    }
}

/// `k○z` for a complex z: the parts, magnitude, conjugate and rotations; the trigonometric and hyperbolic functions
/// of complex numbers (and the phase, 12○) are not supported.
fn circle_of_complex(selector: i64, z: Expr, span: Span) -> ElabResult<Arr> {
    let i_times_z = || Expr::op("mulx", vec![Expr::Complex(0.0, 1.0), z.clone()]);
    Ok(match selector {
        9 => scalar(Expr::op("rex", vec![z]), Base::Double),
        10 => scalar(Expr::op("magnx", vec![z]), Base::Double),
        11 => scalar(Expr::op("imx", vec![z]), Base::Double),
        -9 => scalar(z, Base::Complex),
        -10 => scalar(Expr::op("conjx", vec![z]), Base::Complex),
        -11 => scalar(i_times_z(), Base::Complex),
        -12 => scalar(Expr::op("expx", vec![i_times_z()]), Base::Complex),
        other => {
            return Err(ElabError::nonce(span, format!("{other}○ on complex numbers")).with_hint(
                "of the circle functions, complex arguments are supported by 9 10 11 (parts, magnitude) and ¯9 ¯10 ¯11 ¯12",
            ))
        }
    })
}

/// The type in which `⍺∨⍵` or `⍺∧⍵` is a greatest common divisor or least common multiple: int or double, when
/// either argument is more than boolean (booleans keep the logical functions; complex numbers have no GCD here).
fn gcd_lcm_base(primitive: Primitive, left: &Arr, right: &Arr) -> Option<Base> {
    if !matches!(primitive, Primitive::And | Primitive::Or) {
        return None;
    }
    left.base
        .join(right.base)
        .filter(|base| matches!(base, Base::Int | Base::Double))
}

/// Whether `?` is applied to counts that may be 0: `?0` is a random number between 0 and 1, so the result is a
/// double. They are a constant with a 0 in it, or booleans not known to be all 1 (`?n⍴0`, however long); an integer
/// count known only at run time keeps `?`'s integer type, and 0 there is a DOMAIN ERROR.
fn argument_may_hold_zero(argument: &Arr) -> bool {
    let has_zero = |values: &Vec<Scalar>| values.iter().any(|value| value.as_int() == Some(0));
    match argument.base {
        Base::Bool => argument.constant.as_deref().is_none_or(has_zero),
        Base::Int => argument.constant.as_deref().is_some_and(has_zero),
        _ => false,
    }
}

/// One item of `?` on counts with a 0 among them, as a double: `?n` for a positive n, and for 0 a number strictly
/// between 0 and 1, `(?¯1+2*53)÷2*53`, drawn from the same generator (so every backend draws the same numbers).
fn roll_with_zero_element(count: Arr) -> Arr {
    const SCALE: f64 = 9_007_199_254_740_992.0; // 2*53
    let count = promote_scalar(count.expr, count.base, Base::Int);
    let is_zero = Expr::op("eqi", vec![count.clone(), Expr::Int(0)]);
    let zero_as_int = Expr::op("b2i", vec![is_zero]);
    let drawn_count = Expr::op(
        "addi",
        vec![
            count,
            Expr::op("muli", vec![zero_as_int.clone(), Expr::Int(SCALE as i64 - 1)]),
        ],
    );
    let drawn = Expr::op("i2d", vec![Expr::op("roll", vec![drawn_count])]);
    // 1 for a positive count, 2*¯53 for 0.
    let factor = Expr::op(
        "addd",
        vec![
            Expr::Double(1.0),
            Expr::op(
                "muld",
                vec![Expr::op("i2d", vec![zero_as_int]), Expr::Double(1.0 / SCALE - 1.0)],
            ),
        ],
    );
    scalar(Expr::op("muld", vec![drawn, factor]), Base::Double)
}

/// A constant array with the given values and extents, keeping a literal expression where it can be written.
fn constant_array(values: Vec<Scalar>, base: Base, extents: Vec<Option<i64>>, fallback: Expr) -> Arr {
    let rank = extents.len();
    let literal = match rank {
        0 => values[0].literal(),
        1 => Expr::Vector(values.iter().map(|v| v.literal()).collect(), base),
        _ => {
            let shape: Vec<Expr> = extents.iter().map(|e| Expr::Int(e.unwrap_or(0))).collect();
            let _ = fallback;
            Expr::op(
                "reshape",
                vec![
                    Expr::Vector(shape, Base::Int),
                    Expr::Vector(values.iter().map(|v| v.literal()).collect(), base),
                ],
            )
        }
    };
    Arr {
        expr: literal,
        base,
        rank,
        extents,
        constant: Some(Rc::new(values)),
    }
}

/// A constant array of the same shape as `like`, if the values share one base type.
fn constant_like(values: Vec<Scalar>, like: &Arr) -> Option<Arr> {
    let base = values
        .iter()
        .map(|v| v.base())
        .try_fold(values.first()?.base(), |a, b| a.join(b))?;
    let values = values.into_iter().map(|v| v.promote(base)).collect();
    Some(constant_array(values, base, like.extents.clone(), like.expr.clone()))
}

/// A DOMAIN ERROR that a monadic scalar function raises on a constant, found at compile time. Not `÷0` nor `⍟0`:
/// those are ∞ and ¯∞ in the IEEE float mode, which the elaborator does not know, so their DOMAIN ERROR is the
/// run-time check's (the same check as for values computed at run time).
fn monadic_domain_error(primitive: Primitive, value: Scalar) -> Option<String> {
    match (primitive, value) {
        (Primitive::Tilde, Scalar::Int(x)) if x != 0 && x != 1 => Some(format!("~{x}: not is only for 0 and 1")),
        (Primitive::Tilde, Scalar::Double(x)) if x != 0.0 && x != 1.0 => Some(format!("~{x}: not is only for 0 and 1")),
        _ => None,
    }
}

/// The most elements of a constant array that are folded at compile time.
const MAX_FOLDED_LENGTH: usize = 4096;

/// An element whose expression is a scalar operation on literals, replaced by its constant value.
fn folded(element: Arr) -> Arr {
    if element.constant.is_some() {
        return element;
    }
    match evaluate_constant(&element.expr) {
        Some(value) => Arr::scalar_constant(value),
        None => element,
    }
}

/// The value of a scalar expression made of literals and scalar ops, computed by the interpreter's scalar functions
/// ([`apply_scalar_op`]), so that a folded constant is exactly what the program would compute at run time: one
/// implementation of each scalar function. `None` when the expression is not such a one, when the operation fails
/// (a DOMAIN ERROR stays in the program, to be raised at run time), or when the result is not a finite number (it has
/// no literal).
fn evaluate_constant(expr: &Expr) -> Option<Scalar> {
    let value = match expr {
        Expr::Bool(x) => TailScalar::Bool(*x),
        Expr::Int(x) => TailScalar::Int(*x),
        Expr::Double(x) => TailScalar::Double(*x),
        Expr::Char(x) => TailScalar::Char(*x),
        Expr::Complex(re, im) => TailScalar::Complex(*re, *im),
        Expr::At(_, inner) => return evaluate_constant(inner),
        Expr::Op(name, arguments) => {
            let op = Op::from_name(name).filter(|op| is_scalar_op(*op))?;
            let arguments = arguments
                .iter()
                .map(|argument| evaluate_constant(argument).map(TailScalar::from))
                .collect::<Option<Vec<_>>>()?;
            apply_scalar_op(op, &arguments).ok()?
        }
        _ => return None,
    };
    Some(value.into()).filter(|value: &Scalar| value.is_finite())
}
