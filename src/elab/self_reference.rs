//! A dfn that calls itself by the name it is assigned to: `f←{⍵=0:0 ⋄ 1+f ⍵-1}`.
//!
//! Dyalog looks a dfn's free names up when it runs, by which time `f` names the dfn itself, so the call is a
//! recursive call. aplc inlines dfns with the environment of their definition, where `f` is not yet defined (or is an
//! older value); so before the assignment is elaborated, the dfn's references to its own name become `∇`, which means
//! the same and which elaboration already handles (tail calls become loops, recursion on constants unfolds).
//!
//! Only the dfn's own level is rewritten: inside a nested dfn `∇` would be the nested one. The dfn is left alone when
//! it assigns the name itself (then the name is local) or uses `⍺⍺`/`⍵⍵` (an operator's `∇` is its derived function,
//! not the operator its name denotes).

use crate::syntax::ast::{selected_name, AssignTarget, Dfn, Expr, Item, SpecialName, Statement, StatementKind};

/// The value of `name←value` to elaborate: the dfn with its self-references as `∇` when `value` is a dfn that refers
/// to `name`, `None` otherwise (elaborate `value` as it is).
pub fn dfn_with_self_references_as_del(value: &Expr, name: &str) -> Option<Expr> {
    let [Item::Dfn(dfn)] = value.items.as_slice() else {
        return None;
    };
    if value.assignment.is_some() {
        return None;
    }
    let mut rewrite = Rewrite { name, found: false };
    let body = dfn
        .body
        .iter()
        .map(|statement| rewrite.statement(statement))
        .collect::<Option<Vec<_>>>()?;
    rewrite.found.then(|| Expr {
        items: vec![Item::Dfn(Box::new(Dfn {
            body,
            annotation: dfn.annotation.clone(),
            span: dfn.span,
        }))],
        assignment: None,
        span: value.span,
    })
}

struct Rewrite<'a> {
    name: &'a str,
    /// Whether a reference to the name was replaced.
    found: bool,
}

impl Rewrite<'_> {
    /// `None` when the dfn must be left alone.
    fn statement(&mut self, statement: &Statement) -> Option<Statement> {
        let kind = match &statement.kind {
            StatementKind::Expr(expr) => StatementKind::Expr(self.expr(expr)?),
            StatementKind::Guard { condition, result } => StatementKind::Guard {
                condition: self.expr(condition)?,
                result: self.expr(result)?,
            },
            // The parser allows neither in a dfn body.
            StatementKind::Tradfn(_) | StatementKind::Control(_) => return None,
        };
        Some(Statement {
            kind,
            ..statement.clone()
        })
    }

    fn expr(&mut self, expr: &Expr) -> Option<Expr> {
        let items = self.items(&expr.items)?;
        let assignment = match &expr.assignment {
            None => None,
            Some(assignment) => {
                let assigns_the_name = match &assignment.target {
                    AssignTarget::Name(target) => target.text == self.name,
                    AssignTarget::Names(targets, _) => targets.iter().any(|target| target.text == self.name),
                    AssignTarget::Selection(selection, _) => {
                        selected_name(selection).is_some_and(|name| name.text == self.name)
                    }
                    _ => false,
                };
                if assigns_the_name {
                    return None;
                }
                let mut assignment = assignment.clone();
                assignment.value = self.expr(&assignment.value)?;
                assignment.modifier = self.items(&assignment.modifier)?;
                if let Some(indices) = &assignment.indices {
                    assignment.indices = Some(self.indices(indices)?);
                }
                Some(assignment)
            }
        };
        Some(Expr {
            items,
            assignment,
            span: expr.span,
        })
    }

    fn items(&mut self, items: &[Item]) -> Option<Vec<Item>> {
        items.iter().map(|item| self.item(item)).collect()
    }

    fn indices(&mut self, indices: &[Option<Expr>]) -> Option<Vec<Option<Expr>>> {
        indices
            .iter()
            .map(|index| match index {
                Some(index) => self.expr(index).map(Some),
                None => Some(None),
            })
            .collect()
    }

    fn item(&mut self, item: &Item) -> Option<Item> {
        Some(match item {
            Item::Name(name) if name.text == self.name => {
                self.found = true;
                Item::Special(SpecialName::Del, name.span)
            }
            Item::Special(SpecialName::AlphaAlpha | SpecialName::OmegaOmega, _) => return None,
            Item::Parenthesised(inner, span) => Item::Parenthesised(Box::new(self.expr(inner)?), *span),
            Item::Indexed { base, indices, span } => Item::Indexed {
                base: Box::new(self.item(base)?),
                indices: self.indices(indices)?,
                span: *span,
            },
            other => other.clone(),
        })
    }
}
