//! The thesis' TAIL interpreter prints a program's value when it ends; `aplc run prog.tail` does the same on every
//! backend. Rather than teach each backend to display a result, the program is rewritten to `print` its value with
//! ⎕PP 10, so that the value goes through the one display every backend already shares: `e` becomes
//! `print(10, e)`. A tuple prints each component in order (as the interpreter's display of a tuple shows them one
//! after another); the `let`s around the value stay where they are; a function value is left alone (there is
//! nothing to display).

use super::ast::{Expr, ExprKind, Program};
use super::ops::Op;

/// The program, made to print its value when it ends.
pub fn printing_program_value(program: Program) -> Program {
    Program {
        body: printing_value(program.body),
        ..program
    }
}

fn printing_value(expr: Expr) -> Expr {
    let span = expr.span;
    match expr.kind {
        ExprKind::Let { name, ty, value, body } => Expr::new(
            ExprKind::Let {
                name,
                ty,
                value,
                body: Box::new(printing_value(*body)),
            },
            span,
        ),
        ExprKind::Tuple(components) => Expr::new(
            ExprKind::Tuple(components.into_iter().map(printing_value).collect()),
            span,
        ),
        kind @ (ExprKind::Lambda { .. } | ExprKind::OpRef(_)) => Expr::new(kind, span),
        kind => {
            let printed = Expr::new(kind, span);
            let mut print = Expr::op(
                Op::Print,
                vec![Expr::int(i64::from(super::interp::PRINT_PRECISION)), printed],
            );
            print.span = span;
            print
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;
    use crate::tail::{parse_program, print_program};

    fn rewritten(text: &str) -> String {
        let program = parse_program(&SourceFile::new("t.tail", text)).expect("a TAIL program");
        print_program(&printing_program_value(program))
    }

    #[test]
    fn the_value_under_the_lets_is_printed() {
        assert_eq!(
            rewritten("let x = iotaV(3) in x"),
            print_program(&parse_program(&SourceFile::new("e.tail", "let x = iotaV(3) in print(10, x)")).unwrap())
        );
    }

    #[test]
    fn each_component_of_a_tuple_is_printed_in_order() {
        assert_eq!(
            rewritten("(1, [2,3])"),
            print_program(&parse_program(&SourceFile::new("e.tail", "(print(10, 1), print(10, [2,3]))")).unwrap())
        );
    }
}
