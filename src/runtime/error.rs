//! APL run-time errors, shared by every way a program can run.
//!
//! The names are APL's (`LENGTH ERROR`, `INDEX ERROR`, ...), so a user sees the same words Dyalog would print. A
//! program that fails exits with status 1 after printing the error.

use crate::source::Span;
use std::fmt;

/// The message of the DOMAIN ERROR of a reduction by a function without identity item over an empty axis, whether
/// the compiler finds the axis empty or the program does at run time.
pub const REDUCING_AN_EMPTY_AXIS_WITHOUT_IDENTITY: &str =
    "reducing an empty axis with a function that has no identity item of the argument's type";

/// The APL error classes aplc can raise while a program runs (or while constant-folding one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AplErrorKind {
    Domain,
    Length,
    Rank,
    Index,
    Value,
    Syntax,
    Limit,
    FileIo,
    Nonce,
    /// Memory ran out (Dyalog's `WS FULL`): an array too large to allocate.
    WorkspaceFull,
}

impl AplErrorKind {
    /// Every kind, in declaration order (the order of the run-time library's error codes).
    pub const ALL: [AplErrorKind; 10] = [
        AplErrorKind::Domain,
        AplErrorKind::Length,
        AplErrorKind::Rank,
        AplErrorKind::Index,
        AplErrorKind::Value,
        AplErrorKind::Syntax,
        AplErrorKind::Limit,
        AplErrorKind::FileIo,
        AplErrorKind::Nonce,
        AplErrorKind::WorkspaceFull,
    ];

    /// The name Dyalog prints for this class.
    pub fn apl_name(self) -> &'static str {
        match self {
            AplErrorKind::Domain => "DOMAIN ERROR",
            AplErrorKind::Length => "LENGTH ERROR",
            AplErrorKind::Rank => "RANK ERROR",
            AplErrorKind::Index => "INDEX ERROR",
            AplErrorKind::Value => "VALUE ERROR",
            AplErrorKind::Syntax => "SYNTAX ERROR",
            AplErrorKind::Limit => "LIMIT ERROR",
            AplErrorKind::FileIo => "FILE I/O ERROR",
            AplErrorKind::Nonce => "NONCE ERROR",
            AplErrorKind::WorkspaceFull => "WS FULL",
        }
    }
}

/// An APL error with a message in plain words and, where known, the span of the APL (or TAIL) text that failed.
#[derive(Clone, Debug, PartialEq)]
pub struct AplError {
    pub kind: AplErrorKind,
    pub message: String,
    pub span: Option<Span>,
}

impl AplError {
    pub fn new(kind: AplErrorKind, message: impl Into<String>) -> AplError {
        AplError {
            kind,
            message: message.into(),
            span: None,
        }
    }

    pub fn with_span(mut self, span: Span) -> AplError {
        self.span.get_or_insert(span);
        self
    }

    pub fn domain(message: impl Into<String>) -> AplError {
        AplError::new(AplErrorKind::Domain, message)
    }

    pub fn length(message: impl Into<String>) -> AplError {
        AplError::new(AplErrorKind::Length, message)
    }

    pub fn rank(message: impl Into<String>) -> AplError {
        AplError::new(AplErrorKind::Rank, message)
    }

    pub fn index(message: impl Into<String>) -> AplError {
        AplError::new(AplErrorKind::Index, message)
    }
}

/// A program argument that `⎕ArgInt`/`⎕ArgDouble` could not read, as the interpreters report it (compiled code
/// reports the same words from the run-time library).
impl From<aplc_runtime::arguments::ArgumentError> for AplError {
    fn from(error: aplc_runtime::arguments::ArgumentError) -> AplError {
        let kind = if error.is_index_error() {
            AplErrorKind::Index
        } else {
            AplErrorKind::Domain
        };
        AplError::new(kind, error.message())
    }
}

impl fmt::Display for AplError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.apl_name(), self.message)
    }
}

impl std::error::Error for AplError {}

impl miette::Diagnostic for AplError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(aplc_runtime::abi::diagnostic_code(self.kind.apl_name())))
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let span = self.span?;
        Some(Box::new(std::iter::once(miette::LabeledSpan::new_with_span(
            Some("here".to_string()),
            span,
        ))))
    }
}

impl AplError {
    /// The error as `aplc run` reports it for the program `file` (drawn by miette without colour: the message, and the
    /// source line with the failing text marked when the error has a span). Compiled code prints this text, made when
    /// the program is compiled, so that every backend reports an error alike.
    pub fn report_against(&self, file: &crate::source::SourceFile) -> String {
        self.report_against_in(file, crate::diagnostics::ErrorFormat::Human)
    }

    /// [`Self::report_against`] in a format of `--error-format` (for JSON, one object on one line).
    pub fn report_against_in(
        &self,
        file: &crate::source::SourceFile,
        format: crate::diagnostics::ErrorFormat,
    ) -> String {
        let located = crate::diagnostics::WithSource::new(self.clone(), file);
        crate::diagnostics::render_report(&located, format, miette::GraphicalTheme::unicode_nocolor())
    }
}
