//! The values a session keeps between lines, and how they travel: into a line's TAIL program as inputs, and out of
//! a child process through a pipe as bytes.
//!
//! A line's inputs are let-bound around its program. A scalar is always bound to its literal (a compile-time
//! constant for the next line). An array is bound either to `inputX(k, n)`, reshaped to its shape when its rank is
//! not 1 (the native backend, which passes the data by pointer), or to a vector literal of its elements (the
//! interpreter).
//!
//! The byte format of values in the pipe: per value, one byte of element kind (0 bool, 1 int, 2 double, 3 char,
//! 4 complex), the rank as a little-endian u64, the extents (u64 each), then the elements in row-major order (bool
//! one byte, int and double eight bytes, char four bytes, complex two doubles, all little-endian).

use crate::elab::env::Scalar as ElabScalar;
use crate::elab::ir::Base;
use crate::tail::ast::{BaseType, Expr, ExprKind, Op, Program};
use crate::tail::value::{ArrayData, ArrayValue, Scalar, Value};
use std::rc::Rc;

/// How a backend receives the arrays of earlier lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputForm {
    /// `inputX(k, n)`: input k of the native entry.
    Native,
    /// A vector literal of the elements.
    Literal,
}

/// Let-binds each input variable around the program; returns the program and the arrays passed natively, in the
/// order of their input numbers.
pub fn bind_inputs(program: Program, inputs: &[(String, Value)], form: InputForm) -> (Program, Vec<Rc<ArrayValue>>) {
    let mut native = Vec::new();
    let mut bindings = Vec::new();
    for (name, value) in inputs {
        let bound = match value {
            Value::Array(array) => {
                let ravel = match form {
                    // Complex arrays have no native input form (no word-sized element): they go in as literals.
                    InputForm::Native if matches!(array.data, ArrayData::Complex(_)) => literal_ravel(&array.data),
                    InputForm::Native => {
                        native.push(array.clone());
                        input_expression(native.len() - 1, array)
                    }
                    InputForm::Literal => literal_ravel(&array.data),
                };
                if array.shape.len() == 1 {
                    ravel
                } else {
                    let extents = array.shape.iter().map(|&extent| Expr::int(extent as i64)).collect();
                    Expr::op(Op::Reshape, vec![Expr::vector(extents, Some(BaseType::Int)), ravel])
                }
            }
            Value::Scalar(scalar) => scalar_literal(*scalar),
            Value::Function(_) | Value::Tuple(_) => Expr::int(0),
        };
        bindings.push((name.clone(), bound));
    }
    let body = bindings.into_iter().rev().fold(program.body, |body, (name, bound)| {
        Expr::let_in(name, None, bound, body)
    });
    (
        Program {
            body,
            functions: program.functions,
        },
        native,
    )
}

fn input_expression(index: usize, array: &ArrayValue) -> Expr {
    let op = match array.data {
        ArrayData::Bool(_) => Op::InputB,
        ArrayData::Double(_) => Op::InputD,
        ArrayData::Char(_) => Op::InputC,
        ArrayData::Int(_) => Op::InputI,
        ArrayData::Complex(_) => unreachable!("complex inputs are passed as literals"),
    };
    Expr::op(op, vec![Expr::int(index as i64), Expr::int(array.data.len() as i64)])
}

fn literal_ravel(data: &ArrayData) -> Expr {
    let elements = (0..data.len())
        .map(|position| scalar_literal(data.get(position)))
        .collect();
    Expr::vector(elements, Some(data.base_type()))
}

fn scalar_literal(scalar: Scalar) -> Expr {
    match scalar {
        Scalar::Bool(value) => Expr::bool(value),
        Scalar::Int(value) => Expr::int(value),
        Scalar::Double(value) => Expr::double(value),
        Scalar::Char(value) => Expr::char(value),
        Scalar::Complex(re, im) => Expr::synthetic(ExprKind::Complex(re, im)),
    }
}

/// The elaborator's view of a scalar value.
pub fn elab_scalar(scalar: Scalar) -> ElabScalar {
    match scalar {
        Scalar::Bool(value) => ElabScalar::Bool(value),
        Scalar::Int(value) => ElabScalar::Int(value),
        Scalar::Double(value) => ElabScalar::Double(value),
        Scalar::Char(value) => ElabScalar::Char(value),
        Scalar::Complex(re, im) => ElabScalar::Complex(re, im),
    }
}

/// The value with the element type elaboration gave its variable. A backend may return an empty array as ints
/// whatever its type, and booleans where ints are expected; the next line must receive what its types say.
pub fn coerce_to_base(value: Value, base: Base) -> Value {
    let target = crate::elab::lower::base_type(base);
    match value {
        Value::Scalar(scalar) if scalar.base_type() != target => match convert_scalar(scalar, target) {
            Some(converted) => Value::Scalar(converted),
            None => Value::Scalar(scalar),
        },
        Value::Array(array) if array.data.base_type() != target => {
            let elements: Option<Vec<Scalar>> = (0..array.data.len())
                .map(|position| convert_scalar(array.data.get(position), target))
                .collect();
            match elements.and_then(|elements| ArrayData::from_scalars(target, &elements)) {
                Some(data) if !array.data.is_empty() => {
                    Value::Array(Rc::new(ArrayValue::new(array.shape.clone(), data)))
                }
                _ if array.data.is_empty() => {
                    Value::Array(Rc::new(ArrayValue::new(array.shape.clone(), ArrayData::empty(target))))
                }
                _ => Value::Array(array),
            }
        }
        other => other,
    }
}

fn convert_scalar(scalar: Scalar, target: BaseType) -> Option<Scalar> {
    match (scalar, target) {
        (Scalar::Bool(value), BaseType::Int) => Some(Scalar::Int(value as i64)),
        (Scalar::Bool(value), BaseType::Double) => Some(Scalar::Double(value as i64 as f64)),
        (Scalar::Int(value), BaseType::Double) => Some(Scalar::Double(value as f64)),
        (Scalar::Int(value @ (0 | 1)), BaseType::Bool) => Some(Scalar::Bool(value == 1)),
        _ => None,
    }
}

/// A pointer to the elements of an array as native code reads them (the run-time library's layout: bools are
/// bytes, chars 32-bit code points), or `None` for complex numbers, which native code does not support.
pub fn native_data_pointer(array: &ArrayValue) -> Option<*const u8> {
    match &array.data {
        ArrayData::Bool(values) => Some(values.as_ptr() as *const u8),
        ArrayData::Int(values) => Some(values.as_ptr() as *const u8),
        ArrayData::Double(values) => Some(values.as_ptr() as *const u8),
        ArrayData::Char(values) => Some(values.as_ptr() as *const u8),
        ArrayData::Complex(_) => None,
    }
}

// ---- The pipe format ----

const KIND_BOOL: u8 = 0;
const KIND_INT: u8 = 1;
const KIND_DOUBLE: u8 = 2;
const KIND_CHAR: u8 = 3;
const KIND_COMPLEX: u8 = 4;

/// Appends one value, given as its kind, shape and the bytes of its elements in the pipe's layout.
pub fn encode_value(kind: u8, shape: &[usize], element_bytes: &[u8], out: &mut Vec<u8>) {
    out.push(kind);
    out.extend_from_slice(&(shape.len() as u64).to_le_bytes());
    for &extent in shape {
        out.extend_from_slice(&(extent as u64).to_le_bytes());
    }
    out.extend_from_slice(element_bytes);
}

/// The pipe's kind byte and element size of a loop-IR element type.
pub fn kind_of(element: crate::loops::ir::ScalarType) -> (u8, usize) {
    use crate::loops::ir::ScalarType;
    match element {
        ScalarType::Bool => (KIND_BOOL, 1),
        ScalarType::Int => (KIND_INT, 8),
        ScalarType::Double => (KIND_DOUBLE, 8),
        ScalarType::Char => (KIND_CHAR, 4),
        ScalarType::Complex => (KIND_COMPLEX, 16),
    }
}

/// Reads the values a child process wrote.
pub fn decode_values(bytes: &[u8]) -> Result<Vec<Value>, String> {
    let mut reader = ByteReader { bytes, position: 0 };
    let mut values = Vec::new();
    while reader.position < bytes.len() {
        values.push(reader.value()?);
    }
    Ok(values)
}

struct ByteReader<'a> {
    bytes: &'a [u8],
    position: usize,
}

impl ByteReader<'_> {
    fn take(&mut self, count: usize) -> Result<&[u8], String> {
        let end = self
            .position
            .checked_add(count)
            .filter(|&end| end <= self.bytes.len())
            .ok_or("the line's process sent a truncated value")?;
        let taken = &self.bytes[self.position..end];
        self.position = end;
        Ok(taken)
    }

    fn word(&mut self) -> Result<u64, String> {
        let bytes: [u8; 8] = self.take(8)?.try_into().expect("eight bytes");
        Ok(u64::from_le_bytes(bytes))
    }

    fn value(&mut self) -> Result<Value, String> {
        let kind = self.take(1)?[0];
        let rank = self.word()? as usize;
        let shape = (0..rank)
            .map(|_| self.word().map(|extent| extent as usize))
            .collect::<Result<Vec<_>, _>>()?;
        let count = shape
            .iter()
            .try_fold(1usize, |product, &extent| product.checked_mul(extent))
            .ok_or("the line's process sent an impossible shape")?;
        let data = match kind {
            KIND_BOOL => ArrayData::Bool(self.take(count)?.iter().map(|&byte| byte != 0).collect()),
            KIND_INT => ArrayData::Int(self.elements(count, i64::from_le_bytes)?),
            KIND_DOUBLE => ArrayData::Double(self.elements(count, f64::from_le_bytes)?),
            KIND_CHAR => ArrayData::Char(self.chars(count)?),
            KIND_COMPLEX => {
                let parts = self.elements(count.checked_mul(2).ok_or("too many elements")?, f64::from_le_bytes)?;
                ArrayData::Complex(parts.chunks_exact(2).map(|pair| (pair[0], pair[1])).collect())
            }
            other => return Err(format!("the line's process sent an unknown element kind {other}")),
        };
        if rank == 0 {
            return Ok(Value::Scalar(data.get(0)));
        }
        Ok(Value::Array(Rc::new(ArrayValue::new(shape, data))))
    }

    fn elements<T>(&mut self, count: usize, convert: fn([u8; 8]) -> T) -> Result<Vec<T>, String> {
        let bytes = self.take(count.checked_mul(8).ok_or("too many elements")?)?;
        Ok(bytes
            .chunks_exact(8)
            .map(|chunk| convert(chunk.try_into().expect("eight bytes")))
            .collect())
    }

    fn chars(&mut self, count: usize) -> Result<Vec<char>, String> {
        let bytes = self.take(count.checked_mul(4).ok_or("too many elements")?)?;
        Ok(bytes
            .chunks_exact(4)
            .map(|chunk| {
                let code = u32::from_le_bytes(chunk.try_into().expect("four bytes"));
                char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
            })
            .collect())
    }
}
