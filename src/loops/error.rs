//! The errors of the loop stage: lowering failures (an unsupported construct, a program that is not well typed) and
//! internal run-time failures of the loop interpreter. APL run-time errors of the program itself are
//! [`AplError`]s raised by explicit `error` statements or by scalar operators.

use crate::runtime::error::{AplError, AplErrorKind};
use miette::Diagnostic;
use thiserror::Error;

#[derive(Clone, Debug, Error, Diagnostic, PartialEq)]
pub enum LowerError {
    /// A construct the lowering does not handle yet; reported to the user as a NONCE ERROR.
    #[error("NONCE ERROR: loop lowering does not support {what} yet")]
    #[diagnostic(code(aplc::loops::unsupported))]
    Unsupported { what: String },
    /// The TAIL program violates an invariant that type inference establishes (ranks must be static, ...).
    #[error("loop lowering: {message} (the program is not well typed)")]
    #[diagnostic(code(aplc::loops::ill_typed))]
    IllTyped { message: String },
}

impl LowerError {
    pub fn unsupported(what: impl Into<String>) -> LowerError {
        LowerError::Unsupported { what: what.into() }
    }

    pub fn ill_typed(message: impl Into<String>) -> LowerError {
        LowerError::IllTyped {
            message: message.into(),
        }
    }

    /// The APL error a user sees (NONCE for unsupported constructs, DOMAIN for ill-typed programs).
    pub fn to_apl_error(&self) -> AplError {
        match self {
            // The kind's name is printed in front of the message, so the message leaves it out.
            LowerError::Unsupported { what } => AplError::new(
                AplErrorKind::Nonce,
                format!("loop lowering does not support {what} yet"),
            ),
            LowerError::IllTyped { .. } => AplError::domain(self.to_string()),
        }
    }
}

/// Why the loop interpreter stopped.
#[derive(Clone, Debug, Error, Diagnostic, PartialEq)]
pub enum RunError {
    /// An APL error of the program (an explicit check, or a scalar operator's domain rule).
    #[error("{0}")]
    #[diagnostic(code(aplc::loops::apl_error))]
    Apl(AplError),
    /// A broken invariant of the IR (out-of-bounds access, undefined variable, use after free): a compiler bug.
    #[error("internal error in the loop interpreter: {0}")]
    #[diagnostic(code(aplc::loops::internal))]
    Internal(String),
}

/// A structural error found by the checker.
#[derive(Clone, Debug, Error, Diagnostic, PartialEq)]
#[error("loop IR check: {message}")]
#[diagnostic(code(aplc::loops::check))]
pub struct CheckError {
    pub message: String,
}
