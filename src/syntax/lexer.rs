//! The lexer: program text to tokens, over Unicode grapheme clusters so that an unknown character (an accented letter,
//! an emoji) is reported as the one glyph the reader sees. It collects errors and keeps going: an unknown character
//! is skipped, an unterminated string ends at the end of its line, a malformed number is dropped.

use unicode_segmentation::UnicodeSegmentation;

use crate::source::Span;
use crate::syntax::ast::{Comment, NumberLiteral, Primitive, SpecialName};
use crate::syntax::error::{SyntaxError, SyntaxErrorKind};
use crate::syntax::token::{Keyword, Token, TokenKind};

/// What the lexer found: tokens (without comments), every comment, and the errors.
#[derive(Debug, Default)]
pub struct LexedProgram {
    pub tokens: Vec<Token>,
    pub comments: Vec<Comment>,
    pub errors: Vec<SyntaxError>,
}

/// Glyphs of Dyalog APL that aplc does not support, with the hint shown when one is used.
const UNSUPPORTED_GLYPHS: &[(&str, &str)] = &[
    ("⊇", "select is not supported"),
    ("⌶", "I-beam is not supported"),
    ("⍠", "variant is not supported"),
    ("⍞", "character input/output with ⍞ is not supported; use ⎕← to print"),
    ("⍁", "not an operator of Dyalog APL"),
];

/// Characters that other APL systems (APL2, GNU APL, the ISO standard), papers and word processors print in place of
/// a Dyalog glyph. Outside strings and comments each one means only that glyph (none of them is a character aplc
/// accepts otherwise), so the lexer reads it as the glyph.
const GLYPH_VARIANTS: &[(&str, &str)] = &[
    ("−", "-"),
    ("–", "-"),
    ("⋆", "*"),
    ("∗", "*"),
    ("∣", "|"),
    ("∼", "~"),
    ("⨯", "×"),
    ("∕", "/"),
    ("∖", "\\"),
    ("^", "∧"),
    ("⟵", "←"),
    ("◇", "⋄"),
    ("□", "⎕"),
    ("ι", "⍳"),
    ("ρ", "⍴"),
    ("α", "⍺"),
    ("ω", "⍵"),
    ("∈", "∊"),
    ("ε", "∊"),
];

/// Characters that look like an APL glyph but whose meaning is not certain, so they get a hint instead: a curly quote
/// may open a string, or be a character of one that lost its straight quotes.
const LOOKALIKE_GLYPHS: &[(&str, &str)] = &[("’", "'"), ("‘", "'")];

/// The Dyalog glyph a grapheme stands for: itself, or the glyph of which it is a variant.
pub fn canonical_glyph(grapheme: &str) -> &str {
    GLYPH_VARIANTS
        .iter()
        .find(|(variant, _)| *variant == grapheme)
        .map_or(grapheme, |(_, glyph)| glyph)
}

/// Dyalog control-structure keywords: those of [`Keyword`] become tokens, the others are reported as not supported.
const CONTROL_KEYWORDS: &[&str] = &[
    "if",
    "elseif",
    "else",
    "endif",
    "andif",
    "orif",
    "while",
    "endwhile",
    "repeat",
    "until",
    "endrepeat",
    "for",
    "in",
    "ineach",
    "endfor",
    "select",
    "case",
    "caselist",
    "endselect",
    "return",
    "leave",
    "continue",
    "goto",
    "trap",
    "endtrap",
    "with",
    "endwith",
    "hold",
    "endhold",
    "end",
    "namespace",
    "endnamespace",
    "section",
    "endsection",
    "disposable",
    "enddisposable",
    "class",
    "endclass",
    "interface",
    "endinterface",
    "field",
    "property",
    "endproperty",
    "access",
    "implements",
    "include",
    "require",
];

/// The grapheme clusters of `text`, except that a quote is always a grapheme of its own. Unicode joins a combining
/// mark to the character before it, so `'` followed by a mark would be one cluster and the lexer would not see the
/// quote that ends a string; APL reads strings code point by code point, so the mark belongs to what follows.
fn graphemes_with_quotes_apart(text: &str) -> Vec<(usize, &str)> {
    let mut graphemes = Vec::new();
    for (offset, grapheme) in text.grapheme_indices(true) {
        match grapheme.strip_prefix('\'') {
            Some(rest) if !rest.is_empty() => {
                graphemes.push((offset, "'"));
                graphemes.extend(
                    graphemes_with_quotes_apart(rest)
                        .into_iter()
                        .map(|(inner, piece)| (offset + 1 + inner, piece)),
                );
            }
            _ => graphemes.push((offset, grapheme)),
        }
    }
    graphemes
}

pub fn lex(text: &str) -> LexedProgram {
    let mut lexer = Lexer {
        graphemes: graphemes_with_quotes_apart(text),
        position: 0,
        text_length: text.len(),
        statement_start: 0,
    };
    // A byte-order mark that some editors put at the start of a file is not part of the program.
    if lexer.peek() == Some("\u{feff}") {
        lexer.position = 1;
    }
    let mut lexed = LexedProgram::default();
    while lexer.position < lexer.graphemes.len() {
        lexer.lex_one(&mut lexed);
    }
    lexed
}

struct Lexer<'a> {
    graphemes: Vec<(usize, &'a str)>,
    position: usize,
    text_length: usize,
    /// The index in the tokens of the current statement's first token (the tokens' length while it has none): a
    /// control keyword is read only there, and `:In` only in a statement that starts with `:For`. A `{` starts a
    /// statement too (the first of a dfn's body).
    statement_start: usize,
}

/// The result of scanning one real part of a number: its text in Rust syntax and whether it is an integer.
struct ScannedReal {
    rust_text: String,
    is_integer: bool,
}

impl<'a> Lexer<'a> {
    fn peek_at(&self, offset: usize) -> Option<&'a str> {
        self.graphemes
            .get(self.position + offset)
            .map(|(_, grapheme)| *grapheme)
    }

    fn peek(&self) -> Option<&'a str> {
        self.peek_at(0)
    }

    /// Byte offset of the grapheme at `index` (the end of the text past the last one).
    fn offset_of(&self, index: usize) -> usize {
        self.graphemes
            .get(index)
            .map_or(self.text_length, |(offset, _)| *offset)
    }

    fn span_from(&self, start_index: usize) -> Span {
        Span::new(self.offset_of(start_index), self.offset_of(self.position))
    }

    fn push_token(&mut self, lexed: &mut LexedProgram, kind: TokenKind, start_index: usize) {
        let starts_a_statement =
            kind.is_statement_separator() || kind == TokenKind::LeftBrace || self.ends_a_label(lexed, &kind);
        lexed.tokens.push(Token {
            kind,
            span: self.span_from(start_index),
        });
        if starts_a_statement {
            self.statement_start = lexed.tokens.len();
        }
    }

    /// A `:` directly after a name that starts its statement ends a tradfn label (`LOOP:`); what follows starts a
    /// statement, so that a control keyword may follow a label (`L: :If x`). Elsewhere such a colon is a guard's,
    /// and a keyword after it is an error either way.
    fn ends_a_label(&self, lexed: &LexedProgram, kind: &TokenKind) -> bool {
        *kind == TokenKind::Colon
            && lexed.tokens.len() == self.statement_start + 1
            && matches!(lexed.tokens[self.statement_start].kind, TokenKind::Name(_))
    }

    fn lex_one(&mut self, lexed: &mut LexedProgram) {
        let start = self.position;
        let grapheme = self.peek().expect("lex_one is called before the end");
        if grapheme == "\n" || grapheme == "\r\n" {
            self.position += 1;
            self.push_token(lexed, TokenKind::Newline, start);
        } else if grapheme.chars().all(char::is_whitespace) {
            self.position += 1;
        } else if grapheme == "⍝" {
            self.lex_comment(lexed);
        } else if grapheme == "'" {
            self.lex_string(lexed);
        } else if grapheme == "\"" {
            self.lex_double_quoted_string(lexed);
        } else if self.starts_number() {
            self.lex_number(lexed);
        } else if grapheme == "¯" {
            self.position += 1;
            let error = SyntaxError::new(SyntaxErrorKind::MalformedNumber("¯".to_string()), self.span_from(start))
                .with_help("¯ is the high minus of a negative number and must be followed by digits, as in ¯3");
            lexed.errors.push(error);
            self.push_token(lexed, TokenKind::Number(NumberLiteral::Int(0)), start);
        } else if is_name_start(grapheme) {
            self.lex_name(lexed);
        } else if canonical_glyph(grapheme) == "⎕" {
            self.lex_system_name(lexed);
        } else if grapheme == ":" && self.control_keyword_here(lexed).is_some() {
            self.lex_control_keyword(lexed);
        } else {
            self.lex_glyph(lexed);
        }
    }

    fn lex_comment(&mut self, lexed: &mut LexedProgram) {
        let start = self.position;
        self.position += 1;
        while !matches!(self.peek(), None | Some("\n") | Some("\r\n")) {
            self.position += 1;
        }
        let span = self.span_from(start);
        let text_start = self.offset_of(start + 1);
        let text: String = self.graphemes[start + 1..self.position]
            .iter()
            .map(|(_, grapheme)| *grapheme)
            .collect();
        debug_assert_eq!(text_start + text.len(), span.end);
        lexed.comments.push(Comment { text, span });
    }

    fn lex_string(&mut self, lexed: &mut LexedProgram) {
        let start = self.position;
        self.position += 1;
        let mut contents = String::new();
        loop {
            match self.peek() {
                None | Some("\n") | Some("\r\n") => {
                    let error = SyntaxError::new(SyntaxErrorKind::UnterminatedString, self.span_from(start))
                        .with_help("strings end on the line they start; write a quote inside a string as ''");
                    lexed.errors.push(error);
                    // Keep the string as a token so that the parser does not report a second, derived error.
                    self.push_token(lexed, TokenKind::String(contents), start);
                    return;
                }
                Some("'") if self.peek_at(1) == Some("'") => {
                    contents.push('\'');
                    self.position += 2;
                }
                Some("'") => {
                    self.position += 1;
                    self.push_token(lexed, TokenKind::String(contents), start);
                    return;
                }
                Some(grapheme) => {
                    contents.push_str(grapheme);
                    self.position += 1;
                }
            }
        }
    }

    /// `"text"` is not APL: one error for the whole string (not one per quote), and a string token so that the rest
    /// of the statement still parses.
    fn lex_double_quoted_string(&mut self, lexed: &mut LexedProgram) {
        let start = self.position;
        self.position += 1;
        while !matches!(self.peek(), None | Some("\n") | Some("\r\n") | Some("\"")) {
            self.position += 1;
        }
        let contents: String = self.graphemes[start + 1..self.position]
            .iter()
            .map(|(_, grapheme)| *grapheme)
            .collect();
        if self.peek() == Some("\"") {
            self.position += 1;
        }
        let error = SyntaxError::new(SyntaxErrorKind::DoubleQuotedString, self.span_from(start))
            .with_help("APL strings are written between single quotes: 'text'");
        lexed.errors.push(error);
        self.push_token(lexed, TokenKind::String(contents), start);
    }

    fn starts_number(&self) -> bool {
        match self.peek() {
            Some(grapheme) if is_digit(grapheme) => true,
            Some(".") => self.peek_at(1).is_some_and(is_digit),
            Some("¯") => {
                self.peek_at(1).is_some_and(is_digit)
                    || (self.peek_at(1) == Some(".") && self.peek_at(2).is_some_and(is_digit))
            }
            _ => false,
        }
    }

    /// A number: a real part, optionally `J` and an imaginary part. Anything that continues the number's text
    /// without being part of it (`1E`, `1.2.3`, `3x`) makes the whole run one malformed number.
    fn lex_number(&mut self, lexed: &mut LexedProgram) {
        let start = self.position;
        let literal = self.scan_number();
        let continues = self.peek().is_some_and(continues_a_number);
        match literal {
            Some(literal) if !continues => self.push_token(lexed, TokenKind::Number(literal), start),
            _ => {
                while self.peek().is_some_and(continues_a_number) {
                    self.position += 1;
                }
                let text = self.text_from(start);
                let error = SyntaxError::new(SyntaxErrorKind::MalformedNumber(text), self.span_from(start))
                    .with_help("numbers look like 42, ¯3, 3.25, .5, 1E3, 1.5E¯3 or 2J¯1");
                lexed.errors.push(error);
                // A placeholder keeps the parser from reporting a derived error (`x←1E` has a value).
                self.push_token(lexed, TokenKind::Number(NumberLiteral::Int(0)), start);
            }
        }
    }

    fn text_from(&self, start_index: usize) -> String {
        self.graphemes[start_index..self.position]
            .iter()
            .map(|(_, grapheme)| *grapheme)
            .collect()
    }

    fn scan_number(&mut self) -> Option<NumberLiteral> {
        let real = self.scan_real()?;
        if matches!(self.peek(), Some("J") | Some("j")) {
            self.position += 1;
            let imaginary = self.scan_real()?;
            let real: f64 = real.rust_text.parse().ok()?;
            let imaginary: f64 = imaginary.rust_text.parse().ok()?;
            return (real.is_finite() && imaginary.is_finite()).then_some(NumberLiteral::Complex(real, imaginary));
        }
        if real.is_integer {
            if let Ok(integer) = real.rust_text.parse::<i64>() {
                return Some(NumberLiteral::Int(integer));
            }
        }
        real.rust_text
            .parse::<f64>()
            .ok()
            .filter(|float| float.is_finite())
            .map(NumberLiteral::Float)
    }

    /// `¯? digits (. digits?)? | ¯? . digits`, then an optional exponent `E ¯? digits`.
    fn scan_real(&mut self) -> Option<ScannedReal> {
        let mut rust_text = String::new();
        let mut is_integer = true;
        if self.peek() == Some("¯") {
            rust_text.push('-');
            self.position += 1;
        }
        let integer_digits = self.scan_digits(&mut rust_text);
        let mut fraction_digits = 0;
        if self.peek() == Some(".") {
            is_integer = false;
            rust_text.push('.');
            self.position += 1;
            fraction_digits = self.scan_digits(&mut rust_text);
        }
        if integer_digits + fraction_digits == 0 {
            return None;
        }
        if matches!(self.peek(), Some("E") | Some("e")) {
            is_integer = false;
            rust_text.push('e');
            self.position += 1;
            if self.peek() == Some("¯") {
                rust_text.push('-');
                self.position += 1;
            }
            if self.scan_digits(&mut rust_text) == 0 {
                return None;
            }
        }
        Some(ScannedReal { rust_text, is_integer })
    }

    fn scan_digits(&mut self, into: &mut String) -> usize {
        let mut count = 0;
        while let Some(grapheme) = self.peek().filter(|grapheme| is_digit(grapheme)) {
            into.push_str(grapheme);
            self.position += 1;
            count += 1;
        }
        count
    }

    fn lex_name(&mut self, lexed: &mut LexedProgram) {
        let start = self.position;
        self.position += 1;
        while self.peek().is_some_and(is_name_continuation) {
            self.position += 1;
        }
        let name = self.text_from(start);
        self.push_token(lexed, TokenKind::Name(name), start);
    }

    /// `⎕` followed by letters and digits is a system name; `⎕` alone is the output target of `⎕←`.
    fn lex_system_name(&mut self, lexed: &mut LexedProgram) {
        let start = self.position;
        self.position += 1;
        while self
            .peek()
            .is_some_and(|grapheme| is_ascii_letter(grapheme) || is_digit(grapheme))
        {
            self.position += 1;
        }
        if self.position == start + 1 {
            self.push_token(lexed, TokenKind::Quad, start);
        } else {
            // Spelled with ⎕ whichever variant of the quad glyph the source uses (□PP is ⎕PP).
            let name = format!("⎕{}", self.text_from(start + 1));
            self.push_token(lexed, TokenKind::SystemName(name), start);
        }
    }

    /// The keyword word (without its colon) when the `:` at the current position starts a control keyword: any
    /// keyword of Dyalog's control structures, in any case, at the start of a statement, or `:In` (`:InEach`) within a
    /// statement that starts with `:For`. After an expression, `:` is otherwise a guard's colon even when a name like
    /// `End` follows (`⍵:End`).
    fn control_keyword_here(&self, lexed: &LexedProgram) -> Option<String> {
        if !self.peek_at(1).is_some_and(is_ascii_letter) {
            return None;
        }
        let mut word = String::new();
        let mut offset = 1;
        while let Some(grapheme) = self.peek_at(offset).filter(|grapheme| is_ascii_letter(grapheme)) {
            word.push_str(grapheme);
            offset += 1;
        }
        let lowercase = word.to_lowercase();
        let at_statement_start = lexed.tokens.len() == self.statement_start;
        let in_a_for_statement = lexed
            .tokens
            .get(self.statement_start)
            .is_some_and(|token| token.kind == TokenKind::Keyword(Keyword::For));
        let is_keyword = if at_statement_start {
            CONTROL_KEYWORDS.contains(&lowercase.as_str())
        } else {
            in_a_for_statement && matches!(lowercase.as_str(), "in" | "ineach")
        };
        is_keyword.then_some(word)
    }

    /// A keyword aplc supports becomes a [`TokenKind::Keyword`]; any other is reported, and the rest of its line
    /// skipped (its arguments would only give derived errors).
    fn lex_control_keyword(&mut self, lexed: &mut LexedProgram) {
        let start = self.position;
        self.position += 1;
        while self.peek().is_some_and(is_ascii_letter) {
            self.position += 1;
        }
        let word = self.text_from(start + 1);
        if let Some(keyword) = Keyword::from_word(&word) {
            self.push_token(lexed, TokenKind::Keyword(keyword), start);
            return;
        }
        let keyword = self.text_from(start);
        let error = SyntaxError::new(SyntaxErrorKind::ControlStructure(keyword), self.span_from(start)).with_help(
            "inside a traditional function aplc supports :If, :While, :Repeat, :For, :Select, :Return, :Leave and \
             :Continue; elsewhere, write the logic with dfns: guards (condition : result) and recursion with ∇",
        );
        lexed.errors.push(error);
        while !matches!(self.peek(), None | Some("\n") | Some("\r\n")) {
            self.position += 1;
        }
    }

    fn lex_glyph(&mut self, lexed: &mut LexedProgram) {
        let start = self.position;
        let grapheme = canonical_glyph(self.peek().expect("lex_glyph is called before the end"));
        self.position += 1;
        if let Some(kind) = self.glyph_token(grapheme) {
            self.push_token(lexed, kind, start);
        } else if let Some((_, help)) = UNSUPPORTED_GLYPHS.iter().find(|(glyph, _)| *glyph == grapheme) {
            let kind = SyntaxErrorKind::UnsupportedGlyph(grapheme.to_string());
            lexed
                .errors
                .push(SyntaxError::new(kind, self.span_from(start)).with_help(*help));
        } else {
            let kind = SyntaxErrorKind::UnknownCharacter(grapheme.to_string());
            let mut error = SyntaxError::new(kind, self.span_from(start));
            if let Some((_, glyph)) = LOOKALIKE_GLYPHS.iter().find(|(lookalike, _)| *lookalike == grapheme) {
                error = error.with_help(format!(
                    "this looks like APL's {glyph} but is a different character; type {glyph}"
                ));
            }
            lexed.errors.push(error);
        }
    }

    /// The token of a one-glyph symbol (after the glyph itself has been consumed). Handles the two-glyph tokens
    /// `∘.`, `⍺⍺`, `⍵⍵` and `∇∇` by looking at what follows.
    fn glyph_token(&mut self, grapheme: &str) -> Option<TokenKind> {
        let kind = match grapheme {
            "(" => TokenKind::LeftParenthesis,
            ")" => TokenKind::RightParenthesis,
            "[" => TokenKind::LeftBracket,
            "]" => TokenKind::RightBracket,
            "{" => TokenKind::LeftBrace,
            "}" => TokenKind::RightBrace,
            ";" => TokenKind::Semicolon,
            "←" => TokenKind::Assign,
            "→" => TokenKind::Branch,
            ":" => TokenKind::Colon,
            "⋄" => TokenKind::Diamond,
            "⍬" => TokenKind::Zilde,
            "⍺" => TokenKind::Special(self.doubled(grapheme, SpecialName::Alpha, SpecialName::AlphaAlpha)),
            "⍵" => TokenKind::Special(self.doubled(grapheme, SpecialName::Omega, SpecialName::OmegaOmega)),
            "∇" => TokenKind::Special(self.doubled(grapheme, SpecialName::Del, SpecialName::DelDel)),
            "∘" if self.peek() == Some(".") && !self.peek_at(1).is_some_and(is_digit) => {
                self.position += 1;
                TokenKind::Primitive(Primitive::OuterProduct)
            }
            _ => TokenKind::Primitive(Primitive::from_glyph(grapheme)?),
        };
        Some(kind)
    }

    /// `single` alone, or `double` when the same glyph follows directly (`⍺⍺`).
    fn doubled(&mut self, grapheme: &str, single: SpecialName, double: SpecialName) -> SpecialName {
        if self.peek().map(canonical_glyph) == Some(grapheme) {
            self.position += 1;
            double
        } else {
            single
        }
    }
}

fn is_digit(grapheme: &str) -> bool {
    grapheme.len() == 1 && grapheme.as_bytes()[0].is_ascii_digit()
}

fn is_ascii_letter(grapheme: &str) -> bool {
    grapheme.len() == 1 && grapheme.as_bytes()[0].is_ascii_alphabetic()
}

fn is_name_start(grapheme: &str) -> bool {
    is_ascii_letter(grapheme) || matches!(grapheme, "_" | "∆" | "⍙")
}

/// What may not directly follow a number: a letter, a digit or a `.` (`3x`, `1.2.3`). A `¯` may: `1¯2` is `1 ¯2`.
fn continues_a_number(grapheme: &str) -> bool {
    is_name_start(grapheme) || is_digit(grapheme) || grapheme == "."
}

fn is_name_continuation(grapheme: &str) -> bool {
    is_name_start(grapheme) || is_digit(grapheme) || grapheme == "¯"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<TokenKind> {
        let lexed = lex(text);
        assert!(
            lexed.errors.is_empty(),
            "unexpected errors for {text:?}: {:?}",
            lexed.errors
        );
        lexed.tokens.into_iter().map(|token| token.kind).collect()
    }

    fn error_kinds(text: &str) -> Vec<SyntaxErrorKind> {
        lex(text).errors.into_iter().map(|error| error.kind).collect()
    }

    fn number(literal: NumberLiteral) -> TokenKind {
        TokenKind::Number(literal)
    }

    fn primitive(primitive: Primitive) -> TokenKind {
        TokenKind::Primitive(primitive)
    }

    #[test]
    fn exponent_with_high_minus_is_one_float() {
        assert_eq!(kinds("1.5E¯3"), vec![number(NumberLiteral::Float(0.0015))]);
    }

    #[test]
    fn numbers_of_every_form() {
        assert_eq!(
            kinds("42 ¯3 3.25 .5 1E3 1e10 1. ¯.5"),
            vec![
                number(NumberLiteral::Int(42)),
                number(NumberLiteral::Int(-3)),
                number(NumberLiteral::Float(3.25)),
                number(NumberLiteral::Float(0.5)),
                number(NumberLiteral::Float(1000.0)),
                number(NumberLiteral::Float(1e10)),
                number(NumberLiteral::Float(1.0)),
                number(NumberLiteral::Float(-0.5)),
            ]
        );
    }

    #[test]
    fn complex_numbers_with_negative_parts() {
        assert_eq!(kinds("2J¯1"), vec![number(NumberLiteral::Complex(2.0, -1.0))]);
        assert_eq!(kinds("¯1.5J¯2"), vec![number(NumberLiteral::Complex(-1.5, -2.0))]);
        assert_eq!(kinds("2j3"), vec![number(NumberLiteral::Complex(2.0, 3.0))]);
    }

    #[test]
    fn integer_too_large_for_i64_becomes_float() {
        assert_eq!(kinds("99999999999999999999"), vec![number(NumberLiteral::Float(1e20))]);
    }

    #[test]
    fn inner_product_is_three_tokens() {
        assert_eq!(
            kinds("+.×"),
            vec![
                primitive(Primitive::Plus),
                primitive(Primitive::Dot),
                primitive(Primitive::Times)
            ]
        );
    }

    #[test]
    fn outer_product_jot_dot_is_one_token() {
        assert_eq!(
            kinds("∘.×"),
            vec![primitive(Primitive::OuterProduct), primitive(Primitive::Times)]
        );
    }

    #[test]
    fn jot_before_a_decimal_number_is_jot_then_the_number() {
        assert_eq!(
            kinds("∘.5"),
            vec![primitive(Primitive::Jot), number(NumberLiteral::Float(0.5))]
        );
    }

    #[test]
    fn doubled_quote_in_a_string_is_one_quote() {
        assert_eq!(kinds("'it''s'"), vec![TokenKind::String("it's".to_string())]);
        assert_eq!(kinds("''''"), vec![TokenKind::String("'".to_string())]);
        assert_eq!(kinds("''"), vec![TokenKind::String(String::new())]);
    }

    #[test]
    fn unterminated_string_is_an_error_and_the_next_line_still_lexes() {
        let lexed = lex("'abc\n1");
        assert_eq!(lexed.errors.len(), 1);
        assert_eq!(lexed.errors[0].kind, SyntaxErrorKind::UnterminatedString);
        assert_eq!(lexed.errors[0].span, Span::new(0, 4));
        assert_eq!(
            lexed.tokens.into_iter().map(|token| token.kind).collect::<Vec<_>>(),
            vec![
                TokenKind::String("abc".to_string()),
                TokenKind::Newline,
                number(NumberLiteral::Int(1))
            ]
        );
    }

    #[test]
    fn names_system_names_and_bare_quad() {
        assert_eq!(
            kinds("a_1 ∆x ⍙y¯2 ⎕PP ⎕ReadFile ⎕"),
            vec![
                TokenKind::Name("a_1".to_string()),
                TokenKind::Name("∆x".to_string()),
                TokenKind::Name("⍙y¯2".to_string()),
                TokenKind::SystemName("⎕PP".to_string()),
                TokenKind::SystemName("⎕ReadFile".to_string()),
                TokenKind::Quad,
            ]
        );
    }

    #[test]
    fn doubled_specials() {
        assert_eq!(
            kinds("⍺⍺ ⍵⍵ ∇∇ ⍺ ⍵ ∇"),
            [
                SpecialName::AlphaAlpha,
                SpecialName::OmegaOmega,
                SpecialName::DelDel,
                SpecialName::Alpha,
                SpecialName::Omega,
                SpecialName::Del
            ]
            .map(TokenKind::Special)
            .to_vec()
        );
    }

    #[test]
    fn every_primitive_glyph_lexes_to_its_primitive() {
        for (primitive, glyph) in Primitive::TABLE {
            // `.` alone before nothing is the inner-product glyph; `∘.` is one token.
            assert_eq!(kinds(glyph), vec![TokenKind::Primitive(*primitive)], "glyph {glyph}");
        }
    }

    #[test]
    fn comments_are_kept_with_their_text_and_span() {
        let lexed = lex("1 ⍝ one\n⍝: int");
        assert_eq!(lexed.comments.len(), 2);
        assert_eq!(lexed.comments[0].text, " one");
        // The comment starts at byte 2 and runs to the newline: ⍝ is three bytes, " one" four.
        assert_eq!(lexed.comments[0].span, Span::new(2, 9));
        assert_eq!(lexed.comments[1].annotation_text(), Some(" int"));
    }

    #[test]
    fn malformed_numbers() {
        assert_eq!(
            error_kinds("1E"),
            vec![SyntaxErrorKind::MalformedNumber("1E".to_string())]
        );
        assert_eq!(
            error_kinds("1.2.3"),
            vec![SyntaxErrorKind::MalformedNumber("1.2.3".to_string())]
        );
        assert_eq!(
            error_kinds("3x"),
            vec![SyntaxErrorKind::MalformedNumber("3x".to_string())]
        );
        assert_eq!(
            error_kinds("2J"),
            vec![SyntaxErrorKind::MalformedNumber("2J".to_string())]
        );
        assert_eq!(
            error_kinds("¯"),
            vec![SyntaxErrorKind::MalformedNumber("¯".to_string())]
        );
    }

    #[test]
    fn unknown_character_is_reported_as_one_grapheme() {
        // "e" followed by a combining acute accent is one grapheme of two code points.
        let lexed = lex("1 e\u{301}");
        assert_eq!(lexed.errors.len(), 1, "{:?}", lexed.errors);
        assert_eq!(
            lexed.errors[0].kind,
            SyntaxErrorKind::UnknownCharacter("e\u{301}".to_string())
        );
        assert_eq!(lexed.errors[0].span, Span::new(2, 5));
    }

    #[test]
    fn leading_byte_order_mark_is_ignored() {
        let lexed = lex("\u{feff}1");
        assert!(lexed.errors.is_empty());
        assert_eq!(
            lexed.tokens,
            vec![Token {
                kind: number(NumberLiteral::Int(1)),
                span: Span::new(3, 4)
            }]
        );
    }

    #[test]
    fn lookalike_of_an_apl_glyph_gets_a_hint() {
        let lexed = lex("’a’");
        assert_eq!(lexed.errors.len(), 2);
        assert_eq!(lexed.errors[0].kind, SyntaxErrorKind::UnknownCharacter("’".to_string()));
        assert!(lexed.errors[0].help.as_deref().is_some_and(|help| help.contains('\'')));
    }

    #[test]
    fn glyph_variants_of_other_apl_systems_read_as_the_dyalog_glyph() {
        assert_eq!(kinds("2⋆3"), kinds("2*3"));
        assert_eq!(kinds("3−1"), kinds("3-1"));
        assert_eq!(kinds("∣∼"), kinds("|~"));
        assert_eq!(kinds("ρι3"), kinds("⍴⍳3"));
        assert_eq!(kinds("{αα ω}"), kinds("{⍺⍺ ⍵}"));
        assert_eq!(kinds("□PP←3 ⋄ □←1"), kinds("⎕PP←3 ⋄ ⎕←1"));
        assert_eq!(kinds("1∈2 ◇ 1^0 ◇ 1 0∖3"), kinds("1∊2 ⋄ 1∧0 ⋄ 1 0\\3"));
        // Inside strings and comments a variant stays the character it is.
        assert_eq!(kinds("'−⋆'"), vec![TokenKind::String("−⋆".to_string())]);
    }

    #[test]
    fn supported_control_keywords_are_tokens_in_any_case() {
        assert_eq!(
            kinds(":If x ⋄ :endif\n:ELSE"),
            vec![
                TokenKind::Keyword(Keyword::If),
                TokenKind::Name("x".to_string()),
                TokenKind::Diamond,
                TokenKind::Keyword(Keyword::EndIf),
                TokenKind::Newline,
                TokenKind::Keyword(Keyword::Else),
            ]
        );
        for (keyword, spelling) in Keyword::TABLE {
            assert_eq!(kinds(spelling), vec![TokenKind::Keyword(*keyword)], "{spelling}");
        }
    }

    #[test]
    fn in_is_a_keyword_inside_a_for_statement_only() {
        assert_eq!(
            kinds(":For i :In ⍳3"),
            vec![
                TokenKind::Keyword(Keyword::For),
                TokenKind::Name("i".to_string()),
                TokenKind::Keyword(Keyword::In),
                primitive(Primitive::Iota),
                number(NumberLiteral::Int(3)),
            ]
        );
        // Elsewhere, after an expression, the colon is a guard's.
        assert_eq!(
            kinds("{⍵:In}"),
            vec![
                TokenKind::LeftBrace,
                TokenKind::Special(SpecialName::Omega),
                TokenKind::Colon,
                TokenKind::Name("In".to_string()),
                TokenKind::RightBrace,
            ]
        );
        assert_eq!(
            error_kinds(":For i :InEach x"),
            vec![SyntaxErrorKind::ControlStructure(":InEach".to_string())]
        );
    }

    #[test]
    fn unsupported_control_structures_are_reported() {
        assert_eq!(
            error_kinds(":Trap 0"),
            vec![SyntaxErrorKind::ControlStructure(":Trap".to_string())]
        );
        assert_eq!(
            error_kinds("1 ⋄ :with ns"),
            vec![SyntaxErrorKind::ControlStructure(":with".to_string())]
        );
        assert_eq!(
            error_kinds("{\n:GoTo 3\n}"),
            vec![SyntaxErrorKind::ControlStructure(":GoTo".to_string())]
        );
        // After an expression the colon is a guard's, whatever name follows.
        assert!(error_kinds("{⍵:EndIf}").is_empty());
        assert!(error_kinds("{⍵:Trap}").is_empty());
        // A colon and a name that is no keyword, at the start of a statement, is left to the parser (a guard with no
        // condition).
        assert!(error_kinds("{:x}").is_empty());
    }

    #[test]
    fn guard_colon_followed_by_a_name_is_not_a_control_structure() {
        assert_eq!(
            kinds("⍵:x"),
            vec![
                TokenKind::Special(SpecialName::Omega),
                TokenKind::Colon,
                TokenKind::Name("x".to_string())
            ]
        );
    }

    #[test]
    fn branch_arrow_is_a_token() {
        assert_eq!(
            kinds("→(N>0)/L"),
            vec![
                TokenKind::Branch,
                TokenKind::LeftParenthesis,
                TokenKind::Name("N".to_string()),
                primitive(Primitive::Greater),
                number(NumberLiteral::Int(0)),
                TokenKind::RightParenthesis,
                primitive(Primitive::Slash),
                TokenKind::Name("L".to_string()),
            ]
        );
        assert_eq!(
            kinds("L:→0"),
            vec![
                TokenKind::Name("L".to_string()),
                TokenKind::Colon,
                TokenKind::Branch,
                number(NumberLiteral::Int(0)),
            ]
        );
    }

    #[test]
    fn the_other_unsupported_glyphs_are_still_errors() {
        for glyph in ["⊇", "⌶", "⍠", "⍞"] {
            assert_eq!(
                error_kinds(glyph),
                vec![SyntaxErrorKind::UnsupportedGlyph(glyph.to_string())],
                "{glyph}"
            );
        }
    }

    #[test]
    fn a_combining_mark_after_a_quote_does_not_hide_the_quote() {
        // U+0301 (combining acute) joins the character before it into one grapheme cluster; a quote must still end
        // (or, doubled, continue) the string, as in an APL system that reads code points.
        assert_eq!(kinds("'a\u{301}'''"), vec![TokenKind::String("a\u{301}'".to_string())]);
        assert_eq!(
            error_kinds("'a'\u{301}'b'"),
            vec![SyntaxErrorKind::UnknownCharacter("\u{301}".to_string())]
        );
    }
}
