//! `⍝:` type annotations: parsed (grammar.md §5) and checked at every use of the annotated dfn (each annotated dfn is
//! also checked once, generically, by `annotation_check.rs`).
//!
//! Elaboration knows each argument's base type and rank statically, and often its extents and values, so an
//! annotation is checked against what a call actually elaborates to: base types must match (an argument may be
//! promoted up the lattice to the annotated type), ranks must match, and vector lengths and singleton values must
//! match where they are known. Base-type variables (`κ`) and shape variables (`ρ`, `ρ+1`) are bound by their first
//! use in the annotation and must agree everywhere else. A violation is a TYPE ERROR that points at the annotation
//! and at the call.

use super::annotation_check::{function_parts, parse_dfn_annotation, parse_statement_annotation};
use super::env::{Arr, Val};
use super::error::{ElabError, ElabResult};
use super::ir::Base;
use super::Elaborator;
use crate::source::Span;
use crate::syntax::ast;
use std::collections::HashMap;

/// A base type in an annotation.
#[derive(Clone, Debug, PartialEq)]
pub enum AnnotatedBase {
    Known(Base),
    Variable(String),
}

/// A shape term: a constant plus shape variables.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeTerm {
    pub constant: i64,
    pub variables: Vec<String>,
}

impl ShapeTerm {
    pub fn constant(value: i64) -> ShapeTerm {
        ShapeTerm {
            constant: value,
            variables: Vec::new(),
        }
    }
}

/// A type in an annotation.
#[derive(Clone, Debug, PartialEq)]
pub enum AnnotatedType {
    /// `[κ]ρ`: rank ρ.
    Array(AnnotatedBase, ShapeTerm),
    /// `<κ>ρ`: a vector of length ρ.
    Vector(AnnotatedBase, ShapeTerm),
    /// `S(κ,n)`: a scalar whose value is n.
    Singleton(AnnotatedBase, ShapeTerm),
    /// `SV(κ,n)`: a one-element vector whose element is n.
    SingletonVector(AnnotatedBase, ShapeTerm),
    Function(Box<AnnotatedType>, Box<AnnotatedType>),
}

/// Parse the text of an annotation (what follows `⍝:`).
pub fn parse_annotation(text: &str) -> Result<AnnotatedType, String> {
    let mut parser = AnnotationParser {
        characters: text.chars().collect(),
        position: 0,
    };
    let parsed = parser.function_type()?;
    parser.skip_blanks();
    if parser.position < parser.characters.len() {
        return Err(format!(
            "unexpected '{}' in the type",
            parser.characters[parser.position]
        ));
    }
    Ok(parsed)
}

struct AnnotationParser {
    characters: Vec<char>,
    position: usize,
}

impl AnnotationParser {
    fn skip_blanks(&mut self) {
        while self.characters.get(self.position).is_some_and(|c| c.is_whitespace()) {
            self.position += 1;
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_blanks();
        self.characters.get(self.position).copied()
    }

    fn eat(&mut self, text: &str) -> bool {
        self.skip_blanks();
        let expected: Vec<char> = text.chars().collect();
        if self.characters[self.position..].starts_with(&expected) {
            self.position += expected.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, text: &str) -> Result<(), String> {
        if self.eat(text) {
            Ok(())
        } else {
            Err(format!("expected '{text}' in the type"))
        }
    }

    fn function_type(&mut self) -> Result<AnnotatedType, String> {
        let argument = self.simple_type()?;
        if self.eat("→") || self.eat("->") {
            let result = self.function_type()?;
            return Ok(AnnotatedType::Function(Box::new(argument), Box::new(result)));
        }
        Ok(argument)
    }

    fn simple_type(&mut self) -> Result<AnnotatedType, String> {
        if self.eat("(") {
            let inner = self.function_type()?;
            self.expect(")")?;
            return Ok(inner);
        }
        if self.eat("[") {
            let base = self.base()?;
            self.expect("]")?;
            return Ok(AnnotatedType::Array(base, self.shape()?));
        }
        if self.eat("<") {
            let base = self.base()?;
            self.expect(">")?;
            return Ok(AnnotatedType::Vector(base, self.shape()?));
        }
        if self.eat("SV(") {
            let base = self.base()?;
            self.expect(",")?;
            let value = self.shape()?;
            self.expect(")")?;
            return Ok(AnnotatedType::SingletonVector(base, value));
        }
        if self.eat("S(") {
            let base = self.base()?;
            self.expect(",")?;
            let value = self.shape()?;
            self.expect(")")?;
            return Ok(AnnotatedType::Singleton(base, value));
        }
        let base = self.base()?;
        Ok(AnnotatedType::Array(
            base,
            ShapeTerm {
                constant: 0,
                variables: Vec::new(),
            },
        ))
    }

    fn identifier(&mut self) -> Option<String> {
        self.skip_blanks();
        let start = self.position;
        while self
            .characters
            .get(self.position)
            .is_some_and(|c| c.is_alphanumeric() || *c == '_' || *c == '\'')
        {
            self.position += 1;
        }
        (self.position > start).then(|| self.characters[start..self.position].iter().collect())
    }

    fn base(&mut self) -> Result<AnnotatedBase, String> {
        let Some(name) = self.identifier() else {
            return Err("expected a base type".to_string());
        };
        Ok(match name.as_str() {
            "int" => AnnotatedBase::Known(Base::Int),
            "double" => AnnotatedBase::Known(Base::Double),
            "bool" => AnnotatedBase::Known(Base::Bool),
            "char" => AnnotatedBase::Known(Base::Char),
            "complex" => AnnotatedBase::Known(Base::Complex),
            _ if name.chars().next().is_some_and(|c| c.is_ascii_digit()) => {
                return Err(format!("expected a base type, found {name}"))
            }
            _ => AnnotatedBase::Variable(name),
        })
    }

    fn shape(&mut self) -> Result<ShapeTerm, String> {
        let mut term = ShapeTerm {
            constant: 0,
            variables: Vec::new(),
        };
        let parenthesised = self.eat("(");
        loop {
            match self.peek() {
                Some(c) if c.is_ascii_digit() => {
                    let text = self.identifier().unwrap_or_default();
                    let value = text.parse::<i64>().map_err(|_| format!("malformed number {text}"))?;
                    term.constant = term
                        .constant
                        .checked_add(value)
                        .ok_or_else(|| format!("the number {text} makes the term too large"))?;
                }
                Some(_) => match self.identifier() {
                    Some(name) => term.variables.push(name),
                    None => return Err("expected a rank or length".to_string()),
                },
                None => return Err("expected a rank or length".to_string()),
            }
            if !self.eat("+") {
                break;
            }
        }
        if parenthesised {
            self.expect(")")?;
        }
        Ok(term)
    }
}

/// The bindings of an annotation's variables during one check.
#[derive(Default)]
struct Bindings {
    bases: HashMap<String, Base>,
    shapes: HashMap<String, i64>,
}

impl Bindings {
    /// Match a shape term against a known or unknown natural; binds a single unbound variable when it can.
    fn shape(&mut self, term: &ShapeTerm, actual: Option<i64>, what: &str) -> Result<(), String> {
        let mut known = term.constant;
        let mut unbound = Vec::new();
        for variable in &term.variables {
            match self.shapes.get(variable) {
                Some(value) => known += value,
                None => unbound.push(variable),
            }
        }
        let Some(actual) = actual else { return Ok(()) };
        match unbound.as_slice() {
            [] if known != actual => Err(format!("the {what} is {actual}, the annotation says {known}")),
            [] => Ok(()),
            [variable] => {
                if actual < known {
                    return Err(format!("the {what} is {actual}, the annotation needs at least {known}"));
                }
                self.shapes.insert((*variable).clone(), actual - known);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Match a base type; returns the annotated base (an argument of a lower type is promoted to it).
    fn base(&mut self, annotated: &AnnotatedBase, actual: Base) -> Result<Base, String> {
        let expected = match annotated {
            AnnotatedBase::Known(base) => *base,
            AnnotatedBase::Variable(name) => *self.bases.entry(name.clone()).or_insert(actual),
        };
        if actual == expected || (actual.is_numeric() && expected.is_numeric() && actual < expected) {
            Ok(expected)
        } else {
            Err(format!(
                "the values are {}, the annotation says {}",
                actual.name(),
                expected.name()
            ))
        }
    }

    /// Check one array against a non-function annotated type; returns the base to promote it to.
    fn check(&mut self, annotated: &AnnotatedType, array: &Arr) -> Result<Base, String> {
        let singleton_value = || array.constant_scalar().and_then(|s| s.as_int());
        match annotated {
            AnnotatedType::Array(base, rank) => {
                self.shape(rank, Some(array.rank as i64), "rank")?;
                self.base(base, array.base)
            }
            AnnotatedType::Vector(base, length) => {
                if array.rank != 1 {
                    return Err(format!("a vector is expected, the rank is {}", array.rank));
                }
                self.shape(length, array.extents[0], "length")?;
                self.base(base, array.base)
            }
            AnnotatedType::Singleton(base, value) => {
                if array.rank != 0 {
                    return Err(format!("a scalar is expected, the rank is {}", array.rank));
                }
                self.shape(value, singleton_value(), "value")?;
                self.base(base, array.base)
            }
            AnnotatedType::SingletonVector(base, value) => {
                if array.rank != 1 || array.extents[0].is_some_and(|e| e != 1) {
                    return Err("a one-element vector is expected".to_string());
                }
                self.shape(value, singleton_value(), "value")?;
                self.base(base, array.base)
            }
            AnnotatedType::Function(..) => Err("a function type where an array is expected".to_string()),
        }
    }
}

/// A dfn annotation being checked at one call: the parsed type and its variables.
pub struct CallCheck {
    annotation_span: Span,
    call_span: Span,
    parts: Vec<AnnotatedType>,
    bindings: Bindings,
}

impl CallCheck {
    fn error(&self, message: String) -> ElabError {
        ElabError::Type {
            message,
            span: self.annotation_span,
            use_span: Some(self.call_span),
            body_span: None,
            hint: None,
        }
    }
}

impl Elaborator {
    /// `⍝: name : type` on the line before an assignment: check an array now; remember a dfn's type for its calls.
    pub fn check_statement_annotation(&mut self, annotation: &ast::Comment, expr: &ast::Expr) -> ElabResult<()> {
        let (name, _) = parse_statement_annotation(annotation)?;
        let text = annotation.annotation_text().unwrap_or_default();
        let type_text = text.split_once(':').map_or("", |(_, type_text)| type_text);
        let target_matches =
            matches!(&expr.assignment, Some(a) if matches!(&a.target, ast::AssignTarget::Name(n) if n.text == name));
        if !target_matches {
            return Err(ElabError::type_error(
                annotation.span,
                format!("the annotation is for {name}, but the statement does not assign {name}"),
            ));
        }
        self.pending_annotation = Some((name, type_text.to_string(), annotation.span));
        Ok(())
    }

    /// After an annotated assignment: attach the type to a dfn, or check an array against it.
    pub fn apply_pending_annotation(&mut self, name: &str, value: Val, span: Span) -> ElabResult<Val> {
        let Some((annotated_name, type_text, annotation_span)) = self.pending_annotation.take() else {
            return Ok(value);
        };
        if annotated_name != name {
            self.pending_annotation = Some((annotated_name, type_text, annotation_span));
            return Ok(value);
        }
        match value {
            Val::Function(function) => match &*function {
                super::env::Fun::Dfn(closure, dfn_span) => {
                    let mut closure = closure.clone();
                    let mut dfn = (*closure.dfn).clone();
                    let annotation = ast::Comment {
                        text: format!(":{type_text}"),
                        span: annotation_span,
                    };
                    dfn.annotation = Some(annotation.clone());
                    closure.dfn = std::rc::Rc::new(dfn);
                    self.check_annotated_dfn_once(&closure, &annotation)?;
                    Ok(Val::Function(std::rc::Rc::new(super::env::Fun::Dfn(
                        closure, *dfn_span,
                    ))))
                }
                _ => Ok(Val::Function(function)),
            },
            Val::Array(array) => {
                let annotated = parse_annotation(&type_text).map_err(|message| {
                    ElabError::syntax(annotation_span, format!("malformed type annotation: {message}"))
                })?;
                let mut bindings = Bindings::default();
                match bindings.check(&annotated, &array) {
                    Ok(base) => Ok(Val::Array(self.convert(array, base, span)?)),
                    Err(message) => Err(ElabError::Type {
                        message,
                        span: annotation_span,
                        use_span: Some(span),
                        body_span: None,
                        hint: None,
                    }),
                }
            }
            other => Ok(other),
        }
    }

    /// Check a call's arguments against the dfn's annotation (promoting them as annotated); the returned check is
    /// finished on the result with [`Elaborator::check_call_result`].
    pub fn check_call_arguments(
        &mut self,
        annotation: &ast::Comment,
        left: Option<Val>,
        right: Val,
        call_span: Span,
    ) -> ElabResult<(CallCheck, Option<Val>, Val)> {
        let parts = function_parts(parse_dfn_annotation(annotation)?);
        let mut check = CallCheck {
            annotation_span: annotation.span,
            call_span,
            parts,
            bindings: Bindings::default(),
        };
        let expected_arguments = if left.is_some() { 2 } else { 1 };
        if check.parts.len() != expected_arguments + 1 {
            let valence = if left.is_some() { "dyadically" } else { "monadically" };
            return Err(check.error(format!(
                "the annotation gives {} argument(s), but the dfn is called {valence}",
                check.parts.len() - 1
            )));
        }
        let left = match left {
            Some(left) => {
                let part = check.parts[0].clone();
                Some(self.check_against(&mut check, &part, left, "left argument")?)
            }
            None => None,
        };
        let part = check.parts[expected_arguments - 1].clone();
        let right = self.check_against(&mut check, &part, right, "argument")?;
        Ok((check, left, right))
    }

    pub fn check_call_result(&mut self, mut check: CallCheck, result: Val) -> ElabResult<Val> {
        let part = check.parts.last().expect("a result type").clone();
        self.check_against(&mut check, &part, result, "result")
    }

    fn check_against(
        &mut self,
        check: &mut CallCheck,
        annotated: &AnnotatedType,
        value: Val,
        role: &str,
    ) -> ElabResult<Val> {
        let Val::Array(array) = value else {
            return Ok(value);
        };
        match check.bindings.check(annotated, &array) {
            Ok(base) if base == array.base => Ok(Val::Array(array)),
            Ok(base) => {
                let span = check.call_span;
                Ok(Val::Array(self.convert(array, base, span)?))
            }
            Err(message) => Err(check.error(format!("the {role} does not match the annotation: {message}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_parse() {
        let parsed = parse_annotation(" <κ>(ρ+1) → <κ>ρ").unwrap();
        let AnnotatedType::Function(argument, result) = parsed else {
            panic!("a function type")
        };
        assert_eq!(
            *argument,
            AnnotatedType::Vector(
                AnnotatedBase::Variable("κ".to_string()),
                ShapeTerm {
                    constant: 1,
                    variables: vec!["ρ".to_string()]
                }
            )
        );
        assert_eq!(
            *result,
            AnnotatedType::Vector(
                AnnotatedBase::Variable("κ".to_string()),
                ShapeTerm {
                    constant: 0,
                    variables: vec!["ρ".to_string()]
                }
            )
        );
        assert!(matches!(
            parse_annotation("S(int,5)"),
            Ok(AnnotatedType::Singleton(AnnotatedBase::Known(Base::Int), _))
        ));
        assert!(matches!(parse_annotation("int → int"), Ok(AnnotatedType::Function(..))));
        assert!(parse_annotation("[int").is_err());
        assert!(parse_annotation("<int>").is_err());
    }

    #[test]
    fn shape_variables_bind_and_must_agree() {
        let mut bindings = Bindings::default();
        let term = ShapeTerm {
            constant: 1,
            variables: vec!["ρ".to_string()],
        };
        assert!(bindings.shape(&term, Some(4), "length").is_ok());
        assert_eq!(bindings.shapes["ρ"], 3);
        let plain = ShapeTerm {
            constant: 0,
            variables: vec!["ρ".to_string()],
        };
        assert!(bindings.shape(&plain, Some(3), "length").is_ok());
        assert!(bindings.shape(&plain, Some(4), "length").is_err());
    }
}
