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
    /// `→`: a branch, valid only as the first token of a statement of a tradfn body (the parser checks where).
    Branch,
    /// `:` (guards)
    Colon,
    /// `⋄`
    Diamond,
    /// A line break.
    Newline,
    /// A control-structure keyword (`:If`, `:EndWhile`, ...) where the lexer reads one: at the start of a statement,
    /// or `:In` within a statement that starts with `:For`.
    Keyword(Keyword),
}

/// The control-structure keywords aplc supports, in tradfn bodies. Other Dyalog keywords (`:Trap`, `:With`, ...) are
/// a lexer error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Keyword {
    If,
    ElseIf,
    Else,
    EndIf,
    AndIf,
    OrIf,
    While,
    EndWhile,
    Repeat,
    Until,
    EndRepeat,
    For,
    In,
    EndFor,
    Select,
    Case,
    CaseList,
    EndSelect,
    Return,
    Leave,
    Continue,
    /// `:End`, which closes any structure.
    End,
}

impl Keyword {
    /// Every keyword with its canonical spelling (Dyalog's capitalisation), which the printers use.
    pub const TABLE: &'static [(Keyword, &'static str)] = &[
        (Keyword::If, ":If"),
        (Keyword::ElseIf, ":ElseIf"),
        (Keyword::Else, ":Else"),
        (Keyword::EndIf, ":EndIf"),
        (Keyword::AndIf, ":AndIf"),
        (Keyword::OrIf, ":OrIf"),
        (Keyword::While, ":While"),
        (Keyword::EndWhile, ":EndWhile"),
        (Keyword::Repeat, ":Repeat"),
        (Keyword::Until, ":Until"),
        (Keyword::EndRepeat, ":EndRepeat"),
        (Keyword::For, ":For"),
        (Keyword::In, ":In"),
        (Keyword::EndFor, ":EndFor"),
        (Keyword::Select, ":Select"),
        (Keyword::Case, ":Case"),
        (Keyword::CaseList, ":CaseList"),
        (Keyword::EndSelect, ":EndSelect"),
        (Keyword::Return, ":Return"),
        (Keyword::Leave, ":Leave"),
        (Keyword::Continue, ":Continue"),
        (Keyword::End, ":End"),
    ];

    /// `:If`, `:While`, `:Repeat`, `:For` and `:Select` open a structure that a closing keyword ends.
    pub fn opens_a_structure(self) -> bool {
        matches!(
            self,
            Keyword::If | Keyword::While | Keyword::Repeat | Keyword::For | Keyword::Select
        )
    }

    /// The keywords that end a structure (`:Until` ends a `:Repeat`).
    pub fn closes_a_structure(self) -> bool {
        matches!(
            self,
            Keyword::EndIf
                | Keyword::EndWhile
                | Keyword::EndRepeat
                | Keyword::Until
                | Keyword::EndFor
                | Keyword::EndSelect
                | Keyword::End
        )
    }

    /// The closing keyword named after an opening one (`:EndIf` for `:If`); `:End` for any other keyword.
    pub fn closer(self) -> Keyword {
        match self {
            Keyword::If => Keyword::EndIf,
            Keyword::While => Keyword::EndWhile,
            Keyword::Repeat => Keyword::EndRepeat,
            Keyword::For => Keyword::EndFor,
            Keyword::Select => Keyword::EndSelect,
            _ => Keyword::End,
        }
    }

    /// Whether `closer` ends the structure this keyword opens: its own closer, `:End`, or `:Until` for a `:Repeat`.
    pub fn is_closed_by(self, closer: Keyword) -> bool {
        closer == Keyword::End || closer == self.closer() || (self == Keyword::Repeat && closer == Keyword::Until)
    }

    /// The canonical spelling, colon included (`:EndIf`).
    pub fn spelling(self) -> &'static str {
        Keyword::TABLE
            .iter()
            .find(|(keyword, _)| *keyword == self)
            .map(|(_, spelling)| *spelling)
            .expect("every keyword is in Keyword::TABLE")
    }

    /// The keyword whose canonical spelling (without its colon) is exactly `word`: `EndIf`, not `ENDIF`. A label so
    /// named (`EndIf:`) is most likely a misplaced colon, so the parser rejects it; `END:` in capitals stays a
    /// label, as in much Dyalog code.
    pub fn spelled_exactly(word: &str) -> Option<Keyword> {
        Keyword::TABLE
            .iter()
            .find(|(_, spelling)| &spelling[1..] == word)
            .map(|(keyword, _)| *keyword)
    }

    /// The keyword spelled `word` (without its colon), in any case: Dyalog does not distinguish `:if` from `:If`.
    pub fn from_word(word: &str) -> Option<Keyword> {
        Keyword::TABLE
            .iter()
            .find(|(_, spelling)| spelling[1..].eq_ignore_ascii_case(word))
            .map(|(keyword, _)| *keyword)
    }
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
            TokenKind::Branch => "→".to_string(),
            TokenKind::Colon => ":".to_string(),
            TokenKind::Diamond => "⋄".to_string(),
            TokenKind::Newline => "the end of the line".to_string(),
            TokenKind::Keyword(keyword) => keyword.spelling().to_string(),
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
