//! The text form of the loop IR (what `aplc dump --stage loops` shows):
//!
//! ```text
//! let n1 : int = 100
//! var acc2 : double = 0.0
//! alloc mem3 : int[n1]
//! for i4 < n1 {
//!   store mem3[i4] = (i4 + 1)
//! }
//! acc2 := addd(d5, acc2)
//! print mem3 : int[n1]
//! free mem3
//! result acc2
//! ```
//!
//! Index arithmetic prints infix (`+ - * / < <= == >=`, `%` for the residue `n|a` written `a % n`; `+ - *` are the
//! wrapping `addw subw mulw` of positions and sizes); every other operator prints in TAIL's functional form
//! (`addd(x, y)`, and `addi(x, y)` for APL's overflow-checked `+` on ints). Selects print as `(c ? a : b)`.
//!
//! A program's functions come first, `fun f(x1 : int, mem2 : double[n3]) -> int {` (an array result:
//! `-> double[rank 1]`) with the body and `return e` (`return mem7 : double[n8]`) inside; a call is
//! `call r3 : int = f(e1, mem4 : double[n5]) at START..END` (an array result: `call mem9 : int[n10] = ...`).

use super::ir::{Argument, ArrayRef, Expr, Program, ResultValue, Slot, Stmt};
use crate::tail::ast::Op;

pub fn print_program(program: &Program) -> String {
    let mut out = String::new();
    for function in &program.functions {
        let parameters: Vec<String> = function.parameters.iter().map(print_slot).collect();
        let result_type = match &function.result {
            ResultValue::Array(array) => format!("{}[rank {}]", array.block.element.name(), array.shape.len()),
            ResultValue::Scalar(value) => value.ty().name().to_string(),
            ResultValue::Tuple(_) => "tuple".to_string(),
        };
        out.push_str(&format!(
            "fun {}({}) -> {result_type} {{\n",
            function.name,
            parameters.join(", "),
        ));
        write_statements(&mut out, &function.body, 1);
        out.push_str("  return ");
        write_result(&mut out, &function.result);
        out.push_str("\n}\n");
    }
    write_statements(&mut out, &program.body, 0);
    out.push_str("result ");
    write_result(&mut out, &program.result);
    out.push('\n');
    out
}

pub fn print_statements(statements: &[Stmt]) -> String {
    let mut out = String::new();
    write_statements(&mut out, statements, 0);
    out
}

fn write_result(out: &mut String, result: &ResultValue) {
    match result {
        ResultValue::Scalar(value) => out.push_str(&print_expr(value)),
        ResultValue::Array(array) => out.push_str(&print_array(array)),
        ResultValue::Tuple(components) => {
            out.push('(');
            for (k, component) in components.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                write_result(out, component);
            }
            out.push(')');
        }
    }
}

/// `x1 : int`, or `mem2 : double[n3, n4]` for an array.
fn print_slot(slot: &Slot) -> String {
    match slot {
        Slot::Scalar(var) => format!("{} : {}", var.name(), var.ty.name()),
        Slot::Array { block, shape } => {
            let extents: Vec<String> = shape.iter().map(|var| var.name()).collect();
            format!("{} : {}[{}]", block.name(), block.element.name(), extents.join(", "))
        }
    }
}

fn print_array(array: &ArrayRef) -> String {
    let shape: Vec<String> = array.shape.iter().map(print_expr).collect();
    format!(
        "{} : {}[{}]",
        array.block.name(),
        array.block.element.name(),
        shape.join(", ")
    )
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

fn write_statements(out: &mut String, statements: &[Stmt], depth: usize) {
    for statement in statements {
        write_statement(out, statement, depth);
    }
}

fn write_block(out: &mut String, body: &[Stmt], depth: usize) {
    out.push_str("{\n");
    write_statements(out, body, depth + 1);
    indent(out, depth);
    out.push('}');
}

fn write_statement(out: &mut String, statement: &Stmt, depth: usize) {
    indent(out, depth);
    match statement {
        Stmt::Let { var, value } => {
            out.push_str(&format!(
                "let {} : {} = {}",
                var.name(),
                var.ty.name(),
                print_expr(value)
            ));
        }
        Stmt::Mutable { var, value } => {
            out.push_str(&format!(
                "var {} : {} = {}",
                var.name(),
                var.ty.name(),
                print_expr(value)
            ));
        }
        Stmt::Assign { var, value } => out.push_str(&format!("{} := {}", var.name(), print_expr(value))),
        Stmt::For { index, count, body } => {
            out.push_str(&format!("for {} < {} ", index.name(), print_expr(count)));
            write_block(out, body, depth);
        }
        Stmt::While { condition, body } => {
            out.push_str(&format!("while {} ", print_expr(condition)));
            write_block(out, body, depth);
        }
        Stmt::ParallelFor { index, count, body } => {
            out.push_str(&format!("parfor {} < {} ", index.name(), print_expr(count)));
            write_block(out, body, depth);
        }
        Stmt::ParallelReduce {
            result,
            reduction,
            index,
            count,
            body,
            element,
            site,
        } => {
            out.push_str(&format!(
                "reduce {} : {} = {}({}){} for {} < {}{} {{\n",
                result.name(),
                result.ty.name(),
                reduction.op.name(),
                print_expr(&reduction.neutral),
                if reduction.commutative { " commutative" } else { "" },
                index.name(),
                print_expr(count),
                print_site(*site)
            ));
            write_statements(out, body, depth + 1);
            indent(out, depth + 1);
            out.push_str(&format!("yield {}\n", print_expr(element)));
            indent(out, depth);
            out.push('}');
        }
        Stmt::If {
            condition,
            then,
            otherwise,
        } => {
            out.push_str(&format!("if {} ", print_expr(condition)));
            write_block(out, then, depth);
            if !otherwise.is_empty() {
                out.push_str(" else ");
                write_block(out, otherwise, depth);
            }
        }
        Stmt::Alloc { block, size, site } => out.push_str(&format!(
            "alloc {} : {}[{}]{}",
            block.name(),
            block.storage_name(),
            print_expr(size),
            print_site(*site)
        )),
        Stmt::Store { block, index, value } => out.push_str(&format!(
            "store {}[{}] = {}",
            block.name(),
            print_expr(index),
            print_expr(value)
        )),
        Stmt::Free { block } => out.push_str(&format!("free {}", block.name())),
        Stmt::Swap { first, second } => out.push_str(&format!("swap {}, {}", first.name(), second.name())),
        Stmt::PrintArray { array, precision } => {
            out.push_str(&format!("print({}) {}", print_expr(precision), print_array(array)))
        }
        Stmt::PrintScalar { value, precision } => {
            out.push_str(&format!("print({}) {}", print_expr(precision), print_expr(value)))
        }
        Stmt::Format {
            source,
            precision,
            matrix,
            result,
            shape,
            site,
        } => {
            let extents: Vec<String> = shape.iter().map(|v| v.name()).collect();
            out.push_str(&format!(
                "{}({}) {} -> {} : char[{}]{}",
                if *matrix { "formatMatrix" } else { "format" },
                print_expr(precision),
                print_array(source),
                result.name(),
                extents.join(", "),
                print_site(*site)
            ))
        }
        Stmt::View {
            name,
            block,
            shape,
            layout,
        } => out.push_str(&format!(
            "view {name} : {} {}",
            block.element.name(),
            super::memory::annotation(&block.name(), shape, layout)
        )),
        Stmt::Error { kind, message, site } => {
            out.push_str(&format!("error {} {:?}{}", kind.apl_name(), message, print_site(*site)))
        }
        Stmt::ReadFile {
            path,
            result,
            length,
            site,
        } => out.push_str(&format!(
            "read_file {} -> {} : {}[{}]{}",
            print_array(path),
            result.name(),
            result.element.name(),
            length.name(),
            print_site(*site)
        )),
        Stmt::ReadClock { var } => out.push_str(&format!("clock {}", var.name())),
        Stmt::Call {
            result,
            function,
            args,
            site,
        } => {
            let args: Vec<String> = args
                .iter()
                .map(|arg| match arg {
                    Argument::Scalar(expr) => print_expr(expr),
                    Argument::Array(array) => print_array(array),
                })
                .collect();
            out.push_str(&format!(
                "call {} = {function}({}){}",
                print_slot(result),
                args.join(", "),
                print_site(*site)
            ))
        }
        Stmt::ReportBench { iterations, start } => out.push_str(&format!(
            "report_bench({}, {})",
            print_expr(iterations),
            print_expr(start)
        )),
    }
    out.push('\n');
}

/// ` at START..END` for a statement with a source site, nothing otherwise.
fn print_site(site: Option<crate::source::Span>) -> String {
    site.map_or_else(String::new, |site| format!(" at {}..{}", site.start, site.end))
}

/// An expression as text.
pub fn print_expr(expr: &Expr) -> String {
    match expr {
        Expr::Int(n) => n.to_string(),
        Expr::Double(x) => format!("{x:?}"),
        Expr::Bool(b) => (if *b { "tt" } else { "ff" }).to_string(),
        Expr::Char(c) => format!("{c:?}"),
        Expr::Var(var) => var.name(),
        Expr::Load { block, index } => format!("{}[{}]", block.name(), print_expr(index)),
        Expr::At(site, inner) => format!("at({}, {}, {})", site.start, site.end, print_expr(inner)),
        Expr::Threshold { name, value } => format!("reached({name}, {})", print_expr(value)),
        Expr::Select(condition, then, otherwise) => format!(
            "({} ? {} : {})",
            print_expr(condition),
            print_expr(then),
            print_expr(otherwise)
        ),
        Expr::Prim(op, args) => {
            let infix = match op {
                Op::AddW => Some("+"),
                Op::SubW => Some("-"),
                Op::MulW => Some("*"),
                Op::DivI => Some("/"),
                Op::LtI => Some("<"),
                Op::LteI => Some("<="),
                Op::GtI => Some(">"),
                Op::GteI => Some(">="),
                Op::EqI => Some("=="),
                _ => None,
            };
            match (infix, args.as_slice()) {
                (Some(symbol), [a, b]) => format!("({} {symbol} {})", print_expr(a), print_expr(b)),
                // resi(n, a) is a mod n.
                (None, [n, a]) if *op == Op::ResI => format!("({} % {})", print_expr(a), print_expr(n)),
                _ => {
                    let args: Vec<String> = args.iter().map(print_expr).collect();
                    format!("{}({})", op.name(), args.join(", "))
                }
            }
        }
    }
}
