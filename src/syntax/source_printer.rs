//! The APL source printer: writes an AST back as APL text that parses to the same AST (spans aside). It is the
//! canonical layout of a program — one statement per line, blanks only where tokens would otherwise run together —
//! and the other half of the round-trip property `parse(print(parse(text))) == parse(text)`.
//!
//! Comments that are not annotations are not reproduced (they have no place in the tree); annotations are written
//! where the parser finds them: `⍝:` right after a dfn's `{`, and alone on the line above an annotated statement.
//!
//! A tradfn label is written `NAME:` on a line of its own and a branch `→TARGET`. A label's `line` (its line number
//! in the function) is not kept: it comes from the layout, and this printer lays a function out in its own way (one
//! statement per line, comments and blank lines dropped, `⋄` lines split). So the round trip holds modulo label line
//! numbers, and the round-trip tests compare with them blanked out. The branches still go to the same labels; only a
//! branch to a literal line number (`→3`) can change its meaning, which is why Dyalog code branches to labels.

use crate::syntax::ast::{
    AssignTarget, Assignment, Comment, Condition, Control, Dfn, Expr, Item, Primitive, Program, Statement,
    StatementKind, Tradfn,
};
use crate::syntax::printer::{format_number, tradfn_header_text};
use crate::syntax::token::{special_name_glyph, Keyword};

pub fn print_program_as_apl(program: &Program) -> String {
    let mut printer = SourcePrinter {
        output: String::new(),
        indentation: 0,
    };
    for statement in &program.statements {
        printer.statement_on_its_own_line(statement);
    }
    printer.output
}

struct SourcePrinter {
    output: String,
    indentation: usize,
}

/// How the edge of a printed item looks to the lexer, to decide whether a blank is needed between two items.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ItemEdge {
    Primitive(Primitive),
    Numbers,
    /// A name, string, special, bracket or brace: needs a blank next to another item of this kind.
    Other,
}

fn left_edge(item: &Item) -> ItemEdge {
    match item {
        Item::Primitive(primitive, _) => ItemEdge::Primitive(*primitive),
        Item::Numbers(..) => ItemEdge::Numbers,
        Item::Indexed { base, .. } => left_edge(base),
        _ => ItemEdge::Other,
    }
}

fn right_edge(item: &Item) -> ItemEdge {
    match item {
        Item::Primitive(primitive, _) => ItemEdge::Primitive(*primitive),
        Item::Numbers(..) => ItemEdge::Numbers,
        _ => ItemEdge::Other,
    }
}

/// Two items may touch when one is a primitive glyph, except where the lexer would join them into something else:
/// `∘` `.` (would be `∘.`), `∘.` before a number (`∘.1` lexes as `∘` `.1`), and `.` next to a number (`1.`, `.5`).
fn needs_blank_between(left: ItemEdge, right: ItemEdge) -> bool {
    match (left, right) {
        (ItemEdge::Primitive(Primitive::Jot), ItemEdge::Primitive(Primitive::Dot)) => true,
        (ItemEdge::Primitive(Primitive::OuterProduct | Primitive::Dot), ItemEdge::Numbers) => true,
        (ItemEdge::Numbers, ItemEdge::Primitive(Primitive::Dot)) => true,
        (ItemEdge::Primitive(_), _) | (_, ItemEdge::Primitive(_)) => false,
        _ => true,
    }
}

impl SourcePrinter {
    fn new_line(&mut self) {
        self.output.push('\n');
        self.output.push_str(&"  ".repeat(self.indentation));
    }

    /// A statement starting at the current (already indented) position, preceded by its annotation line.
    fn statement_on_its_own_line(&mut self, statement: &Statement) {
        if let Some(annotation) = &statement.annotation {
            self.comment(annotation);
            self.new_line();
        }
        self.statement(statement);
        self.output.push('\n');
        if self.indentation > 0 {
            self.output.push_str(&"  ".repeat(self.indentation));
        }
    }

    fn comment(&mut self, comment: &Comment) {
        self.output.push('⍝');
        self.output.push_str(&comment.text);
    }

    fn statement(&mut self, statement: &Statement) {
        match &statement.kind {
            StatementKind::Expr(expression) => self.expression(expression),
            StatementKind::Guard { condition, result } => {
                self.expression(condition);
                self.output.push(':');
                self.expression(result);
            }
            StatementKind::Tradfn(tradfn) => self.tradfn(tradfn),
            StatementKind::Control(control) => self.control(control),
        }
    }

    fn expression(&mut self, expression: &Expr) {
        let mut previous: Option<ItemEdge> = None;
        for item in &expression.items {
            self.item_after(previous, item);
            previous = Some(right_edge(item));
        }
        if let Some(assignment) = &expression.assignment {
            if previous.is_some_and(|edge| needs_blank_between(edge, ItemEdge::Other)) {
                self.output.push(' ');
            }
            self.assignment(assignment);
        }
    }

    fn item_after(&mut self, previous: Option<ItemEdge>, item: &Item) {
        if previous.is_some_and(|edge| needs_blank_between(edge, left_edge(item))) {
            self.output.push(' ');
        }
        self.item(item);
    }

    fn assignment(&mut self, assignment: &Assignment) {
        match &assignment.target {
            AssignTarget::Name(name) | AssignTarget::SystemName(name) => self.output.push_str(&name.text),
            AssignTarget::QuadOutput(_) => self.output.push('⎕'),
            AssignTarget::Alpha(_) => self.output.push('⍺'),
            AssignTarget::Names(names, _) => {
                let names: Vec<&str> = names.iter().map(|name| name.text.as_str()).collect();
                self.output.push_str(&format!("({})", names.join(" ")));
            }
            AssignTarget::Selection(selection, _) => {
                self.output.push('(');
                self.expression(selection);
                self.output.push(')');
            }
        }
        if let Some(indices) = &assignment.indices {
            self.indices(indices);
        }
        let mut previous = Some(ItemEdge::Other);
        for item in &assignment.modifier {
            self.item_after(previous, item);
            previous = Some(right_edge(item));
        }
        self.output.push('←');
        self.expression(&assignment.value);
    }

    fn indices(&mut self, indices: &[Option<Expr>]) {
        self.output.push('[');
        for (position, index) in indices.iter().enumerate() {
            if position > 0 {
                self.output.push(';');
            }
            if let Some(expression) = index {
                self.expression(expression);
            }
        }
        self.output.push(']');
    }

    fn item(&mut self, item: &Item) {
        match item {
            Item::Numbers(numbers, _) => {
                let printed: Vec<String> = numbers.iter().map(|number| format_number(*number)).collect();
                self.output.push_str(&printed.join(" "));
            }
            Item::String(text, _) => {
                self.output.push('\'');
                self.output.push_str(&text.replace('\'', "''"));
                self.output.push('\'');
            }
            Item::Zilde(_) => self.output.push('⍬'),
            Item::Name(name) | Item::SystemName(name) => self.output.push_str(&name.text),
            Item::Special(special, _) => self.output.push_str(special_name_glyph(*special)),
            Item::Primitive(primitive, _) => self.output.push_str(primitive.glyph()),
            Item::Parenthesised(inner, _) => {
                self.output.push('(');
                self.expression(inner);
                self.output.push(')');
            }
            Item::Dfn(dfn) => self.dfn(dfn),
            Item::Indexed { base, indices, .. } => {
                self.item(base);
                self.indices(indices);
            }
        }
    }

    /// One line with `⋄` unless an annotation needs its own line; then one statement per line.
    fn dfn(&mut self, dfn: &Dfn) {
        self.output.push('{');
        let needs_lines = dfn.annotation.is_some() || dfn.body.iter().any(|statement| statement.annotation.is_some());
        if !needs_lines {
            for (position, statement) in dfn.body.iter().enumerate() {
                if position > 0 {
                    self.output.push_str(" ⋄ ");
                }
                self.statement(statement);
            }
            self.output.push('}');
            return;
        }
        if let Some(annotation) = &dfn.annotation {
            self.comment(annotation);
        }
        self.indentation += 1;
        self.new_line();
        for statement in &dfn.body {
            self.statement_on_its_own_line(statement);
        }
        self.indentation -= 1;
        // Replace the indentation written after the last statement by the closing brace's own.
        while self.output.ends_with(' ') {
            self.output.pop();
        }
        self.output.push_str(&"  ".repeat(self.indentation));
        self.output.push('}');
    }
}

impl SourcePrinter {
    /// Statements one per line (each after its annotation line), indented one more level than the line that holds
    /// the keyword or header before them. Leaves the output at the start of a fresh line at the current indentation.
    fn indented_lines(&mut self, statements: &[Statement]) {
        self.indentation += 1;
        for statement in statements {
            self.new_line();
            if let Some(annotation) = &statement.annotation {
                self.comment(annotation);
                self.new_line();
            }
            self.statement(statement);
        }
        self.indentation -= 1;
        self.new_line();
    }

    /// `∇ HEADER;LOCALS`, the body indented, and `∇` alone on the last line.
    fn tradfn(&mut self, tradfn: &Tradfn) {
        self.output.push_str("∇ ");
        self.output.push_str(&tradfn_header_text(tradfn));
        for local in &tradfn.locals {
            self.output.push(';');
            self.output.push_str(&local.text);
        }
        self.indented_lines(&tradfn.body);
        self.output.push('∇');
    }

    /// A control structure with each keyword on its own line and the nested statements indented between them.
    fn control(&mut self, control: &Control) {
        match control {
            Control::Branch { target, .. } => {
                self.output.push('→');
                self.expression(target);
            }
            Control::Label { name, .. } => {
                self.output.push_str(&name.text);
                self.output.push(':');
            }
            Control::If { clauses, otherwise } => {
                for (position, (condition, body)) in clauses.iter().enumerate() {
                    let keyword = if position == 0 { Keyword::If } else { Keyword::ElseIf };
                    self.keyword_condition(keyword, condition);
                    self.indented_lines(body);
                }
                self.otherwise(otherwise.as_deref());
                self.output.push_str(Keyword::EndIf.spelling());
            }
            Control::While { condition, body, until } => {
                self.keyword_condition(Keyword::While, condition);
                self.indented_lines(body);
                match until {
                    Some(until) => self.keyword_condition(Keyword::Until, until),
                    None => self.output.push_str(Keyword::EndWhile.spelling()),
                }
            }
            Control::Repeat { body, until } => {
                self.output.push_str(Keyword::Repeat.spelling());
                self.indented_lines(body);
                match until {
                    Some(until) => self.keyword_condition(Keyword::Until, until),
                    None => self.output.push_str(Keyword::EndRepeat.spelling()),
                }
            }
            Control::For { variable, values, body } => {
                self.output.push_str(Keyword::For.spelling());
                self.output.push(' ');
                self.output.push_str(&variable.text());
                self.output.push(' ');
                self.keyword_expression(Keyword::In, values);
                self.indented_lines(body);
                self.output.push_str(Keyword::EndFor.spelling());
            }
            Control::Select {
                value,
                cases,
                otherwise,
            } => {
                self.keyword_expression(Keyword::Select, value);
                self.new_line();
                for case in cases {
                    let keyword = if case.list { Keyword::CaseList } else { Keyword::Case };
                    self.keyword_expression(keyword, &case.value);
                    self.indented_lines(&case.body);
                }
                self.otherwise(otherwise.as_deref());
                self.output.push_str(Keyword::EndSelect.spelling());
            }
            Control::Return(_) => self.output.push_str(Keyword::Return.spelling()),
            Control::Leave(_) => self.output.push_str(Keyword::Leave.spelling()),
            Control::Continue(_) => self.output.push_str(Keyword::Continue.spelling()),
        }
    }

    /// `:Else` and its statements, when there is an `:Else` part (the output is at the start of a line).
    fn otherwise(&mut self, otherwise: Option<&[Statement]>) {
        if let Some(body) = otherwise {
            self.output.push_str(Keyword::Else.spelling());
            self.indented_lines(body);
        }
    }

    fn keyword_expression(&mut self, keyword: Keyword, expression: &Expr) {
        self.output.push_str(keyword.spelling());
        self.output.push(' ');
        self.expression(expression);
    }

    /// `:If c`, then an `:AndIf` or `:OrIf` line for each further part of the condition.
    fn keyword_condition(&mut self, keyword: Keyword, condition: &Condition) {
        self.keyword_expression(keyword, &condition.first);
        let joiner = if condition.all { Keyword::AndIf } else { Keyword::OrIf };
        for expression in &condition.more {
            self.new_line();
            self.keyword_expression(joiner, expression);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::source::SourceFile;
    use crate::syntax::{parse_program, print_program_as_apl};

    fn reprinted(text: &str) -> String {
        let program = parse_program(&SourceFile::new("test.apl", text)).expect("test programs parse");
        print_program_as_apl(&program)
    }

    #[test]
    fn primitives_touch_their_neighbours() {
        assert_eq!(reprinted("2 × x ← 3"), "2×x←3\n");
        assert_eq!(reprinted("x + ← 1"), "x+←1\n");
        assert_eq!(reprinted("a +.× b"), "a+.×b\n");
        assert_eq!(reprinted("( ⍳ 3 ) ∘.× ⍳ 4"), "(⍳3)∘.×⍳4\n");
    }

    #[test]
    fn blanks_stay_where_tokens_would_run_together() {
        // Jot then the inner-product dot must not become the outer-product token.
        assert_eq!(reprinted("f∘ .g"), "f∘ .g\n");
        // A number before the dot operator must not absorb it as a decimal point.
        assert_eq!(reprinted("1 .+"), "1 .+\n");
        assert_eq!(reprinted("⍺ ⍺ 'a' 'b'"), "⍺ ⍺ 'a' 'b'\n");
    }

    #[test]
    fn numbers_print_as_apl_literals_of_the_same_type() {
        assert_eq!(reprinted("¯3 1.5E¯3 1E3 2J¯1 .5"), "¯3 0.0015 1000.0 2.0J¯1.0 0.5\n");
        assert_eq!(reprinted("2∘.5"), "2∘0.5\n");
    }

    #[test]
    fn one_line_dfn_uses_diamonds() {
        assert_eq!(reprinted("{\n⍵=0:1\n⍵×∇ ⍵-1\n} 5"), "{⍵=0:1 ⋄ ⍵×∇ ⍵-1} 5\n");
    }

    #[test]
    fn annotated_dfn_and_statement_keep_their_lines() {
        assert_eq!(reprinted("f←{⍝: int → int\n⍵}"), "f←{⍝: int → int\n  ⍵\n}\n");
        assert_eq!(reprinted("⍝: x : int\nx←1"), "⍝: x : int\nx←1\n");
    }

    #[test]
    fn indexing_and_assignment_brackets() {
        assert_eq!(reprinted("A[ ; 2 ]←0 ⋄ 1 2 3[2]"), "A[;2]←0\n1 2 3[2]\n");
    }

    #[test]
    fn tradfn_with_control_structures_has_one_keyword_per_line() {
        let text = "∇ {R}←{A} F B;i;⎕IO\n⎕IO←1 ⋄ :If A ⋄ R←1 ⋄ :ElseIf B ⋄ :AndIf 1 ⋄ :Else ⋄ R←{⍵} 2 ⋄ :EndIf\n\
                    :For i :In ⍳B ⋄ :While i ⋄ :OrIf 0 ⋄ :Leave ⋄ :EndWhile ⋄ :EndFor\n\
                    :Repeat ⋄ :Continue ⋄ :Until 1\n:Repeat ⋄ :End\n\
                    :Select B ⋄ :Case 1 ⋄ :CaseList 2 3 ⋄ R←0 ⋄ :Else ⋄ :Return ⋄ :EndSelect\n∇";
        assert_eq!(
            reprinted(text),
            "∇ {R}←{A} F B;i;⎕IO\n  ⎕IO←1\n  :If A\n    R←1\n  :ElseIf B\n  :AndIf 1\n  :Else\n    R←{⍵} 2\n  :EndIf\n  \
             :For i :In ⍳B\n    :While i\n    :OrIf 0\n      :Leave\n    :EndWhile\n  :EndFor\n  \
             :Repeat\n    :Continue\n  :Until 1\n  :Repeat\n  :EndRepeat\n  \
             :Select B\n  :Case 1\n  :CaseList 2 3\n    R←0\n  :Else\n    :Return\n  :EndSelect\n∇\n"
        );
        assert_eq!(reprinted(&reprinted(text)), reprinted(text));
    }

    #[test]
    fn labels_stand_on_their_own_line_and_branches_keep_their_arrow() {
        let text = "∇ R←F N\nR←0\nLOOP: R←R+1 ⋄ N←N-1\n→(N>0)/LOOP\n:If N ⋄ →0 ⋄ :EndIf\nEND:\n∇";
        assert_eq!(
            reprinted(text),
            "∇ R←F N\n  R←0\n  LOOP:\n  R←R+1\n  N←N-1\n  →(N>0)/LOOP\n  :If N\n    →0\n  :EndIf\n  END:\n∇\n"
        );
        assert_eq!(reprinted(&reprinted(text)), reprinted(text));
    }

    #[test]
    fn annotations_inside_a_tradfn_keep_their_lines() {
        assert_eq!(
            reprinted("∇ F\n⍝: x : int\nx←{⍝: int → int\n⍵} 1\n∇"),
            "∇ F\n  ⍝: x : int\n  x←{⍝: int → int\n    ⍵\n  } 1\n∇\n"
        );
    }
}
