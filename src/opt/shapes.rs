//! Static shape propagation (digest §2.9): the shape of an expression when it is known at compile time, from literal
//! shape arguments (`reshape([3,2], e)`), from the types (`<int>15` has shape `[15]`, `[double]0` has shape `[]`) and
//! from the shapes of variables, which the passes record in a [`ShapeEnvironment`] as they walk into `let`s and
//! lambdas.
//!
//! A shape computed here is the shape the expression has *if its evaluation succeeds*: the analysis does not check
//! that `cat(a, b)` has matching extents, because when it has not, evaluation stops with an error and nothing that
//! relies on the shape runs. Passes that replace an expression by its shape (`shape(e)` to a literal) must therefore
//! also know that `e` is safe to drop (a variable always is).

use super::safety::is_permutation;
use super::traverse::literal_ints;
use crate::tail::ast::{Expr, ExprKind, Op, Type};
use crate::tail::scalar_ops::is_scalar_op;

/// A static shape: the extents, outermost first (`[]` for a scalar).
pub type StaticShape = Vec<u64>;

/// The known shapes of the variables in scope, innermost last (so shadowing works).
#[derive(Default)]
pub struct ShapeEnvironment {
    scopes: Vec<(String, Option<StaticShape>)>,
}

impl ShapeEnvironment {
    pub fn push(&mut self, name: &str, shape: Option<StaticShape>) {
        self.scopes.push((name.to_string(), shape));
    }

    pub fn pop(&mut self) {
        self.scopes.pop();
    }

    pub fn lookup(&self, name: &str) -> Option<StaticShape> {
        self.scopes
            .iter()
            .rev()
            .find(|(bound, _)| bound == name)
            .and_then(|(_, shape)| shape.clone())
    }
}

/// The shape every value of the type has, when the type fixes it.
pub fn shape_of_type(ty: &Type) -> Option<StaticShape> {
    match ty {
        Type::Array(_, rank) if rank.as_constant() == Some(0) => Some(vec![]),
        Type::Singleton(..) => Some(vec![]),
        Type::Vector(_, length) => length.as_constant().map(|n| vec![n]),
        Type::SingletonVector(..) => Some(vec![1]),
        _ => None,
    }
}

/// The shape of `expr` when it is statically known.
pub fn shape_of(expr: &Expr, environment: &mut ShapeEnvironment) -> Option<StaticShape> {
    match &expr.kind {
        ExprKind::Int(_) | ExprKind::Double(_) | ExprKind::Bool(_) | ExprKind::Char(_) | ExprKind::Complex(..) => {
            Some(vec![])
        }
        ExprKind::Vector { elements, .. } => Some(vec![elements.len() as u64]),
        ExprKind::Var(name) => environment.lookup(name),
        ExprKind::Let { name, ty, value, body } => {
            let bound = shape_of(value, environment).or_else(|| ty.as_ref().and_then(shape_of_type));
            environment.push(name, bound);
            let shape = shape_of(body, environment);
            environment.pop();
            shape
        }
        ExprKind::Op { op, args } => shape_of_op(*op, args, environment),
        ExprKind::Lambda { .. }
        | ExprKind::OpRef(_)
        | ExprKind::Tuple(_)
        | ExprKind::Project { .. }
        | ExprKind::Call { .. } => None,
    }
}

fn shape_of_op(op: Op, args: &[Expr], environment: &mut ShapeEnvironment) -> Option<StaticShape> {
    if args.len() != op.arity() {
        return None;
    }
    // The array argument of the structural operators is the last one (arguments such as a count, an axis, a
    // function, a neutral element or a print precision come first).
    let last = args.len().saturating_sub(1);
    let mut shape_of_arg = |index: usize| shape_of(&args[index], environment);
    let literal_count = |index: usize| match args[index].kind {
        ExprKind::Int(n) => Some(n),
        _ => None,
    };
    if is_scalar_op(op) {
        return Some(vec![]);
    }
    match op {
        Op::Roll | Op::NowI | Op::ArgInt | Op::ArgDouble | Op::Pi | Op::Tally | Op::First | Op::FirstV | Op::Decode => {
            Some(vec![])
        }
        Op::Zilde => Some(vec![0]),
        Op::Iota | Op::IotaV => literal_count(0).filter(|n| *n >= 0).map(|n| vec![n as u64]),
        Op::Shape => shape_of_arg(last).map(|shape| vec![shape.len() as u64]),
        Op::ShapeV => Some(vec![1]),
        Op::Reshape => literal_ints(&args[0])
            .filter(|extents| extents.iter().all(|e| *e >= 0))
            .map(|extents| extents.iter().map(|e| *e as u64).collect()),
        Op::Ravel => shape_of_arg(last).map(|shape| vec![shape.iter().product()]),
        Op::Reverse | Op::VReverse | Op::VReverseV | Op::Mem | Op::Print | Op::NonEmptyRows => shape_of_arg(last),
        Op::Transpose => shape_of_arg(last).map(|shape| shape.into_iter().rev().collect()),
        Op::Rotate | Op::RotateV | Op::VRotate | Op::VRotateV | Op::Each | Op::EachV | Op::Scan => shape_of_arg(last),
        Op::Transpose2 => {
            let axes = literal_ints(&args[0]).filter(|axes| is_permutation(axes))?;
            let source = shape_of_arg(last).filter(|shape| shape.len() == axes.len())?;
            let mut result = vec![0; axes.len()];
            for (source_axis, target) in axes.iter().enumerate() {
                result[*target as usize - 1] = source[source_axis];
            }
            Some(result)
        }
        Op::Take => {
            let n = literal_count(0)?;
            let mut shape = at_least_vector(shape_of_arg(last)?);
            shape[0] = n.unsigned_abs();
            Some(shape)
        }
        Op::Drop => {
            let n = literal_count(0)?;
            let mut shape = at_least_vector(shape_of_arg(last)?);
            shape[0] = shape[0].saturating_sub(n.unsigned_abs());
            Some(shape)
        }
        Op::TakeV | Op::TakeLastV => literal_count(0).filter(|n| *n >= 0).map(|n| vec![n as u64]),
        Op::DropV | Op::DropLastV => {
            let n = literal_count(0).filter(|n| *n >= 0)?;
            let length = *shape_of_arg(1)?.first()?;
            Some(vec![length.saturating_sub(n as u64)])
        }
        Op::Cat | Op::CatV => {
            let (left, right) = (at_least_vector(shape_of_arg(0)?), at_least_vector(shape_of_arg(1)?));
            joined_along(left, right, |shape| shape.len() - 1)
        }
        Op::CatFirst => {
            let (left, right) = (at_least_vector(shape_of_arg(0)?), at_least_vector(shape_of_arg(1)?));
            joined_along(left, right, |_| 0)
        }
        Op::Cons | Op::ConsV => {
            let mut item = shape_of_arg(0)?;
            item.push(1);
            joined_along(item, at_least_vector(shape_of_arg(1)?), |shape| shape.len() - 1)
        }
        Op::Snoc | Op::SnocV => {
            let mut item = shape_of_arg(1)?;
            item.push(1);
            joined_along(at_least_vector(shape_of_arg(0)?), item, |shape| shape.len() - 1)
        }
        Op::ZipWith => shape_of_arg(1).or_else(|| shape_of_arg(2)),
        Op::Reduce => {
            let mut shape = shape_of_arg(last)?;
            shape.pop();
            Some(shape)
        }
        Op::Index => {
            let axis = literal_count(0)?;
            let mut shape = shape_of_arg(last)?;
            if axis < 1 || axis as usize > shape.len() {
                return None;
            }
            shape.remove(axis as usize - 1);
            Some(shape)
        }
        Op::Update | Op::Scatter | Op::Member => shape_of_arg(0),
        Op::IndexOf => shape_of_arg(1),
        Op::GradeUp | Op::GradeDown => shape_of_arg(0).filter(|shape| shape.len() == 1),
        _ => None,
    }
}

/// A scalar counts as a one-element vector (as `take`, `drop` and catenation treat it).
fn at_least_vector(shape: StaticShape) -> StaticShape {
    if shape.is_empty() {
        vec![1]
    } else {
        shape
    }
}

/// The shape of two arrays of equal rank joined along an axis (`None` when the ranks differ).
fn joined_along(left: StaticShape, right: StaticShape, axis: impl Fn(&StaticShape) -> usize) -> Option<StaticShape> {
    if left.len() != right.len() || left.is_empty() {
        return None;
    }
    let axis = axis(&left);
    let mut shape = left.clone();
    shape[axis] = left[axis] + right[axis];
    Some(shape)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tail::parser::parse_expr;

    fn shape(text: &str) -> Option<StaticShape> {
        shape_of(&parse_expr(text).expect("parses"), &mut ShapeEnvironment::default())
    }

    #[test]
    fn shapes_follow_literal_arguments_and_structure() {
        assert_eq!(shape("reshape([3,2], iotaV(5))"), Some(vec![3, 2]));
        assert_eq!(shape("transp(reshape([3,2], iotaV(5)))"), Some(vec![2, 3]));
        // Source axis i becomes result axis X[i]: [2,3,4] with X = [3,1,2] gives [3,4,2].
        assert_eq!(shape("transp2([3,1,2], reshape([2,3,4], x))"), Some(vec![3, 4, 2]));
        assert_eq!(shape("let a = reshape([4,5], x) in reduce(addi, 0, a)"), Some(vec![4]));
        assert_eq!(shape("drop(~1, reshape([4,5], x))"), Some(vec![3, 5]));
        assert_eq!(shape("take(~7, [1,2])"), Some(vec![7]));
        assert_eq!(shape("cat(reshape([2,3], x), reshape([2,4], y))"), Some(vec![2, 7]));
        assert_eq!(shape("consV(0, iotaV(100))"), Some(vec![101]));
        assert_eq!(shape("addi(1, 2)"), Some(vec![]));
        assert_eq!(shape("reshape(s, x)"), None);
        assert_eq!(shape("iota(n)"), None);
    }
}
