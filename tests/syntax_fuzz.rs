//! Property tests of the syntax layer on random text: `parse_program` never panics, a failure always carries at
//! least one error, every error span lies on character boundaries inside the text (so that miette can draw it), and
//! both the AST printer and the error renderer accept whatever the parser returns.

use aplc::source::SourceFile;
use aplc::syntax::ast::Program;
use aplc::syntax::{parse_program, print_program, print_program_as_apl, render_errors_plain};
use proptest::prelude::*;

/// Characters that exercise every lexer path: glyphs, digits, letters, quotes, brackets, separators, blanks and a
/// few characters that are not APL at all.
const CHARACTER_POOL: &[&str] = &[
    "+", "-", "×", "÷", "|", "⌈", "⌊", "*", "⍟", "○", "!", "?", "~", "∧", "∨", "⍲", "⍱", "<", "≤", "=", "≥", ">", "≠",
    "⍴", ",", "⍪", "⌽", "⊖", "⍉", "↑", "↓", "⊃", "⊂", "⍳", "≢", "≡", "⍋", "⍒", "⊣", "⊢", "⌷", "⍕", "⍎", "∊", "⍸", "⊥",
    "⊤", "⌹", "∪", "∩", "/", "⌿", "\\", "⍀", "¨", "∘", ".", "⍣", "⍨", "⍤", "⌸", "⌺", "@", "⍺", "⍵", "∇", "⎕", "⍬", "0",
    "1", "2", "9", "E", "J", "e", "j", "a", "x", "Z", "_", "∆", "⍙", "'", "\"", "(", ")", "[", "]", "{", "}", " ", " ",
    " ", "\n", "\r\n", "\t", "¯", "⍝", "⋄", "←", ":", ";", "→", "⍷", "§", "é", "e\u{301}", "\u{0}", "🙂",
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
