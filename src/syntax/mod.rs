//! The syntax layer: APL text to an AST with spans, or source-pointing syntax errors. Knows nothing of TAIL.
//!
//! `lexer` turns text into tokens (over grapheme clusters) and collects comments; `parser` (nom over the token
//! slice) builds the unresolved [`ast::Program`]; `printer` writes the AST in the project's S-expression form and `source_printer` back as APL; `error`
//! holds every message of the layer. The grammar and the resolution rules left to elaboration are in grammar.md.

pub mod ast;
pub mod error;
pub mod lexer;
pub mod parser;
pub mod pragma;
pub mod printer;
pub mod source_printer;
pub mod token;

pub use error::{render_errors_plain, SyntaxError, SyntaxErrorKind, SyntaxErrors};
pub use printer::print_program;
pub use source_printer::print_program_as_apl;

use crate::source::SourceFile;

/// Parses a whole file. Reports every syntax error found (the lexer's, the parser's and those of malformed pragmas,
/// in source order), not only the first.
pub fn parse_program(file: &SourceFile) -> Result<ast::Program, SyntaxErrors> {
    let lexed = lexer::lex(file.text());
    let (program, parse_errors) = parser::parse_tokens(file.text(), &lexed.tokens, lexed.comments);
    let mut errors = lexed.errors;
    errors.extend(parse_errors);
    if let Err(pragma_errors) = pragma::read_pragmas(file) {
        errors.extend(pragma_errors.errors);
    }
    if errors.is_empty() {
        Ok(program)
    } else {
        Err(SyntaxErrors::new(file, errors))
    }
}
