//! Tokens: what the lexer hands the parser. Comments are not tokens; the lexer returns them on the side.

use crate::source::Span;
use crate::syntax::ast::{NumberLiteral, Primitive, SpecialName};

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TokenKind {
    /// One number (`¯1.5E3`, `2J¯1`). Adjacent numbers become one strand in the parser, not here.
    Number(NumberLiteral),
    /// A string literal with `''` already unescaped.
    String(String),
    /// A user name.
    Name(String),
    /// A system name with its `⎕` (`⎕PP`).
    SystemName(String),
    /// `⎕` alone: only valid as the target of `⎕←`.
    Quad,
    /// `⍬`
    Zilde,
    /// `⍺ ⍵ ⍺⍺ ⍵⍵ ∇ ∇∇`
    Special(SpecialName),
    Primitive(Primitive),
    LeftParenthesis,
    RightParenthesis,
    LeftBracket,
    RightBracket,
    LeftBrace,
    RightBrace,
    Semicolon,
    /// `←`
    Assign,
    /// `:` (guards)
    Colon,
    /// `⋄`
    Diamond,
    /// A line break.
    Newline,
}

impl TokenKind {
    /// Newlines and `⋄` end a statement.
    pub fn is_statement_separator(&self) -> bool {
        matches!(self, TokenKind::Newline | TokenKind::Diamond)
    }

    /// How the token reads in an error message ("`)`", "a newline", ...).
    pub fn describe(&self) -> String {
        match self {
            TokenKind::Number(_) => "a number".to_string(),
            TokenKind::String(_) => "a string".to_string(),
            TokenKind::Name(name) | TokenKind::SystemName(name) => format!("the name {name}"),
            TokenKind::Quad => "⎕".to_string(),
            TokenKind::Zilde => "⍬".to_string(),
            TokenKind::Special(special) => special_name_glyph(*special).to_string(),
            TokenKind::Primitive(primitive) => primitive.glyph().to_string(),
            TokenKind::LeftParenthesis => "(".to_string(),
            TokenKind::RightParenthesis => ")".to_string(),
            TokenKind::LeftBracket => "[".to_string(),
            TokenKind::RightBracket => "]".to_string(),
            TokenKind::LeftBrace => "{".to_string(),
            TokenKind::RightBrace => "}".to_string(),
            TokenKind::Semicolon => ";".to_string(),
            TokenKind::Assign => "←".to_string(),
            TokenKind::Colon => ":".to_string(),
            TokenKind::Diamond => "⋄".to_string(),
            TokenKind::Newline => "the end of the line".to_string(),
        }
    }
}

/// The glyph of a special name, shared by the lexer, the printer and error messages.
pub fn special_name_glyph(special: SpecialName) -> &'static str {
    match special {
        SpecialName::Alpha => "⍺",
        SpecialName::Omega => "⍵",
        SpecialName::AlphaAlpha => "⍺⍺",
        SpecialName::OmegaOmega => "⍵⍵",
        SpecialName::Del => "∇",
        SpecialName::DelDel => "∇∇",
    }
}
