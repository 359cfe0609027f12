//! TAIL's concrete syntax (digest §2.7), printed so that [`super::parser`] reads it back to the same program.
//!
//! - Types: `[int]2`, `<int>3`, `S(int,2)`, `SV(int,17)`, `[double]0`, `[int]('n1+1)`, `[int]1 -> [int]0`,
//!   `([int]1,[double]0)`. Variables print as `'a3` (base type), `'n3` (shape) and `'t3` (type).
//! - Literals: ints `3`, `~3`; doubles always with a `.` or an exponent (`0.0`, `~50.0`, `1.5E~3`, `1.0E999` for
//!   infinity); `tt`/`ff`; chars `'a'` with escapes `'\''`, `'\\'`, `'\n'`, `'\t'`, `'\u{7}'`; complex `2.0j~3.0`.
//! - `let x:τ = e1 in` starts a new line for the body; lambdas are `fn x:τ => e`; tuples `(e1,e2)`; projections `#1(e)`;
//!   the empty vector literal carries its element type, `[]:int`.
//! - A program's recursive functions come first: `fun f(x:[int]0) : [int]0 =` then the body and a line `;`; a call
//!   is `call f(e1,...)`.

use super::ast::{BaseType, Expr, ExprKind, Program, Shape, Type};

/// The whole program as text (ends without a newline): each function as `fun f(x:τ,...) : τ =` with its body on
/// the next lines and `;` on a line of its own, then the main expression.
pub fn print_program(program: &Program) -> String {
    let mut out = String::new();
    for function in &program.functions {
        out.push_str("fun ");
        out.push_str(&function.name);
        out.push('(');
        for (position, (name, ty)) in function.parameters.iter().enumerate() {
            if position > 0 {
                out.push(',');
            }
            out.push_str(name);
            out.push(':');
            write_type(&mut out, ty);
        }
        out.push_str(") : ");
        write_type(&mut out, &function.result);
        out.push_str(" =\n");
        write_expr(&mut out, &function.body);
        out.push_str("\n;\n");
    }
    write_expr(&mut out, &program.body);
    out
}

/// One expression as text.
pub fn print_expr(expr: &Expr) -> String {
    let mut out = String::new();
    write_expr(&mut out, expr);
    out
}

/// A type as text.
pub fn print_type(ty: &Type) -> String {
    let mut out = String::new();
    write_type(&mut out, ty);
    out
}

pub fn print_base_type(base: BaseType) -> String {
    match base {
        BaseType::Int => "int".to_string(),
        BaseType::Double => "double".to_string(),
        BaseType::Bool => "bool".to_string(),
        BaseType::Char => "char".to_string(),
        BaseType::Complex => "complex".to_string(),
        BaseType::Var(id) => format!("'a{id}"),
    }
}

/// A shape as text: `3`, `'n2`, `'n2+1` (no parentheses; [`print_type`] adds them where needed).
pub fn print_shape(shape: &Shape) -> String {
    let mut terms: Vec<String> = Vec::new();
    for (variable, count) in &shape.variables {
        for _ in 0..*count {
            terms.push(format!("'n{variable}"));
        }
    }
    if shape.constant != 0 || terms.is_empty() {
        terms.push(shape.constant.to_string());
    }
    terms.join("+")
}

fn write_shape_after_bracket(out: &mut String, shape: &Shape) {
    let text = print_shape(shape);
    if text.contains('+') {
        out.push('(');
        out.push_str(&text);
        out.push(')');
    } else {
        out.push_str(&text);
    }
}

fn write_type(out: &mut String, ty: &Type) {
    match ty {
        Type::Array(base, shape) => {
            out.push('[');
            out.push_str(&print_base_type(*base));
            out.push(']');
            write_shape_after_bracket(out, shape);
        }
        Type::Vector(base, shape) => {
            out.push('<');
            out.push_str(&print_base_type(*base));
            out.push('>');
            write_shape_after_bracket(out, shape);
        }
        Type::Singleton(base, shape) => {
            out.push_str(&format!("S({},{})", print_base_type(*base), print_shape(shape)));
        }
        Type::SingletonVector(base, shape) => {
            out.push_str(&format!("SV({},{})", print_base_type(*base), print_shape(shape)));
        }
        Type::Function(argument, result) => {
            // Arrows associate to the right, so a function argument needs parentheses.
            if matches!(**argument, Type::Function(..)) {
                out.push('(');
                write_type(out, argument);
                out.push(')');
            } else {
                write_type(out, argument);
            }
            out.push_str(" -> ");
            write_type(out, result);
        }
        Type::Tuple(components) => {
            out.push('(');
            for (position, component) in components.iter().enumerate() {
                if position > 0 {
                    out.push(',');
                }
                write_type(out, component);
            }
            out.push(')');
        }
        Type::Var(id) => out.push_str(&format!("'t{id}")),
    }
}

/// An int in TAIL syntax: `~` for the minus sign.
pub fn print_int(value: i64) -> String {
    if value < 0 {
        format!("~{}", value.unsigned_abs())
    } else {
        value.to_string()
    }
}

/// A double in TAIL syntax: always with a `.` or an exponent, `~` for minus signs, `E` for the exponent.
pub fn print_double(value: f64) -> String {
    if value.is_nan() {
        return "nan".to_string();
    }
    if value.is_infinite() {
        return if value > 0.0 {
            "1.0E999".to_string()
        } else {
            "~1.0E999".to_string()
        };
    }
    // Rust's `{:?}` is the shortest text that reads back to the same double: "0.1", "1e-7", "-2.5e300", "3.0".
    let text = format!("{value:?}");
    let (mantissa, exponent) = match text.split_once('e') {
        Some((mantissa, exponent)) => (mantissa.to_string(), Some(exponent.to_string())),
        None => (text.clone(), None),
    };
    let mantissa = if mantissa.contains('.') {
        mantissa
    } else {
        format!("{mantissa}.0")
    };
    let mut out = mantissa.replace('-', "~");
    if let Some(exponent) = exponent {
        out.push('E');
        out.push_str(&exponent.replace('-', "~"));
    }
    out
}

/// A char literal with its quotes.
pub fn print_char(value: char) -> String {
    match value {
        '\'' => "'\\''".to_string(),
        '\\' => "'\\\\'".to_string(),
        '\n' => "'\\n'".to_string(),
        '\t' => "'\\t'".to_string(),
        c if c.is_control() => format!("'\\u{{{:x}}}'", c as u32),
        c => format!("'{c}'"),
    }
}

fn write_expr(out: &mut String, expr: &Expr) {
    match &expr.kind {
        ExprKind::Int(value) => out.push_str(&print_int(*value)),
        ExprKind::Double(value) => out.push_str(&print_double(*value)),
        ExprKind::Bool(value) => out.push_str(if *value { "tt" } else { "ff" }),
        ExprKind::Char(value) => out.push_str(&print_char(*value)),
        ExprKind::Complex(real, imaginary) => {
            out.push_str(&print_double(*real));
            out.push('j');
            out.push_str(&print_double(*imaginary));
        }
        ExprKind::Var(name) => out.push_str(name),
        ExprKind::Vector { elements, element_type } => {
            out.push('[');
            write_list(out, elements);
            out.push(']');
            if elements.is_empty() {
                out.push(':');
                out.push_str(&print_base_type(element_type.unwrap_or(BaseType::Int)));
            }
        }
        ExprKind::Op { op, args } => {
            out.push_str(op.name());
            out.push('(');
            write_list(out, args);
            out.push(')');
        }
        ExprKind::OpRef(op) => out.push_str(op.name()),
        ExprKind::Let { .. } => {
            // A chain of lets is a loop, not a recursion: generated programs have thousands.
            let mut current = expr;
            while let ExprKind::Let { name, ty, value, body } = &current.kind {
                out.push_str("let ");
                out.push_str(name);
                if let Some(ty) = ty {
                    out.push(':');
                    write_type(out, ty);
                }
                out.push_str(" = ");
                write_expr(out, value);
                out.push_str(" in\n");
                current = body;
            }
            write_expr(out, current);
        }
        ExprKind::Lambda { parameter, ty, body } => {
            out.push_str("fn ");
            out.push_str(parameter);
            if let Some(ty) = ty {
                out.push(':');
                write_type(out, ty);
            }
            out.push_str(" => ");
            write_expr(out, body);
        }
        ExprKind::Tuple(components) => {
            out.push('(');
            write_list(out, components);
            out.push(')');
        }
        ExprKind::Project { index, tuple } => {
            out.push_str(&format!("#{index}("));
            write_expr(out, tuple);
            out.push(')');
        }
        ExprKind::Call { function, args } => {
            out.push_str("call ");
            out.push_str(function);
            out.push('(');
            write_list(out, args);
            out.push(')');
        }
    }
}

fn write_list(out: &mut String, exprs: &[Expr]) {
    for (position, expr) in exprs.iter().enumerate() {
        if position > 0 {
            out.push(',');
        }
        write_expr(out, expr);
    }
}
