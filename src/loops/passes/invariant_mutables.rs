//! Mutables that never change value become `let`s.
//!
//! Lowering keeps the shape of a loop state (the state of `⍣`) in mutables, because in general a step may change it:
//! `var s = n; for it < k { ...; let m = s; ...; s := m }`. When the step keeps the shape, every assignment stores
//! the variable's own value back (looked through let-bound copies), or the constant it started with, or the `let` it
//! started with (`var s = n; …; s := n'` with `let n' = n`: a matrix product by the state, `{A+.×⍵}⍣k`, whose
//! rows are A's, which the state had from the start). Such a variable
//! is a constant of the loop: here it becomes a `let` and its assignments go, so that the passes that follow see it
//! as invariant: an index through it is simplified (`index_simplify` looks only through immutable values), and an
//! allocation whose size it gives is hoisted out of the loop instead of being made and freed every iteration. With
//! constant sizes the shapes are constants anyway; this matters for sizes read at run time.
//!
//! The rewrite is exact: if every assignment to `s` stores the value `s` already has (by induction over the order the
//! assignments run in), `s` keeps its initial value throughout.

use crate::loops::ir::{for_each_statement, Expr, Stmt};
use crate::loops::rewrite::nested_lists_mut;
use std::collections::{HashMap, HashSet};

/// Turns every mutable of `statements` whose assignments never change it into a `let`, and drops those assignments.
pub fn make_invariant_mutables_lets(statements: &mut Vec<Stmt>) {
    let invariant = invariant_mutables(statements);
    if !invariant.is_empty() {
        rewrite_list(statements, &invariant);
    }
}

/// The ids of the mutables whose every assignment stores their own value or their constant initial value.
fn invariant_mutables(statements: &[Stmt]) -> HashSet<u32> {
    let mut copies: HashMap<u32, Expr> = HashMap::new();
    let mut initial_values: HashMap<u32, Expr> = HashMap::new();
    let mut assigned_values: HashMap<u32, Vec<Expr>> = HashMap::new();
    for_each_statement(statements, &mut |statement| match statement {
        Stmt::Let { var, value } => {
            copies.insert(var.id, value.clone());
        }
        Stmt::Mutable { var, value } => {
            initial_values.insert(var.id, value.clone());
        }
        Stmt::Assign { var, value } => assigned_values.entry(var.id).or_default().push(value.clone()),
        _ => {}
    });
    let resolved = |value: &Expr| {
        let mut value = value;
        // Chains of let-bound copies are short; the bound only guards against a malformed program.
        for _ in 0..64 {
            match value {
                Expr::Var(var) if copies.contains_key(&var.id) => value = &copies[&var.id],
                _ => break,
            }
        }
        value.clone()
    };
    // The `let` whose value a value is, through chains of copies: one `let` has one value wherever it is visible.
    let original_let = |value: &Expr| {
        let Expr::Var(var) = value else {
            return None;
        };
        let mut id = copies.contains_key(&var.id).then_some(var.id)?;
        for _ in 0..64 {
            match &copies[&id] {
                Expr::Var(next) if copies.contains_key(&next.id) => id = next.id,
                _ => break,
            }
        }
        Some(id)
    };
    initial_values
        .iter()
        .filter(|(id, initial)| {
            let own_value = |value: &Expr| matches!(value, Expr::Var(var) if var.id == **id);
            let constant_initial = matches!(initial, Expr::Int(_) | Expr::Bool(_) | Expr::Char(_));
            let initial_let = original_let(initial);
            assigned_values.get(id).is_none_or(|values| {
                values.iter().all(|value| {
                    let same_let = initial_let.is_some() && original_let(value) == initial_let;
                    let value = resolved(value);
                    same_let || own_value(&value) || (constant_initial && value == **initial)
                })
            })
        })
        .map(|(id, _)| *id)
        .collect()
}

fn rewrite_list(statements: &mut Vec<Stmt>, invariant: &HashSet<u32>) {
    statements.retain(|statement| !matches!(statement, Stmt::Assign { var, .. } if invariant.contains(&var.id)));
    for statement in statements.iter_mut() {
        if let Stmt::Mutable { var, value } = statement {
            if invariant.contains(&var.id) {
                *statement = Stmt::Let {
                    var: var.clone(),
                    value: value.clone(),
                };
                continue;
            }
        }
        for list in nested_lists_mut(statement) {
            rewrite_list(list, invariant);
        }
    }
}
