//! Property tests of the syntax layer on random text: `parse_program` never panics, a failure always carries at
//! least one error, every error span lies on character boundaries inside the text (so that miette can draw it), and
//! both the AST printer and the error renderer accept whatever the parser returns.

use aplc::source::SourceFile;
use aplc::syntax::{parse_program, print_program, render_errors_plain};
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
        Ok(program) => {
            print_program(&program);
        }
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
    fn parse_never_panics_on_arbitrary_unicode(text in "\\PC{0,40}") {
        check_parse_is_total(&text);
    }
}
