//! Property tests of the syntax layer on random text: `parse_program` never panics, a failure always carries at
//! least one error, every error span lies on character boundaries inside the text (so that miette can draw it), and
//! both the AST printer and the error renderer accept whatever the parser returns.

mod syntax_support;

use aplc::source::SourceFile;
use aplc::source::Span;
use aplc::syntax::ast::{
    AssignTarget, Condition, Control, Expr, Item, NamePattern, Program, Statement, StatementKind, Tradfn,
};
use aplc::syntax::lexer::canonical_glyph;
use aplc::syntax::{parse_program, print_program, print_program_as_apl, render_errors_plain};
use proptest::prelude::*;
use syntax_support::without_label_line_numbers;

/// Characters that exercise every lexer path: glyphs, digits, letters, quotes, brackets, separators, blanks and a
/// few characters that are not APL at all.
const CHARACTER_POOL: &[&str] = &[
    "+", "-", "×", "÷", "|", "⌈", "⌊", "*", "⍟", "○", "!", "?", "~", "∧", "∨", "⍲", "⍱", "<", "≤", "=", "≥", ">", "≠",
    "⍴", ",", "⍪", "⌽", "⊖", "⍉", "↑", "↓", "⊃", "⊂", "⍳", "≢", "≡", "⍋", "⍒", "⊣", "⊢", "⌷", "⍕", "⍎", "∊", "⍸", "⊥",
    "⊤", "⌹", "∪", "∩", "/", "⌿", "\\", "⍀", "¨", "∘", ".", "⍣", "⍨", "⍤", "⌸", "⌺", "@", "⍺", "⍵", "∇", "⎕", "⍬", "0",
    "1", "2", "9", "E", "J", "e", "j", "a", "x", "Z", "_", "∆", "⍙", "'", "\"", "(", ")", "[", "]", "{", "}", " ", " ",
    " ", "\n", "\r\n", "\t", "¯", "⍝", "⋄", "←", ":", ";", "→", "⊆", "§", "é", "e\u{301}", "\u{0}", "🙂",
];

/// Whole tokens, so that random programs get past the lexer more often and reach deep parser states.
const TOKEN_POOL: &[&str] = &[
    "1",
    "¯2.5",
    "1E3",
    "2J¯1",
    "'a''b'",
    "x",
    "y",
    "⎕PP",
    "⎕",
    "⍬",
    "⍺",
    "⍵",
    "⍺⍺",
    "∇",
    "+",
    "×",
    "⍴",
    "/",
    "∘.",
    ".",
    "¨",
    "⍨",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ";",
    "←",
    ":",
    "⋄",
    "\n",
    "⍝: int\n",
    "⍝ c\n",
    ":If",
    ":EndIf",
    ":For",
    ":In",
    ":Else",
    ":While",
    ":Until",
    ":Leave",
    "∇",
    "∇ R←A F B;x",
    "→",
    "L:",
];

fn random_text_from(
    pool: &'static [&'static str],
    max_length: usize,
    separator: &'static str,
) -> BoxedStrategy<String> {
    prop::collection::vec(prop::sample::select(pool), 0..max_length)
        .prop_map(move |pieces| pieces.join(separator))
        .boxed()
}

fn check_parse_is_total(text: &str) {
    let file = SourceFile::new("fuzz.apl", text);
    match parse_program(&file) {
        Ok(program) => check_round_trip(text, &program),
        Err(errors) => {
            assert!(
                !errors.errors.is_empty(),
                "a failed parse must report at least one error: {text:?}"
            );
            for error in &errors.errors {
                assert!(
                    error.span.start <= error.span.end && error.span.end <= text.len(),
                    "{error:?} in {text:?}"
                );
                assert!(text.is_char_boundary(error.span.start) && text.is_char_boundary(error.span.end));
                assert!(error.to_string().starts_with("SYNTAX ERROR: "));
            }
            assert!(render_errors_plain(&errors).contains("aplc::syntax::"));
        }
    }
}

/// `parse(print_as_apl(program))` is the same program (compared in the S-expression form, which omits spans; plain
/// comments are not reprinted, so they are left out of the comparison, and neither are label line numbers, which
/// follow the printer's layout).
fn check_round_trip(text: &str, program: &Program) {
    check_spans_of_statements(text, &program.statements);
    let reprinted = print_program_as_apl(program);
    let reparsed = match parse_program(&SourceFile::new("reprinted.apl", reprinted.as_str())) {
        Ok(reparsed) => reparsed,
        Err(errors) => panic!(
            "{text:?} reprinted as {reprinted:?} does not parse:\n{}",
            render_errors_plain(&errors)
        ),
    };
    let statements_only = |program: &Program| {
        without_label_line_numbers(&print_program(&Program {
            statements: program.statements.clone(),
            comments: Vec::new(),
        }))
    };
    assert_eq!(
        statements_only(&reparsed),
        statements_only(program),
        "{text:?} reprinted as {reprinted:?}"
    );
}

/// Every node's span lies inside the text, on character boundaries, and covers text of the right shape: a name's
/// span is the name, a primitive's its glyph, a dfn's starts with `{` and ends with `}`, and so on.
fn check_spans_of_statements(text: &str, statements: &[Statement]) {
    for statement in statements {
        let slice = slice_of(text, statement.span);
        assert!(!slice.is_empty(), "empty statement span in {text:?}");
        match &statement.kind {
            StatementKind::Expr(expression) => check_spans_of_expression(text, expression),
            StatementKind::Guard { condition, result } => {
                check_spans_of_expression(text, condition);
                check_spans_of_expression(text, result);
                assert!(
                    condition.span.end <= result.span.start,
                    "guard parts out of order in {text:?}"
                );
            }
            StatementKind::Tradfn(tradfn) => {
                assert!(slice.starts_with('∇') && slice.ends_with('∇'), "tradfn span {slice:?}");
                assert_eq!(tradfn.span, statement.span);
                let header = slice_of(text, tradfn.header_span);
                assert!(header.contains(&tradfn.name.text), "header span {header:?}");
                assert!(tradfn.span.start < tradfn.header_span.start && tradfn.header_span.end < tradfn.span.end);
                check_spans_of_statements(text, &tradfn.body);
                check_label_lines(text, tradfn);
            }
            StatementKind::Control(control) => {
                let expected_start = match control.as_ref() {
                    Control::Branch { .. } => "→".to_string(),
                    Control::Label { name, .. } => format!("{}:", name.text),
                    _ => ":".to_string(),
                };
                assert!(slice.starts_with(&expected_start), "control statement span {slice:?}");
                check_spans_of_control(text, control);
            }
        }
        if let Some(annotation) = &statement.annotation {
            assert!(slice_of(text, annotation.span).starts_with("⍝:"));
            assert!(annotation.span.end < statement.span.start);
        }
    }
}

/// A label's line is the number of line breaks between its function's opening `∇` and the label.
fn check_label_lines(text: &str, tradfn: &Tradfn) {
    for statement in &tradfn.body {
        if let StatementKind::Control(control) = &statement.kind {
            if let Control::Label { name, line } = control.as_ref() {
                let before = &text[tradfn.span.start..name.span.start];
                assert_eq!(
                    *line,
                    before.matches('\n').count(),
                    "line of the label {} in {text:?}",
                    name.text
                );
            }
        }
    }
}

fn check_spans_of_control(text: &str, control: &Control) {
    let check_condition = |condition: &Condition| {
        check_spans_of_expression(text, &condition.first);
        condition
            .more
            .iter()
            .for_each(|expression| check_spans_of_expression(text, expression));
    };
    match control {
        Control::If { clauses, otherwise } => {
            for (condition, body) in clauses {
                check_condition(condition);
                check_spans_of_statements(text, body);
            }
            check_spans_of_statements(text, otherwise.as_deref().unwrap_or_default());
        }
        Control::While { condition, body, until } => {
            check_condition(condition);
            check_spans_of_statements(text, body);
            until.iter().for_each(check_condition);
        }
        Control::Repeat { body, until } => {
            check_spans_of_statements(text, body);
            until.iter().for_each(check_condition);
        }
        Control::For { variable, values, body } => {
            match variable {
                NamePattern::Name(name) => assert_eq!(slice_of(text, name.span), name.text),
                NamePattern::Names(names, span) => {
                    let list = slice_of(text, *span);
                    assert!(list.starts_with('(') && list.ends_with(')'), "name list {list:?}");
                    for name in names {
                        assert_eq!(slice_of(text, name.span), name.text);
                    }
                }
            }
            check_spans_of_expression(text, values);
            check_spans_of_statements(text, body);
        }
        Control::Select {
            value,
            cases,
            otherwise,
        } => {
            check_spans_of_expression(text, value);
            for case in cases {
                check_spans_of_expression(text, &case.value);
                check_spans_of_statements(text, &case.body);
            }
            check_spans_of_statements(text, otherwise.as_deref().unwrap_or_default());
        }
        Control::Return(span) | Control::Leave(span) | Control::Continue(span) => {
            assert!(slice_of(text, *span).starts_with(':'));
        }
        Control::Branch { target, span } => {
            assert!(slice_of(text, *span).starts_with('→'));
            check_spans_of_expression(text, target);
        }
        Control::Label { name, .. } => assert_eq!(slice_of(text, name.span), name.text),
    }
}

/// The text under `span` with each glyph variant the lexer accepts (`^` for `∧`, `α` for `⍺`, ...) replaced by the
/// Dyalog glyph it stands for, so that spans can be compared with the glyphs of the nodes they belong to.
fn slice_of(text: &str, span: Span) -> String {
    raw_slice_of(text, span)
        .chars()
        .map(|character| canonical_glyph(character.encode_utf8(&mut [0; 4])).to_string())
        .collect()
}

fn raw_slice_of(text: &str, span: Span) -> &str {
    assert!(
        span.start <= span.end && span.end <= text.len(),
        "{span:?} outside {text:?}"
    );
    assert!(
        text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
        "{span:?} splits a character"
    );
    &text[span.start..span.end]
}

fn check_spans_of_expression(text: &str, expression: &Expr) {
    let whole = expression.span;
    slice_of(text, whole);
    for item in &expression.items {
        check_spans_of_item(text, item);
        assert!(
            whole.start <= item.span().start && item.span().end <= whole.end,
            "item outside its expression"
        );
    }
    if let Some(assignment) = &expression.assignment {
        let slice = slice_of(text, assignment.span);
        assert!(slice.contains('←'), "assignment span {slice:?} without ←");
        match &assignment.target {
            AssignTarget::Name(name) | AssignTarget::SystemName(name) => {
                assert_eq!(slice_of(text, name.span), name.text);
            }
            AssignTarget::QuadOutput(span) => assert_eq!(slice_of(text, *span), "⎕"),
            AssignTarget::Alpha(span) => assert_eq!(slice_of(text, *span), "⍺"),
            AssignTarget::Names(names, span) => {
                let list = slice_of(text, *span);
                assert!(list.starts_with('(') && list.ends_with(')'), "name list {list:?}");
                for name in names {
                    assert_eq!(slice_of(text, name.span), name.text);
                }
            }
            AssignTarget::Selection(selection, span) => {
                let parenthesised = slice_of(text, *span);
                assert!(
                    parenthesised.starts_with('(') && parenthesised.ends_with(')'),
                    "selection {parenthesised:?}"
                );
                check_spans_of_expression(text, selection);
            }
        }
        assignment
            .modifier
            .iter()
            .for_each(|item| check_spans_of_item(text, item));
        check_spans_of_expression(text, &assignment.value);
        assert!(
            assignment.value.span.end <= whole.end,
            "assigned value outside its expression"
        );
    }
}

fn check_spans_of_item(text: &str, item: &Item) {
    let slice = slice_of(text, item.span());
    match item {
        Item::Numbers(..) => assert!(slice.starts_with(|c: char| c.is_ascii_digit() || c == '¯' || c == '.')),
        Item::String(..) => assert!(slice.starts_with('\'') && slice.ends_with('\'') && slice.len() >= 2),
        Item::Zilde(_) => assert_eq!(slice, "⍬"),
        Item::Name(name) | Item::SystemName(name) => assert_eq!(slice, name.text),
        Item::Special(..) => assert!(["⍺", "⍵", "⍺⍺", "⍵⍵", "∇", "∇∇"].contains(&slice.as_str())),
        Item::Primitive(primitive, _) => assert_eq!(slice, primitive.glyph()),
        Item::Parenthesised(inner, _) => {
            assert!(slice.starts_with('(') && slice.ends_with(')'));
            check_spans_of_expression(text, inner);
        }
        Item::Dfn(dfn) => {
            assert!(slice.starts_with('{') && slice.ends_with('}'));
            check_spans_of_statements(text, &dfn.body);
        }
        Item::Indexed { base, indices, .. } => {
            assert!(slice.ends_with(']'));
            check_spans_of_item(text, base);
            indices
                .iter()
                .flatten()
                .for_each(|index| check_spans_of_expression(text, index));
        }
    }
}

/// Syntactically valid programs from a small grammar: items separated by blanks, parentheses, dfns with guards,
/// indexing with elided axes, and every kind of assignment.
fn valid_expression() -> impl Strategy<Value = String> {
    let leaf = prop::sample::select(vec![
        "1", "¯2.5", "1 2 3", "1E¯3", "2J1", "'it''s'", "''", "x", "y", "⍺", "⍵", "⍺⍺", "∇", "⍬", "⎕PP", "+", "×", "⍴",
        "/", "¨", "∘.", "∘", ".", "⍨", "⍣",
    ])
    .prop_map(str::to_string);
    leaf.prop_recursive(4, 40, 5, |inner| {
        let items = prop::collection::vec(inner.clone(), 1..5).prop_map(|items| items.join(" "));
        prop_oneof![
            items.clone().prop_map(|items| format!("({items})")),
            items.clone().prop_map(|items| format!("x[{items}]")),
            items.clone().prop_map(|items| format!("M[;{items}]")),
            (items.clone(), items.clone())
                .prop_map(|(condition, result)| format!("{{{condition}:{result} ⋄ {result}}}")),
            (items.clone(), items.clone()).prop_map(|(first, second)| format!("{{\n{first}\n⍝: t\n{second}\n}}")),
            items.clone().prop_map(|items| format!("{{⍝: [int]1 → int\n{items}}}")),
            (items.clone(), items.clone()).prop_map(|(left, value)| format!("{left} x←{value}")),
            items.clone().prop_map(|value| format!("v[1;]+←{value}")),
            items.clone().prop_map(|value| format!("⎕←{value}")),
            items,
        ]
    })
}

/// A statement of `valid_expression`'s grammar that does not start with `∇` (which at the start of a statement
/// begins a tradfn definition, or closes one).
fn valid_statement() -> BoxedStrategy<String> {
    valid_expression()
        .prop_map(|text| {
            if text.starts_with('∇') {
                format!("⊢{text}")
            } else {
                text
            }
        })
        .boxed()
}

/// Lines of a tradfn body: statements of `valid_statement` and branches, and control structures of every kind around
/// them, with conditions, values and branch targets from the same grammar.
fn valid_tradfn_lines() -> impl Strategy<Value = String> {
    let statement_or_branch = prop_oneof![
        3 => valid_statement(),
        1 => valid_statement().prop_map(|target| format!("→{target}")),
    ];
    statement_or_branch.prop_recursive(3, 24, 3, |inner| {
        let lines = prop::collection::vec(inner, 0..3).prop_map(|lines| lines.join("\n"));
        let value = valid_statement();
        prop_oneof![
            (value.clone(), lines.clone()).prop_map(|(condition, body)| format!(":If {condition}\n{body}\n:EndIf")),
            (value.clone(), value.clone(), lines.clone(), lines.clone()).prop_map(
                |(first, second, body, otherwise)| {
                    format!(":if {first} ⋄ :AndIf {second}\n{body}\n:ElseIf {second}\n:Else\n{otherwise}\n:End")
                }
            ),
            (value.clone(), lines.clone())
                .prop_map(|(condition, body)| format!(":While {condition}\n:OrIf 1\n:Leave\n{body}\n:EndWhile")),
            (value.clone(), value.clone(), lines.clone())
                .prop_map(|(condition, until, body)| format!(":While {condition}\n{body}\n:Until {until}")),
            (value.clone(), lines.clone())
                .prop_map(|(condition, body)| format!(":Repeat\n{body}\n:Continue\n:Until {condition}")),
            lines.clone().prop_map(|body| format!(":Repeat ⋄ {body} ⋄ :EndRepeat")),
            (value.clone(), lines.clone()).prop_map(|(values, body)| format!(":For i :In {values}\n{body}\n:EndFor")),
            (value.clone(), lines.clone())
                .prop_map(|(values, body)| format!(":For (i j) :In {values}\n{body}\n:EndFor")),
            (value.clone(), value, lines.clone(), lines).prop_map(|(selected, case, body, otherwise)| {
                format!(":Select {selected}\n:Case {case}\n{body}\n:CaseList {case}\n:Else\n{otherwise}\n:EndSelect")
            }),
        ]
    })
}

/// A tradfn whose top-level body lines may carry a label (`L1:`, unique in the function), alone on its line or before
/// the line's statements, with blank and comment lines among them.
fn valid_tradfn() -> impl Strategy<Value = String> {
    let header = prop::sample::select(vec![
        "F",
        "F B",
        "R←A F B;i;⎕IO",
        "{R}←{A} F B",
        "R←F B ⍝ comment",
        "R←(A B) F (C D E);i",
    ]);
    let label = prop::sample::select(vec!["", "", "label ", "label alone", "blank", "comment"]);
    let line = (valid_tradfn_lines(), label);
    (header, prop::collection::vec(line, 0..4)).prop_map(|(header, lines)| {
        let lines: Vec<String> = lines
            .into_iter()
            .enumerate()
            .map(|(index, (line, label))| match label {
                "label " => format!("L{index}: {line}"),
                "label alone" => format!("L{index}:\n{line}"),
                "blank" => format!("\n{line}"),
                "comment" => format!("⍝ c\n{line}"),
                _ => line,
            })
            .collect();
        format!("∇ {header}\n{}\n∇", lines.join("\n"))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn parse_never_panics_on_random_characters(text in random_text_from(CHARACTER_POOL, 40, "")) {
        check_parse_is_total(&text);
    }

    #[test]
    fn parse_never_panics_on_random_tokens(text in random_text_from(TOKEN_POOL, 30, " ")) {
        check_parse_is_total(&text);
    }

    #[test]
    fn valid_programs_parse_and_round_trip(statements in prop::collection::vec(valid_statement(), 1..4)) {
        let text = statements.join("\n");
        match parse_program(&SourceFile::new("valid.apl", text.as_str())) {
            Ok(program) => check_round_trip(&text, &program),
            Err(errors) => panic!("{text:?} should parse:\n{}", render_errors_plain(&errors)),
        }
    }

    #[test]
    fn valid_tradfns_parse_and_round_trip(
        statements in prop::collection::vec(prop_oneof![valid_statement(), valid_tradfn()], 1..4)
    ) {
        let text = statements.join("\n");
        match parse_program(&SourceFile::new("valid.apl", text.as_str())) {
            Ok(program) => check_round_trip(&text, &program),
            Err(errors) => panic!("{text:?} should parse:\n{}", render_errors_plain(&errors)),
        }
    }

    #[test]
    fn parse_never_panics_on_arbitrary_unicode(text in "\\PC{0,40}") {
        check_parse_is_total(&text);
    }
}
