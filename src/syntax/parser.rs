//! The parser: tokens to [`ast::Program`], written with nom over a token slice ([`Tokens`]).
//!
//! Every expression becomes an unresolved sequence of items (see the top of `ast.rs` and grammar.md). The parser
//! settles brackets, parentheses, dfns and guards, numeric strands, assignments and indexing, and at the top level
//! traditional functions (`∇ header` ... `∇`) with the control structures of their bodies.
//!
//! Error recovery: an error inside a statement is recorded and the parser skips to the end of that statement (the
//! next newline, or `⋄` outside brackets, or the `}` that closes the enclosing dfn), so one run reports the errors of
//! every statement. Recovery happens in the innermost statement list: an error in a dfn's line does not lose the
//! rest of the dfn. Traditional functions and control structures are parsed by methods that never fail: they record
//! their errors and consume their whole structure (up to its closing keyword or `∇`), so that an error in one
//! keyword line is not followed by derived errors for the lines it encloses.

use std::cell::{Cell, RefCell};
use std::collections::HashSet;

use nom::branch::alt;
use nom::error::{ErrorKind, ParseError};
use nom::{IResult, Needed, Parser as _};

use crate::source::Span;
use crate::syntax::ast::Program;
use crate::syntax::ast::{
    AssignTarget, Assignment, Case, Comment, Condition, Control, Dfn, Expr, Item, Name, NamePattern, NumberLiteral,
    SpecialName, Statement, StatementKind, Tradfn,
};
use crate::syntax::error::{SyntaxError, SyntaxErrorKind};
use crate::syntax::token::{special_name_glyph, Keyword, Token, TokenKind};

/// A token slice as nom input. `end_of_text` gives errors at the end of the input a place to point at.
#[derive(Clone, Copy, Debug)]
pub struct Tokens<'t> {
    tokens: &'t [Token],
    end_of_text: usize,
}

impl<'t> Tokens<'t> {
    pub fn new(tokens: &'t [Token], end_of_text: usize) -> Tokens<'t> {
        Tokens { tokens, end_of_text }
    }

    fn first(&self) -> Option<&'t Token> {
        self.tokens.first()
    }

    fn first_kind(&self) -> Option<&'t TokenKind> {
        self.first().map(|token| &token.kind)
    }

    fn second_kind(&self) -> Option<&'t TokenKind> {
        self.tokens.get(1).map(|token| &token.kind)
    }

    fn after_first(&self) -> Tokens<'t> {
        Tokens {
            tokens: &self.tokens[1..],
            end_of_text: self.end_of_text,
        }
    }

    /// Where the next token starts (the end of the text when there is none).
    fn position(&self) -> usize {
        self.first().map_or(self.end_of_text, |token| token.span.start)
    }

    /// The span of the next token, or an empty span at the end of the text.
    fn next_span(&self) -> Span {
        self.first()
            .map_or(Span::new(self.end_of_text, self.end_of_text), |token| token.span)
    }

    /// The span of the tokens consumed between `self` and `rest` (empty, at the current position, if none).
    fn span_until(&self, rest: Tokens<'t>) -> Span {
        let consumed = self.tokens.len() - rest.tokens.len();
        if consumed == 0 {
            let position = self.position();
            return Span::new(position, position);
        }
        self.tokens[0].span.join(self.tokens[consumed - 1].span)
    }
}

impl<'t> nom::Input for Tokens<'t> {
    type Item = &'t Token;
    type Iter = std::slice::Iter<'t, Token>;
    type IterIndices = std::iter::Enumerate<std::slice::Iter<'t, Token>>;

    fn input_len(&self) -> usize {
        self.tokens.len()
    }

    fn take(&self, index: usize) -> Self {
        Tokens {
            tokens: &self.tokens[..index],
            end_of_text: self.end_of_text,
        }
    }

    fn take_from(&self, index: usize) -> Self {
        Tokens {
            tokens: &self.tokens[index..],
            end_of_text: self.end_of_text,
        }
    }

    fn take_split(&self, index: usize) -> (Self, Self) {
        (self.take_from(index), self.take(index))
    }

    fn position<P>(&self, predicate: P) -> Option<usize>
    where
        P: Fn(Self::Item) -> bool,
    {
        self.tokens.iter().position(predicate)
    }

    fn iter_elements(&self) -> Self::Iter {
        self.tokens.iter()
    }

    fn iter_indices(&self) -> Self::IterIndices {
        self.tokens.iter().enumerate()
    }

    fn slice_index(&self, count: usize) -> Result<usize, Needed> {
        if self.tokens.len() >= count {
            Ok(count)
        } else {
            Err(Needed::new(count - self.tokens.len()))
        }
    }
}

/// The parser's nom error: the syntax error to report. `Err::Error` means "this alternative does not apply here"
/// (the caller tries another or stops a loop); `Err::Failure` is a definite error in the program.
#[derive(Debug)]
pub struct ParseFailure(pub SyntaxError);

impl<'t> ParseError<Tokens<'t>> for ParseFailure {
    fn from_error_kind(input: Tokens<'t>, _kind: ErrorKind) -> Self {
        let description = input
            .first_kind()
            .map_or("end of input".to_string(), TokenKind::describe);
        ParseFailure(SyntaxError::new(
            SyntaxErrorKind::UnexpectedToken(description),
            input.next_span(),
        ))
    }

    fn append(_input: Tokens<'t>, _kind: ErrorKind, other: Self) -> Self {
        other
    }
}

type ParseResult<'t, T> = IResult<Tokens<'t>, T, ParseFailure>;

fn fail<'t, T>(kind: SyntaxErrorKind, span: Span) -> ParseResult<'t, T> {
    Err(nom::Err::Failure(ParseFailure(SyntaxError::new(kind, span))))
}

fn fail_with_help<'t, T>(kind: SyntaxErrorKind, span: Span, help: &str) -> ParseResult<'t, T> {
    Err(nom::Err::Failure(ParseFailure(
        SyntaxError::new(kind, span).with_help(help),
    )))
}

/// `→` anywhere but at the start of a statement of a tradfn body.
fn misplaced_branch<'t, T>(span: Span) -> ParseResult<'t, T> {
    fail_with_help(
        SyntaxErrorKind::MisplacedBranch,
        span,
        "branches are supported as whole statements of a traditional function (→0, →LOOP, →(N>0)/LOOP); in a dfn \
         use guards (condition : result)",
    )
}

fn not_here<'t, T>(input: Tokens<'t>) -> ParseResult<'t, T> {
    Err(nom::Err::Error(ParseFailure::from_error_kind(input, ErrorKind::Alt)))
}

/// How deeply parentheses, brackets, dfns and assignments may nest (each of them is one recursion of the parser, and
/// of the stages after it). The limit turns a pathological input (`(((…)))`, `a←a←…←1`) into a syntax error instead of
/// a stack overflow, far above what any real program needs.
const MAXIMUM_NESTING_DEPTH: usize = 100;

/// Counts one level of nesting while it lives.
struct NestingLevel<'p> {
    depth: &'p Cell<usize>,
}

impl Drop for NestingLevel<'_> {
    fn drop(&mut self) {
        self.depth.set(self.depth.get() - 1);
    }
}

/// Whether statements are parsed at the top level (where `∇` starts a tradfn definition), inside a dfn (where guards
/// are allowed and `}` ends the list) or inside a tradfn (where control structures are allowed and `:` would be a
/// label).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum StatementContext {
    TopLevel,
    DfnBody,
    TradfnBody,
}

/// Parses a whole program. Returns the program (with whatever could be parsed) and every error found.
pub fn parse_tokens(text: &str, tokens: &[Token], comments: Vec<Comment>) -> (Program, Vec<SyntaxError>) {
    let parser = Parser::new(text, &comments);
    let input = Tokens::new(tokens, text.len());
    let (statements, _rest) = parser.statement_list(input, StatementContext::TopLevel);
    let errors = parser.errors.into_inner();
    (Program { statements, comments }, errors)
}

struct Parser<'s> {
    text: &'s str,
    comments: &'s [Comment],
    /// Byte offsets where each line starts, for "the line directly above".
    line_starts: Vec<usize>,
    /// Errors recorded by statement lists that recovered from them.
    errors: RefCell<Vec<SyntaxError>>,
    /// Indices into `comments` already taken as a dfn's annotation (so they are not also a statement's).
    claimed_annotations: RefCell<HashSet<usize>>,
    /// Parentheses, brackets, dfns and assignment values currently open.
    nesting_depth: Cell<usize>,
    /// Control structures currently open in the tradfn body being parsed: labels are only allowed where it is 0.
    control_structure_depth: Cell<usize>,
    /// The source line (from 0) of the header of the tradfn being parsed: a label's line number counts from it.
    tradfn_header_line: Cell<usize>,
}

impl<'s> Parser<'s> {
    fn new(text: &'s str, comments: &'s [Comment]) -> Parser<'s> {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(index, _)| index + 1))
            .collect();
        Parser {
            text,
            comments,
            line_starts,
            errors: RefCell::new(Vec::new()),
            claimed_annotations: RefCell::new(HashSet::new()),
            nesting_depth: Cell::new(0),
            control_structure_depth: Cell::new(0),
            tradfn_header_line: Cell::new(0),
        }
    }

    /// Enters a parenthesis, bracket, dfn or assignment value opened at `open_span`; the level ends when the result is dropped.
    fn enter_nesting(&self, open_span: Span) -> Result<NestingLevel<'_>, nom::Err<ParseFailure>> {
        if self.nesting_depth.get() >= MAXIMUM_NESTING_DEPTH {
            let error = SyntaxError::new(SyntaxErrorKind::TooDeeplyNested(MAXIMUM_NESTING_DEPTH), open_span);
            return Err(nom::Err::Failure(ParseFailure(error)));
        }
        self.nesting_depth.set(self.nesting_depth.get() + 1);
        Ok(NestingLevel {
            depth: &self.nesting_depth,
        })
    }

    // ----- Statements -------------------------------------------------------------------------------------------

    /// Statements separated by newlines and `⋄`, up to the end of the input or (in a dfn) the closing `}`. Never
    /// fails: a statement with an error is recorded and skipped.
    fn statement_list<'t>(&self, mut input: Tokens<'t>, context: StatementContext) -> (Vec<Statement>, Tokens<'t>) {
        let mut statements = Vec::new();
        loop {
            input = skip_statement_separators(input);
            match input.first_kind() {
                None => break,
                Some(TokenKind::RightBrace) if context == StatementContext::DfnBody => break,
                Some(TokenKind::RightBrace) => {
                    self.report_stray_closing_brace(input);
                    input = input.after_first();
                    continue;
                }
                Some(TokenKind::Keyword(keyword)) => {
                    self.report_control_outside_tradfn(*keyword, input.next_span());
                    input = skip_to_statement_end(input);
                    continue;
                }
                Some(TokenKind::Special(SpecialName::Del)) if context == StatementContext::TopLevel => {
                    let (definition, rest) = self.tradfn_definition(input);
                    statements.extend(definition);
                    input = rest;
                    continue;
                }
                Some(_) => {}
            }
            match self.statement(input, context) {
                Ok((rest, statement)) => {
                    statements.push(statement);
                    input = rest;
                }
                Err(nom::Err::Error(ParseFailure(error)) | nom::Err::Failure(ParseFailure(error))) => {
                    self.errors.borrow_mut().push(error);
                    input = skip_to_statement_end(input);
                }
                Err(nom::Err::Incomplete(_)) => unreachable!("the token parsers are complete, never streaming"),
            }
        }
        (statements, input)
    }

    fn report_stray_closing_brace(&self, input: Tokens<'_>) {
        let kind = SyntaxErrorKind::UnopenedBracket { close: "}", open: "{" };
        self.errors.borrow_mut().push(SyntaxError::new(kind, input.next_span()));
    }

    fn report_control_outside_tradfn(&self, keyword: Keyword, span: Span) {
        let error = SyntaxError::new(
            SyntaxErrorKind::ControlOutsideTradfn(keyword.spelling().to_string()),
            span,
        )
        .with_help(
            "as in Dyalog, control structures belong in a traditional function (∇ R←F X ... ∇); in a dfn use \
                 guards (condition : result)",
        );
        self.errors.borrow_mut().push(error);
    }

    fn report(&self, error: SyntaxError) {
        self.errors.borrow_mut().push(error);
    }

    /// One statement: an expression, (in a dfn) a guard `condition : result`, or (in a tradfn) a branch `→target`.
    fn statement<'t>(&self, input: Tokens<'t>, context: StatementContext) -> ParseResult<'t, Statement> {
        if input.first_kind() == Some(&TokenKind::Branch) {
            if context == StatementContext::TradfnBody {
                return self.branch_statement(input);
            }
            return misplaced_branch(input.next_span());
        }
        let annotation = self.statement_annotation(input.position());
        let (rest, expression) = self.expression(input)?;
        let (rest, kind) = match rest.first() {
            Some(Token {
                kind: TokenKind::Colon,
                span: colon_span,
            }) => self.guard_after_condition(rest.after_first(), expression, *colon_span, context)?,
            _ => (rest, StatementKind::Expr(expression)),
        };
        expect_statement_end(rest)?;
        Ok((
            rest,
            Statement {
                kind,
                annotation,
                span: input.span_until(rest),
            },
        ))
    }

    /// `→target` as a whole statement of a tradfn body; the target is an ordinary, non-empty expression.
    fn branch_statement<'t>(&self, input: Tokens<'t>) -> ParseResult<'t, Statement> {
        let arrow_span = input.next_span();
        let (rest, target) = self.expression(input.after_first())?;
        if is_empty_expression(&target) {
            return fail_with_help(
                SyntaxErrorKind::BranchWithoutTarget,
                arrow_span,
                "write the line to go to after →, as in →LOOP, →(N>0)/LOOP or →0 to leave the function",
            );
        }
        expect_statement_end(rest)?;
        let span = input.span_until(rest);
        let statement = Statement {
            kind: StatementKind::Control(Box::new(Control::Branch { target, span })),
            annotation: self.statement_annotation(input.position()),
            span,
        };
        Ok((rest, statement))
    }

    fn guard_after_condition<'t>(
        &self,
        input: Tokens<'t>,
        condition: Expr,
        colon_span: Span,
        context: StatementContext,
    ) -> ParseResult<'t, StatementKind> {
        if context == StatementContext::TradfnBody {
            return fail_with_help(
                SyntaxErrorKind::Label(
                    "a label is one name directly followed by : at the start of a line (LOOP:); guards (condition : \
                     result) belong in dfns"
                        .to_string(),
                ),
                colon_span,
                "use :If, :While, :For, ... or →LABEL for control flow in a traditional function",
            );
        }
        if context == StatementContext::TopLevel {
            return fail_with_help(
                SyntaxErrorKind::GuardOutsideDfn,
                colon_span,
                "guards belong in dfn bodies, as in {⍵=0:1 ⋄ ⍵×∇ ⍵-1}",
            );
        }
        if is_empty_expression(&condition) {
            return fail(
                SyntaxErrorKind::MalformedGuard("the condition before : is missing"),
                colon_span,
            );
        }
        let (rest, result) = self.expression(input)?;
        if is_empty_expression(&result) {
            return fail(
                SyntaxErrorKind::MalformedGuard("the result after : is missing"),
                colon_span,
            );
        }
        if let Some(Token {
            kind: TokenKind::Colon,
            span,
        }) = rest.first()
        {
            return fail(SyntaxErrorKind::MalformedGuard("a guard has only one :"), *span);
        }
        Ok((rest, StatementKind::Guard { condition, result }))
    }

    // ----- Traditional functions --------------------------------------------------------------------------------

    /// `∇ header` (on one line), the body, and a line holding only `∇`. Never fails: errors are recorded, and the
    /// whole definition is consumed up to its closing `∇` (or the end of the text) even when the header is malformed,
    /// so that the body's control structures are not reported again as being outside a function.
    fn tradfn_definition<'t>(&self, input: Tokens<'t>) -> (Option<Statement>, Tokens<'t>) {
        let del_span = input.next_span();
        let annotation = self.statement_annotation(input.position());
        let header_start = input.after_first();
        let header_length = header_start
            .tokens
            .iter()
            .position(|token| token.kind.is_statement_separator())
            .unwrap_or(header_start.tokens.len());
        let header_tokens = nom::Input::take(&header_start, header_length);
        let after_header = nom::Input::take_from(&header_start, header_length);
        if header_length == 0 {
            self.report(
                SyntaxError::new(
                    SyntaxErrorKind::MisplacedDel("this ∇ closes no traditional function"),
                    del_span,
                )
                .with_help("a traditional function starts with ∇ and its header on one line: ∇ R←A F B"),
            );
            return (None, after_header);
        }
        let header = self.tradfn_header(header_tokens);
        self.tradfn_header_line.set(self.line_of(del_span.start));
        let (body, rest, closing_del) = self.tradfn_body(after_header);
        self.report_duplicate_labels(&body);
        let header = match header {
            Ok(header) => header,
            Err(error) => {
                self.report(error);
                return (None, rest);
            }
        };
        let header_span = header_start.span_until(after_header);
        let Some(closing_del) = closing_del else {
            self.report(
                SyntaxError::new(
                    SyntaxErrorKind::UnterminatedFunction(header.name.text.clone()),
                    del_span.join(header_span),
                )
                .with_help("end the function with a line holding only ∇"),
            );
            return (None, rest);
        };
        let span = del_span.join(closing_del);
        let tradfn = Tradfn {
            name: header.name,
            result: header.result,
            shy_result: header.shy_result,
            left: header.left,
            optional_left: header.optional_left,
            right: header.right,
            locals: header.locals,
            body,
            header_span,
            span,
        };
        let statement = Statement {
            kind: StatementKind::Tradfn(Box::new(tradfn)),
            annotation,
            span,
        };
        (Some(statement), rest)
    }

    /// A label names one line, so a second label of the same name in one function is an error (at the second).
    fn report_duplicate_labels(&self, body: &[Statement]) {
        let mut seen = HashSet::new();
        for statement in body {
            let StatementKind::Control(control) = &statement.kind else {
                continue;
            };
            let Control::Label { name, .. } = control.as_ref() else {
                continue;
            };
            if !seen.insert(name.text.as_str()) {
                self.report(
                    SyntaxError::new(
                        SyntaxErrorKind::Label(format!("the label {} is defined twice in one function", name.text)),
                        statement.span,
                    )
                    .with_help("each label names one line of the function; rename one of them"),
                );
            }
        }
    }

    /// The body of a tradfn: blocks of statements up to the closing `∇` (consumed; its span is returned) or the end of
    /// the text (`None`). A closing keyword that closes nothing is reported and skipped.
    fn tradfn_body<'t>(&self, mut input: Tokens<'t>) -> (Vec<Statement>, Tokens<'t>, Option<Span>) {
        let mut statements = Vec::new();
        loop {
            let (block, rest, end) = self.tradfn_block(input, 0, &[]);
            statements.extend(block);
            match end {
                BlockEnd::EndOfText => return (statements, rest, None),
                BlockEnd::ClosingDel(span) => return (statements, rest.after_first(), Some(span)),
                BlockEnd::Keyword(keyword, span) => {
                    self.report(SyntaxError::new(
                        SyntaxErrorKind::MalformedControl(format!(
                            "{} closes no open control structure",
                            keyword.spelling()
                        )),
                        span,
                    ));
                    input = skip_to_statement_end(rest);
                }
            }
        }
    }

    /// The header after `∇`: `[R←] [A] NAME [B] {;LOCAL}`, with `{R}` for a shy result and `{A}` for an optional left
    /// argument. `header` holds exactly the header's tokens.
    fn tradfn_header(&self, header: Tokens<'_>) -> Result<TradfnHeader, SyntaxError> {
        let tokens = header.tokens;
        let signature_length = tokens
            .iter()
            .position(|token| token.kind == TokenKind::Semicolon)
            .unwrap_or(tokens.len());
        let (signature, locals) = tokens.split_at(signature_length);
        let (result, shy_result, call) = match signature.iter().position(|token| token.kind == TokenKind::Assign) {
            Some(arrow) => {
                let (result, shy) = header_result(&signature[..arrow], signature[arrow].span)?;
                (Some(result), shy, &signature[arrow + 1..])
            }
            None => (None, false, signature),
        };
        let call_span = match (call.first(), call.last()) {
            (Some(first), Some(last)) => first.span.join(last.span),
            _ => {
                let after = signature.last().map_or(header.next_span(), |token| token.span);
                return Err(malformed_header("the function's name is missing", after)
                    .with_help("a header names the function: ∇ F, ∇ R←F B, ∇ R←A F B"));
            }
        };
        let parts = header_call_parts(call)?;
        // The function's name is a plain name; `(F OP)` there would be an operator's header.
        let function_name = |part: &NamePattern| match part {
            NamePattern::Name(name) => Ok(name.clone()),
            NamePattern::Names(_, span) => Err(malformed_header(
                "operator headers such as ∇ R←(F OP) X are not supported",
                *span,
            )
            .with_help("define operators as dfns, with ⍺⍺ and ⍵⍵ for the operands")),
        };
        let (left, optional_left, name, right) = match parts.as_slice() {
            [(name, false)] => (None, false, function_name(name)?, None),
            [(name, false), (right, false)] => (None, false, function_name(name)?, Some(right.clone())),
            [(left, optional), (name, false), (right, false)] => {
                (Some(left.clone()), *optional, function_name(name)?, Some(right.clone()))
            }
            [..] if parts.len() <= 3 => {
                return Err(malformed_header(
                    "only the left argument may be in braces: {A} F B",
                    call_span,
                ))
            }
            _ => {
                return Err(malformed_header("too many names", call_span)
                    .with_help("a header is F, F B or A F B, after an optional R←"))
            }
        };
        Ok(TradfnHeader {
            name,
            result,
            shy_result,
            left,
            optional_left,
            right,
            locals: header_locals(locals)?,
        })
    }

    // ----- Control structures -----------------------------------------------------------------------------------

    /// Statements of a tradfn body up to what ends the block: the end of the text, a line holding only `∇`, or a
    /// keyword that continues or closes a structure (not consumed). `continuations` are the keywords the enclosing
    /// structure accepts in the middle (`:ElseIf`, `:Else` for an `:If`); any other such keyword is reported and its
    /// statement skipped. `loop_depth` counts the enclosing loops, for `:Leave` and `:Continue`.
    fn tradfn_block<'t>(
        &self,
        mut input: Tokens<'t>,
        loop_depth: usize,
        continuations: &[Keyword],
    ) -> (Vec<Statement>, Tokens<'t>, BlockEnd) {
        let mut statements = Vec::new();
        loop {
            input = skip_statement_separators(input);
            let Some(token) = input.first() else {
                return (statements, input, BlockEnd::EndOfText);
            };
            match &token.kind {
                TokenKind::RightBrace => {
                    self.report_stray_closing_brace(input);
                    input = input.after_first();
                    continue;
                }
                TokenKind::Special(SpecialName::Del) => {
                    if input.second_kind().is_none_or(TokenKind::is_statement_separator) {
                        return (statements, input, BlockEnd::ClosingDel(token.span));
                    }
                    self.report(
                        SyntaxError::new(
                            SyntaxErrorKind::MisplacedDel(
                                "traditional functions cannot be nested: inside one, ∇ must be alone on its line, \
                                 where it closes the function",
                            ),
                            token.span,
                        )
                        .with_help("close the enclosing function with a line holding only ∇ before defining another"),
                    );
                    // Skip the nested definition whole, so that its closing ∇ does not close this function (within
                    // the nesting limit: each nested definition is a recursion).
                    input = skip_to_statement_end(input);
                    if let Ok(_level) = self.enter_nesting(token.span) {
                        let (_, after_nested, _) = self.tradfn_body(input);
                        input = after_nested;
                    }
                    continue;
                }
                TokenKind::Keyword(keyword) if keyword.opens_a_structure() => {
                    let (statement, rest) = self.control_structure(input, *keyword, loop_depth);
                    statements.push(statement);
                    input = rest;
                    continue;
                }
                TokenKind::Keyword(keyword @ (Keyword::Return | Keyword::Leave | Keyword::Continue)) => {
                    let (statement, rest) = self.jump_statement(input, *keyword, loop_depth);
                    statements.push(statement);
                    input = rest;
                    continue;
                }
                TokenKind::Keyword(keyword) if keyword.closes_a_structure() || continuations.contains(keyword) => {
                    return (statements, input, BlockEnd::Keyword(*keyword, token.span));
                }
                TokenKind::Keyword(keyword) => {
                    self.report_misplaced_keyword(*keyword, token.span);
                    input = skip_to_statement_end(input);
                    continue;
                }
                TokenKind::Name(text) if input.second_kind() == Some(&TokenKind::Colon) => {
                    let colon_span = input.after_first().next_span();
                    let name = name_of(text, token.span);
                    statements.extend(self.label_statement(name, colon_span));
                    // The rest of the line holds the statements that follow the label.
                    input = input.after_first().after_first();
                    continue;
                }
                _ => {}
            }
            match self.statement(input, StatementContext::TradfnBody) {
                Ok((rest, statement)) => {
                    statements.push(statement);
                    input = rest;
                }
                Err(nom::Err::Error(ParseFailure(error)) | nom::Err::Failure(ParseFailure(error))) => {
                    self.report(error);
                    input = skip_to_statement_end(input);
                }
                Err(nom::Err::Incomplete(_)) => unreachable!("the token parsers are complete, never streaming"),
            }
        }
    }

    /// `NAME:` at the start of a line of a tradfn body: a [`Control::Label`] whose line counts from the header (line
    /// 0), blank and comment lines included, as Dyalog numbers a function's lines. Reported instead (and `None`)
    /// inside a control structure, when the name is spelled exactly like a control keyword, or when the label does
    /// not start its line.
    fn label_statement(&self, name: Name, colon_span: Span) -> Option<Statement> {
        let span = name.span.join(colon_span);
        let problem = if self.control_structure_depth.get() > 0 {
            Some((
                format!(
                    "the label {}: is inside a control structure; labels are only allowed at the top level of a \
                     traditional function's body",
                    name.text
                ),
                "put the label on a line outside :If, :While, :For, ... structures",
            ))
        } else if let Some(keyword) = Keyword::spelled_exactly(&name.text) {
            Some((
                format!(
                    "{}: is spelled like the control keyword {}",
                    name.text,
                    keyword.spelling()
                ),
                "write the keyword with its colon first, or give the label another name (END: in capitals is fine)",
            ))
        } else if !self.only_blanks_before_on_line(name.span.start) {
            Some((
                format!("the label {}: must start its line", name.text),
                "a label names a whole line: write it first on the line, not after ⋄",
            ))
        } else {
            None
        };
        if let Some((message, help)) = problem {
            self.report(SyntaxError::new(SyntaxErrorKind::Label(message), span).with_help(help));
            return None;
        }
        let line = self
            .line_of(name.span.start)
            .saturating_sub(self.tradfn_header_line.get());
        Some(Statement {
            kind: StatementKind::Control(Box::new(Control::Label { name, line })),
            annotation: None,
            span,
        })
    }

    fn report_misplaced_keyword(&self, keyword: Keyword, span: Span) {
        let message = match keyword {
            Keyword::AndIf | Keyword::OrIf => format!(
                "{} must directly follow the line of an :If, :ElseIf, :While or :Until",
                keyword.spelling()
            ),
            Keyword::In => ":In belongs on the line of a :For (:For i :In values)".to_string(),
            _ => format!("{} is not part of the enclosing control structure", keyword.spelling()),
        };
        self.report(SyntaxError::new(SyntaxErrorKind::MalformedControl(message), span));
    }

    /// `:Return`, `:Leave` or `:Continue`, alone in its statement; the last two only inside a loop.
    fn jump_statement<'t>(&self, input: Tokens<'t>, keyword: Keyword, loop_depth: usize) -> (Statement, Tokens<'t>) {
        let span = input.next_span();
        if keyword != Keyword::Return && loop_depth == 0 {
            self.report(
                SyntaxError::new(
                    SyntaxErrorKind::MalformedControl(format!("{} is only allowed inside a loop", keyword.spelling())),
                    span,
                )
                .with_help("loops are :While, :Repeat and :For"),
            );
        }
        let rest = self.nothing_after_keyword(input.after_first(), keyword);
        let control = match keyword {
            Keyword::Return => Control::Return(span),
            Keyword::Leave => Control::Leave(span),
            _ => Control::Continue(span),
        };
        let statement = Statement {
            kind: StatementKind::Control(Box::new(control)),
            annotation: self.statement_annotation(span.start),
            span,
        };
        (statement, rest)
    }

    /// A keyword that takes nothing after it (`:Else`, `:EndIf`, `:Repeat`, ...): anything else in its statement is
    /// reported and skipped.
    fn nothing_after_keyword<'t>(&self, input: Tokens<'t>, keyword: Keyword) -> Tokens<'t> {
        match input.first() {
            None => input,
            Some(token) if token.kind.is_statement_separator() => input,
            Some(token) => {
                self.report(
                    SyntaxError::new(
                        SyntaxErrorKind::MalformedControl(format!(
                            "nothing may follow {} in its statement",
                            keyword.spelling()
                        )),
                        token.span,
                    )
                    .with_help("put the statement on the next line, or after ⋄"),
                );
                skip_to_statement_end(input)
            }
        }
    }

    /// An opening keyword's structure, up to its closing keyword (consumed). Never fails: errors are recorded, and
    /// what could not be parsed is left out of the tree.
    fn control_structure<'t>(&self, input: Tokens<'t>, keyword: Keyword, loop_depth: usize) -> (Statement, Tokens<'t>) {
        let keyword_span = input.next_span();
        let annotation = self.statement_annotation(keyword_span.start);
        let placeholder = |rest: Tokens<'t>| {
            let control = Control::Return(keyword_span);
            let statement = Statement {
                kind: StatementKind::Control(Box::new(control)),
                annotation: None,
                span: keyword_span,
            };
            (statement, rest)
        };
        let _level = match self.enter_nesting(keyword_span) {
            Ok(level) => level,
            Err(nom::Err::Error(ParseFailure(error)) | nom::Err::Failure(ParseFailure(error))) => {
                self.report(error);
                return placeholder(skip_to_statement_end(input));
            }
            Err(nom::Err::Incomplete(_)) => unreachable!("the token parsers are complete, never streaming"),
        };
        self.control_structure_depth.set(self.control_structure_depth.get() + 1);
        let _inside_structure = NestingLevel {
            depth: &self.control_structure_depth,
        };
        let after_keyword = input.after_first();
        let (control, rest) = match keyword {
            Keyword::If => self.if_structure(after_keyword, keyword_span, loop_depth),
            Keyword::While => self.while_structure(after_keyword, keyword_span, loop_depth),
            Keyword::Repeat => self.repeat_structure(after_keyword, keyword_span, loop_depth),
            Keyword::For => self.for_structure(after_keyword, keyword_span, loop_depth),
            _ => self.select_structure(after_keyword, keyword_span, loop_depth),
        };
        let statement = Statement {
            kind: StatementKind::Control(Box::new(control)),
            annotation,
            span: input.span_until(rest),
        };
        (statement, rest)
    }

    fn if_structure<'t>(&self, input: Tokens<'t>, if_span: Span, loop_depth: usize) -> (Control, Tokens<'t>) {
        let (condition, mut rest) = self.condition(input, Keyword::If, if_span);
        let mut clauses = Vec::new();
        let mut otherwise: Option<Vec<Statement>> = None;
        // The condition of the clause being read, or `None` in the `:Else` part.
        let mut pending = Some(condition);
        loop {
            let (body, after_body, end) = self.tradfn_block(rest, loop_depth, &[Keyword::ElseIf, Keyword::Else]);
            match pending.take() {
                Some(condition) => clauses.push((condition, body)),
                None => otherwise = Some(body),
            }
            match end {
                BlockEnd::Keyword(Keyword::ElseIf, span) => {
                    self.report_if_after_else(otherwise.is_some(), Keyword::ElseIf, Keyword::If, span);
                    let (condition, after_condition) = self.condition(after_body.after_first(), Keyword::ElseIf, span);
                    pending = Some(condition);
                    rest = after_condition;
                }
                BlockEnd::Keyword(Keyword::Else, span) => {
                    self.report_if_after_else(otherwise.is_some(), Keyword::Else, Keyword::If, span);
                    rest = self.nothing_after_keyword(after_body.after_first(), Keyword::Else);
                }
                end => {
                    let rest = self.structure_end(after_body, end, Keyword::If, if_span);
                    return (Control::If { clauses, otherwise }, rest);
                }
            }
        }
    }

    fn report_if_after_else(&self, after_else: bool, keyword: Keyword, structure: Keyword, span: Span) {
        if after_else {
            self.report(SyntaxError::new(
                SyntaxErrorKind::MalformedControl(format!(
                    "{} after the :Else of its {}",
                    keyword.spelling(),
                    structure.spelling()
                )),
                span,
            ));
        }
    }

    fn while_structure<'t>(&self, input: Tokens<'t>, while_span: Span, loop_depth: usize) -> (Control, Tokens<'t>) {
        let (condition, rest) = self.condition(input, Keyword::While, while_span);
        let (body, after_body, end) = self.tradfn_block(rest, loop_depth + 1, &[]);
        if let BlockEnd::Keyword(Keyword::Until, until_span) = end {
            let (until, rest) = self.condition(after_body.after_first(), Keyword::Until, until_span);
            let control = Control::While {
                condition,
                body,
                until: Some(until),
            };
            return (control, rest);
        }
        let rest = self.structure_end(after_body, end, Keyword::While, while_span);
        let control = Control::While {
            condition,
            body,
            until: None,
        };
        (control, rest)
    }

    fn repeat_structure<'t>(&self, input: Tokens<'t>, repeat_span: Span, loop_depth: usize) -> (Control, Tokens<'t>) {
        let rest = self.nothing_after_keyword(input, Keyword::Repeat);
        let (body, after_body, end) = self.tradfn_block(rest, loop_depth + 1, &[]);
        if let BlockEnd::Keyword(Keyword::Until, until_span) = end {
            let (until, rest) = self.condition(after_body.after_first(), Keyword::Until, until_span);
            let control = Control::Repeat {
                body,
                until: Some(until),
            };
            return (control, rest);
        }
        let rest = self.structure_end(after_body, end, Keyword::Repeat, repeat_span);
        (Control::Repeat { body, until: None }, rest)
    }

    fn for_structure<'t>(&self, input: Tokens<'t>, for_span: Span, loop_depth: usize) -> (Control, Tokens<'t>) {
        let (variable, values, rest) = match self.for_line(input, for_span) {
            Ok((rest, (variable, values))) => (variable, values, rest),
            Err(nom::Err::Error(ParseFailure(error)) | nom::Err::Failure(ParseFailure(error))) => {
                self.report(error);
                let placeholder = NamePattern::Name(Name {
                    text: String::new(),
                    span: for_span,
                });
                (placeholder, empty_expression(for_span), skip_to_statement_end(input))
            }
            Err(nom::Err::Incomplete(_)) => unreachable!("the token parsers are complete, never streaming"),
        };
        let (body, after_body, end) = self.tradfn_block(rest, loop_depth + 1, &[]);
        let rest = self.structure_end(after_body, end, Keyword::For, for_span);
        let control = Control::For { variable, values, body };
        (control, rest)
    }

    /// `name :In values` or `(name name …) :In values` after `:For`, up to the end of its statement.
    fn for_line<'t>(&self, input: Tokens<'t>, for_span: Span) -> ParseResult<'t, (NamePattern, Expr)> {
        let help = "a :For line is :For name :In values, or :For (name name …) :In values";
        let (variable, after_name) = match for_variable(input) {
            Some(found) => found,
            None => {
                return fail_with_help(
                    SyntaxErrorKind::MalformedControl(
                        ":For needs the name of its variable, or names in parentheses".to_string(),
                    ),
                    for_span,
                    help,
                )
            }
        };
        let Some(TokenKind::Keyword(Keyword::In)) = after_name.first_kind() else {
            return fail_with_help(
                SyntaxErrorKind::MalformedControl(
                    ":In must follow the :For variable (one name, or names in parentheses)".to_string(),
                ),
                after_name.next_span(),
                help,
            );
        };
        let in_span = after_name.next_span();
        let (rest, values) = self.expression(after_name.after_first())?;
        if is_empty_expression(&values) {
            return fail_with_help(
                SyntaxErrorKind::MalformedControl(":In needs the values to loop over".to_string()),
                in_span,
                help,
            );
        }
        expect_statement_end(rest)?;
        Ok((rest, (variable, values)))
    }

    fn select_structure<'t>(&self, input: Tokens<'t>, select_span: Span, loop_depth: usize) -> (Control, Tokens<'t>) {
        let (value, mut rest) = self.control_expression(input, Keyword::Select, select_span);
        let continuations = [Keyword::Case, Keyword::CaseList, Keyword::Else];
        let mut cases: Vec<Case> = Vec::new();
        let mut otherwise: Option<Vec<Statement>> = None;
        // The case being read: `None` before the first `:Case` and in the `:Else` part.
        let mut pending: Option<(bool, Expr)> = None;
        let mut before_first_case = true;
        loop {
            let (body, after_body, end) = self.tradfn_block(rest, loop_depth, &continuations);
            match pending.take() {
                Some((list, value)) => cases.push(Case { list, value, body }),
                None if before_first_case => self.report_statements_before_first_case(&body),
                None => otherwise = Some(body),
            }
            before_first_case = false;
            match end {
                BlockEnd::Keyword(keyword @ (Keyword::Case | Keyword::CaseList), span) => {
                    self.report_if_after_else(otherwise.is_some(), keyword, Keyword::Select, span);
                    let (value, after_value) = self.control_expression(after_body.after_first(), keyword, span);
                    pending = Some((keyword == Keyword::CaseList, value));
                    rest = after_value;
                }
                BlockEnd::Keyword(Keyword::Else, span) => {
                    self.report_if_after_else(otherwise.is_some(), Keyword::Else, Keyword::Select, span);
                    otherwise.get_or_insert_with(Vec::new);
                    rest = self.nothing_after_keyword(after_body.after_first(), Keyword::Else);
                }
                end => {
                    let rest = self.structure_end(after_body, end, Keyword::Select, select_span);
                    let control = Control::Select {
                        value,
                        cases,
                        otherwise,
                    };
                    return (control, rest);
                }
            }
        }
    }

    fn report_statements_before_first_case(&self, body: &[Statement]) {
        if let Some(first) = body.first() {
            self.report(SyntaxError::new(
                SyntaxErrorKind::MalformedControl(
                    "statements between :Select and its first :Case are not allowed".to_string(),
                ),
                first.span,
            ));
        }
    }

    /// After a structure's last block: consumes the closing keyword, or reports why there is none. A closing keyword
    /// of another structure (`:EndWhile` for an `:If`) is reported and taken as the closer; at the end of the text or
    /// of the function, the structure is reported as never closed.
    fn structure_end<'t>(
        &self,
        input: Tokens<'t>,
        end: BlockEnd,
        structure: Keyword,
        structure_span: Span,
    ) -> Tokens<'t> {
        let expected = structure.closer().spelling();
        match end {
            BlockEnd::Keyword(closer, _) if structure.is_closed_by(closer) => {
                self.nothing_after_keyword(input.after_first(), closer)
            }
            BlockEnd::Keyword(closer, span) => {
                self.report(
                    SyntaxError::new(
                        SyntaxErrorKind::MalformedControl(format!(
                            "{} cannot close {}",
                            closer.spelling(),
                            structure.spelling()
                        )),
                        span,
                    )
                    .with_help(format!("end {} with {expected} (or :End)", structure.spelling())),
                );
                skip_to_statement_end(input)
            }
            BlockEnd::EndOfText | BlockEnd::ClosingDel(_) => {
                self.report(
                    SyntaxError::new(
                        SyntaxErrorKind::MalformedControl(format!("{} is never closed", structure.spelling())),
                        structure_span,
                    )
                    .with_help(format!("end it with {expected} (or :End)")),
                );
                input
            }
        }
    }

    /// The condition after `:If`, `:ElseIf`, `:While` or `:Until`, with the `:AndIf` or `:OrIf` lines that follow.
    fn condition<'t>(&self, input: Tokens<'t>, keyword: Keyword, keyword_span: Span) -> (Condition, Tokens<'t>) {
        let (first, mut rest) = self.control_expression(input, keyword, keyword_span);
        let mut condition = Condition {
            first,
            more: Vec::new(),
            all: true,
        };
        loop {
            let next = skip_statement_separators(rest);
            let (joiner, joiner_span) = match next.first() {
                Some(Token {
                    kind: TokenKind::Keyword(joiner @ (Keyword::AndIf | Keyword::OrIf)),
                    span,
                }) => (*joiner, *span),
                _ => return (condition, rest),
            };
            let all = joiner == Keyword::AndIf;
            if condition.more.is_empty() {
                condition.all = all;
            } else if condition.all != all {
                self.report(
                    SyntaxError::new(
                        SyntaxErrorKind::MalformedControl(":AndIf and :OrIf cannot be mixed in one clause".to_string()),
                        joiner_span,
                    )
                    .with_help("nest an :If, or combine the conditions with ∧ and ∨"),
                );
            }
            let (expression, after) = self.control_expression(next.after_first(), joiner, joiner_span);
            condition.more.push(expression);
            rest = after;
        }
    }

    /// The non-empty expression after a keyword, which ends its statement. On an error the statement is skipped and an
    /// empty expression stands in (the error makes the whole parse fail, so it is never elaborated).
    fn control_expression<'t>(&self, input: Tokens<'t>, keyword: Keyword, keyword_span: Span) -> (Expr, Tokens<'t>) {
        let parsed = self.expression(input).and_then(|(rest, expression)| {
            if is_empty_expression(&expression) {
                let what = match keyword {
                    Keyword::Select | Keyword::Case | Keyword::CaseList => "a value",
                    _ => "a condition",
                };
                return fail(
                    SyntaxErrorKind::MalformedControl(format!("{} needs {what}", keyword.spelling())),
                    keyword_span,
                );
            }
            expect_statement_end(rest)?;
            Ok((rest, expression))
        });
        match parsed {
            Ok((rest, expression)) => (expression, rest),
            Err(nom::Err::Error(ParseFailure(error)) | nom::Err::Failure(ParseFailure(error))) => {
                self.report(error);
                (empty_expression(keyword_span), skip_to_statement_end(input))
            }
            Err(nom::Err::Incomplete(_)) => unreachable!("the token parsers are complete, never streaming"),
        }
    }

    // ----- Expressions ------------------------------------------------------------------------------------------

    /// Items up to something that ends an expression (a separator, a closing bracket, `;`, `:`), then an optional
    /// assignment whose value is the rest of the expression. May be empty; callers decide whether that is an error.
    fn expression<'t>(&self, input: Tokens<'t>) -> ParseResult<'t, Expr> {
        let mut items = Vec::new();
        let mut rest = input;
        let mut quad_target = None;
        loop {
            if let Some(Token {
                kind: TokenKind::Quad,
                span,
            }) = rest.first()
            {
                if rest.second_kind() != Some(&TokenKind::Assign) {
                    return fail_with_help(
                        SyntaxErrorKind::QuadAsValue,
                        *span,
                        "to print a value, assign it to ⎕: ⎕←value",
                    );
                }
                quad_target = Some(*span);
                rest = rest.after_first();
                break;
            }
            match self.item(rest) {
                Ok((after_item, item)) => {
                    items.push(item);
                    rest = after_item;
                }
                Err(nom::Err::Error(_)) => break,
                Err(failure) => return Err(failure),
            }
        }
        if rest.first_kind() == Some(&TokenKind::Branch) {
            return misplaced_branch(rest.next_span());
        }
        match rest.first() {
            Some(Token {
                kind: TokenKind::Assign,
                span: arrow_span,
            }) => self.assignment_after_arrow(input, items, quad_target, *arrow_span, rest.after_first()),
            _ => Ok((
                rest,
                Expr {
                    items,
                    assignment: None,
                    span: input.span_until(rest),
                },
            )),
        }
    }

    /// Splits the items before `←` into the expression's own items, the target and the modifier, then parses the
    /// value (the rest of the expression).
    fn assignment_after_arrow<'t>(
        &self,
        expression_start: Tokens<'t>,
        items: Vec<Item>,
        quad_target: Option<Span>,
        arrow_span: Span,
        after_arrow: Tokens<'t>,
    ) -> ParseResult<'t, Expr> {
        // The value is parsed by a recursive call: a chain `a←b←…` nests as deeply as it is long.
        let _level = self.enter_nesting(arrow_span)?;
        let split = match quad_target {
            Some(quad_span) => AssignmentSplit {
                prefix: items,
                target: AssignTarget::QuadOutput(quad_span),
                target_span: quad_span,
                indices: None,
                modifier: Vec::new(),
            },
            None => {
                split_assignment_target(items, arrow_span).map_err(|error| nom::Err::Failure(ParseFailure(error)))?
            }
        };
        let (rest, value) = self.expression(after_arrow)?;
        if is_empty_expression(&value) {
            return fail_with_help(
                SyntaxErrorKind::MissingAssignmentValue,
                arrow_span,
                "write the value to assign after ←, as in x←3",
            );
        }
        let assignment = Assignment {
            target: split.target,
            indices: split.indices,
            modifier: split.modifier,
            span: split.target_span.join(value.span),
            value,
        };
        let expression = Expr {
            items: split.prefix,
            assignment: Some(Box::new(assignment)),
            span: expression_start.span_until(rest),
        };
        Ok((rest, expression))
    }

    // ----- Items ------------------------------------------------------------------------------------------------

    /// An atom followed by any number of bracket indexings (`x[1][2]`, `(⍳5)[2]`, `+/[1]`).
    fn item<'t>(&self, input: Tokens<'t>) -> ParseResult<'t, Item> {
        let (mut rest, mut item) = alt((
            |tokens| self.number_strand(tokens),
            |tokens| self.single_token_atom(tokens),
            |tokens| self.parenthesised(tokens),
            |tokens| self.dfn(tokens),
            |tokens| self.index_without_value(tokens),
        ))
        .parse(input)?;
        while let Some(TokenKind::LeftBracket) = rest.first_kind() {
            let (after_brackets, indices) = self.bracket_indices(rest)?;
            let span = item.span().join(rest.span_until(after_brackets));
            item = Item::Indexed {
                base: Box::new(item),
                indices,
                span,
            };
            rest = after_brackets;
        }
        Ok((rest, item))
    }

    /// Adjacent numbers form one strand: `1 2 ¯3.5` is a single item.
    fn number_strand<'t>(&self, input: Tokens<'t>) -> ParseResult<'t, Item> {
        let mut numbers: Vec<NumberLiteral> = Vec::new();
        let mut rest = input;
        while let Some(TokenKind::Number(number)) = rest.first_kind() {
            numbers.push(*number);
            rest = rest.after_first();
        }
        if numbers.is_empty() {
            return not_here(input);
        }
        Ok((rest, Item::Numbers(numbers, input.span_until(rest))))
    }

    fn single_token_atom<'t>(&self, input: Tokens<'t>) -> ParseResult<'t, Item> {
        let Some(token) = input.first() else {
            return not_here(input);
        };
        let span = token.span;
        let item = match &token.kind {
            TokenKind::String(text) => Item::String(text.clone(), span),
            TokenKind::Zilde => Item::Zilde(span),
            TokenKind::Name(text) => Item::Name(Name {
                text: text.clone(),
                span,
            }),
            TokenKind::SystemName(text) => Item::SystemName(Name {
                text: text.clone(),
                span,
            }),
            TokenKind::Special(special) => Item::Special(*special, span),
            TokenKind::Primitive(primitive) => Item::Primitive(*primitive, span),
            _ => return not_here(input),
        };
        Ok((input.after_first(), item))
    }

    fn parenthesised<'t>(&self, input: Tokens<'t>) -> ParseResult<'t, Item> {
        let Some(Token {
            kind: TokenKind::LeftParenthesis,
            span: open_span,
        }) = input.first()
        else {
            return not_here(input);
        };
        let _level = self.enter_nesting(*open_span)?;
        let (rest, inner) = self.expression(input.after_first())?;
        if is_empty_expression(&inner) && rest.first_kind() == Some(&TokenKind::RightParenthesis) {
            return fail(SyntaxErrorKind::EmptyParentheses, open_span.join(rest.next_span()));
        }
        let (rest, ()) = expect_closing(rest, *open_span, ClosingBracket::Parenthesis)?;
        Ok((rest, Item::Parenthesised(Box::new(inner), input.span_until(rest))))
    }

    fn dfn<'t>(&self, input: Tokens<'t>) -> ParseResult<'t, Item> {
        let Some(Token {
            kind: TokenKind::LeftBrace,
            span: open_span,
        }) = input.first()
        else {
            return not_here(input);
        };
        let _level = self.enter_nesting(*open_span)?;
        let body_start = input.after_first();
        let annotation = self.dfn_annotation(*open_span, body_start);
        let (body, rest) = self.statement_list(body_start, StatementContext::DfnBody);
        let Some(TokenKind::RightBrace) = rest.first_kind() else {
            return fail_with_help(
                SyntaxErrorKind::UnclosedBracket { open: "{" },
                *open_span,
                "a dfn ends with } (it may span several lines)",
            );
        };
        let rest = rest.after_first();
        Ok((
            rest,
            Item::Dfn(Box::new(Dfn {
                body,
                annotation,
                span: input.span_until(rest),
            })),
        ))
    }

    /// `[` where no item precedes it: nothing to index.
    fn index_without_value<'t>(&self, input: Tokens<'t>) -> ParseResult<'t, Item> {
        match input.first() {
            Some(Token {
                kind: TokenKind::LeftBracket,
                span,
            }) => fail_with_help(
                SyntaxErrorKind::IndexWithoutValue,
                *span,
                "brackets index the value directly on their left, as in x[1] or (⍳5)[2]",
            ),
            _ => not_here(input),
        }
    }

    /// `[i;j;...]`: one entry per axis, `None` where the axis is elided (`[;2]`, `[1;]`, `[]`).
    fn bracket_indices<'t>(&self, input: Tokens<'t>) -> ParseResult<'t, Vec<Option<Expr>>> {
        let open_span = input.next_span();
        let _level = self.enter_nesting(open_span)?;
        let mut rest = input.after_first();
        let mut indices = Vec::new();
        loop {
            let (after_index, index) = self.expression(rest)?;
            indices.push((!is_empty_expression(&index)).then_some(index));
            match after_index.first_kind() {
                Some(TokenKind::Semicolon) => rest = after_index.after_first(),
                _ => {
                    let (rest, ()) = expect_closing(after_index, open_span, ClosingBracket::Bracket)?;
                    return Ok((rest, indices));
                }
            }
        }
    }

    // ----- Annotations ------------------------------------------------------------------------------------------

    /// The first `⍝:` comment after a dfn's `{` (on the same line, or on the lines before the first statement).
    fn dfn_annotation(&self, open_span: Span, body_start: Tokens<'_>) -> Option<Comment> {
        let first_statement_start = skip_newlines(body_start).position();
        // Comments are in source order: the first annotation among those between the brace and the first statement
        // (plain comments may come before it).
        let first_after_brace = self
            .comments
            .partition_point(|comment| comment.span.start < open_span.end);
        let index = (first_after_brace..self.comments.len())
            .take_while(|&index| self.comments[index].span.start < first_statement_start)
            .find(|&index| self.comments[index].annotation_text().is_some())?;
        self.claimed_annotations.borrow_mut().insert(index);
        Some(self.comments[index].clone())
    }

    /// The `⍝:` comment alone on the line directly above a statement that starts its own line.
    fn statement_annotation(&self, statement_start: usize) -> Option<Comment> {
        let line = self.line_of(statement_start);
        if line == 0 || !self.only_blanks_before_on_line(statement_start) {
            return None;
        }
        // A line holds at most one comment (it runs to the end of the line): the first one starting on line - 1.
        let index = self
            .comments
            .partition_point(|comment| comment.span.start < self.line_starts[line - 1]);
        let comment = self
            .comments
            .get(index)
            .filter(|comment| comment.span.start < self.line_starts[line])?;
        let is_annotation_alone_on_its_line = comment.annotation_text().is_some()
            && self.only_blanks_before_on_line(comment.span.start)
            && !self.claimed_annotations.borrow().contains(&index);
        is_annotation_alone_on_its_line.then(|| comment.clone())
    }

    fn line_of(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&start| start <= offset) - 1
    }

    fn only_blanks_before_on_line(&self, offset: usize) -> bool {
        let line_start = self.line_starts[self.line_of(offset)];
        self.text[line_start..offset]
            .chars()
            .all(|character| character == ' ' || character == '\t')
    }
}

// ----- Assignment targets ---------------------------------------------------------------------------------------

struct AssignmentSplit {
    prefix: Vec<Item>,
    target: AssignTarget,
    target_span: Span,
    indices: Option<Vec<Option<Expr>>>,
    modifier: Vec<Item>,
}

/// The target of `←` is the last name among the items before it; the items after that name are the modifier of a
/// modified assignment (`x+←1`, `x f.g←1`) and must be able to denote functions; the items before it belong to the
/// enclosing expression (`2×x←3`).
fn split_assignment_target(mut items: Vec<Item>, arrow_span: Span) -> Result<AssignmentSplit, SyntaxError> {
    if let Some(names) = destructuring_target(&items) {
        let target_item = items.pop().expect("destructuring_target found a last item");
        let target_span = target_item.span();
        return Ok(AssignmentSplit {
            prefix: items,
            target: AssignTarget::Names(names, target_span),
            target_span,
            indices: None,
            modifier: Vec::new(),
        });
    }
    if let Some(position) = selective_target(&items) {
        let modifier = items.split_off(position + 1);
        let Some(Item::Parenthesised(selection, target_span)) = items.pop() else {
            unreachable!("selective_target found parentheses")
        };
        return Ok(AssignmentSplit {
            prefix: items,
            target: AssignTarget::Selection(selection, target_span),
            target_span,
            indices: None,
            modifier,
        });
    }
    let Some(target_index) = items.iter().rposition(is_assignable) else {
        return Err(match items.last() {
            None => SyntaxError::new(SyntaxErrorKind::MissingAssignmentTarget, arrow_span)
                .with_help("write the name to assign before ←, as in x←3"),
            Some(last) => invalid_target_error(last),
        });
    };
    if let Some(not_a_function) = items[target_index + 1..].iter().find(|item| !may_be_modifier(item)) {
        return Err(invalid_target_error(not_a_function));
    }
    let modifier = items.split_off(target_index + 1);
    let target_item = items.pop().expect("target_index is in range");
    let target_span = target_item.span();
    let (target, indices) = match target_item {
        Item::Indexed { base, indices, .. } => (assign_target_of(*base), Some(indices)),
        simple => (assign_target_of(simple), None),
    };
    Ok(AssignmentSplit {
        prefix: items,
        target,
        target_span,
        indices,
        modifier,
    })
}

/// The variable of a `:For` line: one name, or plain names in parentheses; with the tokens after it.
fn for_variable(input: Tokens<'_>) -> Option<(NamePattern, Tokens<'_>)> {
    if let Some(Token {
        kind: TokenKind::Name(text),
        span,
    }) = input.first()
    {
        return Some((NamePattern::Name(name_of(text, *span)), input.after_first()));
    }
    let (pattern, rest) = parenthesised_names(input.tokens)?;
    Some((pattern, Tokens::new(rest, input.end_of_text)))
}

/// `(A B …)` at the start of the tokens: plain names in parentheses (at least one), with the tokens after them.
fn parenthesised_names(tokens: &[Token]) -> Option<(NamePattern, &[Token])> {
    let [Token {
        kind: TokenKind::LeftParenthesis,
        span: open,
    }, after_open @ ..] = tokens
    else {
        return None;
    };
    let names: Vec<Name> = after_open
        .iter()
        .map_while(|token| match &token.kind {
            TokenKind::Name(text) => Some(name_of(text, token.span)),
            _ => None,
        })
        .collect();
    match &after_open[names.len()..] {
        [Token {
            kind: TokenKind::RightParenthesis,
            span: close,
        }, after @ ..]
            if !names.is_empty() =>
        {
            Some((NamePattern::Names(names, open.join(*close)), after))
        }
        _ => None,
    }
}

/// `(a b c)` directly before `←` is a destructuring target: a parenthesised list of plain names. After a name it is
/// instead the modifier of a modified assignment (`x (f g)←1` is `x←x (f g) 1`).
fn destructuring_target(items: &[Item]) -> Option<Vec<Name>> {
    let (Item::Parenthesised(expr, _), before) = items.split_last()? else {
        return None;
    };
    if expr.assignment.is_some() || matches!(before.last(), Some(Item::Name(_))) {
        return None;
    }
    expr.items
        .iter()
        .map(|item| match item {
            Item::Name(name) => Some(name.clone()),
            _ => None,
        })
        .collect()
}

/// The position of the parentheses of a selective assignment (`(2↑v)←x`, `((v>0)/v)+←1`, `(v[⍋v])←x`): the last
/// parenthesised expression whose last item is a name (or an indexed name) and which has more items than names
/// (`(a b)←` destructures), followed only by a modifier, and not after a name (`x (f g)←1` modifies x).
fn selective_target(items: &[Item]) -> Option<usize> {
    let position = items.iter().rposition(|item| matches!(item, Item::Parenthesised(..)))?;
    let Item::Parenthesised(selection, _) = &items[position] else {
        return None;
    };
    let ends_with_name = crate::syntax::ast::selected_name(selection).is_some();
    let only_names = selection.items.iter().all(|item| matches!(item, Item::Name(_)));
    let modifier_after = items[position + 1..]
        .iter()
        .all(|item| may_be_modifier(item) && !is_assignable(item));
    let after_a_name = position > 0 && is_assignable(&items[position - 1]);
    (selection.assignment.is_none() && ends_with_name && !only_names && modifier_after && !after_a_name)
        .then_some(position)
}

fn is_assignable(item: &Item) -> bool {
    match item {
        Item::Name(_) | Item::SystemName(_) | Item::Special(SpecialName::Alpha, _) => true,
        Item::Indexed { base, .. } => matches!(**base, Item::Name(_) | Item::SystemName(_)),
        _ => false,
    }
}

fn assign_target_of(item: Item) -> AssignTarget {
    match item {
        Item::Name(name) => AssignTarget::Name(name),
        Item::SystemName(name) => AssignTarget::SystemName(name),
        Item::Special(SpecialName::Alpha, span) => AssignTarget::Alpha(span),
        other => unreachable!("is_assignable accepted {other:?}"),
    }
}

/// Items that can denote a function (or an operator with its operands) between a target and `←`.
fn may_be_modifier(item: &Item) -> bool {
    match item {
        Item::Primitive(..) | Item::Dfn(_) | Item::Parenthesised(..) => true,
        Item::Special(special, _) => !matches!(special, SpecialName::Alpha | SpecialName::Omega),
        Item::Indexed { base, .. } => matches!(**base, Item::Primitive(..)),
        _ => false,
    }
}

fn invalid_target_error(item: &Item) -> SyntaxError {
    let error = SyntaxError::new(
        SyntaxErrorKind::InvalidAssignmentTarget(describe_item(item)),
        item.span(),
    );
    match item {
        Item::Parenthesised(..) => error.with_help("to assign several names at once, list only names: (a b)←1 2"),
        Item::Special(SpecialName::Omega, _) => error.with_help("⍵ is the right argument of a dfn and is read-only"),
        _ => error.with_help("the target of ← is a name (x←3), an indexed name (x[1]←3), ⎕ or a system variable"),
    }
}

fn describe_item(item: &Item) -> String {
    match item {
        Item::Numbers(numbers, _) if numbers.len() == 1 => "a number".to_string(),
        Item::Numbers(..) => "numbers".to_string(),
        Item::String(..) => "a string".to_string(),
        Item::Zilde(_) => "⍬".to_string(),
        Item::Name(name) | Item::SystemName(name) => name.text.clone(),
        Item::Special(special, _) => special_name_glyph(*special).to_string(),
        Item::Primitive(primitive, _) => format!("the primitive {}", primitive.glyph()),
        Item::Parenthesised(..) => "a parenthesised expression".to_string(),
        Item::Dfn(_) => "a dfn".to_string(),
        Item::Indexed { .. } => "an indexed expression".to_string(),
    }
}

// ----- Tradfn headers and blocks ----------------------------------------------------------------------------------

/// What ended a block of tradfn statements (none of it consumed).
#[derive(Clone, Copy, Debug)]
enum BlockEnd {
    EndOfText,
    /// A line holding only `∇`, with the span of the `∇`.
    ClosingDel(Span),
    /// A keyword that continues or closes a structure (`:Else`, `:EndIf`, `:Until`, ...).
    Keyword(Keyword, Span),
}

/// The parts of a tradfn header, as [`Tradfn`] holds them.
struct TradfnHeader {
    name: Name,
    result: Option<Name>,
    shy_result: bool,
    left: Option<NamePattern>,
    optional_left: bool,
    right: Option<NamePattern>,
    locals: Vec<Name>,
}

fn malformed_header(message: impl Into<String>, span: Span) -> SyntaxError {
    SyntaxError::new(SyntaxErrorKind::MalformedHeader(message.into()), span)
}

fn name_of(text: &str, span: Span) -> Name {
    Name {
        text: text.to_string(),
        span,
    }
}

/// `R` or `{R}` (a shy result) before the header's `←`.
fn header_result(tokens: &[Token], arrow_span: Span) -> Result<(Name, bool), SyntaxError> {
    match tokens {
        [Token {
            kind: TokenKind::Name(text),
            span,
        }] => Ok((name_of(text, *span), false)),
        [Token {
            kind: TokenKind::LeftBrace,
            ..
        }, Token {
            kind: TokenKind::Name(text),
            span,
        }, Token {
            kind: TokenKind::RightBrace,
            ..
        }] => Ok((name_of(text, *span), true)),
        [] => Err(malformed_header("the result's name is missing before ←", arrow_span)),
        [first, .., last] => Err(malformed_header(
            "the result before ← must be one name, or {R} for a shy result",
            first.span.join(last.span),
        )),
        [only] => Err(malformed_header(
            "the result before ← must be one name, or {R} for a shy result",
            only.span,
        )),
    }
}

/// The names of a header after the result, each with whether it is in braces (`{A}`).
fn header_call_parts(tokens: &[Token]) -> Result<Vec<(NamePattern, bool)>, SyntaxError> {
    let mut parts = Vec::new();
    let mut rest = tokens;
    loop {
        match rest {
            [] => return Ok(parts),
            [Token {
                kind: TokenKind::Name(text),
                span,
            }, after @ ..] => {
                parts.push((NamePattern::Name(name_of(text, *span)), false));
                rest = after;
            }
            [Token {
                kind: TokenKind::LeftParenthesis,
                span: open,
            }, ..] => match parenthesised_names(rest) {
                Some((pattern, after_list)) => {
                    parts.push((pattern, false));
                    rest = after_list;
                }
                None => {
                    return Err(malformed_header(
                        "parentheses in a header hold the names an argument is split into: (A B)",
                        *open,
                    )
                    .with_help("∇ R←F (A B C) names the items of the right argument"))
                }
            },
            [Token {
                kind: TokenKind::LeftBrace,
                ..
            }, Token {
                kind: TokenKind::Name(text),
                span,
            }, Token {
                kind: TokenKind::RightBrace,
                ..
            }, after @ ..] => {
                parts.push((NamePattern::Name(name_of(text, *span)), true));
                rest = after;
            }
            [other, ..] => {
                return Err(malformed_header(
                    format!("{} cannot be part of a function header", other.kind.describe()),
                    other.span,
                )
                .with_help("a header is ∇ F, ∇ F B or ∇ A F B, each optionally after R← and followed by ;locals"))
            }
        }
    }
}

/// `;L1;L2` after the header's names: user names, or system names such as `⎕IO`.
fn header_locals(tokens: &[Token]) -> Result<Vec<Name>, SyntaxError> {
    let mut locals = Vec::new();
    let mut rest = tokens;
    while let [separator, after_separator @ ..] = rest {
        if separator.kind != TokenKind::Semicolon {
            return Err(malformed_header(
                format!(
                    "{} after a local name: separate locals with ;",
                    separator.kind.describe()
                ),
                separator.span,
            ));
        }
        match after_separator {
            [Token {
                kind: TokenKind::Name(text) | TokenKind::SystemName(text),
                span,
            }, after @ ..] => {
                locals.push(name_of(text, *span));
                rest = after;
            }
            [other, ..] => {
                return Err(malformed_header(
                    format!("{} cannot be a local name", other.kind.describe()),
                    other.span,
                ))
            }
            [] => return Err(malformed_header("a local name must follow ;", separator.span)),
        }
    }
    Ok(locals)
}

fn empty_expression(span: Span) -> Expr {
    Expr {
        items: Vec::new(),
        assignment: None,
        span,
    }
}

// ----- Token-level helpers ----------------------------------------------------------------------------------------

fn is_empty_expression(expression: &Expr) -> bool {
    expression.items.is_empty() && expression.assignment.is_none()
}

fn skip_statement_separators(mut input: Tokens<'_>) -> Tokens<'_> {
    while input.first_kind().is_some_and(TokenKind::is_statement_separator) {
        input = input.after_first();
    }
    input
}

fn skip_newlines(mut input: Tokens<'_>) -> Tokens<'_> {
    while input.first_kind() == Some(&TokenKind::Newline) {
        input = input.after_first();
    }
    input
}

/// Error recovery: from the start of a failed statement, skip to where the statement ends — a newline outside any
/// dfn, a `⋄` outside any bracket, or the `}` closing the enclosing dfn. Always skips at least one token.
fn skip_to_statement_end(input: Tokens<'_>) -> Tokens<'_> {
    let mut brace_depth = 0usize;
    let mut bracket_depth = 0usize;
    let mut end = input.tokens.len();
    for (index, token) in input.tokens.iter().enumerate() {
        let ends_here = match token.kind {
            TokenKind::LeftBrace => {
                brace_depth += 1;
                false
            }
            TokenKind::RightBrace if brace_depth == 0 => true,
            TokenKind::RightBrace => {
                brace_depth -= 1;
                false
            }
            TokenKind::LeftParenthesis | TokenKind::LeftBracket => {
                bracket_depth += 1;
                false
            }
            TokenKind::RightParenthesis | TokenKind::RightBracket => {
                bracket_depth = bracket_depth.saturating_sub(1);
                false
            }
            TokenKind::Newline => brace_depth == 0,
            TokenKind::Diamond => brace_depth == 0 && bracket_depth == 0,
            _ => false,
        };
        if ends_here {
            end = index;
            break;
        }
    }
    Tokens {
        tokens: &input.tokens[end.max(1).min(input.tokens.len())..],
        end_of_text: input.end_of_text,
    }
}

/// After a statement: the end of the input, a separator, or the `}` of the enclosing dfn.
fn expect_statement_end(input: Tokens<'_>) -> ParseResult<'_, ()> {
    let span = input.next_span();
    match input.first_kind() {
        None | Some(TokenKind::Newline | TokenKind::Diamond | TokenKind::RightBrace) => Ok((input, ())),
        Some(TokenKind::RightParenthesis) => fail(SyntaxErrorKind::UnopenedBracket { close: ")", open: "(" }, span),
        Some(TokenKind::RightBracket) => fail(SyntaxErrorKind::UnopenedBracket { close: "]", open: "[" }, span),
        Some(TokenKind::Semicolon) => fail_with_help(
            SyntaxErrorKind::UnexpectedToken(";".to_string()),
            span,
            "; separates the positions of an index inside brackets, as in A[1;2]",
        ),
        Some(other) => fail(SyntaxErrorKind::UnexpectedToken(other.describe()), span),
    }
}

#[derive(Clone, Copy)]
enum ClosingBracket {
    Parenthesis,
    Bracket,
}

impl ClosingBracket {
    fn glyphs(self) -> (&'static str, &'static str) {
        match self {
            ClosingBracket::Parenthesis => ("(", ")"),
            ClosingBracket::Bracket => ("[", "]"),
        }
    }

    fn token(self) -> TokenKind {
        match self {
            ClosingBracket::Parenthesis => TokenKind::RightParenthesis,
            ClosingBracket::Bracket => TokenKind::RightBracket,
        }
    }
}

/// Consumes the closing `)` or `]`, or explains what stands in its place.
fn expect_closing(input: Tokens<'_>, open_span: Span, bracket: ClosingBracket) -> ParseResult<'_, ()> {
    let (open, close) = bracket.glyphs();
    let span = input.next_span();
    match input.first_kind() {
        Some(kind) if *kind == bracket.token() => Ok((input.after_first(), ())),
        None | Some(TokenKind::Newline) => fail_with_help(
            SyntaxErrorKind::UnclosedBracket { open },
            open_span,
            &format!("add the {close}; brackets and parentheses close on the line they open"),
        ),
        Some(TokenKind::Diamond) => fail(
            SyntaxErrorKind::SeparatorInsideBrackets {
                separator: "⋄".to_string(),
                open,
                close,
            },
            span,
        ),
        Some(TokenKind::RightParenthesis) => fail(SyntaxErrorKind::MismatchedBracket { open, close: ")" }, span),
        Some(TokenKind::RightBracket) => fail(SyntaxErrorKind::MismatchedBracket { open, close: "]" }, span),
        Some(TokenKind::RightBrace) => fail(SyntaxErrorKind::MismatchedBracket { open, close: "}" }, span),
        Some(TokenKind::Semicolon) => fail_with_help(
            SyntaxErrorKind::UnexpectedToken(";".to_string()),
            span,
            "; separates the positions of an index inside brackets, as in A[1;2]",
        ),
        Some(TokenKind::Colon) => fail_with_help(
            SyntaxErrorKind::MalformedGuard("a guard cannot be inside brackets or parentheses"),
            span,
            "a guard is a whole dfn statement: condition : result",
        ),
        Some(other) => fail(SyntaxErrorKind::UnexpectedToken(other.describe()), span),
    }
}

#[cfg(test)]
mod tests {
    use crate::source::SourceFile;
    use crate::syntax::ast::{Control, StatementKind};
    use crate::syntax::error::SyntaxErrorKind;
    use crate::syntax::{parse_program, print_program};

    fn printed(text: &str) -> String {
        match parse_program(&SourceFile::new("test.apl", text)) {
            Ok(program) => print_program(&program),
            Err(errors) => panic!("unexpected syntax errors for {text:?}: {:?}", errors.errors),
        }
    }

    fn error_kinds(text: &str) -> Vec<SyntaxErrorKind> {
        match parse_program(&SourceFile::new("test.apl", text)) {
            Ok(program) => panic!("expected an error for {text:?}, got {}", print_program(&program)),
            Err(errors) => errors.errors.into_iter().map(|error| error.kind).collect(),
        }
    }

    #[test]
    fn adjacent_numbers_form_one_strand_item() {
        assert_eq!(printed("1 2 ¯3.5"), "(seq (num 1 2 ¯3.5))\n");
    }

    #[test]
    fn index_with_elided_last_axis() {
        assert_eq!(printed("x[1;]"), "(seq (index (name x) (seq (num 1)) _))\n");
    }

    #[test]
    fn index_with_elided_first_axis() {
        assert_eq!(printed("A[;2]"), "(seq (index (name A) _ (seq (num 2))))\n");
    }

    #[test]
    fn chained_assignment_nests_to_the_right() {
        assert_eq!(printed("a←b←3"), "(assign a (assign b (seq (num 3))))\n");
    }

    #[test]
    fn modified_assignment_keeps_the_function_between_name_and_arrow() {
        assert_eq!(printed("x+←1"), "(assign x (modify (prim +)) (seq (num 1)))\n");
    }

    #[test]
    fn assignment_inside_an_expression_keeps_the_items_on_its_left() {
        assert_eq!(printed("2×x←3"), "(seq (num 2) (prim ×) (assign x (seq (num 3))))\n");
    }

    #[test]
    fn parenthesised_selection_ending_in_a_name_is_a_selective_target() {
        assert_eq!(
            printed("(2↑v)←0"),
            "(assign (select (seq (num 2) (prim ↑) (name v))) (seq (num 0)))\n"
        );
        assert_eq!(
            printed("((v>5)/v)+←1"),
            "(assign (select (seq (paren (seq (name v) (prim >) (num 5))) (prim /) (name v))) (modify (prim +)) (seq (num 1)))\n"
        );
        // Only names: destructuring. After a name: the modifier of that name's assignment.
        assert_eq!(printed("(a b)←1 2"), "(assign (a b) (seq (num 1 2)))\n");
        assert_eq!(
            printed("x (f g)←1"),
            "(assign x (modify (paren (seq (name f) (name g)))) (seq (num 1)))\n"
        );
    }

    #[test]
    fn indexed_assignment_with_elided_axis() {
        assert_eq!(printed("A[;2]←0"), "(assign A (at _ (seq (num 2))) (seq (num 0)))\n");
    }

    #[test]
    fn quad_output_and_system_variable_assignment() {
        assert_eq!(printed("⎕←1"), "(assign ⎕ (seq (num 1)))\n");
        assert_eq!(printed("⎕PP←17"), "(assign ⎕PP (seq (num 17)))\n");
    }

    #[test]
    fn inner_and_outer_products_are_items() {
        assert_eq!(printed("a+.×b"), "(seq (name a) (prim +) (prim .) (prim ×) (name b))\n");
        assert_eq!(
            printed("∘.×⍨⍳3"),
            "(seq (prim ∘.) (prim ×) (prim ⍨) (prim ⍳) (num 3))\n"
        );
    }

    #[test]
    fn multi_line_dfn_with_guard() {
        assert_eq!(
            printed("f←{\n  ⍵=0:1\n  ⍵×∇ ⍵-1\n}"),
            "(assign f (seq (dfn\n  (guard (seq (special ⍵) (prim =) (num 0)) (seq (num 1)))\n  \
             (seq (special ⍵) (prim ×) (special ∇) (special ⍵) (prim -) (num 1)))))\n"
        );
    }

    #[test]
    fn alpha_default_inside_a_dfn() {
        assert_eq!(
            printed("{⍺←0 ⋄ ⍺+⍵}"),
            "(seq (dfn\n  (assign ⍺ (seq (num 0)))\n  (seq (special ⍺) (prim +) (special ⍵))))\n"
        );
    }

    #[test]
    fn annotations_attach_to_dfn_and_statement() {
        assert_eq!(
            printed("⍝: x : int\nx←{⍝: int → int\n⍵}"),
            "(annotated \" x : int\" (assign x (seq (dfn (type \" int → int\")\n  (seq (special ⍵))))))\n\
             (comment \": x : int\")\n(comment \": int → int\")\n"
        );
    }

    #[test]
    fn a_plain_comment_before_a_dfn_annotation_does_not_hide_it() {
        // The annotation is the dfn's (as it is without the plain comment), not the first statement's, so that the
        // program reprinted without its plain comments means the same.
        assert_eq!(
            printed("{ ⍝ c\n ⍝: int\n 1 }"),
            "(seq (dfn (type \" int\")\n  (seq (num 1))))\n(comment \" c\")\n(comment \": int\")\n"
        );
    }

    #[test]
    fn several_errors_in_one_run() {
        assert_eq!(
            error_kinds("(1 2\n3]\n'abc"),
            vec![
                SyntaxErrorKind::UnclosedBracket { open: "(" },
                SyntaxErrorKind::UnopenedBracket { close: "]", open: "[" },
                SyntaxErrorKind::UnterminatedString,
            ]
        );
    }

    #[test]
    fn errors_inside_a_dfn_do_not_hide_later_dfn_lines() {
        assert_eq!(
            error_kinds("{\n 1 2←3\n ⍵)\n}"),
            vec![
                SyntaxErrorKind::InvalidAssignmentTarget("numbers".to_string()),
                SyntaxErrorKind::UnopenedBracket { close: ")", open: "(" },
            ]
        );
    }

    #[test]
    fn guard_at_top_level_is_an_error() {
        assert_eq!(error_kinds("1:2"), vec![SyntaxErrorKind::GuardOutsideDfn]);
    }

    #[test]
    fn arrow_without_target_or_value() {
        assert_eq!(error_kinds("←3"), vec![SyntaxErrorKind::MissingAssignmentTarget]);
        assert_eq!(error_kinds("x←"), vec![SyntaxErrorKind::MissingAssignmentValue]);
    }

    #[test]
    fn quad_as_a_value_is_an_error() {
        assert_eq!(error_kinds("1+⎕"), vec![SyntaxErrorKind::QuadAsValue]);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let deep = format!("{}1{}", "(".repeat(5000), ")".repeat(5000));
        assert_eq!(error_kinds(&deep), vec![SyntaxErrorKind::TooDeeplyNested(100)]);
        let deep_dfns = format!("{}⍵{}", "{".repeat(5000), "}".repeat(5000));
        assert_eq!(error_kinds(&deep_dfns), vec![SyntaxErrorKind::TooDeeplyNested(100)]);
    }

    #[test]
    fn long_assignment_chains_count_as_nesting() {
        let names = format!("{}1", "a←".repeat(8000));
        assert_eq!(error_kinds(&names), vec![SyntaxErrorKind::TooDeeplyNested(100)]);
        let quads = format!("{}1", "⎕←".repeat(10_000));
        assert_eq!(error_kinds(&quads), vec![SyntaxErrorKind::TooDeeplyNested(100)]);
        let inside_parentheses = format!("{}{}1{}", "(".repeat(60), "x←".repeat(60), ")".repeat(60));
        assert_eq!(
            error_kinds(&inside_parentheses),
            vec![SyntaxErrorKind::TooDeeplyNested(100)]
        );
        let hundred = format!("{}1", "a←".repeat(100));
        assert!(parse_program(&SourceFile::new("test.apl", hundred)).is_ok());
    }

    #[test]
    fn nesting_up_to_the_limit_parses() {
        let nested = format!("{}1{}", "(".repeat(100), ")".repeat(100));
        assert!(printed(&nested).starts_with("(seq (paren (seq (paren"));
    }

    #[test]
    fn separator_inside_parentheses() {
        assert_eq!(
            error_kinds("(1 ⋄ 2)"),
            vec![SyntaxErrorKind::SeparatorInsideBrackets {
                separator: "⋄".to_string(),
                open: "(",
                close: ")"
            }]
        );
    }

    /// The messages (after "SYNTAX ERROR: ") of every error, in source order.
    fn error_messages(text: &str) -> Vec<String> {
        match parse_program(&SourceFile::new("test.apl", text)) {
            Ok(program) => panic!("expected an error for {text:?}, got {}", print_program(&program)),
            Err(errors) => errors.errors.into_iter().map(|error| error.kind.to_string()).collect(),
        }
    }

    /// The text that the first error's span covers.
    fn first_error_text(text: &str) -> String {
        match parse_program(&SourceFile::new("test.apl", text)) {
            Ok(program) => panic!("expected an error for {text:?}, got {}", print_program(&program)),
            Err(errors) => text[errors.errors[0].span.start..errors.errors[0].span.end].to_string(),
        }
    }

    #[test]
    fn every_tradfn_header_form() {
        let headers = [
            ("∇ F", "F"),
            ("∇ F B", "F B"),
            ("∇ A F B", "A F B"),
            ("∇ R←F", "R←F"),
            ("∇ R←F B", "R←F B"),
            ("∇ R←A F B", "R←A F B"),
            ("∇ {R}←F B", "{R}←F B"),
            ("∇ R←{A} F B", "R←{A} F B"),
            ("∇ {R}←{A} F B", "{R}←{A} F B"),
        ];
        for (header, printed_header) in headers {
            assert_eq!(
                printed(&format!("{header}\n∇")),
                format!("(tradfn (header {printed_header}))\n"),
                "{header}"
            );
        }
    }

    #[test]
    fn tradfn_locals_keep_system_names_and_the_header_comment_is_a_comment() {
        assert_eq!(
            printed("∇ R←F X;i;⎕IO ⍝ doubles\n R←2×X\n∇"),
            "(tradfn (header R←F X) (locals i ⎕IO)\n  (assign R (seq (num 2) (prim ×) (name X))))\n\
             (comment \" doubles\")\n"
        );
    }

    #[test]
    fn tradfn_spans_cover_the_header_and_the_whole_definition() {
        let text = "x←1\n∇ R←F X\n R←X\n∇ ⍝ end\ny←2";
        let program = parse_program(&SourceFile::new("test.apl", text)).expect("parses");
        let StatementKind::Tradfn(tradfn) = &program.statements[1].kind else {
            panic!("a tradfn: {program:?}");
        };
        assert_eq!(&text[tradfn.header_span.start..tradfn.header_span.end], "R←F X");
        assert_eq!(&text[tradfn.span.start..tradfn.span.end], "∇ R←F X\n R←X\n∇");
        assert_eq!(program.statements[1].span, tradfn.span);
        assert_eq!(program.statements.len(), 3);
    }

    #[test]
    fn closing_del_may_be_the_last_token_of_the_file() {
        assert_eq!(printed("∇ F\n1\n∇"), "(tradfn (header F)\n  (seq (num 1)))\n");
        assert_eq!(
            printed("∇ F\n1\n∇ ⍝ done"),
            "(tradfn (header F)\n  (seq (num 1)))\n(comment \" done\")\n"
        );
    }

    #[test]
    fn control_structures_nest_inside_a_tradfn() {
        assert_eq!(
            printed("∇ F X\n:If X\n:While 1\n:Leave\n:EndWhile\n:ElseIf 0\n:Else\n:Return\n:EndIf\n∇"),
            "(tradfn (header F X)\n  (if\n    (clause (seq (name X))\n      (while (seq (num 1))\n        (leave)))\n    \
             (clause (seq (num 0)))\n    (else\n      (return))))\n"
        );
    }

    #[test]
    fn keyword_lines_may_be_separated_by_diamonds_and_end_closes_anything() {
        assert_eq!(
            printed("∇ F X\n:If X ⋄ y←1 ⋄ :End\n:repeat ⋄ :continue ⋄ :UNTIL X\n∇"),
            "(tradfn (header F X)\n  (if\n    (clause (seq (name X))\n      (assign y (seq (num 1)))))\n  \
             (repeat\n    (continue)\n    (until (seq (name X)))))\n"
        );
    }

    #[test]
    fn for_select_and_conditions_with_andif_and_orif() {
        assert_eq!(
            printed(
                "∇ F X\n:For i :In ⍳X\n:Select i\n:Case 1\n:CaseList 2 3\ny←i\n:Else\n:EndSelect\n:EndFor\n\
                 :While X ⋄ :AndIf 1 ⋄ :AndIf 2 ⋄ :EndWhile\n:Repeat ⋄ :Until X ⋄ :OrIf 1\n∇"
            ),
            "(tradfn (header F X)\n  (for i (seq (prim ⍳) (name X))\n    (select (seq (name i))\n      \
             (case (seq (num 1)))\n      (caselist (seq (num 2 3))\n        (assign y (seq (name i))))\n      \
             (else)))\n  (while (andif (seq (name X)) (seq (num 1)) (seq (num 2))))\n  \
             (repeat\n    (until (orif (seq (name X)) (seq (num 1))))))\n"
        );
    }

    #[test]
    fn dfns_inside_a_tradfn_span_lines_and_keep_del_as_self_reference() {
        assert_eq!(
            printed("∇ R←F X\nR←{\n⍵=0:1\n⍵×∇ ⍵-1\n} X\n∇"),
            "(tradfn (header R←F X)\n  (assign R (seq (dfn\n    (guard (seq (special ⍵) (prim =) (num 0)) (seq (num 1)))\n    \
             (seq (special ⍵) (prim ×) (special ∇) (special ⍵) (prim -) (num 1))) (name X))))\n"
        );
        assert_eq!(printed("{∇ ⍵}"), "(seq (dfn\n  (seq (special ∇) (special ⍵))))\n");
        assert_eq!(printed("(∇) 1"), "(seq (paren (seq (special ∇))) (num 1))\n");
    }

    #[test]
    fn malformed_headers() {
        assert_eq!(
            error_kinds("∇ 1 2\n∇"),
            vec![SyntaxErrorKind::MalformedHeader(
                "a number cannot be part of a function header".to_string()
            )]
        );
        assert_eq!(
            error_kinds("∇ R←\n∇"),
            vec![SyntaxErrorKind::MalformedHeader(
                "the function's name is missing".to_string()
            )]
        );
        assert_eq!(first_error_text("∇ R←(F OP) X\n∇"), "(F OP)");
        assert_eq!(
            error_messages("∇ R←(F OP) X\n∇"),
            vec!["malformed function header: operator headers such as ∇ R←(F OP) X are not supported"]
        );
        assert_eq!(
            error_messages("∇ A B F C\n∇"),
            vec!["malformed function header: too many names"]
        );
        assert_eq!(
            error_messages("∇ A {F} C\n∇"),
            vec!["malformed function header: only the left argument may be in braces: {A} F B"]
        );
        assert_eq!(
            error_messages("∇ F;\n∇"),
            vec!["malformed function header: a local name must follow ;"]
        );
        assert_eq!(
            error_messages("∇ F;1\n∇"),
            vec!["malformed function header: a number cannot be a local name"]
        );
        assert_eq!(
            error_messages("∇ R S←F\n∇"),
            vec!["malformed function header: the result before ← must be one name, or {R} for a shy result"]
        );
    }

    #[test]
    fn a_malformed_header_does_not_leave_the_body_at_the_top_level() {
        assert_eq!(
            error_messages("∇ 1\n:If 1\n:EndIf\n∇\nx←"),
            vec![
                "malformed function header: a number cannot be part of a function header",
                "← has no value on its right",
            ]
        );
    }

    #[test]
    fn unterminated_tradfn_points_at_its_header() {
        assert_eq!(
            error_kinds("∇ R←F X\nR←X"),
            vec![SyntaxErrorKind::UnterminatedFunction("F".to_string())]
        );
        assert_eq!(first_error_text("∇ R←F X\nR←X"), "∇ R←F X");
    }

    #[test]
    fn misplaced_dels() {
        assert_eq!(
            error_messages("∇ F\n∇ G\n∇\n∇"),
            vec![
                "traditional functions cannot be nested: inside one, ∇ must be alone on its line, where it closes the \
                 function"
            ]
        );
        assert_eq!(error_messages("1\n∇"), vec!["this ∇ closes no traditional function"]);
    }

    #[test]
    fn branch_forms_are_whole_statements_of_a_tradfn() {
        assert_eq!(
            printed("∇ F N\n→0\n→LOOP\n→(N>0)/LOOP\n→LOOP×⍳N>0\n∇"),
            "(tradfn (header F N)\n  (branch (seq (num 0)))\n  (branch (seq (name LOOP)))\n  \
             (branch (seq (paren (seq (name N) (prim >) (num 0))) (prim /) (name LOOP)))\n  \
             (branch (seq (name LOOP) (prim ×) (prim ⍳) (name N) (prim >) (num 0))))\n"
        );
    }

    #[test]
    fn branch_span_covers_the_whole_statement_and_branches_nest_in_structures() {
        let text = "∇ F\n:If 1 ⋄ →L×1 ⋄ :EndIf\nL:\n∇";
        let program = parse_program(&SourceFile::new("test.apl", text)).expect("parses");
        let StatementKind::Tradfn(tradfn) = &program.statements[0].kind else {
            panic!("a tradfn")
        };
        let StatementKind::Control(control) = &tradfn.body[0].kind else {
            panic!("an :If")
        };
        let Control::If { clauses, .. } = control.as_ref() else {
            panic!("an :If")
        };
        let branch = &clauses[0].1[0];
        assert_eq!(&text[branch.span.start..branch.span.end], "→L×1");
        let StatementKind::Control(branch) = &branch.kind else {
            panic!("a branch")
        };
        let Control::Branch { span, .. } = branch.as_ref() else {
            panic!("a branch")
        };
        assert_eq!(&text[span.start..span.end], "→L×1");
    }

    #[test]
    fn branch_outside_a_tradfn_or_inside_a_statement_is_an_error() {
        for text in [
            "→0",
            "{→0}",
            "∇ F\nx←→0\n∇",
            "∇ F\n1 →0\n∇",
            "∇ F\n(→0)\n∇",
            "∇ F\n{→⍵} 1\n∇",
            "∇ F\n:If →1\n:EndIf\n∇",
        ] {
            assert_eq!(error_kinds(text), vec![SyntaxErrorKind::MisplacedBranch], "{text}");
            assert_eq!(first_error_text(text), "→", "{text}");
        }
        assert_eq!(error_kinds("∇ F\n→\n∇"), vec![SyntaxErrorKind::BranchWithoutTarget]);
        assert_eq!(error_kinds("∇ F\n→ ⋄ 1\n∇"), vec![SyntaxErrorKind::BranchWithoutTarget]);
        assert_eq!(error_kinds("∇ F\n→→0\n∇"), vec![SyntaxErrorKind::MisplacedBranch]);
    }

    #[test]
    fn labels_count_lines_from_the_header_blank_and_comment_lines_included() {
        let text = "1\n∇ R←F N ⍝ header is line 0\nR←0\n\n⍝ a comment\nLOOP:R←R+1 ⋄ N←N-1\n→(N>0)/LOOP\nEND:\n∇";
        assert_eq!(
            printed(text),
            "(seq (num 1))\n(tradfn (header R←F N)\n  (assign R (seq (num 0)))\n  (label LOOP 4)\n  \
             (assign R (seq (name R) (prim +) (num 1)))\n  (assign N (seq (name N) (prim -) (num 1)))\n  \
             (branch (seq (paren (seq (name N) (prim >) (num 0))) (prim /) (name LOOP)))\n  (label END 6))\n\
             (comment \" header is line 0\")\n(comment \" a comment\")\n"
        );
    }

    #[test]
    fn a_label_may_stand_before_a_branch_or_a_control_structure() {
        assert_eq!(
            printed("∇ F\nL: →L\nM: :If 1\n:EndIf\n∇"),
            "(tradfn (header F)\n  (label L 1)\n  (branch (seq (name L)))\n  (label M 2)\n  (if\n    \
             (clause (seq (num 1)))))\n"
        );
    }

    #[test]
    fn misplaced_labels_are_errors() {
        let inside = "∇ F\n:If 1\nL: x\n:EndIf\n∇";
        assert_eq!(
            error_messages(inside),
            vec![
                "the label L: is inside a control structure; labels are only allowed at the top level of a \
                 traditional function's body"
            ]
        );
        assert_eq!(first_error_text(inside), "L:");
        assert_eq!(
            error_messages("∇ F\nL: 1\nL: 2\n∇"),
            vec!["the label L is defined twice in one function"]
        );
        assert_eq!(
            error_messages("∇ F\nEndIf: 1\n∇"),
            vec!["EndIf: is spelled like the control keyword :EndIf"]
        );
        assert_eq!(
            error_messages("∇ F\n1 ⋄ L: 2\n∇"),
            vec!["the label L: must start its line"]
        );
        // Not a plain name before the colon: no label, and no guard either.
        assert!(matches!(
            error_kinds("∇ F\n1:2\n∇").as_slice(),
            [SyntaxErrorKind::Label(_)]
        ));
        assert_eq!(first_error_text("∇ F\n1:2\n∇"), ":");
        // The same name in two functions is two labels.
        assert!(printed("∇ F\nL:\n∇\n∇ G\nL:\n∇").contains("(label L 1)"));
    }

    #[test]
    fn control_structures_outside_a_tradfn() {
        assert_eq!(
            error_kinds(":If 1\n:EndIf"),
            vec![
                SyntaxErrorKind::ControlOutsideTradfn(":If".to_string()),
                SyntaxErrorKind::ControlOutsideTradfn(":EndIf".to_string()),
            ]
        );
        assert_eq!(
            error_kinds("{\n:Return\n}"),
            vec![SyntaxErrorKind::ControlOutsideTradfn(":Return".to_string())]
        );
        assert_eq!(
            error_kinds("∇ F\n{:If 1 ⋄ :EndIf}\n∇"),
            vec![
                SyntaxErrorKind::ControlOutsideTradfn(":If".to_string()),
                SyntaxErrorKind::ControlOutsideTradfn(":EndIf".to_string()),
            ]
        );
    }

    #[test]
    fn malformed_control_structures_point_at_the_keyword() {
        let cases = [
            ("∇ F\n:EndIf\n∇", ":EndIf closes no open control structure", ":EndIf"),
            ("∇ F\n:If 1\n:EndWhile\n∇", ":EndWhile cannot close :If", ":EndWhile"),
            (
                "∇ F\n:If 1\n:Else\n:Else\n:EndIf\n∇",
                ":Else after the :Else of its :If",
                ":Else",
            ),
            (
                "∇ F\n:If 1\n:Else 2\n:EndIf\n∇",
                "nothing may follow :Else in its statement",
                "2",
            ),
            (
                "∇ F\n:If 1\n:EndIf x\n∇",
                "nothing may follow :EndIf in its statement",
                "x",
            ),
            ("∇ F\n:If\n:EndIf\n∇", ":If needs a condition", ":If"),
            ("∇ F\n:If 1\n∇", ":If is never closed", ":If"),
            ("∇ F\n:Leave\n∇", ":Leave is only allowed inside a loop", ":Leave"),
            (
                "∇ F\n:If 1\n:Continue\n:EndIf\n∇",
                ":Continue is only allowed inside a loop",
                ":Continue",
            ),
            (
                "∇ F\n:If 1\n:AndIf 2\n:OrIf 3\n:EndIf\n∇",
                ":AndIf and :OrIf cannot be mixed in one clause",
                ":OrIf",
            ),
            (
                "∇ F\n:If 1\nx\n:AndIf 2\n:EndIf\n∇",
                ":AndIf must directly follow the line of an :If, :ElseIf, :While or :Until",
                ":AndIf",
            ),
            (
                "∇ F\n:While 1\n:Case 2\n:EndWhile\n∇",
                ":Case is not part of the enclosing control structure",
                ":Case",
            ),
            (
                "∇ F\n:For 1 :In 2\n:EndFor\n∇",
                ":For needs the name of its variable, or names in parentheses",
                ":For",
            ),
            (
                "∇ F\n:For i j :In 2\n:EndFor\n∇",
                ":In must follow the :For variable (one name, or names in parentheses)",
                "j",
            ),
            (
                "∇ F\n:For i :In\n:EndFor\n∇",
                ":In needs the values to loop over",
                ":In",
            ),
            (
                "∇ F\n:Select 1\nx\n:Case 1\n:EndSelect\n∇",
                "statements between :Select and its first :Case are not allowed",
                "x",
            ),
            (
                "∇ F\n:Select 1\n:Else\n:Case 1\n:EndSelect\n∇",
                ":Case after the :Else of its :Select",
                ":Case",
            ),
            ("∇ F\n:Repeat\n:EndFor\n∇", ":EndFor cannot close :Repeat", ":EndFor"),
        ];
        for (text, message, pointed) in cases {
            assert_eq!(error_messages(text), vec![message.to_string()], "{text:?}");
            assert_eq!(first_error_text(text), pointed, "{text:?}");
        }
    }

    #[test]
    fn errors_in_several_tradfn_statements_are_all_reported() {
        assert_eq!(
            error_kinds("∇ F\n1 2←3\n:If 1\n ⍵)\n:EndIf\n∇"),
            vec![
                SyntaxErrorKind::InvalidAssignmentTarget("numbers".to_string()),
                SyntaxErrorKind::UnopenedBracket { close: ")", open: "(" },
            ]
        );
    }

    #[test]
    fn many_nested_definitions_are_not_a_stack_overflow() {
        let deep = format!("∇ F\n{}", "∇ G\n".repeat(100_000));
        assert!(!error_kinds(&deep).is_empty());
    }

    #[test]
    fn control_structures_nest_at_most_the_nesting_limit() {
        let deep = format!("∇ F\n{}{}∇", ":If 1\n".repeat(200), ":EndIf\n".repeat(200));
        let kinds = error_kinds(&deep);
        assert_eq!(kinds[0], SyntaxErrorKind::TooDeeplyNested(100));
    }
}
