//! Syntax errors: one kind per problem, each with a stable miette code, a message in APL terms that starts with
//! "SYNTAX ERROR:", the span it points at and an optional hint. All user-facing wording of the syntax layer is here.

use std::fmt;

use crate::source::{SourceFile, Span};

/// What went wrong. The `Display` text is the message after "SYNTAX ERROR: ".
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxErrorKind {
    #[error("unterminated string: the closing ' is missing on this line")]
    UnterminatedString,
    #[error("strings are written between single quotes, not double quotes")]
    DoubleQuotedString,
    #[error("unknown character {0:?}")]
    UnknownCharacter(String),
    #[error("the glyph {0} is not supported")]
    UnsupportedGlyph(String),
    #[error("malformed number {0:?}")]
    MalformedNumber(String),
    #[error("the control structure {0} is not supported")]
    ControlStructure(String),
    #[error("control structures ({0}) are only supported inside a traditional function (∇)")]
    ControlOutsideTradfn(String),
    #[error("{0}")]
    MalformedControl(String),
    #[error("malformed function header: {0}")]
    MalformedHeader(String),
    #[error("the traditional function {0} is never closed")]
    UnterminatedFunction(String),
    #[error("{0}")]
    MisplacedDel(&'static str),
    #[error("{0}")]
    Label(String),
    #[error("→ (branch) is only allowed at the start of a statement of a traditional function")]
    MisplacedBranch,
    #[error("→ needs a target: the line to go to (→0 leaves the function)")]
    BranchWithoutTarget,
    #[error("unbalanced {open}: it is never closed")]
    UnclosedBracket { open: &'static str },
    #[error("unbalanced {close}: there is no matching {open} before it")]
    UnopenedBracket { close: &'static str, open: &'static str },
    #[error("mismatched brackets: {open} is closed by {close}")]
    MismatchedBracket { open: &'static str, close: &'static str },
    #[error("{separator} cannot separate statements inside {open}{close}")]
    SeparatorInsideBrackets {
        separator: String,
        open: &'static str,
        close: &'static str,
    },
    #[error("← has nothing to assign to on its left")]
    MissingAssignmentTarget,
    #[error("cannot assign to {0}: ← needs a name on its left")]
    InvalidAssignmentTarget(String),
    #[error("← has no value on its right")]
    MissingAssignmentValue,
    #[error("a guard (condition : result) is only allowed inside a dfn {{...}}")]
    GuardOutsideDfn,
    #[error("malformed guard: {0}")]
    MalformedGuard(&'static str),
    #[error("⎕ can only be assigned to (⎕←value); reading input with ⎕ is not supported")]
    QuadAsValue,
    #[error("empty parentheses ()")]
    EmptyParentheses,
    #[error("index brackets [...] with nothing to index on their left")]
    IndexWithoutValue,
    #[error("parentheses, brackets, dfns and assignments nest more than {0} deep")]
    TooDeeplyNested(usize),
    #[error("unexpected {0}")]
    UnexpectedToken(String),
    #[error("malformed pragma: {0}")]
    MalformedPragma(String),
}

impl SyntaxErrorKind {
    /// The stable diagnostic code, `aplc::syntax::<snake_case>`.
    pub fn code(&self) -> &'static str {
        match self {
            SyntaxErrorKind::UnterminatedString => "aplc::syntax::unterminated_string",
            SyntaxErrorKind::DoubleQuotedString => "aplc::syntax::double_quoted_string",
            SyntaxErrorKind::UnknownCharacter(_) => "aplc::syntax::unknown_character",
            SyntaxErrorKind::UnsupportedGlyph(_) => "aplc::syntax::unsupported_glyph",
            SyntaxErrorKind::MalformedNumber(_) => "aplc::syntax::malformed_number",
            SyntaxErrorKind::ControlStructure(_) | SyntaxErrorKind::ControlOutsideTradfn(_) => {
                "aplc::syntax::control_structure"
            }
            SyntaxErrorKind::MalformedControl(_) => "aplc::syntax::malformed_control_structure",
            SyntaxErrorKind::MalformedHeader(_) => "aplc::syntax::malformed_header",
            SyntaxErrorKind::UnterminatedFunction(_) => "aplc::syntax::unterminated_function",
            SyntaxErrorKind::MisplacedDel(_) => "aplc::syntax::misplaced_del",
            SyntaxErrorKind::Label(_) => "aplc::syntax::label",
            SyntaxErrorKind::MisplacedBranch | SyntaxErrorKind::BranchWithoutTarget => "aplc::syntax::branch",
            SyntaxErrorKind::UnclosedBracket { .. } | SyntaxErrorKind::UnopenedBracket { .. } => {
                "aplc::syntax::unbalanced_bracket"
            }
            SyntaxErrorKind::MismatchedBracket { .. } => "aplc::syntax::mismatched_bracket",
            SyntaxErrorKind::SeparatorInsideBrackets { .. } => "aplc::syntax::separator_inside_brackets",
            SyntaxErrorKind::MissingAssignmentTarget => "aplc::syntax::missing_assignment_target",
            SyntaxErrorKind::InvalidAssignmentTarget(_) => "aplc::syntax::invalid_assignment_target",
            SyntaxErrorKind::MissingAssignmentValue => "aplc::syntax::missing_assignment_value",
            SyntaxErrorKind::GuardOutsideDfn => "aplc::syntax::guard_outside_dfn",
            SyntaxErrorKind::MalformedGuard(_) => "aplc::syntax::malformed_guard",
            SyntaxErrorKind::QuadAsValue => "aplc::syntax::quad_input",
            SyntaxErrorKind::EmptyParentheses => "aplc::syntax::empty_parentheses",
            SyntaxErrorKind::IndexWithoutValue => "aplc::syntax::index_without_value",
            SyntaxErrorKind::TooDeeplyNested(_) => "aplc::syntax::too_deeply_nested",
            SyntaxErrorKind::UnexpectedToken(_) => "aplc::syntax::unexpected_token",
            SyntaxErrorKind::MalformedPragma(_) => "aplc::syntax::malformed_pragma",
        }
    }

    /// The short text under the caret.
    fn label(&self) -> &'static str {
        match self {
            SyntaxErrorKind::UnterminatedString => "this string is not closed",
            SyntaxErrorKind::DoubleQuotedString => "double quotes",
            SyntaxErrorKind::UnknownCharacter(_) => "not an APL character",
            SyntaxErrorKind::UnsupportedGlyph(_) => "not supported",
            SyntaxErrorKind::MalformedNumber(_) => "not a number",
            SyntaxErrorKind::ControlStructure(_) => "not supported",
            SyntaxErrorKind::ControlOutsideTradfn(_) => "outside a traditional function",
            SyntaxErrorKind::MalformedControl(_) => "here",
            SyntaxErrorKind::MalformedHeader(_) => "in this header",
            SyntaxErrorKind::UnterminatedFunction(_) => "opened here",
            SyntaxErrorKind::MisplacedDel(_) => "here",
            SyntaxErrorKind::Label(_) => "here",
            SyntaxErrorKind::MisplacedBranch => "branch",
            SyntaxErrorKind::BranchWithoutTarget => "no target",
            SyntaxErrorKind::UnclosedBracket { .. } => "opened here",
            SyntaxErrorKind::UnopenedBracket { .. } => "closed here",
            SyntaxErrorKind::MismatchedBracket { .. } => "wrong closing bracket",
            SyntaxErrorKind::SeparatorInsideBrackets { .. } => "statement separator",
            SyntaxErrorKind::MissingAssignmentTarget => "no name before ←",
            SyntaxErrorKind::InvalidAssignmentTarget(_) => "not a name",
            SyntaxErrorKind::MissingAssignmentValue => "no value after ←",
            SyntaxErrorKind::GuardOutsideDfn => "guard outside a dfn",
            SyntaxErrorKind::MalformedGuard(_) => "here",
            SyntaxErrorKind::QuadAsValue => "⎕ used as a value",
            SyntaxErrorKind::EmptyParentheses => "nothing inside",
            SyntaxErrorKind::IndexWithoutValue => "indexes nothing",
            SyntaxErrorKind::TooDeeplyNested(_) => "too deep",
            SyntaxErrorKind::UnexpectedToken(_) => "unexpected here",
            SyntaxErrorKind::MalformedPragma(_) => "pragma",
        }
    }
}

/// One syntax error at one place in the program text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub kind: SyntaxErrorKind,
    pub span: Span,
    pub help: Option<String>,
}

impl SyntaxError {
    pub fn new(kind: SyntaxErrorKind, span: Span) -> SyntaxError {
        SyntaxError { kind, span, help: None }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> SyntaxError {
        self.help = Some(help.into());
        self
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "SYNTAX ERROR: {}", self.kind)
    }
}

impl std::error::Error for SyntaxError {}

impl miette::Diagnostic for SyntaxError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.kind.code()))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help.as_ref().map(|help| Box::new(help) as Box<dyn fmt::Display>)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let label = miette::LabeledSpan::new_with_span(Some(self.kind.label().to_string()), self.span);
        Some(Box::new(std::iter::once(label)))
    }
}

/// Every syntax error of one file, in source order, with the file so that miette can show the lines.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("SYNTAX ERROR: {} in {}", count_phrase(.errors.len()), .file_name)]
#[diagnostic(code(aplc::syntax::errors))]
pub struct SyntaxErrors {
    #[source_code]
    pub source_code: miette::NamedSource<crate::source::SourceText>,
    pub file_name: String,
    #[related]
    pub errors: Vec<SyntaxError>,
}

fn count_phrase(count: usize) -> String {
    if count == 1 {
        "1 syntax error".to_string()
    } else {
        format!("{count} syntax errors")
    }
}

impl SyntaxErrors {
    /// Collects errors for `file`, sorted by position (the lexer and the parser find them in separate passes).
    pub fn new(file: &SourceFile, mut errors: Vec<SyntaxError>) -> SyntaxErrors {
        errors.sort_by_key(|error| (error.span.start, error.span.end));
        errors.dedup();
        SyntaxErrors {
            source_code: file.named_source(),
            file_name: file.name().to_string(),
            errors,
        }
    }
}

/// Renders the errors as miette draws them on a terminal without colour: the source line, a caret under the span,
/// the code and the help. Used by snapshots and by anything that wants plain text.
pub fn render_errors_plain(errors: &SyntaxErrors) -> String {
    crate::diagnostics::render_report_plain(errors)
}
