//! The AST printer: the project's readable S-expression form of a program, used by snapshots and `--dump parse`.
//!
//! One top-level statement per line. Items print as `(num 1 2 3)`, `(str 'it''s')`, `(name x)`, `(sys ⎕PP)`,
//! `(special ⍵)`, `(prim +)`, `(zilde)`, `(paren SEQ)`, `(index BASE AXIS...)` with `_` for an elided axis, and
//! `(dfn ...)` whose statements go on their own, indented lines. An expression is `(seq ITEM...)`, ending in
//! `(assign TARGET [(at AXIS...)] [(modify ITEM...)] VALUE)` when it assigns. Guards are `(guard CONDITION RESULT)`,
//! annotations `(annotated "TEXT" STATEMENT)` and `(dfn (type "TEXT") ...)`. Comments follow the statements as
//! `(comment "TEXT")`. Spans are omitted. Numbers print in APL notation: `¯` for minus, integers without a point,
//! floats always with one (`1000.0`), complex numbers as `aJb`.

use std::fmt::Write as _;

use crate::syntax::ast::{AssignTarget, Assignment, Dfn, Expr, Item, NumberLiteral, Program, Statement, StatementKind};
use crate::syntax::token::special_name_glyph;

pub fn print_program(program: &Program) -> String {
    let mut printer = Printer {
        output: String::new(),
        indentation: 0,
    };
    for statement in &program.statements {
        printer.statement(statement);
        printer.output.push('\n');
    }
    for comment in &program.comments {
        let _ = writeln!(printer.output, "(comment {:?})", comment.text);
    }
    printer.output
}

struct Printer {
    output: String,
    indentation: usize,
}

impl Printer {
    fn statement(&mut self, statement: &Statement) {
        if let Some(annotation) = &statement.annotation {
            let _ = write!(
                self.output,
                "(annotated {:?} ",
                annotation.annotation_text().unwrap_or(&annotation.text)
            );
        }
        match &statement.kind {
            StatementKind::Expr(expression) => self.expression(expression),
            StatementKind::Guard { condition, result } => {
                self.output.push_str("(guard ");
                self.expression(condition);
                self.output.push(' ');
                self.expression(result);
                self.output.push(')');
            }
            StatementKind::Tradfn(_) | StatementKind::Control(_) => self.output.push_str("(tradfn)"),
        }
        if statement.annotation.is_some() {
            self.output.push(')');
        }
    }

    /// `(seq ITEM... [ASSIGNMENT])`, or just the assignment when nothing precedes it.
    fn expression(&mut self, expression: &Expr) {
        if expression.items.is_empty() {
            if let Some(assignment) = &expression.assignment {
                self.assignment(assignment);
                return;
            }
        }
        self.output.push_str("(seq");
        for item in &expression.items {
            self.output.push(' ');
            self.item(item);
        }
        if let Some(assignment) = &expression.assignment {
            self.output.push(' ');
            self.assignment(assignment);
        }
        self.output.push(')');
    }

    fn assignment(&mut self, assignment: &Assignment) {
        self.output.push_str("(assign ");
        match &assignment.target {
            AssignTarget::Name(name) | AssignTarget::SystemName(name) => self.output.push_str(&name.text),
            AssignTarget::QuadOutput(_) => self.output.push('⎕'),
            AssignTarget::Alpha(_) => self.output.push('⍺'),
            AssignTarget::Names(names, _) => {
                let names: Vec<&str> = names.iter().map(|name| name.text.as_str()).collect();
                self.output.push_str(&format!("({})", names.join(" ")));
            }
        }
        if let Some(indices) = &assignment.indices {
            self.output.push_str(" (at");
            self.axes(indices);
            self.output.push(')');
        }
        if !assignment.modifier.is_empty() {
            self.output.push_str(" (modify");
            for item in &assignment.modifier {
                self.output.push(' ');
                self.item(item);
            }
            self.output.push(')');
        }
        self.output.push(' ');
        self.expression(&assignment.value);
        self.output.push(')');
    }

    /// ` AXIS AXIS...` with `_` for an elided axis.
    fn axes(&mut self, indices: &[Option<Expr>]) {
        for index in indices {
            self.output.push(' ');
            match index {
                Some(expression) => self.expression(expression),
                None => self.output.push('_'),
            }
        }
    }

    fn item(&mut self, item: &Item) {
        match item {
            Item::Numbers(numbers, _) => {
                let printed: Vec<String> = numbers.iter().map(|number| format_number(*number)).collect();
                let _ = write!(self.output, "(num {})", printed.join(" "));
            }
            Item::String(text, _) => {
                let _ = write!(self.output, "(str '{}')", text.replace('\'', "''"));
            }
            Item::Zilde(_) => self.output.push_str("(zilde)"),
            Item::Name(name) => {
                let _ = write!(self.output, "(name {})", name.text);
            }
            Item::SystemName(name) => {
                let _ = write!(self.output, "(sys {})", name.text);
            }
            Item::Special(special, _) => {
                let _ = write!(self.output, "(special {})", special_name_glyph(*special));
            }
            Item::Primitive(primitive, _) => {
                let _ = write!(self.output, "(prim {})", primitive.glyph());
            }
            Item::Parenthesised(inner, _) => {
                self.output.push_str("(paren ");
                self.expression(inner);
                self.output.push(')');
            }
            Item::Dfn(dfn) => self.dfn(dfn),
            Item::Indexed { base, indices, .. } => {
                self.output.push_str("(index ");
                self.item(base);
                self.axes(indices);
                self.output.push(')');
            }
        }
    }

    /// `(dfn` then each body statement on its own line, indented two more spaces, then `)`.
    fn dfn(&mut self, dfn: &Dfn) {
        self.output.push_str("(dfn");
        if let Some(annotation) = &dfn.annotation {
            let _ = write!(
                self.output,
                " (type {:?})",
                annotation.annotation_text().unwrap_or(&annotation.text)
            );
        }
        self.indentation += 2;
        for statement in &dfn.body {
            self.output.push('\n');
            self.output.push_str(&" ".repeat(self.indentation));
            self.statement(statement);
        }
        self.indentation -= 2;
        self.output.push(')');
    }
}

/// A number in APL notation: `¯` for minus; floats keep a `.0` (or an exponent) so that they differ from integers.
pub fn format_number(number: NumberLiteral) -> String {
    let text = match number {
        NumberLiteral::Int(integer) => integer.to_string(),
        NumberLiteral::Float(float) => format!("{float:?}"),
        NumberLiteral::Complex(real, imaginary) => format!("{real:?}J{imaginary:?}"),
    };
    text.replace('-', "¯").replace('e', "E")
}
