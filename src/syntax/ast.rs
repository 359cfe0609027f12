//! The abstract syntax of an APL script, as the parser produces it.
//!
//! APL's parse depends on what names denote: `f g x` is `f (g x)` when `g` is a function and a strand of two arrays
//! applied to `f` when `g` is an array. The syntax layer does not track name classes. It parses every expression into
//! an *unresolved sequence* of [`Item`]s (right-to-left binding, valence, strands, operator binding and trains are
//! decided later, in elaboration, which knows what each name is bound to, including the operands `⍺⍺`/`⍵⍵` of inlined
//! operators). What the syntax layer does settle is everything that does not depend on classes: brackets and
//! parentheses, dfn bodies and guards, numeric strands (`1 2 3` is one literal), assignments, indexing brackets, and
//! which comments are type annotations.
//!
//! Every node carries the [`Span`] of the text it came from.

use crate::source::Span;

/// A whole script: its top-level statements in order, and every comment with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub statements: Vec<Statement>,
    pub comments: Vec<Comment>,
}

/// A `⍝` comment. `text` is what follows the `⍝`, up to the end of the line.
#[derive(Clone, Debug, PartialEq)]
pub struct Comment {
    pub text: String,
    pub span: Span,
}

impl Comment {
    /// A comment whose text starts with `:` is a type annotation (`⍝: <double>ρ → <double>ρ`). Returns the part after
    /// the colon.
    pub fn annotation_text(&self) -> Option<&str> {
        self.text.strip_prefix(':')
    }
}

/// One statement: a top-level line (or `⋄`-separated part of one), or one line of a dfn body.
#[derive(Clone, Debug, PartialEq)]
pub struct Statement {
    pub kind: StatementKind,
    /// A `⍝:` comment on the line directly above this statement (`⍝: name : type` before an assignment).
    pub annotation: Option<Comment>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StatementKind {
    /// An expression, possibly ending in an assignment.
    Expr(Expr),
    /// `condition : result` (dfn bodies only): if `condition` is true, the dfn returns `result`.
    Guard { condition: Expr, result: Expr },
    /// `∇ header` ... `∇` (top level only): the definition of a traditional function.
    Tradfn(Box<Tradfn>),
    /// A control structure (`:If`, `:While`, `:For`, ..., tradfn bodies only).
    Control(Box<Control>),
}

/// A traditional function: `∇ R←A NAME B;L1;L2` (the result, the left argument and the right argument are each
/// optional, `{R}←` makes the result shy and `{A}` the left argument optional), its body lines, and the closing `∇`.
/// Its names are dynamically scoped: the header's names are local to a call, every other name is the caller's.
#[derive(Clone, Debug, PartialEq)]
pub struct Tradfn {
    pub name: Name,
    pub result: Option<Name>,
    /// `{R}←`: a call that is a whole statement does not print its result.
    pub shy_result: bool,
    /// The left argument's name, or names in parentheses that destructure it (`∇ R←(A B) F X`).
    pub left: Option<NamePattern>,
    /// `{A}`: the function may be called monadically, leaving A without a value.
    pub optional_left: bool,
    /// The right argument's name, or names in parentheses that destructure it (`∇ R←F (A B C)`).
    pub right: Option<NamePattern>,
    /// `;name` after the header: names local to a call.
    pub locals: Vec<Name>,
    pub body: Vec<Statement>,
    /// The header line (after the opening `∇`).
    pub header_span: Span,
    /// From the opening `∇` to the closing one.
    pub span: Span,
}

/// A control structure of a tradfn body, with its nested statements. Keywords are matched case-insensitively and
/// every `:EndIf`, `:EndWhile`, ... may also be written `:End`.
#[derive(Clone, Debug, PartialEq)]
pub enum Control {
    /// `:If c` ... `:ElseIf c` ... `:Else` ... `:EndIf`: the first clause whose condition holds runs.
    If {
        clauses: Vec<(Condition, Vec<Statement>)>,
        otherwise: Option<Vec<Statement>>,
    },
    /// `:While c` ... `:EndWhile`: the body runs while c holds (tested before each pass); or `:While c` ...
    /// `:Until u`, which also ends after a pass when u holds (tested first).
    While {
        condition: Condition,
        body: Vec<Statement>,
        until: Option<Condition>,
    },
    /// `:Repeat` ... `:Until c` (tested after each pass), or ... `:EndRepeat` (until a `:Leave`).
    Repeat {
        body: Vec<Statement>,
        until: Option<Condition>,
    },
    /// `:For name :In values` ... `:EndFor`: the body runs once per item of the values, the name bound to it.
    For {
        variable: NamePattern,
        values: Expr,
        body: Vec<Statement>,
    },
    /// `:Select value` then `:Case v` (value ≡ v) or `:CaseList vs` (value ≡ some item of vs) clauses, then
    /// `:Else`, then `:EndSelect`.
    Select {
        value: Expr,
        cases: Vec<Case>,
        otherwise: Option<Vec<Statement>>,
    },
    /// `:Return`: the function returns (its result is the result name's value).
    Return(Span),
    /// `:Leave`: the innermost loop ends.
    Leave(Span),
    /// `:Continue`: the innermost loop goes on with its next pass.
    Continue(Span),
    /// `→target` (tradfn bodies only): when `target` is not empty, execution goes on at the line its first item
    /// names (the value of a label), or leaves the function for 0 or a line that is not in it (`→0`,
    /// `→(N>0)/LOOP`, `→LOOP×⍳N>0`).
    Branch { target: Expr, span: Span },
    /// `NAME:` at the start of a line of a tradfn body (at its top level, not inside a control structure): the name
    /// is a constant, the line's number in the function (the header is line 0, as Dyalog numbers them). The rest of
    /// the line is the statements that follow.
    Label { name: Name, line: usize },
}

/// What a `:For` binds to each item, and a tradfn header to an argument.
#[derive(Clone, Debug, PartialEq)]
pub enum NamePattern {
    /// `:For X :In V`, `∇ R←F X`: X is the item, or the argument.
    Name(Name),
    /// `:For (A B) :In V`, `∇ R←F (A B)`: the value is destructured, as by `(A B)←value`. The span is the
    /// parentheses'.
    Names(Vec<Name>, Span),
}

impl NamePattern {
    /// The names it binds.
    pub fn names(&self) -> Vec<&Name> {
        match self {
            NamePattern::Name(name) => vec![name],
            NamePattern::Names(names, _) => names.iter().collect(),
        }
    }

    /// The text as written: `X` or `(A B)`.
    pub fn text(&self) -> String {
        match self {
            NamePattern::Name(name) => name.text.clone(),
            NamePattern::Names(names, _) => {
                let names: Vec<&str> = names.iter().map(|name| name.text.as_str()).collect();
                format!("({})", names.join(" "))
            }
        }
    }
}

/// The condition of an `:If`, `:ElseIf`, `:While` or `:Until` clause: a boolean scalar expression, optionally
/// followed by `:AndIf c` lines (all must hold, tested left to right until one fails) or by `:OrIf c` lines (one
/// must hold, tested until one does). Dyalog does not mix the two in one clause, nor does the parser.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    pub first: Expr,
    pub more: Vec<Expr>,
    /// `true` when `more` are `:AndIf`s, `false` when they are `:OrIf`s.
    pub all: bool,
}

/// One `:Case v` (`list: false`) or `:CaseList vs` (`list: true`) clause of a `:Select`.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    pub list: bool,
    pub value: Expr,
    pub body: Vec<Statement>,
}

/// An expression: an unresolved sequence of items, optionally followed by an assignment whose value is the rest of the
/// line. `2×x←3` is `items = [2, ×]` with `assignment = x←3`; `x←3` alone has no items.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub items: Vec<Item>,
    pub assignment: Option<Box<Assignment>>,
    pub span: Span,
}

/// `target ← value`, `target[i;j] ← value`, or the modified assignment `target f ← value` (`x+←1`).
#[derive(Clone, Debug, PartialEq)]
pub struct Assignment {
    pub target: AssignTarget,
    /// `Some` for indexed assignment: one entry per axis, `None` for an elided axis (`A[;2]←v`).
    pub indices: Option<Vec<Option<Expr>>>,
    /// The function items of a modified assignment (`+` in `x+←1`), unresolved like any other sequence.
    pub modifier: Vec<Item>,
    pub value: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AssignTarget {
    /// A user name (also the target of a function definition `f←{...}`).
    Name(Name),
    /// `⎕←x`: print x (and the statement's value is x).
    QuadOutput(Span),
    /// A system variable such as `⎕PP` or `⎕IO`.
    SystemName(Name),
    /// `⍺←default` inside a dfn: gives `⍺` a value when the dfn is called monadically (no effect when it has a left
    /// argument).
    Alpha(Span),
    /// `(a b c)←v`: destructuring assignment, one name per item of `v`.
    Names(Vec<Name>, Span),
    /// `(2↑v)←x`: selective assignment. The parenthesised expression ends with the name it assigns (or with that
    /// name indexed, `(v[i])←x`); the items before it select items of its value (structural functions and their left
    /// arguments). The span is the parentheses'.
    Selection(Box<Expr>, Span),
}

/// An identifier with its span. User names match `[A-Za-z_∆⍙][A-Za-z_∆⍙¯0-9]*`; system names keep their `⎕`
/// (`⎕PP`, `⎕ReadFile`) and are compared case-insensitively by elaboration.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

/// One element of an unresolved sequence.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// One numeric literal or a numeric strand written with spaces (`1 2 ¯3.5`): always a single item.
    Numbers(Vec<NumberLiteral>, Span),
    /// `'text'` with `''` already unescaped. One character is a character scalar, any other length a vector.
    String(String, Span),
    /// `⍬`, the empty numeric vector.
    Zilde(Span),
    /// A user name.
    Name(Name),
    /// A system name other than `⎕` itself (`⎕PP`, `⎕NOW`, `⎕INT32AND`, `⎕ReadFile`).
    SystemName(Name),
    /// `⎕` used as a value (reading input) is not supported; the parser reports it. This variant is the `⍺ ⍵ ⍺⍺ ⍵⍵ ∇ ∇∇`
    /// family.
    Special(SpecialName, Span),
    /// A primitive function or operator glyph (`+`, `⍴`, `/`, `¨`, `∘.`, ...).
    Primitive(Primitive, Span),
    /// `( expr )`.
    Parenthesised(Box<Expr>, Span),
    /// `{ ... }`.
    Dfn(Box<Dfn>),
    /// `item[i;j;...]`: bracket indexing of the item directly to the left (or an axis specification, for a function
    /// item, which elaboration rejects unless supported). One entry per axis; `None` for an elided axis.
    Indexed {
        base: Box<Item>,
        indices: Vec<Option<Expr>>,
        span: Span,
    },
}

impl Item {
    pub fn span(&self) -> Span {
        match self {
            Item::Numbers(_, span)
            | Item::String(_, span)
            | Item::Zilde(span)
            | Item::Special(_, span)
            | Item::Primitive(_, span)
            | Item::Parenthesised(_, span)
            | Item::Indexed { span, .. } => *span,
            Item::Name(name) | Item::SystemName(name) => name.span,
            Item::Dfn(dfn) => dfn.span,
        }
    }
}

/// A numeric literal as written. `Int` has no `.`, `E` or `J`; elaboration gives `0` and `1` the type bool.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NumberLiteral {
    Int(i64),
    Float(f64),
    /// `2J3` (either part may be negative with `¯`).
    Complex(f64, f64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpecialName {
    /// `⍺`
    Alpha,
    /// `⍵`
    Omega,
    /// `⍺⍺`
    AlphaAlpha,
    /// `⍵⍵`
    OmegaOmega,
    /// `∇`: the enclosing dfn.
    Del,
    /// `∇∇`: the enclosing operator.
    DelDel,
}

/// `{ body }`. The body is a list of statements separated by newlines or `⋄`; guards may appear among them.
#[derive(Clone, Debug, PartialEq)]
pub struct Dfn {
    pub body: Vec<Statement>,
    /// A `⍝:` comment right after the opening brace, giving the dfn's type (`⍝: <double>ρ → <double>ρ`).
    pub annotation: Option<Comment>,
    pub span: Span,
}

/// Every primitive glyph the lexer knows. Which are functions and which operators, and how each is used monadically and
/// dyadically, is elaboration's business (and grammar.md's table); the syntax layer only names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Primitive {
    // Scalar functions.
    Plus,         // +
    Minus,        // -
    Times,        // ×
    Divide,       // ÷
    Stile,        // |
    Ceiling,      // ⌈
    Floor,        // ⌊
    Star,         // *
    Log,          // ⍟
    Circle,       // ○
    Factorial,    // !
    Question,     // ?
    Tilde,        // ~
    And,          // ∧
    Or,           // ∨
    Nand,         // ⍲
    Nor,          // ⍱
    Less,         // <
    LessEqual,    // ≤
    Equal,        // =
    GreaterEqual, // ≥
    Greater,      // >
    NotEqual,     // ≠
    // Structural and other functions.
    Rho,              // ⍴
    Comma,            // ,
    CommaBar,         // ⍪
    CircleStile,      // ⌽
    CircleBar,        // ⊖
    Transpose,        // ⍉
    UpArrow,          // ↑
    DownArrow,        // ↓
    RightShoe,        // ⊃
    LeftShoe,         // ⊂
    LeftShoeUnderbar, // ⊆
    Iota,             // ⍳
    Tally,            // ≢
    Match,            // ≡
    GradeUp,          // ⍋
    GradeDown,        // ⍒
    LeftTack,         // ⊣
    RightTack,        // ⊢
    Squad,            // ⌷
    Format,           // ⍕
    Execute,          // ⍎
    Epsilon,          // ∊
    IotaUnderbar,     // ⍸
    UpTack,           // ⊥
    DownTack,         // ⊤
    Domino,           // ⌹
    Union,            // ∪
    Intersection,     // ∩
    Find,             // ⍷
    // Operators.
    Slash,        // /
    SlashBar,     // ⌿
    Backslash,    // \
    BackslashBar, // ⍀
    Each,         // ¨
    OuterProduct, // ∘.  (one token)
    Dot,          // .   (inner product)
    Power,        // ⍣
    Jot,          // ∘
    Commute,      // ⍨
    Rank,         // ⍤
    Key,          // ⌸
    Stencil,      // ⌺
    At,           // @
    Over,         // ⍥
}

impl Primitive {
    /// Every primitive with its glyph, in one table that the lexer, the printer and grammar.md agree on.
    pub const TABLE: &'static [(Primitive, &'static str)] = &[
        (Primitive::Plus, "+"),
        (Primitive::Minus, "-"),
        (Primitive::Times, "×"),
        (Primitive::Divide, "÷"),
        (Primitive::Stile, "|"),
        (Primitive::Ceiling, "⌈"),
        (Primitive::Floor, "⌊"),
        (Primitive::Star, "*"),
        (Primitive::Log, "⍟"),
        (Primitive::Circle, "○"),
        (Primitive::Factorial, "!"),
        (Primitive::Question, "?"),
        (Primitive::Tilde, "~"),
        (Primitive::And, "∧"),
        (Primitive::Or, "∨"),
        (Primitive::Nand, "⍲"),
        (Primitive::Nor, "⍱"),
        (Primitive::Less, "<"),
        (Primitive::LessEqual, "≤"),
        (Primitive::Equal, "="),
        (Primitive::GreaterEqual, "≥"),
        (Primitive::Greater, ">"),
        (Primitive::NotEqual, "≠"),
        (Primitive::Rho, "⍴"),
        (Primitive::Comma, ","),
        (Primitive::CommaBar, "⍪"),
        (Primitive::CircleStile, "⌽"),
        (Primitive::CircleBar, "⊖"),
        (Primitive::Transpose, "⍉"),
        (Primitive::UpArrow, "↑"),
        (Primitive::DownArrow, "↓"),
        (Primitive::RightShoe, "⊃"),
        (Primitive::LeftShoe, "⊂"),
        (Primitive::LeftShoeUnderbar, "⊆"),
        (Primitive::Iota, "⍳"),
        (Primitive::Tally, "≢"),
        (Primitive::Match, "≡"),
        (Primitive::GradeUp, "⍋"),
        (Primitive::GradeDown, "⍒"),
        (Primitive::LeftTack, "⊣"),
        (Primitive::RightTack, "⊢"),
        (Primitive::Squad, "⌷"),
        (Primitive::Format, "⍕"),
        (Primitive::Execute, "⍎"),
        (Primitive::Epsilon, "∊"),
        (Primitive::IotaUnderbar, "⍸"),
        (Primitive::UpTack, "⊥"),
        (Primitive::DownTack, "⊤"),
        (Primitive::Domino, "⌹"),
        (Primitive::Union, "∪"),
        (Primitive::Intersection, "∩"),
        (Primitive::Find, "⍷"),
        (Primitive::Slash, "/"),
        (Primitive::SlashBar, "⌿"),
        (Primitive::Backslash, "\\"),
        (Primitive::BackslashBar, "⍀"),
        (Primitive::Each, "¨"),
        (Primitive::OuterProduct, "∘."),
        (Primitive::Dot, "."),
        (Primitive::Power, "⍣"),
        (Primitive::Jot, "∘"),
        (Primitive::Commute, "⍨"),
        (Primitive::Rank, "⍤"),
        (Primitive::Key, "⌸"),
        (Primitive::Stencil, "⌺"),
        (Primitive::At, "@"),
        (Primitive::Over, "⍥"),
    ];

    pub fn glyph(self) -> &'static str {
        Primitive::TABLE
            .iter()
            .find(|(primitive, _)| *primitive == self)
            .map(|(_, glyph)| *glyph)
            .expect("every primitive is in Primitive::TABLE")
    }

    pub fn from_glyph(glyph: &str) -> Option<Primitive> {
        Primitive::TABLE
            .iter()
            .find(|(_, g)| *g == glyph)
            .map(|(primitive, _)| *primitive)
    }
}

/// What a walk over dfn bodies ([`walk_statements`]) reports: every item and every assignment, at any depth of
/// parentheses, indices and assignments, but not inside nested dfns (a dfn is an item; its body is its own).
pub trait BodyVisitor {
    fn item(&mut self, _item: &Item) {}
    fn assignment(&mut self, _assignment: &Assignment) {}
}

/// Walks the statements (guards' conditions and results included), telling `visitor` of every item and assignment.
/// The name a selective assignment assigns: the last item of its parenthesised expression, or the name that item
/// indexes (`(2↑V[I])←X`).
pub fn selected_name(selection: &Expr) -> Option<&Name> {
    match selection.items.last()? {
        Item::Name(name) => Some(name),
        Item::Indexed { base, .. } => match &**base {
            Item::Name(name) => Some(name),
            _ => None,
        },
        _ => None,
    }
}

pub fn walk_statements(statements: &[Statement], visitor: &mut dyn BodyVisitor) {
    for statement in statements {
        match &statement.kind {
            StatementKind::Expr(expr) => walk_expr(expr, visitor),
            StatementKind::Guard { condition, result } => {
                walk_expr(condition, visitor);
                walk_expr(result, visitor);
            }
            // A tradfn's body is its own, as a dfn's is.
            StatementKind::Tradfn(_) => {}
            StatementKind::Control(control) => walk_control(control, visitor),
        }
    }
}

fn walk_control(control: &Control, visitor: &mut dyn BodyVisitor) {
    let walk_condition = |condition: &Condition, visitor: &mut dyn BodyVisitor| {
        walk_expr(&condition.first, visitor);
        for expr in &condition.more {
            walk_expr(expr, visitor);
        }
    };
    match control {
        Control::If { clauses, otherwise } => {
            for (condition, body) in clauses {
                walk_condition(condition, visitor);
                walk_statements(body, visitor);
            }
            walk_statements(otherwise.as_deref().unwrap_or_default(), visitor);
        }
        Control::While { condition, body, until } => {
            walk_condition(condition, visitor);
            walk_statements(body, visitor);
            if let Some(until) = until {
                walk_condition(until, visitor);
            }
        }
        Control::Repeat { body, until } => {
            walk_statements(body, visitor);
            if let Some(until) = until {
                walk_condition(until, visitor);
            }
        }
        Control::For { values, body, .. } => {
            walk_expr(values, visitor);
            walk_statements(body, visitor);
        }
        Control::Select {
            value,
            cases,
            otherwise,
        } => {
            walk_expr(value, visitor);
            for case in cases {
                walk_expr(&case.value, visitor);
                walk_statements(&case.body, visitor);
            }
            walk_statements(otherwise.as_deref().unwrap_or_default(), visitor);
        }
        Control::Branch { target, .. } => walk_expr(target, visitor),
        Control::Return(_) | Control::Leave(_) | Control::Continue(_) | Control::Label { .. } => {}
    }
}

fn walk_expr(expr: &Expr, visitor: &mut dyn BodyVisitor) {
    for item in &expr.items {
        walk_item(item, visitor);
    }
    if let Some(assignment) = &expr.assignment {
        visitor.assignment(assignment);
        if let AssignTarget::Selection(selection, _) = &assignment.target {
            walk_expr(selection, visitor);
        }
        for item in &assignment.modifier {
            walk_item(item, visitor);
        }
        for index in assignment.indices.iter().flatten().flatten() {
            walk_expr(index, visitor);
        }
        walk_expr(&assignment.value, visitor);
    }
}

fn walk_item(item: &Item, visitor: &mut dyn BodyVisitor) {
    visitor.item(item);
    match item {
        Item::Parenthesised(expr, _) => walk_expr(expr, visitor),
        Item::Indexed { base, indices, .. } => {
            walk_item(base, visitor);
            for index in indices.iter().flatten() {
                walk_expr(index, visitor);
            }
        }
        _ => {}
    }
}
