//! Parser for TAIL's concrete syntax (the text [`super::printer`] writes), so `.tail` files are first-class inputs.
//!
//! Grammar (whitespace and SML comments `(* ... *)` may appear between tokens):
//! ```text
//! program ::= {"fun" ident "(" ident ":" type {"," ident ":" type} ")" ":" type "=" expr ";"} expr
//! expr    ::= "let" ident [":" type] "=" expr "in" expr
//!           | "fn" ident [":" type] "=>" expr
//!           | atom
//! atom    ::= number | "tt" | "ff" | char
//!           | "[" [expr {"," expr}] "]" [":" base]      (the element type is required when empty)
//!           | "(" expr {"," expr} ")"                    (a tuple when there are two or more)
//!           | "#" digits "(" expr ")"                    (projection, 1-based)
//!           | "call" ident "(" [expr {"," expr}] ")"      (a call of a function of the program)
//!           | opname "(" [expr {"," expr}] ")" | opname | ident
//! type    ::= tyatom ["->" type]
//! tyatom  ::= "[" base "]" shatom | "<" base ">" shatom | "S(" base "," shape ")" | "SV(" base "," shape ")"
//!           | base                                       (a scalar, `[base]0`) | "'" name (a type variable)
//!           | "(" type {"," type} ")"
//! base    ::= "int" | "double" | "bool" | "char" | "complex" | "'" name
//! shape   ::= shatom {"+" shatom}        shatom ::= digits | "'" name | "(" shape ")"
//! number  ::= ["~"] digits ["." digits] [("E"|"e") ["~"] digits] ["j" number]   (ints have neither "." nor "E")
//! ```
//! Lexical tokens use nom combinators; the structure is recursive descent over the remaining input, so every node
//! gets the span of its text.

use super::ast::{BaseType, Expr, ExprKind, Op, Program, Shape, Type, TypeScheme};
use super::error::SyntaxError;
use crate::source::{SourceFile, Span};
use nom::bytes::complete::{tag, take_until, take_while, take_while1};
use nom::character::complete::{char as nom_char, digit1, multispace1};
use nom::{IResult, Parser as _};
use std::collections::HashMap;

/// Parses a whole `.tail` file.
pub fn parse_program(file: &SourceFile) -> Result<Program, SyntaxError> {
    let mut parser = Parser::new(file.text());
    let mut functions = Vec::new();
    while parser.eat_keyword("fun")? {
        functions.push(parser.function()?);
    }
    let body = parser.expr()?;
    parser.skip_space()?;
    if !parser.rest().is_empty() {
        return Err(parser.error_here("expected the end of the program"));
    }
    Ok(Program { functions, body })
}

/// Parses one expression from text (spans are offsets into `text`).
pub fn parse_expr(text: &str) -> Result<Expr, SyntaxError> {
    parse_program(&SourceFile::new("<expr>", text)).map(|program| program.body)
}

/// Parses a type. Variables with the same name in one type are the same variable.
pub fn parse_type(text: &str) -> Result<Type, SyntaxError> {
    let mut parser = Parser::new(text);
    let ty = parser.ty()?;
    parser.skip_space()?;
    if !parser.rest().is_empty() {
        return Err(parser.error_here("expected the end of the type"));
    }
    Ok(ty)
}

/// Parses a type and quantifies all its variables.
pub fn parse_type_scheme(text: &str) -> Result<TypeScheme, SyntaxError> {
    let mut parser = Parser::new(text);
    let body = parser.ty()?;
    parser.skip_space()?;
    if !parser.rest().is_empty() {
        return Err(parser.error_here("expected the end of the type"));
    }
    let mut scheme = TypeScheme::monomorphic(body);
    for (kind, id) in parser.variables.values() {
        match kind {
            VariableKind::Base => scheme.base_variables.push(*id),
            VariableKind::Shape => scheme.shape_variables.push(*id),
            VariableKind::Type => scheme.type_variables.push(*id),
        }
    }
    scheme.base_variables.sort_unstable();
    scheme.shape_variables.sort_unstable();
    scheme.type_variables.sort_unstable();
    Ok(scheme)
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum VariableKind {
    Base,
    Shape,
    Type,
}

impl VariableKind {
    /// The letter the printer uses for variables of this kind.
    fn printed_letter(self) -> u8 {
        match self {
            VariableKind::Base => b'a',
            VariableKind::Shape => b'n',
            VariableKind::Type => b't',
        }
    }
}

const KEYWORDS: &[&str] = &["let", "in", "fn", "tt", "ff", "nan", "fun", "call"];

struct Parser<'a> {
    text: &'a str,
    position: usize,
    /// Type variables by name, with their kind and id.
    variables: HashMap<String, (VariableKind, u32)>,
}

type Parsed<T> = Result<T, SyntaxError>;

fn identifier(input: &str) -> IResult<&str, &str> {
    let (rest, _) = take_while1(|c: char| c.is_ascii_alphabetic() || c == '_').parse(input)?;
    let (rest, _) = take_while(|c: char| c.is_ascii_alphanumeric() || c == '_').parse(rest)?;
    Ok((rest, &input[..input.len() - rest.len()]))
}

fn comment(input: &str) -> IResult<&str, &str> {
    let (rest, _) = tag("(*").parse(input)?;
    let (rest, body) = take_until("*)").parse(rest)?;
    let (rest, _) = tag("*)").parse(rest)?;
    Ok((rest, body))
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Parser<'a> {
        Parser {
            text,
            position: 0,
            variables: HashMap::new(),
        }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.position..]
    }

    fn advance_to(&mut self, rest: &'a str) {
        self.position = self.text.len() - rest.len();
    }

    fn error_here(&self, message: impl Into<String>) -> SyntaxError {
        let end = self
            .rest()
            .chars()
            .next()
            .map_or(self.position, |c| self.position + c.len_utf8());
        SyntaxError {
            message: message.into(),
            span: Span::new(self.position, end),
        }
    }

    fn skip_space(&mut self) -> Parsed<()> {
        loop {
            if let Ok((rest, _)) = multispace1::<&str, nom::error::Error<&str>>(self.rest()) {
                self.advance_to(rest);
            } else if self.rest().starts_with("(*") {
                match comment(self.rest()) {
                    Ok((rest, _)) => self.advance_to(rest),
                    Err(_) => return Err(self.error_here("unterminated comment")),
                }
            } else {
                return Ok(());
            }
        }
    }

    /// Consumes `symbol` (after whitespace) if it is next.
    fn eat(&mut self, symbol: &str) -> Parsed<bool> {
        self.skip_space()?;
        let result: IResult<&str, &str> = tag(symbol).parse(self.rest());
        match result {
            Ok((rest, _)) => {
                self.advance_to(rest);
                Ok(true)
            }
            Err(_) => Ok(false),
        }
    }

    fn expect(&mut self, symbol: &str) -> Parsed<()> {
        if self.eat(symbol)? {
            Ok(())
        } else {
            Err(self.error_here(format!("expected `{symbol}`")))
        }
    }

    /// The next identifier-like word without consuming it.
    fn peek_word(&mut self) -> Parsed<Option<&'a str>> {
        self.skip_space()?;
        Ok(identifier(self.rest()).ok().map(|(_, word)| word))
    }

    fn eat_keyword(&mut self, keyword: &str) -> Parsed<bool> {
        if self.peek_word()? == Some(keyword) {
            self.position += keyword.len();
            Ok(true)
        } else {
            Ok(false)
        }
    }

    fn binder_name(&mut self) -> Parsed<String> {
        match self.peek_word()? {
            Some(word) if !KEYWORDS.contains(&word) && Op::from_name(word).is_none() => {
                self.position += word.len();
                Ok(word.to_string())
            }
            Some(word) => Err(self.error_here(format!("`{word}` is reserved and cannot be bound"))),
            None => Err(self.error_here("expected a variable name")),
        }
    }

    fn optional_annotation(&mut self) -> Parsed<Option<Type>> {
        if self.eat(":")? {
            Ok(Some(self.ty()?))
        } else {
            Ok(None)
        }
    }

    /// A function definition after `fun`: `name(x:τ, ...) : τ = body ;`.
    fn function(&mut self) -> Parsed<super::ast::Function> {
        let name = self.binder_name()?;
        self.expect("(")?;
        let mut parameters = Vec::new();
        loop {
            let parameter = self.binder_name()?;
            self.expect(":")?;
            parameters.push((parameter, self.ty()?));
            if self.eat(")")? {
                break;
            }
            self.expect(",")?;
        }
        self.expect(":")?;
        let result = self.ty()?;
        self.expect("=")?;
        let body = self.expr()?;
        self.expect(";")?;
        Ok(super::ast::Function {
            name,
            parameters,
            result,
            body,
        })
    }

    // ---- Expressions ----

    fn expr(&mut self) -> Parsed<Expr> {
        self.skip_space()?;
        let start = self.position;
        if self.peek_word()? == Some("let") {
            // A chain of lets is parsed in a loop (generated programs have thousands), then built from the inside.
            let mut bindings = Vec::new();
            loop {
                self.skip_space()?;
                let start = self.position;
                if !self.eat_keyword("let")? {
                    break;
                }
                let name = self.binder_name()?;
                let ty = self.optional_annotation()?;
                self.expect("=")?;
                let value = self.expr()?;
                if !self.eat_keyword("in")? {
                    return Err(self.error_here("expected `in`"));
                }
                bindings.push((start, name, ty, value));
            }
            let mut body = self.expr()?;
            for (start, name, ty, value) in bindings.into_iter().rev() {
                let span = Span::new(start, body.span.end);
                body = Expr::new(
                    ExprKind::Let {
                        name,
                        ty,
                        value: Box::new(value),
                        body: Box::new(body),
                    },
                    span,
                );
            }
            return Ok(body);
        }
        if self.eat_keyword("fn")? {
            let parameter = self.binder_name()?;
            let ty = self.optional_annotation()?;
            self.expect("=>")?;
            let body = self.expr()?;
            let span = Span::new(start, body.span.end);
            return Ok(Expr::new(
                ExprKind::Lambda {
                    parameter,
                    ty,
                    body: Box::new(body),
                },
                span,
            ));
        }
        self.atom()
    }

    fn finish(&self, start: usize, kind: ExprKind) -> Expr {
        Expr::new(kind, Span::new(start, self.position))
    }

    /// `e1, e2, ... closing` after the opening bracket has been consumed.
    fn expr_list(&mut self, closing: &str) -> Parsed<Vec<Expr>> {
        let mut exprs = Vec::new();
        if self.eat(closing)? {
            return Ok(exprs);
        }
        loop {
            exprs.push(self.expr()?);
            if self.eat(closing)? {
                return Ok(exprs);
            }
            if !self.eat(",")? {
                return Err(self.error_here(format!("expected `,` or `{closing}`")));
            }
        }
    }

    fn atom(&mut self) -> Parsed<Expr> {
        self.skip_space()?;
        let start = self.position;
        let rest = self.rest();
        let first = rest.chars().next();
        match first {
            None => Err(self.error_here("expected an expression, found the end of the text")),
            Some('[') => {
                self.position += 1;
                let elements = self.expr_list("]")?;
                let element_type = if self.eat(":")? { Some(self.base_type()?) } else { None };
                if elements.is_empty() && element_type.is_none() {
                    return Err(self.error_here("an empty vector literal needs its element type, as in `[]:int`"));
                }
                Ok(self.finish(start, ExprKind::Vector { elements, element_type }))
            }
            Some('(') => {
                self.position += 1;
                let mut components = self.expr_list(")")?;
                match components.len() {
                    0 => Err(SyntaxError {
                        message: "empty parentheses".into(),
                        span: Span::new(start, self.position),
                    }),
                    1 => {
                        let mut inner = components.pop().expect("one component");
                        inner.span = Span::new(start, self.position);
                        Ok(inner)
                    }
                    _ => Ok(self.finish(start, ExprKind::Tuple(components))),
                }
            }
            Some('#') => {
                self.position += 1;
                let index = self.natural()?;
                if index == 0 {
                    return Err(SyntaxError {
                        message: "projections count from 1".into(),
                        span: Span::new(start, self.position),
                    });
                }
                self.expect("(")?;
                let tuple = self.expr()?;
                self.expect(")")?;
                Ok(self.finish(
                    start,
                    ExprKind::Project {
                        index: index as usize,
                        tuple: Box::new(tuple),
                    },
                ))
            }
            Some('\'') => {
                let value = self.char_literal()?;
                Ok(self.finish(start, ExprKind::Char(value)))
            }
            Some(c) if c == '~' || c.is_ascii_digit() => self.number_literal(),
            Some(c) if c.is_ascii_alphabetic() || c == '_' => self.word_atom(),
            Some(c) => Err(self.error_here(format!("unexpected `{c}`"))),
        }
    }

    fn word_atom(&mut self) -> Parsed<Expr> {
        let start = self.position;
        let word = self.peek_word()?.expect("a word starts here");
        self.position += word.len();
        match word {
            "tt" => return Ok(self.finish(start, ExprKind::Bool(true))),
            "ff" => return Ok(self.finish(start, ExprKind::Bool(false))),
            "nan" => return Ok(self.finish(start, ExprKind::Double(f64::NAN))),
            "call" => {
                let function = self.binder_name()?;
                self.expect("(")?;
                let args = self.expr_list(")")?;
                return Ok(self.finish(start, ExprKind::Call { function, args }));
            }
            "let" | "in" | "fn" | "fun" => {
                self.position = start;
                return Err(self.error_here(format!("unexpected keyword `{word}`")));
            }
            _ => {}
        }
        let Some(op) = Op::from_name(word) else {
            return Ok(self.finish(start, ExprKind::Var(word.to_string())));
        };
        // An op followed by `(` is applied; otherwise it is a function value.
        let before_arguments = self.position;
        self.skip_space()?;
        if self.rest().starts_with('(') && !self.rest().starts_with("(*") {
            self.position += 1;
            let args = self.expr_list(")")?;
            if args.len() != op.arity() {
                return Err(SyntaxError {
                    message: format!("{} takes {} arguments, given {}", op.name(), op.arity(), args.len()),
                    span: Span::new(start, self.position),
                });
            }
            Ok(self.finish(start, ExprKind::Op { op, args }))
        } else {
            self.position = before_arguments;
            if op.arity() == 0 {
                return Err(self.error_here(format!(
                    "{} takes no arguments and is written `{}()`",
                    op.name(),
                    op.name()
                )));
            }
            Ok(self.finish(start, ExprKind::OpRef(op)))
        }
    }

    fn natural(&mut self) -> Parsed<u64> {
        let result: IResult<&str, &str> = digit1(self.rest());
        match result {
            Ok((rest, digits)) => {
                let value = digits.parse::<u64>().map_err(|_| self.error_here("number too large"))?;
                self.advance_to(rest);
                Ok(value)
            }
            Err(_) => Err(self.error_here("expected a number")),
        }
    }

    /// `["~"] digits ["." digits] [E ["~"] digits]`, as (text in Rust syntax, is it a double).
    fn real_text(&mut self) -> Parsed<(String, bool)> {
        let mut text = String::new();
        if self.rest().starts_with('~') {
            self.position += 1;
            text.push('-');
        }
        let result: IResult<&str, &str> = digit1(self.rest());
        let Ok((rest, digits)) = result else {
            return Err(self.error_here("expected digits"));
        };
        text.push_str(digits);
        self.advance_to(rest);
        let mut is_double = false;
        if self.rest().starts_with('.') {
            let result: IResult<&str, (char, &str)> = (nom_char('.'), digit1).parse(self.rest());
            let Ok((rest, (_, fraction))) = result else {
                return Err(self.error_here("expected digits after `.`"));
            };
            text.push('.');
            text.push_str(fraction);
            self.advance_to(rest);
            is_double = true;
        }
        if self.rest().starts_with(['E', 'e']) {
            self.position += 1;
            text.push('e');
            if self.rest().starts_with('~') {
                self.position += 1;
                text.push('-');
            }
            let result: IResult<&str, &str> = digit1(self.rest());
            let Ok((rest, exponent)) = result else {
                return Err(self.error_here("expected digits in the exponent"));
            };
            text.push_str(exponent);
            self.advance_to(rest);
            is_double = true;
        }
        Ok((text, is_double))
    }

    fn number_literal(&mut self) -> Parsed<Expr> {
        let start = self.position;
        let (text, is_double) = self.real_text()?;
        let bad_number = |parser: &Parser| SyntaxError {
            message: format!("bad number `{}`", &parser.text[start..parser.position]),
            span: Span::new(start, parser.position),
        };
        if self.rest().starts_with('j') {
            self.position += 1;
            let (imaginary_text, _) = self.real_text()?;
            let real = text.parse::<f64>().map_err(|_| bad_number(self))?;
            let imaginary = imaginary_text.parse::<f64>().map_err(|_| bad_number(self))?;
            return Ok(self.finish(start, ExprKind::Complex(real, imaginary)));
        }
        if is_double {
            let value = text.parse::<f64>().map_err(|_| bad_number(self))?;
            Ok(self.finish(start, ExprKind::Double(value)))
        } else {
            let value = text.parse::<i64>().map_err(|_| bad_number(self))?;
            Ok(self.finish(start, ExprKind::Int(value)))
        }
    }

    fn char_literal(&mut self) -> Parsed<char> {
        let start = self.position;
        self.position += 1; // the opening quote
        let mut chars = self.rest().chars();
        let value = match chars.next() {
            Some('\\') => {
                self.position += 1;
                let mut chars = self.rest().chars();
                match chars.next() {
                    Some('n') => {
                        self.position += 1;
                        '\n'
                    }
                    Some('t') => {
                        self.position += 1;
                        '\t'
                    }
                    Some('\\') => {
                        self.position += 1;
                        '\\'
                    }
                    Some('\'') => {
                        self.position += 1;
                        '\''
                    }
                    Some('u') => {
                        self.position += 1;
                        self.expect("{")?;
                        let result: IResult<&str, &str> =
                            take_while1(|c: char| c.is_ascii_hexdigit()).parse(self.rest());
                        let Ok((rest, hex)) = result else {
                            return Err(self.error_here("expected hexadecimal digits"));
                        };
                        self.advance_to(rest);
                        self.expect("}")?;
                        u32::from_str_radix(hex, 16)
                            .ok()
                            .and_then(char::from_u32)
                            .ok_or_else(|| SyntaxError {
                                message: "not a Unicode scalar value".into(),
                                span: Span::new(start, self.position),
                            })?
                    }
                    _ => return Err(self.error_here("unknown escape (use \\n \\t \\\\ \\' or \\u{..})")),
                }
            }
            Some(c) if c != '\'' => {
                self.position += c.len_utf8();
                c
            }
            _ => return Err(self.error_here("expected a character")),
        };
        if !self.rest().starts_with('\'') {
            return Err(self.error_here("expected `'` to close the character"));
        }
        self.position += 1;
        Ok(value)
    }

    // ---- Types ----

    fn variable(&mut self, kind: VariableKind) -> Parsed<u32> {
        let start = self.position;
        self.position += 1; // the quote
        let result: IResult<&str, &str> = identifier(self.rest());
        let Ok((rest, name)) = result else {
            return Err(self.error_here("expected a type variable name after `'`"));
        };
        self.advance_to(rest);
        // A printed variable (`'a3`, `'n3`, `'t3`) keeps its number, so printing a parsed type gives the same text;
        // other names are numbered from a high offset that printed names do not reach in practice.
        let id = match name[1..].parse::<u32>() {
            Ok(number) if name.len() > 1 && name.as_bytes()[0] == kind.printed_letter() => number,
            _ => 1_000_000 + self.variables.len() as u32,
        };
        let entry = self.variables.entry(name.to_string()).or_insert((kind, id));
        if entry.0 != kind {
            return Err(SyntaxError {
                message: format!(
                    "type variable '{name} is used both as a {:?} and a {kind:?} variable",
                    entry.0
                ),
                span: Span::new(start, self.position),
            });
        }
        Ok(entry.1)
    }

    fn base_type(&mut self) -> Parsed<BaseType> {
        self.skip_space()?;
        if self.rest().starts_with('\'') {
            return Ok(BaseType::Var(self.variable(VariableKind::Base)?));
        }
        let base = match self.peek_word()? {
            Some("int") => BaseType::Int,
            Some("double") => BaseType::Double,
            Some("bool") => BaseType::Bool,
            Some("char") => BaseType::Char,
            Some("complex") => BaseType::Complex,
            _ => return Err(self.error_here("expected a base type (int, double, bool, char, complex or 'a)")),
        };
        self.position += self.peek_word()?.map_or(0, str::len);
        Ok(base)
    }

    fn shape_atom(&mut self) -> Parsed<Shape> {
        self.skip_space()?;
        if self.rest().starts_with('\'') {
            Ok(Shape::variable(self.variable(VariableKind::Shape)?))
        } else if self.eat("(")? {
            let shape = self.shape()?;
            self.expect(")")?;
            Ok(shape)
        } else {
            Ok(Shape::constant(self.natural()?))
        }
    }

    fn shape(&mut self) -> Parsed<Shape> {
        let mut shape = self.shape_atom()?;
        while self.eat("+")? {
            shape = shape.plus(&self.shape_atom()?);
        }
        Ok(shape)
    }

    fn ty(&mut self) -> Parsed<Type> {
        let argument = self.type_atom()?;
        if self.eat("->")? {
            let result = self.ty()?;
            Ok(Type::function(argument, result))
        } else {
            Ok(argument)
        }
    }

    fn type_atom(&mut self) -> Parsed<Type> {
        self.skip_space()?;
        if self.eat("[")? {
            let base = self.base_type()?;
            self.expect("]")?;
            return Ok(Type::Array(base, self.shape_atom()?));
        }
        if self.eat("<")? {
            let base = self.base_type()?;
            self.expect(">")?;
            return Ok(Type::Vector(base, self.shape_atom()?));
        }
        if self.eat("SV(")? {
            let base = self.base_type()?;
            self.expect(",")?;
            let shape = self.shape()?;
            self.expect(")")?;
            return Ok(Type::SingletonVector(base, shape));
        }
        if self.eat("S(")? {
            let base = self.base_type()?;
            self.expect(",")?;
            let shape = self.shape()?;
            self.expect(")")?;
            return Ok(Type::Singleton(base, shape));
        }
        if self.eat("(")? {
            let mut components = vec![self.ty()?];
            while self.eat(",")? {
                components.push(self.ty()?);
            }
            self.expect(")")?;
            return Ok(if components.len() == 1 {
                components.pop().expect("one")
            } else {
                Type::Tuple(components)
            });
        }
        if self.rest().starts_with('\'') {
            return Ok(Type::Var(self.variable(VariableKind::Type)?));
        }
        Ok(Type::scalar(self.base_type()?))
    }
}
