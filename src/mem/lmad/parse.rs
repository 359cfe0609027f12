//! Reading back what the printers write: terms (`2*n + 1`), LMADs (`(n + 1)+{(m:1)}`) and array annotations
//! (`[n][m]@mem3 -> 0+{(n:m),(m:1)}`), so that memory IR dumps can be parsed and round-trip tests can compare texts.
//!
//! Grammar (spaces allowed between tokens):
//! ```text
//! annotation := ('[' term ']')* '@' name '->' lmad
//! lmad       := offset '+' '{' [dim (',' dim)*] '}'
//! offset     := '(' term ')' | term          -- a bare offset stops before the '+' that precedes '{'
//! dim        := '(' term ':' term ')'
//! term       := ['-'] product (('+' | '-') product)*
//! product    := factor ('*' factor)*
//! factor     := integer | name | '(' term ')' | '-' factor
//! ```

use crate::mem::lmad::{Dim, Lmad};
use crate::mem::term::Term;

/// Text that is not a term, an LMAD or an array annotation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[error("expected {expected} at byte {position} of `{text}`")]
#[diagnostic(code(aplc::mem::lmad_syntax))]
pub struct LmadParseError {
    pub text: String,
    pub position: usize,
    pub expected: &'static str,
}

/// The shape, memory block name and LMAD of an array annotation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayAnnotation {
    pub shape: Vec<Term>,
    pub memory_name: String,
    pub lmad: Lmad,
}

/// Parses a whole term, e.g. `m*n - m`.
pub fn parse_term(text: &str) -> Result<Term, LmadParseError> {
    let mut cursor = Cursor::new(text);
    let term = cursor.term()?;
    cursor.end()?;
    Ok(term)
}

/// Parses a whole LMAD, e.g. `0+{(n:m),(m:1)}`.
pub fn parse_lmad(text: &str) -> Result<Lmad, LmadParseError> {
    let mut cursor = Cursor::new(text);
    let lmad = cursor.lmad()?;
    cursor.end()?;
    Ok(lmad)
}

/// Parses a whole array annotation, e.g. `[n][m]@mem3 -> 0+{(n:m),(m:1)}`.
pub fn parse_array_annotation(text: &str) -> Result<ArrayAnnotation, LmadParseError> {
    let mut cursor = Cursor::new(text);
    let mut shape = Vec::new();
    while cursor.eat('[') {
        shape.push(cursor.term()?);
        cursor.expect(']', "`]`")?;
    }
    cursor.expect('@', "`[` or `@`")?;
    let memory_name = cursor.name().ok_or_else(|| cursor.error("a memory block name"))?;
    cursor.expect('-', "`->`")?;
    cursor.expect('>', "`->`")?;
    let lmad = cursor.lmad()?;
    cursor.end()?;
    Ok(ArrayAnnotation {
        shape,
        memory_name,
        lmad,
    })
}

/// A position in the text being parsed.
struct Cursor<'text> {
    text: &'text str,
    position: usize,
}

impl<'text> Cursor<'text> {
    fn new(text: &'text str) -> Cursor<'text> {
        Cursor { text, position: 0 }
    }

    fn error(&self, expected: &'static str) -> LmadParseError {
        LmadParseError {
            text: self.text.to_string(),
            position: self.position,
            expected,
        }
    }

    fn skip_spaces(&mut self) {
        let rest = &self.text[self.position..];
        self.position += rest.len() - rest.trim_start().len();
    }

    /// The next character after any spaces, without consuming it.
    fn peek(&mut self) -> Option<char> {
        self.skip_spaces();
        self.text[self.position..].chars().next()
    }

    /// The character after the next one (after spaces), without consuming anything.
    fn peek_second(&mut self) -> Option<char> {
        self.skip_spaces();
        let mut rest = self.text[self.position..].chars();
        rest.next();
        rest.as_str().trim_start().chars().next()
    }

    fn eat(&mut self, expected: char) -> bool {
        if self.peek() == Some(expected) {
            self.position += expected.len_utf8();
            return true;
        }
        false
    }

    fn expect(&mut self, expected: char, description: &'static str) -> Result<(), LmadParseError> {
        if self.eat(expected) {
            return Ok(());
        }
        Err(self.error(description))
    }

    fn end(&mut self) -> Result<(), LmadParseError> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.error("the end of the text")),
        }
    }

    fn take_while(&mut self, accept: impl Fn(char) -> bool) -> &'text str {
        self.skip_spaces();
        let rest = &self.text[self.position..];
        let length = rest.find(|character: char| !accept(character)).unwrap_or(rest.len());
        self.position += length;
        &rest[..length]
    }

    fn name(&mut self) -> Option<String> {
        if !self
            .peek()
            .is_some_and(|character| character.is_ascii_alphabetic() || character == '_')
        {
            return None;
        }
        let name = self.take_while(|character| character.is_ascii_alphanumeric() || character == '_');
        Some(name.to_string())
    }

    /// The result of checked term arithmetic, or an error at `start` when a coefficient overflowed.
    fn fits(&self, start: usize, result: Option<Term>) -> Result<Term, LmadParseError> {
        result.ok_or_else(|| LmadParseError {
            text: self.text.to_string(),
            position: start,
            expected: "a term whose coefficients fit in 64 bits",
        })
    }

    fn integer(&mut self) -> Result<Option<Term>, LmadParseError> {
        if !self.peek().is_some_and(|character| character.is_ascii_digit()) {
            return Ok(None);
        }
        let start = self.position;
        let digits = self.take_while(|character| character.is_ascii_digit());
        let value: i64 = digits.parse().map_err(|_| LmadParseError {
            text: self.text.to_string(),
            position: start,
            expected: "an integer that fits in 64 bits",
        })?;
        Ok(Some(Term::constant(value)))
    }

    fn term(&mut self) -> Result<Term, LmadParseError> {
        let mut sum = self.product()?;
        loop {
            // A '+' before '{' ends the offset of an LMAD rather than adding to it.
            let start = self.position;
            if self.peek() == Some('+') && self.peek_second() != Some('{') {
                self.eat('+');
                let product = self.product()?;
                sum = self.fits(start, sum.checked_add(&product))?;
            } else if self.eat('-') {
                let product = self.product()?;
                sum = self.fits(start, sum.checked_sub(&product))?;
            } else {
                return Ok(sum);
            }
        }
    }

    fn product(&mut self) -> Result<Term, LmadParseError> {
        let mut product = self.factor()?;
        loop {
            let start = self.position;
            if !self.eat('*') {
                return Ok(product);
            }
            let factor = self.factor()?;
            product = self.fits(start, product.checked_mul(&factor))?;
        }
    }

    fn factor(&mut self) -> Result<Term, LmadParseError> {
        let start = self.position;
        if self.eat('-') {
            let factor = self.factor()?;
            return self.fits(start, factor.checked_scale(-1));
        }
        if self.eat('(') {
            let term = self.term()?;
            self.expect(')', "`)`")?;
            return Ok(term);
        }
        if let Some(constant) = self.integer()? {
            return Ok(constant);
        }
        match self.name() {
            Some(name) => Ok(Term::variable(&name)),
            None => Err(self.error("an integer, a name, `-` or `(`")),
        }
    }

    fn lmad(&mut self) -> Result<Lmad, LmadParseError> {
        let offset = self.term()?;
        self.expect('+', "`+{`")?;
        self.expect('{', "`{`")?;
        let mut dims = Vec::new();
        if !self.eat('}') {
            loop {
                dims.push(self.dim()?);
                if self.eat('}') {
                    break;
                }
                self.expect(',', "`,` or `}`")?;
            }
        }
        Ok(Lmad { offset, dims })
    }

    fn dim(&mut self) -> Result<Dim, LmadParseError> {
        self.expect('(', "`(`")?;
        let size = self.term()?;
        self.expect(':', "`:`")?;
        let stride = self.term()?;
        self.expect(')', "`)`")?;
        Ok(Dim { size, stride })
    }
}
