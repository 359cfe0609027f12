//! Selective assignment: `(2↑V)←0`, `((V>5)/V)←99`, `(⊃V)+←1`, `(,M)←⍳12`.
//!
//! The parenthesised expression ends with the name it changes; the functions before the name are structural, so
//! they only choose and arrange items of its value. Applying them to the array of the value's ravel positions
//! (`(⍴V)⍴⍳×/⍴V`, in the name's place) therefore gives the positions of the items they select, in the arrangement
//! they select them in; the assignment is then an indexed assignment of the ravel at those positions
//! (`R[P]←X`, or `R[P] f←X` for a modified one), reshaped back. `X` must have the selection's shape (or be a
//! scalar), as for indexed assignment, and the value of the whole assignment is `X`, as for every assignment.
//!
//! Only the last occurrence of the name is replaced: `((V>5)/V)←99` reads V's values in its left argument.

use super::env::Val;
use super::error::{ElabError, ElabResult};
use super::ir::Base;
use super::resolve::{Node, Resolver};
use super::Elaborator;
use crate::syntax::ast::{self, Item, Primitive};

/// The pseudo-variables (no APL name starts with a blank) that stand for the ravel positions in the selecting
/// expression and for the positions it selects in the indexed assignment.
const POSITIONS: &str = " positions";
const SELECTED: &str = " selected";

impl Elaborator {
    /// `(f V)←X` (or `(f V) g←X`), `assignment` being the whole assignment and `value` X's value.
    pub(super) fn selective_assignment(
        &mut self,
        selection: &ast::Expr,
        assignment: &ast::Assignment,
        value: Val,
    ) -> ElabResult<Val> {
        let (Some(name), Some((last, selecting))) = (ast::selected_name(selection), selection.items.split_last())
        else {
            unreachable!("the parser makes a selective assignment of parentheses that end with a name")
        };
        let value = self.bind_value(value);
        let current = self.value_to_update(name)?;
        let current = self.expect_array(current, name.span)?;
        let span = selection.span;
        let shape = self.primitive_monadic(Primitive::Rho, Val::Array(current.clone()), span)?;
        let shape = self.bind_value(shape);
        let ravel = self.primitive_monadic(Primitive::Comma, Val::Array(current), span)?;
        let ravel = self.bind_value(ravel);
        let count = self.primitive_monadic(Primitive::Tally, ravel.clone(), span)?;
        let positions = self.primitive_monadic(Primitive::Iota, count, span)?;
        let positions = self.primitive_dyadic(Primitive::Rho, shape.clone(), positions, span)?;
        // The selecting expression and the update see two pseudo-variables, which go again afterwards (a
        // conditional or loop around the assignment must not carry them).
        let before = self.env.clone();
        self.env = self.env.bind(POSITIONS, positions);
        let mut items = selecting.to_vec();
        items.push(in_place_of_the_name(last, name.span));
        let selected = self.check_selection(&items, span).and_then(|()| {
            self.expr(&ast::Expr {
                items,
                assignment: None,
                span,
            })
        });
        let updated = selected.and_then(|selected| {
            let selected = self.expect_array(selected, span)?;
            if !matches!(selected.base, Base::Int | Base::Bool) {
                return Err(ElabError::domain(
                    span,
                    "a selective assignment must select items of its name",
                ));
            }
            self.env = self.env.bind(SELECTED, Val::Array(selected));
            let positions = ast::Expr {
                items: vec![Item::Name(ast::Name {
                    text: SELECTED.to_string(),
                    span,
                })],
                assignment: None,
                span,
            };
            let modifier = self.modifier_function(&assignment.modifier, assignment.span)?;
            self.at_site(assignment.span, |this| {
                this.indexed_assignment(
                    ravel,
                    span,
                    &[Some(positions)],
                    modifier,
                    value.clone(),
                    assignment.span,
                )
            })
        });
        self.env = before;
        let updated = self.primitive_dyadic(Primitive::Rho, shape, updated?, span)?;
        self.update_name(name, updated, assignment.span)?;
        Ok(value)
    }

    /// The selecting expression, resolved with the positions in the name's place: a chain of structural functions
    /// (with their left arguments and axes, and compress or replicate by an array) down to the name. Any other
    /// function (`2×V`, `+/V`, a dfn, a train), another shape of expression, or an assignment inside is refused
    /// where it is.
    fn check_selection(&self, items: &[Item], span: crate::source::Span) -> ElabResult<()> {
        // The pseudo-variables' scope ends with the assignment, and would take a name assigned inside with it.
        for item in items {
            if let Item::Parenthesised(expr, _) = item {
                if expr.assignment.is_some() {
                    return Err(ElabError::nonce(
                        expr.span,
                        "an assignment inside a selective assignment's selection",
                    ));
                }
            }
        }
        let env = self.env.clone();
        let node = Resolver::new(&env).resolve(items, span)?;
        let mut spine = &node;
        loop {
            let (function, argument) = match spine {
                Node::Monadic { function, argument, .. } => (function, argument),
                Node::Dyadic { function, right, .. } => (function, right),
                Node::Atom(Item::Name(_) | Item::Indexed { .. }, _) => return Ok(()),
                other => {
                    return Err(ElabError::nonce(
                        other.span(),
                        "a selective assignment whose selection is not a chain of functions ending in the name",
                    ))
                }
            };
            if !selects_items(function) {
                return Err(
                    ElabError::nonce(function.span(), "selective assignment through this function").with_hint(
                        "a selective assignment (f V)←X selects with ↑ ↓ / ⌿ ⌽ ⊖ ⍉ , ⍪ ⍴ ⊃ ⌷ ⊢ ∊; write V[I]←X with \
                         the indices instead",
                    ),
                );
            }
            spine = argument;
        }
    }
}

/// Whether a resolved function only chooses and arranges items (applied to positions, it gives the positions
/// chosen): a structural primitive, with an axis or not, or compress and replicate by an array (`B/`, `B⌿`).
fn selects_items(function: &Node<'_>) -> bool {
    match function {
        Node::Atom(Item::Primitive(primitive, _), _) => is_structural(*primitive),
        Node::Atom(Item::Indexed { base, .. }, _) => {
            matches!(&**base, Item::Primitive(primitive, _) if is_structural(*primitive))
        }
        Node::Derived { left, right: None, .. } => left.is_array() && is_replicate(function),
        _ => false,
    }
}

/// `B/` or `B⌿`, with an axis or not.
fn is_replicate(function: &Node<'_>) -> bool {
    let Node::Derived { operator, .. } = function else {
        return false;
    };
    let glyph = match operator {
        Item::Indexed { base, .. } => &**base,
        other => other,
    };
    matches!(glyph, Item::Primitive(Primitive::Slash | Primitive::SlashBar, _))
}

/// The last item of the selection with the positions' pseudo-variable for the name: `V` or `V[I]`.
fn in_place_of_the_name(last: &Item, span: crate::source::Span) -> Item {
    let positions = Item::Name(ast::Name {
        text: POSITIONS.to_string(),
        span,
    });
    match last {
        Item::Indexed { indices, span, .. } => Item::Indexed {
            base: Box::new(positions),
            indices: indices.clone(),
            span: *span,
        },
        _ => positions,
    }
}

/// The structural primitives that choose and arrange items.
fn is_structural(primitive: Primitive) -> bool {
    use Primitive::*;
    matches!(
        primitive,
        Rho | Comma
            | CommaBar
            | CircleStile
            | CircleBar
            | Transpose
            | UpArrow
            | DownArrow
            | RightShoe
            | Squad
            | RightTack
            | Epsilon
            | Slash
            | SlashBar
    )
}
