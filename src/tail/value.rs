//! Run-time values of the TAIL interpreter: flat arrays with a shape and an element type, scalars, functions and
//! tuples.
//!
//! A rank-0 array is always represented as [`Value::Scalar`] (never as a `Value::Array` with an empty shape), so that
//! per-element work on scalars allocates nothing. Arrays are shared (`Rc`) because `let`-bound arrays are referenced
//! many times and never mutated (`update` builds a new array).

use super::ast::{BaseType, Expr, Op};
use std::rc::Rc;

/// One element.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    Double(f64),
    Char(char),
    Complex(f64, f64),
}

impl Scalar {
    pub fn base_type(self) -> BaseType {
        match self {
            Scalar::Bool(_) => BaseType::Bool,
            Scalar::Int(_) => BaseType::Int,
            Scalar::Double(_) => BaseType::Double,
            Scalar::Char(_) => BaseType::Char,
            Scalar::Complex(..) => BaseType::Complex,
        }
    }

    /// The fill ("prototype") element of a base type: 0, 0.0, ff, ' ', 0.0j0.0. A type variable (only possible for
    /// an empty array whose type was never fixed) uses int.
    pub fn fill(base: BaseType) -> Scalar {
        match base {
            BaseType::Bool => Scalar::Bool(false),
            BaseType::Int | BaseType::Var(_) => Scalar::Int(0),
            BaseType::Double => Scalar::Double(0.0),
            BaseType::Char => Scalar::Char(' '),
            BaseType::Complex => Scalar::Complex(0.0, 0.0),
        }
    }
}

/// The elements of an array in row-major order, one vector per base type.
#[derive(Clone, Debug, PartialEq)]
pub enum ArrayData {
    Bool(Vec<bool>),
    Int(Vec<i64>),
    Double(Vec<f64>),
    Char(Vec<char>),
    Complex(Vec<(f64, f64)>),
}

/// Position `FILL` in a gather means "the fill element".
pub const FILL: usize = usize::MAX;

fn gather_vec<T: Copy>(source: &[T], positions: &[usize], fill: T) -> Vec<T> {
    positions
        .iter()
        .map(|&position| if position == FILL { fill } else { source[position] })
        .collect()
}

impl ArrayData {
    pub fn len(&self) -> usize {
        match self {
            ArrayData::Bool(v) => v.len(),
            ArrayData::Int(v) => v.len(),
            ArrayData::Double(v) => v.len(),
            ArrayData::Char(v) => v.len(),
            ArrayData::Complex(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn base_type(&self) -> BaseType {
        match self {
            ArrayData::Bool(_) => BaseType::Bool,
            ArrayData::Int(_) => BaseType::Int,
            ArrayData::Double(_) => BaseType::Double,
            ArrayData::Char(_) => BaseType::Char,
            ArrayData::Complex(_) => BaseType::Complex,
        }
    }

    /// An empty vector of a base type.
    pub fn empty(base: BaseType) -> ArrayData {
        ArrayData::filled(base, 0)
    }

    /// `count` fill elements of a base type.
    pub fn filled(base: BaseType, count: usize) -> ArrayData {
        ArrayData::repeat(Scalar::fill(base), count)
    }

    /// `count` copies of one element.
    pub fn repeat(element: Scalar, count: usize) -> ArrayData {
        match element {
            Scalar::Bool(x) => ArrayData::Bool(vec![x; count]),
            Scalar::Int(x) => ArrayData::Int(vec![x; count]),
            Scalar::Double(x) => ArrayData::Double(vec![x; count]),
            Scalar::Char(x) => ArrayData::Char(vec![x; count]),
            Scalar::Complex(re, im) => ArrayData::Complex(vec![(re, im); count]),
        }
    }

    pub fn get(&self, position: usize) -> Scalar {
        match self {
            ArrayData::Bool(v) => Scalar::Bool(v[position]),
            ArrayData::Int(v) => Scalar::Int(v[position]),
            ArrayData::Double(v) => Scalar::Double(v[position]),
            ArrayData::Char(v) => Scalar::Char(v[position]),
            ArrayData::Complex(v) => Scalar::Complex(v[position].0, v[position].1),
        }
    }

    /// The elements at `positions` (each < len, or [`FILL`] for the fill element), in that order.
    pub fn gather(&self, positions: &[usize]) -> ArrayData {
        let base = self.base_type();
        match (self, Scalar::fill(base)) {
            (ArrayData::Bool(v), Scalar::Bool(fill)) => ArrayData::Bool(gather_vec(v, positions, fill)),
            (ArrayData::Int(v), Scalar::Int(fill)) => ArrayData::Int(gather_vec(v, positions, fill)),
            (ArrayData::Double(v), Scalar::Double(fill)) => ArrayData::Double(gather_vec(v, positions, fill)),
            (ArrayData::Char(v), Scalar::Char(fill)) => ArrayData::Char(gather_vec(v, positions, fill)),
            (ArrayData::Complex(v), Scalar::Complex(re, im)) => ArrayData::Complex(gather_vec(v, positions, (re, im))),
            _ => unreachable!("the fill element has the array's base type"),
        }
    }

    /// Builds data of one base type from scalars of that type; `None` when an element has another type.
    pub fn from_scalars(base: BaseType, elements: &[Scalar]) -> Option<ArrayData> {
        let mut data = ArrayData::filled(base, 0);
        for element in elements {
            data.push(*element)?;
        }
        Some(data)
    }

    /// Appends one element; `None` when its type differs.
    pub fn push(&mut self, element: Scalar) -> Option<()> {
        match (self, element) {
            (ArrayData::Bool(v), Scalar::Bool(x)) => v.push(x),
            (ArrayData::Int(v), Scalar::Int(x)) => v.push(x),
            (ArrayData::Double(v), Scalar::Double(x)) => v.push(x),
            (ArrayData::Char(v), Scalar::Char(x)) => v.push(x),
            (ArrayData::Complex(v), Scalar::Complex(re, im)) => v.push((re, im)),
            _ => return None,
        }
        Some(())
    }
}

/// An array of any rank ≥ 0: a shape and its elements in row-major order (`data.len()` is the product of `shape`).
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayValue {
    pub shape: Vec<usize>,
    pub data: ArrayData,
}

impl ArrayValue {
    pub fn new(shape: Vec<usize>, data: ArrayData) -> ArrayValue {
        debug_assert_eq!(
            shape.iter().product::<usize>(),
            data.len(),
            "shape {shape:?} and data length disagree"
        );
        ArrayValue { shape, data }
    }

    pub fn vector(data: ArrayData) -> ArrayValue {
        ArrayValue {
            shape: vec![data.len()],
            data,
        }
    }

    pub fn scalar(element: Scalar) -> ArrayValue {
        ArrayValue {
            shape: vec![],
            data: ArrayData::repeat(element, 1),
        }
    }

    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    pub fn base_type(&self) -> BaseType {
        self.data.base_type()
    }

    /// The value, with a rank-0 array turned into a [`Value::Scalar`].
    pub fn into_value(self) -> Value {
        if self.shape.is_empty() {
            Value::Scalar(self.data.get(0))
        } else {
            Value::Array(Rc::new(self))
        }
    }
}

/// A function value: an operator (possibly partially applied, when used as a curried function value) or a closure.
#[derive(Clone, Debug)]
pub enum Function {
    /// An operator with the arguments given so far (fewer than its arity).
    Op { op: Op, args: Vec<Value> },
    /// `fn p1 => fn p2 => ... => body` with its environment: the curried parameters, of which the first `bound`
    /// are already bound in `environment` (a partial application).
    Closure {
        parameters: Rc<[Rc<str>]>,
        bound: usize,
        body: Rc<Expr>,
        environment: Environment,
    },
}

/// A persistent environment (a linked list of bindings, newest first), cheap to capture in closures.
#[derive(Clone, Debug, Default)]
pub struct Environment {
    head: Option<Rc<Binding>>,
}

#[derive(Debug)]
struct Binding {
    name: Rc<str>,
    value: Value,
    next: Option<Rc<Binding>>,
}

impl Environment {
    pub fn bind(&self, name: Rc<str>, value: Value) -> Environment {
        Environment {
            head: Some(Rc::new(Binding {
                name,
                value,
                next: self.head.clone(),
            })),
        }
    }

    pub fn lookup(&self, name: &str) -> Option<&Value> {
        let mut node = self.head.as_deref();
        while let Some(binding) = node {
            if &*binding.name == name {
                return Some(&binding.value);
            }
            node = binding.next.as_deref();
        }
        None
    }
}

/// A run-time value.
#[derive(Clone, Debug)]
pub enum Value {
    /// A rank-0 array.
    Scalar(Scalar),
    /// An array of rank ≥ 1.
    Array(Rc<ArrayValue>),
    Function(Rc<Function>),
    Tuple(Rc<Vec<Value>>),
}

impl Value {
    /// The value as an array (a scalar becomes a rank-0 array); `None` for functions and tuples.
    pub fn to_array(&self) -> Option<std::borrow::Cow<'_, ArrayValue>> {
        match self {
            Value::Scalar(scalar) => Some(std::borrow::Cow::Owned(ArrayValue::scalar(*scalar))),
            Value::Array(array) => Some(std::borrow::Cow::Borrowed(array)),
            _ => None,
        }
    }

    pub fn from_array(array: ArrayValue) -> Value {
        array.into_value()
    }

    /// Structural equality on arrays and tuples (doubles compared exactly); functions are never equal.
    pub fn same_as(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Tuple(a), Value::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.same_as(y))
            }
            (Value::Function(_), _) | (_, Value::Function(_)) | (Value::Tuple(_), _) | (_, Value::Tuple(_)) => false,
            _ => self.to_array() == other.to_array(),
        }
    }
}
