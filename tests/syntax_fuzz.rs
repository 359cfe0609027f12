//! Property tests of the syntax layer on random text: `parse_program` never panics, a failure always carries at
//! least one error, every error span lies on character boundaries inside the text (so that miette can draw it), and
//! both the AST printer and the error renderer accept whatever the parser returns.

use aplc::source::SourceFile;
use aplc::source::Span;
use aplc::syntax::ast::{AssignTarget, Expr, Item, Program, Statement, StatementKind};
use aplc::syntax::lexer::canonical_glyph;
use aplc::syntax::{parse_program, print_program, print_program_as_apl, render_errors_plain};
use proptest::prelude::*;

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
/// comments are not reprinted, so they are left out of the comparison).
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
        print_program(&Program {
            statements: program.statements.clone(),
            comments: Vec::new(),
        })
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
        }
        if let Some(annotation) = &statement.annotation {
            assert!(slice_of(text, annotation.span).starts_with("⍝:"));
            assert!(annotation.span.end < statement.span.start);
        }
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
    fn valid_programs_parse_and_round_trip(statements in prop::collection::vec(valid_expression(), 1..4)) {
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
