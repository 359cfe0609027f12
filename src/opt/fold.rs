//! Constant folding and static shape propagation (digest §2.9): evaluates operators whose arguments are literals
//! (`addi(2,3)`, `catV([3],[3,2])`, `firstV([15])`, `iotaV(3)`, `b2iV(tt)`, `negi(2)`, ...), replaces `shape(e)`,
//! `shapeV(e)` and `tally(e)` by literals when the shape of `e` is statically known and `e` is safe to drop, and
//! propagates literal `let` values (scalars, and short vectors outside lambdas) to their uses.
//!
//! Folding runs the reference interpreter on the literal arguments, so it has exactly the interpreter's semantics;
//! an operator application that fails (e.g. `divi(1,0)`, `iota(~1)`) is left in place to fail at run time. Results
//! are folded only when they are scalars or vectors (TAIL literals are at most 1-D), not non-finite doubles (which
//! have no literal), and not longer than the literal arguments together or 3 elements (so `iotaV(100)` stays, as in
//! the thesis' Fig 3.7, where `iotaV(5)` is kept). Effectful operators and `mem` are never folded.
//!
//! Folding makes types more precise (`addi(2,3)` is `[int]0`, the literal `5` is `S(int,5)`); that is fine anywhere,
//! also as the result of a `power` lambda, because TAIL's inference gives a loop state the type of its value without
//! the known value (`Type::without_known_values`).

use super::safety::{is_effectful, is_safe};
use super::shapes::{shape_of, shape_of_type, ShapeEnvironment};
use super::traverse::{int_vector_literal, is_literal_vector, is_scalar_literal, make_binders_unique};
use crate::tail::ast::{Expr, ExprKind, Op, Program};
use crate::tail::interp::{eval_program, MemoryHost};
use crate::tail::value::{ArrayData, Scalar, Value};

/// The longest literal vector that is copied to the uses of its variable.
pub const MAX_PROPAGATED_VECTOR_LENGTH: usize = 8;

/// Results up to this length are always folded; longer ones only if the literal arguments are as long.
const ALWAYS_FOLDED_LENGTH: usize = 3;

/// The pass: folds constants and known shapes everywhere in the program.
pub fn fold_constants(program: Program) -> Program {
    // Elements of let-bound vectors are copied to their uses (`index(1,2,v)` with `v = [a,b]` is `b`), so no binder
    // may shadow the variables they mention.
    program.map_bodies(|body| Folder::default().fold(make_binders_unique(body)))
}

/// What is known about a variable in scope.
struct Known {
    name: String,
    /// A literal the variable is bound to, with the lambda depth of its binding.
    literal: Option<(Expr, usize)>,
    /// The elements, when the variable is bound to a vector expression of variables and literals.
    elements: Option<Vec<Expr>>,
}

#[derive(Default)]
struct Folder {
    shapes: ShapeEnvironment,
    known: Vec<Known>,
    lambda_depth: usize,
}

impl Folder {
    fn bind(&mut self, name: &str, shape: Option<Vec<u64>>, value: Option<&Expr>) {
        self.shapes.push(name, shape);
        let literal = value.filter(|value| is_propagated_literal(value)).cloned();
        self.known.push(Known {
            name: name.to_string(),
            literal: literal.map(|literal| (literal, self.lambda_depth)),
            elements: value.and_then(atomic_elements),
        });
    }

    /// The elements of `vector` (a vector expression, or a variable bound to one) when they are variables and
    /// literals.
    fn elements_of(&self, vector: &Expr) -> Option<Vec<Expr>> {
        match &vector.kind {
            ExprKind::Var(name) => self
                .known
                .iter()
                .rev()
                .find(|known| &known.name == name)
                .and_then(|known| known.elements.clone()),
            _ => atomic_elements(vector),
        }
    }

    fn unbind(&mut self) {
        self.shapes.pop();
        self.known.pop();
    }

    /// The literal to put in place of a use of `name` here, if any.
    fn literal_for(&self, name: &str) -> Option<Expr> {
        let known = self.known.iter().rev().find(|known| known.name == name)?;
        let (literal, depth) = known.literal.as_ref()?;
        // Vectors are not copied into lambdas, which would build them once per call.
        (is_scalar_literal(literal) || *depth == self.lambda_depth).then(|| literal.clone())
    }

    fn fold(&mut self, expr: Expr) -> Expr {
        let span = expr.span;
        match expr.kind {
            ExprKind::Var(name) => match self.literal_for(&name) {
                Some(mut literal) => {
                    literal.span = span;
                    literal
                }
                None => Expr::new(ExprKind::Var(name), span),
            },
            ExprKind::Let { name, ty, value, body } => {
                let value = self.fold(*value);
                let shape = shape_of(&value, &mut self.shapes).or_else(|| ty.as_ref().and_then(shape_of_type));
                self.bind(&name, shape, Some(&value));
                let body = self.fold(*body);
                self.unbind();
                Expr::new(
                    ExprKind::Let {
                        name,
                        ty,
                        value: Box::new(value),
                        body: Box::new(body),
                    },
                    span,
                )
            }
            ExprKind::Lambda { parameter, ty, body } => {
                self.bind(&parameter, ty.as_ref().and_then(shape_of_type), None);
                self.lambda_depth += 1;
                let body = self.fold(*body);
                self.lambda_depth -= 1;
                self.unbind();
                Expr::new(
                    ExprKind::Lambda {
                        parameter,
                        ty,
                        body: Box::new(body),
                    },
                    span,
                )
            }
            ExprKind::Op { op, args } => {
                let args: Vec<Expr> = args.into_iter().map(|arg| self.fold(arg)).collect();
                match self.fold_op(op, &args) {
                    Some(mut literal) => {
                        literal.span = span;
                        literal
                    }
                    None => Expr::new(ExprKind::Op { op, args }, span),
                }
            }
            ExprKind::Vector { elements, element_type } => Expr::new(
                ExprKind::Vector {
                    elements: elements.into_iter().map(|e| self.fold(e)).collect(),
                    element_type,
                },
                span,
            ),
            ExprKind::Tuple(components) => Expr::new(
                ExprKind::Tuple(components.into_iter().map(|c| self.fold(c)).collect()),
                span,
            ),
            ExprKind::Project { index, tuple } => Expr::new(
                ExprKind::Project {
                    index,
                    tuple: Box::new(self.fold(*tuple)),
                },
                span,
            ),
            other => Expr::new(other, span),
        }
    }

    /// The literal that `op(args)` (arguments already folded) equals, if it can be computed now.
    fn fold_op(&mut self, op: Op, args: &[Expr]) -> Option<Expr> {
        match op {
            Op::Shape | Op::ShapeV if args.len() == 1 && is_safe(&args[0]) => {
                let shape = shape_of(&args[0], &mut self.shapes)?;
                Some(int_vector_literal(&shape.iter().map(|e| *e as i64).collect::<Vec<_>>()))
            }
            Op::Tally if args.len() == 1 && is_safe(&args[0]) => {
                let shape = shape_of(&args[0], &mut self.shapes)?;
                Some(Expr::synthetic(ExprKind::Int(shape.first().map_or(1, |e| *e as i64))))
            }
            // `index(1, i, [e1,...,en])` is `ei` and `first([e1,...,en])` is `e1`, when the elements are variables and
            // literals (so nothing is dropped that could fail) and the position is inside the vector.
            Op::Index if args.len() == 3 => match (&args[0].kind, &args[1].kind) {
                (ExprKind::Int(1), ExprKind::Int(position)) if *position >= 1 => {
                    let elements = self.elements_of(&args[2])?;
                    elements.get(*position as usize - 1).cloned()
                }
                _ => evaluate_on_literals(op, args),
            },
            Op::First | Op::FirstV if args.len() == 1 => match self.elements_of(&args[0]) {
                Some(elements) if !elements.is_empty() => Some(elements[0].clone()),
                _ => evaluate_on_literals(op, args),
            },
            _ => evaluate_on_literals(op, args),
        }
    }
}

/// The elements of a vector expression whose elements are all variables or scalar literals.
fn atomic_elements(vector: &Expr) -> Option<Vec<Expr>> {
    match &vector.kind {
        ExprKind::Vector { elements, .. }
            if elements
                .iter()
                .all(|element| matches!(element.kind, ExprKind::Var(_)) || is_scalar_literal(element)) =>
        {
            Some(elements.clone())
        }
        _ => None,
    }
}

/// A `let` value worth copying to the uses of its variable.
fn is_propagated_literal(value: &Expr) -> bool {
    is_scalar_literal(value)
        || (is_literal_vector(value)
            && matches!(&value.kind, ExprKind::Vector { elements, .. }
                if elements.len() <= MAX_PROPAGATED_VECTOR_LENGTH))
}

/// A literal argument: a scalar, a vector of scalars, or the name of an operator without effects.
fn is_constant_argument(arg: &Expr) -> bool {
    match &arg.kind {
        ExprKind::OpRef(op) => !is_effectful(*op),
        _ => is_scalar_literal(arg) || is_literal_vector(arg),
    }
}

fn literal_element_count(arg: &Expr) -> usize {
    match &arg.kind {
        ExprKind::Vector { elements, .. } => elements.len(),
        _ => 1,
    }
}

/// Runs the interpreter on `op(args)` when every argument is a literal, and turns the value back into a literal.
fn evaluate_on_literals(op: Op, args: &[Expr]) -> Option<Expr> {
    if is_effectful(op)
        || op == Op::Mem
        || !args.iter().all(is_constant_argument)
        || could_build_a_large_array(op, args)
        || could_run_long(op, args)
    {
        return None;
    }
    let program = Program::new(Expr::synthetic(ExprKind::Op {
        op,
        args: args.to_vec(),
    }));
    let value = eval_program(&program, &mut MemoryHost::default()).ok()?;
    let limit = ALWAYS_FOLDED_LENGTH.max(args.iter().map(literal_element_count).sum());
    value_to_literal(&value, limit)
}

/// The largest count an operator that builds an array from a count may be folded with: folding evaluates the
/// operator, and `iota(10000000000)` would try to allocate 80 GB at compile time (the result, longer than any
/// literal, would not be folded anyway).
const MAX_FOLDED_COUNT: i64 = 1 << 12;

/// Whether `op` builds its result's size from the ints among its arguments (a count, a shape, replication counts)
/// and one of them is beyond [`MAX_FOLDED_COUNT`].
fn could_build_a_large_array(op: Op, args: &[Expr]) -> bool {
    let sized_by_counts = matches!(
        op,
        Op::Iota | Op::IotaV | Op::Reshape | Op::Take | Op::TakeV | Op::TakeLastV | Op::Replicate
    );
    sized_by_counts
        && args
            .iter()
            .flat_map(int_literals_in)
            .any(|n| n.abs() > MAX_FOLDED_COUNT)
}

/// Whether evaluating `op` now could take unbounded time: `powerUntil` runs until its predicate holds, which may be
/// never (`!⍣>1` loops forever, at run time as in Dyalog, but the compiler must not), and `power` runs its count of
/// iterations, which may be huge.
fn could_run_long(op: Op, args: &[Expr]) -> bool {
    match op {
        Op::PowerUntil => true,
        Op::Power => args
            .iter()
            .flat_map(int_literals_in)
            .any(|n| n.abs() > MAX_FOLDED_COUNT),
        _ => false,
    }
}

/// The int literals of a scalar literal or a literal vector.
fn int_literals_in(expr: &Expr) -> Vec<i64> {
    match &expr.kind {
        ExprKind::Int(n) => vec![*n],
        ExprKind::Vector { elements, .. } => elements.iter().flat_map(int_literals_in).collect(),
        _ => vec![],
    }
}

/// A scalar or vector value (of at most `limit` elements) as a literal expression.
pub fn value_to_literal(value: &Value, limit: usize) -> Option<Expr> {
    match value {
        Value::Scalar(scalar) => scalar_literal(*scalar),
        Value::Array(array) if array.shape.is_empty() => scalar_literal(array.data.get(0)),
        Value::Array(array) if array.shape.len() == 1 && array.data.len() <= limit => {
            let elements = (0..array.data.len())
                .map(|i| scalar_literal(array.data.get(i)))
                .collect::<Option<Vec<Expr>>>()?;
            Some(Expr::synthetic(ExprKind::Vector {
                elements,
                element_type: Some(base_of(&array.data)),
            }))
        }
        _ => None,
    }
}

fn base_of(data: &ArrayData) -> crate::tail::ast::BaseType {
    data.base_type()
}

fn scalar_literal(scalar: Scalar) -> Option<Expr> {
    let kind = match scalar {
        Scalar::Int(x) => ExprKind::Int(x),
        Scalar::Double(x) if x.is_finite() => ExprKind::Double(x),
        Scalar::Bool(x) => ExprKind::Bool(x),
        Scalar::Char(x) => ExprKind::Char(x),
        Scalar::Complex(re, im) if re.is_finite() && im.is_finite() => ExprKind::Complex(re, im),
        _ => return None,
    };
    Some(Expr::synthetic(kind))
}
