//! Reads the text form of the loop IR (as [`super::printer`] writes it) back into a [`Program`], so that loop IR can
//! be written by hand in tests of later stages, and so that print → parse → print can be checked.
//!
//! The format is line based: one statement per line, `{` at the end of a `for`/`while`/`if` line, `}` (or
//! `} else {`) on a line of its own. A variable's name is its hint followed by its id (`acc14`, `v1_3`); its type
//! comes from its definition (`let`, `var`, a `for` index, the extents of a `format`). A block is `mem<id>`, its
//! element type from its `alloc` or `format` (an `alloc` of `int8`, `int16` or `int32` is a narrow int block). `view` lines carry an array annotation in the memory stage's syntax
//! (`[n][m]@mem3 -> 0+{(n:m),(m:1)}`). Lines starting with `#` are comments.

use super::ir::{
    Argument, ArrayRef, Block, Expr, Layout, Program, Reduction, ResultValue, ScalarType, Slot, Stmt, Storage, Var,
};
use crate::runtime::error::AplErrorKind;
use crate::source::Span;
use crate::tail::ast::Op;
use miette::Diagnostic;
use std::collections::HashMap;
use std::rc::Rc;
use thiserror::Error;

#[derive(Clone, Debug, Error, Diagnostic, PartialEq)]
#[error("loop IR syntax error on line {line}: {message}")]
#[diagnostic(code(aplc::loops::syntax))]
pub struct ParseError {
    pub line: usize,
    pub message: String,
}

pub fn parse_program(text: &str) -> Result<Program, ParseError> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(k, l)| (k + 1, l.trim()))
        // `#` lines are comments (the memory table of `aplc dump --stage mem`).
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let mut parser = Parser {
        lines,
        position: 0,
        vars: HashMap::new(),
        blocks: HashMap::new(),
    };
    let mut functions = Vec::new();
    while parser.peek_line().is_some_and(|line| line.starts_with("fun ")) {
        functions.push(parser.function()?);
    }
    let body = parser.statements()?;
    let (line, text) = parser.next_line().ok_or_else(|| ParseError {
        line: 0,
        message: "missing the `result` line".to_string(),
    })?;
    let rest = text.strip_prefix("result ").ok_or_else(|| ParseError {
        line,
        message: "expected `result`".to_string(),
    })?;
    let mut cursor = Cursor {
        text: rest,
        line,
        parser: &parser,
    };
    let result = cursor.result()?;
    cursor.end()?;
    if let Some((line, _)) = parser.next_line() {
        return Err(ParseError {
            line,
            message: "text after the result".to_string(),
        });
    }
    Ok(Program {
        functions,
        body,
        result,
    })
}

struct Parser<'t> {
    lines: Vec<(usize, &'t str)>,
    position: usize,
    vars: HashMap<u32, Var>,
    blocks: HashMap<u32, Block>,
}

fn type_named(name: &str) -> Option<ScalarType> {
    match name {
        "int" => Some(ScalarType::Int),
        "double" => Some(ScalarType::Double),
        "bool" => Some(ScalarType::Bool),
        "char" => Some(ScalarType::Char),
        "complex" => Some(ScalarType::Complex),
        _ => None,
    }
}

/// The element type and storage of an `alloc`: a type name, or `int8`, `int16`, `int32` for a narrow int block.
fn storage_named(name: &str) -> Option<(ScalarType, Storage)> {
    match name.strip_prefix("int").and_then(|bits| bits.parse().ok()) {
        Some(bits) => Some((ScalarType::Int, Storage::narrow_int(bits)?)),
        None => Some((type_named(name)?, Storage::Natural)),
    }
}

/// `acc14` → ("acc", 14); `v1_3` → ("v1", 3).
fn split_name(name: &str) -> Option<(&str, u32)> {
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return None;
    }
    let (hint, id) = name.split_at(name.len() - digits);
    let hint = hint
        .strip_suffix('_')
        .filter(|h| h.ends_with(|c: char| c.is_ascii_digit()))
        .unwrap_or(hint);
    Some((hint, id.parse().ok()?))
}

fn error_kind(name: &str) -> Option<AplErrorKind> {
    AplErrorKind::ALL.into_iter().find(|kind| kind.apl_name() == name)
}

impl<'t> Parser<'t> {
    fn next_line(&mut self) -> Option<(usize, &'t str)> {
        let line = self.lines.get(self.position).copied();
        self.position += 1;
        line
    }

    fn peek_line(&self) -> Option<&'t str> {
        self.lines.get(self.position).map(|(_, l)| *l)
    }

    /// Statements up to a `}`, `} else {` or `result` line (not consumed).
    fn statements(&mut self) -> Result<Vec<Stmt>, ParseError> {
        let mut statements = Vec::new();
        while let Some(line) = self.peek_line() {
            if line.starts_with('}')
                || line.starts_with("result ")
                || line.starts_with("yield ")
                || line.starts_with("return ")
            {
                break;
            }
            let (number, text) = self.next_line().expect("peeked");
            statements.push(self.statement(number, text)?);
        }
        Ok(statements)
    }

    /// `fun f(x1 : int, ...) -> int {`, the body, `return e`, `}`.
    fn function(&mut self) -> Result<super::ir::Function, ParseError> {
        let (line, text) = self.next_line().expect("peeked");
        let fail = |message: &str| ParseError {
            line,
            message: format!("{message}: `{text}`"),
        };
        let header = text
            .strip_prefix("fun ")
            .and_then(|header| header.strip_suffix(" {"))
            .ok_or_else(|| fail("expected `fun f(x : type, ...) -> type {`"))?;
        let (name, rest) = header.split_once('(').ok_or_else(|| fail("expected `(`"))?;
        let (parameters_text, result_type) = rest.split_once(") -> ").ok_or_else(|| fail("expected `) -> type`"))?;
        let mut parameters = Vec::new();
        for parameter in split_outside_brackets(parameters_text) {
            parameters.push(self.slot(parameter, line)?);
        }
        let body = self.statements()?;
        let (return_line, return_text) = self.next_line().ok_or_else(|| fail("a function without `return`"))?;
        let value = return_text.strip_prefix("return ").ok_or_else(|| ParseError {
            line: return_line,
            message: "expected `return`".to_string(),
        })?;
        let mut cursor = self.cursor(value, return_line);
        let result = cursor.result()?;
        cursor.end()?;
        let returned_type = match &result {
            ResultValue::Scalar(value) => value.ty().name().to_string(),
            ResultValue::Array(array) => format!("{}[rank {}]", array.block.element.name(), array.shape.len()),
            ResultValue::Tuple(_) => return Err(fail("a function returns a scalar or an array")),
        };
        if returned_type != result_type {
            return Err(fail("the returned value does not have the result type"));
        }
        self.expect_close(line)?;
        Ok(super::ir::Function {
            name: name.to_string(),
            parameters,
            body,
            result,
        })
    }

    /// A function's parameter or a call's result: `x1 : int`, or `mem2 : double[n3, n4]`; defines its names.
    fn slot(&mut self, text: &str, line: usize) -> Result<Slot, ParseError> {
        let fail = |message: &str| ParseError {
            line,
            message: format!("{message}: `{text}`"),
        };
        let (name, ty) = text.split_once(" : ").ok_or_else(|| fail("expected `name : type`"))?;
        match ty.split_once('[') {
            None => {
                let ty = type_named(ty).ok_or_else(|| fail("unknown type"))?;
                Ok(Slot::Scalar(self.define(name, ty, line)?))
            }
            Some((element, extents)) => {
                let element = type_named(element).ok_or_else(|| fail("unknown element type"))?;
                let extents = extents.strip_suffix(']').ok_or_else(|| fail("expected `]`"))?;
                let shape = extents
                    .split(", ")
                    .filter(|extent| !extent.is_empty())
                    .map(|extent| self.define(extent, ScalarType::Int, line))
                    .collect::<Result<Vec<_>, _>>()?;
                let block = self.new_block(name, element, line)?;
                Ok(Slot::Array { block, shape })
            }
        }
    }

    fn block_body(&mut self, line: usize) -> Result<Vec<Stmt>, ParseError> {
        let body = self.statements()?;
        match self.peek_line() {
            Some(l) if l.starts_with('}') => Ok(body),
            _ => Err(ParseError {
                line,
                message: "a `{` without its `}`".to_string(),
            }),
        }
    }

    fn define(&mut self, name: &str, ty: ScalarType, line: usize) -> Result<Var, ParseError> {
        let (hint, id) = split_name(name).ok_or_else(|| ParseError {
            line,
            message: format!("`{name}` is not a variable name (hint and id)"),
        })?;
        let var = Var {
            id,
            ty,
            hint: Rc::from(hint),
        };
        self.vars.insert(id, var.clone());
        Ok(var)
    }

    fn new_block(&mut self, name: &str, element: ScalarType, line: usize) -> Result<Block, ParseError> {
        self.new_block_stored(name, element, Storage::Natural, line)
    }

    fn new_block_stored(
        &mut self,
        name: &str,
        element: ScalarType,
        storage: Storage,
        line: usize,
    ) -> Result<Block, ParseError> {
        let id = name
            .strip_prefix("mem")
            .and_then(|id| id.parse().ok())
            .ok_or_else(|| ParseError {
                line,
                message: format!("`{name}` is not a block name"),
            })?;
        let block = Block { id, element, storage };
        self.blocks.insert(id, block);
        Ok(block)
    }

    fn statement(&mut self, line: usize, text: &'t str) -> Result<Stmt, ParseError> {
        let fail = |message: &str| ParseError {
            line,
            message: format!("{message}: `{text}`"),
        };
        let (keyword, rest) = text.split_once(' ').unwrap_or((text, ""));
        let keyword = keyword.split('(').next().unwrap_or(keyword);
        match keyword {
            "let" | "var" => {
                let (name, rest) = rest.split_once(" : ").ok_or_else(|| fail("expected `name : type`"))?;
                let (ty, value) = rest.split_once(" = ").ok_or_else(|| fail("expected `= value`"))?;
                let ty = type_named(ty).ok_or_else(|| fail("unknown type"))?;
                let value = self.expr_of(value, line)?;
                let var = self.define(name, ty, line)?;
                Ok(if keyword == "let" {
                    Stmt::Let { var, value }
                } else {
                    Stmt::Mutable { var, value }
                })
            }
            "for" => {
                let (name, rest) = rest.split_once(" < ").ok_or_else(|| fail("expected `for i < n {`"))?;
                let count = self.expr_of(rest.strip_suffix(" {").ok_or_else(|| fail("expected `{`"))?, line)?;
                let index = self.define(name, ScalarType::Int, line)?;
                let body = self.block_body(line)?;
                self.expect_close(line)?;
                Ok(Stmt::For { index, count, body })
            }
            "parfor" => {
                let (name, rest) = rest
                    .split_once(" < ")
                    .ok_or_else(|| fail("expected `parfor i < n {`"))?;
                let count = self.expr_of(rest.strip_suffix(" {").ok_or_else(|| fail("expected `{`"))?, line)?;
                let index = self.define(name, ScalarType::Int, line)?;
                let body = self.block_body(line)?;
                self.expect_close(line)?;
                Ok(Stmt::ParallelFor { index, count, body })
            }
            "reduce" => self.parallel_reduce(line, rest),
            "while" => {
                let condition = self.expr_of(rest.strip_suffix(" {").ok_or_else(|| fail("expected `{`"))?, line)?;
                let body = self.block_body(line)?;
                self.expect_close(line)?;
                Ok(Stmt::While { condition, body })
            }
            "if" => {
                let condition = self.expr_of(rest.strip_suffix(" {").ok_or_else(|| fail("expected `{`"))?, line)?;
                let then = self.block_body(line)?;
                let (_, close) = self.next_line().expect("block_body checked");
                let otherwise = if close == "} else {" {
                    let otherwise = self.block_body(line)?;
                    self.expect_close(line)?;
                    otherwise
                } else if close == "}" {
                    vec![]
                } else {
                    return Err(fail("expected `}` or `} else {`"));
                };
                Ok(Stmt::If {
                    condition,
                    then,
                    otherwise,
                })
            }
            "alloc" => {
                let (rest, site) = split_site(rest).map_err(&fail)?;
                let (name, rest) = rest
                    .split_once(" : ")
                    .ok_or_else(|| fail("expected `alloc mem : type[size]`"))?;
                let (ty, size) = rest.split_once('[').ok_or_else(|| fail("expected `[size]`"))?;
                let (element, storage) = storage_named(ty).ok_or_else(|| fail("unknown type"))?;
                let size = self.expr_of(size.strip_suffix(']').ok_or_else(|| fail("expected `]`"))?, line)?;
                let block = self.new_block_stored(name, element, storage, line)?;
                Ok(Stmt::Alloc { block, size, site })
            }
            "store" => {
                let mut cursor = self.cursor(rest, line);
                let (block, index) = cursor.load_parts()?;
                cursor.expect(" = ")?;
                let value = cursor.expr()?;
                cursor.end()?;
                Ok(Stmt::Store { block, index, value })
            }
            "free" => Ok(Stmt::Free {
                block: self.cursor(rest, line).block()?,
            }),
            "swap" => {
                let mut cursor = self.cursor(rest, line);
                let first = cursor.block()?;
                cursor.expect(", ")?;
                let second = cursor.block()?;
                cursor.end()?;
                Ok(Stmt::Swap { first, second })
            }
            "print" => {
                let mut cursor = self.cursor(text, line);
                cursor.expect("print(")?;
                let precision = cursor.expr()?;
                cursor.expect(") ")?;
                let statement = if cursor.at_array_ref() {
                    Stmt::PrintArray {
                        array: cursor.array_ref()?,
                        precision,
                    }
                } else {
                    Stmt::PrintScalar {
                        value: cursor.expr()?,
                        precision,
                    }
                };
                cursor.end()?;
                Ok(statement)
            }
            "read_file" => {
                let (rest, site) = split_site(rest).map_err(&fail)?;
                let (path_text, target) = rest.split_once(" -> ").ok_or_else(|| fail("expected `->`"))?;
                let mut cursor = self.cursor(path_text, line);
                let path = cursor.array_ref()?;
                cursor.end()?;
                let (name, ty) = target.split_once(" : ").ok_or_else(|| fail("expected `: type[n]`"))?;
                let (element, length) = ty.split_once('[').ok_or_else(|| fail("expected `[`"))?;
                let element = type_named(element).ok_or_else(|| fail("unknown type"))?;
                let length = length.strip_suffix(']').ok_or_else(|| fail("expected `]`"))?;
                let length = self.define(length, ScalarType::Int, line)?;
                let result = self.new_block(name, element, line)?;
                Ok(Stmt::ReadFile {
                    path,
                    result,
                    length,
                    site,
                })
            }
            "clock" => Ok(Stmt::ReadClock {
                var: self.define(rest, ScalarType::Int, line)?,
            }),
            "report_bench" => {
                let mut cursor = self.cursor(text, line);
                cursor.expect("report_bench(")?;
                let iterations = cursor.expr()?;
                cursor.expect(", ")?;
                let start = cursor.expr()?;
                cursor.expect(")")?;
                cursor.end()?;
                Ok(Stmt::ReportBench { iterations, start })
            }
            "error" => {
                let (kind, message) = rest
                    .split_once(" \"")
                    .ok_or_else(|| fail("expected a quoted message"))?;
                let kind = error_kind(kind).ok_or_else(|| fail("unknown APL error"))?;
                let mut cursor = self.cursor(message, line);
                let message = cursor.quoted_rest()?;
                let (rest, site) = split_site(cursor.text).map_err(&fail)?;
                if !rest.is_empty() {
                    return Err(fail("unexpected text after the message"));
                }
                Ok(Stmt::Error { kind, message, site })
            }
            "format" | "formatMatrix" => {
                let (text, site) = split_site(text).map_err(&fail)?;
                let (source_text, target) = text.split_once(" -> ").ok_or_else(|| fail("expected `->`"))?;
                let mut cursor = self.cursor(source_text, line);
                cursor.expect(keyword)?;
                cursor.expect("(")?;
                let precision = cursor.expr()?;
                cursor.expect(") ")?;
                let source = cursor.array_ref()?;
                cursor.end()?;
                let (name, extents) = target
                    .split_once(" : char[")
                    .ok_or_else(|| fail("expected `: char[`"))?;
                let extents = extents.strip_suffix(']').ok_or_else(|| fail("expected `]`"))?;
                let shape = extents
                    .split(", ")
                    .map(|extent| self.define(extent, ScalarType::Int, line))
                    .collect::<Result<Vec<_>, _>>()?;
                let result = self.new_block(name, ScalarType::Char, line)?;
                Ok(Stmt::Format {
                    source,
                    precision,
                    matrix: keyword == "formatMatrix",
                    result,
                    shape,
                    site,
                })
            }
            "view" => self.view(rest, line),
            "call" => {
                let (rest, site) = split_site(rest).map_err(&fail)?;
                let (slot, call) = rest.split_once(" = ").ok_or_else(|| fail("expected `= f(args)`"))?;
                let (function, arguments) = call.split_once('(').ok_or_else(|| fail("expected `f(args)`"))?;
                let mut cursor = self.cursor(arguments, line);
                let mut args = Vec::new();
                if !cursor.text.starts_with(')') {
                    loop {
                        args.push(if cursor.at_array_ref() {
                            Argument::Array(cursor.array_ref()?)
                        } else {
                            Argument::Scalar(cursor.expr()?)
                        });
                        if !cursor.text.starts_with(", ") {
                            break;
                        }
                        cursor.expect(", ")?;
                    }
                }
                cursor.expect(")")?;
                cursor.end()?;
                let result = self.slot(slot, line)?;
                Ok(Stmt::Call {
                    result,
                    function: function.to_string(),
                    args,
                    site,
                })
            }
            _ => {
                let (name, value) = text.split_once(" := ").ok_or_else(|| fail("unknown statement"))?;
                let var = self.cursor(name, line).var()?;
                let value = self.expr_of(value, line)?;
                Ok(Stmt::Assign { var, value })
            }
        }
    }

    fn view(&mut self, rest: &str, line: usize) -> Result<Stmt, ParseError> {
        let fail = |message: String| ParseError { line, message };
        let (name, rest) = rest
            .split_once(" : ")
            .ok_or_else(|| fail("expected `view name : type`".to_string()))?;
        let (_, annotation) = rest
            .split_once(' ')
            .ok_or_else(|| fail("expected an annotation".to_string()))?;
        let annotation = match crate::mem::parse_array_annotation(annotation) {
            Ok(annotation) => annotation,
            // A layout that is not an LMAD over sums of products (an offset with `maxi`, say) is printed with the
            // loop IR's own expressions.
            Err(error) => {
                let (block, shape, layout) = self
                    .view_of_expressions(annotation, line)
                    .map_err(|_| fail(format!("bad annotation: {error}")))?;
                return Ok(Stmt::View {
                    name: name.to_string(),
                    block,
                    shape,
                    layout,
                });
            }
        };
        let block = self.cursor(&annotation.memory_name, line).block()?;
        let expr = |term: &crate::mem::Term| self.expr_of_term(term, line);
        let shape = annotation.shape.iter().map(expr).collect::<Result<Vec<_>, _>>()?;
        let strides = annotation
            .lmad
            .dims
            .iter()
            .map(|dim| expr(&dim.stride))
            .collect::<Result<Vec<_>, _>>()?;
        let offset = expr(&annotation.lmad.offset)?;
        Ok(Stmt::View {
            name: name.to_string(),
            block,
            shape,
            layout: Layout { offset, strides },
        })
    }

    /// `[e]...[e]@memN -> (offset)+{(extent:stride),...}`, the annotation of a view whose layout is not an LMAD
    /// (`crate::loops::memory::annotation`), with each part an expression of the loop IR.
    fn view_of_expressions(&mut self, text: &str, line: usize) -> Result<(Block, Vec<Expr>, Layout), ParseError> {
        let fail = || ParseError {
            line,
            message: format!("bad view annotation `{text}`"),
        };
        let (shape_text, rest) = text.split_once('@').ok_or_else(fail)?;
        let (block_name, rest) = rest.split_once(" -> ").ok_or_else(fail)?;
        let block = self.cursor(block_name, line).block()?;
        let mut shape = Vec::new();
        for extent in bracketed_parts(shape_text, '[', ']').ok_or_else(fail)? {
            shape.push(self.expr_of(extent, line)?);
        }
        let (offset_text, dims_text) = rest.split_once(")+{").ok_or_else(fail)?;
        let offset = self.expr_of(offset_text.strip_prefix('(').ok_or_else(fail)?, line)?;
        let dims_text = dims_text.strip_suffix('}').ok_or_else(fail)?;
        let mut strides = Vec::new();
        for dim in bracketed_parts(dims_text, '(', ')').ok_or_else(fail)? {
            let (_, stride) = split_at_top_level(dim, ':').ok_or_else(fail)?;
            strides.push(self.expr_of(stride, line)?);
        }
        Ok((block, shape, Layout { offset, strides }))
    }

    /// A term (a sum of products of variables) as an int expression.
    fn expr_of_term(&self, term: &crate::mem::Term, line: usize) -> Result<Expr, ParseError> {
        let mut sum = Expr::Int(0);
        for (variables, coefficient) in term.monomials() {
            let mut product = Expr::Int(coefficient);
            for name in variables {
                let var = self.cursor(name, line).var()?;
                product = Expr::mul_int(product, Expr::Var(var));
            }
            sum = Expr::add_int(sum, product);
        }
        Ok(sum)
    }

    /// `reduce acc : t = op(neutral) [commutative] for k < n [at START..END] {`, the body, `yield element`, `}`.
    fn parallel_reduce(&mut self, line: usize, rest: &'t str) -> Result<Stmt, ParseError> {
        let fail = |message: &str| ParseError {
            line,
            message: format!("{message}: `reduce {rest}`"),
        };
        let (name, rest) = rest.split_once(" : ").ok_or_else(|| fail("expected `name : type`"))?;
        let (ty, rest) = rest.split_once(" = ").ok_or_else(|| fail("expected `= op(neutral)`"))?;
        let ty = type_named(ty).ok_or_else(|| fail("unknown type"))?;
        let (operator, rest) = rest
            .rsplit_once(" for ")
            .ok_or_else(|| fail("expected `for k < n {`"))?;
        let (operator, commutative) = match operator.strip_suffix(" commutative") {
            Some(operator) => (operator, true),
            None => (operator, false),
        };
        let (op_name, neutral) = operator
            .strip_suffix(')')
            .and_then(|operator| operator.split_once('('))
            .ok_or_else(|| fail("expected `op(neutral)`"))?;
        let op = Op::from_name(op_name).ok_or_else(|| fail("unknown operator"))?;
        let neutral = self.expr_of(neutral, line)?;
        let (index_name, count) = rest.split_once(" < ").ok_or_else(|| fail("expected `for k < n {`"))?;
        let (count, site) = split_site(count.strip_suffix(" {").ok_or_else(|| fail("expected `{`"))?).map_err(&fail)?;
        let count = self.expr_of(count, line)?;
        let index = self.define(index_name, ScalarType::Int, line)?;
        let body = self.statements()?;
        let element = match self.next_line() {
            Some((_, text)) if text.starts_with("yield ") => self.expr_of(&text["yield ".len()..], line)?,
            _ => return Err(fail("expected `yield element` at the end of the body")),
        };
        self.expect_close(line)?;
        let result = self.define(name, ty, line)?;
        Ok(Stmt::ParallelReduce {
            result,
            reduction: Reduction {
                op,
                neutral,
                commutative,
            },
            index,
            count,
            body,
            element,
            site,
        })
    }

    fn expect_close(&mut self, line: usize) -> Result<(), ParseError> {
        match self.next_line() {
            Some((_, "}")) => Ok(()),
            _ => Err(ParseError {
                line,
                message: "expected `}`".to_string(),
            }),
        }
    }

    fn cursor<'c>(&'c self, text: &'c str, line: usize) -> Cursor<'c, 't> {
        Cursor {
            text,
            line,
            parser: self,
        }
    }

    fn expr_of(&self, text: &str, line: usize) -> Result<Expr, ParseError> {
        let mut cursor = self.cursor(text, line);
        let expr = cursor.expr()?;
        cursor.end()?;
        Ok(expr)
    }
}

/// A position in one line.
struct Cursor<'c, 't> {
    text: &'c str,
    line: usize,
    parser: &'c Parser<'t>,
}

impl Cursor<'_, '_> {
    fn error(&self, message: &str) -> ParseError {
        ParseError {
            line: self.line,
            message: format!("{message} at `{}`", self.text),
        }
    }

    fn eat(&mut self, prefix: &str) -> bool {
        match self.text.strip_prefix(prefix) {
            Some(rest) => {
                self.text = rest;
                true
            }
            None => false,
        }
    }

    fn expect(&mut self, prefix: &str) -> Result<(), ParseError> {
        if self.eat(prefix) {
            Ok(())
        } else {
            Err(self.error(&format!("expected `{prefix}`")))
        }
    }

    fn end(&self) -> Result<(), ParseError> {
        if self.text.is_empty() {
            Ok(())
        } else {
            Err(self.error("unexpected text"))
        }
    }

    fn word(&mut self) -> &str {
        let end = self
            .text
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(self.text.len());
        let (word, rest) = self.text.split_at(end);
        self.text = rest;
        word
    }

    fn var(&mut self) -> Result<Var, ParseError> {
        let word = self.word().to_string();
        let (_, id) = split_name(&word).ok_or_else(|| self.error("expected a variable"))?;
        self.parser
            .vars
            .get(&id)
            .cloned()
            .ok_or_else(|| self.error(&format!("variable {word} used before it is defined")))
    }

    fn block(&mut self) -> Result<Block, ParseError> {
        let word = self.word().to_string();
        let id: u32 = word
            .strip_prefix("mem")
            .and_then(|id| id.parse().ok())
            .ok_or_else(|| self.error("expected a block"))?;
        self.parser
            .blocks
            .get(&id)
            .copied()
            .ok_or_else(|| self.error(&format!("block {word} used before it is allocated")))
    }

    /// `memK : type[...]` follows.
    fn at_array_ref(&self) -> bool {
        self.text.starts_with("mem")
            && self
                .text
                .split_once(' ')
                .is_some_and(|(_, rest)| rest.starts_with(": "))
    }

    fn array_ref(&mut self) -> Result<ArrayRef, ParseError> {
        let block = self.block()?;
        self.expect(" : ")?;
        let ty = self.word().to_string();
        if type_named(&ty) != Some(block.element) {
            return Err(self.error("the element type differs from the block's"));
        }
        self.expect("[")?;
        let mut shape = Vec::new();
        if !self.eat("]") {
            loop {
                shape.push(self.expr()?);
                if self.eat("]") {
                    break;
                }
                self.expect(", ")?;
            }
        }
        Ok(ArrayRef { block, shape })
    }

    fn load_parts(&mut self) -> Result<(Block, Expr), ParseError> {
        let block = self.block()?;
        self.expect("[")?;
        let index = self.expr()?;
        self.expect("]")?;
        Ok((block, index))
    }

    fn result(&mut self) -> Result<ResultValue, ParseError> {
        if self.at_array_ref() {
            return Ok(ResultValue::Array(self.array_ref()?));
        }
        // A tuple `(a, b)` or a parenthesised expression `(a + b)`.
        let saved = self.text;
        if self.eat("(") {
            let first = self.result()?;
            if self.eat(", ") {
                let mut components = vec![first];
                loop {
                    components.push(self.result()?);
                    if self.eat(")") {
                        return Ok(ResultValue::Tuple(components));
                    }
                    self.expect(", ")?;
                }
            }
            self.text = saved;
        }
        Ok(ResultValue::Scalar(self.expr()?))
    }

    fn quoted_rest(&mut self) -> Result<String, ParseError> {
        // The opening quote was consumed by the caller; read up to the closing one.
        let mut out = String::new();
        let mut chars = self.text.chars();
        loop {
            match chars.next() {
                None => return Err(self.error("unterminated string")),
                Some('"') => break,
                Some('\\') => out.push(unescape(&mut chars).ok_or_else(|| self.error("bad escape"))?),
                Some(c) => out.push(c),
            }
        }
        self.text = chars.as_str();
        Ok(out)
    }

    fn expr(&mut self) -> Result<Expr, ParseError> {
        if self.eat("(") {
            let first = self.expr()?;
            if self.eat(" ? ") {
                let then = self.expr()?;
                self.expect(" : ")?;
                let otherwise = self.expr()?;
                self.expect(")")?;
                return Ok(Expr::Select(Box::new(first), Box::new(then), Box::new(otherwise)));
            }
            self.expect(" ")?;
            let symbol = self.text.split(' ').next().unwrap_or("").to_string();
            self.text = &self.text[symbol.len()..];
            self.expect(" ")?;
            let second = self.expr()?;
            self.expect(")")?;
            let op = match symbol.as_str() {
                "+" => Op::AddW,
                "-" => Op::SubW,
                "*" => Op::MulW,
                "/" => Op::DivI,
                "<" => Op::LtI,
                "<=" => Op::LteI,
                ">" => Op::GtI,
                ">=" => Op::GteI,
                "==" => Op::EqI,
                "%" => return Ok(Expr::Prim(Op::ResI, vec![second, first])),
                _ => return Err(self.error(&format!("unknown operator `{symbol}`"))),
            };
            return Ok(Expr::Prim(op, vec![first, second]));
        }
        if self.eat("'") {
            let mut chars = self.text.chars();
            let c = match chars.next() {
                Some('\\') => unescape(&mut chars),
                other => other,
            }
            .ok_or_else(|| self.error("bad char literal"))?;
            self.text = chars.as_str();
            self.expect("'")?;
            return Ok(Expr::Char(c));
        }
        let starts_number = self.text.starts_with(|c: char| c.is_ascii_digit())
            || (self.text.starts_with('-') && self.text[1..].starts_with(|c: char| c.is_ascii_digit() || c == 'i'))
            || self.text.starts_with("inf")
            || self.text.starts_with("NaN");
        if starts_number {
            return self.number();
        }
        let word = self.word().to_string();
        match word.as_str() {
            "tt" => return Ok(Expr::Bool(true)),
            "ff" => return Ok(Expr::Bool(false)),
            "" => return Err(self.error("expected an expression")),
            _ => {}
        }
        // `at(START, END, e)`: an operation with a source site.
        if word == "at" && self.eat("(") {
            let offset = |cursor: &mut Self| match cursor.number()? {
                Expr::Int(n) if n >= 0 => Ok(n as usize),
                _ => Err(cursor.error("expected a byte offset")),
            };
            let start = offset(self)?;
            self.expect(", ")?;
            let end = offset(self)?;
            self.expect(", ")?;
            if start > end {
                return Err(self.error("a site ends before it starts"));
            }
            let inner = self.expr()?;
            self.expect(")")?;
            return Ok(Expr::At(Span::new(start, end), Box::new(inner)));
        }
        // `reached(name, value)`: a choice between versions.
        if word == "reached" && self.eat("(") {
            let name = self.word().to_string();
            if name.is_empty() {
                return Err(self.error("expected a parameter name"));
            }
            self.expect(", ")?;
            let value = self.expr()?;
            self.expect(")")?;
            return Ok(Expr::Threshold {
                name,
                value: Box::new(value),
            });
        }
        // `memK[index]`: a load from an allocated block.
        let block_id: Option<u32> = word.strip_prefix("mem").and_then(|id| id.parse().ok());
        if let Some(block) = block_id.and_then(|id| self.parser.blocks.get(&id).copied()) {
            if self.eat("[") {
                let index = self.expr()?;
                self.expect("]")?;
                return Ok(Expr::load(block, index));
            }
        }
        if self.eat("(") {
            let op = Op::from_name(&word).ok_or_else(|| self.error(&format!("unknown operator {word}")))?;
            let mut args = Vec::new();
            if !self.eat(")") {
                loop {
                    args.push(self.expr()?);
                    if self.eat(")") {
                        break;
                    }
                    self.expect(", ")?;
                }
            }
            return Ok(Expr::Prim(op, args));
        }
        let (_, id) = split_name(&word).ok_or_else(|| self.error(&format!("`{word}` is not a variable")))?;
        self.parser
            .vars
            .get(&id)
            .cloned()
            .map(Expr::Var)
            .ok_or_else(|| self.error(&format!("variable {word} used before it is defined")))
    }

    fn number(&mut self) -> Result<Expr, ParseError> {
        let end = self
            .text
            .char_indices()
            .skip(1)
            .find(|(_, c)| !(c.is_alphanumeric() || *c == '.' || *c == '-' || *c == '+'))
            .map_or(self.text.len(), |(k, _)| k);
        // A `-` or `+` only belongs to the number right after an exponent marker.
        let candidate = &self.text[..end];
        let mut length = candidate.len();
        for (k, c) in candidate.char_indices().skip(1) {
            if (c == '-' || c == '+') && !candidate[..k].ends_with('e') {
                length = k;
                break;
            }
        }
        let literal = &self.text[..length];
        self.text = &self.text[length..];
        let is_double = literal.contains(['.', 'e', 'E']) || literal.contains("inf") || literal.contains("NaN");
        if is_double {
            literal
                .parse::<f64>()
                .map(Expr::Double)
                .map_err(|_| self.error(&format!("bad number {literal}")))
        } else {
            literal
                .parse::<i64>()
                .map(Expr::Int)
                .map_err(|_| self.error(&format!("bad number {literal}")))
        }
    }
}

/// The character after a backslash in Rust's debug format (`\n`, `\'`, `\u{7}`, ...).
fn unescape(chars: &mut std::str::Chars<'_>) -> Option<char> {
    match chars.next()? {
        'n' => Some('\n'),
        't' => Some('\t'),
        'r' => Some('\r'),
        '0' => Some('\0'),
        '\\' => Some('\\'),
        '\'' => Some('\''),
        '"' => Some('"'),
        'u' => {
            if chars.next()? != '{' {
                return None;
            }
            let mut digits = String::new();
            loop {
                match chars.next()? {
                    '}' => break,
                    c => digits.push(c),
                }
            }
            char::from_u32(u32::from_str_radix(&digits, 16).ok()?)
        }
        _ => None,
    }
}

/// A statement's text without its ` at START..END` suffix, and the site it names.
fn split_site(text: &str) -> Result<(&str, Option<Span>), &'static str> {
    let Some((rest, range)) = text.rsplit_once(" at ") else {
        return Ok((text, None));
    };
    let Some((start, end)) = range.split_once("..") else {
        return Ok((text, None));
    };
    let (Ok(start), Ok(end)) = (start.parse::<usize>(), end.parse::<usize>()) else {
        return Ok((text, None));
    };
    if start > end {
        return Err("a site ends before it starts");
    }
    Ok((rest, Some(Span::new(start, end))))
}

/// The contents of the top-level `open ... close` groups of a text (`[a][b]` gives `a`, `b`; separators between
/// groups, such as commas, are skipped), or None when the brackets do not balance.
fn bracketed_parts(text: &str, open: char, close: char) -> Option<Vec<&str>> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (position, character) in text.char_indices() {
        match character {
            '(' | '[' => {
                if depth == 0 {
                    if character != open {
                        return None;
                    }
                    start = position + 1;
                }
                depth += 1;
            }
            ')' | ']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    if character != close {
                        return None;
                    }
                    parts.push(&text[start..position]);
                }
            }
            _ => {}
        }
    }
    (depth == 0).then_some(parts)
}

/// `text` split at the first `separator` outside parentheses and brackets.
fn split_at_top_level(text: &str, separator: char) -> Option<(&str, &str)> {
    let mut depth = 0usize;
    for (position, character) in text.char_indices() {
        match character {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.checked_sub(1)?,
            c if c == separator && depth == 0 => {
                return Some((&text[..position], &text[position + c.len_utf8()..]));
            }
            _ => {}
        }
    }
    None
}

/// The items of a comma-separated list (`, `), except the commas inside brackets (`mem2 : int[n3, n4], x5 : int`).
fn split_outside_brackets(text: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (position, character) in text.char_indices() {
        match character {
            '[' | '(' => depth += 1,
            ']' | ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 && text[position..].starts_with(", ") => {
                items.push(&text[start..position]);
                start = position + 2;
            }
            _ => {}
        }
    }
    if !text.is_empty() {
        items.push(&text[start..]);
    }
    items
}
