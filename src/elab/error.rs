//! Elaboration errors: every way an APL program can fail to become well-typed TAIL, in APL's words.
//!
//! Each error carries the span of the APL text it is about, so that miette can underline it. The messages start with
//! the APL error name (`SYNTAX ERROR`, `VALUE ERROR`, ...), which is what the corpus headers (`⍝! NAME`) match.

use crate::source::{SourceFile, Span};
use miette::Diagnostic;
use thiserror::Error;

#[derive(Clone, Debug, Error, Diagnostic, PartialEq)]
pub enum ElabError {
    /// An item sequence that cannot be resolved: a dyadic function missing its left argument, an operator without an
    /// operand, a train ending in an array.
    #[error("SYNTAX ERROR: {message}")]
    #[diagnostic(code(aplc::elab::syntax))]
    Syntax {
        message: String,
        #[label("here")]
        span: Span,
        #[help]
        hint: Option<String>,
    },
    /// A name that is not bound (or `⍺` in a dfn called monadically without a default).
    #[error("VALUE ERROR: {message}")]
    #[diagnostic(code(aplc::elab::value))]
    Value {
        message: String,
        #[label("here")]
        span: Span,
        #[help]
        hint: Option<String>,
    },
    #[error("RANK ERROR: {message}")]
    #[diagnostic(code(aplc::elab::rank))]
    Rank {
        message: String,
        #[label("here")]
        span: Span,
        #[help]
        hint: Option<String>,
    },
    #[error("LENGTH ERROR: {message}")]
    #[diagnostic(code(aplc::elab::length))]
    Length {
        message: String,
        #[label("here")]
        span: Span,
        #[help]
        hint: Option<String>,
    },
    #[error("DOMAIN ERROR: {message}")]
    #[diagnostic(code(aplc::elab::domain))]
    Domain {
        message: String,
        #[label("here")]
        span: Span,
        #[help]
        hint: Option<String>,
    },
    #[error("INDEX ERROR: {message}")]
    #[diagnostic(code(aplc::elab::index))]
    Index {
        message: String,
        #[label("here")]
        span: Span,
        #[help]
        hint: Option<String>,
    },
    /// A construct outside the statically typable subset aplc compiles.
    #[error("NONCE ERROR: not supported: {message}")]
    #[diagnostic(code(aplc::elab::nonce))]
    Nonce {
        message: String,
        #[label("here")]
        span: Span,
        #[help]
        hint: Option<String>,
    },
    /// A `⍝:` type annotation that the code it annotates does not satisfy, or that does not parse.
    #[error("TYPE ERROR: {message}")]
    #[diagnostic(code(aplc::elab::type_error))]
    Type {
        message: String,
        #[label("annotation")]
        span: Span,
        #[label("used here")]
        use_span: Option<Span>,
        /// Where in the annotated dfn's body the annotation fails (a generic check at the definition).
        #[label("in the body")]
        body_span: Option<Span>,
        #[help]
        hint: Option<String>,
    },
}

/// Shorthands that keep the elaboration code readable: `syntax_error(span, "...")`.
macro_rules! constructor {
    ($name:ident, $variant:ident) => {
        pub fn $name(span: Span, message: impl Into<String>) -> ElabError {
            ElabError::$variant {
                message: message.into(),
                span,
                hint: None,
            }
        }
    };
}

impl ElabError {
    constructor!(syntax, Syntax);
    constructor!(value, Value);
    constructor!(rank, Rank);
    constructor!(length, Length);
    constructor!(domain, Domain);
    constructor!(index, Index);
    constructor!(nonce, Nonce);

    pub fn type_error(span: Span, message: impl Into<String>) -> ElabError {
        ElabError::Type {
            message: message.into(),
            span,
            use_span: None,
            body_span: None,
            hint: None,
        }
    }

    /// Whether this is the NONCE ERROR with exactly this message: how a caller that can compile a construct another
    /// way recognises the one failure it has another way for.
    pub fn is_nonce_of(&self, expected: &str) -> bool {
        matches!(self, ElabError::Nonce { message, .. } if message == expected)
    }

    /// Attach a help line (shown by miette under the source excerpt).
    pub fn with_hint(mut self, text: impl Into<String>) -> ElabError {
        match &mut self {
            ElabError::Syntax { hint, .. }
            | ElabError::Value { hint, .. }
            | ElabError::Rank { hint, .. }
            | ElabError::Length { hint, .. }
            | ElabError::Domain { hint, .. }
            | ElabError::Index { hint, .. }
            | ElabError::Nonce { hint, .. }
            | ElabError::Type { hint, .. } => *hint = Some(text.into()),
        }
        self
    }

    /// The APL error name, as `⍝!` corpus headers write it.
    pub fn apl_name(&self) -> &'static str {
        match self {
            ElabError::Syntax { .. } => "SYNTAX ERROR",
            ElabError::Value { .. } => "VALUE ERROR",
            ElabError::Rank { .. } => "RANK ERROR",
            ElabError::Length { .. } => "LENGTH ERROR",
            ElabError::Domain { .. } => "DOMAIN ERROR",
            ElabError::Index { .. } => "INDEX ERROR",
            ElabError::Nonce { .. } => "NONCE ERROR",
            ElabError::Type { .. } => "TYPE ERROR",
        }
    }

    /// The same error pointing at another place (for errors inside prelude code, which the user never wrote).
    pub fn at(mut self, new_span: Span) -> ElabError {
        match &mut self {
            ElabError::Syntax { span, .. }
            | ElabError::Value { span, .. }
            | ElabError::Rank { span, .. }
            | ElabError::Length { span, .. }
            | ElabError::Domain { span, .. }
            | ElabError::Index { span, .. }
            | ElabError::Nonce { span, .. }
            | ElabError::Type { span, .. } => *span = new_span,
        }
        self
    }

    pub fn span(&self) -> Span {
        match self {
            ElabError::Syntax { span, .. }
            | ElabError::Value { span, .. }
            | ElabError::Rank { span, .. }
            | ElabError::Length { span, .. }
            | ElabError::Domain { span, .. }
            | ElabError::Index { span, .. }
            | ElabError::Nonce { span, .. }
            | ElabError::Type { span, .. } => *span,
        }
    }
}

/// The errors of one elaboration, with the source they point into (so that the driver can render them with miette).
#[derive(Debug, Error, Diagnostic)]
#[error("{}", summary(errors))]
pub struct ElabErrors {
    #[source_code]
    pub source_code: miette::NamedSource<crate::source::SourceText>,
    #[related]
    pub errors: Vec<ElabError>,
}

impl ElabErrors {
    pub fn new(file: &SourceFile, errors: Vec<ElabError>) -> ElabErrors {
        ElabErrors {
            source_code: file.named_source(),
            errors,
        }
    }
}

/// The first error's message (with its APL error name first), and how many more there are.
fn summary(errors: &[ElabError]) -> String {
    match errors {
        [] => "elaboration failed".to_string(),
        [only] => only.to_string(),
        [first, rest @ ..] => format!("{first} (and {} more)", rest.len()),
    }
}

pub type ElabResult<T> = Result<T, ElabError>;
