//! Infix resolution: an unresolved item sequence to a tree of applications.
//!
//! APL's parse depends on what names denote, so resolution runs during elaboration, with the environment at hand:
//! every item gets a class (array, function, monadic or dyadic operator); operators then bind their operands left to
//! right (long left scope, short right scope); adjacent arrays form strands; and the rest is read right to left as
//! monadic and dyadic applications, or, when the sequence ends in a function, as a function expression (a derived
//! function or a train of atops and forks).

use super::env::{Env, Val};
use super::error::{ElabError, ElabResult};
use crate::source::Span;
use crate::syntax::ast::{Expr, Item, Primitive, SpecialName, Statement};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Array,
    Function,
    MonadicOperator,
    DyadicOperator,
}

/// A resolved expression tree. Leaves are the original items.
#[derive(Clone, Debug)]
pub enum Node<'a> {
    /// One item whose class is array or function.
    Atom(&'a Item, Class),
    /// An array computed before resolution: the value of the assignment that ends the sequence (`2×x←3`).
    Given(Box<Val>, Span),
    /// Adjacent arrays: `a b c`.
    Strand(Vec<Node<'a>>, Span),
    Monadic {
        function: Box<Node<'a>>,
        argument: Box<Node<'a>>,
        span: Span,
    },
    Dyadic {
        left: Box<Node<'a>>,
        function: Box<Node<'a>>,
        right: Box<Node<'a>>,
        span: Span,
    },
    /// An operator with its operands: `f/`, `f¨`, `f∘g`, `∘.f` (whose operand is stored as `left`).
    Derived {
        operator: &'a Item,
        left: Box<Node<'a>>,
        right: Option<Box<Node<'a>>>,
        span: Span,
    },
    /// `(f g h)`; `left` may be an array.
    Fork {
        left: Box<Node<'a>>,
        middle: Box<Node<'a>>,
        right: Box<Node<'a>>,
        span: Span,
    },
    /// `(g h)`.
    Atop {
        left: Box<Node<'a>>,
        right: Box<Node<'a>>,
        span: Span,
    },
}

impl Node<'_> {
    pub fn span(&self) -> Span {
        match self {
            Node::Atom(item, _) => item.span(),
            Node::Given(_, span) => *span,
            Node::Strand(_, span)
            | Node::Monadic { span, .. }
            | Node::Dyadic { span, .. }
            | Node::Derived { span, .. }
            | Node::Fork { span, .. }
            | Node::Atop { span, .. } => *span,
        }
    }

    /// Whether the node denotes an array (as opposed to a function).
    pub fn is_array(&self) -> bool {
        match self {
            Node::Atom(_, class) => *class == Class::Array,
            Node::Given(..) | Node::Strand(..) | Node::Monadic { .. } | Node::Dyadic { .. } => true,
            Node::Derived { .. } | Node::Fork { .. } | Node::Atop { .. } => false,
        }
    }
}

/// The class of a primitive glyph.
pub fn primitive_class(primitive: Primitive) -> Class {
    use Primitive::*;
    match primitive {
        Slash | SlashBar | Backslash | BackslashBar | Each | Commute | Key => Class::MonadicOperator,
        Dot | Power | Jot | Rank | Stencil | At | Over => Class::DyadicOperator,
        // `∘.` is a prefix operator: it takes its single operand from the right (handled in `bind_operators`).
        OuterProduct => Class::MonadicOperator,
        _ => Class::Function,
    }
}

/// System names that denote functions; every other system name is a variable or an operator.
pub fn system_name_is_function(name: &str) -> bool {
    let upper = name.to_uppercase();
    upper.starts_with("⎕INT32")
        || matches!(
            upper.as_str(),
            "⎕READFILE"
                | "⎕READINTVECFILE"
                | "⎕READDOUBLEVECFILE"
                | "⎕ARGINT"
                | "⎕ARGDOUBLE"
                | "⎕DL"
                | "⎕FMT"
                | "⎕UCS"
                | "⎕C"
                | "⎕NC"
        )
}

/// System names that denote dyadic operators: `⎕BENCH` (power with timing).
pub fn system_name_is_dyadic_operator(name: &str) -> bool {
    name.to_uppercase() == "⎕BENCH"
}

pub fn value_class(value: &Val) -> Class {
    match value {
        Val::Array(_) | Val::Tuple(_) | Val::Nested { .. } => Class::Array,
        // A niladic tradfn's name is its call, an array.
        Val::Function(_) if super::tradfns::niladic_tradfn(value).is_some() => Class::Array,
        Val::Function(_) => Class::Function,
        Val::Operator(operator) => match &**operator {
            super::env::Opr::Primitive(primitive, _) | super::env::Opr::AlongAxis { primitive, .. } => {
                primitive_class(*primitive)
            }
            super::env::Opr::Dfn { dyadic: true, .. } => Class::DyadicOperator,
            super::env::Opr::Dfn { dyadic: false, .. } => Class::MonadicOperator,
        },
    }
}

/// Which of `⍺⍺` and `⍵⍵` a dfn body mentions (not looking into nested dfns): a dfn that mentions `⍵⍵` is a dyadic
/// operator, one that mentions only `⍺⍺` a monadic operator, any other a function.
pub fn dfn_class(body: &[Statement]) -> Class {
    let mut uses = OperandUses::default();
    crate::syntax::ast::walk_statements(body, &mut uses);
    if uses.omega_omega {
        Class::DyadicOperator
    } else if uses.alpha_alpha {
        Class::MonadicOperator
    } else {
        Class::Function
    }
}

#[derive(Default)]
struct OperandUses {
    alpha_alpha: bool,
    omega_omega: bool,
}

impl crate::syntax::ast::BodyVisitor for OperandUses {
    fn item(&mut self, item: &Item) {
        match item {
            Item::Special(SpecialName::AlphaAlpha, _) => self.alpha_alpha = true,
            Item::Special(SpecialName::OmegaOmega, _) => self.omega_omega = true,
            _ => {}
        }
    }
}

/// Resolves item sequences against an environment.
pub struct Resolver<'e> {
    pub env: &'e Env,
    /// Names that an assignment embedded further right in the statement defines (`y` in `y × (y ← 3)`): APL
    /// evaluates right to left, so they are defined when the items on their left run. Such an assignment's value is
    /// an array (a function assignment inside an expression is an error), so these names are arrays.
    assigned_to_the_right: Vec<String>,
    /// The top level's names, for a name the environment does not bind at all: a dfn's body may call a function
    /// the script defines after the dfn (it runs later), as elaboration's lookup allows (`Elaborator::lookup_name`).
    globals: Option<&'e Env>,
}

impl<'e> Resolver<'e> {
    pub fn new(env: &'e Env) -> Resolver<'e> {
        Resolver {
            env,
            assigned_to_the_right: Vec::new(),
            globals: None,
        }
    }

    pub fn with_globals(mut self, globals: &'e Env) -> Resolver<'e> {
        self.globals = Some(globals);
        self
    }

    /// What a name denotes: its binding here (none when a tradfn localised it and has not assigned it), else at
    /// the top level.
    fn lookup(&self, name: &str) -> Option<&'e Val> {
        match self.env.find(name) {
            Some(value) => value,
            None => self.globals.and_then(|globals| globals.lookup(name)),
        }
    }

    pub fn class_of(&self, item: &Item) -> ElabResult<Class> {
        Ok(match item {
            Item::Numbers(..) | Item::String(..) | Item::Zilde(_) => Class::Array,
            Item::Name(name) => match self.lookup(&name.text) {
                Some(value) => value_class(value),
                None if self.assigned_to_the_right.contains(&name.text) => Class::Array,
                None => return Err(ElabError::value(name.span, format!("undefined name {}", name.text))),
            },
            Item::SystemName(name) => {
                if system_name_is_function(&name.text) {
                    Class::Function
                } else if system_name_is_dyadic_operator(&name.text) {
                    Class::DyadicOperator
                } else {
                    Class::Array
                }
            }
            Item::Special(special, span) => {
                let key = special_key(*special);
                match self.env.lookup(key) {
                    Some(value) => value_class(value),
                    None => match special {
                        // `⍺` in a monadic call without a default: a VALUE ERROR, reported at elaboration.
                        SpecialName::Alpha | SpecialName::Omega => Class::Array,
                        SpecialName::Del => Class::Function,
                        _ => return Err(ElabError::value(*span, format!("{key} used outside an operator"))),
                    },
                }
            }
            Item::Primitive(primitive, _) => primitive_class(*primitive),
            Item::Parenthesised(expr, span) => {
                if expr.assignment.is_some() {
                    Class::Array
                } else if expr.items.is_empty() {
                    return Err(ElabError::syntax(*span, "empty parentheses"));
                } else {
                    let node = self.resolve(&expr.items, *span)?;
                    if node.is_array() {
                        Class::Array
                    } else {
                        Class::Function
                    }
                }
            }
            Item::Dfn(dfn) => dfn_class(&dfn.body),
            Item::Indexed { base, .. } => self.class_of(base)?,
        })
    }

    /// Resolve a whole sequence (non-empty) to one node.
    pub fn resolve<'a>(&self, items: &'a [Item], span: Span) -> ElabResult<Node<'a>> {
        self.resolve_with(items, None, span)
    }

    /// Resolve a sequence followed by an already computed array (`items` may then be empty).
    pub fn resolve_with<'a>(
        &self,
        items: &'a [Item],
        trailing: Option<(Val, Span)>,
        span: Span,
    ) -> ElabResult<Node<'a>> {
        if items.is_empty() && trailing.is_none() {
            return Err(ElabError::syntax(span, "empty expression"));
        }
        // Each item is classified once: classifying a parenthesised item resolves its contents, so classifying it
        // again (as a lone item, then as an operand) would double the work at every level of redundant parentheses.
        let classes = self.classes_in_sequence(items)?;
        // A lone operator (`twice←{⍺⍺ ⍺⍺ ⍵}`, `(⍣)`) denotes the operator itself.
        if let ([item], [class], None) = (items, classes.as_slice(), &trailing) {
            if matches!(class, Class::MonadicOperator | Class::DyadicOperator) {
                return Ok(Node::Atom(item, *class));
            }
        }
        let mut atoms = bind_operators(items, &classes)?;
        if let Some((value, value_span)) = trailing {
            atoms.push(Node::Given(Box::new(value), value_span));
        }
        let grouped = group_strands(atoms);
        build_applications(grouped, span)
    }

    /// Each item's class, knowing the names that assignments embedded to its right define. The items are walked
    /// right to left so that each is scanned for assignments once; the first error from the left is reported.
    fn classes_in_sequence(&self, items: &[Item]) -> ElabResult<Vec<Class>> {
        let mut assigned_to_the_right = self.assigned_to_the_right.clone();
        let mut classes = Vec::with_capacity(items.len());
        for item in items.iter().rev() {
            let class = if assigned_to_the_right.len() == self.assigned_to_the_right.len() {
                self.class_of(item)
            } else {
                Resolver {
                    env: self.env,
                    assigned_to_the_right: assigned_to_the_right.clone(),
                    globals: self.globals,
                }
                .class_of(item)
            };
            classes.push(class);
            names_assigned_inside_item(item, &mut assigned_to_the_right);
        }
        let mut classes = classes.into_iter().rev().collect::<ElabResult<Vec<Class>>>()?;
        mark_replicate_functions(items, &mut classes);
        Ok(classes)
    }
}

/// `/ ⌿ \ ⍀` are operators (`+/`) or, with an array on their left, replicate and expand; as the operand of a monadic
/// operator, after an array or first, they are those functions (Dyalog's `V/⍨B` is `B/V`, `A/¨B` replicates pairs of
/// items): there the glyph is classed a function.
fn mark_replicate_functions(items: &[Item], classes: &mut [Class]) {
    use Primitive::*;
    for position in 1..items.len() {
        let operator_follows = matches!(items[position], Item::Primitive(Commute | Each, _));
        let slash = position - 1;
        let hybrid = matches!(
            items[slash],
            Item::Primitive(Slash | SlashBar | Backslash | BackslashBar, _)
        );
        // After a function it is that function's reduce or scan (`+/¨` is `(+/)¨`).
        let after_function = slash > 0 && classes[slash - 1] != Class::Array;
        if operator_follows && hybrid && !after_function {
            classes[slash] = Class::Function;
        }
    }
}

/// Bind operators to their operands, left to right (`classes` holds each item's class). The result contains only
/// array and function nodes.
fn bind_operators<'a>(items: &'a [Item], classes: &[Class]) -> ElabResult<Vec<Node<'a>>> {
    let mut nodes: Vec<Node<'a>> = Vec::new();
    let mut position = 0;
    while position < items.len() {
        let item = &items[position];
        let class = classes[position];
        position += 1;
        match class {
            Class::Array | Class::Function => nodes.push(Node::Atom(item, class)),
            Class::MonadicOperator if matches!(item, Item::Primitive(Primitive::OuterProduct, _)) => {
                let Some(operand_item) = items.get(position) else {
                    return Err(ElabError::syntax(item.span(), "∘. needs a function to its right"));
                };
                let operand_class = classes[position];
                if operand_class != Class::Function {
                    return Err(ElabError::syntax(item.span(), "∘. needs a function to its right"));
                }
                position += 1;
                let span = item.span().join(operand_item.span());
                nodes.push(Node::Derived {
                    operator: item,
                    left: Box::new(Node::Atom(operand_item, operand_class)),
                    right: None,
                    span,
                });
            }
            Class::MonadicOperator => {
                let Some(operand) = nodes.pop() else {
                    return Err(ElabError::syntax(item.span(), "operator without a left operand"));
                };
                let span = operand.span().join(item.span());
                nodes.push(Node::Derived {
                    operator: item,
                    left: Box::new(operand),
                    right: None,
                    span,
                });
            }
            Class::DyadicOperator => {
                let Some(left) = nodes.pop() else {
                    return Err(ElabError::syntax(item.span(), "operator without a left operand"));
                };
                let Some(right_item) = items.get(position) else {
                    return Err(ElabError::syntax(
                        item.span(),
                        "dyadic operator without a right operand",
                    ));
                };
                let right_class = classes[position];
                if !matches!(right_class, Class::Array | Class::Function) {
                    return Err(ElabError::syntax(right_item.span(), "an operator cannot be an operand"));
                }
                position += 1;
                let span = left.span().join(right_item.span());
                nodes.push(Node::Derived {
                    operator: item,
                    left: Box::new(left),
                    right: Some(Box::new(Node::Atom(right_item, right_class))),
                    span,
                });
            }
        }
    }
    Ok(nodes)
}

/// The names assigned by the assignments embedded in an item (inside its parentheses and brackets, at any depth, but
/// not inside dfns, whose names are local).
fn names_assigned_inside_item(item: &Item, names: &mut Vec<String>) {
    match item {
        Item::Parenthesised(expr, _) => names_assigned_inside_expr(expr, names),
        Item::Indexed { base, indices, .. } => {
            names_assigned_inside_item(base, names);
            for index in indices.iter().flatten() {
                names_assigned_inside_expr(index, names);
            }
        }
        _ => {}
    }
}

fn names_assigned_inside_expr(expr: &Expr, names: &mut Vec<String>) {
    for item in &expr.items {
        names_assigned_inside_item(item, names);
    }
    if let Some(assignment) = &expr.assignment {
        match &assignment.target {
            crate::syntax::ast::AssignTarget::Name(name) => names.push(name.text.clone()),
            crate::syntax::ast::AssignTarget::Names(targets, _) => {
                names.extend(targets.iter().map(|name| name.text.clone()))
            }
            crate::syntax::ast::AssignTarget::Selection(selection, _) => {
                names.extend(crate::syntax::ast::selected_name(selection).map(|name| name.text.clone()))
            }
            _ => {}
        }
        names_assigned_inside_expr(&assignment.value, names);
    }
}

pub fn special_key(special: SpecialName) -> &'static str {
    match special {
        SpecialName::Alpha => "⍺",
        SpecialName::Omega => "⍵",
        SpecialName::AlphaAlpha => "⍺⍺",
        SpecialName::OmegaOmega => "⍵⍵",
        SpecialName::Del => "∇",
        SpecialName::DelDel => "∇∇",
    }
}

/// Merge runs of adjacent arrays into strands.
/// Close a run of arrays: one array stays itself, several become a strand.
fn flush<'a>(run: &mut Vec<Node<'a>>, grouped: &mut Vec<Node<'a>>) {
    match run.len() {
        0 => {}
        1 => grouped.push(run.pop().expect("one element")),
        _ => {
            let span = run[0].span().join(run[run.len() - 1].span());
            grouped.push(Node::Strand(std::mem::take(run), span));
        }
    }
}

fn group_strands(nodes: Vec<Node<'_>>) -> Vec<Node<'_>> {
    let mut grouped: Vec<Node<'_>> = Vec::new();
    let mut run: Vec<Node<'_>> = Vec::new();
    for node in nodes {
        if node.is_array() {
            run.push(node);
        } else {
            flush(&mut run, &mut grouped);
            grouped.push(node);
        }
    }
    flush(&mut run, &mut grouped);
    grouped
}

/// Read alternating arrays and functions right to left.
fn build_applications(mut nodes: Vec<Node<'_>>, span: Span) -> ElabResult<Node<'_>> {
    let last = nodes.pop().expect("resolve checks for an empty sequence");
    if !last.is_array() {
        nodes.push(last);
        return build_train(nodes, span);
    }
    let mut value = last;
    while let Some(function) = nodes.pop() {
        if function.is_array() {
            // Two adjacent arrays are grouped into strands, so this cannot happen; keep a clear error anyway.
            return Err(ElabError::syntax(
                function.span(),
                "two arrays without a function between them",
            ));
        }
        let left_is_array = nodes.last().is_some_and(|node| node.is_array());
        if left_is_array {
            let left = nodes.pop().expect("checked above");
            let span = left.span().join(value.span());
            value = Node::Dyadic {
                left: Box::new(left),
                function: Box::new(function),
                right: Box::new(value),
                span,
            };
        } else {
            let span = function.span().join(value.span());
            value = Node::Monadic {
                function: Box::new(function),
                argument: Box::new(value),
                span,
            };
        }
    }
    Ok(value)
}

/// A sequence ending in a function: a single function, or a train (forks from the right, an atop if two are left).
fn build_train(mut nodes: Vec<Node<'_>>, span: Span) -> ElabResult<Node<'_>> {
    let mut result = nodes.pop().expect("build_applications pushed the last node back");
    while let Some(middle) = nodes.pop() {
        if middle.is_array() {
            return Err(
                ElabError::syntax(middle.span(), "a train's middle tine must be a function").with_hint(
                    "an array followed by a function with nothing to its right is missing the right argument",
                ),
            );
        }
        match nodes.pop() {
            Some(left) => {
                let fork_span = left.span().join(result.span());
                result = Node::Fork {
                    left: Box::new(left),
                    middle: Box::new(middle),
                    right: Box::new(result),
                    span: fork_span,
                };
            }
            None => {
                let atop_span = middle.span().join(result.span());
                result = Node::Atop {
                    left: Box::new(middle),
                    right: Box::new(result),
                    span: atop_span,
                };
            }
        }
    }
    let _ = span;
    Ok(result)
}
