//! The AST printer: the project's readable S-expression form of a program, used by snapshots and `--dump parse`.
//!
//! One top-level statement per line. Items print as `(num 1 2 3)`, `(str 'it''s')`, `(name x)`, `(sys ⎕PP)`,
//! `(special ⍵)`, `(prim +)`, `(zilde)`, `(paren SEQ)`, `(index BASE AXIS...)` with `_` for an elided axis, and
//! `(dfn ...)` whose statements go on their own, indented lines. An expression is `(seq ITEM...)`, ending in
//! `(assign TARGET [(at AXIS...)] [(modify ITEM...)] VALUE)` when it assigns. Guards are `(guard CONDITION RESULT)`,
//! annotations `(annotated "TEXT" STATEMENT)` and `(dfn (type "TEXT") ...)`. Comments follow the statements as
//! `(comment "TEXT")`. Spans are omitted. Numbers print in APL notation: `¯` for minus, integers without a point,
//! floats always with one (`1000.0`), complex numbers as `aJb`. A traditional function is `(tradfn (header R←A F B)
//! (locals L...)` and control structures `(if (clause COND ...) (else ...))`, `(while COND ...)`, `(repeat ...
//! (until COND))`, `(for NAME VALUES ...)`, `(select VALUE (case V ...) (caselist VS ...) (else ...))`, `(return)`,
//! `(leave)`, `(continue)`, their statements on their own, indented lines, branches `(branch TARGET)` and labels
//! `(label NAME LINE)` with the label's line number in its function (grammar.md, section 7).

use std::fmt::Write as _;

use crate::syntax::ast::{
    AssignTarget, Assignment, Condition, Control, Dfn, Expr, Item, NumberLiteral, Program, Statement, StatementKind,
    Tradfn,
};
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
            StatementKind::Tradfn(tradfn) => self.tradfn(tradfn),
            StatementKind::Control(control) => self.control(control),
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
            AssignTarget::Selection(selection, _) => {
                self.output.push_str("(select ");
                self.expression(selection);
                self.output.push(')');
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

impl Printer {
    /// Each statement on its own line, indented two more spaces (the caller closes the parenthesis).
    fn block(&mut self, statements: &[Statement]) {
        self.indentation += 2;
        for statement in statements {
            self.output.push('\n');
            self.output.push_str(&" ".repeat(self.indentation));
            self.statement(statement);
        }
        self.indentation -= 2;
    }

    /// `(tradfn (header R←A F B) [(locals L...)]` then the body, one statement per line.
    fn tradfn(&mut self, tradfn: &Tradfn) {
        let _ = write!(self.output, "(tradfn (header {})", tradfn_header_text(tradfn));
        if !tradfn.locals.is_empty() {
            let locals: Vec<&str> = tradfn.locals.iter().map(|name| name.text.as_str()).collect();
            let _ = write!(self.output, " (locals {})", locals.join(" "));
        }
        self.block(&tradfn.body);
        self.output.push(')');
    }

    /// `(if (clause COND ...) ... [(else ...)])`, `(while COND ...)`, `(repeat ... [(until COND)])`,
    /// `(for NAME VALUES ...)`, `(select VALUE (case V ...) (caselist VS ...) [(else ...)])`, `(return)`, `(leave)`,
    /// `(continue)`, `(branch TARGET)`, `(label NAME LINE)`; each nested statement on its own line.
    fn control(&mut self, control: &Control) {
        match control {
            Control::Branch { target, .. } => {
                self.output.push_str("(branch ");
                self.expression(target);
                self.output.push(')');
            }
            Control::Label { name, line } => {
                let _ = write!(self.output, "(label {} {line})", name.text);
            }
            Control::If { clauses, otherwise } => {
                self.output.push_str("(if");
                self.indentation += 2;
                for (condition, body) in clauses {
                    self.new_line();
                    self.output.push_str("(clause ");
                    self.condition(condition);
                    self.block(body);
                    self.output.push(')');
                }
                self.otherwise(otherwise.as_deref());
                self.indentation -= 2;
                self.output.push(')');
            }
            Control::While { condition, body, until } => {
                self.output.push_str("(while ");
                self.condition(condition);
                self.block(body);
                self.until(until.as_ref());
                self.output.push(')');
            }
            Control::Repeat { body, until } => {
                self.output.push_str("(repeat");
                self.block(body);
                self.until(until.as_ref());
                self.output.push(')');
            }
            Control::For { variable, values, body } => {
                let _ = write!(self.output, "(for {} ", variable.text());
                self.expression(values);
                self.block(body);
                self.output.push(')');
            }
            Control::Select {
                value,
                cases,
                otherwise,
            } => {
                self.output.push_str("(select ");
                self.expression(value);
                self.indentation += 2;
                for case in cases {
                    self.new_line();
                    self.output.push_str(if case.list { "(caselist " } else { "(case " });
                    self.expression(&case.value);
                    self.block(&case.body);
                    self.output.push(')');
                }
                self.otherwise(otherwise.as_deref());
                self.indentation -= 2;
                self.output.push(')');
            }
            Control::Return(_) => self.output.push_str("(return)"),
            Control::Leave(_) => self.output.push_str("(leave)"),
            Control::Continue(_) => self.output.push_str("(continue)"),
        }
    }

    fn new_line(&mut self) {
        self.output.push('\n');
        self.output.push_str(&" ".repeat(self.indentation));
    }

    /// `(else ...)` on its own line, when there is an `:Else` part.
    /// The `:Until` line that ends a `:Repeat` or `:While`, when it has one.
    fn until(&mut self, until: Option<&Condition>) {
        if let Some(until) = until {
            self.indentation += 2;
            self.new_line();
            self.output.push_str("(until ");
            self.condition(until);
            self.output.push(')');
            self.indentation -= 2;
        }
    }

    fn otherwise(&mut self, otherwise: Option<&[Statement]>) {
        if let Some(body) = otherwise {
            self.new_line();
            self.output.push_str("(else");
            self.block(body);
            self.output.push(')');
        }
    }

    /// A condition alone is its expression; with `:AndIf`s it is `(andif FIRST MORE...)`, with `:OrIf`s
    /// `(orif FIRST MORE...)`.
    fn condition(&mut self, condition: &Condition) {
        if condition.more.is_empty() {
            self.expression(&condition.first);
            return;
        }
        self.output.push_str(if condition.all { "(andif " } else { "(orif " });
        self.expression(&condition.first);
        for expression in &condition.more {
            self.output.push(' ');
            self.expression(expression);
        }
        self.output.push(')');
    }
}

/// A tradfn's header as APL writes it, without the `∇` and the locals: `{R}←{A} F B`.
pub fn tradfn_header_text(tradfn: &Tradfn) -> String {
    let mut text = String::new();
    if let Some(result) = &tradfn.result {
        if tradfn.shy_result {
            let _ = write!(text, "{{{}}}←", result.text);
        } else {
            let _ = write!(text, "{}←", result.text);
        }
    }
    if let Some(left) = &tradfn.left {
        if tradfn.optional_left {
            let _ = write!(text, "{{{}}} ", left.text());
        } else {
            let _ = write!(text, "{} ", left.text());
        }
    }
    text.push_str(&tradfn.name.text);
    if let Some(right) = &tradfn.right {
        let _ = write!(text, " {}", right.text());
    }
    text
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
