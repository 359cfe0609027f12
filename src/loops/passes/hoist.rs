//! Allocation hoisting: a block allocated and freed in every iteration of a loop, with a size that does not change
//! from one iteration to the next, is allocated once before the loop and freed once after it.
//!
//! ```text
//! for it62 < 4 {                          let n30 : int = (s14 * s15)
//!   let n30 : int = (s14 * s15)           alloc mem31 : int[n30]
//!   alloc mem31 : int[n30]          =>    for it62 < 4 {
//!   ...                                     ...
//!   free mem31                            }
//! }                                       free mem31
//! ```
//!
//! Conditions, all checked on the loop body's own statement list (inner loops are hoisted first, so a block can
//! climb out of a whole nest):
//! - the `alloc` and the `free` of the block are both statements of the body, so the block never outlives one
//!   iteration and no iteration can read what an earlier one stored except through the buffer it now keeps, which
//!   lowering never does (every element is stored before it is read: native allocations are not initialised);
//! - no `swap` in the loop names the block (a swap would make the name denote another buffer at the `free`), unless
//!   the swap is a double buffering whose two buffers always have the same size ([`super::double_buffer`]);
//! - the size is loop-invariant: an expression that cannot fail (see [`is_safe_pure`]) over variables that the loop
//!   neither defines nor assigns (or only assigns their own value, as a `⍣` loop does with the shape of a state that
//!   keeps its shape), or over `let`s at the top of the body that are themselves invariant in that sense;
//!   those `let`s move out with the allocation (they are safe, so evaluating them when the loop runs zero times
//!   changes nothing).

use super::double_buffer::{keeps_buffer_across_iterations, ProgramFacts};
use crate::loops::ir::{Block, Expr, Stmt};
use crate::loops::rewrite::{is_safe_pure, nested_lists_mut, variables_of};
use std::collections::{HashMap, HashSet};

/// The pass.
pub fn hoist_allocations(mut program: crate::loops::ir::Program) -> crate::loops::ir::Program {
    let facts = ProgramFacts::of(&program.body);
    hoist_in_list(&mut program.body, &facts);
    program
}

fn hoist_in_list(statements: &mut Vec<Stmt>, facts: &ProgramFacts) {
    let mut position = 0;
    while position < statements.len() {
        for list in nested_lists_mut(&mut statements[position]) {
            hoist_in_list(list, facts);
        }
        let (before, after) = match &mut statements[position] {
            Stmt::For { index, body, .. } => hoist_out_of_body(body, Some(index.id), facts),
            Stmt::While { body, .. } => hoist_out_of_body(body, None, facts),
            _ => (Vec::new(), Vec::new()),
        };
        let moved_before = before.len();
        let moved_after = after.len();
        statements.splice(position + 1..position + 1, after);
        statements.splice(position..position, before);
        position += moved_before + 1 + moved_after;
    }
}

/// Removes the hoistable allocations (and the `let`s their sizes need) from a loop body; returns the statements to
/// put before the loop and after it.
fn hoist_out_of_body(body: &mut Vec<Stmt>, loop_index: Option<u32>, facts: &ProgramFacts) -> (Vec<Stmt>, Vec<Stmt>) {
    let mut variant = variables_set_in(body, loop_index);
    for id in self_assigned_variables(body) {
        variant.remove(&id);
    }
    // A variable from outside the loop with one known value wherever it is in scope is the same in every iteration
    // (a variable defined in the body stays variant: its definition would have to move out too).
    let defined = variables_defined_in(body);
    variant.retain(|id| defined.contains(id) || !facts.is_constant(*id));
    let invariant_lets = invariant_top_level_lets(body, &variant);
    let swapped = swapped_blocks(body);
    let mut hoisted_lets: HashSet<u32> = HashSet::new();
    let mut hoisted_blocks: Vec<Block> = Vec::new();
    for statement in body.iter() {
        let Stmt::Alloc { block, size, .. } = statement else {
            continue;
        };
        let freed_here = body.contains(&Stmt::Free { block: *block });
        if !freed_here || !is_safe_pure(size) {
            continue;
        }
        if swapped.contains(&block.id) && !keeps_buffer_across_iterations(body, *block, size, facts) {
            continue;
        }
        if let Some(needed) = lets_needed(size, &variant, &invariant_lets) {
            hoisted_lets.extend(needed);
            hoisted_blocks.push(*block);
        }
    }
    let moves_out = |statement: &Stmt| match statement {
        Stmt::Let { var, .. } => hoisted_lets.contains(&var.id),
        Stmt::Alloc { block, .. } => hoisted_blocks.contains(block),
        _ => false,
    };
    let before: Vec<Stmt> = body.iter().filter(|s| moves_out(s)).cloned().collect();
    body.retain(|s| !moves_out(s));
    let after: Vec<Stmt> = hoisted_blocks.iter().map(|&block| Stmt::Free { block }).collect();
    body.retain(|s| !matches!(s, Stmt::Free { block } if hoisted_blocks.contains(block)));
    (before, after)
}

/// The `let`s (by variable id) an invariant size needs moved out with it, or `None` when the size is not invariant.
fn lets_needed(size: &Expr, variant: &HashSet<u32>, invariant_lets: &HashMap<u32, Expr>) -> Option<HashSet<u32>> {
    let mut needed = HashSet::new();
    let mut pending = HashSet::new();
    variables_of(size, &mut pending);
    while let Some(id) = pending.iter().next().copied() {
        pending.remove(&id);
        if !variant.contains(&id) || needed.contains(&id) {
            continue;
        }
        let value = invariant_lets.get(&id)?;
        needed.insert(id);
        variables_of(value, &mut pending);
    }
    Some(needed)
}

/// The `let`s at the top level of the body whose values are safe and use only invariant variables or earlier such
/// `let`s: they may move before the loop.
fn invariant_top_level_lets(body: &[Stmt], variant: &HashSet<u32>) -> HashMap<u32, Expr> {
    let mut lets = HashMap::new();
    for statement in body {
        if let Stmt::Let { var, value } = statement {
            let mut used = HashSet::new();
            variables_of(value, &mut used);
            let invariant = used.iter().all(|id| !variant.contains(id) || lets.contains_key(id));
            if is_safe_pure(value) && invariant {
                lets.insert(var.id, value.clone());
            }
        }
    }
    lets
}

/// Every variable the loop defines or assigns (at any depth), and its index: what may change between iterations.
fn variables_set_in(body: &[Stmt], loop_index: Option<u32>) -> HashSet<u32> {
    let mut variant = variables_defined_in(body);
    variant.extend(loop_index);
    crate::loops::ir::for_each_statement(body, &mut |statement| {
        if let Stmt::Assign { var, .. } = statement {
            variant.insert(var.id);
        }
    });
    variant
}

/// The mutable variables the loop assigns only their own value: exactly one assignment in the whole body, at its top
/// level, of the variable itself or of a `let` before it (at the top level) that is, through other such `let`s, the
/// variable itself. Lowering writes the shape of a `⍣` loop's state this way (`let n79 = s28 ... s28 := n79`) when
/// the state keeps its shape; the variable then has the same value in every iteration.
fn self_assigned_variables(body: &[Stmt]) -> HashSet<u32> {
    let mut assignments: HashMap<u32, usize> = HashMap::new();
    crate::loops::ir::for_each_statement(body, &mut |statement| {
        if let Stmt::Assign { var, .. } = statement {
            *assignments.entry(var.id).or_default() += 1;
        }
    });
    let mut copies_of: HashMap<u32, u32> = HashMap::new();
    let mut self_assigned = HashSet::new();
    for statement in body {
        match statement {
            Stmt::Let {
                var,
                value: Expr::Var(source),
            } => {
                copies_of.insert(var.id, *copies_of.get(&source.id).unwrap_or(&source.id));
            }
            Stmt::Assign {
                var,
                value: Expr::Var(source),
            } if assignments.get(&var.id) == Some(&1) && *copies_of.get(&source.id).unwrap_or(&source.id) == var.id => {
                self_assigned.insert(var.id);
            }
            _ => {}
        }
    }
    self_assigned
}

/// The variables the body defines (at any depth), the loop's own index excluded.
fn variables_defined_in(body: &[Stmt]) -> HashSet<u32> {
    let mut defined = HashSet::new();
    crate::loops::ir::for_each_statement(body, &mut |statement| {
        defined.extend(
            crate::loops::ir::defined_variables_of(statement)
                .iter()
                .map(|var| var.id),
        );
    });
    defined
}

fn swapped_blocks(body: &[Stmt]) -> HashSet<u32> {
    let mut swapped = HashSet::new();
    crate::loops::ir::for_each_statement(body, &mut |statement| {
        if let Stmt::Swap { first, second } = statement {
            swapped.insert(first.id);
            swapped.insert(second.id);
        }
    });
    swapped
}
