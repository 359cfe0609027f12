//! The errors of the TAIL stage: syntax errors of `.tail` text and type errors, each with a stable miette code.
//! Run-time failures of the interpreter are [`crate::runtime::error::AplError`]s, not these.

use crate::source::Span;
use miette::Diagnostic;
use thiserror::Error;

/// A syntax error in TAIL text.
#[derive(Clone, Debug, Error, Diagnostic, PartialEq)]
#[error("TAIL syntax error: {message}")]
#[diagnostic(code(aplc::tail::syntax))]
pub struct SyntaxError {
    pub message: String,
    #[label("here")]
    pub span: Span,
}

/// A type error. Types in messages are printed in TAIL's concrete syntax.
#[derive(Clone, Debug, Error, Diagnostic, PartialEq)]
pub enum TypeError {
    #[error("type mismatch: expected {expected}, found {found}")]
    #[diagnostic(code(aplc::tail::type_mismatch))]
    Mismatch {
        expected: String,
        found: String,
        #[label("this has type {found}")]
        span: Span,
    },
    #[error("shape mismatch: {left} and {right} cannot be equal")]
    #[diagnostic(code(aplc::tail::shape_mismatch))]
    ShapeMismatch {
        left: String,
        right: String,
        #[label("here")]
        span: Span,
    },
    #[error("infinite type: {variable} occurs in {ty}")]
    #[diagnostic(code(aplc::tail::infinite_type))]
    InfiniteType {
        variable: String,
        ty: String,
        #[label("here")]
        span: Span,
    },
    #[error("operator {op} takes {expected} arguments, given {found}")]
    #[diagnostic(code(aplc::tail::arity))]
    Arity {
        op: String,
        expected: usize,
        found: usize,
        #[label("here")]
        span: Span,
    },
    #[error("unbound variable {name}")]
    #[diagnostic(code(aplc::tail::unbound_variable))]
    UnboundVariable {
        name: String,
        #[label("not bound")]
        span: Span,
    },
    #[error("missing type annotation on {name}")]
    #[diagnostic(
        code(aplc::tail::missing_annotation),
        help("check_program needs every let and lambda annotated")
    )]
    MissingAnnotation {
        name: String,
        #[label("no type")]
        span: Span,
    },
    #[error("{message}")]
    #[diagnostic(code(aplc::tail::ill_formed))]
    IllFormed {
        message: String,
        #[label("here")]
        span: Span,
    },
}
